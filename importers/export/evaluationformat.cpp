// SPDX-License-Identifier: Apache-2.0
// `plan check`'s outputs: the evaluation of a plan as JSON and as terminal text, and the
// actions that do not hold in a line.
#include "evaluationformat.h"
#include "reasonsjson.h"
#include "statediffformat.h"
#include "summaryjson.h"

#include "importers/plan/jsontext.h"
#include "importers/plan/planevaluation.h"
#include "importers/plan/plansource.h"
#include "importers/terminaltext.h"
#include "model/figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <unordered_map>

namespace fleet::importers {

namespace {

void writeTotals(JsonWriter& w, const model::PlanTotals& t, std::int64_t terminatingRemoved, const model::FleetFigures* f)
{
    w.beginObject();
    w.key("nodes").value(t.nodes);
    w.key("nodesInUse").value(t.nodesInUse);
    w.key("nodesEmpty").value(t.nodesEmpty);
    w.key("gpus").value(t.gpus);
    w.key("gpuMilliAllocated").value(t.gpuMilliAllocated);
    w.key("podsPlaced").value(t.podsPlaced);
    w.key("podsUnplaced").value(t.podsUnplaced);
    // The sum, then its two parts: the DaemonSet and mirror pods, and the terminating pods.
    w.key("podsRemovedWithNodes").value(t.podsRemovedWithNodes);
    w.key("daemonSetPodsRemovedWithNodes").value(t.podsRemovedWithNodes - terminatingRemoved);
    w.key("terminatingPodsRemovedWithNodes").value(terminatingRemoved);
    w.key("costPerHour").value(t.costPerHour);
    if (f) {
        w.key("pendingPods").value(f->pendingPods);
        // Exact to the milli-GPU, as the report writes it (reportMilli()).
        w.key("fragmentedGpus");
        std::isnan(f->fragmentedGpus) ? w.null() : w.rawValue(formatMilliDecimal(std::llround(f->fragmentedGpus * 1000.0)));
        if (f->idleAllocatedGpus >= 0)
            w.key("idleAllocatedGpus").value(f->idleAllocatedGpus);
    }
    w.endObject();
}

std::string counted(std::size_t n, const char* one, const char* many)
{
    return model::formatCount(static_cast<std::int64_t>(n)) + " " + (n == 1 ? one : many);
}

} // namespace

std::int64_t terminatingPodsRemovedWithNodes(const PlanEvaluation& e, const model::ClusterStore& store)
{
    std::vector<bool> removed(store.nodeCount(), false);
    bool any = false;
    for (const model::AppliedAction& a : e.actions)
        for (const model::NodeId n : a.nodesRemoved)
            if (n.index() < removed.size())
                removed[n.index()] = any = true;
    if (!any)
        return 0;
    // Where each pod the actions moved ended (its last change); a pod no change names is where
    // it was loaded. Only the terminating ones are asked about.
    std::unordered_map<std::uint32_t, model::NodeId> moved;
    for (const model::AppliedAction& a : e.actions)
        for (const auto& c : a.changes)
            if (c.pod.index() < store.podCount() && (store.podFlags(c.pod) & model::PodFlagTerminating))
                moved[c.pod.value] = c.to;
    std::int64_t count = 0;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        if (!(store.podFlags(p) & model::PodFlagTerminating) || !store.podIsCounted(p))
            continue;
        const model::NodeId at = store.podNode(p);
        if (!at.isValid() || at.index() >= removed.size() || !removed[at.index()])
            continue;
        const auto it = moved.find(p.value);
        if (it == moved.end() || it->second == at)
            ++count;
    }
    return count;
}

NotHoldingEffect notHoldingEffect(const model::AppliedAction& a)
{
    using model::ActionType;
    if (a.action.type == ActionType::FailNode || a.action.type == ActionType::FailDomain)
        return a.nodesRemoved.empty() ? NotHoldingEffect::NotApplied : NotHoldingEffect::Stranding;
    if (!a.changes.empty() || !a.nodesAdded.empty() || !a.nodesRemoved.empty() || !a.podsAdded.empty())
        return NotHoldingEffect::Partial;
    // A drain of a node that is there cordons it before it tries its pods, whether any can go.
    if (a.action.type == ActionType::DrainNode)
        for (const model::Reason& r : a.reasons)
            if (r.kind != model::ReasonKind::NodeGone && r.kind != model::ReasonKind::NotFound && r.kind != model::ReasonKind::Unsupported)
                return NotHoldingEffect::Partial;
    return NotHoldingEffect::NotApplied;
}

