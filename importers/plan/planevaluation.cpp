// SPDX-License-Identifier: Apache-2.0
// evaluatePlan and its outputs: the evaluation as JSON and text (`plan check`) (planfile.h); the
// CSV and the kubectl script are in importers/export/planexport.cpp.
#include "planfile.h"
#include "planevaluation.h"

#include "importers/terminaltext.h"
#include "jsontext.h"
#include "plansource.h"
#include "podtemplate.h"

#include "model/plan/notfounderror.h"
#include "model/topology.h"

#include <algorithm>
#include <set>

namespace fleet::importers {

std::string nodeNameOf(const model::ClusterStore& store, const PlanEvaluation& e, model::NodeId n)
{
    if (!n.isValid())
        return {};
    if (n.index() < store.nodeCount())
        return std::string(store.nodeName(n));
    const std::size_t i = n.index() - store.nodeCount();
    return i < e.addedNodeNames.size() ? e.addedNodeNames[i] : "(added node " + std::to_string(i + 1) + ")";
}

// A pod the plan added (place-pods) is not in the store: its namespace is its template's.
std::pair<std::string, std::string> podNamesOf(const model::ClusterStore& store, const PlanEvaluation& e, model::PodId p)
{
    if (p.index() < store.podCount())
        return { std::string(store.podNamespace(p)), std::string(store.podName(p)) };
    const std::size_t i = p.index() - store.podCount();
    return i < e.addedPods.size() ? e.addedPods[i] : std::pair<std::string, std::string> { "", "(added pod " + std::to_string(i + 1) + ")" };
}

std::string podNameOf(const model::ClusterStore& store, const PlanEvaluation& e, model::PodId p)
{
    const auto [ns, name] = podNamesOf(store, e, p);
    return ns + "/" + name;
}

namespace {

void writeTotals(JsonWriter& w, const model::PlanTotals& t)
{
    w.beginObject();
    w.key("nodes").value(t.nodes);
    w.key("nodesInUse").value(t.nodesInUse);
    w.key("nodesEmpty").value(t.nodesEmpty);
    w.key("gpus").value(t.gpus);
    w.key("gpuMilliAllocated").value(t.gpuMilliAllocated);
    w.key("podsPlaced").value(t.podsPlaced);
    w.key("podsUnplaced").value(t.podsUnplaced);
    w.key("podsRemovedWithNodes").value(t.podsRemovedWithNodes);
    w.key("costPerHour").value(t.costPerHour);
    w.endObject();
}

void writeReasons(JsonWriter& w, const std::vector<model::Reason>& reasons)
{
    w.beginArray();
    for (const model::Reason& r : reasons) {
        w.beginObject();
        w.key("code").value(r.code());
        w.key("message").value(r.message);
        w.endObject();
    }
    w.endArray();
}

// What the action names, in a few words ("drain-node ip-10-0-0-1").
std::string actionSubject(const model::PlanAction& a)
{
    switch (a.type) {
    case model::ActionType::MovePod:
        return a.pod.namespaceName + "/" + a.pod.name + " -> " + a.node + (a.override ? " (override)" : "");
    case model::ActionType::DrainNode:
    case model::ActionType::FailNode:
        return a.node;
    case model::ActionType::AddNode:
        return std::to_string(a.count) + " x " + a.instanceType + (a.domain.empty() ? "" : " in " + a.domain);
    case model::ActionType::FailDomain:
        return a.domain;
    case model::ActionType::PlaceWorkload:
        return (a.workloadKind.empty() ? "" : a.workloadKind + " ") + a.workloadNamespace + "/" + a.workloadName
            + (a.domain.empty() ? "" : " in " + a.domain);
    case model::ActionType::PlacePods: {
        std::string out = std::to_string(a.count) + " x " + a.pod.namespaceName + "/" + a.pod.name;
        if (!a.requiredLevel.empty())
            out += ", required " + a.requiredLevel;
        if (!a.preferredLevel.empty())
            out += ", preferred " + a.preferredLevel;
        if (a.sliceSize > 0)
            out += ", slices of " + std::to_string(a.sliceSize) + " per " + a.sliceLevel;
        if (!a.keepWithinLevel.empty())
            out += ", within one " + a.keepWithinLevel;
        return out + (a.gang ? ", gang" : "");
    }
    }
    return {};
}

} // namespace

std::string joinedCodes(const std::vector<model::Reason>& reasons)
{
    std::string out;
    for (const model::Reason& r : reasons)
        out += (out.empty() ? "" : " ") + r.code();
    return out;
}

std::size_t addPlanTemplatePods(model::ClusterStore& store, const PlanDocument& plan, const std::string& planName)
{
    std::size_t added = 0;
    for (std::size_t i = 0; i < plan.actions.size(); ++i) {
        const model::PlanAction& a = plan.actions[i];
        if (a.type != model::ActionType::PlacePods)
            continue;
        bool found = false;
        for (std::uint32_t p = 0; p < store.podCount() && !found; ++p)
            found = store.podName(model::PodId(p)) == a.pod.name && store.podNamespace(model::PodId(p)) == a.pod.namespaceName;
        if (found)
            continue;
        const std::string where = planName + ": at $.actions[" + std::to_string(i) + "]";
        if (a.podTemplate.empty())
            throw PlanFileError(where + ": the template pod " + a.pod.namespaceName + "/" + a.pod.name
                + " is not in the cluster state and the action has no podTemplate");
        try {
            const model::PodId p = addTemplatePod(store, a.podTemplate, where + ".podTemplate");
            if (store.podNamespace(p) != a.pod.namespaceName || store.podName(p) != a.pod.name)
                throw std::runtime_error(where + ".podTemplate: names " + std::string(store.podNamespace(p)) + "/" + std::string(store.podName(p))
                    + ", not the action's pod " + a.pod.namespaceName + "/" + a.pod.name);
        } catch (const PlanFileError&) {
            throw;
        } catch (const std::exception& e) {
            throw PlanFileError(e.what());
        }
        ++added;
    }
    return added;
}

bool PlanEvaluation::allHold() const
{
    return std::all_of(actions.begin(), actions.end(), [](const model::AppliedAction& a) { return a.holds; });
}

PlanEvaluation evaluatePlan(
    const model::ClusterStore& store, const model::Topology& topology, const PlanDocument& plan, std::vector<double> nodePricePerHour)
{
    model::PlanEngine engine(store, topology, std::move(nodePricePerHour));
    return evaluatePlanOn(engine, plan);
}

PlanEvaluation evaluatePlanOn(model::PlanEngine& engine, const PlanDocument& plan)
{
    const model::ClusterStore& store = engine.state().store();
    PlanEvaluation e;
    e.before = engine.state().totals();
    for (const model::PlanAction& a : plan.actions) {
        try {
            e.actions.push_back(engine.apply(a));
        } catch (const model::NotFoundError& err) {
            model::AppliedAction r;
            r.action = a;
            r.holds = false;
            r.before = r.after = engine.state().totals();
            r.reasons.push_back(model::makeReason(model::ReasonKind::NotFound, err.detail(), err.what()));
            e.actions.push_back(std::move(r));
        } catch (const std::invalid_argument& err) {
            model::AppliedAction r;
            r.action = a;
            r.holds = false;
            r.before = r.after = engine.state().totals();
            r.reasons.push_back(model::makeReason(model::ReasonKind::Unsupported, std::string(model::actionTypeName(a.type)), err.what()));
            e.actions.push_back(std::move(r));
        }
    }
    e.after = engine.state().totals();
    e.addedNodeNames = addedNodeNames(engine.state());
    const model::PlanLedger& state = engine.state();
    for (std::size_t i = store.podCount(); i < state.podCount(); ++i) {
        const model::PodId p(static_cast<std::uint32_t>(i));
        e.addedPods.emplace_back(std::string(store.podNamespace(state.podTemplate(p))), std::string(state.podName(p)));
    }
    return e;
}

std::string planActionSubject(const model::PlanAction& action)
{
    return actionSubject(action);
}

std::vector<std::string> addedNodeNames(const model::PlanLedger& state)
{
    std::vector<std::string> names;
    for (std::size_t i = state.store().nodeCount(); i < state.nodeCount(); ++i)
        names.emplace_back(state.nodeName(model::NodeId(static_cast<std::uint32_t>(i))));
    return names;
}

std::string evaluationJson(const std::string& planName, const PlanEvaluation& e, const model::ClusterStore& store)
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
        w.key("subject").value(actionSubject(a.action));
        w.key("holds").value(a.holds);
        w.key("reasons");
        writeReasons(w, a.reasons);
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
                writeReasons(w, reasons);
                w.endObject();
            }
            w.endArray();
        }
        w.endObject();
    }
    w.endArray();
    w.key("before");
    writeTotals(w, e.before);
    w.key("after");
    writeTotals(w, e.after);
    w.endObject();
    return w.text() + "\n";
}

