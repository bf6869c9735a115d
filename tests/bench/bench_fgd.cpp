// SPDX-License-Identifier: Apache-2.0
// bench_fgd: the FGD paper's experiment (model/search/tracereplay.h) on the shared trace,
// timed per policy and seed.
//
//   bench_fgd [TRACE] [POLICY,...] [FIRST-LAST]   (defaults: default, the paper's six, 42-51)
//
// Prints a line per run (unallocated GPU % at 100% arrived, placement seconds), then one JSON
// object last: {"trace", "runs", "seconds_max", "seconds_mean", "policies": {name: {"mean",
// "sd", "seconds_max"}}}. Passes or fails nothing.

#include "importers/traces/fgdtrace.h"
#include "model/search/tracereplay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    using namespace fleet;
    const std::string data = std::string(FLEET_SHARED_DATA_DIR) + "/alibaba-gpu-v2023-openb";
    const std::string trace = argc > 1 ? argv[1] : "default";
    std::vector<std::string> policies = model::paperPolicyNames();
    if (argc > 2) {
        policies.clear();
        std::stringstream ss(argv[2]);
        for (std::string p; std::getline(ss, p, ',');)
            policies.push_back(p);
    }
    unsigned first = 42, last = 51;
    if (argc > 3 && std::sscanf(argv[3], "%u-%u", &first, &last) != 2) {
        std::fprintf(stderr, "bench_fgd: seeds: expected FIRST-LAST, got %s\n", argv[3]);
        return 2;
    }
    try {
        const model::ClusterStore store = importers::loadFgdTrace(data, trace);
        const auto typical = model::traceTypicalPods(store);
        std::string json = "{\"trace\": \"" + trace + "\", \"policies\": {";
        double maxSeconds = 0, sumSeconds = 0;
        int runs = 0;
        for (std::size_t pi = 0; pi < policies.size(); ++pi) {
            std::vector<double> values;
            double policyMax = 0;
            for (unsigned seed = first; seed <= last; ++seed) {
                const model::ReplayResult r = model::replayTracePolicy(store, typical, policies[pi], seed);
                std::fprintf(stderr, "%s %s seed %u: %.2f%% unallocated, %zu placed, %zu failed, %.3f s\n", trace.c_str(),
                    policies[pi].c_str(), seed, r.unallocatedGpuPercent, r.podsPlaced, r.podsFailed, r.seconds);
                values.push_back(r.unallocatedGpuPercent);
                policyMax = std::max(policyMax, r.seconds);
                sumSeconds += r.seconds;
                ++runs;
            }
            maxSeconds = std::max(maxSeconds, policyMax);
            double mean = 0, var = 0;
            for (double v : values)
                mean += v / static_cast<double>(values.size());
            for (double v : values)
                var += (v - mean) * (v - mean) / std::max<double>(1, static_cast<double>(values.size()) - 1);
            char buf[256];
            std::snprintf(buf, sizeof buf, "%s\"%s\": {\"mean\": %.3f, \"sd\": %.3f, \"seconds_max\": %.3f}", pi ? ", " : "",
                policies[pi].c_str(), mean, std::sqrt(var), policyMax);
            json += buf;
        }
        char tail[160];
        std::snprintf(tail, sizeof tail, "}, \"runs\": %d, \"seconds_max\": %.3f, \"seconds_mean\": %.3f}", runs, maxSeconds,
            runs ? sumSeconds / runs : 0.0);
        std::printf("%s%s\n", json.c_str(), tail);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_fgd: %s\n", e.what());
        return 1;
    }
    return 0;
}
