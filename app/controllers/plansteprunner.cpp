// SPDX-License-Identifier: Apache-2.0
#include "plansteprunner.h"

#include "app/commands/planstepcommand.h"

#include <QElapsedTimer>
#include <QProgressDialog>
#include <QTimer>
#include <QUndoStack>

namespace fleet::app {

PlanStepRunner::PlanStepRunner(QUndoStack* stack, QWidget* dialogParent, QObject* parent)
    : QObject(parent)
    , m_stack(stack)
    , m_dialogParent(dialogParent)
{
}

PlanStepRunner::~PlanStepRunner()
{
    delete m_progress;
}

bool PlanStepRunner::start(PlanStepCommand& step, bool undo)
{
    finishNow(); // last in, first out: a step still running goes first
    if (step.actionCount() < PlanStepCommand::kSlicedChildren && step.heldEffects() < m_slicedEffects)
        return false;
    m_step = &step;
    m_undo = undo;
    m_cancelled = false;
    m_next = undo ? step.actionCount() - 1 : 0;
    m_done = 0;
    m_cancellingPart = false;
    m_clock.start();
    // The first slice runs now: a step that takes less than a slice stays synchronous (its undo
    // or redo is done when the stack's call returns), as every step of a small cluster is.
    QElapsedTimer clock;
    clock.start();
    bool more = true;
    for (int k = 0; more && clock.elapsed() < kSliceMs && (m_maxPerSlice == 0 || k < m_maxPerSlice); ++k)
        more = stepOne(m_effectsPerPart);
    if (!more) {
        m_step = nullptr;
        step.finishDeferred();
        return true;
    }
    if (m_dialogParent && !m_progress) {
        m_progress = new QProgressDialog(m_dialogParent);
        m_progress->setObjectName(QStringLiteral("planStepProgress"));
        m_progress->setWindowModality(Qt::WindowModal);
        m_progress->setAutoReset(false);
        m_progress->setAutoClose(false);
        m_progress->setMinimumDuration(kProgressDelayMs);
        m_progress->reset(); // QProgressDialog shows itself after its minimum duration unless reset
        connect(m_progress, &QProgressDialog::canceled, this, &PlanStepRunner::cancel);
    }
    if (m_progress) {
        m_progress->setWindowTitle(undo ? tr("Undo") : tr("Redo"));
        m_progress->setLabelText(undo ? tr("Undoing %1\u2026").arg(step.text()) : tr("Redoing %1\u2026").arg(step.text()));
        m_progress->setRange(0, step.actionCount() * 100);
        m_progress->setValue(progressValue()); // starts the minimum-duration clock
    }
    emit busyChanged(true);
    nextSlice();
    return true;
}

bool PlanStepRunner::stepOne(std::size_t maxEffects)
{
    if (m_cancellingPart) {
        // The child that was part done goes back first; then the children before it, reversed.
        if (m_step->cancelPart(maxEffects))
            m_cancellingPart = false;
        return true;
    }
    if (m_undo) {
        if (m_next < 0)
            return false;
        if (!m_step->runPart(m_next, true, maxEffects))
            return true;
        --m_next;
    } else {
        if (m_next >= m_step->actionCount())
            return false;
        if (!m_step->runPart(m_next, false, maxEffects))
            return true;
        ++m_next;
    }
    if (!m_cancelled)
        ++m_done;
    else
        --m_done;
    return true;
}

int PlanStepRunner::progressValue() const
{
    return m_done * 100 + static_cast<int>(m_step ? m_step->partFraction() * 100 : 0);
}

void PlanStepRunner::slice()
{
    if (!m_step)
        return;
    QElapsedTimer clock;
    clock.start();
    bool more = true;
    int ran = 0;
    for (int n = 0; more && clock.elapsed() < kSliceMs && (m_maxPerSlice == 0 || n < m_maxPerSlice); ++n) {
        more = stepOne(m_effectsPerPart);
        ran += more ? 1 : 0;
    }
    // The refresh (the marks, the metric, the panels: tens of ms at 100,000 nodes) gets a turn
    // of its own: after a slice of children in the same turn the two together held the GUI
    // thread over its 50 ms.
    if (!more && ran == 0) {
        complete();
        return;
    }
    if (m_progress && !m_progress->wasCanceled())
        m_progress->setValue(progressValue());
    // Between children only: while one is part done, the engine lists an action whose effects are
    // half run, which the listeners (the plan marks) must not read as a plan.
    if (!m_step->hasPart() && !m_cancellingPart)
        emit progressed(m_done, m_step->actionCount());
    if (m_step) // a slot may have cancelled or abandoned it
        nextSlice();
}

void PlanStepRunner::nextSlice()
{
    // A 1 ms timer, not a posted call (a 0 ms single shot): the event loop runs posted calls
    // before the timers it found due, so two slices (or the last slice and the refresh) ran as
    // one stall; a timer lets the loop turn (input, other timers) between them.
    QTimer::singleShot(1, Qt::PreciseTimer, this, &PlanStepRunner::slice);
}

void PlanStepRunner::finishNow()
{
    if (!m_step)
        return;
    while (stepOne(static_cast<std::size_t>(-1))) {
    }
    complete();
}

void PlanStepRunner::cancel()
{
    if (!m_step || m_cancelled)
        return;
    m_cancelled = true;
    m_cancellingPart = m_step->hasPart();
    // Back over the children run so far (after the part done of the one begun, which then counts
    // as not run): an undo that went down to m_next + 1 redoes from
    // there up, a redo that went up to m_next - 1 undoes from there down.
    m_undo = !m_undo;
    m_next = m_undo ? m_next - 1 : m_next + 1;
    if (m_progress)
        m_progress->setLabelText(tr("Cancelling\u2026"));
}

void PlanStepRunner::complete()
{
    PlanStepCommand* step = m_step;
    const bool cancelled = m_cancelled;
    const bool undone = m_undo; // the direction the children ended in
    m_step = nullptr;
    hideProgress();
    if (cancelled) {
        // The stack moved past the step when it asked for it; the children are back as they
        // were, so the stack goes back without running them (and refreshes once).
        step->setDoneAhead();
        if (undone)
            m_stack->undo(); // a cancelled redo
        else
            m_stack->redo(); // a cancelled undo
    } else {
        step->finishDeferred();
    }
    emit busyChanged(false);
    emit finished(cancelled);
}

void PlanStepRunner::abandon()
{
    if (!m_step)
        return;
    m_step->forgetPart(); // its engine goes with the stack
    m_step = nullptr;
    m_cancellingPart = false;
    hideProgress();
    emit busyChanged(false);
}

void PlanStepRunner::hideProgress()
{
    if (!m_progress)
        return;
    // reset() stops the dialog's show timer but hides it only with autoClose, which is off (the
    // dialog must not close itself when a slice reaches the maximum): hide it here. It stayed up,
    // empty, after an undo of a 100,000-node consolidation.
    m_progress->reset();
    m_progress->hide();
}

} // namespace fleet::app
