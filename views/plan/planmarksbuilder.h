// SPDX-License-Identifier: Apache-2.0
#pragma once
// The map's plan marks (views/map/planmarks.h) from a PlanEngine's applied actions.

#include "model/plan/plan.h"
#include "model/topology.h"
#include "views/map/planmarks.h"

#include <memory>

namespace fleet::views {

/// Changed, emptied, removed and violating nodes of the plan, store nodes only, each list
/// sorted and without duplicates; the present added nodes with the domain of their AddNode
/// (resolved on `topology`; the root when it is null or the path does not resolve); null when
/// the plan has no actions. O(changes + pods of the changed nodes). Thread: the engine's thread.
[[nodiscard]] std::shared_ptr<const PlanMarks> buildPlanMarks(const model::PlanEngine& engine, const model::Topology* topology = nullptr);
/// The domain an AddNode action's nodes are drawn in: its domain path resolved on `topology`,
/// the root when the action names none or the path does not resolve, invalid without topology.
[[nodiscard]] model::DomainId addedNodeDomain(const model::PlanAction& action, const model::Topology* topology);
/// Whether store node `n` held pods other than DaemonSet and mirror pods before the plan and
/// holds none under `state` (PlanMarks::emptied, for a present changed node). O(pods of n).
[[nodiscard]] bool isEmptiedByPlan(const model::PlanLedger& state, model::NodeId n);

} // namespace fleet::views
