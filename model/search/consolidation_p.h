// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to model/search/consolidation*.cpp and karpenterbaseline.cpp: the drain runner
// both consolidations share, so that ours and the baseline see the same input, candidates,
// filters and rules (consolidation.h).
//
// Design note (speed): a drain through the PlanEngine builds a PodFeasibility per pod, which
// costs far more than the cheap checks here, so each candidate is first judged against per
// resource multisets of the free capacity of every present node (largest free elsewhere,
// total free elsewhere) and against the workloads that already failed; both are updated from
// each committed drain's changes in O(changes log nodes).

#include "blockingfilter.h"
#include "consolidation.h"

#include "model/topology.h"

#include <array>
#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <unordered_map>

namespace fleet::model::consolidation_detail {

class DrainRunner {
public:
    DrainRunner(const ClusterStore& store, const Topology& topology, const ConsolidationInput& input, const ConsolidationOptions& options);

    const ClusterStore& store() const noexcept { return m_store; }
    PlanEngine& engine() noexcept { return m_engine; }
    /// Nodes that may be drained (present, not prepaid, no pod whose eviction is refused), by id.
    const std::vector<NodeId>& candidates() const noexcept { return m_candidates; }
    /// The node's saving per hour as the search ranks it: its price; for a node without one
    /// (unpriced: no price table entry), the price its capacity would have at the cluster's
    /// priced nodes' rate (estimatePrices()); 0 prepaid, or when no node has a price.
    double saving(NodeId n) const noexcept { return n.index() < m_rankPrice.size() ? m_rankPrice[n.index()] : 0.0; }
    /// What draining the node saves that is known: its price; 0 unpriced or prepaid.
    double price(NodeId n) const noexcept { return n.index() < m_price.size() ? m_price[n.index()] : 0.0; }
    /// True for a node that may be drained and has no price: saving() is an estimate.
    bool unpriced(NodeId n) const noexcept { return n.index() < m_unpriced.size() && m_unpriced[n.index()]; }
    /// Movable pods of the node in the loaded state and the largest share of its allocatable
    /// (cpu, memory, GPU) they request.
    std::int32_t movableCount(NodeId n) const noexcept { return m_movable[n.index()]; }
    double load(NodeId n) const noexcept { return m_load[n.index()]; }
    /// Karpenter's disruption cost of the node (pkg/utils/disruption: per pod
    /// clamp(1 + priority / 2^25, -10, 10), no expiry so lifetime remaining 1; the
    /// pod-deletion-cost annotation is not in the store, so 0).
    double disruptionCost(NodeId n) const noexcept { return m_disruptionCost[n.index()]; }
    /// The share of the scarce PodDisruptionBudgets that draining the node spends: over its
    /// movable pods, for each budget guarding one that allows fewer disruptions than it guards
    /// movable pods in the cluster (status before the plan, disruptionbudgets.h), 1 /
    /// disruptionsAllowed (1 when it allows none); 0 for a node no such budget guards. Budgets
    /// are spent across the whole plan, so a drain that spends them blocks later ones.
    double budgetShare(NodeId n) const noexcept { return m_budgetShare[n.index()]; }

    /// Judges node n cheaply (group minimum, move limit, failed workloads, capacity); when it
    /// passes, applies DrainNode; keeps it when it holds, else undoes it. True when kept
    /// (applied). A refusal records why n stays.
    bool tryDrain(NodeId n);
    /// Applies DrainNode to every node of `nodes` in order, all or nothing (no cheap checks
    /// but the group minimum and move limit): the Karpenter baseline's batch. True when kept.
    bool tryDrainBatch(const std::vector<NodeId>& nodes);
    /// The pending pods placed first and the nodes the policy first put them on, before any
    /// drain (ConsolidationResult::pendingPods of a cancelled search; finish() names their final
    /// nodes instead), and their MovePod actions.
    const std::vector<std::pair<PodId, NodeId>>& pendingPods() const noexcept { return m_pendingPods; }
    const std::vector<PlanAction>& pendingPlaced() const noexcept { return m_pendingPlaced; }
    /// Undoes every drain: back to the loaded state, with the cheap checks' memory cleared.
    void reset();
    /// The result so far: figures, why each other present node stays, and the actions of one
    /// move per pod (consolidation.h): each pending pod placed first straight on the node it
    /// ends on in the runner's state now (pendingPlaced, pendingPods), then per drained node, in
    /// drain order, a MovePod of each other pod the node held before the drains straight to the
    /// node it ends on, then the node's DrainNode; podsMoved counts those pods (not the pending
    /// ones), evictions every eviction of the drains as made. Not yet applied:
    /// applyOneMovePerPod() checks them. O(evictions + pods).
    ConsolidationResult finish(std::string order);
    /// Replaces `r`'s drains (a finish() result of this runner, any pass) by its actions applied
    /// from the state before the pending pods were placed, each checked by the engine as `plan
    /// check` applies it: first each pending placement at its final node, in the order they were
    /// placed (one refused there, by a topology spread or anti-affinity met in another order, is
    /// placed where the search first put it, so that the node's drain moves it again, counted in
    /// evictions; one refused there too stays pending, counted in pendingLeft), then per drained
    /// node its moves, then its drain. Where a move is refused
    /// (a topology spread or anti-affinity met in another order, room a fallback took) the
    /// node's moves are undone and its DrainNode alone is applied (the policy places its pods;
    /// counted in fallbackDrains); where that does not hold either, the node stays (its reason
    /// added to kept). Afterwards the runner's state is `r`'s plan; nodesFreed, drained,
    /// savedPerHour, podsMoved, evictions and after are `r`'s plan's. O(the plan's actions).
    void applyOneMovePerPod(ConsolidationResult& r);

