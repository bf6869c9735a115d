// SPDX-License-Identifier: Apache-2.0
#include "planlayer.h"

#include "views/map/planmarks.h"

#include <QElapsedTimer>
#include <QPaintDevice>
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
    m_feasibleDots.clear();
    m_dotsDrawn = false;
    if (!shading) {
        m_shade = QImage();
        m_dotsImage = QImage();
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
    const std::size_t maxDots = nodes / 2;
    for (std::size_t i = 0; i < nodes; ++i) {
        if (feasible[i] != 0) {
            if (few && (few = m_feasibleMarkers.size() < kMaxFeasibleMarkers))
                m_feasibleMarkers.emplace_back(NodeId(static_cast<std::uint32_t>(i)), NodeMarkerKind::Feasible);
            if (m_feasibleDots.size() <= maxDots)
                m_feasibleDots.emplace_back(static_cast<std::uint32_t>(i));
            continue;
        }
        const CellPos c = layout.nodeCell(NodeId(static_cast<std::uint32_t>(i)));
        if (c.isValid())
            bits[static_cast<std::size_t>(c.y) * stride + static_cast<std::size_t>(c.x)] = wash;
    }
    if (!few)
        m_feasibleMarkers.clear();
    if (few || m_feasibleDots.size() > maxDots)
        m_feasibleDots.clear();
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
    if (m_shading && !m_feasibleDots.empty() && camera.pxPerCell() < kFeasibleDotPx)
        paintFeasibleDots(painter, scene, camera);
    paintMarks(painter, scene, camera);
}

void PlanLayer::paintFeasibleDots(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    const bool sameCamera = camera.centerX == m_dotsCamera.centerX && camera.centerY == m_dotsCamera.centerY
        && camera.unitsPerPixel == m_dotsCamera.unitsPerPixel && camera.viewport == m_dotsCamera.viewport
        && camera.layoutHeight == m_dotsCamera.layoutHeight && camera.devicePixelRatio == m_dotsCamera.devicePixelRatio;
    if (!m_dotsDrawn || !sameCamera) {
        m_dotsCamera = camera;
        m_dotsDrawn = true;
        const double dpr = camera.devicePixelRatio;
        const QSize device = (QSizeF(camera.viewport) * dpr).toSize().expandedTo(QSize(1, 1));
        if (m_dotsImage.size() != device)
            m_dotsImage = QImage(device, QImage::Format_ARGB32_Premultiplied);
        m_dotsImage.setDevicePixelRatio(dpr);
        m_dotsImage.fill(Qt::transparent);
        const QRgb green = feasibleTargetColor().rgb();
        const int side = std::max(1, static_cast<int>(std::lround(kFeasibleDotPx * dpr)));
        const int w = device.width(), h = device.height();
        auto* bits = reinterpret_cast<QRgb*>(m_dotsImage.bits());
        const auto stride = static_cast<std::size_t>(m_dotsImage.bytesPerLine() / 4);
        const MapLayout& layout = scene.layout;
        for (const NodeId n : m_feasibleDots) {
            const CellPos cell = layout.nodeCell(n);
            if (!cell.isValid())
                continue;
            const QPointF c = camera.toWidget(QPointF(cell.x + 0.5, layout.height() - cell.y - 0.5)) * dpr;
            const int x0 = static_cast<int>(std::floor(c.x())) - side / 2, y0 = static_cast<int>(std::floor(c.y())) - side / 2;
            if (x0 + side <= 0 || y0 + side <= 0 || x0 >= w || y0 >= h)
                continue;
            for (int y = std::max(0, y0); y < std::min(h, y0 + side); ++y)
                std::fill_n(bits + static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(std::max(0, x0)),
                    std::min(w, x0 + side) - std::max(0, x0), green);
        }
    }
    painter.drawImage(QPointF(0, 0), m_dotsImage);
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
        if (visibleMarks(scene, camera, kMaxDrawnMarks) > kMaxDrawnMarks) {
            paintMarkPixels(m_marksImage, scene, camera);
        } else {
            QPainter marksPainter(&m_marksImage);
            paintMarkShapes(marksPainter, scene, camera);
        }
    }
    painter.drawImage(QPointF(0, 0), m_marksImage);
    paintDragTarget(painter, scene, camera);
}

