#pragma once
// Layer: the map image, one texel per layout cell (MapRaster), drawn as one textured quad
// with nearest filtering (DESIGN.md "Views": the same image at any node count), and the
// filter: every node whose mask byte is 0 (setNodeMask(): label selector, workload or
// namespace highlight) is dimmed toward the background in the image itself.
// Why not a second, semi-transparent quad over the image: blending it left the GL
// framebuffer's alpha below 1, and Qt composed the widget lighter, so dimmed nodes looked
// washed out rather than dark (measured in tst_fleetmaplayers); the dimmed copy costs one
// pass over the dimmed nodes and one texture upload, nothing per frame.

#include "views/map/layers/maplayer.h"

namespace fleet::views {

/// Rasterises on ClusterChanged and MetricChanged (about 1 ms at 100,000 nodes, plus one
/// texture upload), re-dims on MaskChanged from the kept raster; nothing per frame. The only
/// caller of MapRaster::render() in the view.
class TexelImageLayer final : public MapLayer {
public:
    TexelImageLayer();
    ~TexelImageLayer() override;
    void attach(vtkRenderer* renderer) override;
    /// Paints nothing with QPainter (its one VTK actor is the image).
    [[nodiscard]] unsigned paintDependsOn() const override { return 0; }
    void sceneChanged(const MapScene& scene, unsigned changes) override;

    /// Share of a dimmed node's colour kept (the rest is the background colour).
    static constexpr int kDimKeepPercent = 25;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace fleet::views