    bool cancelled() const noexcept { return m_options.cancel && m_options.cancel->load(std::memory_order_relaxed); }
    void progress(double f) const
    {
        if (m_options.progress)
            m_options.progress(f);
    }

private:
    enum Axis : std::uint8_t { Cpu, Memory, Gpu, AxisCount };
    std::int64_t freeOf(NodeId n, Axis a) const noexcept;
    void track(NodeId n);   // re-keys n in the free multisets (erases it when not present)
    std::int64_t largestFreeExcept(Axis a, NodeId n) const noexcept;
    /// True when no present node but n is left (every present node is tracked).
    bool isOnlyNode(NodeId n) const noexcept { return m_freeSets[Cpu].size() - (m_tracked[n.index()] ? 1 : 0) == 0; }
    std::vector<PodId> movablePodsNow(NodeId n) const;
    /// Why node n cannot be emptied, judged without the engine, and the pod the reason names (or
    /// an invalid pod when it names all of them).
    struct Refusal {
        PodId pod;
        Reason reason;
        BlockingFilter blocking; // of the failure a workload's refusal copies
    };
    std::optional<Refusal> cheapRefusal(NodeId n, const std::vector<PodId>& pods) const;
    std::optional<Reason> groupRefusal(NodeId n) const;
    // Why pod p, which stayed on `from` (the node being drained, where the plan has it: a pending
    // pod placed first is not there in the store), found no other node.
    Reason explainUnplaced(PodId p, NodeId from, const std::vector<Reason>& why) const;
    /// "cpu", "memory", or the GPU resource's Kubernetes name on node n (gpuResourceName()).
    std::string resourceName(CoreResource r, NodeId n) const;
    /// "<pod> needs <resource> <amount>; no other node has <amount> free (the most is <most>)"
    /// (insufficient-<resource>), or, when n is the only present node, "...; there is no other
    /// node (<n> is the only node under the plan)" (no-other-node).
    Reason insufficient(PodId p, NodeId n, CoreResource r, std::int64_t most) const;
    void commit(const AppliedAction& a, NodeId n);
    void keep(NodeId n, PodId p, Reason r, BlockingFilter blocking = {});
    /// Appends to a no-feasible-node reason the filter that turns the pod away from the most
    /// nodes (blockingfilter.h), judged now, under the refusal's state; returns that tally.
    BlockingFilter nameBlockingFilter(PodId p, NodeId from, Reason& why);

