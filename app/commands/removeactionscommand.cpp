// SPDX-License-Identifier: Apache-2.0
#include "removeactionscommand.h"

#include "app/controllers/planenginehost.h"

#include <algorithm>

namespace fleet::app {

RemoveActionsCommand::RemoveActionsCommand(PlanEngineHost& host, std::size_t count, QString text, std::function<void()> changed)
    : QUndoCommand(std::move(text))
    , m_host(host)
    , m_count(count)
    , m_changed(std::move(changed))
{
}

void RemoveActionsCommand::redo()
{
    model::PlanEngine& engine = *m_host.engine();
    m_removed.clear();
    m_host.noteAppliedChangeAt(engine.applied().size() - std::min(m_count, engine.applied().size()));
    for (std::size_t k = 0; k < m_count && !engine.applied().empty(); ++k) {
        m_removed.push_back(engine.applied().back().action);
        engine.undo();
    }
    std::reverse(m_removed.begin(), m_removed.end());
    m_count = m_removed.size();
    if (m_changed)
        m_changed();
}

void RemoveActionsCommand::undo()
{
    // Each was applied to this very state before, so the engine takes it again (no throw):
    // replayed from what its undo recorded when it can be (PlanEngine::reapplyUndone()).
    model::PlanEngine& engine = *m_host.engine();
    m_host.noteAppliedChangeAt(engine.applied().size());
    for (const model::PlanAction& a : m_removed)
        if (!engine.reapplyUndone(a))
            engine.apply(a);
    m_removed.clear();
    if (m_changed)
        m_changed();
}

} // namespace fleet::app
