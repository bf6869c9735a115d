// SPDX-License-Identifier: Apache-2.0
#pragma once
// The window's Edit menu and the Plan dock's Undo, Redo and Remove Last buttons.

#include <QObject>

class QAction;

class QMainWindow;
class QMenu;

namespace fleet::views {
class FleetMapView;
}

namespace fleet::app {

class PlanController;

/// The actions that take back or repeat a what-if step, and the Edit menu around them: Edit >
/// Undo and Redo ("actionUndo", "actionRedo": Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y) of the plan's
/// undo stack, which edit a text field instead while one has the focus (TextFieldUndo), and
/// Copy Node Name ("actionCopyNodeName", Ctrl+Shift+C: the selected node's name as the plan names
/// it); and the Plan dock's tool buttons ("planPanelUndo", "planPanelRedo", and
/// "planPanelRemoveLast", which removes one action from the last even inside one undo step).
/// Undo and Redo stay disabled while a large step is undone or redone in slices
/// (PlanStepRunner) or another plan is being opened; their keys pressed meanwhile say so in the
/// status bar (PlanController::refuseWhileBusy()) rather than doing nothing silently. The
/// actions are the window's children; this object owns nothing else.
/// Thread: GUI thread.
class EditActions : public QObject {
    Q_OBJECT
public:
    EditActions(QMainWindow* window, PlanController* plan, views::FleetMapView* map);

    /// Fills `edit` (the window's Edit menu).
    void addEditMenu(QMenu* edit);
    /// Adds Undo, Redo and Remove Last to the Plan dock's tool buttons.
    void addPlanPanelActions();

protected:
    /// The window's key presses no child took: Undo's or Redo's keys while they are disabled.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QMainWindow* m_window;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    PlanController* m_plan;
    views::FleetMapView* m_map;
};

} // namespace fleet::app
