// SPDX-License-Identifier: Apache-2.0
// `diff`'s outputs: two states' differences as JSON and as terminal text.
#include "statediffformat.h"

#include "importers/plan/jsontext.h"
#include "importers/quotedtext.h"
#include "model/figures.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace fleet::importers {

using namespace fleet::model;

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
    return dollarsExact(perHour) + "/h";
}

} // namespace

std::string dollarsExact(double dollars)
{
    const auto cents = static_cast<std::int64_t>(std::llround(std::abs(dollars) * 100.0));
    char frac[8];
    std::snprintf(frac, sizeof frac, ".%02lld", static_cast<long long>(cents % 100));
    return std::string(dollars < 0 && cents ? "-" : "") + "$" + formatCount(cents / 100) + frac;
}

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
