// SPDX-License-Identifier: Apache-2.0
// bench_livelist: the LIST half of bench_live alone (livelistbench.h).
//   bench_livelist [NODES [PODS]]   (defaults 100000 and 1000000)
// Prints figures, then one JSON object last.
#include "livelistbench.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    const std::size_t nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
    const std::size_t pods = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000000;
    try {
        const auto f = fleet::bench::measureLiveList(nodes, pods);
        std::fprintf(stderr, "listed %zu nodes and %zu pods in %zu pages: %.1f MB in %.2f s (client %.2f s CPU); the same pages "
                     "imported from memory: %.2f s\n", f.nodes, f.pods, f.pages, f.megabytes, f.seconds, f.clientCpuSeconds, f.importOnlySeconds);
        std::printf("{\"list_nodes\": %zu, \"list_pods\": %zu, \"list_seconds\": %.3f, \"list_mb_per_s\": %.0f, \"server_cpu_share\": %.2f, \"client_cpu_seconds\": %.2f}\n",
                    f.nodes, f.pods, f.seconds, f.mbPerSecond, f.serverCpuShare, f.clientCpuSeconds);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_livelist: %s\n", e.what());
        return 1;
    }
    return 0;
}
