// SPDX-License-Identifier: Apache-2.0
// PlacementPolicy's shared parts: the views of pods and nodes, the `best` GPU selection, the
// argmax with the protocol's tie-break, the names and the factory (placementpolicy.h).
#include "placementpolicy.h"

#include "fgdpolicy.h"
#include "paperpolicies_p.h"

#include <stdexcept>
#include <utility>

namespace fleet::model {

PodShape podShape(const ClusterStore& store, PodId p) noexcept
{
    const ResourceVector& req = store.podRequest(p);
    PodShape s;
    s.cpuMilli = req[CoreResource::Cpu];
    s.memoryBytes = req[CoreResource::Memory];
    const std::int64_t gpu = req[CoreResource::Gpu];
    if (const std::int32_t share = store.podGpuShareMilli(p); share > 0) {
        s.gpuCount = 1;
        s.gpuMilli = share;
    } else if (gpu > 0) {
        s.gpuCount = static_cast<std::int32_t>((gpu + 999) / 1000);
        s.gpuMilli = 1000;
    }
    return s;
}

std::int64_t NodeView::gpuFreeTotal() const noexcept
{
    std::int64_t free = 0;
    for (const std::int32_t u : gpuUsed)
        free += 1000 - u;
    return free;
}

NodeView nodeView(const PlanLedger& state, NodeId n) noexcept
{
    const ResourceVector& alloc = state.nodeAllocatable(n);
    const ResourceVector& used = state.nodeRequested(n);
    NodeView v;
    v.cpuAllocatable = alloc[CoreResource::Cpu];
    v.cpuFree = alloc[CoreResource::Cpu] - used[CoreResource::Cpu];
    v.memoryAllocatable = alloc[CoreResource::Memory];
    v.memoryFree = alloc[CoreResource::Memory] - used[CoreResource::Memory];
    v.gpuUsed = state.nodeGpuShares(n);
    return v;
}

std::uint64_t tightestGpus(const NodeView& node, const PodShape& pod) noexcept
{
    const int count = std::min(node.gpuCount(), kMaxNodeGpus);
    if (pod.gpuCount <= 0 || count == 0)
        return 0;
    if (pod.sharesGpu()) {
        int best = -1;
        for (int i = 0; i < count; ++i)
            if (node.gpuFree(i) >= pod.gpuMilli && (best < 0 || node.gpuFree(i) < node.gpuFree(best)))
                best = i;
        return best < 0 ? 0 : std::uint64_t { 1 } << best;
    }
    std::uint64_t mask = 0;
    int taken = 0;
    for (int i = 0; i < count && taken < pod.gpuCount; ++i)
        if (node.gpuUsed[static_cast<std::size_t>(i)] == 0) {
            mask |= std::uint64_t { 1 } << i;
            ++taken;
        }
    return taken == pod.gpuCount ? mask : 0;
}

PlacementPolicy::~PlacementPolicy() = default;

NodeId PlacementPolicy::choose(
    const PlanLedger& state, const PodShape& pod, std::span<const NodeId> feasible, std::span<const std::uint32_t> rank)
{
    if (feasible.size() == 1)
        return feasible.front();
    NodeId best;
    double bestScore = 0;
    std::uint32_t bestRank = 0;
    for (const NodeId n : feasible) {
        const double s = score(state, pod, n);
        const std::uint32_t r = rank.empty() ? n.value : rank[n.index()];
        if (!best.isValid() || s > bestScore || (s == bestScore && r < bestRank)) {
            best = n;
            bestScore = s;
            bestRank = r;
        }
    }
    return best;
}

std::uint64_t PlacementPolicy::chooseGpus(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    return tightestGpus(nodeView(state, n), pod);
}

const std::vector<std::string>& paperPolicyNames()
{
    static const std::vector<std::string> names { "FGD", "BestFit", "GpuPacking", "GpuClustering", "DotProduct", "Random" };
    return names;
}

const std::vector<std::string>& placementPolicyNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all = paperPolicyNames();
        all.insert(all.end(), { "LeastAllocated", "MostAllocated", "FGDTieInUse", "FGDFineGpu", "FGDFine" });
        return all;
    }();
    return names;
}

std::unique_ptr<PlacementPolicy> makePlacementPolicy(std::string_view name, const std::vector<TypicalPod>& typical, std::uint64_t seed)
{
    using namespace placement;
    if (name == "FGD")
        return std::make_unique<FgdPolicy>(typical, FgdPolicy::Precision::Paper);
    if (name == "FGDFine")
        return std::make_unique<FgdPolicy>(typical, FgdPolicy::Precision::Fine);
    if (name == "FGDFineGpu")
        return std::make_unique<FgdPolicy>(typical, FgdPolicy::Precision::FineGpu);
    if (name == "FGDTieInUse") {
        auto p = std::make_unique<FgdPolicy>(typical, FgdPolicy::Precision::Paper);
        p->setTieBreak(FgdPolicy::TieBreak::InUse, "FGDTieInUse");
        return p;
    }
    if (name == "BestFit")
        return std::make_unique<BestFitPolicy>();
    if (name == "GpuPacking")
        return std::make_unique<GpuPackingPolicy>();
    if (name == "GpuClustering")
        return std::make_unique<GpuClusteringPolicy>();
    if (name == "DotProduct")
        return std::make_unique<DotProductPolicy>();
    if (name == "Random")
        return std::make_unique<RandomPolicy>(seed);
    if (name == "LeastAllocated")
        return std::make_unique<ResourceAllocationPolicy>(ResourceAllocationPolicy::Strategy::LeastAllocated);
    if (name == "MostAllocated")
        return std::make_unique<ResourceAllocationPolicy>(ResourceAllocationPolicy::Strategy::MostAllocated);
    std::string known;
    for (const std::string& n : placementPolicyNames())
        known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown placement policy \"" + std::string(name) + "\" (known: " + known + ")");
}

} // namespace fleet::model