    const ClusterStore& m_store;
    const ConsolidationOptions& m_options;
    PlanEngine m_engine;
    std::chrono::steady_clock::time_point m_start;
    std::vector<double> m_price, m_rankPrice;
    std::vector<std::uint8_t> m_unpriced;
    void estimatePrices(); // m_rankPrice from m_price and capacity
    std::vector<NodeId> m_candidates;
    std::vector<std::int32_t> m_movable;
    std::vector<double> m_load, m_disruptionCost, m_budgetShare;
    // free capacity of present nodes, per axis
    std::array<std::multiset<std::int64_t>, AxisCount> m_freeSets;
    std::array<std::vector<std::int64_t>, AxisCount> m_freeKey;
    std::vector<std::uint8_t> m_tracked;
    std::array<std::int64_t, AxisCount> m_totalFree {};
    // node groups with a minimum: per node the indices into m_groups; present counts
    std::vector<NodeGroupMinimum> m_groups;
    std::string m_policy; // the drain-node actions' policy ("" the default)
    std::vector<std::string> m_keepWithin; // per node: the domain its pods stay in (empty: none)
    std::vector<std::vector<std::uint32_t>> m_nodeGroups;
    std::vector<std::int32_t> m_groupPresent;
    // workloads that failed: the pod and the reason (message without the pod's key), by
    // failureKey() (with keep-within, a failure in one domain says nothing of another)
    struct Failure {
        PodId pod;
        Reason reason;
        BlockingFilter blocking;
    };
    std::unordered_map<std::uint64_t, Failure> m_failedWorkloads;
    std::vector<std::uint32_t> m_keepWithinId; // per node: an index of its keep-within domain
    [[nodiscard]] std::uint64_t failureKey(WorkloadId w, NodeId n) const noexcept
    {
        return (m_keepWithinId.empty() ? 0 : static_cast<std::uint64_t>(m_keepWithinId[n.index()]) << 32) | w.value;
    }
    // The blocking-filter tallies' budget for the whole call (across reset()): 200,000 verdicts on
    // the full samples, about 2 s at 100,000 simulated nodes. Once it is spent, each class or pod
    // kind judged for the first time is judged on the smaller samples (BlockingFilterMemo,
    // blockingfilter.h), so that every no-feasible-node entry still names a filter. Without a
    // budget, naming every entry at 100,000 simulated nodes took about 400,000 verdicts (4.8 s;
    // 264 eligibility classes, 5,772 pod kinds; load 6): the budget is about half of that.
    static constexpr std::int64_t kBlockingFilterVerdicts = 200000;
    BlockingFilterMemo m_blocking { kBlockingFilterVerdicts };
    std::vector<std::optional<KeptNode>> m_kept; // per node: why it stays (last refusal)
    std::vector<std::optional<KeptNode>> m_keptInitial; // prepaid and blocked nodes only
    std::vector<std::int32_t> m_groupPresentInitial;
    void placePending(); // the pending pods first (consolidation.h), into m_pendingPlaced
    void measureBudgetShares(); // m_budgetShare, after the pending pods are placed
    std::vector<PlanAction> m_pendingPlaced;
    std::vector<std::pair<PodId, NodeId>> m_pendingPods;
    std::int64_t m_pendingLeft = 0;
    std::vector<PlanAction> m_actions;
    std::vector<NodeId> m_drained;
    std::size_t m_pendingBase = 0; // actions of options.startFrom, never undone
    std::size_t m_base = 0;        // and the pending pods placed first (undone by applyOneMovePerPod() only)
    std::int64_t m_podsMoved = 0;
    std::int64_t m_tried = 0;
    double m_saved = 0;
    double m_estimated = 0; // saving() of the drained unpriced nodes
};

/// One order in which consolidate() tries the candidates, and its name.
struct DrainOrder {
    std::vector<NodeId> nodes;
    const char* name = "";
};
/// How many passes consolidate()'s promotion step makes at most (searchDrains()), and the most
/// candidates for which it makes them: each pass costs what an order costs (about 10 s of CPU
/// at 100,000 simulated nodes, about 52,600 candidates, where none of four improved the plan; at
/// 2,000 and 20,000 nodes, about 1,100 and 10,000 candidates, they freed 5 and 4 more nodes).
inline constexpr int kPromotionPasses = 4;
inline constexpr std::size_t kPromotionMaxCandidates = 25000;

/// consolidate()'s search over `runner` (consolidation.h): the first of drainOrders(), the other
/// three with `bestOfOrders`, then (with `bestOfOrders`, for at most kPromotionMaxCandidates
/// candidates) up to kPromotionPasses passes of the best order with one node that a disruption
/// budget kept moved to its front, keeping the better plan each time
/// (betterPlan()). `onPass` (optional) is called after each pass with its plan (before it is
/// compared); returning true ends the search there (that pass's plan is returned). Stops at
/// the runner's cancel or at `deadline` (when set), returning the best plan so far, with
/// cancelled / timedOut set. Deterministic without a deadline.
ConsolidationResult searchDrains(DrainRunner& runner, bool bestOfOrders, std::optional<std::chrono::steady_clock::time_point> deadline,
    const std::function<bool(const ConsolidationResult&)>& onPass = {});

/// consolidate()'s four orders over `runner`'s candidates (consolidation.h: saving per budget,
/// small nodes first with the scarce budgets last, small nodes first, Karpenter's disruption
/// cost), in the order it tries them. They depend on the runner's state when it was made only.
/// O(candidates log candidates).
std::vector<DrainOrder> drainOrders(const DrainRunner& runner);

} // namespace fleet::model::consolidation_detail
