// PlanEngine: applies and undoes plan actions over a PlacementState (plan.h).
//
// Design note: every change an action makes goes through a few primitives (move a pod, evict
// it, set a node present or not, add a node, cordon a node under the plan, spend a disruption)
// that each record an undo step; undo replays the steps of the last action in reverse, so the
// ledger returns exactly to where it was in O(effects). The capacity index (capacityindex.h)
// is re-keyed by the same primitives, so the default policy never scans every node.
//
// Rules beyond the filters (documented in README.md "Plans" and resources/schemas/plan-v1.md):
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
//  - add-node: `count` nodes copying a Ready, schedulable store node of the instance type (and
//    capacity type, when given: the copy's price is its template's; one inside the domain when
//    there is one), named fleetscope-<instance type>-<k>, with the
//    domain's labels and kubernetes.io/hostname set.
#include "plan.h"

#include "capacityindex.h"
#include "disruptionbudgets.h"
#include "evictionrules.h"
#include "notfounderror.h"

#include "model/domainpath.h"
#include "model/metrics/pricetable.h"
#include "model/placement/drainpolicy.h"
#include "model/placement/placementpolicy.h"
#include "model/placement/topologyplacement.h"
#include "model/topology.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>
#include <unordered_map>

namespace fleet::model {

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

namespace {

struct Op {
    enum Kind : std::uint8_t { Move, Presence, Added, Cordon, Spend, AddedPod } kind = Move;
    PodId pod;
    NodeId node;      // Move: the pod's node before; Presence / Added / Cordon: the node
    bool flag = false; // Move: podChanged() before; Presence: present before
    std::int32_t budget = -1;
};

} // namespace

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

namespace {

std::uint64_t nameHash(std::string_view ns, std::string_view name) noexcept
{
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::string_view s) {
        for (const char c : s) {
            h ^= static_cast<unsigned char>(c);
            h *= 1099511628211ull;
        }
    };
    mix(ns);
    h ^= 0x2f;
    h *= 1099511628211ull;
    mix(name);
    return h;
}

Reason prefixed(const ClusterStore& store, PodId p, Reason r)
{
    const std::string key = podKey(store, p);
    if (!r.message.starts_with(key))
        r.message = key + ": " + r.message;
    return r;
}

} // namespace

struct PlanEngine::Private {
    Private(const ClusterStore& s, const Topology& t, std::vector<double> prices)
        : store(s)
        , topology(t)
        , state(s, std::move(prices))
    {
    }

    const ClusterStore& store;
    const Topology& topology;
    PlacementState state;
    std::vector<AppliedAction> applied;
    std::vector<std::vector<Op>> undoLog; // parallel to applied
    AppliedAction refused;                // the last action refused (not appended)
    std::vector<Op>* ops = nullptr;       // the steps of the action being applied

    // Built when first needed (each once per engine).
    mutable std::unique_ptr<CapacityIndex> index;
    mutable std::unique_ptr<DisruptionBudgets> budgets;
    mutable std::vector<std::pair<std::uint64_t, PodId>> podsByName;
    mutable std::vector<std::uint32_t> workloadPodBegin;
    mutable std::vector<PodId> workloadPods;
    mutable std::vector<std::uint32_t> orderPos; // position of each store node in topology.orderedNodes()
    mutable std::unordered_map<std::string, std::unique_ptr<PlacementPolicy>> drainPolicies; // drain-node's scored policies, by name
    double totalCpu = 0, totalMemory = 0;

    CapacityIndex& capacity() const
    {
        if (!index)
            index = std::make_unique<CapacityIndex>(state);
        return *index;
    }
    DisruptionBudgets& disruptionBudgets() const
    {
        if (!budgets)
            budgets = std::make_unique<DisruptionBudgets>(store);
        return *budgets;
    }
    bool isCordoned(NodeId n) const noexcept { return state.nodeCordonedByPlan(n); }

