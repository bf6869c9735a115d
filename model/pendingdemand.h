// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pending demand: the pods waiting for a node, grouped by the shape of what they ask for.

#include "model/clusterstore.h"
#include "model/wellknownlabels.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::model {

/// The GPU model(s) pod `pod` requires: the value of its nodeSelector on one of
/// kGpuModelLabelKeys, else the values of the `In` requirements of its required node affinity
/// on those keys over all terms (", "-separated, "V100M16, V100M32": any of them), else "".
/// Thread: any reader of the store.
[[nodiscard]] std::string requiredGpuModel(const ClusterStore& store, PodId pod);

/// The pending pods of one shape: the same cpu, memory and GPU request (whole or shared
/// milli-GPU), the same extended requests (Neuron devices, MIG slices, EFA, ...; read them
/// from podExtendedRequest(pods.front())) and the same required GPU model.
struct PendingShape {
    ResourceVector request; // of one pod (cpu millicores, memory bytes, gpu milli-GPU, ...)
    std::string gpuModel;   // the GPU model the pods require (trace gpu_spec, node selector), or ""
    std::size_t podCount = 0;
    ResourceVector total; // request times podCount
    std::size_t gatedPods = 0; // pods with spec.schedulingGates
    /// The most common PodScheduled message of these pods ("0/12 nodes are available: ..."),
    /// or "" when the input gives none.
    std::string reason;
    std::vector<PodId> pods; // every pod of the shape, in id order
};

/// Every pending pod (ClusterStore::podIsPending) in one shape, shapes sorted by podCount
/// descending, then by GPU request descending, then by first pod. The podCount of all shapes
/// adds up to ClusterCounts::podsPending and their totals to ClusterStore::totalPending().
/// O(pods). Thread: any reader of a finalized store.
[[nodiscard]] std::vector<PendingShape> groupPendingPods(const ClusterStore& store);

} // namespace fleet::model
