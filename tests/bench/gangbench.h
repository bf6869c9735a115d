// SPDX-License-Identifier: Apache-2.0
#pragma once
// The gang placement figures (gang_pods, gang_place_ms, gang_reject_ms; docs/benchmarks.md), as a
// function that bench_gang and bench_consolidate call on the simulated fleet: the largest gang of 8-GPU pods
// that fits inside one network-node-layer-1 domain with slices of 16 per layer-3 block, found
// (largestTopologyFit) and placed (PlanEngine, a place-pods action), and one slice more,
// rejected with its per-level explanation. Times exclude building the ledger (reported apart).
// The simulated fleet (seed 1, 100,000 nodes) leaves about 1 layer-2 network in 16 of its
// training node groups idle between jobs, whole (importers/simulated/workloadplacement.cpp):
// 136 layer-3 blocks have 16 nodes that each take an 8-GPU pod, and the largest sliced gang in
// one layer-1 domain is 160 pods. Elsewhere at most 8 nodes of a block take one (training leaves
// a node free with 8% chance, inference nodes are 12% idle). tst_topologyplacement
// largestGangWithSlicesOfWholeBlocks pins the search on a small cluster with known answers.

#include "model/clusterstore.h"
#include "model/placement/topologyplacement.h"
#include "model/plan/plan.h"
#include "model/scheduling/filters.h"
#include "model/topology.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>
#include <string>

namespace gangbench {

struct GangFigures {
    int gangPods = 0;
    double placeMs = 0;   // largestTopologyFit + apply
    double rejectMs = 0;  // apply of gangPods + 16, refused
    double ledgerMs = 0;  // the PlanEngine's PlanLedger and its pod-name index, built once before
    int unslicedPods = 0;       // the largest gang in one layer-1 domain without slices
    double unslicedPlaceMs = 0; // found and placed
    bool placed = false, rejected = false;
    int blockNodesMax = 0;      // the most nodes of one layer-3 block that each take one pod (a slice needs 16)
    int blocksWhole = 0;        // layer-3 blocks where 16 nodes take one pod each
    std::string rejectReason; // the first reason's message
};

/// Adds a pending 8-GPU template pod "bench/gang" (tolerating nvidia.com/gpu) to `store`, then
/// measures. `topology` must be the store's. Thread: the caller's.
inline GangFigures measureGang(fleet::model::ClusterStore& store, const fleet::model::Topology& topology)
{
    using namespace fleet::model;
    using Clock = std::chrono::steady_clock;
    auto msSince = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
    PodRecord r;
    r.namespaceName = "bench";
    r.name = "gang";
    r.phase = PodPhase::Pending;
    r.request.setCore(CoreResource::Cpu, 1000);
    r.request.setCore(CoreResource::Memory, 4LL << 30);
    r.request.setCore(CoreResource::Gpu, 8000);
    r.tolerations.emplace_back("nvidia.com/gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
    const PodId templ = store.addPod(r);
    store.finalize();
    GangFigures f;
    auto start = Clock::now();
    PlanEngine engine(store, topology);
    {
        // The engine's pod-name index is built on first use (once per engine, as in the window):
        // a request it refuses after resolving the template builds it outside the timings.
        PlanAction warm;
        warm.type = ActionType::PlacePods;
        warm.pod = { "bench", "gang", "" };
        warm.count = 1;
        warm.requiredLevel = "no-such-level";
        try {
            (void)engine.apply(warm);
        } catch (const std::exception&) {
        }
    }
    f.ledgerMs = msSince(start);
    {
        // Why the sliced gang is what it is: per layer-3 block, the nodes that take one pod
        // (the filters' PodFeasibility, as phase 1 of the placement counts them).
        const PodFeasibility feasibility(engine.state(), templ);
        const StringId l3 = store.strings().find("topology.k8s.aws/network-node-layer-3");
        std::unordered_map<std::uint32_t, int> perBlock;
        for (std::uint32_t i = 0; l3.isValid() && i < store.nodeCount(); ++i)
            if (feasibility.copiesThatFit(NodeId(i), 1) >= 1)
                if (const StringId b = engine.state().nodeLabel(NodeId(i), l3); b.isValid())
                    ++perBlock[b.value];
        for (const auto& [block, count] : perBlock) {
            f.blockNodesMax = std::max(f.blockNodesMax, count);
            f.blocksWhole += count >= 16 ? 1 : 0;
        }
    }

    PlanAction a;
    a.type = ActionType::PlacePods;
    a.pod = { "bench", "gang", "" };
    a.requiredLevel = "topology.k8s.aws/network-node-layer-1";
    a.sliceSize = 16;
    a.sliceLevel = "topology.k8s.aws/network-node-layer-3";
    TopologyRequest request;
    request.pods = 16;
    request.requiredLevel = a.requiredLevel;
    request.sliceSize = a.sliceSize;
    request.sliceLevel = a.sliceLevel;
    start = Clock::now();
    f.gangPods = largestTopologyFit(engine.state(), topology, templ, request);
    if (f.gangPods > 0) {
        a.count = f.gangPods;
        f.placed = engine.apply(a).holds;
    }
    f.placeMs = msSince(start);
    if (f.placed)
        engine.undo(); // the rejection is judged on the same state as the gang
    a.count = f.gangPods + 16;
    start = Clock::now();
    const AppliedAction& refused = engine.apply(a);
    f.rejectMs = msSince(start);
    f.rejected = !refused.holds && refused.podsAdded.empty();
    if (!refused.reasons.empty())
        f.rejectReason = refused.reasons.front().message;

    request.sliceSize = 0;
    request.sliceLevel.clear();
    a.sliceSize = 0;
    a.sliceLevel.clear();
    start = Clock::now();
    f.unslicedPods = largestTopologyFit(engine.state(), topology, templ, request);
    if (f.unslicedPods > 0) {
        a.count = f.unslicedPods;
        (void)engine.apply(a);
    }
    f.unslicedPlaceMs = msSince(start);
    return f;
}

} // namespace gangbench
