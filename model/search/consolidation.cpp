// SPDX-License-Identifier: Apache-2.0
// Our consolidation: greedy drains in several orders, then promotion passes of the best one (consolidation.h).
#include "consolidation.h"

#include "consolidation_p.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace fleet::model {

using consolidation_detail::DrainOrder;
using consolidation_detail::DrainRunner;
using consolidation_detail::drainOrders;

namespace {

/// The share of ConsolidationOptions::timeLimitSeconds the search may take; the rest is for
/// applyOneMovePerPod(), which applies each of the plan's moves once (the search applied each
/// drain, and undid the refused ones, in each of its passes). At 100,000 simulated nodes with
/// 30 s, the search stopped at 27 s (90%) and applying its 177,649 moves took 3.6 s: 30.6 s in
/// all; at 85%, 29.0 s and the same plan (22,812 nodes freed): the cut falls in the last
/// order, which wins at no size of the one-region fleet.
constexpr double kSearchShareOfLimit = 0.85;

/// Drains every candidate of `runner` in `order`, reporting progress over [from, to], until
/// cancelled or `deadline` (when set).
ConsolidationResult drainInOrder(DrainRunner& runner, const std::vector<NodeId>& order, const char* name, double from, double to,
    std::optional<std::chrono::steady_clock::time_point> deadline)
{
    bool late = false;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (runner.cancelled())
            break;
        if (deadline && (i % 16 == 0) && std::chrono::steady_clock::now() >= *deadline) {
            late = true;
            break;
        }
        if (i % 1000 == 0)
            runner.progress(from + (to - from) * static_cast<double>(i) / static_cast<double>(order.size()));
        runner.tryDrain(order[i]);
    }
    ConsolidationResult r = runner.finish(name);
    r.timedOut = late;
    return r;
}

} // namespace

namespace consolidation_detail {

std::vector<DrainOrder> drainOrders(const DrainRunner& runner)
{
    const ClusterStore& s = runner.store();
    auto byName = [&](NodeId a, NodeId b) { return s.nodeName(a) < s.nodeName(b); };
    auto empty = [&](NodeId n) { return runner.movableCount(n) == 0; };
    // The most saving per unit of load; then the lighter; then by name.
    auto savingPerLoad = [&](NodeId a, NodeId b) {
        const double ka = runner.saving(a) / (runner.load(a) + 0.01), kb = runner.saving(b) / (runner.load(b) + 0.01);
        if (ka != kb)
            return ka > kb;
        if (runner.load(a) != runner.load(b))
            return runner.load(a) < runner.load(b);
        return byName(a, b);
    };
    // Small nodes first (GPUs on GPU nodes, else cpu), then the fewest movable pods, then
    // the lighter: the large nodes stay as destinations, which packs better when a pool
    // mixes node sizes, and a node with few pods fits them into the gaps of fuller ones.
    auto size = [&](NodeId n) {
        const ResourceVector& a = s.nodeAllocatable(n);
        return std::make_pair(a[CoreResource::Gpu], a[CoreResource::Cpu]);
    };
    auto smallFirst = [&](NodeId a, NodeId b) {
        if (size(a) != size(b))
            return size(a) < size(b);
        if (runner.movableCount(a) != runner.movableCount(b))
            return runner.movableCount(a) < runner.movableCount(b);
        if (runner.load(a) != runner.load(b))
            return runner.load(a) < runner.load(b);
        return byName(a, b);
    };
    std::vector<DrainOrder> orders(4);
    // Empty nodes first; then the most saving per share of the scarce disruption budgets the
    // drain spends (budgetShare(), + 0.05 so that nodes no scarce budget guards come first, the
    // dearest first); then saving per load. Saving per load alone spent the budgets on cheap
    // nodes with many guarded pods: at 2,000 simulated nodes it freed 357 nodes for $4,373/h,
    // this order 394 for $4,362/h (20,000: 3,247 for $74,062/h, this 3,660 for $74,652/h).
    orders[0].name = "saving-per-budget";
    orders[0].nodes = runner.candidates();
    std::sort(orders[0].nodes.begin(), orders[0].nodes.end(), [&](NodeId a, NodeId b) {
        if (empty(a) != empty(b))
            return empty(a);
        const double ka = runner.saving(a) / (runner.budgetShare(a) + 0.05), kb = runner.saving(b) / (runner.budgetShare(b) + 0.05);
        if (ka != kb)
            return ka > kb;
        return savingPerLoad(a, b);
    });
    // Small nodes first, the nodes a scarce budget guards after all others: the same nodes
    // freed as small nodes first at 2,000 nodes (443) for $38/h more, and it keeps the budgets
    // for the drains that free the most.
    orders[1].name = "small-nodes-budgets-last";
    orders[1].nodes = runner.candidates();
    std::sort(orders[1].nodes.begin(), orders[1].nodes.end(), [&](NodeId a, NodeId b) {
        const bool ga = runner.budgetShare(a) > 0, gb = runner.budgetShare(b) > 0;
        if (ga != gb)
            return gb;
        return smallFirst(a, b);
    });
    orders[2].name = "small-nodes-first";
    orders[2].nodes = runner.candidates();
    std::sort(orders[2].nodes.begin(), orders[2].nodes.end(), smallFirst);
    // Karpenter's order (disruption cost, karpenterbaseline.h), drained greedily node by node;
    // last, as it won at no size of the one-region simulated fleet, so that a time limit cuts it first.
    orders[3].name = "disruption-cost";
    orders[3].nodes = runner.candidates();
    std::stable_sort(orders[3].nodes.begin(), orders[3].nodes.end(), [&](NodeId a, NodeId b) {
        if (runner.disruptionCost(a) != runner.disruptionCost(b))
            return runner.disruptionCost(a) < runner.disruptionCost(b);
        return byName(a, b);
    });
    return orders;
}

} // namespace consolidation_detail

