#include "capacityindex.h"

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

bool CapacityIndex::Less::operator()(const Key& a, const Key& b) const noexcept
{
    if (a.free != b.free)
        return a.free < b.free;
    if (a.node == b.node)
        return false;
    // An invalid node is the lower bound of its free amount.
    if (!a.node.isValid())
        return true;
    if (!b.node.isValid())
        return false;
    const std::string_view na = state->nodeName(a.node), nb = state->nodeName(b.node);
    return na != nb ? na < nb : a.node < b.node;
}

CapacityIndex::CapacityIndex(const PlacementState& state)
    : m_state(state)
    , m_sets { std::set<Key, Less>(Less { &state }), std::set<Key, Less>(Less { &state }), std::set<Key, Less>(Less { &state }) }
{
    for (std::size_t i = 0; i < state.nodeCount(); ++i)
        update(NodeId(static_cast<std::uint32_t>(i)));
}

std::int64_t CapacityIndex::freeOf(NodeId n, Axis axis) const noexcept
{
    const CoreResource r = resourceOf(axis);
    return m_state.store().nodeAllocatable(m_state.nodeTemplate(n))[r] - m_state.nodeRequested(n)[r];
}

void CapacityIndex::erase(NodeId n)
{
    for (std::uint8_t a = 0; a < 3; ++a) {
        if (n.index() < m_in[a].size() && m_in[a][n.index()]) {
            m_sets[a].erase(Key { m_key[a][n.index()], n });
            m_in[a][n.index()] = 0;
        }
    }
}

void CapacityIndex::update(NodeId n)
{
    for (std::uint8_t a = 0; a < 3; ++a) {
        auto& keys = m_key[a];
        auto& in = m_in[a];
        if (in.size() <= n.index()) {
            keys.resize(n.index() + 1, 0);
            in.resize(n.index() + 1, 0);
        }
        if (in[n.index()]) {
            m_sets[a].erase(Key { keys[n.index()], n });
            in[n.index()] = 0;
        }
        if (!m_state.nodePresent(n))
            continue;
        const Axis axis = static_cast<Axis>(a);
        if (axis == Gpu && m_state.store().nodeAllocatable(m_state.nodeTemplate(n))[CoreResource::Gpu] <= 0)
            continue;
        keys[n.index()] = freeOf(n, axis);
        m_sets[a].insert(Key { keys[n.index()], n });
        in[n.index()] = 1;
    }
}

} // namespace fleet::model
