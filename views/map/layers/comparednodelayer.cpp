// SPDX-License-Identifier: Apache-2.0
#include "comparednodelayer.h"

#include "views/map/comparedmarks.h"
#include "views/map/layers/addednodelayer.h"
#include "views/map/layers/planlayer.h"
#include "views/map/planmarks.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdint>
#include <unordered_map>

namespace fleet::views {

bool ComparedNodeLayer::paintsAnything(const MapScene& scene, const MapCamera&) const
{
    return scene.hasMap() && scene.comparedMarks && !scene.comparedMarks->empty();
}

void ComparedNodeLayer::paint(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    if (!paintsAnything(scene, camera))
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    paintRemoved(painter, scene, camera);
    paintAdded(painter, scene, camera);
    painter.restore();
}

void ComparedNodeLayer::paintRemoved(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    const std::vector<model::NodeId>& removed = scene.comparedMarks->removed;
    const MapLayout& layout = scene.layout;
    const CellRect v = camera.visibleCells(layout.width(), layout.height());
    std::size_t inView = 0;
    for (model::NodeId n : removed) {
        const CellPos c = layout.nodeCell(n);
        if (c.isValid() && c.x >= v.x - 1 && c.x <= v.x + v.width && c.y >= v.y - 1 && c.y <= v.y + v.height && ++inView > kMaxDrawnMarks)
            break;
    }
    if (inView > kMaxDrawnMarks) {
        if (m_texelsSource != scene.comparedMarks || m_texels.width() != layout.width() || m_texels.height() != layout.height()) {
            m_texelsSource = scene.comparedMarks;
            m_texels = QImage(std::max(1, layout.width()), std::max(1, layout.height()), QImage::Format_ARGB32_Premultiplied);
            m_texels.fill(Qt::transparent);
            for (model::NodeId n : removed)
                if (const CellPos c = layout.nodeCell(n); c.isValid() && c.x < m_texels.width() && c.y < m_texels.height())
                    m_texels.setPixel(c.x, c.y, removedColor().rgba());
        }
        if (v.width > 0 && v.height > 0) {
            painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
            painter.drawImage(camera.cellsToWidget(v.x, v.y, v.width, v.height).normalized(), m_texels, QRectF(v.x, v.y, v.width, v.height));
        }
        return;
    }
    const QRectF view(QPointF(0, 0), QSizeF(camera.viewport));
    for (model::NodeId n : removed) {
        const QRectF r = PlanLayer::markRect(scene, camera, n, PlanLayer::kMinMarkPx);
        if (r.isNull() || !r.intersects(view))
            continue;
        painter.fillRect(r.adjusted(1, 1, -1, -1), QColor(20, 20, 26, 190));
        const QRectF x = r.adjusted(r.width() * 0.2, r.height() * 0.2, -r.width() * 0.2, -r.height() * 0.2);
        for (const auto& [colour, width] : { std::pair { QColor(0, 0, 0), 4.0 }, std::pair { removedColor(), 2.0 } }) {
            painter.setPen(QPen(colour, width, Qt::SolidLine, Qt::SquareCap));
            painter.drawLine(x.topLeft(), x.bottomRight());
            painter.drawLine(x.topRight(), x.bottomLeft());
        }
    }
}

std::vector<QRectF> ComparedNodeLayer::placeApart(const std::vector<QRectF>& wanted, const QRectF& view, double gapPx)
{
    std::vector<QRectF> placed;
    placed.reserve(wanted.size());
    auto overlaps = [&](const QRectF& box) {
        const QRectF spaced = box.adjusted(-gapPx, -gapPx, gapPx, gapPx);
        return std::any_of(placed.begin(), placed.end(), [&](const QRectF& p) { return spaced.intersects(p); });
    };
    auto inView = [&](QRectF box) {
        box.moveLeft(std::clamp(box.left(), view.left(), std::max(view.left(), view.right() - box.width())));
        box.moveTop(std::clamp(box.top(), view.top(), std::max(view.top(), view.bottom() - box.height())));
        return box;
    };
    for (const QRectF& want : wanted) {
        QRectF box = want;
        // Past kMaxPlacedBoxes boxes the search for the nearest free place (O(n^2) a box) gives
        // way to the stack under them (O(n)): a thousand racks in view stay well under a frame.
        if (overlaps(box) && placed.size() > kMaxPlacedBoxes) {
            double bottom = view.top();
            for (const QRectF& p : placed)
                bottom = std::max(bottom, p.bottom());
            box.moveTop(bottom + gapPx);
        } else if (overlaps(box)) {
            // Under or right of an earlier box, in line with the wanted place or with that box.
            double nearest = std::numeric_limits<double>::infinity();
            QRectF best;
            for (const QRectF& p : placed) {
                QRectF candidates[] = { want, want, want, want };
                candidates[0].moveTop(p.bottom() + gapPx);
                candidates[1].moveLeft(p.right() + gapPx);
                candidates[2].moveTopLeft(QPointF(p.left(), p.bottom() + gapPx));
                candidates[3].moveTopLeft(QPointF(p.right() + gapPx, p.top()));
                for (const QRectF& c : candidates) {
                    const QRectF kept = inView(c);
                    const double distance = std::abs(kept.left() - want.left()) + std::abs(kept.top() - want.top());
                    if (distance < nearest && !overlaps(kept)) {
                        nearest = distance;
                        best = kept;
                    }
                }
            }
            if (std::isfinite(nearest)) {
                box = best;
            } else {
                double bottom = view.top();
                for (const QRectF& p : placed)
                    bottom = std::max(bottom, p.bottom());
                box.moveTop(bottom + gapPx);
            }
        }
        placed.push_back(box);
    }
    return placed;
}

void ComparedNodeLayer::paintAdded(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    const ComparedMarks& marks = *scene.comparedMarks;
    if (marks.added.empty())
        return;
    // The domains are the comparison's topology's: under another (the map regrouped), all go
    // under the root.
    const bool sameTopology = marks.topology == scene.topology;
    const QRectF view(0, 0, camera.viewport.width(), camera.viewport.height());
    QFont font = painter.font();
    font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.85));
    const QFontMetrics fm(font);
    painter.setFont(font);
    constexpr int kSquare = AddedNodeLayer::kSquarePx, kPerRow = 12, kGap = 3, kPad = 5;
    const QColor teal = AddedNodeLayer::addedColor();
    // One box per domain, in the order the domains first appear among the added nodes.
    std::vector<std::pair<model::DomainId, std::vector<const ComparedMarks::AddedNode*>>> groups;
    std::unordered_map<std::uint32_t, std::size_t> groupOf;
    for (const ComparedMarks::AddedNode& a : marks.added) {
        const model::DomainId d = sameTopology && a.domain.isValid() ? a.domain : scene.topology->root();
        auto [it, inserted] = groupOf.try_emplace(d.value, groups.size());
        if (inserted)
            groups.emplace_back(d, std::vector<const ComparedMarks::AddedNode*> {});
        groups[it->second].second.push_back(&a);
    }
    // Each box where it is wanted first; then laid out apart: the boxes of neighbouring
    // domains (two zones side by side, a zone and its racks) wanted the same place.
    struct Box {
        const std::vector<const ComparedMarks::AddedNode*>* nodes;
        int shown;
        QString title;
        QString more;
    };
    std::vector<Box> boxes;
    std::vector<QRectF> wanted;
    for (const auto& [domain, nodes] : groups) {
        const CellRect cells = scene.layout.domainRect(domain);
        const QRectF r = cells.width > 0 ? camera.cellsToWidget(cells.x, cells.y, cells.width, cells.height).normalized()
                                         : camera.cellsToWidget(0, 0, scene.layout.width(), scene.layout.height()).normalized();
        if (!r.intersects(view))
            continue;
        const int shown = std::min<int>(static_cast<int>(nodes.size()), kMaxSquares);
        const int columns = std::min(shown, kPerRow);
        const int rows = (shown + kPerRow - 1) / kPerRow;
        const QString title = QStringLiteral("Added later (%1)").arg(nodes.size());
        const QString more = nodes.size() > static_cast<std::size_t>(shown) ? QStringLiteral("+%1 more").arg(nodes.size() - shown) : QString();
        const double width = std::max({ static_cast<double>(columns * (kSquare + kGap) - kGap), static_cast<double>(fm.horizontalAdvance(title)),
                                 static_cast<double>(fm.horizontalAdvance(more)) })
            + 2 * kPad;
        const double height = kPad + fm.height() + 2 + rows * (kSquare + kGap) + (more.isEmpty() ? 0 : fm.height()) + kPad;
        // Under the domain's rectangle, kept inside the view; beside a plan's box of added
        // nodes (AddedNodeLayer), which takes the same place, it sits to the right.
        const double x = std::clamp(r.left() + (scene.planMarks && !scene.planMarks->added.empty() ? r.width() / 2 : 0.0), 2.0,
            std::max(2.0, view.width() - width - 2));
        const double y = std::clamp(r.bottom() + 2, 2.0, std::max(2.0, view.height() - height - 2));
        boxes.push_back({ &nodes, shown, title, more });
        wanted.emplace_back(x, y, width, height);
    }
    const std::vector<QRectF> placed = placeApart(wanted, view.adjusted(2, 2, -2, -2), kGap);
    for (std::size_t b = 0; b < boxes.size(); ++b) {
        const auto& [nodesOf, shown, title, more] = boxes[b];
        const std::vector<const ComparedMarks::AddedNode*>& nodes = *nodesOf;
        const QRectF box = placed[b];
        const double x = box.left(), y = box.top(), width = box.width();
        painter.setPen(QPen(teal, 2.0));
        painter.setBrush(QColor(255, 255, 255, 235));
        painter.drawRect(box);
        painter.setPen(QColor(20, 60, 60));
        painter.drawText(QRectF(x + kPad, y + kPad, width - 2 * kPad, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, title);
        for (int i = 0; i < shown; ++i) {
            const QRectF sq(x + kPad + (i % kPerRow) * (kSquare + kGap), y + kPad + fm.height() + 2 + (i / kPerRow) * (kSquare + kGap), kSquare,
                kSquare);
            const double share = nodes[static_cast<std::size_t>(i)]->requestedShare;
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(210, 240, 238));
            painter.drawRect(sq);
            if (share > 0) {
                painter.setBrush(teal);
                painter.drawRect(QRectF(sq.left(), sq.bottom() - sq.height() * share, sq.width(), sq.height() * share));
            }
            painter.setPen(QPen(teal.darker(140), 1.0, Qt::DashLine));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(sq);
        }
        if (!more.isEmpty())
            painter.drawText(QRectF(x + kPad, box.bottom() - kPad - fm.height(), width - 2 * kPad, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, more);
    }
}

} // namespace fleet::views
