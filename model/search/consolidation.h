// SPDX-License-Identifier: Apache-2.0
#pragma once
// Consolidation: an ordered drain plan for a loaded cluster that saves the most cost
// per hour, then frees the most nodes, and for every node that stays the pod and the constraint
// that keeps it there. Deletion only: Fleetscope never launches replacement nodes.
//
// Every drain is the what-if's DrainNode (model/plan/plan.h), applied to a PlanEngine of its
// own: the eviction rules (evictionrules.h: DaemonSet and mirror pods stay, no-controller,
// do-not-disrupt, gang members), the PodDisruptionBudgets spent across the whole plan
// (disruptionbudgets.h), every scheduling filter (model/scheduling/filters.h) and the default
// placement policy (best fit through capacityindex.h). A candidate whose drain does not fully
// hold is undone (PlanEngine::undo) and kept, with the first pod that stayed and why.
//
// Rules of the plan (the same for the Karpenter baseline, karpenterbaseline.h):
//  - candidates: present nodes. A node with only DaemonSet, mirror, finished and terminating
//    pods counts as empty (it is drained with no moves). A terminating pod (deletionTimestamp
//    set) is leaving: the drain waits for it (as kubectl drain does), so it is neither moved,
//    nor counted in podsMoved, nor a reason to keep its node.
//  - prepaid nodes (nodeCapacityType() Reserved: EC2 Capacity Blocks, capacity reservations;
//    model/pricing/pricetable.h) save nothing when emptied, so they are never drained: they
//    stay as destinations, with the reason "prepaid".
//  - a node group keeps its minimum size: ConsolidationInput::groupMinimums, keyed by a node
//    label (eks.amazonaws.com/nodegroup or karpenter.sh/nodepool) and its value.
//  - a node with a pod whose eviction is refused outright (checkEviction() blockers) is not
//    tried: it stays with that pod's reason.
//  - pending pods first (ConsolidationOptions::placePendingFirst, on by default): before any
//    drain, every pending pod that kube-scheduler could bind now is placed where the default
//    policy puts it (largest first, sortPodsLargestFirst; every filter), as MovePod actions at
//    the head of the plan (ConsolidationResult::pendingPlaced), so that no drain takes the room
//    they need. The pods of a pending gang are placed all or none. Pods with schedulingGates
//    stay pending, as do pods no node fits (pendingLeft). Karpenter's simulation also schedules
//    the pending pods with the candidates' pods (SimulateScheduling), but lets a candidate go
//    when a pending pod fits nowhere else afterwards (AllNonPendingPodsScheduled); without this
//    rule a cluster whose pods wait (a trace's arrivals, a backlog) would be planned empty.
//
// Unpriced nodes (a price of 0: the price table has no entry for the node) are no free nodes:
// the orders and betterPlan() rank each at the price of its capacity at the cluster's priced
// nodes' rate (the median $/h per GPU of priced GPU nodes for a GPU node, else the median $/h
// per cpu core of priced nodes without GPUs), as unpricedEstimatePerHour; savedPerHour counts
// known prices only. Without any priced node every node ranks at 0, by load and size alone.
//
// Order (ours): empty nodes first, then by saving per share of the scarce disruption budgets
// the drain spends (DrainRunner::budgetShare(): the budgets that guard more movable pods than
// they allow disruptions, which the plan spends across all its drains; nodes no such budget
// guards come first, the dearest first), ties by saving per unit of load (price per hour of
// the node over the largest share of its allocatable, over cpu, memory and GPU, that its
// movable pods request, plus 0.01), then node name. With `bestOfOrders` three more orders are
// tried from the loaded state, in this sequence: small nodes first with the nodes a scarce
// budget guards after all others; small nodes first (then the fewest movable pods, then the
// lighter, so that large and full nodes stay as destinations); Karpenter's disruption cost
// (last: it won at no size of the one-region simulated fleet, and a time limit cuts the last
// order first; it won at 100,000 nodes of the four-region fleet).
// Each plan is compared with the best so far by betterPlan() (saves more, savings within 2%
// counting as equal, then frees more, then moves fewer pods) and the better kept: a greedy
// drain in the baseline's own order frees at least what the baseline's batches do on every
// cluster we tried (not a proof). Simulated fleet (seed 1, one region), December 2026: at
// 2,000 nodes the orders free 394 / 443 / 443 / 429 nodes for $4,362 / $4,276 / $4,238 /
// $4,250 per hour and the second wins (before, saving per load alone: 357 for $4,373, and it
// won); at 20,000, 3,660 / 4,029 / 4,121 / 4,002 for $74,652 / $73,425 / $72,341 / $72,791
// per hour, small nodes first wins (as before); at 100,000 small nodes first too (22,944). Saving per load spent the budgets on cheap nodes with
// many guarded pods: the budgets, not capacity, keep most general-purpose nodes.
// Then (with `bestOfOrders`, on fleets of at most 25,000 candidates) up to four promotion
// passes: the best order again with one node that a spent disruption budget kept moved to its
// front, so that the budget goes to it first (the nodes before it in the order spent it, some
// of them on pods that fit elsewhere anyway); the better plan is kept (betterPlan()), and after
// an improvement the next pass starts from the new plan's budget-kept nodes. The plan keeps its
// order's name. Each pass is a whole greedy pass (about the cost of one order), and a time
// limit cuts them first. Simulated fleet, seed 1, the winning order then the promotions: 2,000
// nodes 448 -> 453 freed (1,547 kept against an LP bound of 1,407), 20,000 nodes 4,158 ->
// 4,162; at 100,000 nodes (about 52,600 candidates) none of four passes freed more, for 40 s
// of CPU, so a larger fleet gets none.
//
// One move per pod: the search's drains place each evicted pod by the policy among the nodes
// present at the time, so a pod lands on a node that a later drain of the same plan empties and
// moves again (simulated fleet, seed 1, 2,000 nodes: the drains alone evict 4,138 times for
// 3,038 pods, 893 of them moved two to five times, 1,100 moves onto nodes drained later),
// churn that an operator would cause by following the plan. The plan keeps
// the search's drained nodes and their order, but moves each of a drained node's pods straight
// to the node where the search's last drain left it (a node that stays), as MovePod actions
// before the node's DrainNode, which then has no pod left to place: the nodes a plan drains are
// in effect cordoned from its start (an operator cordons them all, then drains them). Each group
// (a node's moves, then its drain) is applied by the engine in plan order, every filter and
// eviction rule judged again, as `plan check` applies it. A pending pod placed first is placed
// once too, on the node it ends on (the search first put it where the policy chose before any
// drain, and a later drain of that node moved it on: seed 1 at 2,000 nodes, 26 pods): the
// placements at the head of the plan name each pod's final node, and no drain moves it. Where
// one is refused at its turn (a spread or affinity met in another order), the pod is placed
// where the search first put it and that node's drain moves it (counted in evictions); where
// that is refused too, it stays pending. The final placement of the search
// fits (each staying node then holds a subset of its final pods), but topology spread and pod
// (anti-)affinity depend on the order. Where a move is refused, that node is drained by the
// policy instead (fallbackDrains; its pods may then move twice, counted in evictions); where
// that fails too, the node stays. Budgets are spent once per pod where the search spent one per
// eviction, so none refuses more than it did in the search. At 2,000 nodes: 3,038 evictions of
// 3,038 pods, no fallback, the same 1,547 nodes kept (LP bound 1,407: 1.0995).

