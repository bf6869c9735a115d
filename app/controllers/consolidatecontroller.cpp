// SPDX-License-Identifier: Apache-2.0
#include "consolidatecontroller.h"
#include "app/controllers/workerpool.h"
#include "app/controllers/offthreadrelease.h"
#include "app/controllers/storereaders.h"

#include "app/controllers/plancontroller.h"
#include "app/window/mainwindow.h"

#include "views/map/fleetmapview.h"
#include "views/panels/keptnodespanel.h"

#include "importers/export/statediffformat.h"
#include "importers/plan/plankept.h"
#include "importers/solver/coinsolver.h"
#include "model/figures.h"
#include "model/nodeboundpods.h"
#include "model/search/consolidationbound.h"
#include "model/search/karpenterbaseline.h"
#include "model/search/packingrelaxation.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QProgressDialog>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace fleet::app {

namespace {

} // namespace

ConsolidateController::ConsolidateController(QMainWindow* window, PlanController* plan)
    : QObject(window)
    , m_window(window)
    , m_plan(plan)
{
    m_action = planMenu(window)->addAction(tr("&Consolidate…"), this, [this] { start(); });
    m_action->setObjectName(QStringLiteral("actionConsolidate"));
    m_action->setStatusTip(tr("Plan which nodes to drain to save the most per hour, under every filter and eviction rule"));
    connect(plan, &PlanController::engineReady, this, [this] { ++m_generation; }); // a new cluster: drop a running result
}

ConsolidateController::~ConsolidateController()
{
    cancel();
}

bool ConsolidateController::start()
{
    const auto engine = m_plan->engine();
    if (m_running)
        return false;
    if (m_plan->store() && m_plan->topology() && (!engine || m_plan->isBusy())) {
        // Said, not silent: a live cluster that keeps changing has no what-if until it pauses
        // (the message says how to hold its changes).
        m_plan->showMessage(!engine ? m_plan->notReadyText() : tr("The plan is busy with a step; try again in a moment."));
        return false;
    }
    if (!engine || !m_plan->store() || !m_plan->topology())
        return false;
    m_running = true;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const std::uint64_t generation = ++m_generation;
    std::vector<model::PlanAction> current;
    current.reserve(engine->applied().size()); // grown by push_back, the copy took several times as long
    for (const model::AppliedAction& a : engine->applied())
        current.push_back(a.action);
    if (!m_progress) {
        m_progress = new QProgressDialog(tr("Consolidating…"), tr("Cancel"), 0, 100, m_window);
        m_progress->setObjectName(QStringLiteral("consolidateProgress"));
        m_progress->setWindowTitle(tr("Consolidate"));
        m_progress->setWindowModality(Qt::WindowModal);
        m_progress->setMinimumDuration(300);
        connect(m_progress, &QProgressDialog::canceled, this, &ConsolidateController::cancel);
    }
    m_progress->reset();
    m_progress->setValue(0);
    QPointer<ConsolidateController> self(this);
    auto store = m_plan->store();
    auto topology = m_plan->topology();
    model::ConsolidationInput input;
    input.nodePricePerHour = m_plan->nodePrices();
    auto cancelFlag = m_cancel;
    auto reading = std::make_shared<StoreReadGuard>(m_plan->storeReaders(), m_plan->shownStore()); // a live batch waits for this worker
    (void)QtConcurrent::run(longWorkPool(), [self, generation, store, topology, input, current, cancelFlag, reading, prepare = m_plan->stepPreparer()] {
        model::ConsolidationOptions options;
        options.startFrom = current;
        options.cancel = cancelFlag.get();
        options.progress = [self](double f) {
            QMetaObject::invokeMethod(
                self, [self, f] { if (self) emit self->progressed(static_cast<int>(f * 90)); }, Qt::QueuedConnection);
        };
        std::shared_ptr<model::ConsolidationResult> result, baseline;
        std::shared_ptr<model::PlanEngine> engine;
        std::int64_t bound = 0;
        auto prepared = std::make_shared<PlanController::PreparedStep>();
        std::shared_ptr<const std::vector<model::KeptNode>> kept; // the dialog's, apart from lastResult()'s
        std::shared_ptr<importers::PlanKeptRecord> record;        // the plan file's (plankept.h)
        try {
            result = std::make_shared<model::ConsolidationResult>(model::consolidate(*store, *topology, input, options));
            if (cancelFlag->load()) {
                // Cancelled: nothing is applied (as How Many? and an undo's Cancel), so nothing
                // more is worked out either; applying the plan so far took seconds after Cancel
                // at 100,000 nodes and then opened a dialog over what the user did meanwhile.
                result->cancelled = true;
                QMetaObject::invokeMethod(
                    self, [self, generation, result] {
                        if (self)
                            self->onResult(generation, result, {}, {}, 0, 0, {}, {});
                    },
                    Qt::QueuedConnection);
                return;
            }
            options.progress = {};
            baseline = std::make_shared<model::ConsolidationResult>(
                cancelFlag->load() ? model::ConsolidationResult {} : model::karpenterMultiNodeConsolidation(*store, *topology, input, options));
            // The plan as the window will show it, applied here: the current actions, the
            // pending pods placed, then the drains. Applying thousands of drains (each plans
            // its pods) on the GUI thread froze it for seconds at 100,000 nodes.
            if (!result->drained.empty() || !result->pendingPlaced.empty()) {
                engine = std::make_shared<model::PlanEngine>(*store, *topology, input.nodePricePerHour);
                for (const model::PlanAction& a : current)
                    engine->apply(a);
                for (const model::PlanAction& a : result->pendingPlaced)
                    engine->apply(a);
                // Per drained node the moves of its pods straight to a node that stays, then its
                // drain (consolidation.h, "One move per pod").
                for (const model::PlanAction& a : result->actions)
                    engine->apply(a);
            }
            // The step's undo commands and the map's plan marks, here too (PlanController::adoptStep()).
            if (engine)
                *prepared = prepare(*engine, current.size());
            // Why the other nodes stay, by name, for the plan file (a report reads it rather
            // than searching again), stamped for the plan's actions as they are now.
            if (engine && !result->drained.empty()) {
                record = std::make_shared<importers::PlanKeptRecord>(importers::planKeptRecord(*store, *result));
                std::vector<model::PlanAction> actions;
                actions.reserve(engine->applied().size());
                for (const model::AppliedAction& a : engine->applied())
                    actions.push_back(a.action);
                record->actionsSha256 = importers::planActionsSha256(actions);
            }
            // O(nodes + pods): here, not when the window takes the result.
            bound = model::nodeCountLowerBound(*store, result->pendingPods).nodes;
            kept = std::make_shared<const std::vector<model::KeptNode>>(result->kept);
        } catch (const std::exception&) {
            result.reset(); // the current plan names something the state lacks: nothing to apply
            engine.reset();
        }
        QMetaObject::invokeMethod(
            self, [self, generation, result, baseline, engine, before = current.size(), bound, prepared, kept, record] {
                if (self)
                    self->onResult(generation, result, baseline, engine, before, bound, std::move(*prepared), kept, record);
            },
            Qt::QueuedConnection);
    });
    connect(this, &ConsolidateController::progressed, m_progress, &QProgressDialog::setValue, Qt::UniqueConnection);
    return true;
}

