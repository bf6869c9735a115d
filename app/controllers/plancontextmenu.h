// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fleet map's context menu: the what-if actions on the node or domain label under the
// pointer.

#include "model/ids.h"
#include "views/map/fleetmapview.h" // Q_DECLARE_METATYPE of the ids, before this signal's moc uses them

#include <QObject>
#include <QPoint>

#include <cstdint>
#include <memory>
#include <vector>

class QMainWindow;

namespace fleet::app {

class PlanController;
class PlanEngineHost;

/// Opens on FleetMapView::contextMenuRequested: Drain, Fail and Add a Node Like This on a node
/// (a node the plan added too, but Add a Node Like only for a store node with an instance type);
/// Drain the Filtered Nodes (one undo step, up to 5,000 nodes present in the plan) while a filter
/// is active; Fail Domain and Place Workload Here on a domain label other than the root. Each
/// action is one PlanController gesture (one undo step). Until the engine is built the menu
/// says the what-if is being prepared. To add an action: add it in onContextMenu() with an
/// objectName (the e2e tests find it by name) and run a PlanController gesture, which pushes
/// its command. Thread: GUI thread.
class PlanContextMenu : public QObject {
    Q_OBJECT
public:
    PlanContextMenu(QMainWindow* window, views::FleetMapView* map, PlanEngineHost* host, PlanController* plan);

    /// The filter's mask (FilterField::maskChanged), for "Drain the Filtered Nodes".
    void setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask) { m_mask = std::move(mask); }
    void clearNodeMask() { m_mask.reset(); }

signals:
    /// "Place Workload Here…" on a domain label.
    void placeWorkloadRequested(model::DomainId domain);

private:
    void onContextMenu(model::NodeId node, model::DomainId label, const QPoint& globalPos);

    QMainWindow* m_window = nullptr;
    PlanEngineHost* m_host = nullptr;
    PlanController* m_plan = nullptr;
    std::shared_ptr<const std::vector<std::uint8_t>> m_mask;
};

} // namespace fleet::app
