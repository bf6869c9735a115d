// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Pending demand panel: the pods waiting for a node, grouped by shape.

#include "model/pendingdemand.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

namespace fleet::model {
class PlanLedger;
}

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace fleet::views {

class PendingShapesModel;

/// A PendingShapesModel (shapes, then a totals row) behind a sorting proxy, with a summary
/// line ("6,090 pending pods in 37 shapes, 120 gated"). Thread: GUI thread.
class PendingPanel : public QWidget {
    Q_OBJECT
public:
    explicit PendingPanel(QWidget* parent = nullptr);

    void setShapes(std::shared_ptr<const model::ClusterStore> store, std::vector<model::PendingShape> shapes);
    [[nodiscard]] PendingShapesModel* shapesModel() const noexcept { return m_model; }
    [[nodiscard]] QTableView* view() const noexcept { return m_view; }
    /// Whether the input binds none of its pods (a trace such as Alibaba's lists pods without
    /// nodes): the banner above the table says so and where to place them.
    [[nodiscard]] bool unboundInput() const noexcept { return m_unbound; }
    /// The banner's text ("" when hidden).
    [[nodiscard]] QString bannerText() const;
    /// Pending pods over all shapes.
    [[nodiscard]] std::size_t pendingPodCount() const;
    [[nodiscard]] QString summaryText() const;
    /// The label filter's node mask (null: none). A pending pod has no node for a node
    /// filter to keep, so the list stays whole, and a line above it says so while a filter is
    /// set (scopeText()).
    void setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask);
    /// That line ("" while no filter is set).
    [[nodiscard]] QString scopeText() const;
    /// The plan's state (PlanController::planState(); null: no plan). The table always lists
    /// the loaded cluster's pending pods; while a plan over the listed store places some of
    /// them, a line above it says how many it places and how many stay pending (planText()).
    /// `copiedFrom`: the store the plan's store is a copy of (ClusterStore::clone(): the same
    /// ids and more pods, as Plan > Place Workload makes; PlanController::shownStore()), or
    /// null; a plan over a copy of the listed store counts as over it. O(pending pods).
    void setPlanState(std::shared_ptr<const model::PlanLedger> plan, std::shared_ptr<const model::ClusterStore> copiedFrom = nullptr);
    /// That line ("" while no plan places or keeps a listed pod).
    [[nodiscard]] QString planText() const;
    /// Listed pods the plan places (0 without a plan over the listed store).
    [[nodiscard]] std::size_t placedByPlan() const noexcept { return m_placedByPlan; }

private:
    void updatePlanLine();

    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::PlanLedger> m_plan;
    std::weak_ptr<const model::ClusterStore> m_planCopiedFrom; // only compared: a freed store matches none
    std::size_t m_placedByPlan = 0;
    QLabel* m_planLine = nullptr;
    QLabel* m_scope = nullptr;
    PendingShapesModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_banner = nullptr;
    bool m_unbound = false;
    QTableView* m_view = nullptr;
};

} // namespace fleet::views
