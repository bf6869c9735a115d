#include "layeroverlay.h"

#include <QElapsedTimer>
#include <QPainter>

namespace fleet::views {

bool LayerOverlay::sameCamera(const MapCamera& c) const noexcept
{
    const MapCamera& o = m_camera;
    return c.centerX == o.centerX && c.centerY == o.centerY && c.unitsPerPixel == o.unitsPerPixel
        && c.viewport == o.viewport && c.layoutHeight == o.layoutHeight && c.devicePixelRatio == o.devicePixelRatio;
}

void LayerOverlay::sceneChanged(unsigned changes, const std::vector<std::unique_ptr<MapLayer>>& layers) noexcept
{
    for (const auto& layer : layers)
        if (!layer->paintsEveryFrame() && (layer->paintDependsOn() & changes) != 0)
            m_valid = false;
}

void LayerOverlay::paint(QPainter& target, const std::vector<std::unique_ptr<MapLayer>>& layers, const MapScene& scene,
    const MapCamera& camera, QString* times)
{
    QElapsedTimer timer;
    const auto lap = [&] {
        if (times)
            *times += QStringLiteral(" %1").arg(static_cast<double>(timer.nsecsElapsed()) / 1e6, 0, 'f', 2);
    };
    m_reused = m_valid && sameCamera(camera);
    if (!m_reused) {
        const QSize device = (QSizeF(camera.viewport) * camera.devicePixelRatio).toSize();
        if (m_image.size() != device) {
            m_image = QImage(device, QImage::Format_ARGB32_Premultiplied);
            m_image.setDevicePixelRatio(camera.devicePixelRatio);
        }
        m_image.fill(Qt::transparent);
        QPainter painter(&m_image);
        painter.setFont(target.font());
        for (const auto& layer : layers) {
            if (layer->paintsEveryFrame())
                continue;
            timer.start();
            layer->paint(painter, scene, camera);
            lap();
        }
        m_camera = camera;
        m_valid = true;
    } else if (times) {
        *times += QStringLiteral(" (cached)");
    }
    timer.start();
    // One blended pass; Qt's OpenGL engine keeps the image's texture while the image is
    // unchanged (its cacheKey), so a reused picture is not uploaded again.
    target.drawImage(QPointF(0, 0), m_image);
    if (times)
        *times += QStringLiteral(" draw");
    lap();
    for (const auto& layer : layers) {
        if (!layer->paintsEveryFrame())
            continue;
        timer.start();
        layer->paint(target, scene, camera);
        lap();
    }
}

} // namespace fleet::views