    // ---- lookups ----
    PodId findPod(const PodRef& ref) const
    {
        if (podsByName.empty() && store.podCount() > 0) {
            podsByName.reserve(store.podCount());
            for (std::uint32_t i = 0; i < store.podCount(); ++i)
                podsByName.emplace_back(nameHash(store.podNamespace(PodId(i)), store.podName(PodId(i))), PodId(i));
            std::sort(podsByName.begin(), podsByName.end());
        }
        const std::uint64_t h = nameHash(ref.namespaceName, ref.name);
        auto it = std::lower_bound(podsByName.begin(), podsByName.end(), std::make_pair(h, PodId(0)));
        for (; it != podsByName.end() && it->first == h; ++it)
            if (store.podNamespace(it->second) == ref.namespaceName && store.podName(it->second) == ref.name)
                return it->second;
        return {};
    }
    PodId resolvePod(const PodRef& ref) const
    {
        const PodId p = findPod(ref);
        if (!p.isValid())
            throw NotFoundError("pod/" + ref.namespaceName + "/" + ref.name, "pod " + ref.namespaceName + "/" + ref.name + " is not in the cluster state");
        return p;
    }
    NodeId findNode(std::string_view name) const
    {
        const NodeId n = store.findNode(name);
        if (n.isValid())
            return n;
        for (std::size_t i = store.nodeCount(); i < state.nodeCount(); ++i)
            if (state.nodeName(NodeId(static_cast<std::uint32_t>(i))) == name)
                return NodeId(static_cast<std::uint32_t>(i));
        return {};
    }
    NodeId resolveNode(const std::string& name) const
    {
        const NodeId n = findNode(name);
        if (!n.isValid())
            throw NotFoundError("node/" + name, "node " + name + " is not in the cluster state");
        return n;
    }
    DomainId resolveDomain(const DomainRef& ref) const
    {
        if (ref.empty())
            return topology.root();
        try {
            return findDomainByPath(topology, parseDomainPath(ref));
        } catch (const std::invalid_argument& e) {
            throw NotFoundError("domain/" + ref, "domain " + ref + ": " + e.what());
        }
    }
    std::span<const PodId> podsOfWorkload(WorkloadId w) const
    {
        if (workloadPodBegin.empty()) {
            workloadPodBegin.assign(store.workloadCount() + 1, 0);
            for (std::uint32_t i = 0; i < store.podCount(); ++i)
                if (const WorkloadId pw = store.podWorkload(PodId(i)); pw.isValid())
                    ++workloadPodBegin[pw.index() + 1];
            for (std::size_t i = 1; i < workloadPodBegin.size(); ++i)
                workloadPodBegin[i] += workloadPodBegin[i - 1];
            workloadPods.resize(workloadPodBegin.back());
            std::vector<std::uint32_t> next(workloadPodBegin.begin(), workloadPodBegin.end() - 1);
            for (std::uint32_t i = 0; i < store.podCount(); ++i)
                if (const WorkloadId pw = store.podWorkload(PodId(i)); pw.isValid())
                    workloadPods[next[pw.index()]++] = PodId(i);
        }
        return { workloadPods.data() + workloadPodBegin[w.index()], workloadPods.data() + workloadPodBegin[w.index() + 1] };
    }

    // ---- domains ----
    struct DomainFilter {
        DomainId domain;
        std::size_t begin = 0, end = 0; // range in orderedNodes
        std::vector<std::pair<std::string, std::string>> steps;
    };
    DomainFilter domainFilter(DomainId d) const
    {
        DomainFilter f;
        f.domain = d;
        if (!d.isValid() || d == topology.root())
            return f;
        if (orderPos.empty()) {
            orderPos.assign(store.nodeCount(), 0);
            const std::span<const NodeId> ordered = topology.orderedNodes();
            for (std::size_t i = 0; i < ordered.size(); ++i)
                orderPos[ordered[i].index()] = static_cast<std::uint32_t>(i);
        }
        const std::span<const NodeId> nodes = topology.domainNodes(d);
        f.begin = nodes.empty() ? 0 : static_cast<std::size_t>(nodes.data() - topology.orderedNodes().data());
        f.end = f.begin + nodes.size();
        f.steps = parseDomainPath(domainPathText(topology, d));
        return f;
    }
    bool inDomain(const DomainFilter& f, NodeId n) const
    {
        if (!f.domain.isValid() || f.domain == topology.root())
            return true;
        if (n.index() < store.nodeCount()) {
            const std::size_t pos = orderPos[n.index()];
            return pos >= f.begin && pos < f.end;
        }
        const NodeId t = state.nodeTemplate(n);
        for (const auto& [key, value] : f.steps) {
            std::string_view actual;
            if (key == "gpu-model")
                actual = store.nodeGpuModel(t);
            else if (key == "instance-type")
                actual = store.nodeInstanceType(t);
            else {
                const StringId k = store.strings().find(key);
                actual = k.isValid() ? store.str(state.nodeLabel(n, k)) : std::string_view {};
            }
            if (actual != value)
                return false;
        }
        return true;
    }

