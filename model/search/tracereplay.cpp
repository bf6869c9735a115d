// SPDX-License-Identifier: Apache-2.0
// The FGD experiment's workload generation, online loop and metric (tracereplay.h).
#include "tracereplay.h"

#include "model/placement/replayrandom.h"
#include "model/placement/typicalpods.h"
#include "model/scheduling/filters.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace fleet::model {

namespace {

std::vector<std::uint32_t> idsByName(std::size_t count, auto nameOf)
{
    std::vector<std::uint32_t> ids(count);
    std::iota(ids.begin(), ids.end(), 0u);
    std::sort(ids.begin(), ids.end(), [&](std::uint32_t a, std::uint32_t b) { return nameOf(a) < nameOf(b); });
    return ids;
}

// A copy of a node of `from` as an addNode() record of another store.
NodeRecord nodeRecordOf(const ClusterStore& from, NodeId n, ResourceRegistry& to)
{
    NodeRecord r;
    r.name = std::string(from.nodeName(n));
    for (const Label& l : from.nodeLabels(n))
        r.labels.emplace_back(std::string(from.str(l.key)), std::string(from.str(l.value)));
    for (const Taint& t : from.nodeTaints(n))
        r.taints.emplace_back(std::string(from.str(t.key)), std::string(from.str(t.value)), t.effect);
    for (std::size_t c = 0; c < kCoreResourceCount; ++c) {
        r.allocatable.setCore(static_cast<CoreResource>(c), from.nodeAllocatable(n)[static_cast<CoreResource>(c)]);
        r.capacity.setCore(static_cast<CoreResource>(c), from.nodeCapacity(n)[static_cast<CoreResource>(c)]);
    }
    const auto alloc = from.nodeExtendedAllocatable(n);
    const auto cap = from.nodeExtendedCapacity(n);
    for (std::size_t e = 0; e < alloc.size(); ++e) {
        const ResourceKey key = to.keyFor(from.resources().name(alloc[e].first));
        r.allocatable.set(key, alloc[e].second);
        r.capacity.set(key, cap[e].second);
    }
    r.ready = from.nodeReadiness(n);
    r.unschedulable = from.nodeUnschedulable(n);
    r.gpuModel = std::string(from.nodeGpuModel(n));
    r.gpuCount = from.nodeGpuCount(n);
    r.instanceType = std::string(from.nodeInstanceType(n));
    return r;
}

// A pending copy of a pod of `from`, named `name`, with its request and node constraints.
PodRecord podRecordOf(const ClusterStore& from, PodId p, std::string name, ResourceRegistry& to)
{
    PodRecord r;
    r.namespaceName = std::string(from.podNamespace(p));
    r.name = std::move(name);
    r.phase = PodPhase::Pending;
    r.priority = from.podPriority(p);
    for (std::size_t c = 0; c < kCoreResourceCount; ++c)
        if (const auto v = from.podRequest(p)[static_cast<CoreResource>(c)]; v != 0)
            r.request.setCore(static_cast<CoreResource>(c), v);
    for (const auto& [key, amount] : from.podExtendedRequest(p))
        r.request.set(to.keyFor(from.resources().name(key)), amount);
    r.gpuShareMilli = from.podGpuShareMilli(p);
    for (const Toleration& t : from.podTolerations(p))
        r.tolerations.emplace_back(std::string(from.str(t.key)), t.op, std::string(from.str(t.value)), t.effect);
    for (const Label& l : from.podNodeSelector(p))
        r.nodeSelector.emplace_back(std::string(from.str(l.key)), std::string(from.str(l.value)));
    for (const NodeSelectorTerm& t : from.podRequiredAffinity(p)) {
        auto& term = r.requiredAffinityTerms.emplace_back();
        for (const NodeSelectorRequirement& q : t.requirements) {
            PodRecord::Requirement req;
            req.key = std::string(from.str(q.key));
            req.op = q.op;
            req.matchField = q.matchField;
            for (const StringId v : q.values)
                req.values.emplace_back(from.str(v));
            term.push_back(std::move(req));
        }
    }
    return r;
}

// Python's round() of the simulator's analysis scripts: to nearest, ties to even.
double roundHalfEven(double x, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::nearbyint(x * scale) / scale;
}

} // namespace

