// SPDX-License-Identifier: Apache-2.0
// The "gpu" metric: the accelerator share of a node.
#include "model/metrics/builtinmetrics.h"

#include <cmath>

namespace fleet::model {

std::string_view gpuMetricTitle(bool fleetHasAccelerators) noexcept
{
    return fleetHasAccelerators ? "GPU requested" : "CPU requested (no GPU nodes)";
}

namespace {
class GpuRequestedMetric final : public Metric {
public:
    std::string id() const override { return "gpu"; }
    std::string title() const override { return "GPU requested"; }
    std::string unit() const override { return "% of allocatable"; }
    std::string description() const override
    {
        return "requested / allocatable GPUs; MIG slices, else Neuron devices, where a node has no whole GPU";
    }
    ScaleKind scale() const override { return ScaleKind::Share; }
    std::string notApplicableReason() const override { return "no GPUs"; }
    double value(const MetricContext& context, NodeId n) const noexcept override
    {
        const ClusterStore& store = context.store();
        // Hot: whole GPUs inline, the rarer extended-resource cases in a call.
        if (store.nodeAllocatable(n)[CoreResource::Gpu] > 0)
            return nodeCoreShare(store, n, CoreResource::Gpu);
        if (!context.fleetHasAccelerators())
            return nodeCoreShare(store, n, CoreResource::Cpu);
        return nodeAcceleratorShare(store, n, context.keys());
    }
};
} // namespace

std::unique_ptr<Metric> makeGpuRequestedMetric()
{
    return std::make_unique<GpuRequestedMetric>();
}

} // namespace fleet::model
