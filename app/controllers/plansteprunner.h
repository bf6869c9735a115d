// SPDX-License-Identifier: Apache-2.0
#pragma once
// The undo and redo of a large plan step (a consolidation's thousands of drains) in slices of the
// GUI thread's event loop, with progress and cancel, so that no turn of the loop holds it longer
// than a frame's budget (DESIGN.md, Threads: under 50 ms at 100,000 nodes).

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

#include <cstddef>

class QProgressDialog;
class QUndoStack;
class QWidget;

namespace fleet::app {

class PlanStepCommand;

/// Runs a PlanStepCommand's children (PlanStepCommand::runPart(), each O(its effects):
/// PlanEngine::undo() or reapplyUndone(), a held action of many effects in parts of
/// kEffectsPerPart, PlanEngine::continuePartial()) a slice of kSliceMs at a time, the first at
/// once (a step done within it is synchronous, as on a small cluster), the rest from a
/// 1 ms timer, then calls PlanStepCommand::finishDeferred() (the one refresh of the map and the
/// panel) in a turn of the event loop where no child ran (after the last slice, progressed()
/// reports every child done first). Between slices the engine is whole (the same thread), or
/// between two plans while one action is part done (PlanEngine::beginUndo()): progressed()
/// comes only between children, and the map keeps the marks it shows until the refresh; every
/// gesture that changes the plan asks isBusy() first and is refused while it is true. A
/// progress dialog (window modal, so no input reaches the window) shows after kProgressDelayMs
/// with Cancel: a cancelled undo takes back the part done of the action it was in (in parts
/// too), re-applies the children it undid and puts the stack back on the step
/// (QUndoStack::redo() with PlanStepCommand::setDoneAhead()), and a cancelled redo the other
/// way round; the plan is then as before the command. A stack
/// undo or redo asked for while a step runs first finishes that step here (finishNow()).
/// Thread: GUI thread.
class PlanStepRunner : public QObject {
    Q_OBJECT
public:
    static constexpr int kSliceMs = 20;
    static constexpr int kProgressDelayMs = 400;
    /// Engine effects run between two looks at the clock: about 6 ms at 100,000 nodes.
    static constexpr std::size_t kEffectsPerPart = 1024;

    /// `stack`: the stack the steps are on; `dialogParent`: the window the progress dialog covers.
    PlanStepRunner(QUndoStack* stack, QWidget* dialogParent, QObject* parent = nullptr);
    ~PlanStepRunner() override;

    /// Takes `step`'s undo (or redo) over (the PlanStepCommand::Runner contract): true; false
    /// (run it here and now) for a step of fewer than PlanStepCommand::kSlicedChildren children
    /// whose held actions have fewer than slicedEffects() effects.
    bool start(PlanStepCommand& step, bool undo);
    /// PlanStepCommand::heldEffects() from which a step of few actions is taken (4,096 by
    /// default: a pod's undo is about 6 us at 100,000 nodes, the capacity index re-keyed, so
    /// about 25 ms). Tests lower it.
    [[nodiscard]] std::size_t slicedEffects() const noexcept { return m_slicedEffects; }
    void setSlicedEffects(std::size_t n) { m_slicedEffects = n; }
    static constexpr std::size_t kSlicedEffects = 4096;
    [[nodiscard]] bool isBusy() const noexcept { return m_step != nullptr; }
    /// Runs the rest of the current step at once (a stack command that must come after it).
    void finishNow();
    /// Cancels the current step (its children taken back to where they were).
    void cancel();
    /// At most this many children per slice (0: as many as kSliceMs allows; tests).
    void setMaxChildrenPerSlice(int n) { m_maxPerSlice = n; }
    /// Engine effects per part of a held action (kEffectsPerPart; tests make it small, with
    /// setMaxChildrenPerSlice() counting parts then).
    void setEffectsPerPart(std::size_t n) { m_effectsPerPart = n; }
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
    /// One child, or a part of one (`maxEffects`), in the current direction; false when none is left.
    bool stepOne(std::size_t maxEffects);
    /// The progress dialog's value: children run, in hundredths, the part done of one included.
    [[nodiscard]] int progressValue() const;
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
    std::size_t m_effectsPerPart = kEffectsPerPart;
    std::size_t m_slicedEffects = kSlicedEffects;
    bool m_cancellingPart = false; // cancel() came while a child was part done: that part goes back first
    QElapsedTimer m_clock;    // since start(), for the progress dialog's delay
};

} // namespace fleet::app
