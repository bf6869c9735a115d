// SPDX-License-Identifier: Apache-2.0
#pragma once
// The what-if in the window: the user's gestures on the plan of the shown cluster as undo
// commands, and the plan panel dock that lists them.

#include "app/controllers/planenginehost.h"
#include "importers/plan/planfile.h"
#include "model/clusterchange.h"
#include "model/clusterstore.h"
#include "model/metrics/metric.h"
#include "model/metrics/planmetrics.h"
#include "model/pricing/pricetable.h"
#include "model/plan/plan.h"
#include "model/topology.h"
#include "views/map/fleetmapview.h"

#include <QObject>
#include <QPoint>
#include <QString>

#include <memory>
#include <vector>

class QDockWidget;
class QMainWindow;
class QMenu;
class QUndoCommand;
class QUndoStack;

namespace fleet::views {
class PlanPanel;
struct PlanMarks;
class PlanMarksTracker;
}

namespace fleet::app {

class LongJob;
class PlanContextMenu;
class PlanDragController;
class PlanStepCommand;
class PlanStepRunner;

/// The window's Plan menu (objectName menuPlan), made at the end of its menu bar when missing:
/// where Consolidate and Add Nodes put their actions. Thread: GUI thread.
[[nodiscard]] QMenu* planMenu(QMainWindow* window);

/// The what-if in the window, as gestures: turns each into PlanCommands on the undo stack of
/// its PlanEngineHost (which owns the engine of the shown cluster and the stack), and after
/// every change shows the plan on the map (PlanMarks, the plan-aware metrics) and in the plan
/// panel; planChanged() follows. Composes:
/// - PlanEngineHost (app/controllers/planenginehost.h): the engine, its build on a worker, its
///   rebuild after live diffs, the undo stack, the stale marks;
/// - PlanDragController (plandragcontroller.h): pod and workload drags on the map, which end
///   in movePod() or placeWorkload();
/// - PlanContextMenu (plancontextmenu.h): the map's context menu, whose actions call
///   drainNodes(), failNode(), addNodeLike(), failDomain();
/// - savePlanFile() / exportPlanFile() (plansaver.h) behind savePlan() / exportPlan().
/// Plan > Add Nodes (app/dialogs/addnodesdialog.h) calls addNodes(). To add a gesture: a
/// method here that builds the PlanAction and calls pushAction() (one command), or a
/// PlanStepCommand with PlanActionCommand children (one undo step). A node the plan added
/// (AddedNodeLayer) is a node like any other here. Thread: GUI thread.
class PlanController : public QObject {
    Q_OBJECT
public:
    /// `readers` (not null): the window's count of store readers (PlanEngineHost).
    PlanController(QMainWindow* window, views::FleetMapView* map, std::shared_ptr<StoreReaders> readers);
    ~PlanController() override;

    /// A new cluster: the plan and the undo stack are cleared, a new engine is built on a
    /// worker (engineReady() when it is in place). Null pointers clear.
    void setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
        std::shared_ptr<const model::PriceTable> prices);
    /// Builds the engine now, on this thread (tests, and the headless paths).
    void buildEngineNow();

    // ---- a live cluster ----
    /// The store changed under a plan without actions (a live diff; `topology` the current
    /// one): the engine, built over the old state, is dropped at once (a gesture meanwhile says
    /// the what-if is being prepared) and built again on a worker once no diff came for
    /// kLiveRebuildMs (a feed that streams without pause keeps the what-if waiting). No-op
    /// while the plan has actions (the window holds batches then).
    void storeChanged(std::shared_ptr<const model::Topology> topology);
    /// Marks the applied actions that `batch` (not applied yet: held while the plan is open)
    /// makes stale, with why (model/plan/planstaleness.h); the plan panel shows them. A mark
    /// stays until the action is undone or the cluster replaced.
    void checkStale(const model::ClusterChangeBatch& batch);
    /// Why each applied action is stale ("" when it is not), by action index.
    [[nodiscard]] const std::vector<QString>& staleReasons() const noexcept { return m_host->staleReasons(); }
    static constexpr int kLiveRebuildMs = PlanEngineHost::kLiveRebuildMs;

