// SPDX-License-Identifier: Apache-2.0
// bench_consolidate: consolidation (model/search/consolidation.h) of the simulated fleet,
// with the Karpenter multi-node baseline beside it (karpenterbaseline.h) and the lower bound
// (consolidationbound.h).
//
//   bench_consolidate [NODES] [SEED] [LIMIT_S] [REGIONS] [integer]   (defaults 100000, 1, 30 and 1)
//
// REGIONS is SimulationSpec::regionCount: 1, the default, is one regional cluster (us-west-2
// and its zones); 4 is the four-region fleet every figure was measured on before the one-region
// default (several clusters' worth of nodes: a plan there moves pods across regions, which no
// cluster can). The line before the JSON says the fleet, and how many of the plan's pod moves
// (its drains replayed in a PlanEngine) cross a region or a zone. "integer" also solves the
// integer program over the LP's classes with Cbc (slow: minutes at 2,000 nodes).
//
// LIMIT_S is ConsolidationOptions::timeLimitSeconds for ours (0: none): at 100,000 nodes the
// whole search takes longer than the 30 s target, so the figure is the plan found within it
// (the lines before the JSON say whether the limit was reached).
// Generates the simulated cluster, prices its nodes from the shipped price table (as the
// window and `plan consolidate` do), runs ours (both orders, consolidation.h) and the
// baseline, each timed from its own PlanEngine's construction to its result, and prints
// progress lines, then one JSON object last:
//   {"nodes", "pods", "seconds", "nodes_freed", "lower_bound_nodes", "baseline_nodes_freed",
//    "baseline_seconds", "gang_pods", "gang_place_ms", "gang_reject_ms"}
// (the gang keys: gang placement, tests/bench/gangbench.h, as bench_gang prints them), then
// "cpu_seconds" (ours: the process's CPU time over every thread, std::clock), "saved_per_hour" and
// "baseline_saved_per_hour" ($/h). Also prints, on lines before
// the JSON, the cost per hour saved, pods moved and drains tried of both. Then the LP bound
// (model/search/packingrelaxation.h, solved by Clp: importers/solver/coinsolver.h, 300 s limit,
// timed apart from the search): "lp_bound_nodes" (0 when the solver gave none),
// "lp_bound_seconds" (building the classes and the program, then solving it) and
// "ratio_to_bound" (the plan's node count over the better of the two bounds). Before the LP
// bound, the nodes the plan keeps counted by the kind of reason that keeps them. With
// `integer`, also the integer program over the same classes (Cbc, 300 s limit; small fleets
// only), printed on a line before the JSON. Passes or fails nothing.

#include "gangbench.h"
#include "importers/clusterloader.h"
#include "importers/pricing/pricetableloader.h"
#include "importers/solver/coinsolver.h"
#include "model/metrics/metric.h"
#include "model/plan/plan.h"
#include "model/search/consolidation.h"
#include "model/search/consolidationbound.h"
#include "model/search/karpenterbaseline.h"
#include "model/search/packingrelaxation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>