std::string notHoldingEffectText(const model::AppliedAction& a)
{
    if (a.holds)
        return {};
    switch (notHoldingEffect(a)) {
    case NotHoldingEffect::NotApplied:
        return "not applied: it changes nothing";
    case NotHoldingEffect::Stranding:
        return "applied: " + counted(a.nodesRemoved.size(), "node fails", "nodes fail") + ", "
            + counted(a.unplaced.size(), "pod", "pods") + " left without a node";
    case NotHoldingEffect::Partial:
        break;
    }
    switch (a.action.type) {
    case model::ActionType::DrainNode:
        return "applied in part: " + counted(a.changes.size(), "pod moved", "pods moved") + ", "
            + (a.unplaced.empty() ? std::string("the node stays, cordoned") : counted(a.unplaced.size(), "pod stays", "pods stay") + " on the cordoned node");
    case model::ActionType::MovePod:
        return "applied although it does not fit (override)";
    case model::ActionType::PlacePods:
    case model::ActionType::PlaceWorkload:
        return "applied in part: " + counted(a.changes.size(), "pod placed", "pods placed");
    default:
        return "applied in part";
    }
}

std::string actionNumber(std::size_t index)
{
    return "#" + std::to_string(index + 1);
}

std::string evaluationJson(const std::string& planName, const PlanEvaluation& e, const model::ClusterStore& store, const EvaluationFigures* figures, std::int64_t unpricedNodes)
{
    JsonWriter w;
    w.beginObject();
    w.key("plan").value(planName);
    w.key("holds").value(e.allHold());
    w.key("state");
    writePlanSource(w, e.state);
    if (!e.sourceNote.empty())
        w.key("sourceNote").value(e.sourceNote);
    w.key("actions").beginArray();
    for (std::size_t i = 0; i < e.actions.size(); ++i) {
        const model::AppliedAction& a = e.actions[i];
        w.beginObject();
        w.key("index").value(static_cast<std::int64_t>(i));
        w.key("type").value(model::actionTypeName(a.action.type));
        w.key("subject").value(planActionSubject(a.action));
        w.key("holds").value(a.holds);
        w.key("reasons");
        writeReasonsJson(w, a.reasons);
        w.key("changes").beginArray();
        for (const auto& c : a.changes) {
            w.beginObject();
            w.key("pod").value(podNameOf(store, e, c.pod));
            w.key("from");
            c.from.isValid() ? w.value(nodeNameOf(store, e, c.from)) : w.null();
            w.key("to");
            c.to.isValid() ? w.value(nodeNameOf(store, e, c.to)) : w.null();
            w.endObject();
        }
        w.endArray();
        if (!a.nodesAdded.empty() || !a.nodesRemoved.empty()) {
            w.key("nodesAdded").beginArray();
            for (const model::NodeId n : a.nodesAdded)
                w.value(nodeNameOf(store, e, n));
            w.endArray();
            w.key("nodesRemoved").beginArray();
            for (const model::NodeId n : a.nodesRemoved)
                w.value(nodeNameOf(store, e, n));
            w.endArray();
        }
        if (!a.unplaced.empty()) {
            w.key("unplaced").beginArray();
            for (const auto& [pod, reasons] : a.unplaced) {
                w.beginObject();
                w.key("pod").value(podNameOf(store, e, pod));
                w.key("reasons");
                writeReasonsJson(w, reasons);
                w.endObject();
            }
            w.endArray();
        }
        w.endObject();
    }
    w.endArray();
    w.key("before");
    writeTotals(w, e.before, 0, figures ? &figures->before : nullptr);
    // Usage is measured, not planned: given once, before.
    std::optional<model::FleetFigures> after;
    if (figures) {
        after = figures->after;
        after->idleAllocatedGpus = -1;
    }
    w.key("after");
    writeTotals(w, e.after, terminatingPodsRemovedWithNodes(e, store), after ? &*after : nullptr);
    if (unpricedNodes >= 0)
        w.key("unpricedNodes").value(unpricedNodes);
    w.endObject();
    return w.text() + "\n";
}