// Pruning before a drain is tried (cheap; never accepts a drain the engine refused):
//  - a pod that asks for more of cpu, memory or GPU than any other present node has free;
//  - movable requests of the node, per resource, above the free capacity of every other node;
//  - a workload one of whose pods could not be placed (or evicted) before: free capacity only
//    shrinks as drains are committed and budgets are only spent, so it would fail again. This
//    is a heuristic: a later pod of the same workload with a smaller request, or spread counts
//    that changed, could have fitted (a drain this prune skips is lost, never a wrong one). A
//    disruption budget's refusal is not remembered so: it depends on how many of the budget's
//    pods the node holds, and a node with fewer may still go (each such node is judged by the
//    engine: at 2,000 simulated nodes 443 -> 448 freed, 25% more drains tried).
//
// Speed (bench_consolidate, simulated fleet, 2 shared cores, December 2026): 100,000 nodes, all
// three orders to the end without a limit: 22.1 s wall, 22.1 s of CPU on one thread, 17,363
// nodes freed and $253,602/h (the same plan as before), baseline 5,391 and $106,019/h in 1.8 s.
// Before: ~38 s of CPU (72 to 116 s wall under load). What took it: the capacity index judging
// empty classes (capacityindex.h lists only the classes holding nodes) and PodTopologySpread's
// search for domains without matching pods (podtopologyspread.cpp bounds it by the nodes of the
// pod's nodeSelector). Left: the index's upkeep per move, PodFeasibility per pod, undo.
// With the pending pods placed first (3,588 placed, 5,118 left pending): 16,972 freed,
// $251,556/h, 21.6 s wall, 21.9 s CPU; baseline 5,318, $105,836/h; bound 54,120 (idle machine).
// Thread: any; one call owns its PlanEngine. `cancel` may be set from another thread.

