// SPDX-License-Identifier: Apache-2.0
// GpuMasks: the ledger's GPU devices (gpumasks.h).
#include "gpumasks.h"

#include "model/clusterstore.h"
#include "model/gpudevices.h"

#include <bit>

namespace fleet::model::scheduling {

void GpuMasks::reset(const ClusterStore& store)
{
    const std::size_t nodes = store.nodeCount();
    m_begin.assign(nodes + 1, 0);
    for (std::size_t n = 0; n < nodes; ++n) {
        const NodeId id(static_cast<std::uint32_t>(n));
        m_begin[n + 1] = m_begin[n] + static_cast<std::uint32_t>(trackedGpuCount(store, id));
    }
    m_used.assign(m_begin[nodes], 0);
    m_held.clear();
    m_loaded.clear();
}

std::uint64_t GpuMasks::take(PodId p, NodeId n, std::int64_t gpuMilli, std::int32_t shareMilli, std::uint64_t preferred)
{
    const auto begin = m_begin[n.index()], end = m_begin[n.index() + 1];
    const std::uint64_t mask = takeGpuDevices(std::span(m_used.data() + begin, end - begin), gpuMilli, shareMilli, preferred);
    if (mask != 0)
        m_held[p.value] = mask;
    return mask;
}

void GpuMasks::release(PodId p, NodeId n, std::int32_t shareMilli)
{
    const auto it = m_held.find(p.value);
    if (it == m_held.end())
        return;
    std::int32_t* used = m_used.data() + m_begin[n.index()];
    for (std::uint64_t m = it->second; m != 0; m &= m - 1)
        used[std::countr_zero(m)] -= shareMilli > 0 ? shareMilli : 1000;
    m_held.erase(it);
}

void GpuMasks::addNodeLike(NodeId templateNode)
{
    const std::uint32_t gpus = m_begin[templateNode.index() + 1] - m_begin[templateNode.index()];
    m_begin.push_back(m_begin.back() + gpus);
    m_used.resize(m_begin.back(), 0);
}

void GpuMasks::popNode()
{
    m_begin.pop_back();
    m_used.resize(m_begin.back());
}

} // namespace fleet::model::scheduling
