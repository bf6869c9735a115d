#pragma once
// The fleet map's image: one texel per layout cell, coloured from the store's columns.
//
// Design note (DESIGN.md "Views"): at a distance the map is one image, computed on the
// CPU (one pass over the nodes, one column at a time; about a millisecond at 100,000
// nodes), uploaded as one texture and drawn as one quad with nearest filtering. The
// same image at any node count; no per-node geometry.

#include "views/map/maplayout.h"
#include "views/map/mapmetric.h"

#include <QImage>

namespace fleet::views {

/// Builds map images. Thread: any thread (pure function of its inputs; the store and
/// layout must not be mutated meanwhile).
class MapRaster {
public:
    /// Returns a layout.width() x layout.height() image, QImage::Format_RGBA8888, row 0 at
    /// the top. Each node's texel: notReadyColor() when NotReady, else cordonedColor() when
    /// cordoned, else noDataColor() when nodeShare() is NaN, else shareColor(nodeShare())
    /// (clamped to [0, 1]). Every other texel (gutters, unused cells) is
    /// mapBackgroundColor(). Returns a null image for an empty layout.
    /// Throws std::bad_alloc only.
    [[nodiscard]] static QImage render(const model::ClusterStore& store, const MapLayout& layout, MapMetric metric);

    /// The colour render() gives node n (for tests and the tooltip swatch).
    [[nodiscard]] static QRgb nodeColor(
        const model::ClusterStore& store, model::NodeId n, MapMetric metric, const MetricKeys& keys) noexcept;
};

} // namespace fleet::views