    Reason plannedPodStays(PodId p) const
    {
        return makeReason(ReasonKind::Unsupported, "planned-pod",
            std::string(store.podNamespace(state.podTemplate(p))) + "/" + std::string(state.podName(p))
                + " was placed by this plan (place-pods): it is not re-placed; undo that action to move it");
    }

    // ---- the default policy ----
    NodeId choose(PodId p, DomainId within) const
    {
        const PodFeasibility feasibility(state, p);
        if (feasibility.immovable())
            return {};
        const ResourceVector& req = store.podRequest(p);
        CapacityIndex::Axis axis = CapacityIndex::Cpu;
        if (req[CoreResource::Gpu] > 0)
            axis = CapacityIndex::Gpu;
        else if (totalMemory > 0 && totalCpu > 0
            && static_cast<double>(req[CoreResource::Memory]) / totalMemory > static_cast<double>(req[CoreResource::Cpu]) / totalCpu)
            axis = CapacityIndex::Memory;
        const std::int64_t need = req[static_cast<CoreResource>(axis == CapacityIndex::Cpu ? 0 : axis == CapacityIndex::Memory ? 1 : 2)];
        const DomainFilter filter = domainFilter(within);
        auto accept = [&](NodeId n) { return state.nodePresent(n) && !isCordoned(n) && feasibility.feasible(n); };
        const CapacityIndex& cap = capacity();
        const std::size_t added = state.nodeCount() - store.nodeCount();
        if (filter.domain.isValid() && filter.domain != topology.root() && filter.end - filter.begin + added <= 2048) {
            // A small domain: judging its nodes is cheaper than walking the fleet's index.
            NodeId best;
            std::int64_t bestFree = 0;
            auto consider = [&](NodeId n) {
                const std::int64_t free = cap.freeOf(n, axis);
                if (free < need || !accept(n))
                    return;
                if (!best.isValid() || free < bestFree || (free == bestFree && state.nodeName(n) < state.nodeName(best))) {
                    best = n;
                    bestFree = free;
                }
            };
            for (const NodeId n : topology.domainNodes(filter.domain))
                consider(n);
            for (std::size_t i = store.nodeCount(); i < state.nodeCount(); ++i)
                if (inDomain(filter, NodeId(static_cast<std::uint32_t>(i))))
                    consider(NodeId(static_cast<std::uint32_t>(i)));
            return best;
        }

        // Only the nodes whose taints the pod tolerates and whose class may hold its requests,
        // of the smallest pool its nodeSelector pins it to (node group, instance type, ...), in
        // the same order (capacityindex.h): every node left out fails a filter, so the same
        // node is found.
        const PodId spec = state.podTemplate(p);
        const CapacityIndex::PodKey key { store.podTolerations(spec), req[CoreResource::Cpu], req[CoreResource::Memory],
            store.podExtendedRequest(spec), store.podNodeSelector(spec), req[CoreResource::EphemeralStorage] };
        return cap.firstFor(key, axis, need, [&](NodeId n) { return inDomain(filter, n) && accept(n); });
    }
    /// A drain-node's policy (drainpolicy.h): null for the default; throws for an unknown name.
    PlacementPolicy* drainPolicy(const std::string& name) const
    {
        if (name.empty() || name == "default")
            return nullptr;
        auto it = drainPolicies.find(name);
        if (it == drainPolicies.end())
            it = drainPolicies.emplace(name, makeDrainPolicy(name)).first;
        return it->second.get();
    }
    /// A scored policy's choice among every present, uncordoned node with the pod's cpu, memory
    /// and GPU free that passes every filter (drainpolicy.h); invalid when none.
    NodeId chooseScored(PodId p, PlacementPolicy& policy) const
    {
        const PodFeasibility feasibility(state, p);
        if (feasibility.immovable())
            return {};
        const ResourceVector& req = store.podRequest(p);
        const CapacityIndex& cap = capacity();
        std::vector<NodeId> feasible;
        for (std::size_t i = 0; i < state.nodeCount(); ++i) {
            const NodeId n(static_cast<std::uint32_t>(i));
            if (!state.nodePresent(n) || isCordoned(n) || cap.freeOf(n, CapacityIndex::Cpu) < req[CoreResource::Cpu]
                || cap.freeOf(n, CapacityIndex::Memory) < req[CoreResource::Memory] || cap.freeOf(n, CapacityIndex::Gpu) < req[CoreResource::Gpu])
                continue;
            if (feasibility.feasible(n))
                feasible.push_back(n);
        }
        if (feasible.empty())
            return {};
        return policy.choose(state, podShape(store, state.podTemplate(p)), feasible, {});
    }
    std::vector<Reason> whyNotPlaced(PodId p, DomainId within) const
    {
        const PodFeasibility feasibility(state, p);
        if (feasibility.immovable() && state.nodeCount() > 0)
            return feasibility.verdict(NodeId(0)).reasons;
        const std::string where = within.isValid() && within != topology.root() ? " in " + domainPathText(topology, within) : "";
        return { makeReason(ReasonKind::NoFeasibleNode, {}, podKey(store, p) + ": no node" + where + " passes every filter") };
    }

