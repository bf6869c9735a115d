// SPDX-License-Identifier: Apache-2.0
// PlanEngine: applies and undoes plan actions over a PlanLedger (plan.h).
//
// Design note: every change an action makes goes through a few primitives (move a pod, evict
// it, set a node present or not, add a node, cordon a node under the plan, spend a disruption)
// that each record an undo step; undo replays the steps of the last action in reverse, so the
// ledger returns exactly to where it was in O(effects). The capacity index (capacityindex.h)
// is re-keyed by the same primitives, so the default policy never scans every node.
//
// Rules beyond the filters (documented in docs/what-if.md and resources/schemas/plan-v1.md):
//  - move-pod of a pod that runs on a node is an eviction: the eviction rules
//    (evictionrules.h) and the PodDisruptionBudgets (disruptionbudgets.h) apply as for a drain.
//    An infeasible or refused move is not applied and not appended to applied() (the returned
//    action says why), unless action.override: then it is applied and marked as a violation
//    (holds = false). DaemonSet and mirror pods never move, override or not, and nothing moves
//    to a node that is not present.
//  - drain-node cordons the node under the plan, evicts its pods largest first (GPU, then cpu,
//    then memory request) and places each by the default policy (or the action's policy:
//    model/placement/drainpolicy.h). A pod that cannot be evicted
//    or placed stays; the node is removed only when nothing but DaemonSet, mirror and finished
//    pods is left, else it stays cordoned under the plan (later actions cannot place pods on it).
//  - fail-node / fail-domain: the nodes disappear; their pods (but DaemonSet and mirror pods)
//    are re-placed by the default policy, largest first, gangs first and each gang as a whole:
//    when any displaced member of a gang cannot be placed, none is and every pod of the gang
//    (its surviving members too: the gang's controller restarts it as a whole) is stranded.
//    A pod without a controller is stranded (nothing recreates it). Budgets do not apply (the
//    disruption is involuntary).
//  - place-workload: every pod of the workload is taken off its node and placed inside the
//    domain by the default policy, largest first; all or nothing (a refused placement is not
//    appended). It models a rollout with a new node affinity, so budgets and eviction rules do
//    not apply; DaemonSet and mirror pods refuse it.
//  - place-pods: new pods like a template, placed by topologyplacement.h (Kueue TAS). Pods a plan
//    added are not re-placed by later drains (the node stays, unsupported:planned-pod) and are
//    stranded by failures: undo the place-pods action to move them.
//  - add-node: `count` nodes copying a store node of the instance type (and capacity type, when
//    given: the copy's price is its template's), named fleetscope-<instance type>-<k>, with the
//    domain's labels and kubernetes.io/hostname set. The template (templateNodeFor()) is a
//    healthy node: Ready, schedulable, no other condition True, every GPU and device of its
//    capacity allocatable; among the healthy ones, one per node group
//    (eks.amazonaws.com/nodegroup, karpenter.sh/nodepool) and capacity type stands for it, and
//    the one that the most pending pods can use (nodeSelector, required node affinity, taints)
//    is copied (pending: still waiting under the plan's earlier actions, so that a second
//    add-node after the first group's pods were placed copies the group the others use), ties to the first in the domain's order (inside the domain when it has one). A
//    copy of a node whose GPUs dropped out, or of a node group no pending pod selects, would
//    answer a capacity question with a node that helps nobody. With no healthy node of the type,
//    the first Ready schedulable one, else the first.
#include "plan.h"
#include "addnodetemplate.h"

#include "plan_p.h"

#include "model/scheduling/matching.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>
#include <unordered_map>

