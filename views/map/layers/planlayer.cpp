// SPDX-License-Identifier: Apache-2.0
#include "planlayer.h"

#include "views/map/planmarks.h"

#include <QElapsedTimer>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace fleet::views {

using model::NodeId;

QColor PlanLayer::shadedColor(QColor c) noexcept
{
    // Source-over of the premultiplied wash, as QPainter composes it.
    const QColor w = QColor::fromRgb(kInfeasibleRgb);
    auto mix = [](int node, int wash) {
        const int a = kInfeasibleAlpha;
        return (wash * a + node * (255 - a) + 127) / 255;
    };
    return QColor(mix(c.red(), w.red()), mix(c.green(), w.green()), mix(c.blue(), w.blue()));
}

QRectF PlanLayer::markRect(const MapScene& scene, const MapCamera& camera, NodeId n, double minPx)
{
    if (!scene.hasMap() || !n.isValid())
        return {};
    const CellPos cell = scene.layout.nodeCell(n);
    if (!cell.isValid())
        return {};
    QRectF r = camera.cellsToWidget(cell.x, cell.y, 1, 1).normalized();
    r.adjust(-1, -1, 1, 1);
    const double grow = std::max(0.0, (minPx - r.width()) / 2.0);
    return r.adjusted(-grow, -grow, grow, grow);
}

void PlanLayer::sceneChanged(const MapScene& scene, unsigned changes)
{
    if (changes & ClusterChanged) { // a relayout moves the cells under the kept marks
        m_marksImage = QImage();
        m_texelsSource.reset();
    }
    if (!(changes & (ClusterChanged | DragChanged)))
        return;
    const bool shading = scene.hasMap() && scene.dragFeasible;
    // Moves of the pointer change dragTarget only: the image stays.
    if (shading && m_shading && !(changes & ClusterChanged) && m_shadeSource == scene.dragFeasible.get())
        return;
    m_shading = shading;
    m_shadeSource = shading ? scene.dragFeasible.get() : nullptr;
    m_feasibleMarkers.clear();
    if (!shading) {
        m_shade = QImage();
        return;
    }
    QElapsedTimer timer;
    timer.start();
    const MapLayout& layout = scene.layout;
    if (m_shade.width() != layout.width() || m_shade.height() != layout.height())
        m_shade = QImage(layout.width(), layout.height(), QImage::Format_ARGB32_Premultiplied);
    m_shade.fill(Qt::transparent);
    const QColor w = QColor::fromRgb(kInfeasibleRgb);
    const int a = kInfeasibleAlpha;
    const QRgb wash = qRgba(w.red() * a / 255, w.green() * a / 255, w.blue() * a / 255, a); // premultiplied
    const std::vector<std::uint8_t>& feasible = *scene.dragFeasible;
    const std::size_t nodes = std::min(feasible.size(), scene.store->nodeCount());
    auto* bits = reinterpret_cast<QRgb*>(m_shade.bits());
    const auto stride = static_cast<std::size_t>(m_shade.bytesPerLine() / 4);
    bool few = true;
    for (std::size_t i = 0; i < nodes; ++i) {
        if (feasible[i] != 0) {
            if (few && (few = m_feasibleMarkers.size() < kMaxFeasibleMarkers))
                m_feasibleMarkers.emplace_back(NodeId(static_cast<std::uint32_t>(i)), NodeMarkerKind::Feasible);
            continue;
        }
        const CellPos c = layout.nodeCell(NodeId(static_cast<std::uint32_t>(i)));
        if (c.isValid())
            bits[static_cast<std::size_t>(c.y) * stride + static_cast<std::size_t>(c.x)] = wash;
    }
    if (!few)
        m_feasibleMarkers.clear();
    m_shadeMs = timer.nsecsElapsed() / 1e6;
}

