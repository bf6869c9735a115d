// SPDX-License-Identifier: Apache-2.0
// PlanEngine's drain-node and fail-node / fail-domain actions (plan.h; rules in plan.cpp's
// design note): evict, re-place by the drain policy or the default policy, strand what cannot go.
#include "plan_p.h"

#include <algorithm>
#include <unordered_map>

namespace fleet::model {

bool PlanEngine::Private::drainNode(const PlanAction& a, AppliedAction& r)
{
    PlacementPolicy* policy = drainPolicy(a.policy); // throws for an unknown name, before any change
    const NodeId n = resolveNode(a.node);
    // A domain keeps the evicted pods inside it (consolidation's keep-within); throws
    // NotFoundError for a domain the state lacks, before any change.
    const DomainId within = a.domain.empty() ? DomainId() : resolveDomain(a.domain);
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
        } else if (movesWithDrain(store, p)) {
            // A terminating pod is leaving (podIsLeaving): no pod to move; it goes with the node.
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
            target = policy ? chooseScored(p, *policy, within) : choose(p, within);
            if (!target.isValid())
                why = whyNotPlaced(p, within);
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
            // A failed node takes its DaemonSet and mirror pods with it, and what was leaving
            // (finished or terminating) is not re-placed: the drain's rule (movesWithDrain).
            if (!movesWithDrain(store, p))
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
        for (Reason& x : ec.notes) {
            // A failed node is not drained: its emptyDir data is lost with it, not deleted by an
            // eviction. The same code (local-storage), worded for the failure.
            if (x.kind == ReasonKind::LocalStorage)
                x.message = podKey(store, p) + " uses an emptyDir volume whose data is lost with its failed node";
            r.reasons.push_back(prefixed(store, p, std::move(x)));
        }
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

} // namespace fleet::model
