// SPDX-License-Identifier: Apache-2.0
// The FGD paper's packing baselines and kube-scheduler's allocation strategies
// (paperpolicies_p.h gives each rule and its source).
#include "paperpolicies_p.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

namespace fleet::model::placement {

namespace {
// The simulator's normalising constants (PROTOCOL.md 4.2, 4.3): the largest node's cpu and
// milli-GPU in the trace (128 cores, 8 GPUs).
constexpr double kCpuScale = 128000.0;
constexpr double kGpuScale = 8000.0;
} // namespace

double BestFitPolicy::score(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    const NodeView v = nodeView(state, n);
    const double cpuLeft = static_cast<double>(v.cpuFree - pod.cpuMilli) / kCpuScale;
    const double gpuLeft = static_cast<double>(v.gpuFreeTotal() - pod.gpuRequestMilli()) / kGpuScale;
    return std::floor(100.0 * (1.0 - (0.5 * cpuLeft + 0.5 * gpuLeft)));
}

double DotProductPolicy::score(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    const NodeView v = nodeView(state, n);
    if (v.cpuFree < pod.cpuMilli)
        return 0;
    const double d = (static_cast<double>(v.cpuFree) / kCpuScale) * (static_cast<double>(pod.cpuMilli) / kCpuScale)
        + (static_cast<double>(v.gpuFreeTotal()) / kGpuScale) * (static_cast<double>(pod.gpuRequestMilli()) / kGpuScale);
    return std::floor(100.0 * (1.0 - d / 2.0));
}

double GpuPackingPolicy::score(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    if (pod.gpuCount == 0)
        return 0;
    const NodeView v = nodeView(state, n);
    const int count = std::min(v.gpuCount(), kMaxNodeGpus);
    int idle = 0;
    for (int i = 0; i < count; ++i)
        idle += v.gpuFree(i) == 1000 ? 1 : 0;
    if (idle == count)
        return std::max(33 - idle, idle);
    // The GPUs in ascending free milli (stable: equal free keeps index order); the first k
    // that fit are the ones the pod would take.
    std::array<int, kMaxNodeGpus> order {};
    for (int i = 0; i < count; ++i)
        order[static_cast<std::size_t>(i)] = i;
    std::stable_sort(order.begin(), order.begin() + count, [&](int a, int b) { return v.gpuFree(a) < v.gpuFree(b); });
    int taken = 0, takenIdle = 0;
    std::int64_t percentSum = 0;
    for (int j = 0; j < count && taken < pod.gpuCount; ++j) {
        const std::int32_t free = v.gpuFree(order[static_cast<std::size_t>(j)]);
        if (free < pod.gpuMilli)
            continue;
        ++taken;
        takenIdle += free == 1000 ? 1 : 0;
        percentSum += free * 100 / 1000;
    }
    if (takenIdle > 0)
        return std::max(50 - takenIdle, 33);
    return static_cast<double>(std::max<std::int64_t>(100 - percentSum / 10, 50));
}

namespace {
int kindBit(const PodShape& s) noexcept
{
    if (s.gpuCount == 0)
        return -1;
    if (s.sharesGpu())
        return 0;
    return std::has_single_bit(static_cast<unsigned>(s.gpuCount)) && s.gpuCount <= 32 ? 1 + std::countr_zero(static_cast<unsigned>(s.gpuCount)) : 7;
}
} // namespace

std::uint32_t GpuClusteringPolicy::kindsOn(const PlanLedger& state, NodeId n)
{
    if (m_stamp.size() < state.nodeCount()) {
        m_stamp.resize(state.nodeCount(), ~std::uint64_t { 0 });
        m_kinds.resize(state.nodeCount(), 0);
    }
    if (m_stamp[n.index()] != state.nodeStamp(n)) {
        std::uint32_t kinds = 0;
        for (const PodId p : state.nodePods(n))
            if (const int bit = kindBit(podShape(state.store(), state.podTemplate(p))); bit >= 0)
                kinds |= 1u << bit;
        m_kinds[n.index()] = kinds;
        m_stamp[n.index()] = state.nodeStamp(n);
    }
    return m_kinds[n.index()];
}

double GpuClusteringPolicy::score(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    const int bit = kindBit(pod);
    if (bit < 0)
        return 0;
    const NodeView v = nodeView(state, n);
    const std::int64_t base = 25 * (8000 - v.gpuFreeTotal()) / 8000;
    const std::uint32_t kinds = kindsOn(state, n);
    if (kinds & (1u << bit))
        return static_cast<double>(base + (std::popcount(kinds) == 1 ? 75 : 50));
    return static_cast<double>(kinds == 0 ? base + 25 : base);
}

NodeId RandomPolicy::choose(const PlanLedger&, const PodShape&, std::span<const NodeId> feasible, std::span<const std::uint32_t>)
{
    if (feasible.size() == 1)
        return feasible.front();
    return feasible[m_random.below(feasible.size())];
}

std::uint64_t RandomPolicy::chooseGpus(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    const NodeView v = nodeView(state, n);
    if (!pod.sharesGpu())
        return tightestGpus(v, pod);
    int pick = -1;
    std::uint64_t seen = 0;
    for (int i = 0; i < std::min(v.gpuCount(), kMaxNodeGpus); ++i)
        if (v.gpuFree(i) >= pod.gpuMilli && m_random.below(++seen) == 0)
            pick = i;
    return pick < 0 ? 0 : std::uint64_t { 1 } << pick;
}

double ResourceAllocationPolicy::score(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    // pkg/scheduler/util/pod_resources.go: DefaultMilliCPURequest, DefaultMemoryRequest.
    constexpr std::int64_t kDefaultCpu = 100;
    constexpr std::int64_t kDefaultMemory = 200LL * 1024 * 1024;
    const ResourceVector& alloc = state.nodeAllocatable(n);
    const ResourceVector& used = state.nodeRequested(n);
    const std::int64_t requested[2] = { used[CoreResource::Cpu] + (pod.cpuMilli > 0 ? pod.cpuMilli : kDefaultCpu),
        used[CoreResource::Memory] + (pod.memoryBytes > 0 ? pod.memoryBytes : kDefaultMemory) };
    const std::int64_t allocatable[2] = { alloc[CoreResource::Cpu], alloc[CoreResource::Memory] };
    std::int64_t total = 0, weights = 0;
    for (int r = 0; r < 2; ++r) {
        const std::int64_t a = allocatable[r];
        if (a == 0)
            continue;
        std::int64_t s = 0;
        if (m_strategy == Strategy::LeastAllocated)
            s = requested[r] > a ? 0 : (a - requested[r]) * 100 / a;
        else
            s = std::min(requested[r], a) * 100 / a;
        total += s;
        ++weights;
    }
    return weights == 0 ? 0 : static_cast<double>(total / weights);
}

} // namespace fleet::model::placement
