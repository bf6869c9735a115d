// SPDX-License-Identifier: Apache-2.0
#pragma once
// The clusters the exploring tests read: the EKS fixture (2 nodes, 11 pods of a real
// cluster) and a small simulated fleet, loaded through the importers as the app does.

#include "importers/clusterloader.h"

#include <QString>

#include <string>

namespace fleet::testing {

/// The EKS fixture at FLEET_SHARED_DATA_DIR/k8s-fixture-honeycomb-eks (nodes.json, pods.json).
inline importers::LoadedCluster loadEksFixture()
{
    const std::string dir = std::string(FLEET_SHARED_DATA_DIR) + "/k8s-fixture-honeycomb-eks/";
    return importers::loadClusterFiles({ dir + "nodes.json", dir + "pods.json" });
}

/// The simulated fleet of `nodes` nodes, seed 1.
inline importers::LoadedCluster loadSimulated(std::size_t nodes)
{
    importers::SimulationSpec spec;
    spec.nodeCount = nodes;
    spec.seed = 1;
    return importers::loadSimulatedCluster(spec);
}

} // namespace fleet::testing