#include "model/clusterstore.h"
#include "model/plan/plan.h"
#include "model/scheduling/reasons.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fleet::model {

class Topology;

/// A node group's minimum size: nodes whose label `labelKey` has `value` never drop below
/// `minNodes` present nodes.
struct NodeGroupMinimum {
    std::string labelKey; // eks.amazonaws.com/nodegroup or karpenter.sh/nodepool
    std::string value;
    std::int32_t minNodes = 0;
};

struct ConsolidationInput {
    /// Each store node's price in $/h (indexed by NodeId; model::planNodePrices()); empty: all 0.
    std::vector<double> nodePricePerHour;
    std::vector<NodeGroupMinimum> groupMinimums;
};

struct ConsolidationOptions {
    /// At most this many pods moved in total (a drain that would pass it is not tried); < 0: no limit.
    std::int64_t maxMoves = -1;
    /// Called with the share of candidates considered (0..1), at most about every 1,000 candidates.
    std::function<void(double fraction)> progress;
    /// When set to true (from any thread), stops at the next candidate: the plan so far is returned.
    const std::atomic<bool>* cancel = nullptr;
    /// Stops at the next candidate once this many seconds have passed since the call began and
    /// returns the best plan found so far (timedOut set), like Karpenter's one-minute limit on a
    /// multi-node consolidation (MultiNodeConsolidationTimeoutDuration); 0: no limit. The search
    /// stops at 85% of it: the rest is for applying its plan one move per pod (rules above).
    double timeLimitSeconds = 0;
    /// A plan to start from (the window's current plan): applied first, in order, and kept; the
    /// result's actions come after it. Throws what PlanEngine::apply throws for a bad action.
    std::vector<PlanAction> startFrom;
    /// Ours: also try the three other orders and the promotion passes (rules above) and keep the
    /// best plan (up to eight times the time of one order; four above 25,000 candidates).
    bool bestOfOrders = true;
    /// Called once, on the calling thread, after the pending pods are placed and before the first
    /// drain, with ConsolidationResult::pendingPods as the result will carry them: what the LP
    /// bound needs (packingrelaxation.h), so that a caller can solve it on another thread beside
    /// the search (both only read the store).
    std::function<void(const std::vector<std::pair<PodId, NodeId>>& pendingPods)> pendingPlaced;
    /// Place the pending pods that fit before any drain (rules above); false: leave them pending.
    bool placePendingFirst = true;
    /// Where evicted pods go (drainpolicy.h): "" or "default" (the what-if's best fit), or a
    /// scored policy such as "MostAllocated"; the drain-node actions carry it. consolidate()
    /// throws std::invalid_argument (naming the known ones) for an unknown name.
    std::string policy;
    /// A topology level's label key (Topology::levelKeys(), e.g. topology.kubernetes.io/region
    /// or /zone): evicted pods stay inside their node's domain of that level (each drain-node
    /// action carries the domain); "" for no such rule. consolidate() throws
    /// std::invalid_argument (naming the levels) for a key that is not a level.
    std::string keepWithinLabel;
};

/// For a pod that no node takes (ReasonKind::NoFeasibleNode): the filter that turns away the
/// most other nodes, counted as kube-scheduler's "0/N nodes are available" message counts them:
/// each node under the refusal's state (the drain under way, its node excluded) by the first
/// filter, in plugin order, that rejects the pod there (reasons.h), grouped by reason code, so
/// that a taint is named with its key ("untolerated-taint:dedicated=infer:NoSchedule"); the
/// runner-up beside it (on a large fleet a nodeSelector turns most nodes away, and the next
/// filter says why its own pool does not take the pod). Judged
/// once per pod class (model/search/blockingfilter.h) at the first refusal of that class; over
/// a sample of nodes, evenly spaced by node id, the counts scaled to `of`.
struct BlockingFilter {
    std::string code;        // the most common first-failing reason code; "" when not judged
    std::int64_t nodes = 0;  // of the `of` other present nodes, those it rejects (scaled when judged < of)
    std::int64_t of = 0;     // other present nodes
    std::int64_t judged = 0; // nodes judged for this pod (== of unless sampled)
    std::string nextCode;    // the runner-up ("" when no other filter rejects a node judged)
    std::int64_t nextNodes = 0;
    bool operator==(const BlockingFilter&) const = default;
};

