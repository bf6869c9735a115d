// SPDX-License-Identifier: Apache-2.0
#pragma once
// The map's plan marks (views/map/planmarks.h) kept up to date as the plan's actions are applied
// and undone, instead of built again from every applied action after each change.
//
// Design note: buildPlanMarks() walks every applied action and the pods of every changed node:
// at a consolidation of 26,516 actions on 100,000 nodes about 9 ms of the GUI thread after each
// drop, undo or Fail Domain. The engine applies and undoes at the end of its list only (last in,
// first out), so the tracker keeps, per node, how many of the counted actions name it (changed,
// violation, removed), and per action the node ids it counted (the engine forgets an action it
// undoes, the tracker must take back what it counted for it). A change to the plan costs the
// actions undone and applied since, the emptiness test of the nodes those actions name, and one
// byte scan of the nodes for the sorted lists.

#include "model/plan/plan.h"
#include "model/topology.h"
#include "views/map/planmarks.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace fleet::views {

/// Keeps the PlanMarks of one PlanEngine's applied actions: equal to buildPlanMarks() of the
/// engine after every update(). Thread: the engine's thread (a worker may rebuild() one and hand
/// it to the GUI thread, which updates it from then on).
class PlanMarksTracker {
public:
    PlanMarksTracker() = default;

    /// Counts every applied action of `engine` again (`topology` resolves an AddNode's domain, as
    /// in buildPlanMarks()). O(changes + pods of the changed nodes + nodes).
    void rebuild(const model::PlanEngine& engine, const model::Topology* topology);
    /// Follows `engine` (the one counted before, the same store) after actions were undone and
    /// applied: the actions from index `unchangedBefore` on (they and the counted ones after it
    /// may differ) are taken back and counted again. `unchangedBefore` beyond what is counted or
    /// applied means only the end changed. O(actions changed since + pods of the nodes they name +
    /// nodes). A tracker that never counted, or counted another store, rebuilds.
    void update(const model::PlanEngine& engine, const model::Topology* topology, std::size_t unchangedBefore);
    /// The marks of the engine's applied actions at the last rebuild() or update(); null when it
    /// had none (as buildPlanMarks()).
    [[nodiscard]] const std::shared_ptr<const PlanMarks>& marks() const noexcept { return m_marks; }
    /// How many of the engine's applied actions are counted.
    [[nodiscard]] std::size_t countedActions() const noexcept { return m_spans.size(); }

private:
    // Where an action's node ids end in each list (one span per counted action).
    struct Span {
        std::size_t changedEnd = 0, violationsEnd = 0, removedEnd = 0, addedEnd = 0;
    };
    void count(const model::AppliedAction& a, const model::ClusterStore& store, const model::Topology* topology);
    void uncountLast();
    void touch(model::NodeId n);
    void publish(const model::PlanLedger& state, bool anyApplied);

    const model::ClusterStore* m_store = nullptr;
    std::vector<std::uint32_t> m_changedCount, m_violationCount, m_removedCount; // by store node
    std::vector<std::uint8_t> m_emptied; // by store node: holds work pods before, none under the plan
    std::vector<std::uint8_t> m_dirty;   // by store node: named by an action counted or taken back
    std::vector<model::NodeId> m_dirtyNodes;
    std::vector<model::NodeId> m_changedIds, m_violationIds, m_removedIds;
    std::vector<std::pair<model::NodeId, model::DomainId>> m_addedIds;
    std::vector<Span> m_spans;
    std::shared_ptr<const PlanMarks> m_marks;
};

} // namespace fleet::views
