// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a drain-node action's evicted pods go (PlanAction::policy of a DrainNode, set by
// `plan consolidate --policy`): the what-if's default best fit, or one of the placement
// policies of placementpolicy.h that choose a node from what the ledger knows and need no
// other input (FGD and its variants need the typical-pod distribution, Random a seed, so they
// are not offered: a plan file must re-apply to the same nodes).
//
//   default          PlanEngine::chooseNode(): best fit on the pod's primary resource through
//                    the capacity index, ties by node name (resources/schemas/plan-v1.md)
//   LeastAllocated   kube-scheduler NodeResourcesFit scoring, strategy LeastAllocated (spreads)
//   MostAllocated    kube-scheduler NodeResourcesFit scoring, strategy MostAllocated (packs)
//   BestFit, GpuPacking, GpuClustering, DotProduct   the FGD paper's (PROTOCOL.md section 4)
//
// A scored policy judges every present, uncordoned node that has the pod's cpu, memory and GPU
// free and passes every filter, then takes the best score (ties: the lowest node id), so a drain
// by it costs O(nodes) per pod where the default walks the capacity index.
// Thread: any.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::model {

class PlacementPolicy;

/// The names above, "default" first.
[[nodiscard]] const std::vector<std::string>& drainPolicyNames();
/// True for "" (the default) and each of drainPolicyNames().
[[nodiscard]] bool isDrainPolicy(std::string_view name);
/// drainPolicyNames() joined by ", " (for error messages).
[[nodiscard]] std::string knownDrainPolicies();

/// The policy for `name`: null for "" and "default" (the engine's own best fit). Throws
/// std::invalid_argument "unknown drain policy \"NAME\" (known: default, LeastAllocated, ...)".
[[nodiscard]] std::unique_ptr<PlacementPolicy> makeDrainPolicy(std::string_view name);

} // namespace fleet::model