    /// The engine and the undo stack (the window's Edit > Undo / Redo act on it).
    [[nodiscard]] PlanEngineHost* host() const noexcept { return m_host; }
    [[nodiscard]] QUndoStack* undoStack() const noexcept { return m_host->undoStack(); }
    [[nodiscard]] std::shared_ptr<const model::PlanEngine> engine() const noexcept { return m_host->engine(); }
    /// The shown cluster and its node prices ($/h by NodeId; empty without a price table), for
    /// work that builds its own engine on a worker (Plan > Consolidate).
    [[nodiscard]] std::shared_ptr<const model::ClusterStore> store() const noexcept { return m_host->store(); }
    /// The window's store, which live batches change (store() may be the engine's copy of it):
    /// what a worker's StoreReadGuard names (controllers/storereaders.h).
    [[nodiscard]] std::shared_ptr<const model::ClusterStore> shownStore() const noexcept { return m_host->shownStore(); }
    /// The window's count of store readers: a worker over shownStore() holds a
    /// StoreReadGuard(storeReaders(), shownStore()).
    [[nodiscard]] const std::shared_ptr<StoreReaders>& storeReaders() const noexcept { return m_host->storeReaders(); }
    [[nodiscard]] std::shared_ptr<const model::Topology> topology() const noexcept { return m_host->topology(); }
    [[nodiscard]] const std::vector<double>& nodePrices() const noexcept { return m_host->nodePrices(); }
    [[nodiscard]] bool hasPlan() const noexcept { return m_host->hasPlan(); }
    /// The engine's ledger while the plan has actions (what the map's node detail and tooltip
    /// and the node inspector show; it keeps the engine alive), else null (the loaded state).
    [[nodiscard]] std::shared_ptr<const model::PlanLedger> planState() const;
    [[nodiscard]] views::PlanPanel* panel() const noexcept { return m_panel; }
    [[nodiscard]] QDockWidget* dock() const noexcept { return m_dock; }
    /// The last message shown for a refused or applied gesture (also in messageShown()).
    [[nodiscard]] QString lastMessage() const { return m_lastMessage; }
    /// Milliseconds from the start of the last drag to its shading bytes (PodFeasibility built
    /// and feasibleNodes filled), and the plan layer's image build.
    [[nodiscard]] double lastFeasibilityMs() const noexcept;
    /// The plan marks the map was given last (null: none, or no plan): those of the engine's
    /// applied actions (views::buildPlanMarks() equals them), kept by a PlanMarksTracker that
    /// follows each change instead of counting the whole plan again.
    [[nodiscard]] std::shared_ptr<const views::PlanMarks> planMarks() const;

    /// The map's metric for a chosen metric id: under a plan with actions, "gpu", "cpu" and
    /// "memory" become their "plan-" versions; "plan-diff-*" need an engine. Null: use the
    /// registry's metric for `id`.
    [[nodiscard]] std::shared_ptr<const model::Metric> planMetricFor(const QString& id) const;

