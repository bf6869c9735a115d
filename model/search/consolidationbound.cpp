// SPDX-License-Identifier: Apache-2.0
// The node-count lower bound (consolidationbound.h).
#include "consolidationbound.h"

#include "model/pricing/pricetable.h"
#include "model/plan/evictionrules.h"

#include <algorithm>
#include <map>

namespace fleet::model {

namespace {

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return b <= 0 ? 0 : (a + b - 1) / b;
}

} // namespace

NodeCountBound nodeCountLowerBound(const ClusterStore& store, std::span<const std::pair<PodId, NodeId>> placedFirst)
{
    const std::size_t nodes = store.nodeCount();
    std::vector<std::uint8_t> pinned(nodes, 0);
    std::int64_t cpu = 0, memory = 0;
    struct Gpu {
        std::int64_t requested = 0, largest = 0, pinned = 0;
    };
    std::map<std::string, Gpu> gpus;
    for (std::uint32_t i = 0; i < nodes; ++i)
        if (isPrepaid(nodeCapacityType(store, NodeId(i))))
            pinned[i] = 1;
    std::vector<NodeId> pendingNode(placedFirst.empty() ? 0 : store.podCount());
    for (const auto& [p, n] : placedFirst)
        if (p.index() < pendingNode.size() && !store.podNode(p).isValid())
            pendingNode[p.index()] = n;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const PodId p(i);
        const NodeId n = store.podNode(p).isValid() || pendingNode.empty() ? store.podNode(p) : pendingNode[i];
        // The pods a consolidation must place: what is leaving (finished or terminating) and
        // what goes with its node (DaemonSet, mirror) is no demand (movesWithDrain).
        if (!n.isValid() || !movesWithDrain(store, p))
            continue;
        const ResourceVector& req = store.podRequest(p);
        cpu += req[CoreResource::Cpu];
        memory += req[CoreResource::Memory];
        if (req[CoreResource::Gpu] > 0)
            gpus[std::string(store.nodeGpuModel(n))].requested += req[CoreResource::Gpu];
        if (!pinned[n.index()] && !checkEviction(store, p).blockers.empty())
            pinned[n.index()] = 1;
    }
    std::int64_t largestCpu = 0, largestMemory = 0, pinnedTotal = 0, pinnedCpuOnly = 0;
    for (std::uint32_t i = 0; i < nodes; ++i) {
        const NodeId n(i);
        const ResourceVector& alloc = store.nodeAllocatable(n);
        largestCpu = std::max(largestCpu, alloc[CoreResource::Cpu]);
        largestMemory = std::max(largestMemory, alloc[CoreResource::Memory]);
        pinnedTotal += pinned[i];
        if (alloc[CoreResource::Gpu] > 0) {
            Gpu& g = gpus[std::string(store.nodeGpuModel(n))];
            g.largest = std::max(g.largest, alloc[CoreResource::Gpu]);
            g.pinned += pinned[i];
        } else {
            pinnedCpuOnly += pinned[i];
        }
    }
    NodeCountBound b;
    auto row = [&](std::string model, std::string resource, std::int64_t requested, std::int64_t largest, std::int64_t pinnedNodes) {
        NodeCountBound::Row r { std::move(model), std::move(resource), requested, largest, ceilDiv(requested, largest), pinnedNodes, 0 };
        r.bound = std::max(r.byRequests, r.pinnedNodes);
        b.rows.push_back(r);
        return r.bound;
    };
    std::int64_t gpuSum = pinnedCpuOnly;
    for (auto& [model, g] : gpus)
        if (g.largest > 0 || g.requested > 0)
            gpuSum += row(model, std::string(coreResourceName(CoreResource::Gpu)), g.requested, g.largest, g.pinned);
    b.nodes = std::max({ row("", "cpu", cpu, largestCpu, pinnedTotal), row("", "memory", memory, largestMemory, pinnedTotal), gpuSum });
    return b;
}

std::vector<std::pair<PodId, NodeId>> pendingPodsPlaced(const ClusterStore& store, const std::vector<AppliedAction>& applied)
{
    std::vector<std::pair<PodId, NodeId>> out;
    std::vector<std::uint8_t> seen(store.podCount(), 0);
    for (const AppliedAction& a : applied)
        for (const AppliedAction::PodChange& c : a.changes) {
            // Store pods only (a place-pods action's new pods are not the loaded state's), pending
            // there, and the first node each is placed on.
            if (c.from.isValid() || !c.to.isValid() || c.pod.index() >= seen.size() || seen[c.pod.index()]
                || store.podNode(c.pod).isValid())
                continue;
            seen[c.pod.index()] = 1;
            out.emplace_back(c.pod, c.to);
        }
    return out;
}

} // namespace fleet::model
