// SPDX-License-Identifier: Apache-2.0
// The "gpu-fragmentation" metric: FGD's expected fragmented GPUs of a node.
#include "model/gpudevices.h"
#include "model/metrics/builtinmetrics.h"
#include "model/placement/typicalpods.h"

#include <algorithm>
#include <limits>

namespace fleet::model {

namespace {
class GpuFragmentationMetric final : public Metric {
public:
    std::string id() const override { return "gpu-fragmentation"; }
    std::string title() const override { return "GPU fragmentation"; }
    std::string unit() const override { return "GPUs"; }
    std::string description() const override
    {
        return "free GPU capacity the workload's typical GPU pods cannot use, expected (FGD, USENIX ATC '23)";
    }
    ScaleKind scale() const override { return ScaleKind::Amount; }
    std::string notApplicableReason() const override { return "no whole GPUs"; }
    double value(const MetricContext& context, NodeId n) const noexcept override
    {
        return gpuFragmentation(context, n);
    }
};
} // namespace

double gpuFragmentation(const MetricContext& context, NodeId n) noexcept
{
    const ClusterStore& store = context.store();
    std::array<std::int32_t, kMaxTrackedGpus> used {};
    const int count = loadedGpuDeviceUse(store, n, used);
    const std::vector<TypicalPod>* typical = nullptr;
    try {
        typical = count > 0 ? &context.gpuTypicalPods() : nullptr;
    } catch (...) { // std::bad_alloc: shown as not applicable rather than thrown from a raster
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (typical == nullptr || typical->empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::array<std::int32_t, kMaxTrackedGpus> free {};
    for (int i = 0; i < count; ++i)
        free[static_cast<std::size_t>(i)] = std::max(0, 1000 - used[static_cast<std::size_t>(i)]);
    const std::int64_t cpuFree = store.nodeAllocatable(n)[CoreResource::Cpu] - store.nodeRequested(n)[CoreResource::Cpu];
    try {
        const std::vector<std::uint8_t> allowed = typicalModelsAllowed(store.nodeGpuModel(n), *typical);
        return nodeFragmentation(std::max<std::int64_t>(0, cpuFree), std::span(free.data(), static_cast<std::size_t>(count)),
                   *typical, allowed)
            / 1000.0;
    } catch (...) {
        return std::numeric_limits<double>::quiet_NaN();
    }
}

std::unique_ptr<Metric> makeGpuFragmentationMetric()
{
    return std::make_unique<GpuFragmentationMetric>();
}

} // namespace fleet::model
