// SPDX-License-Identifier: Apache-2.0
#include "texelimagelayer.h"

#include "views/map/colormap.h"
#include "views/map/mapraster.h"

#include <QPainter>

#include <cstring>

namespace fleet::views {

void TexelImageLayer::sceneChanged(const MapScene& scene, unsigned changes)
{
    if (!(changes & (ClusterChanged | MetricChanged | MaskChanged)))
        return;
    if (!scene.hasMap()) {
        m_raster = m_image = QImage();
        return;
    }
    if (changes & (ClusterChanged | MetricChanged) || m_raster.isNull())
        m_raster = scene.metricContext && scene.column
            ? MapRaster::render(*scene.metricContext, scene.layout, *scene.metricRef, *scene.column)
            : MapRaster::render(*scene.store, scene.layout, scene.metric);
    QImage dimmed = m_raster; // shares until written
    if (scene.mask) {
        const QColor bg = mapBackgroundColor();
        const int keep = kDimKeepPercent;
        const std::vector<std::uint8_t>& mask = *scene.mask;
        const std::size_t nodes = std::min(mask.size(), scene.store->nodeCount());
        // RGBA8888: bytes R, G, B, A in memory.
        unsigned char* bits = dimmed.bits();
        const auto stride = static_cast<std::size_t>(dimmed.bytesPerLine());
        const int bgc[3] = { bg.red(), bg.green(), bg.blue() };
        for (std::size_t i = 0; i < nodes; ++i) {
            if (mask[i] != 0)
                continue;
            const CellPos c = scene.layout.nodeCell(model::NodeId(static_cast<std::uint32_t>(i)));
            if (!c.isValid())
                continue;
            unsigned char* px = bits + static_cast<std::size_t>(c.y) * stride + static_cast<std::size_t>(c.x) * 4;
            for (int k = 0; k < 3; ++k)
                px[k] = static_cast<unsigned char>((px[k] * keep + bgc[k] * (100 - keep)) / 100);
        }
    }
    m_image = dimmed.convertToFormat(QImage::Format_RGB32);
}

void TexelImageLayer::paint(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    if (!scene.hasMap() || m_image.isNull())
        return;
    // Only the visible cells, whole cells, so a texel's edges fall where cellsToWidget() puts
    // the cell's (picking, outlines and detail agree with them).
    const CellRect v = camera.visibleCells(m_image.width(), m_image.height());
    if (v.width <= 0 || v.height <= 0)
        return;
    painter.save();
    if (static_cast<long long>(v.width) * v.height <= kCellFillMaxCells) {
        // Zoomed in: a few thousand cells each many pixels wide. One solid fill per run of
        // same-coloured cells in a row costs a fraction of scaling the image pixel by pixel
        // (bench_map's zoomed pan: 6 to 8 ms of a frame for the scaling on 2 loaded cores).
        painter.setRenderHint(QPainter::Antialiasing, false);
        for (int y = v.y; y < v.y + v.height; ++y) {
            const auto* row = reinterpret_cast<const QRgb*>(m_image.constScanLine(y));
            for (int x = v.x; x < v.x + v.width;) {
                const QRgb rgb = row[x];
                int end = x + 1;
                while (end < v.x + v.width && row[end] == rgb)
                    ++end;
                painter.fillRect(camera.cellsToWidget(x, y, end - x, 1).normalized(), QColor::fromRgb(rgb));
                x = end;
            }
        }
        painter.restore();
        return;
    }
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(camera.cellsToWidget(v.x, v.y, v.width, v.height).normalized(), m_image,
        QRectF(v.x, v.y, v.width, v.height));
    painter.restore();
}

} // namespace fleet::views
