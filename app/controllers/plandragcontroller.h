// SPDX-License-Identifier: Apache-2.0
#pragma once
// A pod dragged on the fleet map: the shading of the nodes that can take it, the tooltip that
// says why a node cannot, and the drop that becomes one what-if command.

#include "model/ids.h"
#include "model/scheduling/filters.h"

#include <QObject>
#include <QPoint>

#include <cstdint>
#include <memory>
#include <vector>

namespace fleet::views {
class FleetMapView;
}

namespace fleet::app {

class PlanController;
class PlanEngineHost;

/// Follows the map's pod drags (FleetMapView::podDragStarted ... podDropped):
/// - a pod dragged (from the node inspector's pod table or a pod strip of the zoomed map)
///   shades every node by PodFeasibility::feasibleNodes of the engine's state; over a node that
///   cannot take it the tooltip lists the verdict's reasons, "message (code)" each; a drop is
///   PlanController::movePod (refused with its reasons on an infeasible node unless Shift is
///   held: then an override, which the plan marks as a violation).
/// - Alt held when the drag starts drags the pod's whole workload (Deployment, StatefulSet,
///   Job, or a gang workload): a drop on a domain label, or on a node (its innermost domain),
///   is PlanController::placeWorkload, all or nothing.
/// A bound pod that the eviction rules keep from moving alone shades no node. Until the
/// engine is built a drag says so and does nothing. Thread: GUI thread.
class PlanDragController : public QObject {
    Q_OBJECT
public:
    PlanDragController(views::FleetMapView* map, PlanEngineHost* host, PlanController* plan);
    ~PlanDragController() override;

    /// Ends the drag in progress, if any (its shading goes); the engine is about to change.
    void endDrag();
    /// Milliseconds from the start of the last drag to its shading bytes (PodFeasibility built
    /// and feasibleNodes filled).
    [[nodiscard]] double lastFeasibilityMs() const noexcept { return m_lastFeasibilityMs; }

private:
    void onDragStarted(model::PodId pod, Qt::KeyboardModifiers modifiers);
    void onDragMoved(model::NodeId node, model::DomainId label, const QPoint& globalPos, Qt::KeyboardModifiers modifiers);
    void onDropped(model::NodeId node, model::DomainId label, const QPoint& globalPos, Qt::KeyboardModifiers modifiers);
    void onDragCancelled();
    [[nodiscard]] bool workloadDraggable(model::WorkloadId w) const;

    views::FleetMapView* m_map = nullptr;
    PlanEngineHost* m_host = nullptr;
    PlanController* m_plan = nullptr;
    model::PodId m_dragPod;
    model::WorkloadId m_dragWorkload; // valid: the whole workload is dragged
    std::vector<model::Reason> m_dragBlockers; // why the dragged pod cannot move alone (eviction rules)
    std::unique_ptr<model::PodFeasibility> m_feasibility;
    std::shared_ptr<std::vector<std::uint8_t>> m_feasible;
    double m_lastFeasibilityMs = 0;
};

} // namespace fleet::app
