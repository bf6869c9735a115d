// SPDX-License-Identifier: Apache-2.0
#pragma once
// The what-if in the window (issue 6): the plan of the shown cluster, its drags and drops on
// the fleet map, its context-menu actions, the plan panel dock, and the undo stack's commands.

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
#include <QString>

#include <memory>
#include <vector>

class QDockWidget;
class QTimer;
class QMainWindow;
class QMenu;
class QUndoStack;

namespace fleet::views {
class PlanPanel;
}

namespace fleet::app {

/// The window's Plan menu (objectName menuPlan), made at the end of its menu bar when missing:
/// where Consolidate and Add Nodes put their actions. Thread: GUI thread.
[[nodiscard]] QMenu* planMenu(QMainWindow* window);

/// Owns the PlanEngine of the shown cluster (built on a worker when a cluster arrives: the
/// ledger's indexes are O(nodes + pods); until it is ready a drag says so and does nothing)
/// and turns the user's what-if gestures into PlanCommands on the window's QUndoStack:
/// - a pod dragged on the map (from the node inspector's pod table or a pod strip of the
///   zoomed map) shades every node by PodFeasibility::feasibleNodes; over a node that cannot
///   take it the tooltip lists the verdict's reasons, "message (code)" each; a drop on a
///   feasible node is one command (MovePod); a drop on an infeasible node is refused with its
///   reasons (status message and tooltip), unless Shift is held: then the move is applied as an
///   override, which the plan marks as a violation (DaemonSet and mirror pods never move).
/// - Alt held when the drag starts drags the pod's whole workload (Deployment, StatefulSet,
///   Job, or a gang workload): a drop on a domain label, or on a node (its innermost domain),
///   places every pod of it inside that domain, all or nothing (PlaceWorkload).
/// - the map's context menu: Drain Node, Fail Node, Add a Node Like This on a node; Drain the filtered nodes when a
///   filter is active (one undo step); Fail Domain and Place Workload Here on a domain label.
/// - a node the plan added (its square under its domain, AddedNodeLayer) is a node like any
///   other here: a drop target (its verdict from the same PodFeasibility), drained or failed
///   from its context menu, its domain (the add-node action's) a workload's target.
/// - Plan > Add Nodes (app/dialogs/addnodesdialog.h) calls addNodes().
/// After every change the map shows the plan (PlanMarks, the plan-aware metrics) and the
/// panel refreshes; planChanged() follows. Thread: GUI thread.
class PlanController : public QObject {
    Q_OBJECT
public:
    PlanController(QMainWindow* window, views::FleetMapView* map, QUndoStack* stack);
    ~PlanController() override;

    /// A new cluster: the plan and the undo stack are cleared, a new engine is built on a
    /// worker (engineReady() when it is in place). Null pointers clear.
    void setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
        std::shared_ptr<const model::PriceTable> prices);
    /// Builds the engine now, on this thread (tests, and the headless paths).
    void buildEngineNow();

    // ---- a live cluster (issue 8) ----
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
    [[nodiscard]] const std::vector<QString>& staleReasons() const noexcept { return m_stale; }
    static constexpr int kLiveRebuildMs = 3000;

    [[nodiscard]] std::shared_ptr<const model::PlanEngine> engine() const noexcept { return m_engine; }
    /// The shown cluster and its node prices ($/h by NodeId; empty without a price table), for
    /// work that builds its own engine on a worker (Plan > Consolidate).
    [[nodiscard]] std::shared_ptr<const model::ClusterStore> store() const noexcept { return m_store; }
    [[nodiscard]] std::shared_ptr<const model::Topology> topology() const noexcept { return m_topology; }
    [[nodiscard]] const std::vector<double>& nodePrices() const noexcept { return m_prices; }
    [[nodiscard]] bool hasPlan() const noexcept;
    /// The engine's ledger while the plan has actions (what the map's node detail and tooltip
    /// and the node inspector show; it keeps the engine alive), else null (the loaded state).
    [[nodiscard]] std::shared_ptr<const model::PlacementState> planState() const;
    [[nodiscard]] views::PlanPanel* panel() const noexcept { return m_panel; }
    [[nodiscard]] QDockWidget* dock() const noexcept { return m_dock; }
    /// The last message shown for a refused or applied gesture (also in messageShown()).
    [[nodiscard]] QString lastMessage() const { return m_lastMessage; }
    /// Milliseconds from the start of the last drag to its shading bytes (PodFeasibility built
    /// and feasibleNodes filled), and the plan layer's image build.
    [[nodiscard]] double lastFeasibilityMs() const noexcept { return m_lastFeasibilityMs; }

    /// The map's metric for a chosen metric id: under a plan with actions, "gpu", "cpu" and
    /// "memory" become their "plan-" versions; "plan-diff-*" need an engine. Null: use the
    /// registry's metric for `id`.
    [[nodiscard]] std::shared_ptr<const model::Metric> planMetricFor(const QString& id) const;

