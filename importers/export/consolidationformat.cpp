// SPDX-License-Identifier: Apache-2.0
// What `fleetscope plan consolidate` prints (consolidationformat.h).
#include "consolidationformat.h"

#include "keptnodesexport.h"
#include "statediffformat.h"

#include "importers/plan/jsontext.h"
#include "importers/terminaltext.h"
#include "model/clusterstore.h"
#include "model/figures.h"
#include "model/search/keptgroups.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace fleet::importers {

namespace {

/// The plan's node count over the better of the volume bound and the LP bound (0 without a bound).
double ratioToBetterBound(const model::ConsolidationResult& ours, const model::NodeCountBound& bound, const model::PackingBound& lp)
{
    const std::int64_t better = std::max(bound.nodes, lp.valid ? lp.nodes : 0);
    return better > 0 ? static_cast<double>(ours.after.nodes) / static_cast<double>(better) : 0.0;
}

/// The drained nodes of `r` that have no price (nodePrices 0 or missing): their saving is unknown.
std::int64_t unpricedDrained(const model::ConsolidationResult& r, const std::vector<double>& nodePrices)
{
    return std::count_if(r.drained.begin(), r.drained.end(), [&](model::NodeId n) { return !(n.index() < nodePrices.size() && nodePrices[n.index()] > 0); });
}

/// A cost per hour over `nodes` nodes of which `unpriced` have no price: "$12.34"; "$12.34 and 3
/// unpriced nodes<tail>"; "unknown (3 unpriced nodes<tail>)" when none of them is priced.
std::string costText(double dollarsPerHour, std::int64_t nodes, std::int64_t unpriced, const char* tail = "")
{
    const std::string dollars = dollarsExact(dollarsPerHour);
    if (unpriced <= 0)
        return dollars;
    const std::string counted = model::formatCount(unpriced) + (unpriced == 1 ? " unpriced node" : " unpriced nodes") + tail;
    if (unpriced >= nodes)
        return "unknown (" + counted + ")";
    return dollars + " and " + counted;
}

} // namespace

