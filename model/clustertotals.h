// SPDX-License-Identifier: Apache-2.0
#pragma once
// The whole cluster's totals: the one computation behind the window's status bar and
// `fleetscope summary`'s totals (text and JSON).

#include "model/accelerators.h"
#include "model/clusterstore.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace fleet::model {

/// Extended resources (anything but the core ones) with their sums, ordered by ResourceKey.
using ExtendedTotals = std::vector<std::pair<ResourceKey, std::int64_t>>;

/// Whole-cluster figures: the node and pod counts of ClusterStore::counts() plus the resource
/// totals. Units as in model/resources.h (cpu millicores, memory bytes, gpu milli-GPU, ...).
struct ClusterTotals : ClusterCounts {
    /// Sum of every node's allocatable (ClusterStore::totalAllocatable()).
    ResourceVector allocatable;
    /// Sum of every node's requested (ClusterStore::totalRequested()).
    ResourceVector requested;
    /// Sum of the requests of pending pods (ClusterStore::totalPending()).
    ResourceVector pending;
    /// Extended resources: allocatable summed over the nodes that list them, requested on those
    /// nodes (ClusterStore::nodeExtendedRequested()), and requested by pending pods.
    ExtendedTotals extendedAllocatable;
    ExtendedTotals extendedRequested;
    ExtendedTotals extendedPending;
    /// Physical accelerators (a MIG-partitioned GPU once, a Neuron device once) with MIG
    /// slices and NeuronCores (model/accelerators.h).
    AcceleratorTotals accelerators;
};

/// Computes the totals of a finalized store. O(nodes + pods): one pass over the nodes and one
/// over the pods, ~10 ms for 100k nodes and 2M pods. Thread: any (reads only).
[[nodiscard]] ClusterTotals computeClusterTotals(const ClusterStore& store);

} // namespace fleet::model