    // ---- the gestures, as commands (also what the tests call) ----
    /// MovePod of `pod` to `node`; refused (false, with a message) when infeasible unless
    /// `override`. Pushes one command when applied.
    bool movePod(model::PodId pod, model::NodeId node, bool override);
    /// DrainNode of each node, after the actions `first` (a consolidation's pending pods placed
    /// first, model/search/consolidation.h): one undo step. A node drainRefusal() refuses is
    /// left out (said in the status bar); when that leaves nothing, nothing is pushed (false).
    bool drainNodes(const std::vector<model::NodeId>& nodes, const std::vector<model::PlanAction>& first = {});
    /// Why `node` cannot be drained under the plan (a sentence naming it), "" when it can: the
    /// plan drains it already (its drain cordoned it, whether or not it emptied it: a second
    /// drain would be a duplicate action that only re-plans the stranded pods), or the plan
    /// removed it (failed, or in a failed domain). Also "" without an engine. O(1).
    [[nodiscard]] QString drainRefusal(model::NodeId node) const;
    /// drainRefusal()'s reason in a few words, without the node's name, for a menu item's text
    /// ("drained by the plan already; the drain does not hold"); "" when it can be drained. O(1).
    [[nodiscard]] QString drainRefusalShort(model::NodeId node) const;
    bool failNode(model::NodeId node);
    /// FailDomain of `domain` (not the root): every node of it gone, its pods placed elsewhere.
    /// A domain of fewer than failDomainOnWorkerPods() loaded pods is applied here, one command
    /// (true when applied). A larger one is planned on a worker (its engine replays the plan,
    /// then fails the domain), with a progress dialog and Cancel after
    /// kFailDomainProgressAfterMs, and taken as one undo step (adoptStep(); undone and redone
    /// like Consolidate's); it returns true once started, and failDomainFinished() says how it
    /// ended (nothing applied on cancel, or when the plan changed meanwhile). Source of the
    /// size rule: a zone of 27,273 nodes and 238,846 pods held the GUI thread 16 to 30 s.
    bool failDomain(model::DomainId domain);
    /// Loaded pods from which failDomain() plans on a worker. A zone of 36,363 nodes took 3.6 s
    /// on the GUI thread (bench_gui fail-zone, docs/benchmarks.md), about 11 us a pod: 2,000 pods
    /// are about 25 ms with the refresh under the 50 ms budget; below, the worker's replay of the
    /// plan would only delay the result. Tests lower it.
    [[nodiscard]] std::size_t failDomainOnWorkerPods() const noexcept { return m_failDomainOnWorkerPods; }
    void setFailDomainOnWorkerPods(std::size_t pods) noexcept { m_failDomainOnWorkerPods = pods; }
    static constexpr std::size_t kFailDomainOnWorkerPods = 2000;
    static constexpr int kFailDomainProgressAfterMs = 300;
    /// True while a domain's failure is planned on a worker.
    [[nodiscard]] bool isFailingDomain() const noexcept;
    /// AddNode of one node like `node` (its instance type, its template) in node's innermost
    /// domain: the capacity question "what if there were one more of these here". The map
    /// draws it under the domain (AddedNodeLayer). One command.
    bool addNodeLike(model::NodeId node);
    /// AddNode of `count` nodes of `instanceType` (bought as `capacityType`: "" any,
    /// "on-demand", "spot", "reserved") in `domain` (invalid or the root: the cluster): one
    /// command; refused (false, with the reason shown) when the cluster has no such node to copy.
    bool addNodes(const QString& instanceType, const QString& capacityType, model::DomainId domain, int count);
    /// PlaceWorkload of `workload` inside `domain`.
    bool placeWorkload(model::WorkloadId workload, model::DomainId domain);
    /// Plan > Place Workload's result (app/dialogs/placeworkloaddialog.h): `engine`, built on a worker
    /// over `store` (the shown store's clone, ClusterStore::clone(), with the template pod), replayed
    /// this plan's actions and then applied `action` last. The window takes that store and
    /// engine (the stack's commands move to it) and pushes one command for the placement, so
    /// Undo removes every placed pod in one step. False (nothing changed) when the plan changed
    /// since `appliedBefore` actions or the engine is gone. `marks`: the map's plan marks of
    /// `engine` counted on the worker (views::PlanMarksTracker::rebuild()), or null to count them
    /// here. O(commands) on this thread.
    bool adoptPlacement(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine,
        std::size_t appliedBefore, const QString& text, std::shared_ptr<views::PlanMarksTracker> marks = nullptr);
    /// A step computed on a worker (Plan > Consolidate): `engine`, over this controller's
    /// store(), replayed this plan's `appliedBefore` actions and then applied the step's; the
    /// window takes it (the stack's commands move to it, as in adoptPlacement()) and pushes the
    /// step's actions as one undo step named `text`, without planning any of them again on
    /// this thread. False (nothing changed) when the plan changed since, or `engine` reads
    /// another store or added nothing. O(commands) on this thread, unless `prepared` brings the
    /// step's commands and plan marks (StepPreparer). The replaced engine is freed on a worker
    /// once the panel, the map and the inspector hold the new one.
    struct PreparedStep;
    bool adoptStep(std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, const QString& text);
    bool adoptStep(std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, const QString& text, PreparedStep prepared);
    /// What adoptStep() would otherwise make on this thread, made on the worker that applied the
    /// step: the undo step holding the actions from `appliedBefore` on
    /// (PlanStepCommand::setAppliedActions()), and the map's plan marks of the whole plan
    /// (views::PlanMarksTracker::rebuild(), which the window then follows change by change). At a consolidation of 22,655 actions on 100,000 nodes they
    /// were about 30 to 80 ms and 25 ms of the takeover's one turn.
    struct PreparedStep {
        PreparedStep();
        PreparedStep(PreparedStep&&) noexcept;
        PreparedStep& operator=(PreparedStep&&) noexcept;
        ~PreparedStep();
        std::unique_ptr<PlanStepCommand> step; // not pushed: its children act on the host once it is
        std::shared_ptr<views::PlanMarksTracker> marks;
    };
    /// Makes a PreparedStep from an engine. Made on this thread (stepPreparer()), called on the
    /// worker: it reads only the engine, its store and the topology; the commands it makes
    /// keep this controller and its engine host for when they are pushed, and touch neither
    /// before. O(plan + pods of the changed nodes).
    struct StepPreparer {
        PlanController* controller = nullptr;
        PlanEngineHost* host = nullptr;
        std::shared_ptr<const model::Topology> topology; // the host's, which the engine reads
        [[nodiscard]] PreparedStep operator()(const model::PlanEngine& engine, std::size_t appliedBefore) const;
    };
    [[nodiscard]] StepPreparer stepPreparer() { return { this, m_host, m_host->topology() }; }
    /// File > Open Plan's result (app/controllers/planopener.h): `engine`, built on a worker over `store`
    /// (the shown store, or its copy with the plan's template pods), applied the file's actions;
    /// `notApplied` the ones it could not apply, by file index. It replaces the plan: the undo
    /// stack is cleared, then the applied actions are one undo step named `text` (Undo empties
    /// the plan, Redo applies them again), which is the stack's clean state (nothing to save).
    /// An empty `text`: no undo step (another plan of the document shown): the stack stays
    /// empty and clean, the plan's actions its starting point.
    /// The panel lists every action, holds or not, and the not-applied ones after them;
    /// `message` goes to the status bar. O(actions) on this thread, unless `prepared` brings the
    /// step's commands and plan marks (StepPreparer on the worker that applied them, from action 0).
    void adoptOpenedPlan(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine,
        std::vector<std::pair<std::size_t, model::AppliedAction>> notApplied, const QString& text, const QString& message,
        PreparedStep prepared = {});
    /// Undoes every action from row `row` of the plan panel on, exactly: the commands wholly
    /// after it are undone (Undo), and the actions of one that straddles it (a consolidation's
    /// drains, one undo step) are removed by one RemoveActionsCommand.
    void undoBackTo(int row);
    /// Removes the plan's last action, whichever command applied it (a drain inside a
    /// consolidation's undo step, too), as one command of its own (Undo puts it back). False,
    /// with nothing pushed, when the plan has no action.
    bool removeLastAction();

