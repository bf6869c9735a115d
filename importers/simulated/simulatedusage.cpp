// Usage of the simulated fleet (simulatedusage.h).
#include "importers/simulated/simulatedusage.h"

#include "importers/simulated/deterministicrng.h"

#include <cmath>

namespace fleet::importers {

namespace {

// A uniform value in [lo, hi) from a hash.
double uniform(std::uint64_t h, double lo, double hi) noexcept
{
    return lo + (hi - lo) * static_cast<double>(h >> 11) * 0x1.0p-53;
}

} // namespace

model::ClusterUsage simulatedUsage(const model::ClusterStore& store, std::uint64_t seed, double time)
{
    using model::CoreResource;
    model::ClusterUsage u(store.nodeCount());
    u.source = "simulated";
    u.time = time;
    const std::uint64_t base = SplitMix64::mix(seed ^ 0x75736167655f7631ull); // "usage_v1"
    std::vector<double> gpuBusy(store.nodeCount(), 0.0);
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const model::NodeId n(i);
        double cpu = 0, memory = 0;
        const std::int64_t gpus = store.nodeAllocatable(n)[CoreResource::Gpu] / 1000;
        std::int32_t idle = 0;
        for (const model::PodId p : store.nodePods(n)) {
            const std::uint64_t ph = SplitMix64::mix(base ^ (std::uint64_t { p.value } << 1));
            const model::ResourceVector& req = store.podRequest(p);
            cpu += static_cast<double>(req[CoreResource::Cpu]) * uniform(ph, 0.3, 1.1);
            memory += static_cast<double>(req[CoreResource::Memory]) * uniform(SplitMix64::mix(ph), 0.5, 0.95);
            const std::int64_t held = (req[CoreResource::Gpu] + 999) / 1000;
            if (held <= 0 || gpus <= 0)
                continue;
            const model::WorkloadId w = store.podWorkload(p);
            const std::uint64_t wh = SplitMix64::mix(base ^ (w.isValid() ? (std::uint64_t { w.value } << 1 | 1) : ph));
            const std::string_view ns = store.podNamespace(p);
            double busy;
            bool idleJob = false;
            if (ns == "ml-training") {
                idleJob = wh % 25 == 0;
                busy = idleJob ? uniform(ph, 0.0, 0.03) : uniform(wh, 0.85, 0.99);
            } else if (ns == "inference") {
                idleJob = wh % 20 == 0;
                busy = idleJob ? uniform(ph, 0.0, 0.04) : uniform(ph, 0.10, 0.70);
            } else {
                busy = uniform(ph, 0.30, 0.60);
            }
            gpuBusy[i] += busy * static_cast<double>(held);
            u.allocatedGpusMeasured += held;
            if (idleJob) {
                idle += static_cast<std::int32_t>(held);
                for (std::int64_t d = 0; d < held; ++d)
                    u.idleGpus.push_back({ n, p, -1, busy });
            }
        }
        u.cpuUsedMilli[i] = std::round(cpu);
        u.memoryUsedBytes[i] = std::round(memory);
        if (gpus > 0) {
            u.gpusMeasured[i] = static_cast<std::int32_t>(gpus);
            u.gpuUtilization[i] = std::min(1.0, gpuBusy[i] / static_cast<double>(gpus));
            u.idleAllocatedGpus[i] = idle;
        }
    }
    return u;
}

} // namespace fleet::importers
