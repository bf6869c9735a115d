// SPDX-License-Identifier: Apache-2.0
// MainWindow: a live cluster. A LiveFeed's batches are applied to the shown store
// by the LiveController, one transaction each; this file makes the window follow each diff.
//
// What is built from the store at load, and what a diff does to it:
// - topology, the map's layout, the exploring analysis (problems, pending shapes, search):
//   rebuilt when nodes were added, deleted or relabelled (the layout depends on them);
// - the map's colours (every metric reads the columns): recoloured once per turn of the event
//   loop that applied diffs (FleetMapView::refreshMetric(), one pass over the nodes), so the map
//   redraws at most once per batch; the controller applies batches for at most 12 ms a turn;
// - the problems, pending shapes, problem markers and the status bar's totals: computed again
//   after the diffs on one worker over one state (ExplorePanels::refreshAnalysis(): at most one
//   start a second, over the analysis' own copy of the store, which the worker brings up to
//   date with the batches applied since; only taking the copy, once, holds the batches), so
//   the legend's marker key, the markers, the status bar and the Problems and Pending titles
//   give the same counts;
// - the plan engine (the what-if ledger, PlanLedger): built over one state, so it is
//   dropped on every diff and rebuilt on a worker once the feed paused for 3 s (its build holds
//   the batches) (PlanController::storeChanged()); while a plan has actions the batches are held instead
//   and the plan marks the actions they make stale (PlanController::checkStale());
// - usage (the simulated usage or Prometheus'): kept by node and pod id as read; pods added
//   live have no usage (unknown), which the usage metrics say.
// Workers that read the store hold a StoreReadGuard on it; its batches wait for them (LiveController).

#include "app/window/mainwindow.h"

#include "app/window/clustertotals.h"
#include "app/window/connectionpanel.h"
#include "app/window/explorepanels.h"
#include "app/controllers/livecontroller.h"
#include "app/controllers/plancontroller.h"
#include "app/window/statusfield.h"

#include "importers/live/kubewatchfeed.h"
#include "model/topology.h"

#include <QDockWidget>
#include <QStatusBar>
#include <QMetaObject>
#include <QAction>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QTimer>