int main(int argc, char** argv)
{
    using namespace fleet;
    using namespace fleet::model;
    using Clock = std::chrono::steady_clock;
    const std::size_t nodeCount = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
    const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    const double limit = argc > 3 ? std::strtod(argv[3], nullptr) : 30.0;
    const std::size_t regions = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
    const bool integerToo = argc > 5 && std::string(argv[5]) == "integer";
    const auto t0 = Clock::now();
    auto cluster = importers::loadSimulatedCluster({ nodeCount, seed, regions });
    const ClusterStore& store = *cluster.store;
    std::printf("fleet: the simulated cluster, %zu nodes, seed %llu, %zu region%s\n", nodeCount, static_cast<unsigned long long>(seed),
        regions, regions == 1 ? " (one cluster)" : "s (several clusters' worth)");
    std::printf("generated %zu nodes, %zu pods in %.0f ms\n", store.nodeCount(), store.podCount(),
        std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    const PriceTable prices = importers::loadPriceTable("");
    ConsolidationInput input;
    {
        const MetricContext context(store, &prices);
        input.nodePricePerHour.resize(store.nodeCount());
        for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
            const double p = context.nodeDollarsPerHour(NodeId(i));
            input.nodePricePerHour[i] = std::isnan(p) ? 0.0 : p;
        }
    }
    ConsolidationOptions options;
    options.progress = [](double f) { std::fprintf(stderr, "\r  %3.0f%%", f * 100); };
    ConsolidationOptions limited = options;
    limited.timeLimitSeconds = limit;
    const std::clock_t cpu0 = std::clock();
    const ConsolidationResult ours = consolidate(store, *cluster.topology, input, limited);
    const double oursCpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    std::fprintf(stderr, "\n");
    // Over the loaded state with the pending pods where the plan placed them first (consolidation.h).
    const NodeCountBound bound = nodeCountLowerBound(store, ours.pendingPods);
    for (const NodeCountBound::Row& r : bound.rows)
        std::printf("  bound %-10s %-16s requested %lld, largest %lld: %lld by requests, %lld pinned -> %lld\n", r.gpuModel.c_str(),
            r.resource.c_str(), static_cast<long long>(r.requested), static_cast<long long>(r.largestAllocatable),
            static_cast<long long>(r.byRequests), static_cast<long long>(r.pinnedNodes), static_cast<long long>(r.bound));
    std::printf("ours (%s%s): %lld nodes freed, %lld pods moved, $%.2f/h saved, %lld drains tried, %.2f s (%.2f s CPU, every thread); %lld nodes after, bound %lld (ratio %.3f)\n",
        ours.order.c_str(), ours.timedOut ? ", stopped at the time limit" : "", static_cast<long long>(ours.nodesFreed), static_cast<long long>(ours.podsMoved), ours.savedPerHour,
        static_cast<long long>(ours.drainsTried), ours.seconds, oursCpu, static_cast<long long>(ours.after.nodes), static_cast<long long>(bound.nodes),
        bound.nodes > 0 ? static_cast<double>(ours.after.nodes) / static_cast<double>(bound.nodes) : 0.0);
    {
        // What keeps the nodes the plan keeps: per reason kind (a pinned node's pod, a pod that
        // found no room, prepaid, ...), so the gap to the bound can be read.
        std::map<std::string, std::int64_t> byKind;
        for (const KeptNode& k : ours.kept)
            ++byKind[std::string(reasonKindInfo(k.reason.kind).stem)];
        // The nodes kept for a pod that found no room, by what that pod asks beyond resources.
        std::int64_t anti = 0, hardSpread = 0, gpu = 0, other = 0;
        for (const KeptNode& k : ours.kept) {
            if (k.reason.kind != ReasonKind::NoFeasibleNode && k.reason.kind != ReasonKind::Insufficient)
                continue;
            if (!k.pod.isValid())
                ++other;
            else if (!store.podAntiAffinity(k.pod).empty())
                ++anti;
            else if (std::any_of(store.podSpreadConstraints(k.pod).begin(), store.podSpreadConstraints(k.pod).end(),
                         [](const TopologySpreadConstraint& c) { return c.whenUnsatisfiable == WhenUnsatisfiable::DoNotSchedule; }))
                ++hardSpread;
            else if (store.podRequest(k.pod)[CoreResource::Gpu] > 0)
                ++gpu;
            else
                ++other;
        }
        std::printf("  kept for a pod without room: %lld with required anti-affinity, %lld with a DoNotSchedule spread, %lld GPU pods, %lld others\n",
            static_cast<long long>(anti), static_cast<long long>(hardSpread), static_cast<long long>(gpu), static_cast<long long>(other));
        for (const auto& [stem, count] : byKind)
            std::printf("  kept because %-28s %lld nodes\n", stem.c_str(), static_cast<long long>(count));
    }
    std::fflush(stdout);
    {
        // The plan's pod moves, by the boundary they cross (the drains replayed as plan check does).
        PlanEngine replay(store, *cluster.topology, input.nodePricePerHour);
        for (const PlanAction& a : ours.pendingPlaced)
            (void)replay.apply(a);
        const StringId regionKey = store.strings().find("topology.kubernetes.io/region");
        const StringId zoneKey = store.strings().find("topology.kubernetes.io/zone");
        std::int64_t moves = 0, acrossRegions = 0, acrossZones = 0;
        std::map<std::uint32_t, int> movesOfPod; // evictions per pod: 1 each unless a drain fell back
        for (const PlanAction& a : ours.actions)
            for (const AppliedAction::PodChange& c : replay.apply(a).changes) {
                if (!c.from.isValid() || !c.to.isValid() || c.to.index() >= store.nodeCount())
                    continue;
                ++moves;
                ++movesOfPod[c.pod.value];
                acrossRegions += store.nodeLabel(c.from, regionKey) != store.nodeLabel(c.to, regionKey);
                acrossZones += store.nodeLabel(c.from, zoneKey) != store.nodeLabel(c.to, zoneKey);
            }
        std::printf("moves: %lld pods moved by the drains, %lld across a region (%.1f%%), %lld across a zone (%.1f%%)\n",
            static_cast<long long>(moves), static_cast<long long>(acrossRegions), moves ? 100.0 * acrossRegions / moves : 0.0,
            static_cast<long long>(acrossZones), moves ? 100.0 * acrossZones / moves : 0.0);
        int most = 0;
        std::int64_t again = 0;
        for (const auto& [pod, n] : movesOfPod) {
            most = std::max(most, n);
            again += n > 1 ? 1 : 0;
        }
        std::printf("moves: %lld evictions of %zu pods, %lld of them moved more than once (at most %d times); %lld drains fell back on the policy\n",
            static_cast<long long>(moves), movesOfPod.size(), static_cast<long long>(again), most, static_cast<long long>(ours.fallbackDrains));
        std::fflush(stdout);
    }
    PackingRelaxationOptions lpOptions;
    lpOptions.timeLimitSeconds = 300;
    const PackingBound lp = packingLowerBound(store, ours.pendingPods, lpOptions, importers::solveWithCoin);
    const std::int64_t betterBound = std::max(bound.nodes, lp.valid ? lp.nodes : 0);
    const double ratioToBound = betterBound > 0 ? static_cast<double>(ours.after.nodes) / static_cast<double>(betterBound) : 0.0;
    std::printf("LP bound (%s): %lld nodes (%.2f), %zu node classes (%zu pinned nodes), %zu pod classes (%zu movable pods), "
                "%zu columns, %zu rows; built in %.2f s, solved in %.2f s; ours keeps %lld: %.3f of the better bound\n",
        lp.status.c_str(), static_cast<long long>(lp.nodes), lp.objective, lp.nodeClasses, lp.pinnedNodes, lp.podClasses, lp.movablePods,
        lp.columns, lp.rows, lp.buildSeconds, lp.solveSeconds, static_cast<long long>(ours.after.nodes), ratioToBound);
    std::fflush(stdout);
    if (integerToo) {
        // The integer program over the same classes (Cbc), to see how loose the relaxation is.
        PackingRelaxationOptions ipOptions;
        ipOptions.integer = true;
        ipOptions.timeLimitSeconds = 300;
        const PackingBound ip = packingLowerBound(store, ours.pendingPods, ipOptions, importers::solveWithCoin);
        std::printf("integer program (%s): %lld nodes (%.2f proven), solved in %.2f s; ours keeps %lld: %.3f of it\n", ip.status.c_str(),
            static_cast<long long>(ip.nodes), ip.objective, ip.solveSeconds, static_cast<long long>(ours.after.nodes),
            ip.valid && ip.nodes > 0 ? static_cast<double>(ours.after.nodes) / static_cast<double>(ip.nodes) : 0.0);
        std::fflush(stdout);
    }
    const ConsolidationResult base = karpenterMultiNodeConsolidation(store, *cluster.topology, input, options);
    std::fprintf(stderr, "\n");
    std::printf("baseline (karpenter multi-node, deletion only): %lld nodes freed, %lld pods moved, $%.2f/h saved, %lld drains tried, %.2f s\n",
        static_cast<long long>(base.nodesFreed), static_cast<long long>(base.podsMoved), base.savedPerHour,
        static_cast<long long>(base.drainsTried), base.seconds);
    const std::size_t pods = store.podCount(); // before the gang's template pod joins the store
    // Gang placement (gangbench.h, as bench_gang): last, since it adds its template pod.
    const gangbench::GangFigures gang = gangbench::measureGang(*cluster.store, *cluster.topology);
    std::printf("gang: %d pods in one layer-1 domain with slices of 16 per layer-3 block, %.1f ms; %d more rejected in %.1f ms (%s); "
                "without slices %d pods in %.1f ms; ledger %.0f ms before; at most %d nodes of one layer-3 block take an 8-GPU pod "
                "(%d blocks have the 16 a slice needs)\n",
        gang.gangPods, gang.placeMs, 16, gang.rejectMs, gang.rejectReason.c_str(), gang.unslicedPods, gang.unslicedPlaceMs, gang.ledgerMs,
        gang.blockNodesMax, gang.blocksWhole);
    std::printf("{\"nodes\": %zu, \"pods\": %zu, \"seconds\": %.3f, \"nodes_freed\": %lld, \"lower_bound_nodes\": %lld, "
                "\"baseline_nodes_freed\": %lld, \"baseline_seconds\": %.3f, \"gang_pods\": %d, \"gang_place_ms\": %.1f, "
                "\"gang_reject_ms\": %.1f, \"cpu_seconds\": %.3f, \"saved_per_hour\": %.2f, \"baseline_saved_per_hour\": %.2f, "
                "\"pending_placed\": %zu, \"pending_left\": %lld, \"lp_bound_nodes\": %lld, \"lp_bound_seconds\": %.3f, "
                "\"ratio_to_bound\": %.4f}\n",
        store.nodeCount(), pods, ours.seconds, static_cast<long long>(ours.nodesFreed), static_cast<long long>(bound.nodes),
        static_cast<long long>(base.nodesFreed), base.seconds, gang.gangPods, gang.placeMs, gang.rejectMs, oursCpu, ours.savedPerHour, base.savedPerHour,
        ours.pendingPlaced.size(), static_cast<long long>(ours.pendingLeft), static_cast<long long>(lp.valid ? lp.nodes : 0),
        lp.buildSeconds + lp.solveSeconds, ratioToBound);
    return 0;
}
