// SPDX-License-Identifier: Apache-2.0
#pragma once
// GroupCounts: how many pods of each group sit on each node, with, per group, the nodes that
// hold at least one. The ledger keeps one for label groups ((label set, namespace): what
// InterPodAffinity and PodTopologySpread selectors count) and one for anti-affinity groups
// ((anti-affinity term set, namespace): the existing pods whose anti-affinity a newcomer must
// respect).
//
// Design note: a node holds a few groups (its DaemonSets, a few workloads), so each node keeps
// a small vector of (group, count, position in the group's node list); a group keeps a dense
// list of its nodes. add() is O(groups on the node); nodes(group) is the list itself, so a
// selector that matches a group reaches its nodes without scanning the fleet.
// Internal to model/scheduling. Thread: one writer, or many readers.

#include "model/ids.h"

#include <cstdint>
#include <span>
#include <vector>

namespace fleet::model::scheduling {

class GroupCounts {
public:
    void resize(std::size_t groups, std::size_t nodes)
    {
        m_groupNodes.resize(groups);
        m_nodeEntries.resize(nodes);
    }
    void addNode() { m_nodeEntries.emplace_back(); }
    void popNode() { m_nodeEntries.pop_back(); }
    [[nodiscard]] std::size_t groupCount() const noexcept { return m_groupNodes.size(); }

    /// Adds `delta` (+1 or -1) pods of `group` on node `n`.
    void add(std::uint32_t group, NodeId n, std::int32_t delta)
    {
        auto& entries = m_nodeEntries[n.index()];
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i].group != group)
                continue;
            entries[i].count += delta;
            if (entries[i].count <= 0) {
                auto& list = m_groupNodes[group];
                const std::uint32_t pos = entries[i].position;
                const NodeId moved = list.back();
                list[pos] = moved;
                list.pop_back();
                if (moved != n)
                    entry(group, moved).position = pos;
                entries[i] = entries.back();
                entries.pop_back();
            }
            return;
        }
        if (delta <= 0)
            return;
        auto& list = m_groupNodes[group];
        entries.push_back({ group, delta, static_cast<std::uint32_t>(list.size()) });
        list.push_back(n);
    }
    /// Pods of `group` on node `n`.
    [[nodiscard]] std::int32_t count(std::uint32_t group, NodeId n) const noexcept
    {
        if (n.index() >= m_nodeEntries.size())
            return 0;
        for (const Entry& e : m_nodeEntries[n.index()])
            if (e.group == group)
                return e.count;
        return 0;
    }
    /// The nodes holding at least one pod of `group`, in no order.
    [[nodiscard]] std::span<const NodeId> nodes(std::uint32_t group) const noexcept { return m_groupNodes[group]; }

private:
    struct Entry {
        std::uint32_t group;
        std::int32_t count;
        std::uint32_t position; // in m_groupNodes[group]
    };
    Entry& entry(std::uint32_t group, NodeId n)
    {
        for (Entry& e : m_nodeEntries[n.index()])
            if (e.group == group)
                return e;
        return m_nodeEntries[n.index()].front(); // unreachable: the group lists only nodes holding it
    }
    std::vector<std::vector<NodeId>> m_groupNodes;
    std::vector<std::vector<Entry>> m_nodeEntries;
};

} // namespace fleet::model::scheduling