bool betterPlan(const ConsolidationResult& a, const ConsolidationResult& b) noexcept
{
    const double sa = a.savedPerHour + a.unpricedEstimatePerHour, sb = b.savedPerHour + b.unpricedEstimatePerHour;
    const double gap = std::abs(sa - sb);
    const double near = kSavingTolerance * std::max(std::abs(sa), std::abs(sb));
    if (gap > 1e-6 && gap > near)
        return sa > sb;
    if (a.nodesFreed != b.nodesFreed)
        return a.nodesFreed > b.nodesFreed;
    if (gap > 1e-6)
        return sa > sb;
    return a.podsMoved < b.podsMoved;
}

namespace consolidation_detail {

ConsolidationResult searchDrains(DrainRunner& runner, bool bestOfOrders, std::optional<std::chrono::steady_clock::time_point> deadline,
    const std::function<bool(const ConsolidationResult&)>& onPass)
{
    const std::vector<DrainOrder> orders = drainOrders(runner);
    const std::size_t orderPasses = bestOfOrders ? orders.size() : 1;
    const bool promote = bestOfOrders && runner.candidates().size() <= kPromotionMaxCandidates;
    const double share = 1.0 / static_cast<double>(orderPasses + (promote ? kPromotionPasses : 0));
    std::size_t passes = 0;
    bool stop = false;
    auto pass = [&](const std::vector<NodeId>& order, const char* name) {
        if (passes > 0)
            runner.reset();
        const double from = share * static_cast<double>(passes++);
        ConsolidationResult r = drainInOrder(runner, order, name, from, from + share, deadline);
        stop = onPass && onPass(r);
        return r;
    };
    ConsolidationResult best = pass(orders[0].nodes, orders[0].name);
    std::vector<NodeId> bestOrder = orders[0].nodes;
    const char* bestName = orders[0].name;
    // Keeps the better of `other` and best; true when other won.
    auto compare = [&](ConsolidationResult&& other) {
        const bool cancelledNow = other.cancelled, late = other.timedOut;
        const bool won = betterPlan(other, best); // a pass cut short holds too, so far as it went
        if (won)
            best = std::move(other);
        best.cancelled = best.cancelled || cancelledNow;
        best.timedOut = best.timedOut || late;
        return won;
    };
    if (stop)
        return best;
    for (std::size_t i = 1; i < orderPasses && !best.cancelled && !best.timedOut; ++i) {
        ConsolidationResult other = pass(orders[i].nodes, orders[i].name);
        if (stop)
            return other;
        if (compare(std::move(other))) {
            bestOrder = orders[i].nodes;
            bestName = orders[i].name;
        }
    }
    // Promotion: a node kept because a disruption budget was spent when its turn came, moved to
    // the front of the best order, gets the budget first. The greedy spends the scarce budgets on
    // the nodes before it in the order (small nodes first: some of them also go when the budget is
    // not theirs, as their pods fit elsewhere anyway), and a node that needs the budget to go is
    // then kept. At 2,000 simulated nodes the third such pass freed 4 more nodes and the fourth
    // one more (1,552 -> 1,547 kept against an LP bound of 1,407); promoting the nodes kept for
    // want of room freed about one node per 20 passes. Each pass is a whole greedy pass again
    // (the order changes from its first node), hence the few passes, and none on a large fleet
    // (kPromotionMaxCandidates); the plan keeps its order's name.
    int promotions = 0;
    for (bool improved = promote; improved && promotions < kPromotionPasses && !best.cancelled && !best.timedOut;) {
        improved = false;
        std::vector<NodeId> budgetKept;
        for (const KeptNode& k : best.kept)
            if (k.reason.kind == ReasonKind::DisruptionBudget)
                budgetKept.push_back(k.node);
        for (const NodeId front : budgetKept) {
            if (promotions >= kPromotionPasses || best.cancelled || best.timedOut)
                break;
            ++promotions;
            std::vector<NodeId> order;
            order.reserve(bestOrder.size());
            order.push_back(front);
            for (const NodeId n : bestOrder)
                if (n != front)
                    order.push_back(n);
            ConsolidationResult other = pass(order, bestName);
            if (stop)
                return other;
            if (compare(std::move(other))) {
                bestOrder = std::move(order);
                improved = true;
                break;
            }
        }
    }
    return best;
}

} // namespace consolidation_detail

ConsolidationResult consolidate(const ClusterStore& store, const Topology& topology, const ConsolidationInput& input, const ConsolidationOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    std::optional<std::chrono::steady_clock::time_point> deadline;
    // The search stops at kSearchShareOfLimit of the limit: the rest is for applying its plan
    // one move per pod (consolidation.h), which the limit counts too.
    if (options.timeLimitSeconds > 0)
        deadline = start
            + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(options.timeLimitSeconds * kSearchShareOfLimit));
    DrainRunner runner(store, topology, input, options);
    if (options.pendingPlaced)
        options.pendingPlaced(runner.pendingPods());
    ConsolidationResult best = consolidation_detail::searchDrains(runner, options.bestOfOrders, deadline);
    if (best.cancelled) {
        // Stopped by the caller: the drains as the search made them, each of which held; the
        // moves are left unchecked, so they are left out.
        std::erase_if(best.actions, [](const PlanAction& a) { return a.type != ActionType::DrainNode; });
        best.podsMoved = best.evictions;
        // and the pending pods where the search first put them, as its drains found them
        best.pendingPlaced = runner.pendingPlaced();
        best.pendingPods = runner.pendingPods();
    } else {
        runner.applyOneMovePerPod(best);
    }
    runner.progress(1.0);
    best.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return best;
}

} // namespace fleet::model
