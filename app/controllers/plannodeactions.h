// SPDX-License-Identifier: Apache-2.0
#pragma once
// The map's context-menu gestures, also in the menu bar: Plan > Drain Selected Node, Fail
// Selected Node, Fail Domain..., Add a Node Like the Selected, Drain the Filtered Nodes, so that
// none of them depends on one gesture (a right click that a platform does not deliver, a
// keyboard-only user).

#include "model/ids.h"

#include <QObject>

#include <cstdint>
#include <memory>
#include <vector>

class QAction;
class QMainWindow;

namespace fleet::views {
class FleetMapView;
}

namespace fleet::app {

class PlanController;

/// Adds the node and domain actions to the window's Plan menu (planMenu()) and runs them on
/// the map's selected node through `plan` (PlanController::drainNodes, failNode, failDomain,
/// addNodeLike), each one undo step as from the context menu. Without a selected node an
/// action says so in the status bar (PlanController::messageShown) and changes nothing.
/// Fail Domain... asks which of the selected node's domains (innermost first) fails.
/// Shortcuts: Ctrl+D drain, Ctrl+Shift+F fail node, Ctrl+Shift+G fail domain, Ctrl+Shift+N add
/// a node like it, Ctrl+Shift+D drain the filtered nodes. Thread: GUI thread.
class PlanNodeActions : public QObject {
    Q_OBJECT
public:
    PlanNodeActions(QMainWindow* window, PlanController* plan, views::FleetMapView* map);

    /// The filter's mask (FilterField::maskChanged): Drain the Filtered Nodes drains its nodes.
    void setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask) { m_mask = std::move(mask); }

private:
    /// The selected node, or an invalid id after saying in the status bar that one must be selected.
    [[nodiscard]] model::NodeId selectedOrSay() const;
    void failDomainOfSelection();
    void drainFiltered();

    QMainWindow* m_window = nullptr;
    PlanController* m_plan = nullptr;
    views::FleetMapView* m_map = nullptr;
    std::shared_ptr<const std::vector<std::uint8_t>> m_mask;
};

} // namespace fleet::app
