// SPDX-License-Identifier: Apache-2.0
#pragma once
// The FGD paper's experiment as a replay (PROTOCOL.md in ../shared/data/alibaba-gpu-v2023-openb,
// sections 2, 3 and 5; simulator pkg/simulator/core.go, simulator.go, analysis.go): a pod list
// sampled per seed up to 1.3 times the cluster's GPU capacity, placed online one pod at a time
// (no reordering, no migration, nothing departs) by a placement policy over the what-if's
// filters and ledger, and the share of GPUs left unallocated when the arrived GPU requests
// reach 100% of capacity.
//
// Input: a ClusterStore holding the trace's nodes (the 1,213 GPU nodes of
// openb_node_list_gpu_node.csv) and one pod list, as importers/traces/alibabacsv.h loads them.
// The replay never edits it: each run builds its own store of the sampled pods (all pending;
// the protocol ignores pod_phase) over copies of the nodes.
//
// Thread: any one thread per call; calls on different threads may share the const input.

#include "model/clusterstore.h"
#include "model/placement/placementpolicy.h"
#include "model/placement/typicalpods.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fleet::model {

/// One seed's workload (PROTOCOL.md section 2).
struct TraceWorkload {
    /// Pods of the input store in arrival order: the pod list sorted by name and shuffled,
    /// then the pods drawn to tune it up (a pod may come several times), or the shuffled list
    /// with the drawn pods removed when it asks for more than the target.
    std::vector<PodId> pods;
    /// Per input node: its place in the seed's random node order (0 first); score ties go
    /// to the smallest.
    std::vector<std::uint32_t> nodeRank;
    std::size_t podsAdded = 0;   // tune-up copies
    std::size_t podsRemoved = 0; // tune-down removals
};

/// The workload of `seed` over `trace`: one draw thrown away, the shuffle, the tuning to
/// `tuneRatio` of the nodes' milli-GPU (the stop rule compares the per-GPU milli, as the
/// simulator does), then the node order, all from one ReplayRandom(seed) in that order.
/// Throws std::invalid_argument when the store has no pods or no GPU.
[[nodiscard]] TraceWorkload generateTraceWorkload(const ClusterStore& trace, std::uint64_t seed, double tuneRatio = 1.3);

/// The outcome of one run.
struct ReplayResult {
    /// 100 - allocated[100]: the paper's "unallocated GPU (%)" at 100% arrived.
    double unallocatedGpuPercent = 0;
    /// Per arrived percent 0..130 (PROTOCOL.md section 5's discretisation): the mean, rounded
    /// to 0.01, of the allocated-GPU percent over the pods whose arrived percent rounds to it
    /// (or to a neighbour when none does); NaN when no pod is near.
    std::array<double, 131> allocatedPercent {};
    std::size_t podsPlaced = 0;
    std::size_t podsFailed = 0;
    double seconds = 0; // placement only (the run store and ledger are built before)
};

/// Places every pod of `workload` in order with `policy`: the pod's feasible nodes are the
/// ones PodFeasibility passes under the run's PlanLedger; none: the pod fails and is
/// dropped; one: it goes there; more: policy.choose() with the workload's node order. The GPUs
/// are policy.chooseGpus()'s. Records the arrived and allocated milli-GPU after every pod.
[[nodiscard]] ReplayResult replayTrace(const ClusterStore& trace, const TraceWorkload& workload, PlacementPolicy& policy);

/// Typical pods of the trace's pod list for FGD: every pod of `trace`, CPU-only included, all
/// keys (FGD keeps 95% of them itself; PROTOCOL.md 4.1), from the list before tuning.
[[nodiscard]] std::vector<TypicalPod> traceTypicalPods(const ClusterStore& trace);

/// One (policy, seed) run end to end: the workload, the policy (Random seeded from `seed`),
/// the replay. Throws std::invalid_argument for an unknown policy (makePlacementPolicy).
[[nodiscard]] ReplayResult replayTracePolicy(
    const ClusterStore& trace, const std::vector<TypicalPod>& typical, std::string_view policy, std::uint64_t seed);

} // namespace fleet::model
