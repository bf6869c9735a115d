// SPDX-License-Identifier: Apache-2.0
#pragma once
// A saved plan against what happened: each action of a plan made on an earlier state, checked
// against a later state (`fleetscope diff BEFORE AFTER --plan NAME`), and the savings it
// planned against those realised. What cost tools' users ask for as "estimated against
// realised savings".
//
// The rules, per action (nodes by name, pods by namespace/name, as Kubernetes keys them):
//  - move-pod: carried out when the pod runs on the planned node in the later state, or (a pod
//    of a controller re-created under a new name, as a rollout or eviction does) when a pod of
//    the same workload that the earlier state did not have runs there; to a node the plan
//    adds, when the pod runs on a node the earlier state did not have.
//  - drain-node, fail-node: carried out when the node is gone, or when it held pods a drain
//    moves in the earlier state and holds none in the later (DaemonSet and mirror pods stay
//    with their node). A node that held none before and is still there is not carried out:
//    the action was to remove it. fail-domain: every node it removed is gone.
//  - add-node: carried out when the later state has at least `count` nodes more of the
//    instance type in the domain than the earlier (each new node counts for one action only).
//  - place-workload: every pod the plan moved runs in the domain; place-pods: `count` running
//    pods of the template's workload that the earlier state did not have.
// Every action not carried out is applied again, in plan order, to the later state (PlanEngine,
// as `plan check` does): when it holds there it was "not carried out" (still possible), else it
// is "no longer possible", with the reason codes (model/scheduling/reasons.h).
//
// Savings: planned = the plan's cost per hour before minus after on the earlier state (its
// evaluation); realised = what the nodes the plan touched (moved from or to, drained, failed,
// added) cost then minus what they cost now (the ones still there, and the new nodes counted
// for its add-node actions).
//
// Thread: any; the stores read-only for the call.

#include "importers/plan/planfile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fleet::model {
class ClusterStore;
class Topology;
} // namespace fleet::model

namespace fleet::importers {

enum class ActionOutcomeKind : std::uint8_t { CarriedOut, NotCarriedOut, NoLongerPossible };
/// "carried-out", "not-carried-out", "no-longer-possible". Thread: any.
[[nodiscard]] std::string_view actionOutcomeName(ActionOutcomeKind kind) noexcept;

struct ActionOutcome {
    std::size_t index = 0; ///< in the plan
    model::PlanAction action;
    ActionOutcomeKind outcome = ActionOutcomeKind::NotCarriedOut;
    std::string evidence; ///< what was seen, "default/web-1 runs on cpu-b1", "cpu-a1 is gone"
    std::vector<model::Reason> reasons; ///< NoLongerPossible: why it cannot be done now
};

struct PlanOutcome {
    std::vector<ActionOutcome> actions;
    std::size_t carriedOut = 0, notCarriedOut = 0, noLongerPossible = 0;
    double plannedSavingsPerHour = 0; ///< $/h, the evaluation on the earlier state
    std::vector<std::string> touchedNodes; ///< names, sorted (new nodes of add-node included)
    double touchedThenPerHour = 0, touchedNowPerHour = 0; ///< $/h of those nodes then and now
    [[nodiscard]] double realisedSavingsPerHour() const noexcept { return touchedThenPerHour - touchedNowPerHour; }
};

/// Compares `plan` (made on `before`) with `after`. Prices by NodeId, $/h (empty: 0). The
/// stores must hold the plan's place-pods template pods already (addPlanTemplatePods()).
/// Never throws for what the states hold (a missing pod or node is an outcome); std::bad_alloc.
[[nodiscard]] PlanOutcome comparePlanOutcome(const model::ClusterStore& before, const model::Topology& beforeTopology,
                                             const std::vector<double>& beforePrices, const model::ClusterStore& after,
                                             const model::Topology& afterTopology, const std::vector<double>& afterPrices,
                                             const PlanDocument& plan);

/// A warning when `after` may not be a later state of `before`'s cluster: fewer than half of
/// before's nodes (by name, tombstones aside) are in after. Every drain of a plan then reads as
/// carried out (its node is gone) and its savings as realised, against another cluster. Names
/// are not proof (a cluster whose nodes were all replaced keeps none), so it is a warning, not a
/// refusal: "the later state has only 12 of the earlier state's 2,000 nodes (by name): if it is
/// another cluster, the plan's outcome says nothing"; without `aboutPlan` (a comparison with no
/// plan) it ends "... (by name): it may be another cluster". "" when at least half are. O(nodes).
/// Thread: any (the stores read-only).
[[nodiscard]] std::string sharedNodesNote(const model::ClusterStore& before, const model::ClusterStore& after, bool aboutPlan = true);

} // namespace fleet::importers