    // ---- the gestures, as commands (also what the tests call) ----
    /// MovePod of `pod` to `node`; refused (false, with a message) when infeasible unless
    /// `override`. Pushes one command when applied.
    bool movePod(model::PodId pod, model::NodeId node, bool override);
    /// DrainNode of each node, after the actions `first` (a consolidation's pending pods placed
    /// first, model/search/consolidation.h): one undo step.
    bool drainNodes(const std::vector<model::NodeId>& nodes, const std::vector<model::PlanAction>& first = {});
    bool failNode(model::NodeId node);
    bool failDomain(model::DomainId domain);
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
    /// since `appliedBefore` actions or the engine is gone. O(commands) on this thread.
    bool adoptPlacement(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine,
        std::size_t appliedBefore, const QString& text);
    /// A step computed on a worker (Plan > Consolidate): `engine`, over this controller's
    /// store(), replayed this plan's `appliedBefore` actions and then applied the step's; the
    /// window takes it (the stack's commands move to it, as in adoptPlacement()) and pushes the
    /// step's actions as one undo step named `text`, without planning any of them again on
    /// this thread. False (nothing changed) when the plan changed since, or `engine` reads
    /// another store or added nothing. O(commands) on this thread.
    bool adoptStep(std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, const QString& text);
    /// File > Open Plan's result (app/controllers/planopener.h): `engine`, built on a worker over `store`
    /// (the shown store, or its copy with the plan's template pods), applied the file's actions;
    /// `notApplied` the ones it could not apply, by file index. It replaces the plan: the undo
    /// stack is cleared, then the applied actions are one undo step named `text` (Undo empties
    /// the plan, Redo applies them again), which is the stack's clean state (nothing to save).
    /// The panel lists every action, holds or not, and the not-applied ones after them;
    /// `message` goes to the status bar. O(actions) on this thread.
    void adoptOpenedPlan(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<model::PlanEngine> engine,
        std::vector<std::pair<std::size_t, model::AppliedAction>> notApplied, const QString& text, const QString& message);
    /// Undoes every action from row `row` of the plan panel on, exactly: the commands wholly
    /// after it are undone (Undo), and the actions of one that straddles it (a consolidation's
    /// drains, one undo step) are removed by one RemoveActionsCommand.
    void undoBackTo(int row);
    /// Removes the plan's last action, whichever command applied it (a drain inside a
    /// consolidation's undo step, too), as one command of its own (Undo puts it back). False,
    /// with nothing pushed, when the plan has no action.
    bool removeLastAction();

    /// The filter's mask (FilterField::maskChanged), for "Drain Filtered Nodes".
    void setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask) { m_mask = std::move(mask); }

    /// Writes the plan (importers::writePlanFile) naming `source` (the loaded state: files with
    /// their SHA-256, a live cluster's server and resourceVersion, or a simulation;
    /// MainWindow::planSource()); exportPlan() writes its evaluation as CSV or a kubectl
    /// script, which records `source`'s server as the cluster it may run on. Each returns ""
    /// or the error for people.
    [[nodiscard]] QString savePlan(const QString& path, const importers::PlanSource& source) const;
    [[nodiscard]] QString exportPlan(const QString& path, bool kubectlScript, const importers::PlanSource& source) const;

signals:
    /// The plan changed (an action applied or undone, or a new cluster).
    void planChanged();
    void engineReady();
    /// "Place Workload Here…" on a domain label's context menu: Plan > Place Workload opens
    /// with that domain as the one the pods must lie in.
    void placeWorkloadRequested(model::DomainId domain);
    /// A sentence for the status bar ("Cannot move ... : ...", "Moved ...").
    void messageShown(const QString& message);

private:
    void onDragStarted(model::PodId pod, Qt::KeyboardModifiers modifiers);
    void onDragMoved(model::NodeId node, model::DomainId label, const QPoint& globalPos, Qt::KeyboardModifiers modifiers);
    void onDropped(model::NodeId node, model::DomainId label, const QPoint& globalPos, Qt::KeyboardModifiers modifiers);
    void onDragCancelled();
    void onContextMenu(model::NodeId node, model::DomainId label, const QPoint& globalPos);
    void endDrag();
    /// Pushes one PlanCommand; false (and `refusal` set to the engine's reasons) when refused.
    bool pushAction(const model::PlanAction& action, const QString& text, QString* refusal);
    void afterChange();
    /// Moves every command of the stack (children of a step too) to `engine`.
    void rebindCommands(const std::shared_ptr<model::PlanEngine>& engine);
    void showMessage(const QString& message, const QPoint& globalPos = {});
    void installEngine(std::shared_ptr<model::PlanEngine> engine);
    [[nodiscard]] QString podText(model::PodId pod) const;
    [[nodiscard]] QString nodeText(model::NodeId node) const;
    [[nodiscard]] QString domainText(model::DomainId domain) const;
    [[nodiscard]] bool workloadDraggable(model::WorkloadId w) const;
    /// The innermost domain of a store node; for a node the plan added, its add-node's domain.
    [[nodiscard]] model::DomainId domainOfNode(model::NodeId node) const;

    QMainWindow* m_window = nullptr;
    views::FleetMapView* m_map = nullptr;
    QUndoStack* m_stack = nullptr;
    views::PlanPanel* m_panel = nullptr;
    QDockWidget* m_dock = nullptr;
    std::shared_ptr<const model::ClusterStore> m_store;       // the engine's: the shown one, or its copy with template pods
    std::shared_ptr<const model::ClusterStore> m_shownStore;  // the window's
    std::shared_ptr<const model::Topology> m_topology;
    std::vector<double> m_prices;
    std::shared_ptr<model::PlanEngine> m_engine;
    std::uint64_t m_generation = 0;
    std::vector<QString> m_stale;        // by applied action index
    std::shared_ptr<const model::PriceTable> m_priceTable;
    QTimer* m_liveRebuild = nullptr;     // single shot: the engine's build after live diffs
    void startEngineBuild();
    std::shared_ptr<const std::vector<std::uint8_t>> m_mask;
    // The drag in progress.
    model::PodId m_dragPod;
    model::WorkloadId m_dragWorkload; // valid: the whole workload is dragged
    std::vector<model::Reason> m_dragBlockers; // why the dragged pod cannot move alone (eviction rules)
    std::unique_ptr<model::PodFeasibility> m_feasibility;
    std::shared_ptr<std::vector<std::uint8_t>> m_feasible;
    double m_lastFeasibilityMs = 0;
    int m_batch = 0;
    QString m_lastMessage;
};

} // namespace fleet::app
