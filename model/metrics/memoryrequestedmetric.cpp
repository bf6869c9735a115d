// SPDX-License-Identifier: Apache-2.0
// The "memory" metric: requested / allocatable memory.
#include "model/metrics/builtinmetrics.h"

namespace fleet::model {

namespace {
class MemoryRequestedMetric final : public Metric {
public:
    std::string id() const override { return "memory"; }
    std::string title() const override { return "Memory requested"; }
    std::string unit() const override { return "% of allocatable"; }
    std::string description() const override { return "requested / allocatable memory"; }
    ScaleKind scale() const override { return ScaleKind::Share; }
    double value(const MetricContext& context, NodeId n) const noexcept override
    {
        return nodeCoreShare(context.store(), n, CoreResource::Memory);
    }
};
} // namespace

std::unique_ptr<Metric> makeMemoryRequestedMetric()
{
    return std::make_unique<MemoryRequestedMetric>();
}

} // namespace fleet::model