void PlanLayer::paint(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    if (!scene.hasMap())
        return;
    if (m_shading && !m_shade.isNull()) {
        const CellRect v = camera.visibleCells(scene.layout.width(), scene.layout.height());
        if (v.width > 0 && v.height > 0) {
            painter.save();
            painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
            painter.drawImage(camera.cellsToWidget(v.x, v.y, v.width, v.height).normalized(), m_shade,
                QRectF(v.x, v.y, v.width, v.height));
            painter.restore();
        }
    }
    if (m_shading && !m_feasibleMarkers.empty())
        MarkerLayer::paintMarkers(painter, scene, camera, m_feasibleMarkers);
    paintMarks(painter, scene, camera);
}

std::size_t PlanLayer::visibleMarks(const MapScene& scene, const MapCamera& camera, std::size_t limit)
{
    const PlanMarks* marks = scene.planMarks.get();
    if (!marks)
        return 0;
    const CellRect v = camera.visibleCells(scene.layout.width(), scene.layout.height());
    std::size_t n = 0;
    for (const std::vector<NodeId>* list : { &marks->changed, &marks->violations, &marks->emptied, &marks->removed })
        for (NodeId node : *list) {
            const CellPos c = scene.layout.nodeCell(node);
            if (c.isValid() && c.x >= v.x - 1 && c.x <= v.x + v.width && c.y >= v.y - 1 && c.y <= v.y + v.height && ++n > limit)
                return n;
        }
    return n;
}

void PlanLayer::buildMarkTexels(const MapScene& scene)
{
    const MapLayout& layout = scene.layout;
    if (m_markTexels.width() != layout.width() || m_markTexels.height() != layout.height())
        m_markTexels = QImage(std::max(1, layout.width()), std::max(1, layout.height()), QImage::Format_ARGB32_Premultiplied);
    m_markTexels.fill(Qt::transparent);
    auto* bits = reinterpret_cast<QRgb*>(m_markTexels.bits());
    const auto stride = static_cast<std::size_t>(m_markTexels.bytesPerLine() / 4);
    auto put = [&](const std::vector<NodeId>& nodes, const QColor& colour) {
        for (NodeId n : nodes) {
            const CellPos c = layout.nodeCell(n);
            if (c.isValid() && c.x < m_markTexels.width() && c.y < m_markTexels.height())
                bits[static_cast<std::size_t>(c.y) * stride + static_cast<std::size_t>(c.x)] = colour.rgba();
        }
    };
    // Later kinds win a cell, as later marks are drawn over earlier ones.
    if (const PlanMarks* marks = scene.planMarks.get()) {
        put(marks->changed, changedColor());
        put(marks->violations, violationColor());
        put(marks->emptied, QColor(250, 250, 250));
        put(marks->removed, removedTexelColor());
    }
}

