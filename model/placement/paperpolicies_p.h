// SPDX-License-Identifier: Apache-2.0
#pragma once
// The packing policies of the FGD paper's comparison and kube-scheduler's NodeResourcesFit
// scoring strategies (placementpolicy.h). Internal to model/placement: made by
// makePlacementPolicy().

#include "placementpolicy.h"
#include "replayrandom.h"

#include <vector>

namespace fleet::model::placement {

/// BestFit (PROTOCOL.md 4.2; simulator pkg/simulator/plugin/best_fit_score.go): the node left
/// with the fewest free resources, raw = floor(100 (1 - [0.5 (c - cpu) / 128000 + 0.5 (ΣL -
/// k m) / 8000])); the simulator's min-max normalisation keeps the order and the ties.
class BestFitPolicy final : public PlacementPolicy {
public:
    std::string_view name() const noexcept override { return "BestFit"; }
    double score(const PlanLedger& state, const PodShape& pod, NodeId n) override;
};

/// DotProduct, Tetris-style (PROTOCOL.md 4.3; plugin/dot_product_score.go, `merge` dimension
/// and `max` normalisation): the smallest dot product of (free, request),
/// d = (c / 128000)(cpu / 128000) + (ΣL / 8000)(k m / 8000), score = floor(100 (1 - d / 2)).
class DotProductPolicy final : public PlacementPolicy {
public:
    std::string_view name() const noexcept override { return "DotProduct"; }
    double score(const PlanLedger& state, const PodShape& pod, NodeId n) override;
};

/// GpuPacking (PROTOCOL.md 4.4; plugin/gpu_packing_score.go): top up a shared GPU first, then a
/// partly used node, then a fresh node with fewer GPUs. CPU-only pods score 0 everywhere.
class GpuPackingPolicy final : public PlacementPolicy {
public:
    std::string_view name() const noexcept override { return "GpuPacking"; }
    double score(const PlanLedger& state, const PodShape& pod, NodeId n) override;
};

/// GpuClustering (PROTOCOL.md 4.5; plugin/gpu_clustering_score.go): pods of one GPU kind
/// (share, 1-gpu, 2-gpu, ...) together: base = 25 (8000 - ΣL) div 8000, +75 on a node holding
/// only that kind, +50 on one holding it among others, +25 on a node without GPU pods.
/// The kinds on a node come from its pods under the ledger, cached by PlanLedger::nodeStamp.
class GpuClusteringPolicy final : public PlacementPolicy {
public:
    std::string_view name() const noexcept override { return "GpuClustering"; }
    double score(const PlanLedger& state, const PodShape& pod, NodeId n) override;

private:
    /// Bit per kind: 0 share, 1 + log2(k) for k whole GPUs (k a power of two), 7 other counts.
    std::uint32_t kindsOn(const PlanLedger& state, NodeId n);
    std::vector<std::uint64_t> m_stamp;
    std::vector<std::uint32_t> m_kinds;
};

/// Random (PROTOCOL.md 4.7; plugin/random_score.go): one feasible node uniformly at random;
/// a sharing pod then takes a GPU uniformly among those it fits on (reservoir sampling).
class RandomPolicy final : public PlacementPolicy {
public:
    explicit RandomPolicy(std::uint64_t seed) : m_random(seed) {}
    std::string_view name() const noexcept override { return "Random"; }
    double score(const PlanLedger&, const PodShape&, NodeId) override { return 0; }
    NodeId choose(const PlanLedger& state, const PodShape& pod, std::span<const NodeId> feasible,
        std::span<const std::uint32_t> rank) override;
    std::uint64_t chooseGpus(const PlanLedger& state, const PodShape& pod, NodeId n) override;

private:
    ReplayRandom m_random;
};

/// kube-scheduler's NodeResourcesFit scoring strategies with their default resources (cpu and
/// memory, weight 1 each): pkg/scheduler/framework/plugins/noderesources/least_allocated.go
/// (((allocatable - requested) * 100) / allocatable per resource, 0 when requested exceeds
/// it) and most_allocated.go ((requested * 100) / allocatable, requested capped at
/// allocatable), averaged with integer division, resources with no allocatable skipped;
/// requested = the node's requests under the ledger plus the pod's, a zero cpu or memory
/// request of the pod counting as kube's non-zero defaults (100 millicores, 200 MiB,
/// pkg/scheduler/util/pod_resources.go). The node's own pods count with their real requests
/// (the ledger keeps no non-zero sums; the trace has no pod without cpu).
class ResourceAllocationPolicy final : public PlacementPolicy {
public:
    enum class Strategy { LeastAllocated, MostAllocated };
    explicit ResourceAllocationPolicy(Strategy s) : m_strategy(s) {}
    std::string_view name() const noexcept override
    {
        return m_strategy == Strategy::LeastAllocated ? "LeastAllocated" : "MostAllocated";
    }
    double score(const PlanLedger& state, const PodShape& pod, NodeId n) override;

private:
    Strategy m_strategy;
};

} // namespace fleet::model::placement
