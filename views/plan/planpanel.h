// SPDX-License-Identifier: Apache-2.0
#pragma once
// The plan panel: the applied actions of the what-if plan, in order, with the
// plan's before/after figures, and undo / redo.

#include "model/clusterstore.h"
#include "model/plan/plan.h"

#include "views/plan/planactionsmodel.h"

#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QLabel;
class QTableView;
class QToolBar;
class QAction;

namespace fleet::views {

class PlanActionsModel;
class PlacedPodsModel;

/// A summary line (the whole plan: nodes in use, empty nodes, GPUs allocated, cost per hour,
/// pods not placed, each before → after; with failures, what they cost: failureCostText()), a toolbar the app fills with its Undo / Redo
/// actions (addToolActions), and the actions' table (PlanActionsModel). A row's context menu
/// and a double-click offer "Undo Back to Here" (undoBackToRequested). Under it, the pods the
/// plan placed (PlacedPodsModel), when there are some. Thread: GUI thread.
class PlanPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlanPanel(QWidget* parent = nullptr);
    ~PlanPanel() override;

    /// Shows `engine`'s plan (null: none). Its rows are made again and, with `refreshNow` (the
    /// default), the summary and the placed pods counted at once; false for a caller that calls
    /// refresh() in the same turn (PlanController's adoption of a worker's engine: counting both
    /// times was about 20 ms of that turn at 200,000 actions).
    void setPlan(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::PlanEngine> engine, bool refreshNow = true);
    /// After every apply or undo; when the plan grew, the table scrolls to its last action (the
    /// one just added), an undo leaves the scroll where it is. `unchangedBefore`: the engine's applied actions below this
    /// index are those of the last refresh (PlanEngineHost::takeUnchangedBefore()); the summary's
    /// failure costs and the placed pods are then counted again from there only (reading every
    /// action took about 8 ms per change at 199,262 actions). 0 (the default): all counted again.
    void refresh(std::size_t unchangedBefore = 0);
    void addToolActions(const QList<QAction*>& actions);

    [[nodiscard]] PlanActionsModel* model() const noexcept { return m_model; }
    [[nodiscard]] QTableView* table() const noexcept { return m_table; }
    /// The pods the plan placed (place-pods), under the actions; shown only when there are some.
    [[nodiscard]] PlacedPodsModel* placedPods() const noexcept { return m_placed; }
    [[nodiscard]] QTableView* placedTable() const noexcept { return m_placedTable; }
    /// The summary line's text (plain).
    [[nodiscard]] QString summaryText() const;

signals:
    /// Undo every action from row `row` on (the row's own included).
    void undoBackToRequested(int row);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// Widens the before -> after columns to their texts (never cut).
    void fitBeforeAfterColumns();
    /// The Reasons column takes the width the others leave, but never less than about 34
    /// characters: a narrow dock scrolls rather than cutting reasons to a few letters.
    void fitReasonsColumn();

    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::PlanEngine> m_engine;
    PlanActionsModel* m_model = nullptr;
    QLabel* m_summary = nullptr;
    QToolBar* m_toolbar = nullptr;
    QTableView* m_table = nullptr;
    PlacedPodsModel* m_placed = nullptr;
    QTableView* m_placedTable = nullptr;
    bool m_fittingReasons = false;
    /// The failures (FailNode, FailDomain) among the first m_failuresScanned applied actions, by
    /// action index, with what each costs: the summary adds these instead of reading every action.
    std::vector<std::pair<std::size_t, FailureCost>> m_failures;
    std::size_t m_failuresScanned = 0;
    /// The applied actions the table showed at the last refresh: a refresh that finds more
    /// scrolls to the last one (the action just added, or redone).
    std::size_t m_shownActions = 0;
};

} // namespace fleet::views
