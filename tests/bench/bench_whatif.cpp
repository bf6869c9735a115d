// SPDX-License-Identifier: Apache-2.0
// bench_whatif: the what-if engine (model/scheduling) over the simulated fleet.
//
//   bench_whatif [NODES] [SEED]   (defaults 100000 and 1)
//
// Generates the simulated cluster, then adds, beside a sampled pod of each workload kind, a
// twin bound to the same node that carries the constraints the generator does not write: a
// DoNotSchedule spread over zones (maxSkew 1), a required anti-affinity per hostname and a
// required affinity per zone, both against its workload's pods. The twins and the sampled
// pods are the pods timed, so that taints, node affinity, spread and inter-pod rules are all
// in play. Builds the ledger (index_build_ms, counted once per loaded cluster), then for each
// pod: shade_ms (PodFeasibility built + feasibleNodes over every node), move_apply_us
// (movePod to a feasible node + its re-evaluation: the moved pod's verdict on its old and new
// node through one PodFeasibility, the two nodes' figures and the totals), undo_us
// (restorePod). Prints progress lines, then one JSON object last, medians over the pods.
// drain_ms: whatifdrain.h (the plan engine's drain of a ~30-pod node). Passes or fails nothing.

#include "importers/clusterloader.h"
#include "model/scheduling/filters.h"
#include "whatifdrain.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace fleet;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

