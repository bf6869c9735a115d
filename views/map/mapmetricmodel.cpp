// SPDX-License-Identifier: Apache-2.0
#include "mapmetricmodel.h"

namespace fleet::views {

MapMetricModel::MapMetricModel(QObject* parent)
    : QObject(parent)
    , m_metric(views::mapMetric(MapMetric::GpuRequested))
{
}

void MapMetricModel::setMetric(std::shared_ptr<const model::Metric> metric)
{
    if (!metric || metric == m_metric)
        return;
    m_metric = std::move(metric);
    recompute();
    emit columnChanged();
}

void MapMetricModel::setMetric(MapMetric metric)
{
    setMetric(views::mapMetric(metric));
}

MapMetric MapMetricModel::mapMetric() const noexcept
{
    const std::string id = m_metric->id();
    if (id == "cpu")
        return MapMetric::CpuRequested;
    if (id == "memory")
        return MapMetric::MemoryRequested;
    return MapMetric::GpuRequested;
}

void MapMetricModel::setContext(std::shared_ptr<const model::MetricContext> context)
{
    m_context = std::move(context);
    recompute();
    emit contextChanged();
    emit columnChanged();
}

void MapMetricModel::recompute()
{
    m_column = m_context ? model::computeMetricColumn(*m_metric, *m_context) : model::MetricColumn {};
}

} // namespace fleet::views
