// SPDX-License-Identifier: Apache-2.0
#pragma once
// Several what-if actions as one undo step (a consolidation's pending placements and drains, the
// drains of the filtered nodes), refreshed once per step rather than once per action.

#include "model/plan/plan.h"

#include <QUndoCommand>

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace fleet::app {

class PlanEngineHost;

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
///
/// A step of actions a worker applied already (Plan > Consolidate, File > Open Plan, Add Nodes'
/// placements: setAppliedActions()) holds them as plain values instead of one child command
/// each: at 199,262 actions the children (a QUndoCommand, its text and its action each) took
/// about a second to make, and as long again to delete when the stack was cleared or the step
/// dropped, on the GUI thread. Its actions run through undoChild() and redoChild() as children
/// do (PlanEngine::undo(), reapplyUndone() else apply()); the vector is freed on a worker.
/// Throws nothing. Thread: GUI thread (a step may be made and filled on a worker, as long as
/// nothing runs it there).
class PlanStepCommand : public QUndoCommand {
public:
    /// Takes the step's undo (`undo` true) or redo over; returns false to have it run here and now.
    using Runner = std::function<bool(PlanStepCommand& step, bool undo)>;
    static constexpr int kSlicedChildren = 64;

    PlanStepCommand(QString text, std::function<void()> changed);
    ~PlanStepCommand() override;

    void redo() override;
    void undo() override;

    /// Makes this a step of `actions` (no child commands), the last actions `host`'s engine
    /// applied already, in order: the first redo (push()'s) only records them, as
    /// PlanActionCommand::AppliedAt does. Call once, before it is pushed.
    void setAppliedActions(PlanEngineHost& host, std::vector<model::PlanAction> actions);
    /// How many actions undoChild() and redoChild() take: the held actions, else the children.
    [[nodiscard]] int actionCount() const;
    /// How many of its actions are applied (a child's PlanActionCommand::applied() not null). O(1)
    /// for held actions, O(children) else.
    [[nodiscard]] int appliedChildren() const;

    void setRunner(Runner runner) { m_runner = std::move(runner); }
    /// For the runner: action (child) `i`'s undo / redo, alone; 0 <= i < actionCount().
    void undoChild(int i);
    void redoChild(int i);
    /// For the runner: the deferred undo or redo is complete (calls `changed`).
    void finishDeferred();
    /// For the runner (a cancelled undo put back, or a cancelled redo taken back): the children
    /// are already as the next undo() or redo() of the stack would leave them, so that call only
    /// refreshes.
    void setDoneAhead() { m_doneAhead = true; }

private:
    /// The held actions' undo and redo (setAppliedActions()).
    void undoHeld(int i);
    void redoHeld(int i);
    void redoAll();
    void undoAll();

    std::function<void()> m_changed;
    PlanEngineHost* m_host = nullptr; // set with held actions
    std::shared_ptr<std::vector<model::PlanAction>> m_actions; // held actions; shared to be freed on a worker
    std::vector<char> m_heldApplied; // by held action: applied now
    int m_heldAppliedCount = 0;
    Runner m_runner;
    bool m_pushed = false;
    bool m_doneAhead = false;
};

} // namespace fleet::app
