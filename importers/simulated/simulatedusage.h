// SPDX-License-Identifier: Apache-2.0
#pragma once
// Usage for the simulated fleet: so that every usage view (used shares, GPU
// utilization, allocated-but-idle GPUs) works offline and in tests, without a Prometheus.
//
// The rules, per workload (its pods alike), from a hash of the seed and the workload:
//  - training (namespace ml-training): GPUs 85-99% busy, except 1 job in 25 that holds its
//    GPUs idle (0-3%: a stuck or finished job never torn down, the waste this metric exists
//    to find);
//  - inference: GPUs 10-70% busy, 1 Deployment in 20 idle (0-4%);
//  - anything else asking for GPUs: 30-60%;
//  - cpu in use 30-110% of the pod's request, memory 50-95%; free GPUs 0% (measured, free).
// GPUs device by device, through the one per-device rule of every usage source
// (model::GpuUsageBuilder, model/usage.h): whole GPUs as the ledger assigns them
// (model::takeGpuDevices); MIG nodes (mixed strategy) as nodeGpuCount() devices whose GPU
// instances (each profile's allocatable slices, spread evenly) take the pods' slices in pod
// order, each instance as busy as its pod (within 0.5 points), free instances at 0%, weighted
// by compute slices. A MIG device shared by an idle and a busy pod is not idle; one held only
// by idle pods (its free instances at 0%) is, once, with an entry per pod.
// Every pod is taken to have run the whole window (the simulated fleet has no history).
//
// Thread: any; pure over a finalized store.

#include "model/clusterstore.h"
#include "model/usage.h"

#include <cstdint>

namespace fleet::importers {

/// The usage of the simulated fleet `store` at `time` (seconds since the epoch), deterministic
/// for (store, seed). source "simulated"; window 1 h, threshold 5%. O(pods).
[[nodiscard]] model::ClusterUsage simulatedUsage(const model::ClusterStore& store, std::uint64_t seed, double time);

} // namespace fleet::importers
