// SPDX-License-Identifier: Apache-2.0
#include "domainaggregates.h"

#include <cmath>

namespace fleet::views {

double DomainAggregates::share(model::CoreResource r) const noexcept
{
    return allocatable[r] > 0 ? static_cast<double>(requested[r]) / static_cast<double>(allocatable[r]) : std::nan("");
}

DomainAggregates DomainAggregates::compute(
    const model::ClusterStore& store, const model::Topology& topology, model::DomainId d, const std::vector<std::uint8_t>* mask,
    const model::PlanLedger* plan)
{
    DomainAggregates a;
    if (!d.isValid() || d.index() >= topology.domainCount())
        return a;
    const model::MetricKeys keys = model::MetricKeys::find(store);
    for (model::NodeId n : topology.domainNodes(d)) {
        if (mask && (n.index() >= mask->size() || (*mask)[n.index()] == 0))
            continue;
        if (plan && !plan->nodePresent(n))
            continue; // drained or failed by the plan
        ++a.nodes;
        a.ready += (plan ? plan->nodeReadiness(n) : store.nodeReadiness(n)) == model::Readiness::True ? 1 : 0;
        a.cordoned += (plan ? plan->nodeUnschedulable(n) : store.nodeUnschedulable(n)) ? 1 : 0;
        const model::NodeAccelerators acc = model::nodeAccelerators(store, n, keys, plan);
        if (acc.kind == model::AcceleratorKind::Neuron)
            a.neuronDevices += acc.devices;
        else
            a.gpus += acc.devices;
        a.unallocatedDevices += acc.unallocatedDevices;
        a.pods += plan ? plan->nodePods(n).size() : store.nodePods(n).size();
        a.requested += plan ? plan->nodeRequested(n) : store.nodeRequested(n);
        a.allocatable += store.nodeAllocatable(n);
    }
    return a;
}

std::vector<double> domainNodeShares(
    const model::ClusterStore& store, const model::Topology& topology, model::DomainId d, MapMetric metric)
{
    std::vector<double> shares;
    if (!d.isValid() || d.index() >= topology.domainCount())
        return shares;
    const MetricKeys keys = MetricKeys::find(store);
    const auto nodes = topology.domainNodes(d);
    shares.reserve(nodes.size());
    for (model::NodeId n : nodes)
        shares.push_back(nodeShare(store, n, metric, keys));
    return shares;
}

std::vector<model::DomainId> domainsAtLevel(const model::Topology& topology, int level)
{
    std::vector<model::DomainId> out;
    if (topology.domainCount() == 0)
        return out;
    // Breadth by depth, keeping layout order: expand the frontier level by level.
    std::vector<model::DomainId> frontier { topology.root() };
    for (int depth = 0; depth < level && !frontier.empty(); ++depth) {
        std::vector<model::DomainId> next;
        for (model::DomainId d : frontier)
            for (model::DomainId c : topology.domainChildren(d))
                next.push_back(c);
        frontier = std::move(next);
    }
    return frontier;
}

} // namespace fleet::views
