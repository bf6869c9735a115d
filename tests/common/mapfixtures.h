// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small hand-made clusters for the map tests: nodes with region / zone / network-layer
// labels, chosen allocatable and pods whose requests give each node a known share, and
// MapCluster, the store and topology a map shows (makeMapCluster(): the map tests' cluster).

#include "common/records.h"
#include "model/clusterstore.h"
#include "model/topology.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace fleet::testing {

/// Shape of a generated fleet: regions x zonesPerRegion x leavesPerZone leaf domains
/// (network-node-layer-1), leaf i holding nodesPerLeaf + (i * 7) % nodesSpread nodes.
struct FleetShape {
    int regions = 2;
    int zonesPerRegion = 3;
    int leavesPerZone = 4;
    int nodesPerLeaf = 16;
    int nodesSpread = 1; // 1: every leaf the same size
};

inline std::string zeroPad(int v, int width)
{
    std::string s = std::to_string(v);
    return std::string(static_cast<std::size_t>(std::max(0, width - static_cast<int>(s.size()))), '0') + s;
}

/// Appends the nodes of `shape` (Ready, 64 cores, 256 GiB, 8 GPUs) without pods, named
/// node-0000000, node-0000001, ... `tweak`, when set, may change each record before it is
/// added. Returns the number of nodes added.
inline std::size_t addFleetNodes(
    model::ClusterStore& store, const FleetShape& shape, const std::function<void(model::NodeRecord&, std::size_t)>& tweak = {})
{
    model::NodeRecord rec;
    std::size_t count = 0;
    int leafIndex = 0;
    for (int r = 0; r < shape.regions; ++r)
        for (int z = 0; z < shape.zonesPerRegion; ++z)
            for (int l = 0; l < shape.leavesPerZone; ++l, ++leafIndex) {
                const int nodes = shape.nodesPerLeaf + (leafIndex * 7) % std::max(1, shape.nodesSpread);
                for (int n = 0; n < nodes; ++n) {
                    rec.clear();
                    rec.name = "node-" + zeroPad(static_cast<int>(count), 7);
                    const std::string region = "region-" + std::to_string(r);
                    rec.labels = { { "topology.kubernetes.io/region", region },
                        { "topology.kubernetes.io/zone", region + char('a' + z) },
                        { "topology.k8s.aws/network-node-layer-1", "nn-" + zeroPad(leafIndex, 5) } };
                    rec.allocatable.setCore(model::CoreResource::Cpu, 64000);
                    rec.allocatable.setCore(model::CoreResource::Memory, 256LL << 30);
                    rec.allocatable.setCore(model::CoreResource::Gpu, 8000);
                    rec.allocatable.setCore(model::CoreResource::Pods, 110);
                    rec.capacity = rec.allocatable;
                    rec.ready = model::Readiness::True;
                    rec.gpuModel = "H100";
                    rec.gpuCount = 8;
                    rec.instanceType = "p5.48xlarge";
                    if (tweak)
                        tweak(rec, count);
                    store.addNode(rec);
                    ++count;
                }
            }
    return count;
}

/// Adds one Running pod on `nodeName` requesting the given core amounts.
inline void addPod(model::ClusterStore& store, const std::string& name, const std::string& nodeName, std::int64_t cpuMillicores,
    std::int64_t memoryBytes, std::int64_t gpuMilli)
{
    model::PodRecord pod = podRecord("default", name, nodeName, cpuMillicores, memoryBytes, model::PodPhase::Running);
    if (gpuMilli > 0)
        pod.request.setCore(model::CoreResource::Gpu, gpuMilli);
    store.addPod(pod);
}

/// A map test's cluster: the store and the topology over it (what FleetMapView::setCluster()
/// takes). Fill the store, then finish().
struct MapCluster {
    std::shared_ptr<model::ClusterStore> store = std::make_shared<model::ClusterStore>();
    std::shared_ptr<model::Topology> topology;

    /// Finalizes the store (binds pods to nodes, sums requests) and builds its topology. Once,
    /// after the last node and pod.
    void finish()
    {
        store->finalize();
        topology = std::make_shared<model::Topology>(model::Topology::build(*store));
    }
};

/// The map tests' shape: 2 regions x 2 zones x 3 leaves x 10 nodes (node-0000000 to node-0000119).
inline constexpr FleetShape kMapTestShape { 2, 2, 3, 10, 1 };

/// The map tests' cluster: the nodes of `shape` (addFleetNodes(), `tweak` as there), pod
/// default/busy on node-0000007 at 75% of its GPUs (6 of 8; 32 cores, 64 GiB) and default/light
/// on node-0000031 at 10% (0.8 GPU; 8 cores, 8 GiB), then `morePods` (when set) adds its pods,
/// and the cluster is finished.
inline MapCluster makeMapCluster(const FleetShape& shape = kMapTestShape,
    const std::function<void(model::NodeRecord&, std::size_t)>& tweak = {},
    const std::function<void(model::ClusterStore&)>& morePods = {})
{
    MapCluster c;
    addFleetNodes(*c.store, shape, tweak);
    addPod(*c.store, "busy", "node-0000007", 32000, 64LL << 30, 6000);
    addPod(*c.store, "light", "node-0000031", 8000, 8LL << 30, 800);
    if (morePods)
        morePods(*c.store);
    c.finish();
    return c;
}

} // namespace fleet::testing
