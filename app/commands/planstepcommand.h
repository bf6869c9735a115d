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
/// applied, so that push() drops it.
///
/// A large step (kSlicedChildren children or more) with a runner (setRunner()) is undone and
/// redone in slices: undo() and redo() hand it to the runner, which runs the children over
/// several turns of the event loop (undoChild(), redoChild(), with progress and cancel, see
/// PlanStepRunner) and calls finishDeferred() when the engine is there, which calls `changed`.
/// Undoing every drain of a 100,000-node consolidation at once held the GUI thread for seconds.
/// Throws nothing. Thread: GUI thread.
class PlanStepCommand : public QUndoCommand {
public:
    /// Takes the step's undo (`undo` true) or redo over; returns false to have it run here and now.
    using Runner = std::function<bool(PlanStepCommand& step, bool undo)>;
    static constexpr int kSlicedChildren = 64;

    PlanStepCommand(QString text, std::function<void()> changed);

    void redo() override;
    void undo() override;

    /// How many of its children are applied (PlanActionCommand::applied() not null).
    [[nodiscard]] int appliedChildren() const;

    void setRunner(Runner runner) { m_runner = std::move(runner); }
    /// For the runner: child `i`'s undo / redo, alone.
    void undoChild(int i);
    void redoChild(int i);
    /// For the runner: the deferred undo or redo is complete (calls `changed`).
    void finishDeferred();
    /// For the runner (a cancelled undo put back, or a cancelled redo taken back): the children
    /// are already as the next undo() or redo() of the stack would leave them, so that call only
    /// refreshes.
    void setDoneAhead() { m_doneAhead = true; }

private:
    std::function<void()> m_changed;
    Runner m_runner;
    bool m_pushed = false;
    bool m_doneAhead = false;
};

} // namespace fleet::app
