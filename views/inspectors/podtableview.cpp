// SPDX-License-Identifier: Apache-2.0
#include "podtableview.h"

#include <QDrag>
#include <QFontMetrics>
#include <QItemSelectionModel>
#include <QMimeData>
#include <QPainter>
#include <QPixmap>

#include <algorithm>

namespace fleet::views {

PodTableView::PodTableView(QWidget* parent)
    : QTableView(parent)
{
}

std::unique_ptr<QDrag> PodTableView::createDrag()
{
    if (!model() || !selectionModel())
        return {};
    QModelIndexList indexes;
    for (const QModelIndex& index : selectionModel()->selectedIndexes())
        if (model()->flags(index) & Qt::ItemIsDragEnabled)
            indexes << index;
    if (indexes.isEmpty())
        return {};
    QMimeData* data = model()->mimeData(indexes);
    if (!data)
        return {};
    // The label: the first row's first two columns (namespace, name), as the row shows them.
    const QModelIndex first = *std::min_element(indexes.begin(), indexes.end(), [](const QModelIndex& a, const QModelIndex& b) {
        return a.row() != b.row() ? a.row() < b.row() : a.column() < b.column();
    });
    const QString ns = first.siblingAtColumn(0).data().toString();
    const QString name = first.siblingAtColumn(1).data().toString();
    QString text = ns.isEmpty() ? name : ns + QLatin1Char('/') + name;
    const QFontMetrics fm(font());
    text = fm.elidedText(text, Qt::ElideMiddle, 360);
    const qreal dpr = devicePixelRatioF();
    const QSize size(fm.horizontalAdvance(text) + 12, fm.height() + 6);
    QPixmap pixmap(size * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    {
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(palette().color(QPalette::Highlight), 1));
        p.setBrush(palette().color(QPalette::ToolTipBase));
        p.drawRoundedRect(QRectF(0.5, 0.5, size.width() - 1, size.height() - 1), 3, 3);
        p.setPen(palette().color(QPalette::ToolTipText));
        p.setFont(font());
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, text);
    }
    auto drag = std::make_unique<QDrag>(this);
    drag->setMimeData(data);
    drag->setPixmap(pixmap);
    // A hot spot outside the pixmap puts the label beside the pointer (QDrag places the pixmap's
    // top-left corner at the pointer minus the hot spot): above and right of it, since the map's
    // tooltip (can take the pod, or why not) shows below and right.
    drag->setHotSpot(QPoint(-kPointerGapPx, size.height() + kPointerGapPx));
    return drag;
}

void PodTableView::startDrag(Qt::DropActions supportedActions)
{
    std::unique_ptr<QDrag> drag = createDrag();
    if (!drag)
        return;
    // Qt's drag manager deletes the drag (deleteLater) once exec() returns.
    drag.release()->exec(supportedActions, defaultDropAction() != Qt::IgnoreAction ? defaultDropAction() : Qt::MoveAction);
}

} // namespace fleet::views
