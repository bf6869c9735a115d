// SPDX-License-Identifier: Apache-2.0
// The "cpu" metric: requested / allocatable cpu.
#include "model/metrics/builtinmetrics.h"

namespace fleet::model {

namespace {
class CpuRequestedMetric final : public Metric {
public:
    std::string id() const override { return "cpu"; }
    std::string title() const override { return "CPU requested"; }
    std::string unit() const override { return "% of allocatable"; }
    std::string description() const override { return "requested / allocatable CPU"; }
    ScaleKind scale() const override { return ScaleKind::Share; }
    double value(const MetricContext& context, NodeId n) const noexcept override
    {
        return nodeCoreShare(context.store(), n, CoreResource::Cpu);
    }
};
} // namespace

std::unique_ptr<Metric> makeCpuRequestedMetric()
{
    return std::make_unique<CpuRequestedMetric>();
}

} // namespace fleet::model