std::string evaluationText(const std::string& planName, const PlanEvaluation& e, const model::ClusterStore& store)
{
    // Every line that names input (the plan's path, action subjects, reasons naming pods,
    // nodes, labels and taints) goes through terminalLine(): one terminal line each, with no
    // control byte.
    std::string out = "plan " + terminalLine(planName) + ": " + std::to_string(e.actions.size()) + " action" + (e.actions.size() == 1 ? "" : "s") + ", ";
    const auto broken = std::count_if(e.actions.begin(), e.actions.end(), [](const auto& a) { return !a.holds; });
    out += broken == 0 ? "all hold\n" : std::to_string(broken) + " do not hold\n";
    if (!e.sourceNote.empty())
        out += "  note: " + terminalLine(e.sourceNote) + "\n";
    for (std::size_t i = 0; i < e.actions.size(); ++i) {
        const model::AppliedAction& a = e.actions[i];
        out += "  [" + std::to_string(i) + "] " + std::string(model::actionTypeName(a.action.type)) + " " + terminalLine(actionSubject(a.action))
            + ": " + (a.holds ? "holds" : "DOES NOT HOLD");
        if (!a.changes.empty()) {
            const bool placing = a.action.type == model::ActionType::PlacePods || a.action.type == model::ActionType::PlaceWorkload;
            out += " (" + std::to_string(a.changes.size()) + " pod" + (a.changes.size() == 1 ? "" : "s")
                + (placing ? " placed)" : " moved or stopped)");
        }
        out += "\n";
        for (const model::Reason& r : a.reasons)
            out += "      " + terminalLine(r.code() + ": " + r.message) + "\n";
    }
    auto totals = [&](const char* label, const model::PlanTotals& t) {
        char buf[400];
        std::snprintf(buf, sizeof buf,
            "%-7s nodes %lld (in use %lld, empty %lld), GPUs %lld (allocated %.1f), pods placed %lld, unplaced %lld, "
            "DaemonSet pods removed with their nodes %lld, cost %.2f/h\n",
            label, static_cast<long long>(t.nodes), static_cast<long long>(t.nodesInUse), static_cast<long long>(t.nodesEmpty),
            static_cast<long long>(t.gpus), static_cast<double>(t.gpuMilliAllocated) / 1000.0, static_cast<long long>(t.podsPlaced),
            static_cast<long long>(t.podsUnplaced), static_cast<long long>(t.podsRemovedWithNodes), t.costPerHour);
        out += buf;
    };
    totals("before:", e.before);
    totals("after:", e.after);
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
        out += (shown++ ? "; [" : "[") + std::to_string(i) + "] " + std::string(model::actionTypeName(a.action.type)) + " "
            + terminalLine(actionSubject(a.action)) + (codes.empty() ? "" : " (" + terminalLine(codes) + ")");
    }
    if (more > 0)
        out += "; and " + std::to_string(more) + " more";
    return out;
}

} // namespace fleet::importers
