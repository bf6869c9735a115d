// SPDX-License-Identifier: Apache-2.0
// bench_labelselector: model/labelselector.h over the simulated fleet.
//
//   bench_labelselector [NODES]   (default 100000)
//
// Generates the simulated cluster (seed 1), then times parseLabelSelector() and
// nodesMatchingSelector() for a few selectors an operator would type, as medians of 20 runs,
// and prints one JSON object. Prints figures; passes or fails nothing.

#include "importers/clusterloader.h"
#include "model/labelselector.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    using namespace fleet;
    const std::size_t nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
    const auto cluster = importers::loadSimulatedCluster({nodes, 1});
    const char* selectors[] = {
        "topology.kubernetes.io/zone=us-west-2a",
        "nvidia.com/gpu.product in (NVIDIA-H100-80GB-HBM3,NVIDIA-H200),eks.amazonaws.com/capacityType!=SPOT",
        "!nvidia.com/gpu.present,node.kubernetes.io/instance-type notin (m7i.4xlarge)",
    };
    std::printf("{\"nodes\": %zu", cluster.store->nodeCount());
    for (std::size_t s = 0; s < std::size(selectors); ++s) {
        std::vector<double> ms;
        std::size_t matching = 0;
        for (int run = 0; run < 20; ++run) {
            const auto start = std::chrono::steady_clock::now();
            const auto selector = model::parseLabelSelector(selectors[s]);
            const auto mask = model::nodesMatchingSelector(*cluster.store, selector);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            matching = static_cast<std::size_t>(std::count(mask.begin(), mask.end(), 1));
        }
        std::sort(ms.begin(), ms.end());
        std::printf(", \"selector_%zu\": {\"text\": \"%s\", \"matching\": %zu, \"median_ms\": %.3f}", s + 1, selectors[s], matching,
                    ms[ms.size() / 2]);
    }
    std::printf("}\n");
    return 0;
}
