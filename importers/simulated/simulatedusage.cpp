// SPDX-License-Identifier: Apache-2.0
// Usage of the simulated fleet (simulatedusage.h).
#include "importers/simulated/simulatedusage.h"

#include "importers/simulated/deterministicrng.h"
#include "model/accelerators.h"
#include "model/gpudevices.h"

#include <array>
#include <cmath>
#include <string_view>

namespace fleet::importers {

namespace {

// A uniform value in [lo, hi) from a hash.
double uniform(std::uint64_t h, double lo, double hi) noexcept
{
    return lo + (hi - lo) * static_cast<double>(h >> 11) * 0x1.0p-53;
}

// How busy the GPU instances of pod `p` are (0..1), by its workload (simulatedusage.h).
double podGpuBusy(const model::ClusterStore& store, model::PodId p, std::uint64_t base, std::uint64_t ph) noexcept
{
    const model::WorkloadId w = store.podWorkload(p);
    const std::uint64_t wh = SplitMix64::mix(base ^ (w.isValid() ? (std::uint64_t { w.value } << 1 | 1) : ph));
    const std::string_view ns = store.podNamespace(p);
    if (ns == "ml-training")
        return wh % 25 == 0 ? uniform(ph, 0.0, 0.03) : uniform(wh, 0.85, 0.99);
    if (ns == "inference")
        return wh % 20 == 0 ? uniform(ph, 0.0, 0.04) : uniform(ph, 0.10, 0.70);
    return uniform(ph, 0.30, 0.60);
}

// The whole GPUs of node n, device by device as the ledger assigns them (gpudevices.h); false
// when the node's GPUs are not tracked one by one.
bool wholeGpuDevices(const model::ClusterStore& store, model::NodeId n, std::uint64_t base, model::GpuUsageBuilder& gpus)
{
    const int count = model::trackedGpuCount(store, n);
    if (count <= 0)
        return false;
    std::array<std::int32_t, model::kMaxTrackedGpus> used {};
    std::array<model::GpuDeviceSamples, model::kMaxTrackedGpus> devices {};
    for (const model::PodId p : store.nodePods(n)) {
        const std::uint64_t mask = model::takeGpuDevices(std::span(used.data(), static_cast<std::size_t>(count)),
            store.podRequest(p)[model::CoreResource::Gpu], store.podGpuShareMilli(p));
        if (mask == 0)
            continue;
        const double busy = podGpuBusy(store, p, base, SplitMix64::mix(base ^ (std::uint64_t { p.value } << 1)));
        for (int d = 0; d < count; ++d)
            if (mask >> d & 1)
                devices[d].addInstance(busy, 1.0, busy, p); // a share of a GPU: one time-slice of it
    }
    for (int d = 0; d < count; ++d) {
        devices[d].device = d;
        if (devices[d].weight == 0)
            devices[d].addInstance(0.0, 1.0, 0.0, {}); // free: measured, 0%
        gpus.addDevice(n, devices[d]);
    }
    return true;
}

// The MIG-partitioned GPUs of node n (MIG mixed strategy: slices in place of nvidia.com/gpu):
// nodeGpuCount() devices, each profile's allocatable instances spread evenly over them, the
// pods' slices taken in pod order; each instance as busy as its pod, free ones at 0%.
bool migGpuDevices(const model::ClusterStore& store, model::NodeId n, std::uint64_t base, model::GpuUsageBuilder& gpus)
{
    const std::int32_t count = store.nodeGpuCount(n);
    if (count <= 0 || store.nodeCapacity(n)[model::CoreResource::Gpu] > 0)
        return false;
    std::vector<model::GpuDeviceSamples> devices(static_cast<std::size_t>(count));
    bool any = false;
    for (const auto& [key, allocatable] : store.nodeExtendedAllocatable(n)) {
        const std::string& name = store.resources().name(key);
        if (!model::isMigResourceName(name) || allocatable <= 0)
            continue;
        any = true;
        const double slices = model::migComputeSlices(std::string_view(name).substr(std::string_view("nvidia.com/mig-").size()));
        const std::int64_t perDevice = (allocatable + count - 1) / count;
        std::int64_t instance = 0;
        for (const model::PodId p : store.nodePods(n)) {
            std::int64_t held = 0;
            for (const auto& [podKey, amount] : store.podExtendedRequest(p))
                if (podKey == key)
                    held = amount;
            if (held <= 0)
                continue;
            const std::uint64_t ph = SplitMix64::mix(base ^ (std::uint64_t { p.value } << 1));
            for (std::int64_t k = 0; k < held && instance < allocatable; ++k, ++instance) {
                // Each GPU instance of its own: the pod's level, a little apart per instance.
                const double busy = std::max(0.0, podGpuBusy(store, p, base, ph) + uniform(SplitMix64::mix(ph + k), -0.005, 0.005));
                devices[static_cast<std::size_t>(instance / perDevice)].addInstance(busy, slices, busy, p);
            }
        }
        for (; instance < allocatable; ++instance)
            devices[static_cast<std::size_t>(instance / perDevice)].addInstance(0.0, slices, 0.0, {});
    }
    if (!any)
        return false;
    for (std::int32_t d = 0; d < count; ++d) {
        devices[static_cast<std::size_t>(d)].device = d;
        gpus.addDevice(n, devices[static_cast<std::size_t>(d)]);
    }
    return true;
}

} // namespace

model::ClusterUsage simulatedUsage(const model::ClusterStore& store, std::uint64_t seed, double time)
{
    using model::CoreResource;
    model::ClusterUsage u(store.nodeCount());
    u.source = "simulated";
    u.time = time;
    const std::uint64_t base = SplitMix64::mix(seed ^ 0x75736167655f7631ull); // "usage_v1"
    model::GpuUsageBuilder gpus(u);
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const model::NodeId n(i);
        double cpu = 0, memory = 0;
        for (const model::PodId p : store.nodePods(n)) {
            const std::uint64_t ph = SplitMix64::mix(base ^ (std::uint64_t { p.value } << 1));
            const model::ResourceVector& req = store.podRequest(p);
            cpu += static_cast<double>(req[CoreResource::Cpu]) * uniform(ph, 0.3, 1.1);
            memory += static_cast<double>(req[CoreResource::Memory]) * uniform(SplitMix64::mix(ph), 0.5, 0.95);
        }
        u.cpuUsedMilli[i] = std::round(cpu);
        u.memoryUsedBytes[i] = std::round(memory);
        if (!wholeGpuDevices(store, n, base, gpus))
            migGpuDevices(store, n, base, gpus);
    }
    gpus.finish();
    return u;
}

} // namespace fleet::importers
