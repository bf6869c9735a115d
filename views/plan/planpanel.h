#pragma once
// The plan panel (issue 6): the applied actions of the what-if plan, in order, with the
// plan's before/after figures, and undo / redo.

#include "model/clusterstore.h"
#include "model/plan/plan.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;
class QToolBar;
class QAction;

namespace fleet::views {

class PlanActionsModel;

/// A summary line (the whole plan: nodes in use, empty nodes, GPUs allocated, cost per hour,
/// pods not placed, each before → after; with failures, what they cost: failureCostText()), a toolbar the app fills with its Undo / Redo
/// actions (addToolActions), and the actions' table (PlanActionsModel). A row's context menu
/// and a double-click offer "Undo Back to Here" (undoBackToRequested). Thread: GUI thread.
class PlanPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlanPanel(QWidget* parent = nullptr);
    ~PlanPanel() override;

    void setPlan(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::PlanEngine> engine);
    /// After every apply or undo.
    void refresh();
    void addToolActions(const QList<QAction*>& actions);

    [[nodiscard]] PlanActionsModel* model() const noexcept { return m_model; }
    [[nodiscard]] QTableView* table() const noexcept { return m_table; }
    /// The summary line's text (plain).
    [[nodiscard]] QString summaryText() const;

signals:
    /// Undo every action from row `row` on (the row's own included).
    void undoBackToRequested(int row);

private:
    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::PlanEngine> m_engine;
    PlanActionsModel* m_model = nullptr;
    QLabel* m_summary = nullptr;
    QToolBar* m_toolbar = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace fleet::views