TraceWorkload generateTraceWorkload(const ClusterStore& trace, std::uint64_t seed, double tuneRatio)
{
    const std::size_t n = trace.podCount();
    std::int64_t capacity = 0;
    for (std::uint32_t i = 0; i < trace.nodeCount(); ++i)
        capacity += trace.nodeAllocatable(NodeId(i))[CoreResource::Gpu];
    if (n == 0)
        throw std::invalid_argument("the trace has no pods to replay");
    if (capacity <= 0)
        throw std::invalid_argument("the trace's nodes have no GPU");
    ReplayRandom random(seed);
    (void)random.next(); // the simulator's debug log consumes one draw (PROTOCOL.md 2.2)

    TraceWorkload w;
    const std::vector<std::uint32_t> byName = idsByName(n, [&](std::uint32_t i) { return trace.podName(PodId(i)); });
    std::vector<PodId> list;
    list.reserve(n * 2);
    for (const std::uint32_t i : byName)
        list.emplace_back(i);
    for (std::size_t i = n - 1; i > 0; --i) // Fisher-Yates, as rand.Shuffle
        std::swap(list[i], list[random.below(i + 1)]);

    std::vector<PodShape> shapes(n);
    std::int64_t total = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        shapes[i] = podShape(trace, PodId(i));
        total += shapes[i].gpuRequestMilli();
    }
    const double target = tuneRatio * static_cast<double>(capacity);
    if (static_cast<double>(total) < target) {
        // Tune up: draw from the name-ordered list; stop at the first pod whose per-GPU milli
        // would pass the target (PROTOCOL.md 2.4).
        while (true) {
            const PodId p(byName[random.below(n)]);
            const PodShape& s = shapes[p.index()];
            if (static_cast<double>(total + s.gpuMilli) > target)
                break;
            list.push_back(p);
            total += s.gpuRequestMilli();
            ++w.podsAdded;
        }
    } else {
        while (static_cast<double>(total) > target && !list.empty()) {
            const std::size_t idx = random.below(list.size());
            total -= shapes[list[idx].index()].gpuRequestMilli();
            list.erase(list.begin() + static_cast<std::ptrdiff_t>(idx));
            ++w.podsRemoved;
        }
    }
    w.pods = std::move(list);

    // Node order: the nodes by name, each given the rank of a random permutation (Perm).
    const std::size_t nodes = trace.nodeCount();
    std::vector<std::uint32_t> perm(nodes);
    std::iota(perm.begin(), perm.end(), 0u);
    for (std::size_t i = nodes; i > 1; --i)
        std::swap(perm[i - 1], perm[random.below(i)]);
    const std::vector<std::uint32_t> nodesByName = idsByName(nodes, [&](std::uint32_t i) { return trace.nodeName(NodeId(i)); });
    w.nodeRank.assign(nodes, 0);
    for (std::size_t i = 0; i < nodes; ++i)
        w.nodeRank[nodesByName[i]] = perm[i];
    return w;
}

ReplayResult replayTrace(const ClusterStore& trace, const TraceWorkload& workload, PlacementPolicy& policy)
{
    ClusterStore run;
    run.reserve(trace.nodeCount(), workload.pods.size());
    for (std::uint32_t i = 0; i < trace.nodeCount(); ++i)
        run.addNode(nodeRecordOf(trace, NodeId(i), run.resources()));
    std::unordered_map<std::uint32_t, std::uint32_t> copies;
    for (const PodId p : workload.pods) {
        const std::uint32_t k = copies[p.value]++;
        std::string name(trace.podName(p));
        if (k > 0)
            name += "-copy-" + std::to_string(k);
        run.addPod(podRecordOf(trace, p, std::move(name), run.resources()));
    }
    run.finalize();
    PlanLedger state(run);

    ReplayResult result;
    const double gpus = static_cast<double>(state.totals().gpus);
    std::vector<int> arrivedPercent;
    std::vector<double> allocated;
    arrivedPercent.reserve(run.podCount());
    allocated.reserve(run.podCount());
    std::vector<NodeId> feasible;
    feasible.reserve(run.nodeCount());
    const auto start = std::chrono::steady_clock::now();
    std::int64_t arrived = 0;
    for (std::uint32_t i = 0; i < run.podCount(); ++i) {
        const PodId p(i);
        const PodShape shape = podShape(run, p);
        arrived += shape.gpuRequestMilli();
        const PodFeasibility f(state, p);
        feasible.clear();
        for (std::uint32_t n = 0; n < run.nodeCount(); ++n)
            if (f.feasible(NodeId(n)))
                feasible.emplace_back(n);
        if (feasible.empty()) {
            ++result.podsFailed;
        } else {
            const NodeId to = policy.choose(state, shape, feasible, workload.nodeRank);
            state.movePod(p, to, policy.chooseGpus(state, shape, to));
            ++result.podsPlaced;
        }
        arrivedPercent.push_back(static_cast<int>(roundHalfEven(static_cast<double>(arrived) / gpus / 10.0, 0)));
        allocated.push_back(roundHalfEven(static_cast<double>(state.totals().gpuMilliAllocated) / gpus / 10.0, 2));
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // PROTOCOL.md section 5: per whole arrived percent, the mean over the records there, else
    // over the records within one percent.
    for (int x = 0; x <= 130; ++x) {
        double sum = 0;
        std::size_t count = 0;
        for (int pass = 0; pass < 2 && count == 0; ++pass)
            for (std::size_t r = 0; r < allocated.size(); ++r)
                if (pass == 0 ? arrivedPercent[r] == x : std::abs(arrivedPercent[r] - x) <= 1) {
                    sum += allocated[r];
                    ++count;
                }
        result.allocatedPercent[static_cast<std::size_t>(x)] = count == 0 ? std::nan("") : roundHalfEven(sum / static_cast<double>(count), 2);
    }
    result.unallocatedGpuPercent = 100.0 - result.allocatedPercent[100];
    return result;
}

std::vector<TypicalPod> traceTypicalPods(const ClusterStore& trace)
{
    std::vector<PodId> all(trace.podCount());
    for (std::uint32_t i = 0; i < all.size(); ++i)
        all[i] = PodId(i);
    return typicalPods(trace, all, { true, true, 1.0 });
}

ReplayResult replayTracePolicy(const ClusterStore& trace, const std::vector<TypicalPod>& typical, std::string_view policy, std::uint64_t seed)
{
    // Random's placement draws come from a stream of their own, seeded from the run's seed.
    const auto p = makePlacementPolicy(policy, typical, seed ^ 0x5deece66dULL);
    const TraceWorkload w = generateTraceWorkload(trace, seed);
    return replayTrace(trace, w, *p);
}

} // namespace fleet::model
