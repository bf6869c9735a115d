// SPDX-License-Identifier: Apache-2.0
#include "plancommand.h"

#include <stdexcept>

namespace fleet::app {

PlanCommand::PlanCommand(std::shared_ptr<model::PlanEngine> engine, model::PlanAction action, QString text,
    std::function<void()> changed, QUndoCommand* parent)
    : QUndoCommand(std::move(text), parent)
    , m_engine(std::move(engine))
    , m_action(std::move(action))
    , m_changed(std::move(changed))
{
}

void PlanCommand::redo()
{
    if (m_appliedAlready) {
        m_appliedAlready = false;
        m_applied = true;
        m_appliedOnce = true;
        m_index = m_appliedIndex != static_cast<std::size_t>(-1) ? m_appliedIndex : m_engine->applied().size() - 1;
        if (m_changed)
            m_changed();
        return;
    }
    const std::size_t before = m_engine->applied().size();
    // A redo after an undo replays what the action did (PlanEngine::reapplyUndone(): O(its
    // effects)); planning a drain again would cost as much as its first apply.
    if (m_appliedOnce && m_engine->reapplyUndone(m_action)) {
        m_applied = true;
        m_index = before;
        if (m_changed)
            m_changed();
        return;
    }
    try {
        const model::AppliedAction& result = m_engine->apply(m_action);
        if (m_engine->applied().size() == before) {
            m_refused = result;
            m_refusedOnce = true;
            setObsolete(true);
        } else {
            m_applied = true;
            m_appliedOnce = true;
            m_index = before;
        }
    } catch (const std::invalid_argument& e) {
        m_refused = {};
        m_refused.action = m_action;
        m_refused.holds = false;
        m_refused.reasons.push_back(model::makeReason(model::ReasonKind::NoFeasibleNode, {}, e.what()));
        m_refusedOnce = true;
        setObsolete(true);
    }
    if (m_refusedOnce && m_onRefused)
        m_onRefused(m_refused);
    if (m_changed && m_applied)
        m_changed();
}

void PlanCommand::undo()
{
    if (!m_applied)
        return;
    m_engine->undo();
    m_applied = false;
    if (m_changed)
        m_changed();
}

const model::AppliedAction* PlanCommand::applied() const noexcept
{
    return m_applied && m_index < m_engine->applied().size() ? &m_engine->applied()[m_index] : nullptr;
}

} // namespace fleet::app