double median(std::vector<double> v)
{
    if (v.empty())
        return -1;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// A twin of `p` on the same node, with spread, anti-affinity and affinity on its workload's label.
model::PodRecord twinOf(model::ClusterStore& store, model::PodId p, std::size_t workloadPods)
{
    using namespace model;
    PodRecord r;
    r.namespaceName = std::string(store.podNamespace(p));
    r.name = std::string(store.podName(p)) + "-whatif";
    r.nodeName = std::string(store.podNodeName(p));
    r.phase = PodPhase::Running;
    r.ownerKind = OwnerKind::None;
    const ResourceVector& req = store.podRequest(p);
    for (CoreResource c : { CoreResource::Cpu, CoreResource::Memory, CoreResource::Gpu, CoreResource::EphemeralStorage })
        if (req[c] != 0)
            r.request.setCore(c, req[c]);
    for (const auto& [key, v] : store.podExtendedRequest(p))
        r.request.set(key, v);
    for (const Toleration& t : store.podTolerations(p))
        r.tolerations.emplace_back(std::string(store.str(t.key)), t.op, std::string(store.str(t.value)), t.effect);
    for (const Label& l : store.podNodeSelector(p))
        r.nodeSelector.emplace_back(std::string(store.str(l.key)), std::string(store.str(l.value)));
    for (const NodeSelectorTerm& t : store.podRequiredAffinity(p)) {
        std::vector<PodRecord::Requirement> reqs;
        for (const NodeSelectorRequirement& q : t.requirements) {
            PodRecord::Requirement x { std::string(store.str(q.key)), q.op, {}, q.matchField };
            for (StringId v : q.values)
                x.values.emplace_back(store.str(v));
            reqs.push_back(std::move(x));
        }
        r.requiredAffinityTerms.push_back(std::move(reqs));
    }
    for (const Label& l : store.podLabels(p))
        r.labels.emplace_back(std::string(store.str(l.key)), std::string(store.str(l.value)));
    if (!r.labels.empty()) {
        const auto& [k, v] = r.labels.front();
        const InternedSelector sel = store.internSelector(false, { { k, v } }, {});
        TopologySpreadConstraint spread;
        spread.topologyKey = store.strings().intern("topology.kubernetes.io/zone");
        // The generator keeps a workload in few zones: a skew of 1 would pin the twin to its
        // node. One more than the workload has pods keeps the rule in play without pinning it.
        spread.maxSkew = static_cast<std::int32_t>(workloadPods + 1);
        spread.selector = sel;
        r.spreadConstraints.push_back(spread);
        PodAffinityTerm anti;
        anti.selector = sel;
        anti.topologyKey = store.strings().intern("kubernetes.io/hostname");
        r.podAntiAffinity.push_back(anti);
        PodAffinityTerm near;
        near.selector = sel;
        near.topologyKey = store.strings().intern("topology.kubernetes.io/zone");
        r.podAffinity.push_back(near);
    }
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace fleet::model;
    const std::size_t nodeCount = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
    const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;

    auto start = Clock::now();
    auto cluster = importers::loadSimulatedCluster({ nodeCount, seed });
    ClusterStore& store = *cluster.store;
    std::printf("generated %zu nodes, %zu pods in %.0f ms\n", store.nodeCount(), store.podCount(), msSince(start));

    // Sample up to 4 bound, non-DaemonSet pods of each workload kind, spread over the pod ids.
    std::map<OwnerKind, std::vector<PodId>> byKind;
    const std::size_t stride = std::max<std::size_t>(1, store.podCount() / 4096);
    for (std::size_t i = 0; i < store.podCount(); i += stride) {
        const PodId p(static_cast<std::uint32_t>(i));
        const OwnerKind k = store.podOwnerKind(p);
        if (store.podIsCounted(p) && k != OwnerKind::DaemonSet && !store.podIsMirror(p) && byKind[k].size() < 4)
            byKind[k].push_back(p);
    }
    std::vector<PodId> pods;
    const std::size_t firstTwin = store.podCount();
    std::vector<PodRecord> twins;
    for (const auto& [kind, list] : byKind)
        for (PodId p : list) {
            pods.push_back(p);
            std::size_t siblings = 0;
            for (std::size_t q = 0; q < store.podCount(); ++q)
                siblings += store.podWorkload(PodId(static_cast<std::uint32_t>(q))) == store.podWorkload(p) ? 1 : 0;
            twins.push_back(twinOf(store, p, siblings));
        }
    for (const PodRecord& r : twins)
        pods.push_back(store.addPod(r));
    const std::vector<NodeId> drainNodes = whatifdrain::prepare(store);
    store.finalize();
    std::printf("timing %zu pods over %zu workload kinds (%zu twins with spread and inter-pod rules, from pod %zu)\n", pods.size(),
        byKind.size(), twins.size(), firstTwin);

    PlanLedger state(store);
    std::printf("ledger built in %.1f ms\n", state.buildMs());

    std::vector<double> shadeMs, applyUs, undoUs;
    std::vector<std::uint8_t> mask;
    for (PodId p : pods) {
        const auto t0 = Clock::now();
        const PodFeasibility f(state, p);
        f.feasibleNodes(mask);
        shadeMs.push_back(msSince(t0));
        const auto feasible = static_cast<std::size_t>(std::count(mask.begin(), mask.end(), 1));
        // A feasible destination other than its node, from the middle of the fleet on.
        NodeId to;
        const NodeId from = state.podNode(p);
        for (std::size_t k = 0; k < mask.size() && !to.isValid(); ++k) {
            const std::size_t n = (k + mask.size() / 2) % mask.size();
            if (mask[n] && NodeId(static_cast<std::uint32_t>(n)) != from)
                to = NodeId(static_cast<std::uint32_t>(n));
        }
        std::printf("  %-48s %-14s shade %.2f ms, %zu feasible\n",
            (std::string(store.podNamespace(p)) + "/" + std::string(store.podName(p))).c_str(),
            std::string(ownerKindName(store.podOwnerKind(p))).c_str(), shadeMs.back(), feasible);
        if (std::getenv("BENCH_WHATIF_DEBUG")) {
            int shown = 0;
            for (std::size_t n = 0; n < mask.size() && shown < 3; n += 97) {
                const Verdict v = f.verdict(NodeId(static_cast<std::uint32_t>(n)));
                if (v.feasible != (mask[n] != 0))
                    std::printf("    ! verdict and shading disagree on node %zu\n", n);
                if (v.feasible || (v.reasons.size() == 1 && v.reasons[0].kind != ReasonKind::TopologySpread && v.reasons[0].kind != ReasonKind::PodAntiAffinity))
                    continue;
                ++shown;
                for (const Reason& r : v.reasons)
                    std::printf("    %s: %s\n", r.code().c_str(), r.message.c_str());
            }
        }
        if (!to.isValid())
            continue;
        const auto t1 = Clock::now();
        state.movePod(p, to);
        const PodFeasibility after(state, p);
        const bool backOk = after.feasible(from), hereOk = after.feasible(to);
        volatile std::int64_t sink = state.nodeRequested(from)[CoreResource::Cpu] + state.nodeRequested(to)[CoreResource::Cpu]
            + state.totals().podsPlaced + (backOk ? 1 : 0) + (hereOk ? 1 : 0);
        (void)sink;
        applyUs.push_back(msSince(t1) * 1000);
        const auto t2 = Clock::now();
        state.restorePod(p);
        undoUs.push_back(msSince(t2) * 1000);
        if (!(state.totals() == state.totalsBefore()))
            std::printf("  ! totals differ after the undo\n");
    }

    std::printf("draining %zu nodes of about 30 pods (a PodDisruptionBudget per workload on them)\n", drainNodes.size());
    const whatifdrain::Result drain = whatifdrain::measure(store, *cluster.topology, drainNodes);
    std::printf("plan engine built in %.1f ms (ledger and capacity index), %.1f pods a drained node\n", drain.engineBuildMs, drain.podsPerNode);

    std::printf("{\"nodes\": %zu, \"pods\": %zu, \"shade_ms\": %.3f, \"move_apply_us\": %.1f, \"undo_us\": %.2f, \"drain_ms\": %.2f, "
                "\"index_build_ms\": %.1f, \"plan_engine_build_ms\": %.1f}\n",
        store.nodeCount(), store.podCount(), median(shadeMs), median(applyUs), median(undoUs), drain.drainMs, state.buildMs(),
        drain.engineBuildMs);
    return 0;
}
