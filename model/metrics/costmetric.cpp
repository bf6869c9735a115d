// SPDX-License-Identifier: Apache-2.0
// The "cost" metric: the node's price per hour.
#include "model/metrics/builtinmetrics.h"

namespace fleet::model {

namespace {
class CostMetric final : public Metric {
public:
    std::string id() const override { return "cost"; }
    std::string title() const override { return "Cost"; }
    std::string unit() const override { return "$/h"; }
    std::string description() const override { return "the node's price by region, instance type and capacity type"; }
    ScaleKind scale() const override { return ScaleKind::Amount; }
    std::string notApplicableReason() const override { return "unknown price"; }
    double value(const MetricContext& context, NodeId n) const noexcept override { return context.nodeDollarsPerHour(n); }
    std::uint8_t flags(const MetricContext& context, NodeId n) const noexcept override
    {
        return isPrepaid(context.nodeCapacity(n)) ? kMetricFlagPrepaid : kMetricFlagNone;
    }
};
} // namespace

std::unique_ptr<Metric> makeCostMetric()
{
    return std::make_unique<CostMetric>();
}

} // namespace fleet::model
