// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer: the map image, one texel per layout cell (MapRaster), scaled to the view with
// nearest filtering (DESIGN.md "Views": the same image at any node count), and the filter:
// every node whose mask byte is 0 (setNodeMask(): label selector, workload or namespace
// highlight) is dimmed toward the background in the image itself.
// Technique: painted with QPainter like the layers above it, into the view's cached overlay
// (layeroverlay.h), by the raster engine's nearest-neighbour scaling of the visible cells,
// about 2 ms for 1920x1080. As a VTK textured quad the same image cost a full-view pass of
// llvmpipe's fragment shading (12 ms opaque, 30 ms blended with the depth test, 2 loaded
// cores) on every frame, and the overlay a second, blended pass over it.
// Why dimming in the image and not a semi-transparent layer over it: dimmed nodes must look
// dark, not washed out (tst_fleetmaplayers), and the dimmed copy costs one pass over the
// dimmed nodes, nothing per frame.

#include "views/map/layers/maplayer.h"

#include <QImage>

namespace fleet::views {

/// Rasterises on ClusterChanged and MetricChanged (about 1 ms at 100,000 nodes), re-dims on
/// MaskChanged from the kept raster. The only caller of MapRaster::render() in the view.
class TexelImageLayer final : public MapLayer {
public:
    void sceneChanged(const MapScene& scene, unsigned changes) override;
    [[nodiscard]] unsigned paintDependsOn() const override { return ClusterChanged | MetricChanged | MaskChanged; }
    [[nodiscard]] bool paintsAnything(const MapScene& scene, const MapCamera&) const override
    {
        return scene.hasMap() && !m_image.isNull();
    }
    /// The visible cells' texels, each a cellsToWidget() rectangle of its colour.
    void paint(QPainter& painter, const MapScene& scene, const MapCamera& camera) override;

    /// At most this many visible cells are drawn as solid fills (one per run of one colour
    /// in a row) instead of by scaling the image: the same rectangles, fewer pixels touched.
    static constexpr long long kCellFillMaxCells = 20000;
    /// Share of a dimmed node's colour kept (the rest is the background colour).
    static constexpr int kDimKeepPercent = 25;

private:
    QImage m_raster; // MapRaster's image, undimmed (RGBA8888)
    QImage m_image; // what paint() draws: the raster dimmed by the mask, RGB32 (the raster
                    // engine's fast scaling path); null without a map
};

} // namespace fleet::views
