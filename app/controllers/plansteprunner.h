// SPDX-License-Identifier: Apache-2.0
#pragma once
// The undo and redo of a large plan step (a consolidation's thousands of drains) in slices of the
// GUI thread's event loop, with progress and cancel, so that no turn of the loop holds it longer
// than a frame's budget (DESIGN.md, Threads: under 50 ms at 100,000 nodes).

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

class QProgressDialog;
class QUndoStack;
class QWidget;

namespace fleet::app {

class PlanStepCommand;

/// Runs a PlanStepCommand's children (PlanStepCommand::undoChild() / redoChild(), each O(its
/// effects): PlanEngine::undo() or reapplyUndone()) a slice of kSliceMs at a time, the first at
/// once (a step done within it is synchronous, as on a small cluster), the rest from a
/// 1 ms timer, then calls PlanStepCommand::finishDeferred() (the one refresh of the map and the
/// panel) in a turn of the event loop where no child ran (after the last slice, progressed()
/// reports every child done first). The engine is consistent between slices (the same thread), so the map may repaint
/// meanwhile; every gesture that changes the plan asks isBusy() first and is refused while it
/// is true. A progress dialog (window modal, so no input reaches the window) shows after
/// kProgressDelayMs with Cancel: a cancelled undo re-applies the children it undid and puts the
/// stack back on the step (QUndoStack::redo() with PlanStepCommand::setDoneAhead()), and a
/// cancelled redo the other way round; the plan is then as before the command. A stack
/// undo or redo asked for while a step runs first finishes that step here (finishNow()).
/// Thread: GUI thread.
class PlanStepRunner : public QObject {
    Q_OBJECT
public:
    static constexpr int kSliceMs = 20;
    static constexpr int kProgressDelayMs = 400;

    /// `stack`: the stack the steps are on; `dialogParent`: the window the progress dialog covers.
    PlanStepRunner(QUndoStack* stack, QWidget* dialogParent, QObject* parent = nullptr);
    ~PlanStepRunner() override;

    /// Takes `step`'s undo (or redo) over (the PlanStepCommand::Runner contract): true.
    bool start(PlanStepCommand& step, bool undo);
    [[nodiscard]] bool isBusy() const noexcept { return m_step != nullptr; }
    /// Runs the rest of the current step at once (a stack command that must come after it).
    void finishNow();
    /// Cancels the current step (its children taken back to where they were).
    void cancel();
    /// At most this many children per slice (0: as many as kSliceMs allows; tests).
    void setMaxChildrenPerSlice(int n) { m_maxPerSlice = n; }
    /// Forgets the current step without touching it (the stack is cleared: the cluster or the
    /// plan was replaced under it).
    void abandon();

signals:
    void busyChanged(bool busy);
    /// After each slice: children run so far (back down after a cancel) of `total`.
    void progressed(int done, int total);
    /// A step finished (`cancelled`: put back as it was).
    void finished(bool cancelled);

private:
    void slice();
    /// Runs slice() from the event loop, after the input and timers due meanwhile.
    void nextSlice();
    /// One child in the current direction; false when none is left.
    bool stepOne();
    void complete();
    void hideProgress();

    QUndoStack* m_stack;
    QWidget* m_dialogParent;
    QPointer<QProgressDialog> m_progress;
    PlanStepCommand* m_step = nullptr;
    bool m_undo = true;       // the direction the children run in now
    bool m_cancelled = false; // the direction was reversed by cancel()
    int m_next = 0;           // the child to run next
    int m_done = 0;           // children run in the first direction
    int m_maxPerSlice = 0;
    QElapsedTimer m_clock;    // since start(), for the progress dialog's delay
};

} // namespace fleet::app
