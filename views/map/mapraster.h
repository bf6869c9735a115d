// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fleet map's image: one texel per layout cell, coloured by a metric.
//
// Design note (DESIGN.md "Views"): at a distance the map is one image, computed on the
// CPU (one pass over the nodes for the metric's column, one for the texels; about a
// millisecond or two at 100,000 nodes), uploaded as one texture and drawn as one quad with
// nearest filtering. The same image at any node count; no per-node geometry.

#include "views/map/colormap.h"
#include "views/map/maplayout.h"
#include "views/map/mapmetric.h"

#include <QImage>

namespace fleet::views {

/// Builds map images. Thread: any thread (pure function of its inputs; the store and
/// layout must not be mutated meanwhile).
class MapRaster {
public:
    /// Returns a layout.width() x layout.height() image, QImage::Format_RGBA8888, row 0 at
    /// the top. Each node's texel: when metric.marksOverride(), notReadyColor() when
    /// NotReady, else cordonedColor() when cordoned; else
    /// MetricColorScale::forColumn(metric, column).color(value, rank): notApplicableColor()
    /// when the value is NaN. Every other texel (gutters, unused cells) is
    /// mapBackgroundColor(). `column` must be computeMetricColumn(metric, context).
    /// Returns a null image for an empty layout. Throws std::bad_alloc only.
    [[nodiscard]] static QImage render(const model::MetricContext& context, const MapLayout& layout, const model::Metric& metric,
        const model::MetricColumn& column);
    /// render() with the column computed here.
    [[nodiscard]] static QImage render(const model::MetricContext& context, const MapLayout& layout, const model::Metric& metric);
    /// render() of a share metric by name, on a context built here (no prices).
    [[nodiscard]] static QImage render(const model::ClusterStore& store, const MapLayout& layout, MapMetric metric);

    /// The colour render() gives node n.
    [[nodiscard]] static QRgb nodeColor(const model::MetricContext& context, const model::Metric& metric,
        const model::MetricColumn& column, model::NodeId n) noexcept;
    /// The colour render(store, layout, metric) gives node n. O(nodes) (it builds a
    /// context): for tests.
    [[nodiscard]] static QRgb nodeColor(
        const model::ClusterStore& store, model::NodeId n, MapMetric metric, const MetricKeys& keys) noexcept;
};

} // namespace fleet::views