std::string consolidationSummaryJson(const model::ConsolidationResult& ours, const model::ConsolidationResult& base, const model::NodeCountBound& bound,
    const model::PackingBound& lp, const model::ClusterStore& store, std::int64_t unpricedNodes, const std::vector<double>& nodePrices)
{
    JsonWriter w;
    auto figures = [&](const model::ConsolidationResult& r) {
        w.beginObject();
        w.key("nodesFreed").value(r.nodesFreed);
        w.key("podsMoved").value(r.podsMoved);
        w.key("evictions").value(r.evictions);
        w.key("costPerHourSaved").value(r.savedPerHour);
        // of nodesFreed, those without a price: costPerHourSaved leaves them out
        w.key("unpricedNodesFreed").value(unpricedDrained(r, nodePrices));
        w.key("nodesAfter").value(r.after.nodes);
        w.key("pendingPlaced").value(static_cast<std::int64_t>(r.pendingPlaced.size()));
        w.key("pendingLeft").value(r.pendingLeft);
        w.key("seconds").value(r.seconds);
        w.endObject();
    };
    w.beginObject();
    w.key("ours");
    figures(ours);
    w.key("baseline");
    figures(base);
    w.key("lowerBound").beginObject();
    w.key("nodes").value(bound.nodes);
    w.key("ratio").value(bound.nodes > 0 ? static_cast<double>(ours.after.nodes) / static_cast<double>(bound.nodes) : 0.0);
    w.key("rows").beginArray();
    for (const model::NodeCountBound::Row& r : bound.rows) {
        w.beginObject();
        w.key("gpuModel").value(r.gpuModel);
        w.key("resource").value(r.resource);
        w.key("requested").value(r.requested);
        w.key("largestAllocatable").value(r.largestAllocatable);
        w.key("byRequests").value(r.byRequests);
        w.key("pinnedNodes").value(r.pinnedNodes);
        w.key("bound").value(r.bound);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    w.key("lpBound").beginObject();
    w.key("status").value(lp.status);
    w.key("nodes").value(lp.valid ? lp.nodes : 0);
    w.key("objective").value(lp.objective);
    w.key("seconds").value(lp.buildSeconds + lp.solveSeconds);
    w.key("nodeClasses").value(static_cast<std::int64_t>(lp.nodeClasses));
    w.key("podClasses").value(static_cast<std::int64_t>(lp.podClasses));
    w.endObject();
    w.key("ratioToBetterBound").value(ratioToBetterBound(ours, bound, lp));
    w.key("fallbackDrains").value(ours.fallbackDrains);
    // Nodes without a price: the cost figures leave them out (not $0 saved).
    w.key("unpricedNodes").value(unpricedNodes);
    writeKeptMembers(w, store, ours.kept);
    w.key("cancelled").value(ours.cancelled);
    w.key("timedOut").value(ours.timedOut);
    w.endObject();
    return w.text() + "\n";
}

std::string consolidationSummaryText(const model::ConsolidationResult& ours, const model::ConsolidationResult& base,
    const model::NodeCountBound& bound, const model::PackingBound& lp, const model::ClusterStore& store, const std::string& planPath,
    const std::vector<double>& nodePrices, std::int64_t unpricedNodes, const std::string& unpricedNote)
{
    const bool pricesKnown = std::any_of(nodePrices.begin(), nodePrices.end(), [](double p) { return p > 0; });
    const std::int64_t unpricedBefore = unpricedNodes;
    const std::int64_t unpricedFreed = unpricedDrained(ours, nodePrices);
    std::ostringstream out;
    char line[512];
    // Lines that embed names from the input (nodes, reason codes and messages naming labels
    // and taints, the plan's path) go through terminalLine(): no control byte reaches the
    // terminal and no name forges a line.
    const std::string shownPath = terminalLine(planPath);
    // The drains' own moves: each evicted pod straight to the node it stays on (consolidation.h).
    const std::size_t moves = ours.actions.size() - ours.drained.size();
    // Counts with thousands separators, dollars to the cent ("$4,283.39"): the text is read.
    auto n = [](auto v) { return model::formatCount(static_cast<std::int64_t>(v)); };
    // "1 node", "2 nodes": the count and the noun it agrees with.
    auto counted = [&n](auto v, const char* one, const char* many) { return n(v) + " " + (static_cast<std::int64_t>(v) == 1 ? one : many); };
    if (ours.pendingPlaced.empty())
        std::snprintf(line, sizeof line,
            "Consolidation plan written to %s (%s, each after the move-pod actions of its node's pods: %s)\n", shownPath.c_str(),
            counted(ours.drained.size(), "drain-node action", "drain-node actions").c_str(), counted(moves, "move-pod action", "move-pod actions").c_str());
    else
        std::snprintf(line, sizeof line,
            "Consolidation plan written to %s (%s for pending pods, then %s, each after the move-pod actions of its node's pods: %s "
            "more)\n",
            shownPath.c_str(), counted(ours.pendingPlaced.size(), "move-pod action", "move-pod actions").c_str(),
            counted(ours.drained.size(), "drain-node action", "drain-node actions").c_str(), counted(moves, "move-pod action", "move-pod actions").c_str());
    out << line;
    if (!ours.pendingPlaced.empty() || ours.pendingLeft > 0) {
        std::snprintf(line, sizeof line, "  pending pods:       %s placed first (room the drains keep), %s stay pending (no node fits, or gated)\n",
            n(ours.pendingPlaced.size()).c_str(), n(ours.pendingLeft).c_str());
        out << line;
    }
    std::snprintf(line, sizeof line, "  nodes freed:        %s (of %s; %s after)\n", n(ours.nodesFreed).c_str(), n(ours.before.nodes).c_str(),
        n(ours.after.nodes).c_str());
    out << line;
    // Each pod moves once, straight to a node that stays; a fallback drain (its pods placed by the
    // policy, consolidation.h) may move a pod onto a node drained later, and again from there.
    if (ours.evictions != ours.podsMoved)
        std::snprintf(line, sizeof line, "  pods moved:         %s (%s evictions: %s drains placed their pods by the policy, some onto nodes drained later)\n",
            n(ours.podsMoved).c_str(), n(ours.evictions).c_str(), n(ours.fallbackDrains).c_str());
    else
        std::snprintf(line, sizeof line, "  pods moved:         %s (each once, straight to a node that stays)\n", n(ours.podsMoved).c_str());
    out << line;
    // Without a price for any node (a trace without instance types or regions) the costs are
    // unknown, not $0.00.
    // A node without a price is left out of the sums, not counted at $0: the figures name how
    // many such nodes they leave out, and a sum over none priced is unknown.
    if (pricesKnown && unpricedBefore > 0)
        std::snprintf(line, sizeof line, "  cost per hour saved: %s (before %s, after %s)\n",
            costText(ours.savedPerHour, ours.nodesFreed, unpricedFreed, " freed").c_str(),
            costText(ours.before.costPerHour, ours.before.nodes, unpricedBefore).c_str(),
            costText(ours.after.costPerHour, ours.after.nodes, unpricedBefore - unpricedFreed).c_str());
    else if (pricesKnown)
        std::snprintf(line, sizeof line, "  cost per hour saved: %s (before %s, after %s)\n", dollarsExact(ours.savedPerHour).c_str(),
            dollarsExact(ours.before.costPerHour).c_str(), dollarsExact(ours.after.costPerHour).c_str());
    else
        std::snprintf(line, sizeof line, "  cost per hour saved: unknown (no prices known for these nodes)\n");
    out << line;
    // Some nodes priced, some not: the figure counts the priced ones alone; say so.
    if (pricesKnown && !unpricedNote.empty())
        out << "                      (" << unpricedNote << ")\n";
    std::snprintf(line, sizeof line, "  lower bound:        %s (plan / bound = %.3f)\n", counted(bound.nodes, "node", "nodes").c_str(),
        bound.nodes > 0 ? static_cast<double>(ours.after.nodes) / static_cast<double>(bound.nodes) : 0.0);
    out << line;
    if (lp.valid)
        std::snprintf(line, sizeof line, "  LP bound:           %s (COIN-OR Clp, %.2f s apart from the search's %.2f s; plan / the better bound = %.3f)\n",
            counted(lp.nodes, "node", "nodes").c_str(), lp.buildSeconds + lp.solveSeconds, ours.seconds, ratioToBetterBound(ours, bound, lp));
    else
        std::snprintf(line, sizeof line, "  LP bound:           none (%s after %.1f s)\n", terminalLine(lp.status).c_str(),
            lp.buildSeconds + lp.solveSeconds);
    out << line;
    if (const std::int64_t baseUnpriced = unpricedDrained(base, nodePrices); pricesKnown && baseUnpriced > 0)
        std::snprintf(line, sizeof line,
            "  baseline (Karpenter emptiness and multi-node consolidation, deletion only): %s freed, %s moved, saved per hour: %s\n",
            counted(base.nodesFreed, "node", "nodes").c_str(), counted(base.podsMoved, "pod", "pods").c_str(), costText(base.savedPerHour, base.nodesFreed, baseUnpriced, " freed").c_str());
    else if (pricesKnown)
        std::snprintf(line, sizeof line, "  baseline (Karpenter emptiness and multi-node consolidation, deletion only): %s freed, %s moved, %s/h saved\n",
            counted(base.nodesFreed, "node", "nodes").c_str(), counted(base.podsMoved, "pod", "pods").c_str(), dollarsExact(base.savedPerHour).c_str());
    else
        std::snprintf(line, sizeof line, "  baseline (Karpenter emptiness and multi-node consolidation, deletion only): %s freed, %s moved, saving unknown\n",
            counted(base.nodesFreed, "node", "nodes").c_str(), counted(base.podsMoved, "pod", "pods").c_str());
    out << line;
    out << "  nodes that stay: " << n(ours.kept.size()) << "\n";
    // The groups as the window's list of nodes that stay shows them (model/search/keptgroups.h).
    for (const model::KeptGroup& g : model::keptByCode(ours.kept)) {
        out << "    " << std::setw(8) << model::formatCount(g.nodes) << "  " << terminalLine(g.code) << "\n";
        if (!g.blockingCode.empty())
            out << "              most common blocking filter: " << terminalLine(model::keptGroupBlockingText(g)) << "\n";
    }
    if (ours.kept.size() > 20)
        out << "  the first 20 (--format json lists all):\n";
    for (std::size_t i = 0; i < ours.kept.size() && i < 20; ++i)
        out << "    "
            << terminalLine(std::string(store.nodeName(ours.kept[i].node)) + ": " + ours.kept[i].reason.message + " ["
                   + ours.kept[i].reason.code() + "]")
            << "\n";
    if (ours.cancelled)
        out << "  (cancelled: the plan so far)\n";
    if (ours.timedOut)
        out << "  (stopped at --time-limit: the best plan found so far)\n";
    return out.str();
}


} // namespace fleet::importers