void ConsolidateController::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void ConsolidateController::onResult(std::uint64_t generation, std::shared_ptr<model::ConsolidationResult> result,
    std::shared_ptr<model::ConsolidationResult> baseline, std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, std::int64_t bound,
    PlanController::PreparedStep prepared, std::shared_ptr<const std::vector<model::KeptNode>> kept,
    std::shared_ptr<const importers::PlanKeptRecord> record)
{
    m_running = false;
    if (m_progress)
        m_progress->reset();
    if (!result || generation != m_generation || !m_plan->engine()) {
        emit finished(-1);
        return;
    }
    if (result->cancelled) {
        m_plan->showMessage(tr("Consolidate cancelled: the plan is as it was."));
        emit finished(-1);
        return;
    }
    m_last = std::move(*result);
    if (engine) {
        const QString text = m_last.pendingPlaced.empty()
            ? tr("Consolidate: drain %1 nodes").arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(m_last.drained.size()))))
            : tr("Consolidate: place %1 pending pods, drain %2 nodes")
                  .arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(m_last.pendingPlaced.size()))),
                      QString::fromStdString(model::formatCount(static_cast<std::int64_t>(m_last.drained.size()))));
        if (m_plan->adoptStep(engine, appliedBefore, text, std::move(prepared))) {
            m_lastKept = record;
            m_plan->setConsolidationKept(std::move(record));
        }
        else
            m_plan->drainNodes(m_last.drained, m_last.pendingPlaced); // the plan moved on meanwhile: applied here
    }
    // The dialog in a later turn of the event loop: the adoption's refresh and the dialog's
    // 5,000 rows in one turn held the GUI thread over the 50 ms rule at 100,000 nodes. A timer
    // of 1 ms, not a posted call (a 0 ms single shot): posted calls run back to back with the
    // repaints the adoption posted, in one turn.
    QTimer::singleShot(1, this, [this, baseline, bound, kept]() mutable {
        showResult(*baseline, bound, kept);
        releaseOffGuiThread(std::move(baseline)); // its kept list and actions: about 14 ms to free here at 100,000 nodes
        startLpBound(bound);
        emit finished(static_cast<int>(m_last.drained.size()));
    });
}

