// SPDX-License-Identifier: Apache-2.0
#include "markerlayer.h"

#include "views/map/colormap.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace fleet::views {

QColor MarkerLayer::markerColor(NodeMarkerKind kind)
{
    switch (kind) {
    case NodeMarkerKind::NotReady:
        return QColor(255, 64, 64); // brighter than notReadyColor(): a stroke, not a fill
    case NodeMarkerKind::Cordoned:
        return QColor(255, 120, 220);
    case NodeMarkerKind::Feasible:
        return QColor(60, 230, 90); // PlanLayer::feasibleTargetColor()
    case NodeMarkerKind::Problem:
        break;
    }
    return QColor(255, 176, 0); // amber: warnings
}

void MarkerLayer::sceneChanged(const MapScene& scene, unsigned changes)
{
    if (!(changes & (ClusterChanged | ProblemsChanged)))
        return;
    m_markers.clear();
    m_counts = {};
    if (!scene.hasMap())
        return;
    const model::ClusterStore& store = *scene.store;
    const auto shown = [&](NodeMarkerKind kind) { return (scene.shownMarkerKinds & (1u << static_cast<unsigned>(kind))) != 0; };
    std::vector<std::uint8_t> marked(store.nodeCount(), 0);
    std::vector<std::pair<model::NodeId, NodeMarkerKind>> notReady, cordoned;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const model::NodeId n(i);
        switch (nodeMark(store, n)) {
        case NodeMark::NotReady:
            ++m_counts[static_cast<std::size_t>(NodeMarkerKind::NotReady)];
            if (shown(NodeMarkerKind::NotReady))
                notReady.emplace_back(n, NodeMarkerKind::NotReady);
            marked[i] = 1;
            break;
        case NodeMark::Cordoned:
            ++m_counts[static_cast<std::size_t>(NodeMarkerKind::Cordoned)];
            if (shown(NodeMarkerKind::Cordoned))
                cordoned.emplace_back(n, NodeMarkerKind::Cordoned);
            marked[i] = 1;
            break;
        case NodeMark::None:
            break;
        }
    }
    for (const model::NodeId n : scene.problemNodes)
        if (n.isValid() && n.index() < marked.size() && !marked[n.index()]) {
            ++m_counts[static_cast<std::size_t>(NodeMarkerKind::Problem)];
            if (shown(NodeMarkerKind::Problem))
                m_markers.emplace_back(n, NodeMarkerKind::Problem);
            marked[n.index()] = 1;
        }
    m_markers.insert(m_markers.end(), cordoned.begin(), cordoned.end());
    m_markers.insert(m_markers.end(), notReady.begin(), notReady.end());
}

namespace {

// Adds the outline of a marker of `kind` centred on `c`, `r` logical px in radius.
void addMarkerShape(QPainterPath& path, NodeMarkerKind kind, QPointF c, double r)
{
    switch (kind) {
    case NodeMarkerKind::NotReady:
        path.addEllipse(c, r - 1, r - 1);
        break;
    case NodeMarkerKind::Cordoned:
        path.moveTo(c.x(), c.y() - r);
        path.lineTo(c.x() + r, c.y());
        path.lineTo(c.x(), c.y() + r);
        path.lineTo(c.x() - r, c.y());
        path.closeSubpath();
        break;
    case NodeMarkerKind::Problem:
        path.moveTo(c.x(), c.y() - r);
        path.lineTo(c.x() + r, c.y() + r - 1);
        path.lineTo(c.x() - r, c.y() + r - 1);
        path.closeSubpath();
        break;
    case NodeMarkerKind::Feasible:
        path.addRect(QRectF(c.x() - r + 1, c.y() - r + 1, 2 * r - 2, 2 * r - 2));
        break;
    }
}

// The halo and colour pens every marker is stroked with.
QPen haloPen()
{
    return QPen(QColor(0, 0, 0, 220), 4.0);
}

} // namespace

void MarkerLayer::drawMarker(QPainter& painter, NodeMarkerKind kind, QPointF centre)
{
    QPainterPath path;
    addMarkerShape(path, kind, QPointF(std::floor(centre.x()) + 0.5, std::floor(centre.y()) + 0.5), kMarkerPx / 2.0);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setBrush(Qt::NoBrush);
    painter.strokePath(path, haloPen());
    painter.strokePath(path, QPen(markerColor(kind), 2.0));
    painter.restore();
}

QString MarkerLayer::markerMeaning(NodeMarkerKind kind)
{
    switch (kind) {
    case NodeMarkerKind::NotReady:
        return QStringLiteral("NotReady");
    case NodeMarkerKind::Cordoned:
        return QStringLiteral("Cordoned");
    case NodeMarkerKind::Feasible:
        return QStringLiteral("Could take the pod");
    case NodeMarkerKind::Problem:
        break;
    }
    return QStringLiteral("Other problem");
}

