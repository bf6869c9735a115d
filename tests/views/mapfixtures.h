// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small hand-made clusters for the map tests: nodes with region / zone / network-layer
// labels, chosen allocatable and pods whose requests give each node a known share.

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

} // namespace fleet::testing