void PlanLayer::paintMarkShapes(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    const QRectF view(QPointF(0, 0), QSizeF(camera.viewport));
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setBrush(Qt::NoBrush);
    const bool inCell = camera.pxPerCell() >= kInCellMarkPx;
    auto mark = [&](NodeId n, PlanMarkKind kind) {
        if (inCell) {
            const CellPos c = scene.layout.nodeCell(n);
            const QRectF r = c.isValid() ? camera.cellsToWidget(c.x, c.y, 1, 1).normalized() : QRectF();
            if (!r.isNull() && r.intersects(view))
                drawMark(painter, kind, r);
            return;
        }
        // Cells too small to hold a mark: kMinMarkPx across, with a halo, over the neighbours.
        const QRectF r = markRect(scene, camera, n, kMinMarkPx);
        if (r.isNull() || !r.intersects(view))
            return;
        if (kind == PlanMarkKind::Changed || kind == PlanMarkKind::Violation) {
            painter.setPen(QPen(QColor(0, 0, 0, 200), 4.0));
            painter.drawRect(r);
            painter.setPen(QPen(kind == PlanMarkKind::Changed ? changedColor() : violationColor(), 2.0));
            painter.drawRect(r);
            return;
        }
        const bool removed = kind == PlanMarkKind::Removed;
        const QRectF x = r.adjusted(r.width() * 0.2, r.height() * 0.2, -r.width() * 0.2, -r.height() * 0.2);
        const QColor halo = removed ? QColor(255, 255, 255, 220) : QColor(0, 0, 0, 220);
        for (const auto& [pen, width] : { std::pair { halo, 4.0 }, std::pair { removed ? removedColor() : emptiedColor(), 2.0 } }) {
            painter.setPen(QPen(pen, width, Qt::SolidLine, Qt::RoundCap));
            painter.drawLine(x.topLeft(), x.bottomRight());
            painter.drawLine(x.topRight(), x.bottomLeft());
        }
    };
    if (const PlanMarks* marks = scene.planMarks.get()) {
        for (NodeId n : marks->changed)
            mark(n, PlanMarkKind::Changed);
        for (NodeId n : marks->violations)
            mark(n, PlanMarkKind::Violation);
        for (NodeId n : marks->emptied)
            mark(n, PlanMarkKind::Emptied);
        for (NodeId n : marks->removed)
            mark(n, PlanMarkKind::Removed);
    }
    painter.restore();
}

