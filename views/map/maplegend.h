#pragma once
// The fleet map's legend: the metric name, a colour bar from 0% (bottom) to 100% (top),
// and swatches for the marks a share cannot show (NotReady, cordoned, no data).

#include "views/map/mapmetric.h"

#include <QWidget>

namespace fleet::views {

/// A plain Qt widget painted with QPainter, placed beside the map's GL widget.
/// Thread: GUI thread.
class MapLegend : public QWidget {
    Q_OBJECT
public:
    explicit MapLegend(QWidget* parent = nullptr);
    /// Shows the name and meaning of `metric`; repaints when it changes.
    void setMetric(MapMetric metric);
    [[nodiscard]] MapMetric metric() const noexcept { return m_metric; }
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    MapMetric m_metric = MapMetric::GpuRequested;
};

} // namespace fleet::views
