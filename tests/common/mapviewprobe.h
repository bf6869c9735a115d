// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a map test reads of a shown FleetMapView: its first frame on screen, and where a node's
// metric colour is: the cell's centre, or, once the cell is large enough for per-node detail
// (GPU tiles and pods fill its middle), a pixel of the metric-coloured frame inside its left
// edge (NodeDetailLayer::frameWidth()).

#include "views/map/fleetmapview.h"
#include "views/map/layers/nodedetaillayer.h"

#include <QImage>
#include <QPoint>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

namespace fleet::testing {

/// Shows `view` and waits until it is exposed and its first frame reached the screen; false
/// when that took over `timeoutMs` (per step).
[[nodiscard]] inline bool showAndWaitForFrame(views::FleetMapView& view, int timeoutMs = 10000)
{
    QSignalSpy frames(&view, &views::FleetMapView::frameRendered);
    view.show();
    return QTest::qWaitForWindowExposed(&view, timeoutMs) && (frames.count() > 0 || frames.wait(timeoutMs));
}

inline QPoint swatchPoint(const views::FleetMapView& view, model::NodeId n)
{
    const QRectF r = view.cellRect(n);
    if (r.width() < views::NodeDetailLayer::kDetailMinPx || view.cellCenter(n).isNull())
        return view.cellCenter(n);
    return QPoint(static_cast<int>(std::floor(r.left())) + 1 + static_cast<int>(views::NodeDetailLayer::frameWidth(r.width())) / 2,
        static_cast<int>(std::floor(r.center().y())));
}

inline QColor swatchColor(const views::FleetMapView& view, const QImage& image, model::NodeId n)
{
    const QPoint p = swatchPoint(view, n);
    const qreal dpr = image.devicePixelRatio();
    return image.pixelColor(QPoint(qRound(p.x() * dpr), qRound(p.y() * dpr)));
}

} // namespace fleet::testing
