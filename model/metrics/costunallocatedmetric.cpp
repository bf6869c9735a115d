// SPDX-License-Identifier: Apache-2.0
// The "cost-unallocated" metric: the price of the capacity no pod requests.
#include "model/metrics/builtinmetrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fleet::model {

double allocatedPrimaryShare(const MetricContext& context, NodeId n) noexcept
{
    const ClusterStore& store = context.store();
    double share = nodeAcceleratorShare(store, n, context.keys());
    if (std::isnan(share)) {
        const double cpu = nodeCoreShare(store, n, CoreResource::Cpu);
        const double memory = nodeCoreShare(store, n, CoreResource::Memory);
        share = std::isnan(cpu) ? memory : std::isnan(memory) ? cpu : std::max(cpu, memory);
    }
    return std::isnan(share) ? share : std::clamp(share, 0.0, 1.0);
}

double unallocatedDollarsPerHour(const MetricContext& context, NodeId n) noexcept
{
    const double price = context.nodeDollarsPerHour(n);
    if (std::isnan(price))
        return price;
    return price * (1.0 - allocatedPrimaryShare(context, n));
}

namespace {
class CostUnallocatedMetric final : public Metric {
public:
    std::string id() const override { return "cost-unallocated"; }
    std::string title() const override { return "Cost of unallocated capacity"; }
    std::string unit() const override { return "$/h"; }
    std::string description() const override
    {
        return "price x unrequested share of GPUs (accelerator nodes) or of the larger of CPU and memory";
    }
    ScaleKind scale() const override { return ScaleKind::Amount; }
    std::string notApplicableReason() const override { return "unknown price"; }
    double value(const MetricContext& context, NodeId n) const noexcept override { return unallocatedDollarsPerHour(context, n); }
    std::uint8_t flags(const MetricContext& context, NodeId n) const noexcept override
    {
        return isPrepaid(context.nodeCapacity(n)) ? kMetricFlagPrepaid : kMetricFlagNone;
    }
};
} // namespace

std::unique_ptr<Metric> makeCostUnallocatedMetric()
{
    return std::make_unique<CostUnallocatedMetric>();
}

} // namespace fleet::model
