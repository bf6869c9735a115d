// SPDX-License-Identifier: Apache-2.0
#pragma once
// Several what-if actions as one undo step (a consolidation's pending placements and drains, the
// drains of the filtered nodes), refreshed once per step rather than once per action.

#include <QUndoCommand>

#include <functional>

namespace fleet::app {

/// The parent of the PlanCommands of one undo step (each made with this as its parent and with
/// no `changed` callback of its own). redo() runs the children in order and undo() in reverse
/// (QUndoCommand's own), then calls `changed` once. What the app runs on a change (plan marks,
/// the plan-aware metric, the panel) is O(plan): called once per child, the undo of a
/// 5,000-drain consolidation on 100,000 nodes was O(plan^2), minutes on the GUI thread.
/// The first redo (the one QUndoStack::push() runs) makes the step obsolete when no child was
/// applied, so that push() drops it. Throws nothing. Thread: GUI thread.
class PlanStepCommand : public QUndoCommand {
public:
    PlanStepCommand(QString text, std::function<void()> changed);

    void redo() override;
    void undo() override;

    /// How many of its children are applied (PlanCommand::applied() not null).
    [[nodiscard]] int appliedChildren() const;

private:
    std::function<void()> m_changed;
    bool m_pushed = false;
};

} // namespace fleet::app
