// SPDX-License-Identifier: Apache-2.0
#pragma once
// drain_ms for bench_whatif: draining one node of a typical ~30 pods through the plan engine
// (model/plan/plan.h), PodDisruptionBudgets checked, each pod placed by the default policy
// (best fit from the capacity index). The simulated fleet has no PodDisruptionBudgets, so one
// is added per workload on the drained nodes (maxUnavailable 25%, selecting the workload's
// label set, with status.disruptionsAllowed 1000: the simulated pods are not marked Ready) before
// the engine is built. Median over up to 20 nodes across the fleet with 25 to
// 35 pods (or the nodes closest to 30); each drain is undone before the next.

#include "model/plan/plan.h"
#include "model/topology.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace whatifdrain {

struct Result {
    double drainMs = -1;
    double engineBuildMs = 0; // the ledger and (first drain) the capacity index: once per loaded cluster
    std::size_t nodes = 0;
    double podsPerNode = 0;
};

inline std::size_t movablePods(const fleet::model::ClusterStore& store, fleet::model::NodeId n)
{
    std::size_t count = 0;
    for (const fleet::model::PodId p : store.nodePods(n))
        count += store.podOwnerKind(p) != fleet::model::OwnerKind::DaemonSet && !store.podIsMirror(p) ? 1 : 0;
    return count;
}

/// Picks the nodes, adds the budgets to `store` (before any PlanLedger is built over it).
inline std::vector<fleet::model::NodeId> prepare(fleet::model::ClusterStore& store)
{
    using namespace fleet::model;
    std::vector<std::pair<std::size_t, NodeId>> byDistance;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const std::size_t k = movablePods(store, NodeId(i));
        byDistance.emplace_back(k > 30 ? k - 30 : 30 - k, NodeId(i));
    }
    std::stable_sort(byDistance.begin(), byDistance.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<NodeId> candidates;
    for (const auto& [d, n] : byDistance)
        if (d <= 5 || candidates.size() < 20)
            candidates.push_back(n);
    std::vector<NodeId> nodes;
    const std::size_t stride = std::max<std::size_t>(1, candidates.size() / 20);
    for (std::size_t i = 0; i < candidates.size() && nodes.size() < 20; i += stride)
        nodes.push_back(candidates[i]);
    std::set<std::pair<std::string, std::string>> seen;
    for (const NodeId n : nodes)
        for (const PodId p : store.nodePods(n)) {
            if (!store.podWorkload(p).isValid() || store.podOwnerKind(p) == OwnerKind::DaemonSet || store.podLabels(p).empty())
                continue;
            const std::string ns(store.podNamespace(p));
            const std::string name = "bench-" + std::string(store.workloadName(store.podWorkload(p)));
            if (!seen.insert({ ns, name }).second)
                continue;
            DisruptionBudgetRecord r;
            r.namespaceName = ns;
            r.name = name;
            for (const Label& l : store.podLabels(p))
                r.matchLabels.emplace_back(std::string(store.str(l.key)), std::string(store.str(l.value)));
            r.maxUnavailable = { true, true, 25 };
            // The simulated pods carry no Ready condition (PodFlagReady), so a computed budget
            // would allow nothing; a status keeps every budget checked without stopping the drain.
            r.disruptionsAllowed = 1000;
            store.addDisruptionBudget(r);
        }
    return nodes;
}

inline Result measure(const fleet::model::ClusterStore& store, const fleet::model::Topology& topology,
    const std::vector<fleet::model::NodeId>& nodes)
{
    using namespace fleet::model;
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
    Result r;
    const auto t0 = Clock::now();
    PlanEngine engine(store, topology);
    r.engineBuildMs = ms(t0);
    std::vector<double> times;
    std::size_t pods = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        PlanAction drain;
        drain.type = ActionType::DrainNode;
        drain.node = std::string(store.nodeName(nodes[i]));
        const auto t = Clock::now();
        const AppliedAction& a = engine.apply(drain);
        const double took = ms(t);
        if (i == 0) {
            std::printf("  plan engine: ledger %.1f ms, first drain (builds the capacity index and the budgets) %.1f ms\n", r.engineBuildMs, took);
            r.engineBuildMs += took; // the first drain builds the capacity index; drained again below
            engine.undo();
            const auto again = Clock::now();
            engine.apply(drain);
            times.push_back(ms(again));
        } else {
            times.push_back(took);
        }
        const AppliedAction& done = engine.applied().back();
        std::printf("  drain %-40s %zu pods: %zu moved, %zu stay, %.2f ms%s\n", drain.node.c_str(), movablePods(store, nodes[i]),
            done.changes.size(), done.unplaced.size(), times.back(), done.holds ? "" : " (does not hold)");
        (void)a;
        if (!done.unplaced.empty() && std::getenv("BENCH_WHATIF_DEBUG"))
            std::printf("    first that stays: %s\n", done.unplaced.front().second.front().message.c_str());
        pods += movablePods(store, nodes[i]);
        engine.undo();
    }
    std::sort(times.begin(), times.end());
    r.nodes = times.size();
    r.drainMs = times.empty() ? -1 : times[times.size() / 2];
    r.podsPerNode = nodes.empty() ? 0 : static_cast<double>(pods) / static_cast<double>(nodes.size());
    return r;
}

} // namespace whatifdrain