namespace fleet::model {

namespace {

/// A store node as the node-affinity templates (scheduling/matching.h) read it.
struct StoreNodeLabels {
    const ClusterStore* store;
    NodeId n;
    [[nodiscard]] StringId label(StringId key) const noexcept { return scheduling::labelValue(store->nodeLabels(n), key); }
    [[nodiscard]] StringId name() const noexcept { return store->strings().find(store->nodeName(n)); }
    [[nodiscard]] std::string_view text(StringId id) const noexcept { return store->str(id); }
};

/// Whether node n may stand for its instance type: Ready, schedulable, no condition but Ready
/// True, every GPU and extended device of its capacity allocatable.
bool isHealthyTemplate(const ClusterStore& store, NodeId n)
{
    if (store.nodeReadiness(n) != Readiness::True || store.nodeUnschedulable(n)
        || store.nodeAllocatable(n)[CoreResource::Gpu] < store.nodeCapacity(n)[CoreResource::Gpu])
        return false;
    const auto allocatable = store.nodeExtendedAllocatable(n);
    for (const auto& [key, capacity] : store.nodeExtendedCapacity(n)) {
        std::int64_t a = 0;
        for (const auto& [k, v] : allocatable)
            if (k == key)
                a = v;
        if (a < capacity)
            return false;
    }
    for (const NodeCondition& c : store.nodeConditions(n))
        if (c.status == Readiness::True && store.str(c.type) != "Ready")
            return false;
    return true;
}

/// Whether pending pod p could go to a copy of node n by the rules a copy keeps: its
/// nodeSelector, required node affinity and the node's NoSchedule / NoExecute taints.
bool podCanUse(const ClusterStore& store, PodId p, NodeId n)
{
    const auto labels = store.nodeLabels(n);
    for (const Label& l : store.podNodeSelector(p))
        if (scheduling::labelValue(labels, l.key) != l.value)
            return false;
    if (!scheduling::termsMatch(store.podRequiredAffinity(p), StoreNodeLabels { &store, n }))
        return false;
    for (const Taint& t : store.nodeTaints(n))
        if (scheduling::blocksScheduling(t.effect) && !scheduling::toleratesTaint(store.podTolerations(p), t))
            return false;
    return true;
}

} // namespace

std::vector<PodId> storePendingPods(const ClusterStore& store)
{
    std::vector<PodId> out;
    for (std::uint32_t i = 0; i < store.podCount(); ++i)
        if (store.podIsPending(PodId(i)))
            out.push_back(PodId(i));
    return out;
}

namespace {

/// The nodes that stand for `candidates` as templates: one healthy node (isHealthyTemplate())
/// per node group (eks.amazonaws.com/nodegroup, karpenter.sh/nodepool) and capacity type, in
/// candidate order; and the first Ready schedulable candidate and the first candidate, for
/// when none is healthy.
struct Representatives {
    std::vector<NodeId> nodes;
    NodeId readyFallback, anyFallback;
};

Representatives representativesOf(const ClusterStore& store, std::span<const NodeId> candidates)
{
    static constexpr std::string_view kGroupKeys[] = { "eks.amazonaws.com/nodegroup", "karpenter.sh/nodepool" };
    std::vector<StringId> groupKeys;
    for (const std::string_view k : kGroupKeys)
        if (const StringId id = store.strings().find(k); id.isValid())
            groupKeys.push_back(id);
    Representatives out;
    std::vector<std::pair<std::vector<StringId>, int>> seen;
    for (const NodeId n : candidates) {
        if (!out.anyFallback.isValid())
            out.anyFallback = n;
        if (!out.readyFallback.isValid() && store.nodeReadiness(n) == Readiness::True && !store.nodeUnschedulable(n))
            out.readyFallback = n;
        if (!isHealthyTemplate(store, n))
            continue;
        std::pair<std::vector<StringId>, int> key;
        for (const StringId k : groupKeys)
            key.first.push_back(scheduling::labelValue(store.nodeLabels(n), k));
        key.second = static_cast<int>(nodeCapacityType(store, n));
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            continue;
        seen.push_back(std::move(key));
        out.nodes.push_back(n);
    }
    return out;
}

} // namespace

NodeId templateNodeFor(const ClusterStore& store, std::span<const NodeId> candidates, std::span<const PodId> pendingPods)
{
    const Representatives r = representativesOf(store, candidates);
    const std::vector<NodeId>& representatives = r.nodes;
    if (representatives.empty())
        return r.readyFallback.isValid() ? r.readyFallback : r.anyFallback;
    if (representatives.size() == 1)
        return representatives.front();
    // A pod counts for a node it may use whose allocatable holds its cpu, memory and whole GPUs
    // (as instanceTypeForPending() judges a type): a node whose GPUs are MIG-partitioned has 0
    // whole GPUs and serves no pod that asks for nvidia.com/gpu.
    std::vector<std::int64_t> usable(representatives.size(), 0);
    for (const PodId p : pendingPods) {
        const ResourceVector& want = store.podRequest(p);
        for (std::size_t i = 0; i < representatives.size(); ++i) {
            const ResourceVector& has = store.nodeAllocatable(representatives[i]);
            const bool fits = want[CoreResource::Cpu] <= has[CoreResource::Cpu] && want[CoreResource::Memory] <= has[CoreResource::Memory]
                && want[CoreResource::Gpu] <= has[CoreResource::Gpu];
            usable[i] += fits && podCanUse(store, p, representatives[i]) ? 1 : 0;
        }
    }
    return representatives[static_cast<std::size_t>(std::max_element(usable.begin(), usable.end()) - usable.begin())];
}

std::string instanceTypeForPending(const ClusterStore& store, std::span<const PodId> pendingPods)
{
    // One pod per workload (a pod of none stands for itself), with how many it stands for.
    std::unordered_map<std::uint64_t, std::pair<PodId, std::int64_t>> standIns;
    for (const PodId p : pendingPods) {
        const WorkloadId w = store.podWorkload(p);
        const std::uint64_t key = w.isValid() ? w.value : (std::uint64_t { 1 } << 32) | p.value;
        auto [it, added] = standIns.try_emplace(key, p, 0);
        ++it->second.second;
    }
    if (standIns.empty())
        return {};
    // The candidate templates of each type, as templateNodeFor() picks among them.
    std::unordered_map<std::string_view, std::vector<NodeId>> ofType;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const NodeId n(i);
        if (const std::string_view type = store.nodeInstanceType(n); !type.empty() && !store.nodeIsDeleted(n))
            ofType[type].push_back(n);
    }
    std::unordered_map<std::string_view, std::vector<NodeId>> types;
    for (const auto& [type, nodes] : ofType)
        if (std::vector<NodeId> healthy = representativesOf(store, nodes).nodes; !healthy.empty())
            types.emplace(type, std::move(healthy));
    std::string best;
    std::pair<std::int64_t, std::int64_t> bestScore { 0, 0 }; // (milli-GPUs served, pods served)
    for (const auto& [type, templates] : types) {
        std::pair<std::int64_t, std::int64_t> score { 0, 0 };
        for (const auto& [key, standIn] : standIns) {
            const PodId p = standIn.first; // not a structured binding: clang 14 (the fuzz build) cannot capture one
            const std::int64_t pods = standIn.second;
            const ResourceVector& want = store.podRequest(p);
            const bool served = std::any_of(templates.begin(), templates.end(), [&](NodeId n) {
                const ResourceVector& has = store.nodeAllocatable(n);
                for (const CoreResource r : { CoreResource::Cpu, CoreResource::Memory, CoreResource::Gpu })
                    if (want[r] > has[r])
                        return false;
                return podCanUse(store, p, n);
            });
            if (served) {
                score.first += want[CoreResource::Gpu] * pods;
                score.second += pods;
            }
        }
        if (score > bestScore || (score == bestScore && score.second > 0 && std::string_view(best) > type)) {
            bestScore = score;
            best = std::string(type);
        }
    }
    return best;
}

