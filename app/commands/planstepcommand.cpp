// SPDX-License-Identifier: Apache-2.0
#include "planstepcommand.h"

#include "app/commands/planactioncommand.h"
#include "app/controllers/offthreadrelease.h"
#include "app/controllers/planenginehost.h"

#include <stdexcept>

namespace fleet::app {

PlanStepCommand::PlanStepCommand(QString text, std::function<void()> changed)
    : QUndoCommand(std::move(text))
    , m_changed(std::move(changed))
{
}

PlanStepCommand::~PlanStepCommand()
{
    // Hundreds of thousands of actions (each a few strings) are tens of ms to free.
    releaseOffGuiThread(std::move(m_actions));
}

void PlanStepCommand::setAppliedActions(PlanEngineHost& host, std::vector<model::PlanAction> actions)
{
    Q_ASSERT(!m_pushed && childCount() == 0);
    m_host = &host;
    m_heldApplied.assign(actions.size(), 1);
    m_heldAppliedCount = static_cast<int>(actions.size());
    m_actions = std::make_shared<std::vector<model::PlanAction>>(std::move(actions));
}

int PlanStepCommand::actionCount() const
{
    return m_actions ? static_cast<int>(m_actions->size()) : childCount();
}

int PlanStepCommand::appliedChildren() const
{
    if (m_actions)
        return m_heldAppliedCount;
    int n = 0;
    for (int i = 0; i < childCount(); ++i)
        if (const auto* c = dynamic_cast<const PlanActionCommand*>(child(i)); c && c->applied())
            ++n;
    return n;
}

void PlanStepCommand::undoHeld(int i)
{
    const auto at = static_cast<std::size_t>(i);
    model::PlanEngine* engine = m_host->engine().get();
    if (!m_heldApplied[at] || !engine || engine->applied().empty())
        return;
    m_host->noteAppliedChangeAt(engine->applied().size() - 1);
    engine->undo();
    m_heldApplied[at] = 0;
    --m_heldAppliedCount;
}

void PlanStepCommand::redoHeld(int i)
{
    const auto at = static_cast<std::size_t>(i);
    model::PlanEngine* engine = m_host->engine().get();
    if (m_heldApplied[at] || !engine)
        return;
    m_host->noteAppliedChangeAt(engine->applied().size());
    // As PlanActionCommand's redo: the effects replayed (O(its effects)), else planned again.
    if (engine->reapplyUndone((*m_actions)[at])) {
        m_heldApplied[at] = 1;
        ++m_heldAppliedCount;
        return;
    }
    applyHeld(i);
}

void PlanStepCommand::applyHeld(int i)
{
    const auto at = static_cast<std::size_t>(i);
    model::PlanEngine* engine = m_host->engine().get();
    const std::size_t before = engine->applied().size();
    m_host->noteAppliedChangeAt(before);
    bool applied = false;
    try {
        releaseOffGuiThread(engine->takeUndone()); // apply() would free it here, all at once
        engine->apply((*m_actions)[at]);
        applied = engine->applied().size() > before;
    } catch (const std::invalid_argument&) {
        applied = false; // refused: stays out of the plan, as a refused child does
    }
    if (applied) {
        m_heldApplied[at] = 1;
        ++m_heldAppliedCount;
    }
}

bool PlanStepCommand::runPart(int i, bool undo, std::size_t maxEffects)
{
    if (!m_actions) {
        if (undo)
            undoChild(i);
        else
            redoChild(i);
        return true;
    }
    const auto at = static_cast<std::size_t>(i);
    model::PlanEngine* engine = m_host->engine().get();
    if (m_partAt != i) {
        Q_ASSERT(m_partAt < 0);
        if (!engine || (undo ? !m_heldApplied[at] || engine->applied().empty() : m_heldApplied[at] != 0))
            return true;
        m_host->noteAppliedChangeAt(undo ? engine->applied().size() - 1 : engine->applied().size());
        const bool begun = undo ? engine->beginUndo() : engine->beginReapply((*m_actions)[at]);
        if (!begun) {
            if (undo)
                undoHeld(i);
            else
                applyHeld(i); // planned again: the engine kept nothing to replay
            return true;
        }
        m_partAt = i;
    }
    if (!engine->continuePartial(maxEffects))
        return false;
    m_partAt = -1;
    m_heldApplied[at] = undo ? 0 : 1;
    m_heldAppliedCount += undo ? -1 : 1;
    return true;
}

bool PlanStepCommand::cancelPart(std::size_t maxEffects)
{
    if (m_partAt < 0)
        return true;
    model::PlanEngine* engine = m_host->engine().get();
    if (engine && !engine->cancelPartial(maxEffects))
        return false;
    m_partAt = -1;
    return true;
}

double PlanStepCommand::partFraction() const
{
    const model::PlanEngine* engine = m_partAt >= 0 ? m_host->engine().get() : nullptr;
    if (!engine || engine->partialTotal() == 0)
        return 0;
    return static_cast<double>(engine->partialDone()) / static_cast<double>(engine->partialTotal());
}

std::size_t PlanStepCommand::heldEffects()
{
    if (!m_actions)
        return 0;
    if (!m_heldEffects) {
        const model::PlanEngine* engine = m_host->engine().get();
        if (!engine)
            return 0;
        const auto& applied = engine->applied();
        std::size_t effects = 0;
        for (std::size_t k = applied.size() - std::min(applied.size(), static_cast<std::size_t>(m_heldAppliedCount)); k < applied.size(); ++k)
            effects += applied[k].changes.size() + applied[k].nodesRemoved.size();
        m_heldEffects = effects;
    }
    return *m_heldEffects;
}

// QUndoCommand hands its children out as const only; they are this step's own.
void PlanStepCommand::undoChild(int i)
{
    if (m_actions)
        undoHeld(i);
    else
        const_cast<QUndoCommand*>(child(i))->undo();
}

void PlanStepCommand::redoChild(int i)
{
    if (m_actions)
        redoHeld(i);
    else
        const_cast<QUndoCommand*>(child(i))->redo();
}

void PlanStepCommand::redoAll()
{
    if (!m_actions) {
        QUndoCommand::redo();
        return;
    }
    for (int i = 0; i < actionCount(); ++i)
        redoHeld(i);
}

void PlanStepCommand::undoAll()
{
    if (!m_actions) {
        QUndoCommand::undo();
        return;
    }
    for (int i = actionCount() - 1; i >= 0; --i)
        undoHeld(i);
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
    if (!m_pushed) {
        // push()'s redo: children run (or, applied by a worker, only record it); held actions are
        // applied already. No slices.
        if (!m_actions)
            QUndoCommand::redo();
        m_pushed = true;
        if (appliedChildren() == 0) {
            setObsolete(true); // nothing to undo: push() deletes it
            return;
        }
        finishDeferred();
        return;
    }
    if (m_runner && (actionCount() >= kSlicedChildren || m_actions) && m_runner(*this, false))
        return;
    redoAll();
    finishDeferred();
}

void PlanStepCommand::undo()
{
    if (m_doneAhead) {
        m_doneAhead = false;
        finishDeferred();
        return;
    }
    if (m_runner && (actionCount() >= kSlicedChildren || m_actions) && m_runner(*this, true))
        return;
    undoAll();
    finishDeferred();
}

} // namespace fleet::app
