// SPDX-License-Identifier: Apache-2.0
#include "selectionlayer.h"

#include <QPainter>

#include <algorithm>

namespace fleet::views {

QColor SelectionLayer::outlineColor()
{
    return QColor(0, 230, 255); // cyan: in no share colour, NotReady or cordoned mark
}

QRectF SelectionLayer::outlineRect(const MapScene& scene, const MapCamera& camera)
{
    if (!scene.hasMap() || !scene.selected.isValid())
        return {};
    const CellPos cell = scene.layout.nodeCell(scene.selected);
    if (!cell.isValid())
        return {};
    QRectF r = camera.cellsToWidget(cell.x, cell.y, 1, 1).normalized();
    // Around the cell, in the gap between cells, and never smaller than kMinOutlinePx.
    r.adjust(-1.5, -1.5, 1.5, 1.5);
    const double grow = std::max(0.0, (kMinOutlinePx - r.width()) / 2.0);
    return r.adjusted(-grow, -grow, grow, grow);
}

void SelectionLayer::paint(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    const QRectF r = outlineRect(scene, camera);
    if (r.isNull())
        return;
    painter.save();
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor(0, 0, 0, 230), 5.0));
    painter.drawRect(r);
    painter.setPen(QPen(outlineColor(), 2.0));
    painter.drawRect(r);
    painter.restore();
}

} // namespace fleet::views
