// SPDX-License-Identifier: Apache-2.0
#pragma once
// The map's frame as the layers paint it, with the raster engine, cached while nothing it
// shows changed, and copied onto the GL frame (FrameBlit; else drawn in one opaque pass).
//
// Design (design note in maplayer.h): the bottom layer (the texel image, which
// changes with the metric and the filter) is painted straight into an opaque view-sized
// frame image; the other layers that paint from the scene and the camera only are painted
// into one transparent overlay image, which is composed over it. The overlay is kept until
// the camera moves or the scene changes something a layer that paints (or painted) reads
// (MapLayer::paintDependsOn(), paintsAnything()): a recolor repaints the texel layer and
// composes the kept overlay; a frame with nothing new reuses the whole frame image, and Qt's
// OpenGL engine its texture. When the camera moved, every layer paints anew anyway: they
// paint straight into the frame, and the overlay is painted at the first scene change at
// that camera. Layers that paint every frame (MapLayer::paintsEveryFrame())
// are painted over the frame on the GL frame.
// Measured (llvmpipe, 1920x1080, 2 loaded cores): an opaque full-view GL pass about 12 ms,
// blended twice that; the raster engine scales the texel image in about 2 ms and composes
// a view-sized transparent image in a few ms.
// Thread: GUI thread.

#include "views/map/layers/frameblit.h"
#include "views/map/layers/maplayer.h"

#include <QImage>
#include <QString>

#include <memory>
#include <vector>

namespace fleet::views {

class LayerOverlay {
public:
    /// Something outside the scene's Change bits changed: the next paint() paints every
    /// cached layer again.
    void invalidate() noexcept;
    /// Call after the layers' own sceneChanged(`changes`): drops the cached pictures that
    /// depend on one of `changes` (MapLayer::Change bits).
    void sceneChanged(unsigned changes, const std::vector<std::unique_ptr<MapLayer>>& layers, const MapScene& scene);
    /// Draws the frame of `layers` (bottom to top) at `camera` on the frame `target` is open
    /// on (its whole viewport: the frame image is opaque, `background` where no layer
    /// paints). `times`, when given, gets the repaint and composition times in ms, for the
    /// fleet.views.map.paint debug log.
    void paint(QPainter& target, const std::vector<std::unique_ptr<MapLayer>>& layers, const MapScene& scene,
        const MapCamera& camera, const QColor& background, QString* times = nullptr);
    /// True when the last paint() reused the whole cached frame image (for tests, benchmarks).
    [[nodiscard]] bool lastPaintReused() const noexcept { return m_reused; }

private:
    [[nodiscard]] bool sameCamera(const MapCamera& c) const noexcept;

    QImage m_frame; // RGB32 (opaque), device pixels, devicePixelRatio set
    QImage m_overlay; // ARGB32 premultiplied: the layers above the bottom one
    std::vector<std::uint8_t> m_painted; // by layer: painted into the kept images
    bool m_frameValid = false;
    bool m_overlayValid = false;
    bool m_overlayEmpty = true;
    MapCamera m_camera; // the camera the images were painted at
    bool m_reused = false;
    FrameBlit m_blit; // puts m_frame on the GL frame
};

} // namespace fleet::views
