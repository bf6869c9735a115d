// SPDX-License-Identifier: Apache-2.0
#include "topology.h"

#include <algorithm>
#include <numeric>

namespace fleet::model {

TopologySpec TopologySpec::defaults()
{
    return {{"topology.kubernetes.io/region", "topology.kubernetes.io/zone", "topology.k8s.aws/network-node-layer-1",
             "topology.k8s.aws/network-node-layer-2", "topology.k8s.aws/network-node-layer-3"}};
}

namespace {

// Returns the value a node has for a level key, or an empty view when it has none.
struct LevelReader {
    const ClusterStore& store;
    std::string key;
    StringId keyId;

    [[nodiscard]] std::string_view value(NodeId n) const
    {
        if (key == TopologySpec::kGpuModelKey)
            return store.nodeGpuModel(n).empty() ? std::string_view("CPU only") : store.nodeGpuModel(n);
        if (key == TopologySpec::kInstanceTypeKey)
            return store.nodeInstanceType(n);
        if (!keyId.isValid())
            return {};
        return store.str(store.nodeLabel(n, keyId));
    }
    [[nodiscard]] bool anyNodeHasIt() const
    {
        // For the GPU model level, "CPU only" is a stand-in, not a value a node has.
        const bool gpuModel = key == TopologySpec::kGpuModelKey;
        for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
            if (gpuModel ? !store.nodeGpuModel(NodeId(i)).empty() : !value(NodeId(i)).empty())
                return true;
        return false;
    }
};

// Natural order: "node-9" before "node-10". Names that differ only in leading zeros
// ("nn-01", "nn-1") compare equal here; naturalLess() breaks that tie.
bool naturalLessLoose(std::string_view a, std::string_view b)
{
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const bool da = a[i] >= '0' && a[i] <= '9';
        const bool db = b[j] >= '0' && b[j] <= '9';
        if (da && db) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && a[ie] == '0')
                ++ie;
            while (je < b.size() && b[je] == '0')
                ++je;
            std::size_t ia = ie, jb = je;
            while (ia < a.size() && a[ia] >= '0' && a[ia] <= '9')
                ++ia;
            while (jb < b.size() && b[jb] >= '0' && b[jb] <= '9')
                ++jb;
            if (ia - ie != jb - je)
                return ia - ie < jb - je;
            const int c = a.substr(ie, ia - ie).compare(b.substr(je, jb - je));
            if (c != 0)
                return c < 0;
            i = ia;
            j = jb;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

// A strict total order: natural order, then plain byte order among names that compare equal
// naturally, so that equal values are always adjacent after sorting (one domain per value)
// and the layout does not depend on the order the nodes were imported in.
bool naturalLess(std::string_view a, std::string_view b)
{
    if (naturalLessLoose(a, b))
        return true;
    if (naturalLessLoose(b, a))
        return false;
    return a < b;
}

} // namespace

Topology Topology::build(const ClusterStore& store, const TopologySpec& spec)
{
    Topology t;
    std::vector<LevelReader> levels;
    for (const auto& key : spec.levelKeys) {
        LevelReader r{store, key, store.strings().find(key)};
        if (r.anyNodeHasIt())
            levels.push_back(std::move(r));
    }
    if (levels.empty() && store.nodeCount() > 0) {
        LevelReader gpu{store, TopologySpec::kGpuModelKey, {}};
        LevelReader instance{store, TopologySpec::kInstanceTypeKey, {}};
        if (gpu.anyNodeHasIt())
            levels.push_back(gpu);
        if (instance.anyNodeHasIt())
            levels.push_back(instance);
    }
    for (const auto& l : levels)
        t.m_levelKeys.push_back(l.key);

    const std::size_t nodeCount = store.nodeCount();
    const std::size_t depth = levels.size();
    // values[n * depth + level]
    std::vector<std::string_view> values(nodeCount * depth);
    for (std::uint32_t n = 0; n < nodeCount; ++n)
        for (std::size_t l = 0; l < depth; ++l)
            values[n * depth + l] = levels[l].value(NodeId(n));

    // Every live node; a node a live batch deleted (a tombstone row) lies in no domain.
    std::vector<NodeId> order;
    order.reserve(nodeCount);
    for (std::uint32_t n = 0; n < nodeCount; ++n)
        if (!store.nodeIsDeleted(NodeId(n)))
            order.push_back(NodeId(n));
    const std::size_t placed = order.size();
    // Missing values sort after present ones at each level.
    std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
        for (std::size_t l = 0; l < depth; ++l) {
            const std::string_view va = values[a.index() * depth + l];
            const std::string_view vb = values[b.index() * depth + l];
            if (va == vb)
                continue;
            if (va.empty() != vb.empty())
                return vb.empty();
            return naturalLess(va, vb);
        }
        return naturalLess(store.nodeName(a), store.nodeName(b));
    });
    t.m_orderedNodes = order;
    t.m_nodeDomain.assign(nodeCount, DomainId{});

    // Build the domains by one scan over the sorted order; children are created in order.
    struct Open {
        DomainId id;
        std::string_view value;
    };
    std::vector<std::vector<DomainId>> children(1);
    t.m_parent.push_back(DomainId{});
    t.m_level.push_back(0);
    t.m_name.emplace_back("cluster");
    t.m_nodeBegin.push_back(0);
    t.m_nodeEnd.push_back(static_cast<std::uint32_t>(placed));
    std::vector<Open> open; // open domain per level
    for (std::uint32_t pos = 0; pos < placed; ++pos) {
        const NodeId n = order[pos];
        std::size_t same = 0;
        while (same < open.size() && open[same].value == values[n.index() * depth + same])
            ++same;
        for (std::size_t l = same; l < open.size(); ++l)
            t.m_nodeEnd[open[l].id.index()] = pos;
        open.resize(same);
        for (std::size_t l = same; l < depth; ++l) {
            const DomainId parent = l == 0 ? DomainId(0) : open[l - 1].id;
            const DomainId d(static_cast<std::uint32_t>(t.m_parent.size()));
            const std::string_view v = values[n.index() * depth + l];
            t.m_parent.push_back(parent);
            t.m_level.push_back(static_cast<int>(l + 1));
            t.m_name.push_back(v.empty() ? "(no " + levels[l].key + ")" : std::string(v));
            t.m_nodeBegin.push_back(pos);
            t.m_nodeEnd.push_back(static_cast<std::uint32_t>(placed));
            children.emplace_back();
            children[parent.index()].push_back(d);
            open.push_back({d, v});
        }
        t.m_nodeDomain[n.index()] = depth == 0 ? DomainId(0) : open.back().id;
    }
    for (const auto& o : open)
        t.m_nodeEnd[o.id.index()] = static_cast<std::uint32_t>(placed);

    t.m_childBegin.push_back(0);
    for (const auto& c : children) {
        t.m_children.insert(t.m_children.end(), c.begin(), c.end());
        t.m_childBegin.push_back(static_cast<std::uint32_t>(t.m_children.size()));
    }
    return t;
}

std::span<const DomainId> Topology::domainChildren(DomainId d) const noexcept
{
    return {m_children.data() + m_childBegin[d.index()], m_children.data() + m_childBegin[d.index() + 1]};
}

std::span<const NodeId> Topology::domainNodes(DomainId d) const noexcept
{
    return {m_orderedNodes.data() + m_nodeBegin[d.index()], m_orderedNodes.data() + m_nodeEnd[d.index()]};
}

} // namespace fleet::model
