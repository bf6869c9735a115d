// SPDX-License-Identifier: Apache-2.0
#pragma once
// The map's data for its colours: the metric shown, the fleet it is over (a MetricContext) and
// the metric's column over that fleet (model::computeMetricColumn(): one value or category per
// node, with the totals). The fleet map's texel layer paints the column; the legend draws its
// scale, swatches and counts from it; the heatmap follows it. One object that all of them read,
// so that no widget owns another's data. Thread: GUI thread.

#include "views/map/mapmetric.h"

#include <QObject>

#include <memory>

namespace fleet::views {

class MapMetricModel : public QObject {
    Q_OBJECT
public:
    /// The "gpu" metric without a fleet (an empty column).
    explicit MapMetricModel(QObject* parent = nullptr);

    /// Shows `metric` and computes its column over the context (O(nodes)); a null metric or
    /// the one shown already changes nothing.
    void setMetric(std::shared_ptr<const model::Metric> metric);
    /// The built-in metric of a MapMetric.
    void setMetric(MapMetric metric);
    /// The fleet the column is over (null clears it); computes the column again even for the
    /// same context (a plan-aware metric whose plan changed). O(nodes).
    void setContext(std::shared_ptr<const model::MetricContext> context);

    /// The metric shown (never null).
    [[nodiscard]] const std::shared_ptr<const model::Metric>& metric() const noexcept { return m_metric; }
    /// The MapMetric of the metric shown when it is gpu, cpu or memory; GpuRequested otherwise.
    [[nodiscard]] MapMetric mapMetric() const noexcept;
    /// The fleet the column is over (null without one).
    [[nodiscard]] const std::shared_ptr<const model::MetricContext>& context() const noexcept { return m_context; }
    /// The metric's column over the context (empty without a context). Its address stays.
    [[nodiscard]] const model::MetricColumn& column() const noexcept { return m_column; }

signals:
    /// setContext() was called: the fleet is another, or the same one computed again. Emitted
    /// before columnChanged().
    void contextChanged();
    /// The column was computed again: another metric, another fleet, or new values.
    void columnChanged();

private:
    void recompute(); // the column of the metric over the context

    std::shared_ptr<const model::Metric> m_metric;
    std::shared_ptr<const model::MetricContext> m_context;
    model::MetricColumn m_column;
};

} // namespace fleet::views
