#include "capacityindex.h"

#include <algorithm>

namespace fleet::model {

namespace {

CoreResource resourceOf(CapacityIndex::Axis axis) noexcept
{
    switch (axis) {
    case CapacityIndex::Cpu:
        return CoreResource::Cpu;
    case CapacityIndex::Memory:
        return CoreResource::Memory;
    default:
        return CoreResource::Gpu;
    }
}

} // namespace

namespace {

// The rank of an invalid id sorts before every node of the same free amount (lower bound).
std::uint64_t tieKey(const std::vector<std::uint32_t>& rank, NodeId n) noexcept
{
    if (!n.isValid())
        return 0;
    return 1 + (n.index() < rank.size() ? rank[n.index()] : n.index());
}

constexpr std::string_view kPoolKeys[] = { "eks.amazonaws.com/nodegroup", "karpenter.sh/nodepool", "node.kubernetes.io/instance-type",
    "nvidia.com/gpu.product" };

std::uint64_t poolId(std::size_t keyIndex, StringId value) noexcept
{
    return (static_cast<std::uint64_t>(keyIndex + 1) << 32) | value.value;
}

} // namespace

bool CapacityIndex::Less::operator()(const Key& a, const Key& b) const noexcept
{
    if (a.free != b.free)
        return a.free < b.free;
    return tieKey(*rank, a.node) < tieKey(*rank, b.node);
}

CapacityIndex::CapacityIndex(const PlacementState& state)
    : m_state(state)
    , m_sets { std::set<Key, Less>(Less { &m_rank }), std::set<Key, Less>(Less { &m_rank }), std::set<Key, Less>(Less { &m_rank }) }
{
    const std::size_t storeNodes = state.store().nodeCount();
    std::vector<std::uint32_t> byName(storeNodes);
    for (std::uint32_t i = 0; i < storeNodes; ++i)
        byName[i] = i;
    std::sort(byName.begin(), byName.end(),
        [&](std::uint32_t a, std::uint32_t b) { return state.store().nodeName(NodeId(a)) < state.store().nodeName(NodeId(b)); });
    m_rank.resize(storeNodes);
    for (std::uint32_t r = 0; r < storeNodes; ++r)
        m_rank[byName[r]] = r;
    for (const std::string_view key : kPoolKeys)
        m_poolKeys.push_back(state.store().strings().find(key));
    for (std::size_t i = 0; i < state.nodeCount(); ++i)
        update(NodeId(static_cast<std::uint32_t>(i)));
}

std::int64_t CapacityIndex::freeOf(NodeId n, Axis axis) const noexcept
{
    const CoreResource r = resourceOf(axis);
    return m_state.store().nodeAllocatable(m_state.nodeTemplate(n))[r] - m_state.nodeRequested(n)[r];
}

std::uint64_t CapacityIndex::poolOf(std::span<const Label> nodeSelector) const noexcept
{
    for (std::size_t k = 0; k < m_poolKeys.size(); ++k) {
        if (!m_poolKeys[k].isValid())
            continue;
        for (const Label& l : nodeSelector)
            if (l.key == m_poolKeys[k])
                return poolId(k, l.value);
    }
    return 0;
}

void CapacityIndex::poolsOfNode(NodeId n, std::vector<std::uint64_t>& out) const
{
    out.clear();
    for (std::size_t k = 0; k < m_poolKeys.size(); ++k)
        if (m_poolKeys[k].isValid())
            if (const StringId v = m_state.nodeLabel(n, m_poolKeys[k]); v.isValid())
                out.push_back(poolId(k, v));
}

void CapacityIndex::erase(NodeId n)
{
    for (std::uint8_t a = 0; a < 3; ++a) {
        if (n.index() < m_in[a].size() && m_in[a][n.index()]) {
            m_sets[a].erase(Key { m_key[a][n.index()], n });
            if (n.index() < m_nodePools.size())
                for (const std::uint64_t pool : m_nodePools[n.index()])
                    m_pools[pool][a].erase(Key { m_key[a][n.index()], n });
            m_in[a][n.index()] = 0;
        }
    }
}

void CapacityIndex::update(NodeId n)
{
    if (m_nodePools.size() <= n.index()) {
        m_nodePools.resize(n.index() + 1);
        poolsOfNode(n, m_nodePools[n.index()]);
    }
    const std::vector<std::uint64_t>& pools = m_nodePools[n.index()];
    for (std::uint8_t a = 0; a < 3; ++a) {
        auto& keys = m_key[a];
        auto& in = m_in[a];
        if (in.size() <= n.index()) {
            keys.resize(n.index() + 1, 0);
            in.resize(n.index() + 1, 0);
        }
        if (in[n.index()]) {
            m_sets[a].erase(Key { keys[n.index()], n });
            for (const std::uint64_t pool : pools)
                m_pools[pool][a].erase(Key { keys[n.index()], n });
            in[n.index()] = 0;
        }
        if (!m_state.nodePresent(n))
            continue;
        const Axis axis = static_cast<Axis>(a);
        if (axis == Gpu && m_state.store().nodeAllocatable(m_state.nodeTemplate(n))[CoreResource::Gpu] <= 0)
            continue;
        // A node running as many pods as its allocatable pods allows takes no pod at all
        // (NodeResourcesFit checks the pod count first): leaving it out of the walk changes no answer.
        if (const std::int64_t podsAllowed = m_state.store().nodeAllocatable(m_state.nodeTemplate(n))[CoreResource::Pods];
            podsAllowed > 0 && m_state.nodeRequested(n)[CoreResource::Pods] >= podsAllowed)
            continue;
        keys[n.index()] = freeOf(n, axis);
        m_sets[a].insert(Key { keys[n.index()], n });
        for (const std::uint64_t pool : pools)
            m_pools.try_emplace(pool, std::array<std::set<Key, Less>, 3> { std::set<Key, Less>(Less { &m_rank }),
                                          std::set<Key, Less>(Less { &m_rank }), std::set<Key, Less>(Less { &m_rank }) })
                .first->second[a]
                .insert(Key { keys[n.index()], n });
        in[n.index()] = 1;
    }
}

} // namespace fleet::model
