// SPDX-License-Identifier: Apache-2.0
#include "planstepcommand.h"

#include "app/commands/plancommand.h"

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
        if (const auto* c = dynamic_cast<const PlanCommand*>(child(i)); c && c->applied())
            ++n;
    return n;
}

void PlanStepCommand::redo()
{
    QUndoCommand::redo();
    if (!m_pushed) {
        m_pushed = true;
        if (appliedChildren() == 0) {
            setObsolete(true); // nothing to undo: push() deletes it
            return;
        }
    }
    if (m_changed)
        m_changed();
}

void PlanStepCommand::undo()
{
    QUndoCommand::undo();
    if (m_changed)
        m_changed();
}

} // namespace fleet::app
