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

void PlanLayer::paintMarks(QPainter& painter, const MapScene& scene, const MapCamera& camera)
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
