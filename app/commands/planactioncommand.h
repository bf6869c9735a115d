// SPDX-License-Identifier: Apache-2.0
#pragma once
// One what-if action as an undoable command (STYLE.md "Edits": a drop is one command).

#include "model/plan/plan.h"

#include <QUndoCommand>

#include <cstddef>
#include <functional>

namespace fleet::app {

class PlanEngineHost;

/// Wraps PlanEngine::apply (redo) and PlanEngine::undo (undo) of one PlanAction on the engine
/// of `host` (PlanEngineHost::engine(), read at each redo and undo: the host may replace its
/// engine with one that replayed the same actions, and the command follows). The stack
/// guarantees last-in first-out, so undo() always reverts the engine's last applied action,
/// which is this one, and a redo after it puts back the engine's last undone one
/// (PlanEngine::reapplyUndone(), which replays its effects instead of planning it again). An action the engine refuses (not appended to applied()) makes the
/// command obsolete after its first redo, so QUndoStack::push() drops it; refused() then
/// gives what the engine said. `changed` is called after every redo and undo (the app
/// refreshes the map and the plan panel). Throws nothing: an std::invalid_argument from the
/// engine (a pod, node or domain that does not exist) is kept as a refusal with its message.
/// Thread: GUI thread.
class PlanActionCommand : public QUndoCommand {
public:
    PlanActionCommand(PlanEngineHost& host, model::PlanAction action, QString text, std::function<void()> changed,
        QUndoCommand* parent = nullptr);
    /// A command whose action the engine applied already, at `index` of its applied()
    /// (computed on a worker: Plan > Place Workload, Plan > Consolidate, File > Open Plan):
    /// the first redo, push()'s, only records it; later redos apply it again.
    struct AppliedAt {
        std::size_t index;
    };
    PlanActionCommand(PlanEngineHost& host, model::PlanAction action, QString text, std::function<void()> changed, AppliedAt applied,
        QUndoCommand* parent = nullptr);

    void redo() override;
    void undo() override;

    [[nodiscard]] const model::PlanAction& action() const noexcept { return m_action; }
    /// Called with what the engine said when it refuses the action (before push() deletes
    /// the obsolete command).
    void setRefusedHandler(std::function<void(const model::AppliedAction&)> handler) { m_onRefused = std::move(handler); }
    /// True when the first redo was refused (the command is obsolete).
    [[nodiscard]] bool wasRefused() const noexcept { return m_refusedOnce; }
    /// The refused action with its reasons (valid after a refused redo).
    [[nodiscard]] const model::AppliedAction& refused() const noexcept { return m_refused; }
    /// The applied action (valid while applied).
    [[nodiscard]] const model::AppliedAction* applied() const noexcept;

private:
    [[nodiscard]] model::PlanEngine& engine() const;

    PlanEngineHost& m_host;
    model::PlanAction m_action;
    std::function<void()> m_changed;
    std::function<void(const model::AppliedAction&)> m_onRefused;
    model::AppliedAction m_refused;
    bool m_refusedOnce = false;
    bool m_applied = false;
    bool m_appliedOnce = false; // applied by a redo before: a later redo replays it
    bool m_appliedAlready = false;
    std::size_t m_index = 0; // in PlanEngine::applied() while applied
    std::size_t m_appliedIndex = 0; // AppliedAt
};

} // namespace fleet::app
