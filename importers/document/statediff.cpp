// SPDX-License-Identifier: Apache-2.0
#include "statediff.h"

#include "importers/plan/jsontext.h"
#include "importers/quotedtext.h"
#include "model/figures.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <future>
#include <cstdio>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace fleet::importers {

using namespace fleet::model;

namespace {

std::size_t podKeyHash(std::string_view ns, std::string_view name) noexcept
{
    return std::hash<std::string_view> {}(ns) * 1000003u ^ std::hash<std::string_view> {}(name);
}

// The live pods of a store by namespace/name: linear probing over pod index + 1.
class PodTable {
public:
    static constexpr std::uint32_t kNone = UINT32_MAX;
    explicit PodTable(const ClusterStore& s) : m_s(s)
    {
        std::size_t size = 1024;
        while (size < s.podCount() * 2)
            size *= 2;
        m_slots.assign(size, 0);
        m_mask = size - 1;
        for (std::uint32_t i = 0; i < s.podCount(); ++i) {
            if (s.podIsDeleted(PodId(i)))
                continue;
            std::size_t at = podKeyHash(s.podNamespace(PodId(i)), s.podName(PodId(i))) & m_mask;
            while (m_slots[at] != 0)
                at = (at + 1) & m_mask;
            m_slots[at] = i + 1;
        }
    }
    // The pod's index, or kNone.
    [[nodiscard]] std::uint32_t find(std::string_view ns, std::string_view name) const noexcept
    {
        std::size_t at = podKeyHash(ns, name) & m_mask;
        while (m_slots[at] != 0) {
            const PodId p(m_slots[at] - 1);
            if (m_s.podName(p) == name && m_s.podNamespace(p) == ns)
                return p.value;
            at = (at + 1) & m_mask;
        }
        return kNone;
    }

private:
    const ClusterStore& m_s;
    std::vector<std::uint32_t> m_slots;
    std::size_t m_mask = 0;
};

using Strings = std::vector<std::pair<std::string_view, std::string_view>>;

Strings labelsOf(const ClusterStore& s, NodeId n)
{
    Strings v;
    for (const Label& l : s.nodeLabels(n))
        v.emplace_back(s.str(l.key), s.str(l.value));
    std::sort(v.begin(), v.end());
    return v;
}

Strings taintsOf(const ClusterStore& s, NodeId n)
{
    Strings v;
    std::vector<std::tuple<std::string_view, std::string_view, int>> withEffect;
    for (const Taint& t : s.nodeTaints(n))
        withEffect.emplace_back(s.str(t.key), s.str(t.value), static_cast<int>(t.effect));
    std::sort(withEffect.begin(), withEffect.end());
    for (const auto& [k, val, e] : withEffect) {
        v.emplace_back(k, val);
        v.emplace_back(taintEffectName(static_cast<TaintEffect>(e)), std::string_view());
    }
    return v;
}

StateTotals totalsOf(const ClusterStore& s, const std::vector<double>& prices)
{
    StateTotals t;
    const ClusterCounts c = s.counts();
    t.nodes = c.nodes;
    t.pods = c.pods;
    t.gpusAllocatedMilli = s.totalRequested()[CoreResource::Gpu];
    for (std::size_t n = 0; n < s.nodeCount() && n < prices.size(); ++n)
        if (!s.nodeIsDeleted(NodeId(static_cast<std::uint32_t>(n))))
            t.dollarsPerHour += prices[n];
    return t;
}

std::tuple<std::string, std::string, std::string> workloadOf(const ClusterStore& s, PodId p)
{
    const WorkloadId w = s.podWorkload(p);
    if (!w.isValid())
        return { std::string(s.podNamespace(p)), "", std::string(s.podName(p)) };
    return { std::string(s.podNamespace(p)), std::string(ownerKindName(s.workloadKind(w))), std::string(s.workloadName(w)) };
}

} // namespace

StateDiff diffStates(const ClusterStore& before, const ClusterStore& after, const std::vector<double>& beforePrices,
                     const std::vector<double>& afterPrices)
{
    StateDiff d;
    // The pods' table is built on another thread while the nodes are compared here.
    auto table = std::async(std::launch::async, [&before] { return PodTable(before); });
    d.before = totalsOf(before, beforePrices);
    d.after = totalsOf(after, afterPrices);

    for (std::uint32_t i = 0; i < after.nodeCount(); ++i) {
        const NodeId a(i);
        if (after.nodeIsDeleted(a))
            continue;
        const NodeId b = before.findNode(after.nodeName(a));
        if (!b.isValid()) {
            d.nodesAdded.emplace_back(after.nodeName(a));
            continue;
        }
        if (labelsOf(before, b) != labelsOf(after, a))
            d.nodesRelabelled.emplace_back(after.nodeName(a));
        if (taintsOf(before, b) != taintsOf(after, a))
            d.nodesTainted.emplace_back(after.nodeName(a));
    }
    for (std::uint32_t i = 0; i < before.nodeCount(); ++i)
        if (!before.nodeIsDeleted(NodeId(i)) && !after.findNode(before.nodeName(NodeId(i))).isValid())
            d.nodesRemoved.emplace_back(before.nodeName(NodeId(i)));
    for (auto* list : { &d.nodesAdded, &d.nodesRemoved, &d.nodesRelabelled, &d.nodesTainted })
        std::sort(list->begin(), list->end());

    // The earlier state's pods by namespace/name in an open-addressing table (4 bytes a slot,
    // no allocation per pod: a node-based map of 1.6M pods costs most of a diff's time).
    const PodTable beforePods = table.get();
    std::map<std::tuple<std::string, std::string, std::string>, WorkloadChanges> workloads;
    auto entry = [&](std::tuple<std::string, std::string, std::string> key) -> WorkloadChanges& {
        WorkloadChanges& w = workloads[key];
        std::tie(w.namespaceName, w.kind, w.name) = key;
        return w;
    };
    std::vector<std::uint8_t> seen(before.podCount(), 0);
    for (std::uint32_t i = 0; i < after.podCount(); ++i) {
        const PodId a(i);
        if (after.podIsDeleted(a))
            continue;
        const std::uint32_t found = beforePods.find(after.podNamespace(a), after.podName(a));
        if (found == PodTable::kNone) {
            ++d.podsCreated;
            WorkloadChanges& w = entry(workloadOf(after, a));
            ++w.created;
            if (after.podIsOnUnknownNode(a)) {
                ++d.podsStranded;
                ++w.stranded;
            }
            continue;
        }
        seen[found] = 1;
        const PodId b(found);
        if (after.podIsOnUnknownNode(a) && !before.podIsOnUnknownNode(b)) {
            ++d.podsStranded;
            ++entry(workloadOf(after, a)).stranded;
        }
        if (!before.podNodeName(b).empty() && !after.podNodeName(a).empty() && before.podNodeName(b) != after.podNodeName(a)) {
            ++d.podsMoved;
            ++entry(workloadOf(after, a)).moved;
        }
    }
    for (std::uint32_t i = 0; i < before.podCount(); ++i)
        if (!seen[i] && !before.podIsDeleted(PodId(i))) {
            ++d.podsDeleted;
            ++entry(workloadOf(before, PodId(i))).deleted;
        }
    for (auto& [key, w] : workloads)
        d.workloads.push_back(std::move(w));
    return d;
}

} // namespace fleet::importers
