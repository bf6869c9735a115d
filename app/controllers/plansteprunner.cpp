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
    m_step = &step;
    m_undo = undo;
    m_cancelled = false;
    m_next = undo ? step.actionCount() - 1 : 0;
    m_done = 0;
    m_clock.start();
    // The first slice runs now: a step that takes less than a slice stays synchronous (its undo
    // or redo is done when the stack's call returns), as every step of a small cluster is.
    QElapsedTimer clock;
    clock.start();
    bool more = true;
    for (int k = 0; more && clock.elapsed() < kSliceMs && (m_maxPerSlice == 0 || k < m_maxPerSlice); ++k)
        more = stepOne();
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
        m_progress->setRange(0, step.actionCount());
        m_progress->setValue(m_done); // starts the minimum-duration clock
    }
    emit busyChanged(true);
    nextSlice();
    return true;
}

bool PlanStepRunner::stepOne()
{
    if (m_undo) {
        if (m_next < 0)
            return false;
        m_step->undoChild(m_next--);
    } else {
        if (m_next >= m_step->actionCount())
            return false;
        m_step->redoChild(m_next++);
    }
    if (!m_cancelled)
        ++m_done;
    else
        --m_done;
    return true;
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
        more = stepOne();
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
        m_progress->setValue(m_done);
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
    while (stepOne()) {
    }
    complete();
}

void PlanStepRunner::cancel()
{
    if (!m_step || m_cancelled)
        return;
    m_cancelled = true;
    // Back over the children run so far: an undo that went down to m_next + 1 redoes from
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
    m_step = nullptr;
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
