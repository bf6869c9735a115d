// SPDX-License-Identifier: Apache-2.0
#include "metricregistry.h"

#include "model/metrics/builtinmetrics.h"

namespace fleet::model {

MetricRegistry& MetricRegistry::builtin()
{
    static MetricRegistry registry = [] {
        MetricRegistry r;
        r.add(makeGpuRequestedMetric());
        r.add(makeCpuRequestedMetric());
        r.add(makeMemoryRequestedMetric());
        r.add(makeGpuUnallocatedMetric());
        r.add(makeGpuFragmentationMetric());
        r.add(makeCostMetric());
        r.add(makeCostUnallocatedMetric());
        r.add(makeNodeStateMetric());
        return r;
    }();
    return registry;
}

void MetricRegistry::add(std::shared_ptr<const Metric> metric)
{
    for (auto& m : m_metrics)
        if (m->id() == metric->id()) {
            m = std::move(metric);
            return;
        }
    m_metrics.push_back(std::move(metric));
}

std::shared_ptr<const Metric> MetricRegistry::find(std::string_view id) const
{
    for (const auto& m : m_metrics)
        if (m->id() == id)
            return m;
    if (id.starts_with(kLabelPrefix) && id.size() > kLabelPrefix.size())
        return makeLabelMetric(id.substr(kLabelPrefix.size()));
    return nullptr;
}

std::string MetricRegistry::validIds() const
{
    std::string ids;
    for (const auto& m : m_metrics)
        ids += m->id() + ", ";
    ids += "label:KEY";
    return ids;
}

} // namespace fleet::model