PodRef podRef(const ClusterStore& store, PodId p)
{
    return { std::string(store.podNamespace(p)), std::string(store.podName(p)), std::string(store.podUid(p)) };
}

std::string_view actionTypeName(ActionType t) noexcept
{
    switch (t) {
    case ActionType::MovePod:
        return "move-pod";
    case ActionType::DrainNode:
        return "drain-node";
    case ActionType::AddNode:
        return "add-node";
    case ActionType::FailNode:
        return "fail-node";
    case ActionType::FailDomain:
        return "fail-domain";
    case ActionType::PlaceWorkload:
        return "place-workload";
    case ActionType::PlacePods:
        return "place-pods";
    }
    return "move-pod";
}

void sortPodsLargestFirst(const ClusterStore& store, std::vector<PodId>& pods)
{
    std::sort(pods.begin(), pods.end(), [&](PodId a, PodId b) {
        const ResourceVector& ra = store.podRequest(a);
        const ResourceVector& rb = store.podRequest(b);
        for (const CoreResource r : { CoreResource::Gpu, CoreResource::Cpu, CoreResource::Memory })
            if (ra[r] != rb[r])
                return ra[r] > rb[r];
        return a < b;
    });
}

bool PlanEngine::Private::movePod(const PlanAction& a, AppliedAction& r)
{
    const PodId p = resolvePod(a.pod);
    const NodeId to = resolveNode(a.node);
    if (const std::string_view uid = store.podUid(p); !a.pod.uid.empty() && !uid.empty() && uid != a.pod.uid) {
        // Same namespace and name, another object: the plan was made for a pod that is gone.
        r.holds = false;
        r.reasons.push_back(makeReason(ReasonKind::PodReplaced, {},
            "pod " + podKey(store, p) + " was recreated: the plan names uid " + a.pod.uid + ", the state has uid " + std::string(uid)));
        return false;
    }
    const NodeId from = state.podNode(p);
    if (from == to)
        return true; // nothing to do: holds
    Verdict v = checkMove(state, p, to);
    std::vector<Reason> reasons = std::move(v.reasons);
    auto has = [&](ReasonKind k) { return std::any_of(reasons.begin(), reasons.end(), [&](const Reason& x) { return x.kind == k; }); };
    const bool present = state.nodePresent(to);
    if (!present && !has(ReasonKind::NodeGone))
        reasons.push_back(makeReason(ReasonKind::NodeGone, {}, "the plan removed or failed node " + a.node));
    // A node the plan drained is cordoned in the ledger: the verdict says node-unschedulable
    // (a pod that tolerates node.kubernetes.io/unschedulable may still go there, as in Kubernetes).
    const bool immovable = has(ReasonKind::DaemonSetPod) || has(ReasonKind::MirrorPod);
    std::vector<Reason> notes;
    std::int32_t budget = -1;
    if (from.isValid() && !immovable) {
        EvictionCheck ec = checkEviction(store, p);
        reasons.insert(reasons.end(), ec.blockers.begin(), ec.blockers.end());
        notes = std::move(ec.notes);
        DisruptionBudgets::Decision d = disruptionBudgets().check(p);
        if (!d.allowed)
            reasons.insert(reasons.end(), d.reasons.begin(), d.reasons.end());
        budget = d.spend;
    }
    sortReasons(reasons);
    const bool ok = reasons.empty();
    r.reasons = reasons;
    r.reasons.insert(r.reasons.end(), notes.begin(), notes.end());
    sortReasons(r.reasons);
    if (!ok && (!a.override || immovable || !present)) {
        r.holds = false;
        return false;
    }
    if (ok)
        spend(budget);
    move(p, to);
    r.changes.push_back({ p, from, to });
    r.holds = ok;
    return true;
}

