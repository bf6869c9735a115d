// SPDX-License-Identifier: Apache-2.0
// FGD and its full-precision variant (fgdpolicy.h).
#include "fgdpolicy.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace fleet::model::placement {

FgdPolicy::FgdPolicy(std::vector<TypicalPod> typical, Precision precision, double coverage)
    : m_typical(limitCoverage(std::move(typical), coverage))
    , m_precision(precision)
{
}

void FgdPolicy::grow(const PlanLedger& state)
{
    const std::size_t nodes = state.nodeCount();
    if (nodes <= m_nodes)
        return;
    const std::size_t t = m_typical.size();
    m_allowed.resize(nodes * t);
    for (std::size_t n = m_nodes; n < nodes; ++n) {
        const auto allowed = typicalModelsAllowed(state.nodeGpuModel(NodeId(static_cast<std::uint32_t>(n))), m_typical);
        std::copy(allowed.begin(), allowed.end(), m_allowed.begin() + static_cast<std::ptrdiff_t>(n * t));
    }
    m_before.resize(nodes);
    for (auto& c : m_cache)
        c.resize(nodes);
    m_nodes = nodes;
}

std::string_view FgdPolicy::name() const noexcept
{
    if (!m_name.empty())
        return m_name;
    return m_precision == Precision::Paper ? "FGD" : m_precision == Precision::Fine ? "FGDFine" : "FGDFineGpu";
}

double FgdPolicy::value(double before, double after, bool gpuChoice) const noexcept
{
    const double delta = before - after;
    if (m_precision == Precision::Fine || (gpuChoice && m_precision == Precision::FineGpu))
        return delta;
    return std::floor(100.0 / (1.0 + std::exp(-delta / 1000.0)));
}

double FgdPolicy::fragmentation(const PlanLedger& state, NodeId n)
{
    grow(state);
    Entry& e = m_before[n.index()];
    if (e.stamp != state.nodeStamp(n)) {
        const NodeView v = nodeView(state, n);
        std::array<std::int32_t, kMaxNodeGpus> free {};
        const int count = std::min(v.gpuCount(), kMaxNodeGpus);
        for (int i = 0; i < count; ++i)
            free[static_cast<std::size_t>(i)] = v.gpuFree(i);
        const std::span<const std::uint8_t> allowed(m_allowed.data() + n.index() * m_typical.size(), m_typical.size());
        e.score = nodeFragmentation(v.cpuFree, std::span(free.data(), static_cast<std::size_t>(count)), m_typical, allowed);
        e.stamp = state.nodeStamp(n);
    }
    return e.score;
}

FgdPolicy::Evaluated FgdPolicy::evaluate(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    const double before = fragmentation(state, n);
    const NodeView v = nodeView(state, n);
    const int count = std::min(v.gpuCount(), kMaxNodeGpus);
    std::array<std::int32_t, kMaxNodeGpus> free {};
    for (int i = 0; i < count; ++i)
        free[static_cast<std::size_t>(i)] = v.gpuFree(i);
    const std::span<const std::uint8_t> allowed(m_allowed.data() + n.index() * m_typical.size(), m_typical.size());
    const std::span<const std::int32_t> gpus(free.data(), static_cast<std::size_t>(count));
    const std::int64_t cpuAfter = v.cpuFree - pod.cpuMilli;
    if (pod.sharesGpu()) {
        // Each GPU the share fits on; the best score wins, ties to the lowest index.
        Evaluated best { 0, -1 };
        double bestChoice = 0; // the GPU's rank (FineGpu: at full precision)
        for (int i = 0; i < count; ++i) {
            if (free[static_cast<std::size_t>(i)] < pod.gpuMilli)
                continue;
            free[static_cast<std::size_t>(i)] -= pod.gpuMilli;
            const double after = nodeFragmentation(cpuAfter, gpus, m_typical, allowed);
            free[static_cast<std::size_t>(i)] += pod.gpuMilli;
            const double s = value(before, after, true);
            if (best.gpu < 0 || s > bestChoice) {
                best = { value(before, after, false), i };
                bestChoice = s;
            }
        }
        return best;
    }
    // Whole GPUs (or none): the k GPUs with the least free that still fit (a stable ascending
    // sort of the free list), which for whole GPUs are the lowest-index idle ones.
    std::array<int, kMaxNodeGpus> order {};
    for (int i = 0; i < count; ++i)
        order[static_cast<std::size_t>(i)] = i;
    std::stable_sort(order.begin(), order.begin() + count, [&](int a, int b) { return free[static_cast<std::size_t>(a)] < free[static_cast<std::size_t>(b)]; });
    int taken = 0;
    for (int j = 0; j < count && taken < pod.gpuCount; ++j) {
        auto& f = free[static_cast<std::size_t>(order[static_cast<std::size_t>(j)])];
        if (f >= pod.gpuMilli) {
            f -= pod.gpuMilli;
            ++taken;
        }
    }
    return { value(before, nodeFragmentation(cpuAfter, gpus, m_typical, allowed), false), -1 };
}

const FgdPolicy::Entry& FgdPolicy::cached(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    grow(state);
    if (!(pod == m_lastShape) || m_lastShapeId == ~std::size_t { 0 }) {
        const auto key = std::make_tuple(pod.cpuMilli, pod.gpuMilli, pod.gpuCount);
        auto it = m_shapeIds.find(key);
        if (it == m_shapeIds.end() && (m_cache.size() + 1) * m_nodes <= kMaxCachedEntries) {
            it = m_shapeIds.emplace(key, m_cache.size()).first;
            m_cache.emplace_back(m_nodes);
        }
        m_lastShape = pod;
        m_lastShapeId = it == m_shapeIds.end() ? ~std::size_t { 1 } : it->second;
    }
    static thread_local Entry scratch;
    Entry& e = m_lastShapeId < m_cache.size() ? m_cache[m_lastShapeId][n.index()] : scratch;
    if (&e == &scratch || e.stamp != state.nodeStamp(n)) {
        const Evaluated r = evaluate(state, pod, n);
        e.score = r.score;
        e.gpu = r.gpu;
        e.stamp = state.nodeStamp(n);
    }
    return e;
}

double FgdPolicy::score(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    const double s = cached(state, pod, n).score;
    if (m_tieBreak == TieBreak::Rank)
        return s;
    // InUse (ours): of the nodes of one integer score, the ones already holding pods come
    // first, then the node order; an idle node stays whole for the pods that need all of it.
    return s + (state.nodeRequested(n)[CoreResource::Pods] > 0 ? 0.25 : 0.0);
}

std::uint64_t FgdPolicy::chooseGpus(const PlanLedger& state, const PodShape& pod, NodeId n)
{
    if (!pod.sharesGpu())
        return tightestGpus(nodeView(state, n), pod);
    const Entry& e = cached(state, pod, n);
    return e.gpu < 0 ? 0 : std::uint64_t { 1 } << e.gpu;
}

} // namespace fleet::model::placement
