// SPDX-License-Identifier: Apache-2.0
#include "planoutcome.h"

#include "statediff.h"

#include "importers/plan/jsontext.h"
#include "importers/plan/planevaluation.h"
#include "importers/terminaltext.h"
#include "model/clusterstore.h"
#include "model/domainpath.h"
#include "model/figures.h"
#include "model/nodeboundpods.h"
#include "model/topology.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace fleet::importers {

using namespace fleet::model;

std::string_view actionOutcomeName(ActionOutcomeKind kind) noexcept
{
    switch (kind) {
    case ActionOutcomeKind::CarriedOut:
        return "carried-out";
    case ActionOutcomeKind::NotCarriedOut:
        return "not-carried-out";
    case ActionOutcomeKind::NoLongerPossible:
        return "no-longer-possible";
    }
    return "not-carried-out";
}

namespace {

using WorkloadKey = std::tuple<std::string_view, OwnerKind, std::string_view>;

WorkloadKey workloadKey(const ClusterStore& s, PodId p)
{
    const WorkloadId w = s.podWorkload(p);
    return w.isValid() ? WorkloadKey { s.podNamespace(p), s.workloadKind(w), s.workloadName(w) }
                       : WorkloadKey { s.podNamespace(p), OwnerKind::None, s.podName(p) };
}

// The pods of a state by namespace/name (live ones).
std::map<std::pair<std::string_view, std::string_view>, PodId> podsByName(const ClusterStore& s)
{
    std::map<std::pair<std::string_view, std::string_view>, PodId> m;
    for (std::uint32_t i = 0; i < s.podCount(); ++i)
        if (!s.podIsDeleted(PodId(i)))
            m.emplace(std::pair(s.podNamespace(PodId(i)), s.podName(PodId(i))), PodId(i));
    return m;
}

// True when node n of `s` lies in the domain a plan names by path ("key=value/..."): each
// step's label (or the pseudo levels' GPU model and instance type) has that value.
bool nodeInDomain(const ClusterStore& s, NodeId n, const std::vector<DomainPathStep>& steps)
{
    for (const auto& [key, value] : steps) {
        std::string_view have;
        if (key == "gpu-model")
            have = s.nodeGpuModel(n);
        else if (key == "instance-type")
            have = s.nodeInstanceType(n);
        else {
            const StringId k = s.strings().find(key);
            have = k.isValid() ? s.str(s.nodeLabel(n, k)) : std::string_view();
        }
        if (have != value)
            return false;
    }
    return true;
}

std::vector<DomainPathStep> stepsOf(const std::string& path)
{
    try {
        return path.empty() ? std::vector<DomainPathStep> {} : parseDomainPath(path);
    } catch (const std::invalid_argument&) {
        return {};
    }
}

// A node a drain empties: no live, non-terminal pod but those bound to it (isNodeBoundPod():
// DaemonSet and mirror pods, which a drain leaves).
bool nodeHoldsMovablePods(const ClusterStore& s, NodeId n)
{
    for (PodId p : s.nodePods(n))
        if (!isNodeBoundPod(s, p))
            return true;
    return false;
}

} // namespace

std::string sharedNodesNote(const ClusterStore& before, const ClusterStore& after, bool aboutPlan)
{
    std::size_t present = 0, shared = 0;
    for (std::uint32_t i = 0; i < before.nodeCount(); ++i) {
        const NodeId n(i);
        if (before.nodeIsDeleted(n))
            continue;
        ++present;
        shared += after.findNode(before.nodeName(n)).isValid() ? 1 : 0;
    }
    if (present == 0 || shared * 2 >= present)
        return {};
    return "the later state has only " + formatCount(static_cast<std::int64_t>(shared)) + " of the earlier state's "
        + formatCount(static_cast<std::int64_t>(present))
        + (aboutPlan ? " nodes (by name): if it is another cluster, the plan's outcome says nothing (its drains read as carried out, its savings as realised)"
                     : " nodes (by name): it may be another cluster");
}