bool PlanEngine::Private::addNodes(const PlanAction& a, AppliedAction& r)
{
    if (a.count < 1 || a.count > 100000)
        throw std::invalid_argument("add-node: count must be from 1 to 100000, got " + std::to_string(a.count));
    if (a.instanceType.empty())
        throw std::invalid_argument("add-node: no instance type given");
    const DomainId d = resolveDomain(a.domain);
    NodeId templ;
    std::optional<CapacityType> capacity;
    if (!a.capacityType.empty() && !(capacity = capacityTypeFromName(a.capacityType)))
        throw std::invalid_argument("add-node: unknown capacity type \"" + a.capacityType + "\" (known: on-demand, spot, reserved)");
    std::optional<std::vector<PodId>> pending; // read once, when two node groups compete
    auto pick = [&](std::span<const NodeId> nodes) {
        std::vector<NodeId> ofType;
        for (const NodeId n : nodes)
            if (store.nodeInstanceType(n) == a.instanceType && (!capacity || nodeCapacityType(store, n) == *capacity))
                ofType.push_back(n);
        if (ofType.size() > 1 && !pending) {
            // The pods that still wait under the plan so far: once an earlier add-node took
            // one node group's pods, the next add-node copies a node of the group the rest can
            // use (the pending pods of several node groups get a copy of each).
            pending = storePendingPods(store);
            std::erase_if(*pending, [&](PodId p) {
                const NodeId on = state.podNode(p);
                return on.isValid() && state.nodePresent(on);
            });
        }
        return templateNodeFor(store, ofType, pending ? std::span<const PodId>(*pending) : std::span<const PodId>());
    };
    templ = pick(topology.domainNodes(d));
    if (!templ.isValid())
        templ = pick(topology.orderedNodes());
    if (!templ.isValid())
        throw NotFoundError("instance-type/" + a.instanceType,
            "add-node: no node of instance type " + a.instanceType + (capacity ? " bought " + a.capacityType : std::string())
                + " in the cluster state to copy");
    std::vector<std::pair<std::string, std::string>> labels;
    if (d != topology.root())
        for (auto& [key, value] : parseDomainPath(domainPathText(topology, d)))
            if (key != "gpu-model" && key != "instance-type")
                labels.emplace_back(key, value);
    labels.emplace_back("kubernetes.io/hostname", "");
    for (std::int32_t k = 0; k < a.count; ++k) {
        std::size_t ordinal = state.nodeCount() - store.nodeCount() + 1;
        std::string name = "fleetscope-" + a.instanceType + "-" + std::to_string(ordinal);
        while (findNode(name).isValid())
            name = "fleetscope-" + a.instanceType + "-" + std::to_string(++ordinal);
        labels.back().second = name;
        r.nodesAdded.push_back(addNode(templ, name, labels));
    }
    r.holds = true;
    return true;
}

