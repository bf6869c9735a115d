// SPDX-License-Identifier: Apache-2.0
#pragma once
// PlanEngine's private state, shared by plan.cpp (the engine, move, add, place actions) and
// plandrain.cpp (drain-node and the failures): the ledger, the indexes the actions read, and
// the primitives that record each undo step (plan.cpp's design note). Not a public header.
// Thread: as PlanEngine (one thread).

#include "plan.h"

#include "capacityindex.h"
#include "disruptionbudgets.h"
#include "evictionrules.h"
#include "notfounderror.h"

#include "model/domainpath.h"
#include "model/pricing/pricetable.h"
#include "model/placement/drainpolicy.h"
#include "model/placement/placementpolicy.h"
#include "model/placement/topologyplacement.h"
#include "model/topology.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <future>
#include <optional>
#include <stdexcept>
#include <unordered_map>

namespace fleet::model {

namespace planengine {

/// One undo step of an applied action (undone in reverse by Private::undoOne()).
struct Op {
    enum Kind : std::uint8_t { Move, Presence, Added, Cordon, Spend, AddedPod } kind = Move;
    PodId pod;
    NodeId node;      // Move: the pod's node before; Presence / Added / Cordon: the node
    bool flag = false; // Move: podChanged() before; Presence: present before
    std::int32_t budget = -1;
    // Move: the GPUs the pod held on `node` (PlanLedger::podGpuMask()), so that undo and replay
    // put it back on the same GPUs, not on the ones a best fit would choose now (0: none).
    std::uint64_t gpuMask = 0;
};

inline std::uint64_t nameHash(std::string_view ns, std::string_view name) noexcept
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

inline Reason prefixed(const ClusterStore& store, PodId p, Reason r)
{
    const std::string key = podKey(store, p);
    if (!r.message.starts_with(key))
        r.message = key + ": " + r.message;
    return r;
}

} // namespace planengine

using planengine::nameHash;
using planengine::Op;
using planengine::prefixed;

struct PlanEngine::Private {
    Private(const ClusterStore& s, const Topology& t, std::vector<double> prices)
        : store(s)
        , topology(t)
        , state(s, std::move(prices))
    {
    }

