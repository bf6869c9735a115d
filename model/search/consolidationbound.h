// SPDX-License-Identifier: Apache-2.0
#pragma once
// A lower bound on the node count a consolidation can reach, shown beside its
// result with the ratio of the plan's node count to it.
//
// Per GPU model (GPU nodes) and per resource (cpu and memory over the whole cluster), the
// larger of:
//   ceil(total requests / the largest allocatable of one node)   (bin packing's volume bound)
//   the nodes that hold a pod that cannot move (an eviction blocker, evictionrules.h; prepaid
//   nodes stay too and count here)
// The GPU rows count the requests of GPU pods bound to nodes of that model (a GPU pod is taken
// to need its model); the cluster's bound is the largest of the cpu row, the memory row and
// the sum of the GPU rows plus the CPU-only nodes that cannot go. DaemonSet and mirror pods are
// left out of the requests (they run on whichever nodes stay). Over the loaded state.
//
// Thread: any. O(nodes + pods).

#include "model/clusterstore.h"
#include "model/plan/plan.h"

#include <cstdint>
#include <span>
#include <utility>
#include <string>
#include <vector>

namespace fleet::model {

struct NodeCountBound {
    struct Row {
        std::string gpuModel;      // "" for the cpu and memory rows
        std::string resource;      // "cpu", "memory", or the GPU resource name
        std::int64_t requested = 0;          // cpu millicores, memory bytes, milli-GPU
        std::int64_t largestAllocatable = 0; // same unit
        std::int64_t byRequests = 0;         // ceil(requested / largestAllocatable)
        std::int64_t pinnedNodes = 0;        // nodes that cannot go
        std::int64_t bound = 0;              // max of the two
    };
    std::vector<Row> rows;
    std::int64_t nodes = 0; // the cluster's bound
};

/// The bound over the loaded state, with `placedFirst` (pending pods and the nodes a
/// consolidation placed them on first, ConsolidationResult::pendingPods) counted as bound there.
[[nodiscard]] NodeCountBound nodeCountLowerBound(const ClusterStore& store, std::span<const std::pair<PodId, NodeId>> placedFirst = {});

/// The store's pending pods that `applied` (a replayed plan, PlanEngine::applied() or
/// PlanEvaluation::actions) places, each with the first node it goes to: the `placedFirst` of
/// nodeCountLowerBound() for a plan read back from a file. A plan `plan consolidate` wrote
/// places its pending pods first (consolidation.h), so this equals its
/// ConsolidationResult::pendingPods and the bound a report prints is the one it printed.
[[nodiscard]] std::vector<std::pair<PodId, NodeId>> pendingPodsPlaced(const ClusterStore& store, const std::vector<AppliedAction>& applied);

} // namespace fleet::model