bool PlanEngine::Private::placeWorkload(const PlanAction& a, AppliedAction& r)
{
    if (!a.policy.empty() && a.policy != "default")
        throw std::invalid_argument("place-workload: unknown placement policy \"" + a.policy + "\" (known: default)");
    WorkloadId w;
    for (std::uint32_t i = 0; i < store.workloadCount() && !w.isValid(); ++i) {
        const WorkloadId c(i);
        if (store.workloadNamespace(c) == a.workloadNamespace && store.workloadName(c) == a.workloadName
            && (a.workloadKind.empty() || ownerKindName(store.workloadKind(c)) == a.workloadKind))
            w = c;
    }
    if (!w.isValid())
        throw NotFoundError("workload/" + a.workloadNamespace + "/" + a.workloadName, "workload " + (a.workloadKind.empty() ? std::string() : a.workloadKind + " ") + a.workloadNamespace + "/"
            + a.workloadName + " is not in the cluster state");
    const DomainId d = resolveDomain(a.domain);
    std::vector<PodId> pods;
    for (const PodId p : podsOfWorkload(w))
        if (!store.podIsTerminal(p))
            pods.push_back(p);
    for (const PodId p : pods) {
        if (staysOnDrainedNode(store, p)) {
            r.reasons = whyNotPlaced(p, d);
            r.holds = false;
            return false;
        }
    }
    sortPodsLargestFirst(store, pods);
    std::unordered_map<std::uint32_t, NodeId> from;
    for (const PodId p : pods) {
        from[p.value] = state.podNode(p);
        if (state.podNode(p).isValid())
            evict(p);
    }
    for (const PodId p : pods) {
        const NodeId target = choose(p, d);
        if (!target.isValid()) {
            std::vector<Reason> why = whyNotPlaced(p, d);
            for (Reason& x : why)
                x = prefixed(store, p, std::move(x));
            r.reasons = why;
            r.reasons.push_back(makeReason(ReasonKind::NoFeasibleNode, {},
                "the workload is placed all or nothing: " + std::to_string(pods.size()) + " pods, so none was placed"));
            r.unplaced.emplace_back(p, std::move(why));
            r.holds = false;
            rollback(0);
            return false;
        }
        move(p, target);
    }
    for (const PodId p : pods)
        r.changes.push_back({ p, from[p.value], state.podNode(p) });
    r.holds = true;
    return true;
}

