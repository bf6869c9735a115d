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
    w.key("stranded").value(static_cast<std::int64_t>(d.podsStranded));
    w.key("by_workload").beginArray();
    for (const WorkloadChanges& c : d.workloads) {
        w.beginObject();
        w.key("namespace").value(c.namespaceName);
        w.key("kind").value(c.kind);
        w.key("name").value(c.name);
        w.key("moved").value(static_cast<std::int64_t>(c.moved));
        w.key("created").value(static_cast<std::int64_t>(c.created));
        w.key("deleted").value(static_cast<std::int64_t>(c.deleted));
        w.key("stranded").value(static_cast<std::int64_t>(c.stranded));
        w.endObject();
    }
    w.endArray();
    w.endObject();
    w.endObject();
    return w.text() + "\n";
}

namespace {

// "1 node", "1,617,779 pods": a count with separators and the noun in the singular for one.
std::string counted(std::size_t n, const char* noun, const char* nouns)
{
    return formatCount(static_cast<std::int64_t>(n)) + " " + (n == 1 ? noun : nouns);
}

// "$12,345.67/h": dollars per hour to the cent with separators (a diff compares them exactly).
std::string dollars(double perHour)
{
    const auto cents = static_cast<std::int64_t>(std::llround(std::abs(perHour) * 100.0));
    char frac[8];
    std::snprintf(frac, sizeof frac, ".%02lld", static_cast<long long>(cents % 100));
    return std::string(perHour < 0 && cents ? "-" : "") + "$" + formatCount(cents / 100) + frac + "/h";
}

} // namespace

std::string dollarsPerHourExact(double perHour)
{
    return dollars(perHour);
}

std::string stateDiffText(const StateDiff& d, std::size_t listed)
{
    std::string out;
    auto totals = [&](const char* name, const StateTotals& t) {
        out += std::string(name) + std::string(8 - std::min<std::size_t>(7, std::strlen(name)), ' ') + counted(t.nodes, "node", "nodes") + ", "
            + counted(t.pods, "pod", "pods") + ", " + formatGpus(t.gpusAllocatedMilli) + " GPUs allocated, " + dollars(t.dollarsPerHour) + "\n";
    };
    auto n = [](std::size_t v) { return formatCount(static_cast<std::int64_t>(v)); };
    totals("before:", d.before);
    totals("after:", d.after);
    out += "nodes: " + n(d.nodesAdded.size()) + " added, " + n(d.nodesRemoved.size()) + " removed, " + n(d.nodesRelabelled.size())
        + " relabelled, " + n(d.nodesTainted.size()) + " tainted\n";
    auto names = [&](const char* what, const std::vector<std::string>& list) {
        if (list.empty())
            return;
        out += std::string("  ") + what + ": ";
        for (std::size_t i = 0; i < list.size() && i < listed; ++i)
            out += (i ? ", " : "") + escapedText(list[i]);
        if (list.size() > listed)
            out += ", and " + n(list.size() - listed) + " more";
        out += "\n";
    };
    names("added", d.nodesAdded);
    names("removed", d.nodesRemoved);
    names("relabelled", d.nodesRelabelled);
    names("tainted", d.nodesTainted);
    out += "pods: " + n(d.podsMoved) + " moved, " + n(d.podsCreated) + " created, " + n(d.podsDeleted) + " deleted, " + n(d.podsStranded)
        + " stranded on removed nodes\n";
    std::vector<const WorkloadChanges*> order;
    for (const WorkloadChanges& w : d.workloads)
        order.push_back(&w);
    std::stable_sort(order.begin(), order.end(), [](const WorkloadChanges* a, const WorkloadChanges* b) {
        return a->moved + a->created + a->deleted + a->stranded > b->moved + b->created + b->deleted + b->stranded;
    });
    for (std::size_t i = 0; i < order.size() && i < listed; ++i) {
        const WorkloadChanges& w = *order[i];
        out += "  " + escapedText(w.namespaceName) + "/" + (w.kind.empty() ? std::string("Pod") : w.kind) + "/" + escapedText(w.name) + ": "
            + n(w.moved) + " moved, " + n(w.created) + " created, " + n(w.deleted) + " deleted";
        if (w.stranded)
            out += ", " + n(w.stranded) + " stranded";
        out += "\n";
    }
    if (order.size() > listed)
        out += "  and " + counted(order.size() - listed, "more workload", "more workloads") + "\n";
    return out;
}

} // namespace fleet::importers
