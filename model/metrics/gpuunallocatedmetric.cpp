// SPDX-License-Identifier: Apache-2.0
// The "gpu-unallocated" metric: physical accelerators with nothing requested.
#include "model/metrics/builtinmetrics.h"

#include <limits>

namespace fleet::model {

namespace {
class GpuUnallocatedMetric final : public Metric {
public:
    std::string id() const override { return "gpu-unallocated"; }
    std::string title() const override { return "Unallocated GPUs"; }
    std::string unit() const override { return "GPUs"; }
    std::string description() const override
    {
        return "physical GPUs (a MIG-partitioned GPU once) or Neuron devices with nothing requested";
    }
    ScaleKind scale() const override { return ScaleKind::Amount; }
    std::string notApplicableReason() const override { return "no GPUs"; }
    double value(const MetricContext& context, NodeId n) const noexcept override
    {
        const NodeAccelerators a = nodeAccelerators(context.store(), n, context.keys());
        if (a.kind == AcceleratorKind::None)
            return std::numeric_limits<double>::quiet_NaN();
        return static_cast<double>(a.unallocatedDevices);
    }
};
} // namespace

std::unique_ptr<Metric> makeGpuUnallocatedMetric()
{
    return std::make_unique<GpuUnallocatedMetric>();
}

} // namespace fleet::model
