// SPDX-License-Identifier: Apache-2.0
// evaluatePlan (planfile.h); what it writes (`plan check`'s JSON and text, the CSV and the kubectl
// script) is in importers/export/.
#include "planfile.h"
#include "planevaluation.h"

#include "importers/terminaltext.h"
#include "jsontext.h"
#include "plansource.h"
#include "podtemplate.h"

#include "model/plan/notfounderror.h"
#include "model/topology.h"

#include <algorithm>

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

PlanEvaluation evaluatePlanOn(model::PlanEngine& engine, const PlanDocument& plan, ActionRecords records)
{
    const model::ClusterStore& store = engine.state().store();
    PlanEvaluation e;
    e.before = engine.state().totals();
    bool copying = records == ActionRecords::Copied;
    if (copying)
        e.actions.reserve(plan.actions.size());
    // An action the engine refused to start is recorded here only; from the first one on, the
    // evaluation keeps every record (the engine's so far copied first, so the order is the plan's).
    const auto refused = [&](model::AppliedAction r) {
        if (!copying) {
            e.actions.reserve(plan.actions.size());
            e.actions.assign(engine.applied().begin(), engine.applied().end());
            copying = true;
        }
        e.actions.push_back(std::move(r));
    };
    for (const model::PlanAction& a : plan.actions) {
        try {
            const model::AppliedAction& applied = engine.apply(a);
            if (copying)
                e.actions.push_back(applied);
        } catch (const model::NotFoundError& err) {
            model::AppliedAction r;
            r.action = a;
            r.holds = false;
            r.before = r.after = engine.state().totals();
            r.reasons.push_back(model::makeReason(model::ReasonKind::NotFound, err.detail(), err.what()));
            refused(std::move(r));
        } catch (const std::invalid_argument& err) {
            model::AppliedAction r;
            r.action = a;
            r.holds = false;
            r.before = r.after = engine.state().totals();
            r.reasons.push_back(model::makeReason(model::ReasonKind::Unsupported, std::string(model::actionTypeName(a.type)), err.what()));
            refused(std::move(r));
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

} // namespace fleet::importers