    // ---- primitives (each records its undo step) ----
    void touch(NodeId n) const
    {
        if (index && n.isValid())
            index->update(n);
    }
    void move(PodId p, NodeId to)
    {
        const NodeId from = state.podNode(p);
        ops->push_back({ Op::Move, p, from, state.podChanged(p), -1 });
        if (!state.movePod(p, to)) {
            // A finished pod, or a node that is not present: the ledger refuses; so does the plan.
            ops->pop_back();
            const PodId spec = state.podTemplate(p);
            throw std::invalid_argument("pod " + std::string(store.podNamespace(spec)) + "/" + std::string(state.podName(p)) + " cannot be put on node "
                + std::string(state.nodeName(to)) + (store.podIsTerminal(spec) ? ": it has finished (Succeeded or Failed)" : ""));
        }
        touch(from);
        touch(to);
    }
    void evict(PodId p)
    {
        const NodeId from = state.podNode(p);
        ops->push_back({ Op::Move, p, from, state.podChanged(p), -1 });
        state.evictPod(p);
        touch(from);
    }
    void setPresent(NodeId n, bool present)
    {
        ops->push_back({ Op::Presence, {}, n, state.nodePresent(n), -1 });
        state.setNodePresent(n, present);
        touch(n);
    }
    NodeId addNode(NodeId templateNode, std::string name, const std::vector<std::pair<std::string, std::string>>& labels)
    {
        const NodeId n = state.addNode(templateNode, name, labels);
        if (!n.isValid())
            throw std::invalid_argument("add-node: the ledger refused to add node " + name);
        ops->push_back({ Op::Added, {}, n, false, -1 });
        touch(n);
        return n;
    }
    void cordon(NodeId n)
    {
        if (isCordoned(n))
            return;
        state.setNodeCordoned(n, true);
        ops->push_back({ Op::Cordon, {}, n, false, -1 });
    }
    void spend(std::int32_t budget)
    {
        if (budget < 0)
            return;
        disruptionBudgets().spend(budget);
        ops->push_back({ Op::Spend, {}, {}, false, budget });
    }
    void undoOne(const Op& op)
    {
        switch (op.kind) {
        case Op::Move: {
            const NodeId now = state.podNode(op.pod);
            if (!op.flag)
                state.restorePod(op.pod);
            else if (op.node.isValid())
                state.movePod(op.pod, op.node);
            else
                state.evictPod(op.pod);
            touch(now);
            touch(op.node);
            break;
        }
        case Op::Presence:
            state.setNodePresent(op.node, op.flag);
            touch(op.node);
            break;
        case Op::Added:
            if (index)
                index->erase(op.node);
            state.removeLastAddedNode();
            break;
        case Op::Cordon:
            state.setNodeCordoned(op.node, false);
            break;
        case Op::Spend:
            disruptionBudgets().unspend(op.budget);
            break;
        case Op::AddedPod:
            state.removeLastAddedPod();
            break;
        }
    }
    void rollback(std::size_t mark)
    {
        while (ops->size() > mark) {
            undoOne(ops->back());
            ops->pop_back();
        }
    }

