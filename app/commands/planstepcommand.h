// SPDX-License-Identifier: Apache-2.0
#pragma once
// Several what-if actions as one undo step (a consolidation's pending placements and drains, the
// drains of the filtered nodes), refreshed once per step rather than once per action.

#include "model/plan/plan.h"

#include <QUndoCommand>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
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
/// A step of held actions (below) is offered to the runner whatever its count, which takes it
/// when they undo or redo many effects (heldEffects(); PlanStepRunner::slicedEffects()) and runs
/// each held action in parts (runPart(): PlanEngine::beginUndo() / beginReapply(),
/// continuePartial()): the undo of a zone's failure on 100,000 nodes is one action of about
/// 240,000 pods put back, 1.3 to 1.9 s at once.
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
    /// For the runner: action `i`'s undo (`undo`) or redo, up to `maxEffects` engine effects of
    /// it at a time (held actions; a child command runs whole); true once it is complete, false
    /// while part of it is left for the next call (hasPart()). A held action the engine cannot
    /// take back in parts (one that added nodes or pods; a redo that cannot be replayed) runs
    /// whole.
    bool runPart(int i, bool undo, std::size_t maxEffects);
    /// True while an action's undo or redo is part done (the engine between two plans:
    /// PlanEngine::isPartial()).
    [[nodiscard]] bool hasPart() const noexcept { return m_partAt >= 0; }
    /// Takes back up to `maxEffects` of the part done; true once the action is as it was
    /// before runPart() began it (or none was begun).
    bool cancelPart(std::size_t maxEffects);
    /// The held actions' pod changes and nodes removed (AppliedAction::changes, nodesRemoved):
    /// about what their undo or redo runs. Counted from the engine's records at the first call,
    /// which must come while they are applied and last (the first undo), kept for the redos; 0
    /// for a step of child commands. O(held actions) once.
    [[nodiscard]] std::size_t heldEffects();
    /// How far the part done is through its action, 0 to 1 (0 without one).
    [[nodiscard]] double partFraction() const;
    /// Forgets a part done without touching the engine (the runner abandons the step: the engine
    /// and the stack are replaced).
    void forgetPart() noexcept { m_partAt = -1; }
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
    /// Held action `i` planned again (PlanEngine::apply()), what was undone before it freed on a worker.
    void applyHeld(int i);
    void redoAll();
    void undoAll();

    std::function<void()> m_changed;
    PlanEngineHost* m_host = nullptr; // set with held actions
    std::shared_ptr<std::vector<model::PlanAction>> m_actions; // held actions; shared to be freed on a worker
    std::vector<char> m_heldApplied; // by held action: applied now
    int m_heldAppliedCount = 0;
    Runner m_runner;
    int m_partAt = -1;    // the held action whose undo or redo is part done, -1 none
    std::optional<std::size_t> m_heldEffects; // heldEffects(), once counted
    bool m_pushed = false;
    bool m_doneAhead = false;
};

} // namespace fleet::app