void PlanLayer::paintMarks(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    // The marks change with the plan and the camera only: drawn once into a view-sized image
    // and reused by every frame between (a drag's pointer moves, a selection, a hover).
    const bool sameCamera = camera.centerX == m_marksCamera.centerX && camera.centerY == m_marksCamera.centerY
        && camera.unitsPerPixel == m_marksCamera.unitsPerPixel && camera.viewport == m_marksCamera.viewport
        && camera.layoutHeight == m_marksCamera.layoutHeight && camera.devicePixelRatio == m_marksCamera.devicePixelRatio;
    if (!scene.planMarks) {
        m_marksSource.reset();
        paintDragTarget(painter, scene, camera);
        return;
    }
    if (m_marksSource != scene.planMarks || !sameCamera || m_marksImage.isNull()) {
        m_marksSource = scene.planMarks;
        m_marksCamera = camera;
        const QSize device = (QSizeF(camera.viewport) * camera.devicePixelRatio).toSize();
        if (m_marksImage.size() != device || m_marksImage.devicePixelRatio() != camera.devicePixelRatio) {
            m_marksImage = QImage(device.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
            m_marksImage.setDevicePixelRatio(camera.devicePixelRatio);
        }
        m_marksImage.fill(Qt::transparent);
        QPainter marksPainter(&m_marksImage);
        if (visibleMarks(scene, camera, kMaxDrawnMarks) > kMaxDrawnMarks)
            paintMarkTexels(marksPainter, scene, camera);
        else
            paintMarkShapes(marksPainter, scene, camera);
    }
    painter.drawImage(QPointF(0, 0), m_marksImage);
    paintDragTarget(painter, scene, camera);
}

void PlanLayer::paintMarkTexels(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    if (m_texelsSource != scene.planMarks || m_markTexels.width() != scene.layout.width()
        || m_markTexels.height() != scene.layout.height()) {
        m_texelsSource = scene.planMarks;
        buildMarkTexels(scene);
    }
    const CellRect v = camera.visibleCells(scene.layout.width(), scene.layout.height());
    if (v.width <= 0 || v.height <= 0)
        return;
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(camera.cellsToWidget(v.x, v.y, v.width, v.height).normalized(), m_markTexels, QRectF(v.x, v.y, v.width, v.height));
}

void PlanLayer::paintMarkShapes(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    const QRectF view(QPointF(0, 0), QSizeF(camera.viewport));
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setBrush(Qt::NoBrush);
    auto outline = [&](NodeId n, const QColor& colour, double minPx) {
        const QRectF r = markRect(scene, camera, n, minPx);
        if (r.isNull() || !r.intersects(view))
            return;
        painter.setPen(QPen(QColor(0, 0, 0, 200), 4.0));
        painter.drawRect(r);
        painter.setPen(QPen(colour, 2.0));
        painter.drawRect(r);
    };
    auto cross = [&](NodeId n, const QColor& colour, bool darken) {
        const QRectF r = markRect(scene, camera, n, kMinMarkPx);
        if (r.isNull() || !r.intersects(view))
            return;
        if (darken)
            painter.fillRect(r.adjusted(1, 1, -1, -1), QColor(20, 20, 26, 190));
        const QRectF x = r.adjusted(r.width() * 0.2, r.height() * 0.2, -r.width() * 0.2, -r.height() * 0.2);
        for (const auto& [pen, width] : { std::pair { QColor(0, 0, 0, 220), 4.0 }, std::pair { colour, 2.0 } }) {
            painter.setPen(QPen(pen, width, Qt::SolidLine, Qt::RoundCap));
            painter.drawLine(x.topLeft(), x.bottomRight());
            painter.drawLine(x.topRight(), x.bottomLeft());
        }
    };
    if (const PlanMarks* marks = scene.planMarks.get()) {
        for (NodeId n : marks->changed)
            outline(n, changedColor(), kMinMarkPx);
        for (NodeId n : marks->violations)
            outline(n, violationColor(), kMinMarkPx);
        for (NodeId n : marks->emptied)
            cross(n, QColor(250, 250, 250), false);
        for (NodeId n : marks->removed)
            cross(n, QColor(255, 70, 70), true);
    }
    painter.restore();
}

void PlanLayer::paintDragTarget(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setBrush(Qt::NoBrush);
    if (scene.dragFeasible && scene.dragDomain.isValid() && scene.dragDomain != scene.topology->root()) {
        // A workload's target domain: its block outlined.
        const CellRect d = scene.layout.domainRect(scene.dragDomain);
        const QRectF r = camera.cellsToWidget(d.x, d.y, d.width, d.height).normalized().adjusted(-2, -2, 2, 2);
        painter.setPen(QPen(QColor(0, 0, 0, 220), 5.0));
        painter.drawRect(r);
        painter.setPen(QPen(feasibleTargetColor(), 2.5, Qt::DashLine));
        painter.drawRect(r);
    }
    if (scene.dragFeasible && scene.dragTarget.isValid()) {
        const QRectF r = markRect(scene, camera, scene.dragTarget, kMinTargetPx);
        if (!r.isNull()) {
            painter.setPen(QPen(QColor(0, 0, 0, 220), 5.0));
            painter.drawEllipse(r);
            painter.setPen(QPen(scene.dragTargetFeasible ? feasibleTargetColor() : infeasibleTargetColor(), 2.5));
            painter.drawEllipse(r);
        }
    }
    painter.restore();
}

} // namespace fleet::views
