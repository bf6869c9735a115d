// SPDX-License-Identifier: Apache-2.0
#include "planstaleness.h"

#include "model/resourceamount.h"
#include "model/scheduling/matching.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace fleet::model {

namespace {

std::string podKey(std::string_view ns, std::string_view name)
{
    std::string k(ns);
    k += '/';
    k += name;
    return k;
}

/// What the batch does to pods and nodes, by name: the reason each becomes stale.
struct BatchIndex {
    std::unordered_map<std::string, std::string> pods, nodes; // key -> why
    const ClusterChangeBatch* batch = nullptr;
    std::unordered_set<std::string> heldPods, heldNodes; // a relist: what it still holds
};

std::string podChange(const ClusterStore& store, PodId p, const ClusterStore& in, PodId q)
{
    const std::string name = podKey(in.podNamespace(q), in.podName(q));
    if (!p.isValid())
        return "pod " + name + " was created again";
    if (!store.podUid(p).empty() && !in.podUid(q).empty() && store.podUid(p) != in.podUid(q))
        return "pod " + name + " was recreated (another uid)";
    if (store.podPhase(p) != in.podPhase(q))
        return "pod " + name + " is now " + std::string(podPhaseName(in.podPhase(q)));
    if (store.podNodeName(p) != in.podNodeName(q))
        return in.podNodeName(q).empty() ? "pod " + name + " is now Pending"
                                         : "pod " + name + " is now on node " + std::string(in.podNodeName(q));
    if (!(store.podRequest(p) == in.podRequest(q)))
        return "pod " + name + " changed its requests";
    return "pod " + name + " changed";
}

std::string nodeChange(const ClusterStore& store, NodeId n, const ClusterStore& in, NodeId m)
{
    const std::string name(in.nodeName(m));
    if (!n.isValid())
        return "node " + name + " was added";
    if (in.nodeReadiness(m) != Readiness::True && store.nodeReadiness(n) == Readiness::True)
        return "node " + name + " is now NotReady";
    if (in.nodeReadiness(m) == Readiness::True && store.nodeReadiness(n) != Readiness::True)
        return "node " + name + " is Ready again";
    if (in.nodeUnschedulable(m) != store.nodeUnschedulable(n))
        return "node " + name + (in.nodeUnschedulable(m) ? " was cordoned" : " was uncordoned");
    if (!(in.nodeAllocatable(m) == store.nodeAllocatable(n)))
        return "node " + name + " changed its allocatable";
    return "node " + name + " changed";
}

/// What the batch does to the store nodes placed pods are on: the batch's node by name, and
/// each node's change of requests under the plan (its pods bound there, resized, moved off or
/// deleted; pods the plan moved or evicted keep their planned node). Built once per batch.
struct PlacedNodes {
    std::unordered_map<std::string_view, NodeId> batchNode;
    std::unordered_map<std::uint32_t, ResourceVector> delta; // by store NodeId
    PlacedNodes(const PlanLedger& state, const ClusterChangeBatch& batch)
    {
        const ClusterStore& store = state.store();
        const ClusterStore& in = batch.upserted;
        for (std::uint32_t i = 0; i < in.nodeCount(); ++i)
            batchNode.emplace(in.nodeName(NodeId(i)), NodeId(i));
        auto takeOff = [&](PodId p) {
            if (p.isValid() && !state.podChanged(p) && !store.podIsTerminal(p))
                if (const NodeId n = state.podNode(p); n.isValid())
                    delta[n.value] -= store.podRequest(p);
        };
        for (std::uint32_t i = 0; i < in.podCount(); ++i) {
            const PodId q(i);
            const PodId p = store.findPod(in.podNamespace(q), in.podName(q));
            if (p.isValid() && state.podChanged(p))
                continue; // the plan moved or evicted it: it stays where the plan put it
            takeOff(p);
            if (in.podIsTerminal(q) || in.podNodeName(q).empty())
                continue;
            if (const NodeId n = store.findNode(in.podNodeName(q)); n.isValid())
                delta[n.value] += in.podRequest(q);
        }
        for (const auto& [ns, name] : batch.deletedPods)
            takeOff(store.findPod(ns, name));
    }
};

/// Why the batch leaves store node n unable to hold the pods the plan placed on it ("" when it
/// still does): see findStaleActions(state) in the header. `placed` is one of them (named in
/// the reason); `nodeWhy` the batch's reason for the node itself.
std::string placedPodWhy(const PlanLedger& state, const PlacedNodes& nodes, NodeId n, PodId placed, const std::string& nodeWhy,
    const ClusterStore& in)
{
    const ClusterStore& store = state.store();
    const PodId templ = state.podTemplate(placed);
    const std::string who = "placed pod " + podKey(store.podNamespace(templ), state.podName(placed));
    const std::string name(store.nodeName(n));
    if (nodeWhy.ends_with("was deleted") || nodeWhy.ends_with("(relist)") || nodeWhy.ends_with("is now NotReady")
        || nodeWhy.ends_with("was cordoned"))
        return who + ": " + nodeWhy;
    const auto batchNode = nodes.batchNode.find(name);
    const NodeId m = batchNode == nodes.batchNode.end() ? NodeId() : batchNode->second;
    // Taints it got that the placed pod does not tolerate (the TaintToleration filter's rule).
    if (m.isValid()) {
        const std::span<const Taint> before = store.nodeTaints(n);
        for (const Taint& t : in.nodeTaints(m)) {
            if (t.effect != TaintEffect::NoSchedule && t.effect != TaintEffect::NoExecute)
                continue;
            // In the store's strings; a text the store lacks stays invalid: no toleration names it.
            const Taint here { store.strings().find(in.str(t.key)), store.strings().find(in.str(t.value)), t.effect };
            if (here.key.isValid() && std::find(before.begin(), before.end(), here) != before.end())
                continue; // it had it when the pods were placed
            if (scheduling::toleratesTaint(store.podTolerations(templ), here))
                continue;
            std::string taint(in.str(t.key));
            if (!in.str(t.value).empty())
                taint += "=" + std::string(in.str(t.value));
            taint += ":" + std::string(taintEffectName(t.effect));
            return who + ": node " + name + " was tainted " + taint + ", which it does not tolerate";
        }
    }
    // Room: the node's requests under the plan, changed by the batch, against its allocatable.
    const auto d = nodes.delta.find(n.value);
    if (d == nodes.delta.end() && !m.isValid())
        return {};
    ResourceVector requested = state.nodeRequested(n);
    if (d != nodes.delta.end())
        requested += d->second;
    const ResourceVector& allocatable = m.isValid() ? in.nodeAllocatable(m) : state.nodeAllocatable(n);
    const ResourceVector& need = store.podRequest(templ);
    for (const CoreResource r : { CoreResource::Pods, CoreResource::Cpu, CoreResource::Memory, CoreResource::EphemeralStorage, CoreResource::Gpu }) {
        if (r != CoreResource::Pods && need[r] <= 0)
            continue;
        if (allocatable[r] < requested[r]) // fit.go: insufficient when allocatable < requested
            return who + ": node " + name + " lost the room it needs: " + formatAmount(r, requested[r]) + " " + std::string(coreResourceName(r))
                + " requested of " + formatAmount(r, allocatable[r]) + " allocatable";
    }
    return {};
}

std::vector<StaleAction> findStale(
    const std::vector<AppliedAction>& applied, const ClusterStore& store, const PlanLedger* state, const ClusterChangeBatch& batch)
{
    BatchIndex b;
    const ClusterStore& in = batch.upserted;
    for (const auto& [ns, name] : batch.deletedPods)
        b.pods.emplace(podKey(ns, name), "pod " + podKey(ns, name) + " was deleted");
    for (const std::string& name : batch.deletedNodes)
        b.nodes.emplace(name, "node " + name + " was deleted");
    for (std::uint32_t i = 0; i < in.podCount(); ++i) {
        const PodId q(i);
        b.pods.emplace(podKey(in.podNamespace(q), in.podName(q)), podChange(store, store.findPod(in.podNamespace(q), in.podName(q)), in, q));
        if (batch.replacesAll)
            b.heldPods.insert(podKey(in.podNamespace(q), in.podName(q)));
    }
    for (std::uint32_t i = 0; i < in.nodeCount(); ++i) {
        const NodeId m(i);
        b.nodes.emplace(std::string(in.nodeName(m)), nodeChange(store, store.findNode(in.nodeName(m)), in, m));
        if (batch.replacesAll)
            b.heldNodes.insert(std::string(in.nodeName(m)));
    }
    auto podWhy = [&](const std::string& key) -> std::string {
        if (const auto it = b.pods.find(key); it != b.pods.end()) {
            // A relist re-sends every pod: only a real change counts.
            if (!batch.replacesAll || it->second.ends_with("was deleted") || !it->second.ends_with(" changed"))
                return it->second;
            return {};
        }
        if (batch.replacesAll && !b.heldPods.contains(key))
            return "pod " + key + " is gone (relist)";
        return {};
    };
    auto nodeWhy = [&](const std::string& name) -> std::string {
        if (name.empty())
            return {};
        if (const auto it = b.nodes.find(name); it != b.nodes.end()) {
            if (!batch.replacesAll || !it->second.ends_with(" changed"))
                return it->second;
            return {};
        }
        if (batch.replacesAll && !b.heldNodes.contains(name))
            return "node " + name + " is gone (relist)";
        return {};
    };
    auto storePod = [&](PodId p) { return p.isValid() && p.index() < store.podCount() ? podKey(store.podNamespace(p), store.podName(p)) : std::string(); };
    auto storeNode = [&](NodeId n) { return n.isValid() && n.index() < store.nodeCount() ? std::string(store.nodeName(n)) : std::string(); };

    std::optional<PlacedNodes> placed;
    if (state && std::any_of(applied.begin(), applied.end(), [](const AppliedAction& a) { return a.action.type == ActionType::PlacePods; }))
        placed.emplace(*state, batch);

    std::vector<StaleAction> out;
    for (std::size_t i = 0; i < applied.size(); ++i) {
        const AppliedAction& a = applied[i];
        std::string why;
        if (placed && a.action.type == ActionType::PlacePods) {
            // The pods it placed, each store node once.
            std::vector<NodeId> seen;
            for (std::size_t k = 0; why.empty() && k < a.changes.size(); ++k) {
                const AppliedAction::PodChange& c = a.changes[k];
                if (!c.to.isValid() || c.to.index() >= store.nodeCount() || !state->podAdded(c.pod)
                    || std::find(seen.begin(), seen.end(), c.to) != seen.end())
                    continue;
                seen.push_back(c.to);
                why = placedPodWhy(*state, *placed, c.to, c.pod, nodeWhy(std::string(store.nodeName(c.to))), in);
            }
        }
        if (why.empty() && !a.action.pod.name.empty())
            why = podWhy(podKey(a.action.pod.namespaceName, a.action.pod.name));
        if (why.empty())
            why = nodeWhy(a.action.node);
        for (std::size_t k = 0; why.empty() && k < a.changes.size(); ++k) {
            if (placed && a.action.type == ActionType::PlacePods && state->podAdded(a.changes[k].pod))
                continue; // judged above, by what the placed pod needs of its node
            if (const std::string key = storePod(a.changes[k].pod); !key.empty())
                why = podWhy(key);
            if (why.empty())
                why = nodeWhy(storeNode(a.changes[k].from));
            if (why.empty())
                why = nodeWhy(storeNode(a.changes[k].to));
        }
        for (std::size_t k = 0; why.empty() && k < a.nodesRemoved.size(); ++k)
            why = nodeWhy(storeNode(a.nodesRemoved[k]));
        for (std::size_t k = 0; why.empty() && k < a.unplaced.size(); ++k)
            if (const std::string key = storePod(a.unplaced[k].first); !key.empty())
                why = podWhy(key);
        if (!why.empty())
            out.push_back({i, std::move(why)});
    }
    return out;
}

} // namespace

std::vector<StaleAction> findStaleActions(const std::vector<AppliedAction>& applied, const ClusterStore& store, const ClusterChangeBatch& batch)
{
    return findStale(applied, store, nullptr, batch);
}

std::vector<StaleAction> findStaleActions(const std::vector<AppliedAction>& applied, const PlanLedger& state, const ClusterChangeBatch& batch)
{
    return findStale(applied, state.store(), &state, batch);
}

} // namespace fleet::model