bool PlanEngine::Private::placePods(const PlanAction& a, AppliedAction& r)
{
    if (!a.policy.empty() && a.policy != "BestFit")
        throw std::invalid_argument("place-pods: unknown domain choice \"" + a.policy + "\" (known: BestFit)");
    if (a.count < 1 || a.count > 1000000)
        throw std::invalid_argument("place-pods: count must be from 1 to 1000000, got " + std::to_string(a.count));
    const PodId templ = resolvePod(a.pod);
    TopologyRequest request;
    request.pods = a.count;
    request.requiredLevel = a.requiredLevel;
    request.preferredLevel = a.preferredLevel;
    request.sliceSize = a.sliceSize;
    request.sliceLevel = a.sliceLevel;
    request.keepWithinLevel = a.keepWithinLevel;
    request.gang = a.gang;
    const TopologyPlacement placement = findTopologyPlacement(state, topology, templ, request);
    r.reasons = placement.reasons;
    r.topologyLevel = placement.levelKey;
    r.topologyDomains = placement.domains;
    if (placement.podsPlaced == 0) {
        if (r.reasons.empty())
            r.reasons.push_back(makeReason(ReasonKind::NoFeasibleNode, {}, "no node takes a pod like " + podKey(store, templ)));
        r.holds = false;
        return false;
    }
    std::size_t ordinal = 0;
    for (std::size_t i = store.podCount(); i < state.podCount(); ++i)
        ordinal += state.podTemplate(PodId(static_cast<std::uint32_t>(i))) == templ ? 1 : 0;
    const std::string prefix = std::string(store.podName(templ)) + "-";
    for (const auto& [node, pods] : placement.nodes) {
        for (std::int32_t k = 0; k < pods; ++k) {
            const PodId p = state.addPod(templ, prefix + std::to_string(ordinal++));
            if (!p.isValid())
                throw std::invalid_argument("place-pods: pod " + podKey(store, templ) + " cannot be a template (finished, DaemonSet or mirror pod)");
            ops->push_back({ Op::AddedPod, p, {}, false, -1, 0 });
            move(p, node);
            r.podsAdded.push_back(p);
            r.changes.push_back({ p, {}, node });
        }
    }
    r.holds = placement.fits;
    return true;
}

PlanEngine::PlanEngine(const ClusterStore& store, const Topology& topology, std::vector<double> nodePricePerHour)
    : d(std::make_unique<Private>(store, topology, std::move(nodePricePerHour)))
{
    const ResourceVector total = store.totalAllocatable();
    d->totalCpu = static_cast<double>(total[CoreResource::Cpu]);
    d->totalMemory = static_cast<double>(total[CoreResource::Memory]);
}

PlanEngine::~PlanEngine() = default;

const PlanLedger& PlanEngine::state() const noexcept
{
    return d->state;
}

const std::vector<AppliedAction>& PlanEngine::applied() const noexcept
{
    return d->applied;
}

