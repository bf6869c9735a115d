// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sums over the nodes of a topology domain: what the domain inspector and the heatmap show.

#include "model/scheduling/planledger.h"
#include "model/topology.h"
#include "views/map/mapmetric.h"

#include <cstdint>
#include <vector>

namespace fleet::views {

/// The nodes of one domain summed: counts by state, physical accelerators, and requested /
/// allocatable of every core resource (model units: millicores, bytes, milli-GPU, ...).
/// Accelerators are counted by the per-node rule (model::nodeAccelerators), so the root
/// domain's figures are the cluster totals the status bar and `summary` show.
struct DomainAggregates {
    std::size_t nodes = 0;
    std::size_t ready = 0; // Ready condition True
    std::size_t cordoned = 0; // spec.unschedulable
    std::int64_t gpus = 0; // physical GPUs: whole ones and MIG-partitioned ones, each once
    std::int64_t neuronDevices = 0; // AWS Neuron devices (Trainium / Inferentia chips)
    std::size_t pods = 0; // counted on the nodes
    /// Physical devices (GPUs, MIG-partitioned GPUs once, Neuron devices) with nothing
    /// requested on them: model::NodeAccelerators::unallocatedDevices summed, the one
    /// definition the map's and the Heatmap's "gpu-unallocated" use. A device partly requested
    /// counts as allocated, so this is not allocatable minus requested.
    std::int64_t unallocatedDevices = 0;
    model::ResourceVector requested;
    model::ResourceVector allocatable;
    /// requested / allocatable of `r` over the domain; NaN when the domain has none of it.
    [[nodiscard]] double share(model::CoreResource r) const noexcept;
    /// Sums the nodes under `d` (those `mask` keeps, by NodeId, when given: the label
    /// filter's). Under `plan` (a ledger over `store`; null: the loaded state) the nodes as the
    /// plan leaves them, the rule of the node inspector (views/nodeview/plannodeview.h): a node
    /// the plan drained or failed is gone (not counted, nothing on it), a pod the plan moved
    /// counts on its new node, a drain's cordon counts; nodes the plan added have no place in
    /// the topology and are not summed. O(nodes of d). Thread: any reader of store, topology, plan.
    [[nodiscard]] static DomainAggregates compute(const model::ClusterStore& store, const model::Topology& topology, model::DomainId d,
        const std::vector<std::uint8_t>* mask = nullptr, const model::PlanLedger* plan = nullptr);
};

/// The share the map's default metric shows for each node under `d`
/// (nodeShare(MapMetric::GpuRequested): GPU, else MIG slices, else Neuron, else CPU), in
/// layout order. O(nodes of d). Thread: any reader.
[[nodiscard]] std::vector<double> domainNodeShares(const model::ClusterStore& store, const model::Topology& topology,
    model::DomainId d, MapMetric metric = MapMetric::GpuRequested);

/// The domains at depth `level` of the tree (1 = the first level key), in layout order.
[[nodiscard]] std::vector<model::DomainId> domainsAtLevel(const model::Topology& topology, int level);

} // namespace fleet::views