PlanOutcome comparePlanOutcome(const ClusterStore& before, const Topology& beforeTopology, const std::vector<double>& beforePrices,
                               const ClusterStore& after, const Topology& afterTopology, const std::vector<double>& afterPrices,
                               const PlanDocument& plan)
{
    PlanOutcome out;
    const PlanEvaluation planned = evaluatePlan(before, beforeTopology, plan, beforePrices);
    out.plannedSavingsPerHour = planned.before.costPerHour - planned.after.costPerHour;

    const auto beforePods = podsByName(before);
    const auto afterPods = podsByName(after);
    // Nodes and pods the later state has and the earlier did not.
    std::vector<std::uint8_t> newNode(after.nodeCount(), 0);
    for (std::uint32_t i = 0; i < after.nodeCount(); ++i)
        newNode[i] = !after.nodeIsDeleted(NodeId(i)) && !before.findNode(after.nodeName(NodeId(i))).isValid();
    std::vector<std::uint8_t> newNodeUsed(after.nodeCount(), 0);
    auto isNewPod = [&](PodId p) { return !beforePods.count({ after.podNamespace(p), after.podName(p) }); };

    auto nameOf = [&](NodeId n) -> std::string {
        if (!n.isValid())
            return {};
        if (n.index() < before.nodeCount())
            return std::string(before.nodeName(n));
        const std::size_t i = n.index() - before.nodeCount();
        return i < planned.addedNodeNames.size() ? planned.addedNodeNames[i] : std::string();
    };
    std::set<std::string> touched;
    std::set<std::uint32_t> touchedNew; // new nodes of the later state counted for add-node actions

    PlanDocument recheck = plan;
    recheck.actions.clear();
    std::vector<std::size_t> recheckIndex;

    for (std::size_t i = 0; i < plan.actions.size(); ++i) {
        const PlanAction& a = plan.actions[i];
        ActionOutcome o;
        o.index = i;
        o.action = a;
        bool done = false;
        if (i < planned.actions.size()) {
            const AppliedAction& applied = planned.actions[i];
            for (const auto& c : applied.changes) {
                if (c.from.isValid() && c.from.index() < before.nodeCount())
                    touched.insert(nameOf(c.from));
                if (c.to.isValid() && c.to.index() < before.nodeCount())
                    touched.insert(nameOf(c.to));
            }
            for (NodeId n : applied.nodesRemoved)
                if (n.index() < before.nodeCount())
                    touched.insert(nameOf(n));
        }
        switch (a.type) {
        case ActionType::MovePod: {
            const NodeId target = after.findNode(a.node);
            const bool plannedNew = !before.findNode(a.node).isValid(); // a node the plan adds
            const auto it = afterPods.find({ a.pod.namespaceName, a.pod.name });
            if (it != afterPods.end()) {
                const NodeId on = after.podNode(it->second);
                if (on.isValid() && (on == target || (plannedNew && newNode[on.index()]))) {
                    done = true;
                    o.evidence = a.pod.namespaceName + "/" + a.pod.name + " runs on " + std::string(after.nodeName(on));
                } else
                    o.evidence = a.pod.namespaceName + "/" + a.pod.name + " runs on "
                        + (on.isValid() ? std::string(after.nodeName(on)) : std::string("no node"));
            } else {
                const auto was = beforePods.find({ a.pod.namespaceName, a.pod.name });
                if (was != beforePods.end() && target.isValid()) {
                    const WorkloadKey key = workloadKey(before, was->second);
                    for (PodId p : after.nodePods(target))
                        if (isNewPod(p) && std::get<1>(key) != OwnerKind::None && workloadKey(after, p) == key) {
                            done = true;
                            o.evidence = a.pod.namespaceName + "/" + a.pod.name + " was replaced by " + std::string(after.podName(p))
                                + " on " + a.node;
                            break;
                        }
                }
                if (!done)
                    o.evidence = a.pod.namespaceName + "/" + a.pod.name + " is gone";
            }
            break;
        }
        case ActionType::DrainNode:
        case ActionType::FailNode: {
            // The action removes the node: its being gone is the evidence. A node still there
            // counts as drained only when a drain had pods to move off it in the earlier state
            // and none are left; one that was already empty shows nothing done (the same state
            // again read as a quarter of a consolidation carried out, for $0 realised).
            const NodeId n = after.findNode(a.node);
            const NodeId was = before.findNode(a.node);
            const bool heldMovable = was.isValid() && nodeHoldsMovablePods(before, was);
            if (!n.isValid()) {
                done = true;
                o.evidence = a.node + " is gone";
            } else if (nodeHoldsMovablePods(after, n))
                o.evidence = a.node + " still runs pods";
            else if (heldMovable) {
                done = true;
                o.evidence = a.node + " was emptied (it held pods a drain moves, now none) but is still there";
            } else
                o.evidence = a.node + " is still there (it held no pod a drain moves before either)";
            break;
        }
        case ActionType::FailDomain: {
            std::size_t gone = 0, total = 0;
            if (i < planned.actions.size())
                for (NodeId n : planned.actions[i].nodesRemoved) {
                    ++total;
                    gone += !after.findNode(nameOf(n)).isValid();
                }
            done = total > 0 && gone == total;
            o.evidence = formatCount(static_cast<std::int64_t>(gone)) + " of " + formatCount(static_cast<std::int64_t>(total))
                + " nodes of the domain are gone";
            break;
        }
        case ActionType::AddNode: {
            const auto steps = stepsOf(a.domain);
            std::int32_t found = 0;
            for (std::uint32_t n = 0; n < after.nodeCount() && found < a.count; ++n)
                if (newNode[n] && !newNodeUsed[n] && after.nodeInstanceType(NodeId(n)) == a.instanceType
                    && nodeInDomain(after, NodeId(n), steps)) {
                    newNodeUsed[n] = 1;
                    touchedNew.insert(n);
                    ++found;
                }
            done = found >= a.count;
            o.evidence = std::to_string(found) + " of " + std::to_string(a.count) + " new " + a.instanceType + " node"
                + (a.count == 1 ? "" : "s") + " found";
            break;
        }
        case ActionType::PlaceWorkload: {
            const auto steps = stepsOf(a.domain);
            std::size_t inside = 0, total = 0;
            if (i < planned.actions.size())
                for (const auto& c : planned.actions[i].changes) {
                    if (!c.pod.isValid() || c.pod.index() >= before.podCount())
                        continue;
                    ++total;
                    const auto it = afterPods.find({ before.podNamespace(c.pod), before.podName(c.pod) });
                    inside += it != afterPods.end() && after.podNode(it->second).isValid()
                        && nodeInDomain(after, after.podNode(it->second), steps);
                }
            done = total > 0 && inside == total;
            o.evidence = formatCount(static_cast<std::int64_t>(inside)) + " of " + formatCount(static_cast<std::int64_t>(total))
                + " pods run in the domain";
            break;
        }
        case ActionType::PlacePods: {
            const auto was = beforePods.find({ a.pod.namespaceName, a.pod.name });
            std::int32_t running = 0;
            if (was != beforePods.end()) {
                const WorkloadKey key = workloadKey(before, was->second);
                for (std::uint32_t p = 0; p < after.podCount(); ++p)
                    if (!after.podIsDeleted(PodId(p)) && after.podIsCounted(PodId(p)) && isNewPod(PodId(p))
                        && workloadKey(after, PodId(p)) == key)
                        ++running;
            }
            done = running >= a.count;
            o.evidence = std::to_string(running) + " of " + std::to_string(a.count) + " new pods run";
            break;
        }
        }
        o.outcome = done ? ActionOutcomeKind::CarriedOut : ActionOutcomeKind::NotCarriedOut;
        if (!done) {
            recheck.actions.push_back(a);
            recheckIndex.push_back(out.actions.size());
        }
        out.actions.push_back(std::move(o));
    }

    // What was not carried out, applied to the later state in plan order.
    if (!recheck.actions.empty()) {
        const PlanEvaluation now = evaluatePlan(after, afterTopology, recheck, afterPrices);
        for (std::size_t k = 0; k < recheckIndex.size() && k < now.actions.size(); ++k)
            if (!now.actions[k].holds) {
                ActionOutcome& o = out.actions[recheckIndex[k]];
                o.outcome = ActionOutcomeKind::NoLongerPossible;
                o.reasons = now.actions[k].reasons;
            }
    }
    for (const ActionOutcome& o : out.actions)
        ++(o.outcome == ActionOutcomeKind::CarriedOut ? out.carriedOut
               : o.outcome == ActionOutcomeKind::NotCarriedOut ? out.notCarriedOut
                                                                : out.noLongerPossible);

    touched.erase(std::string());
    for (const std::string& name : touched) {
        const NodeId b = before.findNode(name);
        if (b.isValid() && b.index() < beforePrices.size())
            out.touchedThenPerHour += beforePrices[b.index()];
        const NodeId a = after.findNode(name);
        if (a.isValid() && a.index() < afterPrices.size())
            out.touchedNowPerHour += afterPrices[a.index()];
    }
    for (std::uint32_t n : touchedNew) {
        touched.insert(std::string(after.nodeName(NodeId(n))));
        if (n < afterPrices.size())
            out.touchedNowPerHour += afterPrices[n];
    }
    out.touchedNodes.assign(touched.begin(), touched.end());
    return out;
}

} // namespace fleet::importers
