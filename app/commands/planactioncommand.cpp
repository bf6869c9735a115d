// SPDX-License-Identifier: Apache-2.0
#include "planactioncommand.h"

#include "app/controllers/offthreadrelease.h"
#include "app/controllers/planenginehost.h"

#include <stdexcept>

namespace fleet::app {

PlanActionCommand::PlanActionCommand(
    PlanEngineHost& host, model::PlanAction action, QString text, std::function<void()> changed, QUndoCommand* parent)
    : QUndoCommand(std::move(text), parent)
    , m_host(host)
    , m_action(std::move(action))
    , m_changed(std::move(changed))
{
}

PlanActionCommand::PlanActionCommand(PlanEngineHost& host, model::PlanAction action, QString text, std::function<void()> changed,
    AppliedAt applied, QUndoCommand* parent)
    : PlanActionCommand(host, std::move(action), std::move(text), std::move(changed), parent)
{
    m_appliedAlready = true;
    m_appliedIndex = applied.index;
}

model::PlanEngine& PlanActionCommand::engine() const
{
    return *m_host.engine();
}

void PlanActionCommand::redo()
{
    if (m_appliedAlready) {
        m_appliedAlready = false;
        m_applied = true;
        m_appliedOnce = true;
        m_index = m_appliedIndex;
        if (m_changed)
            m_changed();
        return;
    }
    model::PlanEngine& plan = engine();
    const std::size_t before = plan.applied().size();
    m_host.noteAppliedChangeAt(before);
    // A redo after an undo replays what the action did (PlanEngine::reapplyUndone(): O(its
    // effects)); planning a drain again would cost as much as its first apply.
    if (m_appliedOnce && plan.reapplyUndone(m_action)) {
        m_applied = true;
        m_index = before;
        if (m_changed)
            m_changed();
        return;
    }
    // apply() drops what the engine kept of the actions undone before it: after the undo of a
    // 200,000-action consolidation, a record each, freed here at once.
    releaseOffGuiThread(plan.takeUndone());
    try {
        const model::AppliedAction& result = plan.apply(m_action);
        if (plan.applied().size() == before) {
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

void PlanActionCommand::undo()
{
    if (!m_applied)
        return;
    if (!engine().applied().empty())
        m_host.noteAppliedChangeAt(engine().applied().size() - 1);
    engine().undo();
    m_applied = false;
    if (m_changed)
        m_changed();
}

const model::AppliedAction* PlanActionCommand::applied() const noexcept
{
    if (!m_applied || !m_host.engine())
        return nullptr;
    const auto& applied = m_host.engine()->applied();
    return m_index < applied.size() ? &applied[m_index] : nullptr;
}

} // namespace fleet::app
