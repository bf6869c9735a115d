// SPDX-License-Identifier: Apache-2.0
// The plan as a document in the main window: File > Open Plan (also Ctrl+O on a plan file, and a
// plan named on the command line), where it was saved, and the question before the window closes
// with a plan that is not saved. One "modified" state: the undo stack's clean state.

#include "app/window/mainwindow.h"

#include "app/controllers/planopener.h"
#include "app/controllers/plancontroller.h"

#include "importers/plan/plansource.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QUndoStack>

namespace fleet::app {

bool MainWindow::isPlanModified() const
{
    return !m_undoStack->isClean();
}

void MainWindow::createPlanFileActions(QMenu* file)
{
    m_planOpener = new PlanOpener(this, m_plan);
    QAction* open = file->addAction(tr("Open P&lan\u2026"), this, &MainWindow::showOpenPlanDialog);
    open->setObjectName(QStringLiteral("actionOpenPlan"));
    open->setStatusTip(tr("Open a saved plan and check it against the shown cluster, as `plan check` does"));
    connect(m_plan, &PlanController::engineReady, this, [this] {
        if (m_planToOpen.isEmpty())
            return;
        const QString path = std::exchange(m_planToOpen, QString());
        openPlanFile(path);
    });
    connect(m_planOpener, &PlanOpener::finished, this, [this](bool opened) {
        if (opened)
            m_planPath = m_planOpener->path();
    });
}

QStringList MainWindow::takePlanFiles(const QStringList& paths)
{
    QStringList plans, cluster;
    for (const QString& p : paths)
        (p.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive) && looksLikePlanFile(p) ? plans : cluster) << p;
    if (plans.size() > 1) {
        QMessageBox::warning(this, tr("Open"),
            tr("Open one plan at a time: %1 are plan files. Nothing was opened.").arg(plans.join(QStringLiteral(", "))));
        return {};
    }
    if (plans.isEmpty())
        return cluster;
    if (cluster.isEmpty())
        openPlanFile(plans.front());
    else
        m_planToOpen = plans.front(); // once the cluster files' what-if is ready
    return cluster;
}

void MainWindow::showOpenPlanDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Plan"), QString(), tr("Plan files (*.json);;All files (*)"));
    restoreMapFocus();
    if (!path.isEmpty())
        openPlanFile(path);
}

bool MainWindow::openPlanFile(const QString& path)
{
    if (!m_plan->engine()) {
        QMessageBox::information(this, tr("Open Plan"),
            m_cluster ? tr("The what-if is still being prepared for this cluster; open the plan again in a moment.")
                      : tr("Open a cluster first: a plan is checked against the cluster shown."));
        return false;
    }
    if (m_planOpener->isRunning() || !confirmPlanClose())
        return false;
    // The shown state, named on the worker (the files' digests are read there).
    std::vector<std::string> files;
    for (const QString& f : m_shownFiles)
        files.push_back(f.toStdString());
    const std::string simulated = m_shownSimulation.toStdString();
    const std::string server = m_cluster ? m_cluster->server.toStdString() : std::string();
    const std::string resourceVersion = m_cluster ? m_cluster->resourceVersion.toStdString() : std::string();
    auto source = [files, simulated, server, resourceVersion] {
        if (!files.empty())
            return importers::sourceOfFiles(files);
        importers::PlanSource s;
        s.simulated = simulated;
        if (simulated.empty())
            s = importers::sourceOfLiveCluster(server, resourceVersion);
        return s;
    };
    return m_planOpener->open(path, source);
}

QString MainWindow::savePlanTo(const QString& path)
{
    QString error;
    try {
        error = m_plan->savePlan(path, planSource());
    } catch (const std::exception& e) {
        error = tr("Cannot name the plan's source: %1").arg(QString::fromStdString(e.what()));
    }
    if (error.isEmpty()) {
        m_planPath = path;
        m_undoStack->setClean();
    }
    return error;
}

bool MainWindow::confirmPlanClose()
{
    if (!isPlanModified())
        return true;
    const std::size_t actions = m_plan->engine() ? m_plan->engine()->applied().size() : 0;
    QMessageBox box(QMessageBox::Warning, tr("Unsaved Plan"),
        m_planPath.isEmpty() ? tr("The plan (%n action(s)) is not saved.", nullptr, static_cast<int>(actions))
                             : tr("The plan has changed since it was saved to %1.").arg(QFileInfo(m_planPath).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedPlanBox"));
    box.setInformativeText(tr("Save the plan before it is closed?"));
    box.button(QMessageBox::Save)->setText(m_planPath.isEmpty() ? tr("&Save\u2026") : tr("&Save"));
    box.button(QMessageBox::Discard)->setText(tr("&Discard"));
    box.button(QMessageBox::Cancel)->setText(tr("&Cancel"));
    box.setDefaultButton(QMessageBox::Save);
    box.setEscapeButton(QMessageBox::Cancel);
    const int choice = box.exec();
    if (choice == QMessageBox::Discard)
        return true;
    if (choice == QMessageBox::Save) {
        if (m_planPath.isEmpty())
            return savePlan();
        const QString error = savePlanTo(m_planPath);
        if (error.isEmpty())
            return true;
        QMessageBox::warning(this, tr("Save Plan"), withFullStop(error));
        return false;
    }
    restoreMapFocus();
    return false;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!confirmPlanClose()) {
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

} // namespace fleet::app