const QImage& MarkerLayer::sprite(NodeMarkerKind kind, double devicePixelRatio)
{
    // One set per thread: the window's map paints on the GUI thread, a report's map that is never
    // shown on a worker (FleetMapView::grabImageLater()), each at its own ratio.
    thread_local QImage sprites[kNodeMarkerKinds];
    QImage& image = sprites[static_cast<int>(kind)];
    if (image.isNull() || image.devicePixelRatio() != devicePixelRatio) {
        const int px = static_cast<int>(std::ceil(kSpritePx * devicePixelRatio));
        image = QImage(px, px, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(devicePixelRatio);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        drawMarker(painter, kind, QPointF(kSpritePx / 2, kSpritePx / 2));
    }
    return image;
}

void MarkerLayer::paint(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    if (!scene.hasMap() || m_markers.empty())
        return;
    if (!scene.mask) {
        paintMarkers(painter, scene, camera, m_markers);
        return;
    }
    std::vector<std::pair<model::NodeId, NodeMarkerKind>> dimmed, kept;
    for (const auto& marker : m_markers)
        (scene.isDimmed(marker.first) ? dimmed : kept).push_back(marker);
    painter.save();
    painter.setOpacity(kDimmedMarkerOpacity);
    paintMarkers(painter, scene, camera, dimmed);
    painter.restore();
    paintMarkers(painter, scene, camera, kept);
}

void MarkerLayer::paintMarkers(
    QPainter& painter, const MapScene& scene, const MapCamera& camera, std::span<const std::pair<model::NodeId, NodeMarkerKind>> markers)
{
    const double px = camera.pxPerCell();
    const double w = camera.viewport.width(), h = camera.viewport.height();
    const bool corner = px >= 3.0 * kMarkerPx; // big cells: the marker sits in the corner
    auto centreOf = [&](model::NodeId n, double half, QPointF& c) {
        const CellPos cell = scene.layout.nodeCell(n);
        if (!cell.isValid())
            return false;
        c = camera.toWidget(QPointF(cell.x + 0.5, scene.layout.height() - cell.y - 0.5));
        if (corner)
            c += QPointF(px / 2.0 - half - 2, -px / 2.0 + half + 2);
        return c.x() >= -half && c.y() >= -half && c.x() <= w + half && c.y() <= h + half;
    };
    // Markers that would cover more than kMaxMarkerCover of the view together are drawn smaller
    // (down to kMinMarkerScale): 1,849 of them at full size hid the whole 100,000-node map of a
    // report under their halos; below that they keep their size.
    std::size_t visible = 0;
    QPointF c;
    for (const auto& marker : markers)
        visible += centreOf(marker.first, (kMarkerPx + 4) / 2.0, c) ? 1 : 0;
    const double spriteArea = static_cast<double>(kMarkerPx + 4) * (kMarkerPx + 4);
    // On paper (a report's maps, three device pixels per logical pixel) a marker stays legible
    // smaller than on a screen: down to the device pixels kMinMarkerScale gives at two per
    // logical pixel (1,849 markers at half size still covered much of a 100,000-node report map).
    const double minScale = kMinMarkerScale * std::min(1.0, 2.0 / std::max(1.0, camera.devicePixelRatio));
    const double scale = visible == 0 ? 1.0
                                      : std::clamp(std::sqrt(kMaxMarkerCover * w * h / (static_cast<double>(visible) * spriteArea)),
                                            minScale, 1.0);
    const double half = (kMarkerPx + 4) * scale / 2.0;
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, scale < 1.0);
    // One sprite per kind, drawn per marker: the raster engine copies a small image in about
    // a microsecond, where stroking one antialiased path of 1,200 markers took 400 to 600 ms
    // (and one drawPixmap() per marker on the OpenGL engine 25 to 140 ms) on llvmpipe's
    // machine. Markers are drawn in the order given (MarkerLayer's: most severe last, on top).
    for (const auto& [n, kind] : markers) {
        if (!centreOf(n, half, c))
            continue;
        const QImage& image = sprite(kind, camera.devicePixelRatio);
        if (scale >= 1.0) {
            // drawMarker() centres on floor(c) + 0.5, as the sprite holds it at kSpritePx / 2 + 0.5.
            painter.drawImage(QPointF(std::floor(c.x()) - kSpritePx / 2, std::floor(c.y()) - kSpritePx / 2), image);
        } else {
            const double side = kSpritePx * scale;
            painter.drawImage(QRectF(c.x() - side / 2, c.y() - side / 2, side, side), image);
        }
    }
    painter.restore();
}

} // namespace fleet::views
