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
    /// Whether the fleet shown has GPUs, MIG slices or Neuron devices
    /// (fleetHasAccelerators()); without, GpuRequested is titled as the CPU share it shows
    /// (mapMetricTitle()). Repaints when it changes. Default true.
    void setFleetHasAccelerators(bool has);
    [[nodiscard]] bool fleetHasAccelerators() const noexcept { return m_fleetHasAccelerators; }
    /// The title the legend shows now (mapMetricTitle() of the metric and the fleet).
    [[nodiscard]] QString title() const;
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    MapMetric m_metric = MapMetric::GpuRequested;
    bool m_fleetHasAccelerators = true;
};

} // namespace fleet::views
