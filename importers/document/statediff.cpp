// SPDX-License-Identifier: Apache-2.0
#include "statediff.h"

#include "importers/plan/jsontext.h"
#include "importers/quotedtext.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace fleet::importers {

using namespace fleet::model;

namespace {

struct PairHash {
    std::size_t operator()(const std::pair<std::string_view, std::string_view>& k) const noexcept
    {
        return std::hash<std::string_view> {}(k.first) * 1000003u ^ std::hash<std::string_view> {}(k.second);
    }
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

    std::unordered_map<std::pair<std::string_view, std::string_view>, std::uint32_t, PairHash> beforePods;
    beforePods.reserve(before.podCount());
    for (std::uint32_t i = 0; i < before.podCount(); ++i)
        if (!before.podIsDeleted(PodId(i)))
            beforePods.emplace(std::pair(before.podNamespace(PodId(i)), before.podName(PodId(i))), i);
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
        const auto it = beforePods.find({ after.podNamespace(a), after.podName(a) });
        if (it == beforePods.end()) {
            ++d.podsCreated;
            ++entry(workloadOf(after, a)).created;
            continue;
        }
        seen[it->second] = 1;
        const PodId b(it->second);
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

std::string stateDiffJson(const StateDiff& d)
{
    JsonWriter w;
    auto totals = [&](const char* name, const StateTotals& t) {
        w.key(name).beginObject();
        w.key("nodes").value(static_cast<std::int64_t>(t.nodes));
        w.key("pods").value(static_cast<std::int64_t>(t.pods));
        w.key("gpus_allocated").value(static_cast<double>(t.gpusAllocatedMilli) / 1000.0);
        w.key("dollars_per_hour").value(t.dollarsPerHour);
        w.endObject();
    };
    auto names = [&](const char* name, const std::vector<std::string>& list) {
        w.key(name).beginArray();
        for (const std::string& n : list)
            w.value(n);
        w.endArray();
    };
    w.beginObject();
    totals("before", d.before);
    totals("after", d.after);
    w.key("nodes").beginObject();
    names("added", d.nodesAdded);
    names("removed", d.nodesRemoved);
    names("relabelled", d.nodesRelabelled);
    names("tainted", d.nodesTainted);
    w.endObject();
    w.key("pods").beginObject();
    w.key("moved").value(static_cast<std::int64_t>(d.podsMoved));
    w.key("created").value(static_cast<std::int64_t>(d.podsCreated));
    w.key("deleted").value(static_cast<std::int64_t>(d.podsDeleted));
    w.key("by_workload").beginArray();
    for (const WorkloadChanges& c : d.workloads) {
        w.beginObject();
        w.key("namespace").value(c.namespaceName);
        w.key("kind").value(c.kind);
        w.key("name").value(c.name);
        w.key("moved").value(static_cast<std::int64_t>(c.moved));
        w.key("created").value(static_cast<std::int64_t>(c.created));
        w.key("deleted").value(static_cast<std::int64_t>(c.deleted));
        w.endObject();
    }
    w.endArray();
    w.endObject();
    w.endObject();
    return w.text() + "\n";
}

std::string stateDiffText(const StateDiff& d, std::size_t listed)
{
    std::string out;
    char line[256];
    auto totals = [&](const char* name, const StateTotals& t) {
        std::snprintf(line, sizeof line, "%-7s %zu nodes, %zu pods, %.1f GPUs allocated, $%.2f/h\n", name, t.nodes, t.pods,
                      static_cast<double>(t.gpusAllocatedMilli) / 1000.0, t.dollarsPerHour);
        out += line;
    };
    totals("before:", d.before);
    totals("after:", d.after);
    std::snprintf(line, sizeof line, "nodes: %zu added, %zu removed, %zu relabelled, %zu tainted\n", d.nodesAdded.size(),
                  d.nodesRemoved.size(), d.nodesRelabelled.size(), d.nodesTainted.size());
    out += line;
    auto names = [&](const char* what, const std::vector<std::string>& list) {
        if (list.empty())
            return;
        out += std::string("  ") + what + ": ";
        for (std::size_t i = 0; i < list.size() && i < listed; ++i)
            out += (i ? ", " : "") + escapedText(list[i]);
        if (list.size() > listed)
            out += ", and " + std::to_string(list.size() - listed) + " more";
        out += "\n";
    };
    names("added", d.nodesAdded);
    names("removed", d.nodesRemoved);
    names("relabelled", d.nodesRelabelled);
    names("tainted", d.nodesTainted);
    std::snprintf(line, sizeof line, "pods: %zu moved, %zu created, %zu deleted\n", d.podsMoved, d.podsCreated, d.podsDeleted);
    out += line;
    std::vector<const WorkloadChanges*> order;
    for (const WorkloadChanges& w : d.workloads)
        order.push_back(&w);
    std::stable_sort(order.begin(), order.end(), [](const WorkloadChanges* a, const WorkloadChanges* b) {
        return a->moved + a->created + a->deleted > b->moved + b->created + b->deleted;
    });
    for (std::size_t i = 0; i < order.size() && i < listed; ++i) {
        const WorkloadChanges& w = *order[i];
        out += "  " + escapedText(w.namespaceName) + "/" + (w.kind.empty() ? std::string("Pod") : w.kind) + "/" + escapedText(w.name);
        std::snprintf(line, sizeof line, ": %zu moved, %zu created, %zu deleted\n", w.moved, w.created, w.deleted);
        out += line;
    }
    if (order.size() > listed)
        out += "  and " + std::to_string(order.size() - listed) + " more workloads\n";
    return out;
}

} // namespace fleet::importers
