// SPDX-License-Identifier: Apache-2.0
#pragma once
// Placement policies: which feasible node a pod goes to, and which GPUs it takes there.
//
// Feasibility is not a policy's business: the what-if's filters decide it (filters.h,
// PodFeasibility over a PlanLedger), and the ledger (PlanLedger) records the result.
// A policy only ranks the nodes the filters let through, from what the ledger knows of each
// (free cpu and memory, the free milli-GPU of each GPU, the GPU count and model): the view of
// a node the FGD simulator's policies have (PROTOCOL.md section 3.2, in
// ../shared/data/alibaba-gpu-v2023-openb).
//
// Policies (names as --policy and plan files spell them; each class's comment gives rule and source):
//   FGD, BestFit, GpuPacking, GpuClustering, DotProduct, Random   PROTOCOL.md section 4
//   LeastAllocated, MostAllocated   kube-scheduler NodeResourcesFit scoring strategies
//   FGDTieInUse  ours: FGD, its ties to nodes already in use first (fgdpolicy.h)
//   FGDFineGpu, FGDFine  FGD with the GPU / the node chosen at full precision (fgdpolicy.h)
//
// Thread: a policy object is used by one thread at a time (it may cache per-node figures).

#include "model/scheduling/planledger.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::model {

struct TypicalPod;

/// What a policy sees of a pod (PROTOCOL.md section 3.2): cpu millicores, memory bytes, and its
/// GPUs as k GPUs of m milli-GPU each (m < 1000 only when k = 1: a share of one GPU).
struct PodShape {
    std::int64_t cpuMilli = 0;
    std::int64_t memoryBytes = 0;
    std::int32_t gpuMilli = 0; // m, per GPU; 0 for a CPU-only pod
    std::int32_t gpuCount = 0; // k
    [[nodiscard]] bool sharesGpu() const noexcept { return gpuCount == 1 && gpuMilli > 0 && gpuMilli < 1000; }
    [[nodiscard]] std::int64_t gpuRequestMilli() const noexcept { return std::int64_t { gpuMilli } * gpuCount; }
    bool operator==(const PodShape&) const noexcept = default;
};

/// The shape of store pod `p`: its request, and k, m from its milli-GPU request and
/// ClusterStore::podGpuShareMilli() (a share: k = 1, m = share; else k = ceil(gpu / 1000),
/// m = 1000).
[[nodiscard]] PodShape podShape(const ClusterStore& store, PodId p) noexcept;

/// The largest GPU count a node view holds (the ledger tracks up to 64 GPUs a node).
inline constexpr int kMaxNodeGpus = 64;

/// What a policy sees of a node under the ledger: free = allocatable minus requested.
struct NodeView {
    std::int64_t cpuFree = 0;
    std::int64_t cpuAllocatable = 0;
    std::int64_t memoryFree = 0;
    std::int64_t memoryAllocatable = 0;
    std::span<const std::int32_t> gpuUsed; // used milli-GPU of each GPU (PlanLedger::nodeGpuShares)
    [[nodiscard]] int gpuCount() const noexcept { return static_cast<int>(gpuUsed.size()); }
    [[nodiscard]] std::int32_t gpuFree(int i) const noexcept { return 1000 - gpuUsed[static_cast<std::size_t>(i)]; }
    /// Sum of the free milli-GPU of every GPU (PROTOCOL.md's ΣL).
    [[nodiscard]] std::int64_t gpuFreeTotal() const noexcept;
};

/// The view of node n under `state`. O(1).
[[nodiscard]] NodeView nodeView(const PlanLedger& state, NodeId n) noexcept;

/// The GPUs a pod takes on a node, as the FGD simulator's `best` GPU selection does
/// (PROTOCOL.md section 3.3): a share goes to the GPU with the least free that fits (lowest
/// index on ties); k whole GPUs are the k lowest-index idle ones. A bit mask (bit i = GPU i);
/// 0 when the pod needs no GPU or does not fit.
[[nodiscard]] std::uint64_t tightestGpus(const NodeView& node, const PodShape& pod) noexcept;

class PlacementPolicy {
public:
    virtual ~PlacementPolicy();
    /// The policy's name as `--policy`, `bench fgd --policies` and plan files spell it ("FGD", "BestFit", ...).
    [[nodiscard]] virtual std::string_view name() const noexcept = 0;
    /// The score of node n for the pod (higher is better); n is feasible for it.
    [[nodiscard]] virtual double score(const PlanLedger& state, const PodShape& pod, NodeId n) = 0;
    /// Chooses among `feasible` (not empty): the highest score, ties to the smallest
    /// `rank[node]` (the protocol's random node order, PROTOCOL.md section 2.5; node id order
    /// when `rank` is empty). A single feasible node is taken without scoring (section 3).
    [[nodiscard]] virtual NodeId choose(const PlanLedger& state, const PodShape& pod, std::span<const NodeId> feasible,
        std::span<const std::uint32_t> rank);
    /// The GPUs the pod takes on its chosen node, as a mask for PlanLedger::movePod(); the
    /// default is tightestGpus() (the `best` selection).
    [[nodiscard]] virtual std::uint64_t chooseGpus(const PlanLedger& state, const PodShape& pod, NodeId n);
};

/// Every policy: FGD, BestFit, GpuPacking, GpuClustering, DotProduct, Random (the paper's, in
/// its table's order, SOURCE.md Table A), then LeastAllocated, MostAllocated (kube-scheduler),
/// then ours (FGDTieInUse, FGDFineGpu, FGDFine).
[[nodiscard]] const std::vector<std::string>& placementPolicyNames();
/// The paper's six (PROTOCOL.md section 4), in the paper's table order.
[[nodiscard]] const std::vector<std::string>& paperPolicyNames();

/// Makes policy `name` (placementPolicyNames()). `typical` is FGD's typical-pod distribution
/// (typicalpods.h; only FGD and ours read it); `seed` seeds Random's draws. Throws
/// std::invalid_argument naming the known policies for an unknown name.
[[nodiscard]] std::unique_ptr<PlacementPolicy> makePlacementPolicy(
    std::string_view name, const std::vector<TypicalPod>& typical, std::uint64_t seed);

} // namespace fleet::model
