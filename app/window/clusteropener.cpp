// SPDX-License-Identifier: Apache-2.0
#include "clusteropener.h"
#include "app/dialogs/filedialogs.h"

#include "app/cli/clustersource.h"
#include "app/cli/commandlinepath.h"
#include "app/controllers/planopener.h"
#include "app/dialogs/connectdialog.h"
#include "app/dialogs/simulatedialog.h"
#include "app/window/mainwindow.h"
#include "app/window/plandocument.h"
#include "app/window/windowdocument.h"

#include "importers/plan/plansource.h"


#include <algorithm>

namespace fleet::app {

ClusterOpener::ClusterOpener(MainWindow* window, ImportController* imports, PlanDocument* planDocument)
    : QObject(window)
    , m_window(window)
    , m_imports(imports)
    , m_planDocument(planDocument)
{
}

void ClusterOpener::openFiles(const QStringList& paths, ImportController::Usage usage)
{
    const QStringList clusterFiles = m_planDocument->takePlanFiles(paths);
    if (clusterFiles.isEmpty())
        return;
    m_requestedFiles = clusterFiles;
    m_requestedSimulation.clear();
    m_imports->startFiles(clusterFiles, std::move(usage));
}

void ClusterOpener::openSimulated(std::size_t nodeCount, std::uint64_t seed, ImportController::Usage usage, std::size_t regions)
{
    m_lastSimulation = { nodeCount, seed, regions };
    m_requestedFiles.clear();
    m_requestedSimulation = QString::fromStdString(importers::sourceOfSimulation(nodeCount, seed, regions).simulated);
    m_imports->startSimulated(nodeCount, seed, std::move(usage), regions);
}

void ClusterOpener::openLive(const QString& kubeconfig, const QString& context, ImportController::Usage usage,
                             importers::kube::KubeconfigInput input, std::chrono::milliseconds requestTimeout)
{
    m_requestedFiles.clear();
    m_requestedSimulation.clear();
    m_imports->startLive(kubeconfig, context, std::move(usage), input, requestTimeout);
}

void ClusterOpener::openSource(const ClusterSource& source)
{
    // The usage options name the usage of this source only: a later File > Open does not keep them.
    if (source.live)
        openLive(source.kubeconfig, source.context, source.usage, importers::kube::KubeconfigInput::CommandLine, source.requestTimeout);
    else if (source.simulate) {
        openSimulated(source.simulatedNodes, source.seed, source.usage, source.simulatedRegions);
        for (const QString& plan : source.files) // a plan file beside --simulate (readClusterSource())
            m_planDocument->openWhenReady(plan);
    }
    else
        openFiles(source.files, source.usage);
}

void ClusterOpener::showOpenDialog()
{
    const QStringList paths = askOpenFileNames(m_window, tr("Open Cluster Files"),
        tr("Cluster files, a document or a plan (*.json *.csv *.fleet);;Fleetscope documents (*.fleet);;kubectl JSON (*.json);;"
           "Alibaba GPU trace CSV (*.csv);;Plan files (*.json);;All files (*)"));
    m_window->restoreMapFocus();
    if (paths.isEmpty())
        return;
    // A plan alone replaces the shown plan (PlanDocument asks for it); a cluster replaces all.
    const bool plansOnly = std::all_of(paths.begin(), paths.end(), [](const QString& p) { return looksLikePlanFile(p); });
    if (!plansOnly && !m_window->document()->confirmClose())
        return;
    openFiles(paths);
}

void ClusterOpener::showSimulateDialog()
{
    SimulateDialog dialog(m_window);
    if (m_lastSimulation.nodeCount > 0) {
        dialog.setNodeCount(m_lastSimulation.nodeCount);
        dialog.setSeed(m_lastSimulation.seed);
        dialog.setRegionCount(m_lastSimulation.regionCount);
    }
    if (dialog.exec() == QDialog::Accepted && m_window->document()->confirmClose())
        openSimulated(dialog.nodeCount(), dialog.seed(), std::nullopt, dialog.regionCount());
    m_window->restoreMapFocus();
}

void ClusterOpener::showConnectDialog()
{
    ConnectDialog dialog(m_window);
    if (!m_lastKubeconfig.isEmpty())
        dialog.setKubeconfig(m_lastKubeconfig);
    const bool ok = dialog.exec() == QDialog::Accepted && m_window->document()->confirmClose();
    m_window->restoreMapFocus();
    if (!ok)
        return;
    m_lastKubeconfig = dialog.kubeconfig();
    // This connection's usage only; errors name the dialog's fields, not the command line's flags.
    openLive(dialog.kubeconfig(), dialog.context(), dialog.usageSource(), importers::kube::KubeconfigInput::WindowDialog,
             importers::kube::kDefaultRequestTimeout);
}

void ClusterOpener::requestedShown()
{
    m_shownFiles = m_requestedFiles;
    m_shownSimulation = m_requestedSimulation;
}

importers::PlanSource ClusterOpener::planSource() const
{
    const std::shared_ptr<const ImportedCluster> cluster = m_window->cluster();
    // A .fleet document is the state it was saved from: a plan made on it names that source
    // (as the command line's clusterPlanSource() does).
    if (cluster && cluster->document)
        return cluster->document->provenance;
    if (!m_shownFiles.isEmpty()) {
        std::vector<std::string> files;
        for (const QString& f : m_shownFiles)
            files.push_back(commandLinePath(f));
        return importers::sourceOfFiles(files);
    }
    importers::PlanSource source;
    source.simulated = m_shownSimulation.toStdString();
    if (cluster && source.simulated.empty())
        source = importers::sourceOfLiveCluster(cluster->server.toStdString(), cluster->resourceVersion.toStdString());
    return source;
}

std::function<importers::PlanSource()> ClusterOpener::planSourceOnWorker() const
{
    const std::shared_ptr<const ImportedCluster> cluster = m_window->cluster();
    if (cluster && cluster->document)
        return [provenance = cluster->document->provenance] { return provenance; };
    std::vector<std::string> files;
    for (const QString& f : m_shownFiles)
        files.push_back(commandLinePath(f)); // as planSource() names them (a file name that is not UTF-8 stays as given)
    const std::string simulated = m_shownSimulation.toStdString();
    const std::string server = cluster ? cluster->server.toStdString() : std::string();
    const std::string resourceVersion = cluster ? cluster->resourceVersion.toStdString() : std::string();
    return [files, simulated, server, resourceVersion] {
        if (!files.empty())
            return importers::sourceOfFiles(files);
        importers::PlanSource s;
        s.simulated = simulated;
        if (simulated.empty())
            s = importers::sourceOfLiveCluster(server, resourceVersion);
        return s;
    };
}

} // namespace fleet::app
