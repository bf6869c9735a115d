// SPDX-License-Identifier: Apache-2.0
// bench_gang: topology-aware gang placement on the simulated fleet (Speed):
// gang_place_ms, the largest gang of 8-GPU pods inside one network-node-layer-1 domain with
// slices of 16 per layer-3 block, found and placed; gang_reject_ms, one slice more, rejected
// with its explanation. Prints the figures, then one JSON object last.
// Usage: ./bench_gang [NODES] [SEED]

#include "gangbench.h"

#include "importers/clusterloader.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    const std::size_t nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
    const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    auto cluster = fleet::importers::loadSimulatedCluster({ nodes, seed });
    const gangbench::GangFigures f = gangbench::measureGang(*cluster.store, *cluster.topology);
    std::printf("ledger built in %.0f ms\n", f.ledgerMs);
    std::printf("layer-3 blocks: at most %d nodes of one block take an 8-GPU pod; %d blocks have 16 that do\n", f.blockNodesMax, f.blocksWhole);
    std::printf("largest gang in one layer-1 domain, slices of 16 per layer-3 block: %d pods, found and placed in %.1f ms (%s)\n",
        f.gangPods, f.placeMs, f.placed ? "placed" : "NOT placed");
    std::printf("%d pods rejected in %.1f ms (%s): %s\n", f.gangPods + 16, f.rejectMs, f.rejected ? "rejected" : "NOT rejected",
        f.rejectReason.c_str());
    std::printf("without slices: the largest gang in one layer-1 domain is %d pods, found and placed in %.1f ms\n", f.unslicedPods,
        f.unslicedPlaceMs);
    std::printf("{\"nodes\": %zu, \"gang_pods\": %d, \"gang_place_ms\": %.1f, \"gang_reject_ms\": %.1f, \"gang_pods_unsliced\": %d, "
                "\"gang_place_unsliced_ms\": %.1f}\n",
        cluster.store->nodeCount(), f.gangPods, f.placeMs, f.rejectMs, f.unslicedPods, f.unslicedPlaceMs);
    return f.rejected ? 0 : 1;
}