std::string evaluationText(const std::string& planName, const PlanEvaluation& e, const model::ClusterStore& store, const std::vector<double>* nodePrices)
{
    // Every line that names input (the plan's path, action subjects, reasons naming pods,
    // nodes, labels and taints) goes through terminalLine(): one terminal line each, with no
    // control byte.
    // Counts with thousands separators, dollars to the cent ("$4,283.39"), GPUs whole where
    // they are (model/figures.h): the text is read; --format json keeps plain numbers.
    auto n = [](auto v) { return model::formatCount(static_cast<std::int64_t>(v)); };
    std::string out = "plan " + terminalLine(planName) + ": " + counted(e.actions.size(), "action", "actions") + ", ";
    const auto broken = std::count_if(e.actions.begin(), e.actions.end(), [](const auto& a) { return !a.holds; });
    out += broken == 0 ? "all hold\n" : n(broken) + (broken == 1 ? " does not hold\n" : " do not hold\n");
    if (!e.sourceNote.empty())
        out += "  note: " + terminalLine(e.sourceNote) + "\n";
    for (std::size_t i = 0; i < e.actions.size(); ++i) {
        const model::AppliedAction& a = e.actions[i];
        out += "  " + actionNumber(i) + " " + std::string(model::actionTypeName(a.action.type)) + " " + terminalLine(planActionSubject(a.action))
            + ": " + (a.holds ? "holds" : "DOES NOT HOLD, " + notHoldingEffectText(a));
        if (!a.changes.empty()) {
            const bool placing = a.action.type == model::ActionType::PlacePods || a.action.type == model::ActionType::PlaceWorkload;
            out += " (" + counted(a.changes.size(), "pod", "pods")
                + (placing ? " placed)" : " moved or stopped)");
        }
        out += "\n";
        for (const model::Reason& r : a.reasons)
            out += "      " + terminalLine(r.code() + ": " + r.message) + "\n";
    }
    // Store nodes without a price, before the plan and after it (those it removed taken off):
    // their cost is not $0, so a sum that leaves them out says so.
    std::int64_t unpricedBefore = 0, unpricedAfter = 0;
    if (nodePrices) {
        auto unpriced = [&](model::NodeId n) {
            return n.index() < store.nodeCount() && !store.nodeIsDeleted(n) && !(n.index() < nodePrices->size() && (*nodePrices)[n.index()] > 0);
        };
        for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
            unpricedBefore += unpriced(model::NodeId(i)) ? 1 : 0;
        unpricedAfter = unpricedBefore;
        for (const model::AppliedAction& a : e.actions)
            for (const model::NodeId n : a.nodesRemoved)
                unpricedAfter -= unpriced(n) ? 1 : 0;
    }
    auto totals = [&](const char* label, const model::PlanTotals& t, std::int64_t unpriced, std::int64_t terminating) {
        std::string cost;
        if (unpriced > 0 && unpriced >= t.nodes)
            cost = "cost unknown (no node priced)";
        else if (unpriced > 0)
            cost = "cost " + dollarsPerHourExact(t.costPerHour) + " and " + counted(static_cast<std::size_t>(unpriced), "unpriced node", "unpriced nodes");
        else
            cost = "cost " + dollarsPerHourExact(t.costPerHour);
        // "evicted, no node": pods the plan took off a node and placed nowhere (pending pods that
        // stay pending are not among them); "removed with their nodes": the DaemonSet and mirror
        // pods of the nodes it removed, which go with their node, and apart (when there are any)
        // the terminating pods that were leaving them.
        // GPUs: allocatable nvidia.com/gpu of the present nodes (PlanTotals::gpus), the figure of
        // the Plan dock and reports; the window's status bar counts physical devices instead (a
        // MIG-partitioned GPU once), so the label names the resource.
        char head[16];
        std::snprintf(head, sizeof head, "%-7s ", label);
        out += std::string(head) + "nodes " + n(t.nodes) + " (in use " + n(t.nodesInUse) + ", empty " + n(t.nodesEmpty) + "), GPUs (allocatable nvidia.com/gpu) " + n(t.gpus)
            + " (allocated " + model::formatGpus(t.gpuMilliAllocated) + "), pods placed " + n(t.podsPlaced) + ", evicted with no node "
            + n(t.podsUnplaced) + ", DaemonSet and mirror pods removed with their nodes " + n(t.podsRemovedWithNodes - terminating)
            + (terminating > 0 ? ", terminating pods removed with their nodes " + n(terminating) : std::string()) + ", " + cost + "\n";
    };
    totals("before:", e.before, unpricedBefore, 0);
    totals("after:", e.after, unpricedAfter, terminatingPodsRemovedWithNodes(e, store));
    return out;
}

std::string notHoldingText(const PlanEvaluation& e, std::size_t listed)
{
    std::string out;
    std::size_t shown = 0;
    std::size_t more = 0;
    for (std::size_t i = 0; i < e.actions.size(); ++i) {
        const model::AppliedAction& a = e.actions[i];
        if (a.holds)
            continue;
        if (shown == listed) {
            ++more;
            continue;
        }
        std::string codes; // each code once (a drain has one per pod that finds no node)
        std::set<std::string> seen;
        for (const model::Reason& r : a.reasons)
            if (seen.insert(r.code()).second)
                codes += (codes.empty() ? "" : " ") + r.code();
        out += (shown++ ? "; " : "") + actionNumber(i) + " " + std::string(model::actionTypeName(a.action.type)) + " "
            + terminalLine(planActionSubject(a.action)) + (codes.empty() ? "" : " (" + terminalLine(codes) + ")");
    }
    if (more > 0)
        out += "; and " + model::formatCount(static_cast<std::int64_t>(more)) + " more";
    return out;
}

} // namespace fleet::importers