namespace fleet::app {

void MainWindow::createLivePanel()
{
    m_live = new LiveController(m_storeReaders, this);
    m_connectionPanel = new ConnectionPanel(m_live, this);
    m_connectionPanel->setObjectName(QStringLiteral("connectionPanel"));
    m_connectionDock = new QDockWidget(tr("Connection"), this);
    m_connectionDock->setObjectName(QStringLiteral("connectionDock"));
    m_connectionDock->setWidget(m_connectionPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_connectionDock);
    m_connectionDock->hide();
    connect(m_live, &LiveController::diffApplied, this, &MainWindow::onLiveDiff);
    connect(m_live, &LiveController::batchHeld, m_plan, &PlanController::checkStale);
    connect(m_live, &LiveController::applyFailed, this, [this](const QString& message) {
        m_plan->messageShown(tr("A live change was refused: %1").arg(message));
    });
    connect(m_live, &LiveController::liveStatusChanged, this, &MainWindow::updatePartialView);
    // Planning on a cluster that keeps changing: the what-if works on one state, so it is
    // built once the feed pauses; a feed that never pauses is held by hand while one plans.
    m_pauseLive = planMenu(this)->addAction(tr("Pause &Live Updates"));
    m_pauseLive->setObjectName(QStringLiteral("actionPauseLiveUpdates"));
    m_pauseLive->setCheckable(true);
    m_pauseLive->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_pauseLive->setToolTip(tr("Hold the live cluster's changes while you plan: the what-if works on the cluster as it is now"));
    m_pauseLive->setEnabled(false);
    connect(m_pauseLive, &QAction::toggled, this, &MainWindow::setLiveUpdatesPaused);
    m_liveTotalsTimer = new QTimer(this);
    m_liveTotalsTimer->setSingleShot(true);
    m_liveTotalsTimer->setInterval(1000);
    connect(m_liveTotalsTimer, &QTimer::timeout, this, &MainWindow::updateLiveTotals);
    // The analysis of a live state carries the status bar's totals of that same state.
    connect(m_explore, &ExplorePanels::analysisApplied, this, [this] {
        const auto totals = m_explore->analysedTotals();
        if (!totals || !m_cluster)
            return;
        auto cluster = std::make_shared<ImportedCluster>(*m_cluster);
        cluster->totals = *totals;
        m_cluster = std::move(cluster);
        showTotals();
    });
}

bool MainWindow::startLiveFeed(std::unique_ptr<importers::live::LiveFeed> feed)
{
    if (!m_cluster || !m_cluster->store || !feed)
        return false;
    // The importer made the store (non-const) and shared it as const with every view; from
    // here on the live controller is its one writer, on this thread, between frames.
    auto store = std::const_pointer_cast<model::ClusterStore>(m_cluster->store);
    m_connectionDock->show();
    m_explore->followLiveStore();
    m_live->start(std::move(feed), std::move(store));
    m_pauseLive->setEnabled(true);
    m_plan->setNotReadyHint(tr("The cluster keeps changing: Plan > Pause Live Updates (Ctrl+Shift+L) holds the changes while you plan."));
    updateLiveHold();
    return true;
}

void MainWindow::startKubeWatch()
{
    try {
        if (startLiveFeed(importers::live::makeKubeWatchFeed(*m_cluster->kubeconfig, m_cluster->nodesResourceVersion.toStdString(),
                                                             m_cluster->resourceVersion.toStdString())))
            startUsageRefresh();
    } catch (const std::exception& e) { // a setting the client refuses: the LIST worked, so this is rare
        m_warningLabel->setText(tr("The cluster is shown as listed, but cannot be watched: %1").arg(QString::fromStdString(e.what())));
        m_warningBanner->show();
    }
}

void MainWindow::stopLiveFeed()
{
    stopUsageRefresh();
    if (m_live)
        m_live->stop();
    if (m_pauseLive) {
        const QSignalBlocker quiet(m_pauseLive);
        m_pauseLive->setChecked(false);
        m_pauseLive->setEnabled(false);
    }
    m_livePaused = false;
    m_liveHeldByPlan = false;
    m_plan->setNotReadyHint({});
}

void MainWindow::setLiveUpdatesPaused(bool paused)
{
    if (!m_live || !m_live->isRunning() || paused == m_livePaused)
        return;
    if (m_pauseLive->isChecked() != paused) {
        const QSignalBlocker quiet(m_pauseLive);
        m_pauseLive->setChecked(paused);
    }
    const std::size_t waiting = m_live->batchesWaiting();
    m_livePaused = paused;
    updateLiveHold();
    if (paused) {
        // The what-if on the state held now (built on a worker, with the changes waiting).
        if (!m_plan->engine())
            m_plan->buildEngineNow();
        m_status->showPlanMessage(tr("Live updates paused: the what-if works on the cluster as it is now; changes wait until you "
                                     "resume (Ctrl+Shift+L)."));
    } else if (m_plan->hasPlan()) {
        m_status->showPlanMessage(tr("Live updates resumed; they still wait while the plan has actions, and the actions they make "
                                     "stale are marked."));
    } else {
        m_status->showPlanMessage(tr("Live updates resumed: %n batch(es) of changes that waited apply now.", nullptr, static_cast<int>(waiting)));
    }
}

void MainWindow::updatePartialView()
{
    const QString partial = m_connectionPanel->partialView();
    // The whole words, then shorter ones down to "Partial view" as the status bar narrows.
    const QString counts = partial.section(QStringLiteral(" ("), 0, 0); // "pods of 1 of 2 namespaces"
    m_status->setPartialView(partial.isEmpty() ? QStringList()
                                               : QStringList { tr("Partial view: %1").arg(partial),
                                                     tr("Partial view: %1").arg(counts), tr("Partial view") },
        partial.isEmpty() ? QString()
                          : tr("Partial view: %1. The cluster-wide pod list was refused; the totals and the map count the pods of these "
                               "namespaces only.").arg(partial));
}

void MainWindow::showListedView()
{
    m_connectionPanel->setListedView(m_cluster ? m_cluster->partialView : QString());
    updatePartialView();
}

QString MainWindow::partialViewNotice() const
{
    return m_status->partialViewText();
}

void MainWindow::updateLiveHold()
{
    if (!m_live || !m_live->isRunning())
        return;
    const bool heldByPlan = m_plan->hasPlan();
    if (heldByPlan)
        m_live->setHeld(true, tr("a plan is open; they apply once it is cleared (the plan marks the actions they make stale)"));
    else
        m_live->setHeld(m_livePaused, tr("updates are paused while you plan (Plan > Pause Live Updates)"));
    // The plan emptied (undone, cleared): the batches it held apply now, unless paused. Say so in
    // place of an earlier message that they wait for the plan.
    if (m_liveHeldByPlan && !heldByPlan && !m_livePaused)
        m_status->showPlanMessage(tr("The plan is empty: live updates apply again (%n batch(es) of changes waited).", nullptr,
            static_cast<int>(m_live->batchesWaiting())));
    m_liveHeldByPlan = heldByPlan;
}

void MainWindow::onLiveDiff(const model::ClusterDiff& diff, const model::ClusterChangeBatch& batch)
{
    if (diff.empty() || !m_cluster)
        return;
    const bool structural = !diff.nodesAdded.empty() || !diff.nodesRemoved.empty() || !diff.nodesRelabelled.empty();
    if (structural) {
        auto cluster = std::make_shared<ImportedCluster>(*m_cluster);
        model::TopologySpec spec { m_cluster->topology->levelKeys() };
        cluster->topology = std::make_shared<model::Topology>(model::Topology::build(*cluster->store, spec));
        m_cluster = std::move(cluster);
        m_map->setCluster(m_cluster->store, m_cluster->topology);
        m_explore->setCluster(m_cluster->store, m_cluster->topology); // a worker: the next batches wait
    } else if (!m_liveRecolourPosted) {
        // One recolour per turn of the event loop however many batches it applied: the map
        // redraws at most once per batch, and not once per batch when they come in bursts.
        m_liveRecolourPosted = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_liveRecolourPosted = false;
                m_map->refreshMetric();
                emit liveDiffShown();
            },
            Qt::QueuedConnection);
    }
    m_plan->storeChanged(m_cluster->topology);
    if (!structural) { // a structural diff re-analyses the new layout's cluster (setCluster)
        if (m_liveTotalsFor != m_cluster->store.get()) {
            // The import's warnings, counted in the totals, as of this cluster's load.
            auto report = std::make_shared<const importers::ImportReport>(m_cluster->report);
            m_explore->setTotalsFunction([report](const model::ClusterStore& store) { return computeTotals(store, *report); });
            m_liveTotalsFor = m_cluster->store.get();
        }
        m_explore->refreshAnalysis(!diff.podsAdded.empty() || !diff.podsRemoved.empty(), batch);
    } else if (!m_liveTotalsTimer->isActive()) {
        m_liveTotalsTimer->start();
    }
    ++m_liveDiffsShown;
    if (structural)
        emit liveDiffShown();
}

void MainWindow::updateLiveTotals()
{
    if (!m_cluster)
        return;
    auto cluster = std::make_shared<ImportedCluster>(*m_cluster);
    cluster->totals = computeTotals(*cluster->store, cluster->report);
    m_cluster = std::move(cluster);
    showTotals();
}

} // namespace fleet::app
