// SPDX-License-Identifier: Apache-2.0
#pragma once
// Opening a cluster in the window: File > Open, Open Simulated Cluster, Connect to Cluster and
// the command line's source, handed to the ImportController; and the source a plan names.

#include "app/controllers/importcontroller.h"

#include "importers/plan/planfile.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <chrono>
#include <cstdint>
#include <functional>

namespace fleet::app {

struct ClusterSource;
class MainWindow;
class PlanDocument;

/// The window's side of an import: the File menu's dialogs (Open, Open Simulated Cluster,
/// Connect to Cluster), each asking first whether to replace the shown cluster and its plans
/// (WindowDocument::confirmClose()), and what they and the command line ask for, started on the
/// ImportController's worker (plan files among the paths go to PlanDocument instead). It owns
/// what the dialogs remember (the last simulation, the last kubeconfig) and the source of the
/// cluster requested and of the one shown (files or simulation), which names a saved plan's
/// source (planSource()). The window tells it when the requested cluster is shown
/// (requestedShown()); the ImportController's results go to the window. Thread: GUI thread.
class ClusterOpener : public QObject {
    Q_OBJECT
public:
    ClusterOpener(MainWindow* window, ImportController* imports, PlanDocument* planDocument);

    /// As MainWindow::openFiles(), openSimulated(), openLive() and openSource().
    void openFiles(const QStringList& paths, ImportController::Usage usage = std::nullopt);
    void openSimulated(std::size_t nodeCount, std::uint64_t seed, ImportController::Usage usage = std::nullopt, std::size_t regions = 1);
    void openLive(const QString& kubeconfig, const QString& context, ImportController::Usage usage,
                  importers::kube::KubeconfigInput input, std::chrono::milliseconds requestTimeout);
    void openSource(const ClusterSource& source);

    /// File > Open: cluster files, a .fleet document or plan files (a plan alone asks nothing).
    void showOpenDialog();
    /// File > Open Simulated Cluster, with the last simulation's figures.
    void showSimulateDialog();
    /// File > Connect to Cluster: a kubeconfig context (ConnectDialog), listed on a worker.
    void showConnectDialog();

    /// The requested import finished and its cluster is shown: its source is now the shown one.
    void requestedShown();
    /// The files the shown cluster was read from (empty for a simulation or a live cluster).
    [[nodiscard]] QStringList shownFiles() const { return m_shownFiles; }
    /// As MainWindow::planSource() and planSourceOnWorker().
    [[nodiscard]] importers::PlanSource planSource() const;
    [[nodiscard]] std::function<importers::PlanSource()> planSourceOnWorker() const;

private:
    MainWindow* m_window;
    ImportController* m_imports;
    PlanDocument* m_planDocument;
    // The source of the requested and of the shown cluster, for a saved plan.
    QStringList m_requestedFiles, m_shownFiles;
    QString m_requestedSimulation, m_shownSimulation;
    importers::SimulationSpec m_lastSimulation { 0, 1, 1 }; // nodes, seed, regions of the last simulation
    QString m_lastKubeconfig; // the file File > Connect used last
};

} // namespace fleet::app
