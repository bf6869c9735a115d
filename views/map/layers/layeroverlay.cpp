// SPDX-License-Identifier: Apache-2.0
#include "layeroverlay.h"

#include <QElapsedTimer>
#include <QPainter>

namespace fleet::views {

namespace {

// A view-sized image in device pixels, reallocated only when the size or ratio changed.
void fitToView(QImage& image, const MapCamera& camera, QImage::Format format)
{
    const QSize device = (QSizeF(camera.viewport) * camera.devicePixelRatio).toSize();
    if (image.size() != device || image.devicePixelRatio() != camera.devicePixelRatio) {
        image = QImage(device, format);
        image.setDevicePixelRatio(camera.devicePixelRatio);
    }
}

} // namespace

void LayerOverlay::invalidate() noexcept
{
    m_frameValid = m_overlayValid = false;
}

void LayerOverlay::sceneChanged(unsigned changes, const std::vector<std::unique_ptr<MapLayer>>& layers, const MapScene& scene)
{
    m_painted.resize(layers.size(), 0);
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const MapLayer& layer = *layers[i];
        if (layer.paintsEveryFrame() || (layer.paintDependsOn() & changes) == 0)
            continue;
        // Only a layer that is in the kept picture, or would be now, makes it stale.
        if (!m_painted[i] && !layer.paintsAnything(scene, m_camera))
            continue;
        m_frameValid = false;
        if (i > 0)
            m_overlayValid = false;
    }
}

bool LayerOverlay::sameCamera(const MapCamera& c) const noexcept
{
    const MapCamera& o = m_camera;
    return c.centerX == o.centerX && c.centerY == o.centerY && c.unitsPerPixel == o.unitsPerPixel
        && c.viewport == o.viewport && c.layoutHeight == o.layoutHeight && c.devicePixelRatio == o.devicePixelRatio;
}

void LayerOverlay::paint(QPainter& target, const std::vector<std::unique_ptr<MapLayer>>& layers, const MapScene& scene,
    const MapCamera& camera, const QColor& background, QString* times)
{
    QElapsedTimer timer;
    const auto lap = [&](const char* what) {
        if (times)
            *times += QStringLiteral(" %1 %2").arg(QLatin1String(what)).arg(static_cast<double>(timer.nsecsElapsed()) / 1e6, 0, 'f', 2);
    };
    m_painted.resize(layers.size(), 0);
    const bool cameraMoved = !sameCamera(camera);
    if (cameraMoved)
        invalidate();
    m_camera = camera;
    m_reused = m_frameValid;
    const auto cached = [&](std::size_t i) { return !layers[i]->paintsEveryFrame(); };
    if (!m_frameValid && cameraMoved) {
        // The camera moved (a pan, a zoom): every layer paints anew, so they paint straight
        // into the frame, without the overlay's clear and composition (two full-view passes
        // of the CPU, some 8 ms of a zoomed pan's frame in bench_map on 2 loaded cores). The overlay stays
        // invalid: the first scene change at this camera (a recolor) paints it.
        timer.start();
        fitToView(m_frame, camera, QImage::Format_RGB32);
        m_frame.fill(background);
        QPainter painter(&m_frame);
        painter.setFont(target.font());
        for (std::size_t i = 0; i < layers.size(); ++i) {
            m_painted[i] = cached(i) && layers[i]->paintsAnything(scene, camera);
            if (!m_painted[i])
                continue;
            QElapsedTimer layerTimer;
            layerTimer.start();
            layers[i]->paint(painter, scene, camera);
            if (times)
                *times += QStringLiteral(" [%1 %2]").arg(i).arg(static_cast<double>(layerTimer.nsecsElapsed()) / 1e6, 0, 'f', 2);
        }
        painter.end();
        m_frameValid = true;
        lap("direct");
    }
    if (!m_frameValid) {
        if (!m_overlayValid) {
            timer.start();
            fitToView(m_overlay, camera, QImage::Format_ARGB32_Premultiplied);
            m_overlay.fill(Qt::transparent);
            m_overlayEmpty = true;
            QPainter painter(&m_overlay);
            painter.setFont(target.font());
            for (std::size_t i = 1; i < layers.size(); ++i) {
                m_painted[i] = cached(i) && layers[i]->paintsAnything(scene, camera);
                if (!m_painted[i])
                    continue;
                QElapsedTimer layerTimer;
                layerTimer.start();
                layers[i]->paint(painter, scene, camera);
                if (times)
                    *times += QStringLiteral(" [%1 %2]").arg(i).arg(static_cast<double>(layerTimer.nsecsElapsed()) / 1e6, 0, 'f', 2);
                m_overlayEmpty = false;
            }
            m_overlayValid = true;
            lap("overlay");
        }
        timer.start();
        fitToView(m_frame, camera, QImage::Format_RGB32);
        m_frame.fill(background);
        QPainter painter(&m_frame);
        painter.setFont(target.font());
        if (!layers.empty()) {
            m_painted[0] = cached(0) && layers[0]->paintsAnything(scene, camera);
            if (m_painted[0])
                layers[0]->paint(painter, scene, camera);
        }
        if (!m_overlayEmpty)
            painter.drawImage(QPointF(0, 0), m_overlay);
        painter.end();
        m_frameValid = true;
        lap("frame");
    }
    timer.start();
    // A copy of memory where the context can (FrameBlit); else one opaque pass of Qt's OpenGL
    // engine (RGB32: no blending), which keeps the image's texture while the image is
    // unchanged (its cacheKey).
    const bool blitted = m_blit.draw(target, m_frame);
    if (!blitted)
        target.drawImage(QPointF(0, 0), m_frame);
    lap(blitted ? (m_reused ? "blit(cached)" : "blit") : (m_reused ? "draw(cached)" : "draw"));
    for (const auto& layer : layers) {
        if (!layer->paintsEveryFrame())
            continue;
        timer.start();
        layer->paint(target, scene, camera);
        lap("every-frame");
    }
}

} // namespace fleet::views