const AppliedAction& PlanEngine::apply(const PlanAction& action)
{
    d->refuseWhilePartial("apply()");
    d->undone.clear(); // the state moves on: what was undone can no longer be replayed
    AppliedAction r;
    r.action = action;
    r.before = d->state.totals();
    std::vector<Op> ops;
    d->ops = &ops;
    bool keep = true;
    try {
        d->prepareIndexes(action.type);
        switch (action.type) {
        case ActionType::MovePod:
            keep = d->movePod(action, r);
            break;
        case ActionType::DrainNode:
            keep = d->drainNode(action, r);
            break;
        case ActionType::AddNode:
            keep = d->addNodes(action, r);
            break;
        case ActionType::FailNode: {
            const NodeId n = d->resolveNode(action.node);
            if (!d->state.nodePresent(n)) {
                r.holds = false;
                r.reasons.push_back(makeReason(ReasonKind::NodeGone, {}, "the plan removed or failed node " + action.node + " already"));
                keep = false;
                break;
            }
            keep = d->fail({ n }, r);
            break;
        }
        case ActionType::FailDomain: {
            const DomainId dom = d->resolveDomain(action.domain);
            const Private::DomainFilter filter = d->domainFilter(dom);
            std::vector<NodeId> nodes;
            for (const NodeId n : d->topology.domainNodes(dom))
                if (d->state.nodePresent(n))
                    nodes.push_back(n);
            for (std::size_t i = d->store.nodeCount(); i < d->state.nodeCount(); ++i)
                if (const NodeId n(static_cast<std::uint32_t>(i)); d->state.nodePresent(n) && d->inDomain(filter, n))
                    nodes.push_back(n);
            if (nodes.empty()) {
                r.holds = false;
                r.reasons.push_back(makeReason(ReasonKind::NodeGone, {}, "every node of " + action.domain + " is gone already"));
                keep = false;
                break;
            }
            keep = d->fail(nodes, r);
            break;
        }
        case ActionType::PlaceWorkload:
            keep = d->placeWorkload(action, r);
            break;
        case ActionType::PlacePods:
            keep = d->placePods(action, r);
            break;
        }
    } catch (...) {
        d->rollback(0);
        d->ops = nullptr;
        throw;
    }
    d->ops = nullptr;
    r.after = d->state.totals();
    if (!keep) {
        d->refused = std::move(r);
        return d->refused;
    }
    d->applied.push_back(std::move(r));
    d->undoLog.push_back(std::move(ops));
    return d->applied.back();
}

bool PlanEngine::undo()
{
    d->refuseWhilePartial("undo()");
    if (d->applied.empty())
        return false;
    // Each op is undone from the last, after noting the value it had set: the effects that
    // reapplyUndone() replays, in apply order once reversed.
    Private::Undone undone;
    std::vector<Op>& ops = d->undoLog.back();
    undone.effects.reserve(ops.size());
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
        undone.effects.push_back(d->effectOf(*it, undone.replayable));
        d->undoOne(*it);
    }
    std::reverse(undone.effects.begin(), undone.effects.end());
    undone.undoOps = std::move(ops);
    undone.record = std::move(d->applied.back());
    d->undoLog.pop_back();
    d->applied.pop_back();
    if (!undone.replayable)
        undone.effects.clear();
    d->undone.push_back(std::move(undone));
    return true;
}

const AppliedAction* PlanEngine::reapplyUndone(const PlanAction& action)
{
    d->refuseWhilePartial("reapplyUndone()");
    if (d->undone.empty() || !(d->undone.back().record.action == action)) {
        d->undone.clear(); // another order than the undo stack's: apply() from here on
        return nullptr;
    }
    Private::Undone undone = std::move(d->undone.back());
    d->undone.pop_back();
    if (!undone.replayable)
        return nullptr;
    for (const Op& effect : undone.effects)
        d->replayOne(effect);
    d->applied.push_back(std::move(undone.record));
    d->undoLog.push_back(std::move(undone.undoOps));
    return &d->applied.back();
}

// The parts run the very steps of undo() and reapplyUndone() (effectOf(), undoOne(), replayOne()),
// in the same order, so that the engine a completed partial one leaves is theirs. A cancel runs
// the other direction's steps over the part done: an undo's effects replayed from the last noted
// (apply order), a reapply's undo ops undone from the last run.
bool PlanEngine::beginUndo()
{
    d->refuseWhilePartial("beginUndo()");
    if (d->applied.empty())
        return false;
    const std::vector<Op>& ops = d->undoLog.back();
    if (std::any_of(ops.begin(), ops.end(), [](const Op& op) { return op.kind == Op::Added || op.kind == Op::AddedPod; }))
        return false;
    Private::Partial partial;
    partial.undo = true;
    partial.total = ops.size();
    partial.undone.effects.reserve(ops.size());
    d->partial = std::move(partial);
    return true;
}