    // ---- actions; each returns false when refused (nothing changed, not appended) ----
    bool movePod(const PlanAction& a, AppliedAction& r);
    bool drainNode(const PlanAction& a, AppliedAction& r);
    bool addNodes(const PlanAction& a, AppliedAction& r);
    bool fail(const std::vector<NodeId>& nodes, AppliedAction& r);
    bool placeWorkload(const PlanAction& a, AppliedAction& r);
    bool placePods(const PlanAction& a, AppliedAction& r);
};

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

bool PlanEngine::Private::drainNode(const PlanAction& a, AppliedAction& r)
{
    PlacementPolicy* policy = drainPolicy(a.policy); // throws for an unknown name, before any change
    const NodeId n = resolveNode(a.node);
    if (!state.nodePresent(n)) {
        r.holds = false;
        r.reasons.push_back(makeReason(ReasonKind::NodeGone, {}, "the plan removed or failed node " + a.node + " already"));
        return false;
    }
    cordon(n);
    std::vector<PodId> pods;
    bool holdsPlanned = false;
    for (const PodId p : state.nodePods(n)) {
        if (state.podAdded(p)) { // a pod this plan placed (place-pods): undo that action instead
            holdsPlanned = true;
            r.reasons.push_back(plannedPodStays(p));
        } else if (!store.podIsTerminal(p) && !staysOnDrainedNode(store, p)) {
            pods.push_back(p);
        }
    }
    sortPodsLargestFirst(store, pods);
    bool emptied = !holdsPlanned;
    for (const PodId p : pods) {
        EvictionCheck ec = checkEviction(store, p);
        r.reasons.insert(r.reasons.end(), ec.notes.begin(), ec.notes.end());
        std::vector<Reason> why = std::move(ec.blockers);
        std::int32_t budget = -1;
        if (why.empty()) {
            DisruptionBudgets::Decision d = disruptionBudgets().check(p);
            why = std::move(d.reasons);
            budget = d.spend;
        }
        NodeId target;
        if (why.empty()) {
            target = policy ? chooseScored(p, *policy) : choose(p, {});
            if (!target.isValid())
                why = whyNotPlaced(p, {});
        }
        if (!why.empty()) {
            emptied = false;
            for (Reason& x : why)
                x = prefixed(store, p, std::move(x));
            r.reasons.insert(r.reasons.end(), why.begin(), why.end());
            r.unplaced.emplace_back(p, std::move(why));
            continue;
        }
        spend(budget);
        move(p, target);
        r.changes.push_back({ p, n, target });
    }
    if (emptied) {
        setPresent(n, false);
        r.nodesRemoved.push_back(n);
    }
    sortReasons(r.reasons);
    r.holds = r.unplaced.empty() && !holdsPlanned;
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
    auto pick = [&](std::span<const NodeId> nodes) {
        NodeId any;
        for (const NodeId n : nodes) {
            if (store.nodeInstanceType(n) != a.instanceType || (capacity && nodeCapacityType(store, n) != *capacity))
                continue;
            if (!any.isValid())
                any = n;
            if (store.nodeReadiness(n) == Readiness::True && !store.nodeUnschedulable(n))
                return n;
        }
        return any;
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

bool PlanEngine::Private::fail(const std::vector<NodeId>& nodes, AppliedAction& r)
{
    std::vector<PodId> displaced;
    std::unordered_map<std::uint32_t, NodeId> from;
    for (const NodeId n : nodes) {
        for (const PodId p : state.nodePods(n)) {
            if (state.podAdded(p)) { // a pod this plan placed: it goes with its node
                evict(p);
                r.changes.push_back({ p, n, {} });
                r.unplaced.emplace_back(p, std::vector<Reason> { plannedPodStays(p) });
                continue;
            }
            if (store.podIsTerminal(p) || staysOnDrainedNode(store, p))
                continue;
            displaced.push_back(p);
            from[p.value] = n;
            evict(p);
        }
    }
    for (const NodeId n : nodes) {
        setPresent(n, false);
        r.nodesRemoved.push_back(n);
    }
    sortPodsLargestFirst(store, displaced);
    // Gangs (by workload) first, each as a whole; then the other pods.
    std::vector<WorkloadId> gangOrder;
    std::unordered_map<std::uint32_t, std::vector<PodId>> gangs;
    std::vector<PodId> singles;
    for (const PodId p : displaced) {
        if (isGangPod(store, p)) {
            auto [it, fresh] = gangs.try_emplace(store.podWorkload(p).value);
            if (fresh)
                gangOrder.push_back(store.podWorkload(p));
            it->second.push_back(p);
        } else {
            singles.push_back(p);
        }
    }
    auto strand = [&](PodId p, std::vector<Reason> why) {
        for (Reason& x : why)
            x = prefixed(store, p, std::move(x));
        r.reasons.insert(r.reasons.end(), why.begin(), why.end());
        r.unplaced.emplace_back(p, std::move(why));
    };
    for (const WorkloadId w : gangOrder) {
        const std::vector<PodId>& members = gangs[w.value];
        const std::size_t mark = ops->size();
        std::vector<Reason> failure;
        for (const PodId p : members) {
            const NodeId target = choose(p, {});
            if (!target.isValid()) {
                failure = whyNotPlaced(p, {});
                break;
            }
            move(p, target);
        }
        const std::string gang = std::string(ownerKindName(store.workloadKind(w))) + " " + std::string(store.workloadNamespace(w)) + "/"
            + std::string(store.workloadName(w));
        if (failure.empty()) {
            for (const PodId p : members)
                r.changes.push_back({ p, from[p.value], state.podNode(p) });
            continue;
        }
        rollback(mark);
        std::string cause = failure.front().message;
        for (const PodId p : members) {
            r.changes.push_back({ p, from[p.value], {} });
            strand(p, { makeReason(ReasonKind::GangMember, {}, "the gang " + gang + " cannot be re-placed as a whole: " + cause) });
        }
        // The surviving members stop too: the gang's controller restarts it as a whole.
        for (const PodId q : podsOfWorkload(w)) {
            const NodeId at = state.podNode(q);
            if (!at.isValid() || store.podIsTerminal(q))
                continue;
            evict(q);
            r.changes.push_back({ q, at, {} });
            strand(q, { makeReason(ReasonKind::GangMember, {}, "stopped with its gang " + gang + ", which lost members that cannot be re-placed") });
        }
    }
    for (const PodId p : singles) {
        EvictionCheck ec = checkEviction(store, p);
        for (Reason& x : ec.notes)
            r.reasons.push_back(prefixed(store, p, std::move(x)));
        std::vector<Reason> why;
        for (Reason& x : ec.blockers)
            if (x.kind == ReasonKind::NoController)
                why.push_back(std::move(x));
        NodeId target;
        if (why.empty()) {
            target = choose(p, {});
            if (!target.isValid())
                why = whyNotPlaced(p, {});
        }
        if (!why.empty()) {
            r.changes.push_back({ p, from[p.value], {} });
            strand(p, std::move(why));
            continue;
        }
        move(p, target);
        r.changes.push_back({ p, from[p.value], target });
    }
    sortReasons(r.reasons);
    r.holds = r.unplaced.empty();
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
            ops->push_back({ Op::AddedPod, p, {}, false, -1 });
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

const PlacementState& PlanEngine::state() const noexcept
{
    return d->state;
}

const std::vector<AppliedAction>& PlanEngine::applied() const noexcept
{
    return d->applied;
}

const AppliedAction& PlanEngine::apply(const PlanAction& action)
{
    AppliedAction r;
    r.action = action;
    r.before = d->state.totals();
    std::vector<Op> ops;
    d->ops = &ops;
    bool keep = true;
    try {
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
    if (d->applied.empty())
        return false;
    std::vector<Op>& ops = d->undoLog.back();
    d->ops = &ops;
    d->rollback(0);
    d->ops = nullptr;
    d->undoLog.pop_back();
    d->applied.pop_back();
    return true;
}

NodeId PlanEngine::chooseNode(PodId p, DomainId within) const
{
    return d->choose(p, within);
}

} // namespace fleet::model
