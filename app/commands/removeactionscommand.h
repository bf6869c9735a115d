// SPDX-License-Identifier: Apache-2.0
#pragma once
// The last actions of a plan taken back as one undoable step (a consolidation lands
// as one undo step, yet its actions can still be removed one at a time from the last).

#include "model/plan/plan.h"

#include <QUndoCommand>

#include <functional>
#include <vector>

namespace fleet::app {

class PlanEngineHost;

/// Removes the last `count` applied actions of the engine of `host` (PlanEngineHost::engine(),
/// read at each redo and undo, so the command follows a replaced engine), whatever command applied them (one
/// drain of a consolidation's macro, say): redo() undoes them (PlanEngine::undo, last first)
/// and keeps their PlanActions; undo() applies them again in their order, which gives the
/// same effects since the state is the one they were applied to. The stack's last-in
/// first-out order keeps this so: the commands below it see their own actions as the engine's
/// last once this one is undone. `changed` is called after every redo and undo. Throws
/// nothing. Thread: GUI thread.
class RemoveActionsCommand : public QUndoCommand {
public:
    RemoveActionsCommand(PlanEngineHost& host, std::size_t count, QString text, std::function<void()> changed);

    void redo() override;
    void undo() override;

    /// How many actions its redo() removes (fewer when the plan had fewer).
    [[nodiscard]] std::size_t count() const noexcept { return m_count; }

private:
    PlanEngineHost& m_host;
    std::size_t m_count;
    std::function<void()> m_changed;
    std::vector<model::PlanAction> m_removed; // in applied order, while removed
};

} // namespace fleet::app