bool PlanEngine::beginReapply(const PlanAction& action)
{
    d->refuseWhilePartial("beginReapply()");
    if (d->undone.empty() || !(d->undone.back().record.action == action)) {
        d->undone.clear(); // as reapplyUndone()
        return false;
    }
    if (!d->undone.back().replayable) {
        d->undone.pop_back();
        return false;
    }
    Private::Partial partial;
    partial.undo = false;
    partial.undone = std::move(d->undone.back());
    d->undone.pop_back();
    partial.total = partial.undone.effects.size();
    d->partial = std::move(partial);
    return true;
}

bool PlanEngine::continuePartial(std::size_t maxEffects)
{
    if (!d->partial)
        return true;
    if (d->partial->cancelling)
        return cancelPartial(maxEffects);
    Private::Partial& p = *d->partial;
    const std::size_t n = std::min(p.total - p.done, std::max<std::size_t>(1, maxEffects));
    if (p.undo) {
        const std::vector<Op>& ops = d->undoLog.back();
        for (std::size_t k = 0; k < n; ++k, ++p.done) {
            const Op& op = ops[p.total - 1 - p.done];
            p.undone.effects.push_back(d->effectOf(op, p.undone.replayable));
            d->undoOne(op);
        }
    } else {
        for (std::size_t k = 0; k < n; ++k, ++p.done)
            d->replayOne(p.undone.effects[p.done]);
    }
    if (p.done < p.total)
        return false;
    Private::Undone undone = std::move(p.undone);
    const bool wasUndo = p.undo;
    d->partial.reset();
    if (wasUndo) {
        std::reverse(undone.effects.begin(), undone.effects.end());
        undone.undoOps = std::move(d->undoLog.back());
        undone.record = std::move(d->applied.back());
        d->undoLog.pop_back();
        d->applied.pop_back();
        d->undone.push_back(std::move(undone));
    } else {
        d->applied.push_back(std::move(undone.record));
        d->undoLog.push_back(std::move(undone.undoOps));
    }
    return true;
}

bool PlanEngine::cancelPartial(std::size_t maxEffects)
{
    if (!d->partial)
        return true;
    Private::Partial& p = *d->partial;
    p.cancelling = true;
    const std::size_t n = std::min(p.done, std::max<std::size_t>(1, maxEffects));
    if (p.undo) {
        // effects[j] was noted at ops[total - 1 - j]: from the last noted, they run in apply order.
        for (std::size_t k = 0; k < n; ++k) {
            d->replayOne(p.undone.effects[--p.done]);
            p.undone.effects.pop_back();
        }
    } else {
        for (std::size_t k = 0; k < n; ++k)
            d->undoOne(p.undone.undoOps[--p.done]);
    }
    if (p.done > 0)
        return false;
    if (!p.undo)
        d->undone.push_back(std::move(p.undone)); // to be reapplied again
    d->partial.reset();
    return true;
}

bool PlanEngine::isPartial() const noexcept
{
    return d->partial.has_value();
}

std::size_t PlanEngine::partialDone() const noexcept
{
    return d->partial ? d->partial->done : 0;
}

std::size_t PlanEngine::partialTotal() const noexcept
{
    return d->partial ? d->partial->total : 0;
}

std::shared_ptr<void> PlanEngine::takeUndone()
{
    d->refuseWhilePartial("takeUndone()");
    if (d->undone.empty())
        return nullptr;
    auto taken = std::make_shared<std::deque<Private::Undone>>(std::move(d->undone));
    d->undone.clear(); // moved from: emptied for certain
    return taken;
}

NodeId PlanEngine::chooseNode(PodId p, DomainId within) const
{
    return d->choose(p, within);
}

} // namespace fleet::model