void ConsolidateController::showResult(
    const model::ConsolidationResult& baseline, std::int64_t bound, std::shared_ptr<const std::vector<model::KeptNode>> kept)
{
    if (!m_dialog) {
        m_dialog = new QDialog(m_window);
        m_dialog->setObjectName(QStringLiteral("consolidateResult"));
        m_dialog->setWindowTitle(tr("Consolidation"));
        auto* layout = new QVBoxLayout(m_dialog);
        auto* summary = new QLabel(m_dialog);
        summary->setObjectName(QStringLiteral("consolidateSummary"));
        summary->setWordWrap(true);
        layout->addWidget(summary);
        auto* lp = new QLabel(m_dialog);
        lp->setObjectName(QStringLiteral("consolidateLpBound"));
        lp->setWordWrap(true);
        layout->addWidget(lp);
        layout->addWidget(new QLabel(tr("Nodes that stay, by the reason that keeps them (open a group for its nodes, the pod and the message):"), m_dialog));
        m_kept = new views::KeptNodesPanel(m_dialog);
        connect(m_kept, &views::KeptNodesPanel::nodeActivated, this, &ConsolidateController::selectNode);
        layout->addWidget(m_kept, 1);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, m_dialog);
        connect(buttons, &QDialogButtonBox::rejected, m_dialog, &QDialog::reject);
        connect(m_dialog, &QDialog::finished, this, &ConsolidateController::resultClosed);
        layout->addWidget(buttons);
        m_dialog->resize(900, 560);
    }
    auto count = [](std::int64_t n) { return QString::fromStdString(model::formatCount(n)); }; // "19,066"
    // Nodes the plan removes that held only DaemonSet, mirror or finished pods: freed, but not in
    // use before, so "nodes in use" falls by fewer than "nodes freed".
    const model::ClusterStore& store = *m_plan->store();
    std::int64_t alreadyEmpty = 0;
    for (const model::NodeId n : m_last.drained) {
        bool empty = true;
        for (const model::PodId p : store.nodePods(n))
            if (!store.podIsTerminal(p) && !model::isNodeBoundPod(store, p)) {
                empty = false;
                break;
            }
        alreadyEmpty += empty ? 1 : 0;
    }
    const double ratio = bound > 0 ? static_cast<double>(m_last.after.nodes) / static_cast<double>(bound) : 0.0;
    m_dialog->findChild<QLabel*>(QStringLiteral("consolidateSummary"))
        ->setText(tr("%1 nodes freed%10, %2 pods moved%11, %3 saved%4.\nLower bound: %5 nodes (plan / bound = %6).\n"
                     "Baseline (Karpenter emptiness and multi-node consolidation, deletion only): %7 nodes freed, %8 saved.\n"
                     "%9Undo reverts the whole consolidation in one step.")
                      .arg(count(m_last.nodesFreed))
                      .arg(count(m_last.podsMoved))
                      .arg(QString::fromStdString(importers::dollarsPerHourExact(m_last.savedPerHour)))
                      .arg(m_last.timedOut ? tr(" (stopped at its time limit: the plan so far)") : QString())
                      .arg(count(bound))
                      .arg(ratio, 0, 'f', 3)
                      .arg(count(baseline.nodesFreed))
                      .arg(QString::fromStdString(importers::dollarsPerHourExact(baseline.savedPerHour)))
                      .arg(m_last.pendingPlaced.empty() && m_last.pendingLeft == 0
                              ? QString()
                              : tr("Pending pods: %1 placed first (the drains keep their room), %2 stay pending.\n")
                                    .arg(count(static_cast<std::int64_t>(m_last.pendingPlaced.size())))
                                    .arg(count(static_cast<std::int64_t>(m_last.pendingLeft))))
                      .arg(alreadyEmpty > 0 ? tr(" (%1 of them held no pods to move: the Plan dock counts them among the empty "
                                                 "nodes before, not the nodes in use)").arg(count(alreadyEmpty))
                                            : QString())
                      // Each pod moves once, straight to a node that stays, unless a drain fell back
                      // on the policy's placement (consolidation.h, "One move per pod").
                      .arg(m_last.evictions != m_last.podsMoved
                              ? tr(" (%1 evictions: %2 drains placed their pods by the policy, some onto nodes drained later)")
                                    .arg(count(m_last.evictions), count(m_last.fallbackDrains))
                              : tr(" (each once, straight to a node that stays)")));
    m_lpText = tr("LP bound: computing on a worker (COIN-OR Clp, at most %1 s)…").arg(kLpBoundSeconds, 0, 'f', 0);
    m_dialog->findChild<QLabel*>(QStringLiteral("consolidateLpBound"))->setText(m_lpText);
    // Every node that stays, grouped (views/itemmodels/keptnodesmodel.h): the panel keeps its own
    // copy of the list, shared with its exports on a worker.
    m_kept->setKept(m_plan->store(), kept ? std::move(kept) : std::make_shared<const std::vector<model::KeptNode>>(m_last.kept));
    m_dialog->show();
}