    const ClusterStore& store;
    const Topology& topology;
    PlanLedger state;
    std::vector<AppliedAction> applied;
    std::vector<std::vector<Op>> undoLog; // parallel to applied
    AppliedAction refused;                // the last action refused (not appended)
    /// An action undo() took back, for reapplyUndone(): its record, its undo log, and its
    /// effects in apply order with the values they set (Move: the node it put the pod on,
    /// invalid for an eviction; Presence: present after). Last undone last; apply() clears.
    struct Undone {
        AppliedAction record;
        std::vector<Op> undoOps;
        std::vector<Op> effects;
        bool replayable = true; // false when it added nodes or pods (their ids and names are made anew)
    };
    // A deque, not a vector: the undo of a 200,000-action step pushes one Undone per action,
    // and a vector's doubling moved every Undone so far into new memory at once, whose first
    // touch (page faults) held the GUI thread 0.8 and 1.4 s at 65,536 and 131,072 entries.
    std::deque<Undone> undone;
    /// A partial undo or reapply (PlanEngine::beginUndo(), beginReapply()): the action's Undone
    /// being made (an undo: effects noted last op first, reversed when complete) or taken (a
    /// reapply), and how many of its `total` effects were run.
    struct Partial {
        bool undo = true;
        Undone undone;
        std::size_t done = 0;
        std::size_t total = 0;
        bool cancelling = false; // cancelPartial() began: `done` goes back down to 0
    };
    std::optional<Partial> partial;
    void refuseWhilePartial(const char* what) const
    {
        if (partial)
            throw std::logic_error(std::string("PlanEngine::") + what + " during a partial undo or reapply");
    }
    /// The value `op`'s undo is about to overwrite, as the effect reapplyUndone() replays
    /// (`replayable` false for an op that added a node or a pod). Call before undoOne(op).
    Op effectOf(const Op& op, bool& replayable) const
    {
        Op effect = op;
        switch (effect.kind) {
        case Op::Move:
            effect.node = state.podNode(effect.pod);
            effect.gpuMask = state.podGpuMask(effect.pod);
            break;
        case Op::Presence:
            effect.flag = state.nodePresent(effect.node);
            break;
        case Op::Added:
        case Op::AddedPod:
            replayable = false;
            break;
        case Op::Cordon:
        case Op::Spend:
            break;
        }
        return effect;
    }
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
    /// The pod-name index findPod() reads: (nameHash(), id) of every store pod, sorted.
    /// Reads the store only (any thread, while no thread mutates it).
    std::vector<std::pair<std::uint64_t, PodId>> makePodsByName() const
    {
        std::vector<std::pair<std::uint64_t, PodId>> byName;
        byName.reserve(store.podCount());
        for (std::uint32_t i = 0; i < store.podCount(); ++i)
            byName.emplace_back(nameHash(store.podNamespace(PodId(i)), store.podName(PodId(i))), PodId(i));
        std::sort(byName.begin(), byName.end());
        return byName;
    }
    /// Builds, before a move-pod's or a drain-node's first use, the indexes those actions read
    /// that are not built yet: the pod-name index (a move-pod's only), the disruption budgets
    /// (both) and the capacity index (drain-node; a plan that moves pods drains nodes too, as a
    /// consolidation's does; a drain-only engine, as a consolidation search's, never needs the
    /// pod-name index). Above kParallelIndexPods pods, the pod-name index and the budgets
    /// (each reads the store only) are built on a worker while this thread builds the capacity
    /// index (which reads the ledger): at 100,000 nodes each takes a few hundred ms, and built
    /// one after the other on first use they held up a report's replay by their sum. Two
    /// threads at most (the machines this runs on may have two cores). The results are those
    /// of building each on first use: only when they are built changes.
    void prepareIndexes(ActionType type) const
    {
        if (type != ActionType::MovePod && type != ActionType::DrainNode)
            return;
        const bool needNames = type == ActionType::MovePod && podsByName.empty() && store.podCount() > 0;
        const bool needBudgets = !budgets;
        // Nothing to pair with, or a small state (a worker would cost more than it saves):
        // each is built on first use.
        if ((!needNames && !needBudgets) || index || store.podCount() < kParallelIndexPods)
            return;
        auto storeIndexes = std::async(std::launch::async, [this, needNames, needBudgets] {
            std::pair<std::vector<std::pair<std::uint64_t, PodId>>, std::unique_ptr<DisruptionBudgets>> out;
            if (needNames)
                out.first = makePodsByName();
            if (needBudgets)
                out.second = std::make_unique<DisruptionBudgets>(store);
            return out;
        });
        try {
            capacity();
        } catch (...) {
            storeIndexes.wait(); // the worker reads this engine's store: never left running
            throw;
        }
        auto [byName, made] = storeIndexes.get();
        if (needNames)
            podsByName = std::move(byName);
        if (needBudgets)
            budgets = std::move(made);
    }
    static constexpr std::size_t kParallelIndexPods = 20000;
    PodId findPod(const PodRef& ref) const
    {
        if (podsByName.empty() && store.podCount() > 0)
            podsByName = makePodsByName();
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
    /// A scored policy's choice among every present, uncordoned node (inside `within`, the whole
    /// cluster when invalid) with the pod's cpu, memory and GPU free that passes every filter
    /// (drainpolicy.h); invalid when none.
    NodeId chooseScored(PodId p, PlacementPolicy& policy, DomainId within = {}) const
    {
        const PodFeasibility feasibility(state, p);
        if (feasibility.immovable())
            return {};
        const ResourceVector& req = store.podRequest(p);
        const CapacityIndex& cap = capacity();
        const DomainFilter filter = domainFilter(within);
        std::vector<NodeId> feasible;
        for (std::size_t i = 0; i < state.nodeCount(); ++i) {
            const NodeId n(static_cast<std::uint32_t>(i));
            if (!state.nodePresent(n) || isCordoned(n) || !inDomain(filter, n) || cap.freeOf(n, CapacityIndex::Cpu) < req[CoreResource::Cpu]
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
        ops->push_back({ Op::Move, p, from, state.podChanged(p), -1, state.podGpuMask(p) });
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
        ops->push_back({ Op::Move, p, from, state.podChanged(p), -1, state.podGpuMask(p) });
        state.evictPod(p);
        touch(from);
    }
    void setPresent(NodeId n, bool present)
    {
        ops->push_back({ Op::Presence, {}, n, state.nodePresent(n), -1, 0 });
        state.setNodePresent(n, present);
        touch(n);
    }
    NodeId addNode(NodeId templateNode, std::string name, const std::vector<std::pair<std::string, std::string>>& labels)
    {
        const NodeId n = state.addNode(templateNode, name, labels);
        if (!n.isValid())
            throw std::invalid_argument("add-node: the ledger refused to add node " + name);
        ops->push_back({ Op::Added, {}, n, false, -1, 0 });
        touch(n);
        return n;
    }
    void cordon(NodeId n)
    {
        if (isCordoned(n))
            return;
        state.setNodeCordoned(n, true);
        ops->push_back({ Op::Cordon, {}, n, false, -1, 0 });
    }
    void spend(std::int32_t budget)
    {
        if (budget < 0)
            return;
        disruptionBudgets().spend(budget);
        ops->push_back({ Op::Spend, {}, {}, false, budget, 0 });
    }
    void undoOne(const Op& op)
    {
        switch (op.kind) {
        case Op::Move: {
            const NodeId now = state.podNode(op.pod);
            if (!op.flag)
                state.restorePod(op.pod);
            else if (op.node.isValid())
                state.movePod(op.pod, op.node, op.gpuMask);
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
    /// Applies one recorded effect again (Undone::effects), as apply() did it.
    void replayOne(const Op& effect)
    {
        switch (effect.kind) {
        case Op::Move: {
            const NodeId from = state.podNode(effect.pod);
            if (effect.node.isValid())
                state.movePod(effect.pod, effect.node, effect.gpuMask);
            else
                state.evictPod(effect.pod);
            touch(from);
            touch(effect.node);
            break;
        }
        case Op::Presence:
            state.setNodePresent(effect.node, effect.flag);
            touch(effect.node);
            break;
        case Op::Cordon:
            state.setNodeCordoned(effect.node, true);
            break;
        case Op::Spend:
            disruptionBudgets().spend(effect.budget);
            break;
        case Op::Added:
        case Op::AddedPod:
            break; // never replayed (Undone::replayable)
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

} // namespace fleet::model
