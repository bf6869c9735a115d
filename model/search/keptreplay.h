// SPDX-License-Identifier: Apache-2.0
#pragma once
// Why each node a consolidation plan keeps stays, as the search that wrote the plan found it.
// A plan file records the drains only (plan-v1: the reasons are in `plan consolidate`'s
// summary), so a report of the plan replays the search: the plan's actions before its drains
// are applied, then consolidate()'s passes are run one by one (searchDrains(), the same
// DrainRunner: the same candidates, cheap refusals and drains) and a pass whose drains are the
// plan's, in the plan's order, gives the search's kept list, which model/search/keptgroups.h groups as
// `plan consolidate` and the window's Consolidate dialog group it.

#include "model/search/consolidation.h"

#include <optional>
#include <string>
#include <vector>

namespace fleet::model {

class Topology;

struct KeptReplay {
    std::vector<KeptNode> kept; // ConsolidationResult::kept of the search: every present node that stays, by NodeId
    std::string order;          // the order that gives the plan ("saving-per-load", ...)
};

/// The kept list of the consolidation that wrote `plan` (its trailing run of drain-node actions,
/// each after the move-pod actions of its pods, consolidation.h "One move per pod"; the actions
/// before them, a window's plan, are applied first, and the move-pod actions of pending pods
/// right before them are made again as the search made them, before its drains), over `store`
/// with `input`'s prices and group minimums. nullopt when the plan is not
/// such a search's: no drain, drains with different policies or keep-within levels, an action
/// the state lacks, or no drain order whose drains are exactly the plan's (a plan edited by hand,
/// a search stopped by its time or move limit, group minimums not given here). Costs the search's
/// passes up to the plan's (consolidate() makes up to eight: four orders, then up to four
/// promotion passes, about 5 to 7 s of CPU each at 100,000 nodes): the passes before it are run
/// too, as the kept messages' blocking-filter tallies are judged once per pod class across the
/// whole search. Thread: any.
[[nodiscard]] std::optional<KeptReplay> replayConsolidationKept(
    const ClusterStore& store, const Topology& topology, const ConsolidationInput& input, const std::vector<PlanAction>& plan);

} // namespace fleet::model
