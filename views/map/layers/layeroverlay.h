#pragma once
// The QPainter part of the map's layer stack for one frame: the layers that paint from the
// scene and the camera only are painted with the raster engine into one view-sized image,
// kept until the scene or the camera changes, and drawn over the VTK frame in one pass; the
// layers that paint every frame (MapLayer::paintsEveryFrame()) are painted over it. See the
// design note in maplayer.h for why (software OpenGL pays per shaded fragment).
// Thread: GUI thread.

#include "views/map/layers/maplayer.h"

#include <QImage>
#include <QString>

#include <memory>
#include <vector>

namespace fleet::views {

class LayerOverlay {
public:
    /// Something outside the scene's Change bits changed: the next paint() paints the cached
    /// layers again.
    void invalidate() noexcept { m_valid = false; }
    /// The scene changed by `changes` (MapLayer::Change bits): the cached picture is dropped
    /// when a cached layer of `layers` depends on one of them (MapLayer::paintDependsOn()).
    void sceneChanged(unsigned changes, const std::vector<std::unique_ptr<MapLayer>>& layers) noexcept;
    /// Paints `layers` (bottom to top) over the frame `target` is open on, at `camera` (whose
    /// viewport and devicePixelRatio size the cached image, in device pixels). `times`, when
    /// given, gets each layer's paint time in ms (blank for a layer whose cached picture was
    /// reused), for the fleet.views.map.paint debug log.
    void paint(QPainter& target, const std::vector<std::unique_ptr<MapLayer>>& layers, const MapScene& scene,
        const MapCamera& camera, QString* times = nullptr);
    /// True when the last paint() reused the cached picture (for tests and benchmarks).
    [[nodiscard]] bool lastPaintReused() const noexcept { return m_reused; }

private:
    [[nodiscard]] bool sameCamera(const MapCamera& c) const noexcept;

    QImage m_image; // ARGB32 premultiplied, device pixels, devicePixelRatio set
    MapCamera m_camera; // the camera m_image was painted at
    bool m_valid = false;
    bool m_reused = false;
};

} // namespace fleet::views