    /// True while a large undo step is undone or redone in slices (PlanStepRunner): every
    /// gesture above is refused meanwhile, with a message.
    [[nodiscard]] bool isBusy() const noexcept;
    /// While another plan is being opened (PlanOpener: File > Open Plan, a switch in the Plans
    /// menu, a recovery), its name as a sentence names it ("the plan Plan 2"); "" when none.
    /// The shown plan is about to be replaced, so every gesture above and Edit > Undo and Redo
    /// are refused meanwhile, with a message naming the plan (editsBlockedChanged() when it
    /// starts and ends); the opened plan's message then says that what was asked was not done
    /// (adoptOpenedPlan()), so that it does not take the refusal's place unsaid.
    void setOpeningPlan(const QString& name);
    [[nodiscard]] bool isOpeningPlan() const noexcept { return !m_openingPlan.isEmpty(); }
    /// True, with a short message ("Undo not done: the plan Plan 2 is being opened."), while
    /// another plan is being opened or a large step runs in slices. `gesture`: what was asked
    /// ("Undo", "Redo"); empty for an edit of the plan ("Not done: ...").
    bool refuseWhileBusy(const QString& gesture = {});
    [[nodiscard]] PlanStepRunner* stepRunner() const noexcept { return m_steps; }

    /// The filter's mask (FilterField::maskChanged), for "Drain Filtered Nodes".
    void setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask);

    /// A sentence for the status bar (messageShown()), also shown as a tooltip at `globalPos`
    /// unless null (a refused drop).
    void showMessage(const QString& message, const QPoint& globalPos = {});
    /// What a gesture says while there is no what-if yet: "The what-if is still being prepared
    /// for this cluster; try again in a moment.", or in its place the hint setNotReadyHint() gave
    /// (on a live cluster, whose what-if waits for a pause in the changes that a busy cluster
    /// never makes: how to hold the changes). GUI thread.
    [[nodiscard]] QString notReadyText() const;
    /// See notReadyText(); "" for none.
    void setNotReadyHint(const QString& hint) { m_notReadyHint = hint; }

    /// Writes the plan (savePlanFile(), app/controllers/plansaver.h) naming `source` (the loaded state: files with
    /// their SHA-256, a live cluster's server and resourceVersion, or a simulation;
    /// MainWindow::planSource()); exportPlan() writes its evaluation as CSV or a kubectl
    /// script, which records `source`'s server as the cluster it may run on. Each returns ""
    /// or the error for people.
    [[nodiscard]] QString savePlan(const QString& path, const importers::PlanSource& source) const;
    /// Why each node the last Plan > Consolidate kept stays, by name, stamped with the digest of
    /// the plan's actions it was made for (importers/plan/plankept.h): savePlan() and the
    /// document's plan JSON write it while the plan's actions are still those (planJson() leaves
    /// it out once the plan changed). Null: none. GUI thread.
    void setConsolidationKept(std::shared_ptr<const importers::PlanKeptRecord> kept) { m_consolidationKept = std::move(kept); }
    [[nodiscard]] const std::shared_ptr<const importers::PlanKeptRecord>& consolidationKept() const noexcept { return m_consolidationKept; }
    [[nodiscard]] QString exportPlan(const QString& path, bool kubectlScript, const importers::PlanSource& source) const;

