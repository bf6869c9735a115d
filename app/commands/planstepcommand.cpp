// SPDX-License-Identifier: Apache-2.0
#include "planstepcommand.h"

#include "app/commands/planactioncommand.h"

namespace fleet::app {

PlanStepCommand::PlanStepCommand(QString text, std::function<void()> changed)
    : QUndoCommand(std::move(text))
    , m_changed(std::move(changed))
{
}

int PlanStepCommand::appliedChildren() const
{
    int n = 0;
    for (int i = 0; i < childCount(); ++i)
        if (const auto* c = dynamic_cast<const PlanActionCommand*>(child(i)); c && c->applied())
            ++n;
    return n;
}

// QUndoCommand hands its children out as const only; they are this step's own.
void PlanStepCommand::undoChild(int i)
{
    const_cast<QUndoCommand*>(child(i))->undo();
}

void PlanStepCommand::redoChild(int i)
{
    const_cast<QUndoCommand*>(child(i))->redo();
}

void PlanStepCommand::finishDeferred()
{
    if (m_changed)
        m_changed();
}

void PlanStepCommand::redo()
{
    if (m_doneAhead) {
        m_doneAhead = false;
        finishDeferred();
        return;
    }
    // push()'s redo only records children a worker applied (PlanActionCommand::AppliedAt): no slices.
    if (m_pushed && m_runner && childCount() >= kSlicedChildren && m_runner(*this, false))
        return;
    QUndoCommand::redo();
    if (!m_pushed) {
        m_pushed = true;
        if (appliedChildren() == 0) {
            setObsolete(true); // nothing to undo: push() deletes it
            return;
        }
    }
    finishDeferred();
}

void PlanStepCommand::undo()
{
    if (m_doneAhead) {
        m_doneAhead = false;
        finishDeferred();
        return;
    }
    if (m_runner && childCount() >= kSlicedChildren && m_runner(*this, true))
        return;
    QUndoCommand::undo();
    finishDeferred();
}

} // namespace fleet::app
