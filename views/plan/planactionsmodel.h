// SPDX-License-Identifier: Apache-2.0
#pragma once
// The plan panel's table: the applied actions of a plan, in order.

#include "model/clusterstore.h"
#include "model/plan/plan.h"

#include <QAbstractTableModel>
#include <QString>

#include <memory>
#include <vector>

namespace fleet::views {

/// One sentence for an applied action: "Move default/web-1 from node-a to node-b",
/// "Drain node-a: 12 pods moved, 2 stay", "Fail node-a: 3 pods re-placed; costs 1 pods stranded,
/// 8 GPUs lost" (failureCostText), "Fail us-east-1a (zone): 40 nodes gone, ..." (a failed domain named by its innermost value and key name), "Place Deployment ns/name in us-east-1a: 8 pods".
/// Thread: any reader of the store.
[[nodiscard]] QString planActionText(const model::ClusterStore& store, const model::AppliedAction& action);
/// What a failure (FailNode, FailDomain) costs, as the plan panel says it: the pods it
/// stranded (not re-placed), the GPUs lost (allocatable GPUs of the nodes gone, whole GPUs:
/// PlanTotals::gpus before minus after the action) and the milli-GPU the stranded pods
/// requested. All zero for other actions.
struct FailureCost {
    std::int64_t podsStranded = 0;
    std::int64_t gpusLost = 0;
    std::int64_t strandedGpuMilli = 0;
    FailureCost& operator+=(const FailureCost& o);
};
[[nodiscard]] FailureCost failureCost(const model::ClusterStore& store, const model::AppliedAction& action);
/// "3 pods stranded, 16 GPUs lost (2 GPUs requested by stranded pods)"; the part in brackets
/// only when the stranded pods request GPUs.
[[nodiscard]] QString failureCostText(const FailureCost& cost);
/// What "GPUs allocated" counts under a plan and how it differs from the status bar's and the
/// GPU-idle legend's GPU figures (the Plan dock's tooltips). Thread: GUI thread.
[[nodiscard]] QString gpusAllocatedDefinition();
/// The reasons of an action, "message (code)" each, joined by "; ".
[[nodiscard]] QString planReasonsText(const std::vector<model::Reason>& reasons);
/// "before → after" of a count, with the change: "1,204 → 1,190 (−14)".
[[nodiscard]] QString beforeAfterText(std::int64_t before, std::int64_t after);

/// The applied actions of a PlanEngine, one row each, in order. Columns: the action
/// (planActionText), holds ("yes", "no", "violation" for an override), the reasons (every
/// refused or unplaced pod's reasons, "message (code)"), then before → after of the plan
/// totals at that action: nodes in use, empty nodes (removable), GPUs allocated (count and
/// share of present GPUs), cost per hour. kSortRole gives the after figure. Holds a
/// reference to the engine (which must outlive the model or be replaced first) and never
/// edits it; refresh() after every apply or undo (an appended or removed last row is
/// inserted or removed, anything else resets). An opened plan's actions that could not be
/// applied follow the applied ones (setNotApplied()). Thread: GUI thread.
class PlanActionsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ActionColumn, HoldsColumn, ReasonsColumn, NodesInUseColumn, EmptyNodesColumn, GpusColumn, CostColumn, ColumnCount };

    explicit PlanActionsModel(QObject* parent = nullptr);

    /// Shows `engine`'s actions (null: none). Both must outlive the model's use of them.
    void setPlan(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::PlanEngine> engine);
    /// Re-reads the engine's applied actions.
    void refresh();
    /// Why each action is stale ("" when it is not), by row (a live change to a pod or
    /// node the action names). A stale action reads "stale" in the holds column (red) and its
    /// reasons start with "Stale: why". Rows past the vector's end are not stale.
    void setStale(std::vector<QString> whyByRow);
    [[nodiscard]] const model::AppliedAction* actionAt(int row) const noexcept;
    /// Actions of an opened plan file that the engine could not apply (a pod or node the state
    /// lacks, a move that no longer fits), each with holds = false and its reasons, as
    /// importers::evaluatePlan() gives them: shown after the applied rows, "no (not applied)",
    /// numbered by their place in the file (`fileIndex`, from 0). Cleared by setPlan().
    void setNotApplied(std::vector<std::pair<std::size_t, model::AppliedAction>> actions);
    /// How many rows are not-applied actions (after the engine's rows).
    [[nodiscard]] int notAppliedCount() const noexcept { return static_cast<int>(m_notApplied.size()); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::PlanEngine> m_engine;
    int m_rows = 0; // the engine's applied actions shown; the not-applied ones follow
    std::vector<QString> m_stale;
    std::vector<std::pair<std::size_t, model::AppliedAction>> m_notApplied;
};

} // namespace fleet::views
