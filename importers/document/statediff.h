// SPDX-License-Identifier: Apache-2.0
#pragma once
// Two cluster states compared (`fleetscope diff BEFORE AFTER`): nodes added, removed, relabelled
// and tainted, pods moved, created and deleted grouped by workload, and the totals then and now.
// Nodes are matched by name, pods by namespace/name (Kubernetes' keys); a pod of the same name
// bound to another node moved; deleted (tombstone) rows are not in either state.
//
// Thread: any; both stores read-only for the call.

#include "model/clusterstore.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fleet::importers {

/// The pods of one workload (namespace, controller kind, name) that changed.
struct WorkloadChanges {
    std::string namespaceName;
    std::string kind; // ownerKindName(), "" for pods without a controller
    std::string name; // the workload's name, or the pod's own for a pod without a controller
    std::size_t moved = 0, created = 0, deleted = 0;
    std::size_t stranded = 0; ///< see StateDiff::podsStranded
};

/// One state's totals.
struct StateTotals {
    std::size_t nodes = 0;
    std::size_t pods = 0;
    std::int64_t gpusAllocatedMilli = 0; ///< requested GPUs of counted pods, milli-GPU
    double dollarsPerHour = 0;           ///< the nodes' prices summed (0 where unknown)
};

struct StateDiff {
    std::vector<std::string> nodesAdded, nodesRemoved, nodesRelabelled, nodesTainted; ///< node names, sorted
    std::size_t podsMoved = 0, podsCreated = 0, podsDeleted = 0;
    /// Pods of the later state that name a node it no longer holds (their node was removed and
    /// the pods were not deleted or re-created): they run nowhere and count on no node. A pod
    /// already on an unknown node before is not counted again.
    std::size_t podsStranded = 0;
    std::vector<WorkloadChanges> workloads; ///< sorted by namespace, kind, name
    StateTotals before, after;
};

/// Compares `before` with `after`. `beforePrices` / `afterPrices`: each node's $/h by NodeId
/// (empty: 0). O(nodes + pods) with hashing; about 1 s for two 100,000-node states.
[[nodiscard]] StateDiff diffStates(const model::ClusterStore& before, const model::ClusterStore& after,
                                   const std::vector<double>& beforePrices, const std::vector<double>& afterPrices);

} // namespace fleet::importers
