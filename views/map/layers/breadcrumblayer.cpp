// SPDX-License-Identifier: Apache-2.0
#include "breadcrumblayer.h"

#include <QFontMetrics>
#include <QPainter>
#include <QStringList>

#include <cmath>

namespace fleet::views {

QString BreadcrumbLayer::text(const MapScene& scene, const MapCamera& camera)
{
    if (!scene.hasMap() || (!scene.framedDomain.isValid() && camera.unitsPerPixel * kZoomedInFactor > scene.fittedUnitsPerPixel))
        return {};
    const QPointF at = scene.pointerInside ? scene.pointerPos
                                           : QPointF(camera.viewport.width() / 2.0, camera.viewport.height() / 2.0);
    const QPointF cell = camera.toCell(at);
    const int cx = static_cast<int>(std::floor(cell.x()));
    const int cy = static_cast<int>(std::floor(cell.y()));
    const model::Topology& topology = *scene.topology;
    model::DomainId dom;
    // A framed domain is what the view shows: the breadcrumb names it, not a node at the centre.
    const model::NodeId n = scene.framedDomain.isValid() && !scene.pointerInside ? model::NodeId() : scene.layout.nodeAt(cx, cy);
    if (!n.isValid() && scene.framedDomain.isValid() && !scene.pointerInside) {
        QStringList parts;
        for (model::DomainId d = scene.framedDomain; d.isValid() && d != topology.root(); d = topology.domainParent(d))
            parts.prepend(QString::fromStdString(topology.domainName(d)));
        return parts.join(QStringLiteral(" > "));
    }
    if (n.isValid()) {
        dom = topology.nodeDomain(n);
    } else {
        // On a gutter or a label band: the deepest domain whose rectangle holds the point.
        int bestLevel = 0;
        for (std::uint32_t i = 1; i < topology.domainCount(); ++i) {
            const model::DomainId d(i);
            if (topology.domainLevel(d) > bestLevel && scene.layout.domainRect(d).contains(cx, cy)) {
                bestLevel = topology.domainLevel(d);
                dom = d;
            }
        }
    }
    QStringList parts;
    for (model::DomainId d = dom; d.isValid() && d != topology.root(); d = topology.domainParent(d))
        parts.prepend(QString::fromStdString(topology.domainName(d)));
    if (n.isValid())
        parts.append(QString::fromUtf8(scene.store->nodeName(n).data(), static_cast<qsizetype>(scene.store->nodeName(n).size())));
    return parts.join(QStringLiteral(" > "));
}

void BreadcrumbLayer::paint(QPainter& painter, const MapScene& scene, const MapCamera& camera)
{
    const QString path = text(scene, camera);
    if (path.isEmpty())
        return;
    painter.save();
    QFont font = m_font;
    font.setPixelSize(12);
    painter.setFont(font);
    const QFontMetrics fm(font);
    const QRectF strip(0, 0, camera.viewport.width(), kStripPx);
    painter.fillRect(strip, QColor(12, 14, 20, 215));
    painter.setPen(QColor(235, 238, 245));
    const QString shown = fm.elidedText(path, Qt::ElideLeft, static_cast<int>(strip.width()) - 16);
    painter.drawText(strip.adjusted(8, 0, -8, 0), Qt::AlignVCenter | Qt::AlignLeft, shown);
    painter.restore();
}

} // namespace fleet::views