signals:
    /// The plan changed (an action applied or undone, or a new cluster).
    void planChanged();
    /// setOpeningPlan() started or ended a plan's opening.
    void editsBlockedChanged();
    void engineReady();
    /// "Place Workload Here…" on a domain label's context menu: Plan > Place Workload opens
    /// with that domain as the one the pods must lie in.
    void placeWorkloadRequested(model::DomainId domain);
    /// A sentence for the status bar ("Cannot move ... : ...", "Moved ...").
    void messageShown(const QString& message);
    /// A failDomain() planned on a worker ended: `applied` true when its step was pushed.
    void failDomainFinished(bool applied);

private:
    /// Pushes one PlanActionCommand; false (and `refusal` set to the engine's reasons) when refused.
    bool pushAction(const model::PlanAction& action, const QString& text, QString* refusal);
    /// An undo step whose children are undone and redone in slices when it is large. Thread:
    /// any (StepPreparer); the step calls `self` only once pushed.
    [[nodiscard]] static PlanStepCommand* newStep(PlanController* self, const QString& text);
    [[nodiscard]] PlanStepCommand* newStep(const QString& text) { return newStep(this, text); }
    /// Loaded pods on `domain`'s nodes. O(its nodes).
    [[nodiscard]] std::size_t domainPods(model::DomainId domain) const;
    /// failDomain() of a large domain: planned on m_failJob's worker.
    void startFailDomain(model::PlanAction action, model::DomainId domain, const QString& text);
    [[nodiscard]] QString failedText(model::DomainId domain, const model::AppliedAction& r) const;
    /// Shows the plan on the map and the panel (once per undo step: m_batch > 0 defers it).
    void afterChange();
    /// The host installed an engine (or none): the panel and the map start from the loaded state.
    void onEngineInstalled();
    /// The engine and store the panel shows are the host's again (after a replacement); the
    /// caller's afterChange() in the same turn refreshes the panel.
    void showEngineInPanel();

    views::FleetMapView* m_map = nullptr;
    PlanEngineHost* m_host = nullptr;
    QString m_notReadyHint;
    PlanDragController* m_drag = nullptr;
    PlanContextMenu* m_contextMenu = nullptr;
    PlanStepRunner* m_steps = nullptr;
    LongJob* m_failJob = nullptr; // failDomain() of a large domain
    std::size_t m_failDomainOnWorkerPods = kFailDomainOnWorkerPods;
    QString m_openingPlan; // setOpeningPlan()
    QString m_refusedWhileOpening; // the last gesture refused while it opened ("" for none)
    int m_stackIndex = 0;                     // the undo stack's index when it last moved
    const QUndoCommand* m_nextRedo = nullptr; // the command a redo would bring back then
    views::PlanPanel* m_panel = nullptr;
    QDockWidget* m_dock = nullptr;
    int m_batch = 0;
    std::shared_ptr<views::PlanMarksTracker> m_preparedMarks; // adoptStep()'s and the like, for the one afterChange() its push runs
    // The map's plan marks, and the engine they count (another engine: counted again).
    std::shared_ptr<views::PlanMarksTracker> m_marks;
    std::weak_ptr<const model::PlanEngine> m_marksEngine;
    QString m_lastMessage;
    std::shared_ptr<const importers::PlanKeptRecord> m_consolidationKept;
};

} // namespace fleet::app