/// Why a node stays. `pod` is invalid for reasons of the node itself (prepaid, group minimum).
struct KeptNode {
    NodeId node;
    PodId pod;
    Reason reason; // its message names the pod: "ml/trainer-7 needs nvidia.com/gpu 8; no other node has 8 free"
    BlockingFilter blocking; // no-feasible-node only: which filter turns most nodes away
};

struct ConsolidationResult {
    /// MovePod actions of the pending pods placed first (rules above), to apply before `actions`
    /// (after options.startFrom): the plan is pendingPlaced then actions. Each names the node
    /// the pod ends on (where the drains of `actions` leave it; rules above, "One move per pod"),
    /// except in a cancelled result, where the drains are as the search made them.
    std::vector<PlanAction> pendingPlaced;
    std::vector<std::pair<PodId, NodeId>> pendingPods; // parallel to pendingPlaced: the pod, its node
    std::int64_t pendingLeft = 0;     // pending pods (not terminal) that stay pending, gated ones included
    /// In the order to apply them: per drained node, a MovePod of each of its movable pods straight
    /// to the node it ends on (a node the plan keeps), then the node's DrainNode (rules above,
    /// "One move per pod"); a node drained by fallback has its DrainNode alone.
    std::vector<PlanAction> actions;
    std::vector<NodeId> drained;      // the DrainNode actions' nodes, in order
    std::int64_t nodesFreed = 0;
    std::int64_t podsMoved = 0;       // pods the drains take off their nodes, each counted once
    std::int64_t evictions = 0;       // evictions the drains make: podsMoved, plus one for each
                                      // further move of a pod a fallback drain put on a node drained later
    std::int64_t fallbackDrains = 0;  // drained nodes whose pods could not all go straight to their
                                      // node, drained by the placement policy instead
    double savedPerHour = 0;          // sum of the drained nodes' prices ($/h; prepaid nodes are never drained;
                                      // a node without a price, unpriced, adds nothing)
    double unpricedEstimatePerHour = 0; // what the drained unpriced nodes' capacity costs at the priced
                                      // nodes' rate ($/h, rules above): how the search ranks them, no known saving
    std::vector<KeptNode> kept;       // every present node that stays, by NodeId
    PlanTotals before, after;
    std::int64_t drainsTried = 0;     // DrainNode actions applied (kept or undone)
    bool cancelled = false;
    bool timedOut = false;            // options.timeLimitSeconds was reached
    double seconds = 0;
    std::string order;                // the order that won: "saving-per-budget", "small-nodes-budgets-last", "disruption-cost", "small-nodes-first" (also after a promotion pass moved nodes to its front)
};

/// Our consolidation (rules above). Throws nothing for a valid store; options.startFrom, then
/// the result's pendingPlaced, then its actions, applied in order to a fresh PlanEngine over the
/// same store and prices, all hold.
[[nodiscard]] ConsolidationResult consolidate(const ClusterStore& store, const Topology& topology, const ConsolidationInput& input,
    const ConsolidationOptions& options = {});

/// Savings per hour within this share of the larger count as equal when plans are compared.
inline constexpr double kSavingTolerance = 0.02;

/// True when the plan `a` is better than `b`: saves more per hour (by more than a micro-dollar
/// and more than kSavingTolerance of the larger saving), then frees more nodes, then saves
/// more, then moves fewer pods. The saving compared is savedPerHour plus
/// unpricedEstimatePerHour: an unpriced node counts at its capacity's estimate, not at $0. A plan that frees more nodes for at most 2% less saving wins:
/// each node kept is one more to run, patch and watch, which its price does not count, and the
/// drain orders' savings differ by about that much while their nodes freed differ by a fifth.
[[nodiscard]] bool betterPlan(const ConsolidationResult& a, const ConsolidationResult& b) noexcept;

} // namespace fleet::model
