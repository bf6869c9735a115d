// SPDX-License-Identifier: Apache-2.0
#pragma once
// FGD, fragmentation gradient descent (Weng et al., USENIX ATC '23, section 4; PROTOCOL.md
// section 4.1; simulator pkg/simulator/plugin/fgd_score.go): the node, and for a sharing pod
// the GPU, whose fragmentation against the typical pods grows least when the pod lands there.
//
//   Paper: score = floor(100 sigmoid((F_before - F_after) / 1000)), an integer, as the
//          simulator computes it (one point is about 40 milli-GPU near no change, so many
//          nodes tie and the random node order decides).
//   Fine:  score = F_before - F_after at full precision, so that of the nodes the integer
//          score ties, the one whose fragmentation grows least wins, and the random order
//          decides only exact ties. It loses to Paper by far (7.2 against 4.75 unallocated
//          on the default trace): the node order among ties packs like first fit, the exact
//          gradient spreads pods by noise-sized differences.
//   FineGpu: Paper's node choice, a shared pod's GPU chosen at full precision.
// Ties (ours, setTieBreak(InUse), "FGDTieInUse"): of the nodes of FGD's best integer score,
// those already holding pods first, then the node order: an idle node is kept whole for the
// multi-GPU pods that need all of it (docs/fgd-reproduction.md gives the figures).
//
// Design note (speed): a node's score for a pod depends only on the node's state and the
// pod's (cpu, m, k); the score is cached per (node, pod shape) with the node's
// PlanLedger::nodeStamp(), so that a replay, which changes one node per pod, recomputes
// almost nothing. The cache holds at most kMaxCachedEntries entries; beyond, scores are
// computed each time.
//
// Thread: one thread (the cache).

#include "model/placement/placementpolicy.h"
#include "model/placement/typicalpods.h"

#include <map>
#include <tuple>
#include <vector>

namespace fleet::model::placement {

class FgdPolicy final : public PlacementPolicy {
public:
    enum class Precision { Paper, Fine, FineGpu };
    /// `typical`: the distribution sorted by count, as typicalPods() gives it; the policy keeps
    /// the most common keys up to `coverage` of the pods (limitCoverage()).
    FgdPolicy(std::vector<TypicalPod> typical, Precision precision, double coverage = 0.95);
    /// How ties of the integer score are broken before the node order (ours; Rank: FGD's).
    enum class TieBreak { Rank, InUse };
    void setTieBreak(TieBreak t, std::string name) { m_tieBreak = t; m_name = std::move(name); }

    std::string_view name() const noexcept override;
    double score(const PlanLedger& state, const PodShape& pod, NodeId n) override;
    std::uint64_t chooseGpus(const PlanLedger& state, const PodShape& pod, NodeId n) override;

    /// The node's fragmentation under the state, in milli-GPU (typicalpods.h).
    [[nodiscard]] double fragmentation(const PlanLedger& state, NodeId n);

    static constexpr std::size_t kMaxCachedEntries = std::size_t { 1 } << 22;

private:
    struct Entry {
        std::uint64_t stamp = ~std::uint64_t { 0 };
        double score = 0;
        std::int32_t gpu = -1; // the sharing pod's GPU
    };
    struct Evaluated {
        double score;
        std::int32_t gpu;
    };
    Evaluated evaluate(const PlanLedger& state, const PodShape& pod, NodeId n);
    const Entry& cached(const PlanLedger& state, const PodShape& pod, NodeId n);
    void grow(const PlanLedger& state);
    [[nodiscard]] double value(double before, double after, bool gpuChoice) const noexcept;

    std::vector<TypicalPod> m_typical;
    Precision m_precision;
    TieBreak m_tieBreak = TieBreak::Rank;
    std::string m_name;
    std::size_t m_nodes = 0;
    std::vector<std::uint8_t> m_allowed; // node x typical
    std::vector<Entry> m_before;         // per node: fragmentation in `score`
    std::map<std::tuple<std::int64_t, std::int32_t, std::int32_t>, std::size_t> m_shapeIds;
    std::vector<std::vector<Entry>> m_cache; // by shape id, per node
    PodShape m_lastShape;
    std::size_t m_lastShapeId = ~std::size_t { 0 };
};

} // namespace fleet::model::placement