void PlanLayer::paintMarkPixels(QImage& image, const MapScene& scene, const MapCamera& camera)
{
    const PlanMarks* marks = scene.planMarks.get();
    if (!marks || image.isNull())
        return;
    const double dpr = camera.devicePixelRatio;
    const int width = image.width();
    const int height = image.height();
    auto* bits = reinterpret_cast<QRgb*>(image.bits());
    const auto stride = static_cast<std::size_t>(image.bytesPerLine() / 4);
    auto put = [&](int x, int y, QRgb colour) {
        if (x >= 0 && y >= 0 && x < width && y < height)
            bits[static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x)] = colour;
    };
    const QRectF view(QPointF(0, 0), QSizeF(camera.viewport));
    auto draw = [&](const std::vector<NodeId>& nodes, PlanMarkKind kind) {
        const bool cross = kind == PlanMarkKind::Emptied || kind == PlanMarkKind::Removed;
        const QRgb colour = (kind == PlanMarkKind::Changed ? changedColor()
                                : kind == PlanMarkKind::Violation ? violationColor()
                                : kind == PlanMarkKind::Emptied   ? emptiedColor()
                                                                  : removedColor())
                                .rgba();
        for (NodeId n : nodes) {
            const CellPos c = scene.layout.nodeCell(n);
            if (!c.isValid())
                continue;
            const QRectF r = camera.cellsToWidget(c.x, c.y, 1, 1).normalized();
            if (!r.intersects(view))
                continue;
            // The cell's device pixels (a cell under a pixel still gets one).
            const int x0 = static_cast<int>(std::floor(r.left() * dpr));
            const int y0 = static_cast<int>(std::floor(r.top() * dpr));
            const int side = std::max(1, std::min(static_cast<int>(std::lround(r.right() * dpr)) - x0,
                                             static_cast<int>(std::lround(r.bottom() * dpr)) - y0));
            // A cell under a device pixel shares its pixel with others: a cross there would paint
            // their colours over too (the plan's metrics show removed nodes as not applicable).
            if (kind != PlanMarkKind::Violation && r.width() * dpr < 1.0)
                continue;
            if (!cross && side < kMinOutlinePx) {
                if (kind == PlanMarkKind::Changed) {
                    // The cell's colour under the plan says more than an amber cell: one amber
                    // pixel in its middle where the cell has more than one, so that the node is
                    // marked at print resolution too.
                    if (side >= 2)
                        put(x0 + side / 2, y0 + side / 2, colour);
                    continue;
                }
                for (int y = 0; y < side; ++y)
                    for (int x = 0; x < side; ++x)
                        put(x0 + x, y0 + y, colour);
                continue;
            }
            // Lines a sixth of the cell thick (at least a pixel); a cross inset by a sixth, with a
            // pixel of halo of the other lightness on each side where the cell is an outline's
            // size (as drawMark()'s), so that it reads on a dark or a light cell.
            const int thick = std::max(1, side / 6);
            const int inset = cross && side >= 6 ? side / 6 : 0;
            const bool halo = cross && side >= kMinOutlinePx;
            const QRgb haloColour = kind == PlanMarkKind::Removed ? qPremultiply(qRgba(255, 255, 255, 150)) : qPremultiply(qRgba(0, 0, 0, 170));
            for (int y = inset; y < side - inset; ++y)
                for (int x = inset; x < side - inset; ++x) {
                    const int distance = cross ? std::min(std::abs(x - y), std::abs(x + y - (side - 1)))
                                               : std::min({ x, y, side - 1 - x, side - 1 - y });
                    if (distance < thick)
                        put(x0 + x, y0 + y, colour);
                    else if (halo && distance < thick + 1)
                        put(x0 + x, y0 + y, haloColour);
                }
        }
    };
    // Later kinds win a pixel, as later marks are drawn over earlier ones.
    draw(marks->changed, PlanMarkKind::Changed);
    draw(marks->violations, PlanMarkKind::Violation);
    draw(marks->emptied, PlanMarkKind::Emptied);
    draw(marks->removed, PlanMarkKind::Removed);
}

void PlanLayer::drawMark(QPainter& painter, PlanMarkKind kind, const QRectF& cell)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setBrush(Qt::NoBrush);
    const double side = std::min(cell.width(), cell.height());
    const double devicePixel = 1.0 / std::max(1.0, painter.device() ? painter.device()->devicePixelRatio() : 1.0);
    if (kind == PlanMarkKind::Changed || kind == PlanMarkKind::Violation) {
        // On the cell's border, inside it (a tenth of the cell, at least a device pixel): its
        // centre keeps the node's colour.
        const double pen = std::max(devicePixel, side * 0.1);
        painter.setPen(QPen(kind == PlanMarkKind::Changed ? changedColor() : violationColor(), pen, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        painter.drawRect(cell.adjusted(pen / 2, pen / 2, -pen / 2, -pen / 2));
    } else {
        // A thin halo of the other lightness, so the cross reads on a dark or a light cell.
        const double pen = std::max(1.0, side * 0.14);
        const QRectF x = cell.adjusted(side * 0.18, side * 0.18, -side * 0.18, -side * 0.18);
        const bool removed = kind == PlanMarkKind::Removed;
        const QColor halo = removed ? QColor(255, 255, 255, 150) : QColor(0, 0, 0, 170);
        for (const auto& [colour, width] : { std::pair { halo, pen + 1.0 }, std::pair { removed ? removedColor() : emptiedColor(), pen } }) {
            painter.setPen(QPen(colour, width, Qt::SolidLine, Qt::FlatCap));
            painter.drawLine(x.topLeft(), x.bottomRight());
            painter.drawLine(x.topRight(), x.bottomLeft());
        }
    }
    painter.restore();
}

QString PlanLayer::markMeaning(PlanMarkKind kind)
{
    switch (kind) {
    case PlanMarkKind::Changed:
        // The outline is on nodes (a count of pods it is not), and on a node given a pending pod
        // too, which is placed, not moved.
        return QStringLiteral("Nodes with pods moved or placed");
    case PlanMarkKind::Violation:
        return QStringLiteral("Override");
    case PlanMarkKind::Emptied:
        return QStringLiteral("Emptied");
    case PlanMarkKind::Removed:
        return QStringLiteral("Removed");
    }
    return {};
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