void ConsolidateController::startLpBound(std::int64_t volumeBound)
{
    const std::uint64_t generation = ++m_resultGeneration;
    QPointer<ConsolidateController> self(this);
    auto store = m_plan->store();
    auto reading = std::make_shared<StoreReadGuard>(m_plan->storeReaders(), m_plan->shownStore()); // a live batch waits for this worker
    (void)QtConcurrent::run(longWorkPool(), [self, generation, store, reading, volumeBound, placed = m_last.pendingPods, kept = m_lastKept] {
        model::PackingRelaxationOptions options;
        options.timeLimitSeconds = kLpBoundSeconds;
        model::PackingBound lp;
        try {
            lp = model::packingLowerBound(*store, placed, options, importers::solveWithCoin);
        } catch (const std::exception& e) {
            lp.status = std::string("failed: ") + e.what();
        }
        const double seconds = lp.buildSeconds + lp.solveSeconds;
        // The search's record with the bound, copied here (80,000 entries at 100,000 nodes).
        std::shared_ptr<const importers::PlanKeptRecord> withBound;
        if (lp.valid && kept) {
            auto copy = std::make_shared<importers::PlanKeptRecord>(*kept);
            copy->lpBound = importers::PlanKeptRecord::LpBound { lp.nodes };
            withBound = std::move(copy);
        }
        QMetaObject::invokeMethod(
            self, [self, generation, volumeBound, lp, seconds, kept, withBound] {
                if (!self || generation != self->m_resultGeneration)
                    return;
                // The plan file records the bound beside the search's reasons (a report shows
                // it; at 100,000 nodes it takes a minute to compute), while the plan's record is
                // still this search's.
                if (withBound && kept == self->m_lastKept && self->m_plan->consolidationKept() == kept) {
                    self->m_lastKept = withBound;
                    self->m_plan->setConsolidationKept(withBound);
                }
                self->showLpBound(volumeBound, lp.valid, lp.nodes, QString::fromStdString(lp.status), seconds);
            },
            Qt::QueuedConnection);
    });
}

void ConsolidateController::showLpBound(std::int64_t volumeBound, bool valid, std::int64_t nodes, const QString& status, double seconds)
{
    auto count = [](std::int64_t n) { return QString::fromStdString(model::formatCount(n)); };
    const std::int64_t better = std::max(volumeBound, valid ? nodes : 0);
    const double ratio = better > 0 ? static_cast<double>(m_last.after.nodes) / static_cast<double>(better) : 0.0;
    if (valid)
        m_lpText = tr("LP bound (COIN-OR Clp; pods by shape and where they may go): %1 nodes, in %2 s on a worker, apart from the "
                      "search's %3 s. Plan / the better bound (%4) = %5.")
                       .arg(count(nodes))
                       .arg(seconds, 0, 'f', 2)
                       .arg(m_last.seconds, 0, 'f', 2)
                       .arg(nodes >= volumeBound ? tr("LP") : tr("volume"))
                       .arg(ratio, 0, 'f', 3);
    else
        m_lpText = tr("LP bound: none (%1, after %2 s); the lower bound above stands (plan / bound = %3).")
                       .arg(status)
                       .arg(seconds, 0, 'f', 1)
                       .arg(ratio, 0, 'f', 3);
    if (m_dialog)
        m_dialog->findChild<QLabel*>(QStringLiteral("consolidateLpBound"))->setText(m_lpText);
    emit lpBoundShown(valid ? nodes : 0);
}

void ConsolidateController::selectNode(const QString& name)
{
    auto* window = qobject_cast<MainWindow*>(m_window);
    const auto store = m_plan->store();
    const model::NodeId node = store ? store->findNode(name.toStdString()) : model::NodeId();
    if (!window || !node.isValid())
        return;
    // The dialog stays in front (a window of its own): the map behind it selects and centres
    // the node, and the node inspector follows the selection.
    window->mapView()->setSelectedNode(node);
    window->mapView()->zoomToNode(node);
}

} // namespace fleet::app
