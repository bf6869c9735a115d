// SPDX-License-Identifier: Apache-2.0
// LiveSession: a live cluster in the window (livesession.h).
#include "livesession.h"

#include "app/controllers/livecontroller.h"
#include "app/controllers/plancontroller.h"
#include "app/window/clustertotals.h"
#include "app/window/explorepanels.h"

#include "importers/live/livefeed.h"
#include "model/topology.h"
#include "views/map/fleetmapview.h"

#include <QAction>
#include <QKeySequence>
#include <QMenu>
#include <QMetaObject>
#include <QSignalBlocker>
#include <QTimer>
#include <QUndoStack>

namespace fleet::app {

LiveSession::LiveSession(Parts parts, std::shared_ptr<StoreReaders> readers,
    std::function<std::shared_ptr<const ImportedCluster>()> shown, QObject* parent)
    : QObject(parent)
    , m_parts(parts)
    , m_shown(std::move(shown))
    , m_live(new LiveController(std::move(readers), this))
{
    connect(m_live, &LiveController::diffApplied, this, &LiveSession::onDiff);
    connect(m_live, &LiveController::batchHeld, m_parts.plan, &PlanController::checkStale);
    connect(m_live, &LiveController::applyFailed, this, [this](const QString& message) {
        emit m_parts.plan->messageShown(tr("A live change was refused: %1").arg(message));
    });
    m_totalsTimer = new QTimer(this);
    m_totalsTimer->setSingleShot(true);
    m_totalsTimer->setInterval(1000);
    connect(m_totalsTimer, &QTimer::timeout, this, &LiveSession::updateTotals);
    // The analysis of a live state carries the status bar's totals of that same state.
    connect(m_parts.explore, &ExplorePanels::analysisApplied, this, [this] {
        const auto totals = m_parts.explore->analysedTotals();
        const auto shown = m_shown();
        if (!totals || !shown)
            return;
        auto cluster = std::make_shared<ImportedCluster>(*shown);
        cluster->totals = *totals;
        emit totalsUpdated(std::move(cluster));
    });
}

LiveSession::~LiveSession() = default;

void LiveSession::addPauseAction(QMenu* menu)
{
    // Planning on a cluster that keeps changing: the what-if works on one state, so it is
    // built once the feed pauses; a feed that never pauses is held by hand while one plans.
    m_pause = menu->addAction(tr("Pause &Live Updates"));
    m_pause->setObjectName(QStringLiteral("actionPauseLiveUpdates"));
    m_pause->setCheckable(true);
    m_pause->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_pause->setToolTip(tr("Hold the live cluster's changes while you plan: the what-if works on the cluster as it is now"));
    m_pause->setEnabled(m_live->isRunning());
    connect(m_pause, &QAction::toggled, this, &LiveSession::setPaused);
    // Undoing a plan to empty keeps the batches waiting while Redo can bring the work back; this
    // lets them in, on the user's word, dropping that history.
    m_apply = menu->addAction(tr("Apply &Waiting Live Updates (Drops Redo)"));
    m_apply->setObjectName(QStringLiteral("actionApplyWaitingLiveUpdates"));
    m_apply->setToolTip(tr("The plan is empty, and the live changes wait so that Redo can bring back what you undid: apply them "
                           "now, and drop what Redo would bring back"));
    m_apply->setEnabled(false);
    connect(m_apply, &QAction::triggered, this, &LiveSession::applyWaitingUpdates);
    // Redo's history changes without the plan changing (a new gesture, the stack cleared).
    connect(m_parts.plan->undoStack(), &QUndoStack::canRedoChanged, this, &LiveSession::updateHold);
}

void LiveSession::start(std::unique_ptr<importers::live::LiveFeed> feed, std::shared_ptr<model::ClusterStore> store)
{
    m_live->start(std::move(feed), std::move(store));
    if (m_pause)
        m_pause->setEnabled(true);
    m_parts.plan->setNotReadyHint(tr("The what-if is built once the live cluster has not changed for %n second(s), which a busy cluster "
                                     "may never do: Plan > Pause Live Updates (Ctrl+Shift+L) holds the changes, and the what-if is then "
                                     "ready on the cluster as it is.", nullptr, PlanController::kLiveRebuildMs / 1000));
    updateHold();
}

void LiveSession::stop()
{
    m_live->stop();
    if (m_pause) {
        const QSignalBlocker quiet(m_pause);
        m_pause->setChecked(false);
        m_pause->setEnabled(false);
    }
    m_paused = false;
    m_heldByPlan = false;
    m_releasePosted = false;
    if (m_apply)
        m_apply->setEnabled(false);
    m_parts.plan->setNotReadyHint({});
}

bool LiveSession::isRunning() const
{
    return m_live->isRunning();
}

void LiveSession::setPaused(bool paused)
{
    if (!m_live->isRunning() || paused == m_paused)
        return;
    if (m_pause && m_pause->isChecked() != paused) {
        const QSignalBlocker quiet(m_pause);
        m_pause->setChecked(paused);
    }
    const std::size_t waiting = m_live->batchesWaiting();
    m_paused = paused;
    updateHold();
    PlanController* plan = m_parts.plan;
    if (paused) {
        // The what-if on the state held now (built on a worker, with the changes waiting).
        if (!plan->engine())
            plan->buildEngineNow();
        emit message(tr("Live updates paused: the what-if works on the cluster as it is now; changes wait until you "
                        "resume (Ctrl+Shift+L)."));
    } else if (plan->hasPlan()) {
        emit message(tr("Live updates resumed; they still wait while the plan has actions, and the actions they make "
                        "stale are marked."));
    } else if (planWorkExists()) {
        emit message(tr("Live updates resumed; they still wait while Redo can bring back what you undid (Plan > Apply "
                        "Waiting Live Updates drops it and applies them)."));
    } else {
        emit message(tr("Live updates resumed: %1 of changes that waited apply now.").arg(LiveController::batchesText(waiting)));
    }
}

bool LiveSession::planWorkExists() const
{
    // The actions applied, and those undone that Redo brings back: applying a batch drops the
    // engine they act on, and with it the undo stack, so the work Redo holds would be lost.
    const QUndoStack* stack = m_parts.plan->undoStack();
    return m_parts.plan->hasPlan() || (stack && stack->canRedo());
}

void LiveSession::updateHold()
{
    if (!m_live->isRunning())
        return;
    const bool held = planWorkExists();
    if (held) {
        m_live->setHeld(true,
            m_parts.plan->hasPlan() ? tr("a plan is open; they apply once it is cleared (the plan marks the actions they make stale)")
                                    : tr("the plan is empty but Redo can bring back what you undid; they apply once nothing is left to redo "
                                         "(Plan > Apply Waiting Live Updates drops the Redo history and applies them)"));
        m_releasePosted = false; // a release posted meanwhile is void
        m_heldByPlan = true;
        updateApplyAction();
        return;
    }
    if (m_heldByPlan && !m_releasePosted) {
        // The plan emptied. An undo tells the plan it changed before the stack moves its index
        // (QUndoStack::undo() runs the command first): Redo's history shows only after it
        // returns, so whether anything is left to redo is decided in the next turn.
        m_releasePosted = true;
        QMetaObject::invokeMethod(this, [this] {
            if (!m_releasePosted)
                return;
            m_releasePosted = false;
            releaseHold();
        }, Qt::QueuedConnection);
        return;
    }
    if (!m_heldByPlan)
        m_live->setHeld(m_paused, tr("updates are paused while you plan (Plan > Pause Live Updates)"));
    updateApplyAction();
}

void LiveSession::releaseHold()
{
    if (!m_live->isRunning() || !m_heldByPlan)
        return;
    if (planWorkExists()) {
        updateHold(); // held by the Redo history: says so
        return;
    }
    m_heldByPlan = false;
    // Counted before the hold ends: setHeld() applies the first of them at once (a turn's
    // budget), so the count after it was what was left, not what the Connection dock said waited.
    const std::size_t waited = m_live->batchesWaiting();
    m_live->setHeld(m_paused, tr("updates are paused while you plan (Plan > Pause Live Updates)"));
    updateApplyAction();
    // The plan that held them emptied (undone, cleared): they apply now, unless paused. Say so in
    // place of an earlier message that they wait for the plan.
    if (!m_paused)
        emit message(tr("The plan is empty: live updates apply again (%1 of changes waited).").arg(LiveController::batchesText(waited)));
}

void LiveSession::applyWaitingUpdates()
{
    if (!m_live->isRunning() || m_parts.plan->hasPlan())
        return;
    // The user's choice: what Redo would bring back goes (the batches change the cluster under it).
    if (QUndoStack* stack = m_parts.plan->undoStack(); stack && stack->canRedo())
        stack->clear();
    m_releasePosted = false;
    releaseHold();
}

void LiveSession::updateApplyAction()
{
    if (m_apply)
        m_apply->setEnabled(m_live->isRunning() && m_heldByPlan && !m_parts.plan->hasPlan());
}

void LiveSession::resetTotals()
{
    m_parts.explore->setTotalsFunction({}); // the import's totals stand until a live diff
    m_totalsFor = nullptr;
}

void LiveSession::onDiff(const model::ClusterDiff& diff, const model::ClusterChangeBatch& batch)
{
    std::shared_ptr<const ImportedCluster> shown = m_shown();
    if (diff.empty() || !shown)
        return;
    const bool structural = !diff.nodesAdded.empty() || !diff.nodesRemoved.empty() || !diff.nodesRelabelled.empty();
    if (structural) {
        auto cluster = std::make_shared<ImportedCluster>(*shown);
        model::TopologySpec spec { shown->topology->levelKeys() };
        cluster->topology = std::make_shared<model::Topology>(model::Topology::build(*cluster->store, spec));
        shown = std::move(cluster);
        emit topologyRebuilt(shown); // the map and the panels lay it out (a worker: the next batches wait)
    } else if (!m_recolourPosted) {
        // One recolour per turn of the event loop however many batches it applied: the map
        // redraws at most once per batch, and not once per batch when they come in bursts.
        m_recolourPosted = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_recolourPosted = false;
                m_parts.map->refreshMetric();
                emit diffShown();
            },
            Qt::QueuedConnection);
    }
    m_parts.plan->storeChanged(shown->topology);
    if (!structural) { // a structural diff re-analyses the new layout's cluster (setCluster)
        if (m_totalsFor != shown->store.get()) {
            // The import's warnings, counted in the totals, as of this cluster's load.
            auto report = std::make_shared<const importers::ImportReport>(shown->report);
            m_parts.explore->setTotalsFunction([report](const model::ClusterStore& store) { return computeTotals(store, *report); });
            m_totalsFor = shown->store.get();
        }
        m_parts.explore->refreshAnalysis(!diff.podsAdded.empty() || !diff.podsRemoved.empty(), batch);
    } else if (!m_totalsTimer->isActive()) {
        m_totalsTimer->start();
    }
    ++m_diffsShown;
    if (structural)
        emit diffShown();
}

void LiveSession::updateTotals()
{
    const auto shown = m_shown();
    if (!shown)
        return;
    auto cluster = std::make_shared<ImportedCluster>(*shown);
    cluster->totals = computeTotals(*cluster->store, cluster->report);
    emit totalsUpdated(std::move(cluster));
}

} // namespace fleet::app
