// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer: the breadcrumb, a strip at the top of the map while zoomed in that names the
// domain path under the pointer (while it is over the map) or at the centre of the view,
// outermost first ("us-east-1 > us-east-1a > nn-1a2b"), so a user zoomed in knows where
// they are when the region and zone headers have scrolled away.

#include "views/map/layers/maplayer.h"

#include <QFont>
#include <QString>

namespace fleet::views {

class BreadcrumbLayer final : public MapLayer {
public:
    /// Zoomed in: at least this factor closer than the fitted view.
    static constexpr double kZoomedInFactor = 1.5;
    /// The strip's height in logical pixels.
    static constexpr int kStripPx = 22;

    /// The path at the pointer or the centre; "" when not zoomed in or over nothing.
    /// O(domains) when the point is on a gutter, O(depth) on a cell.
    [[nodiscard]] static QString text(const MapScene& scene, const MapCamera& camera);
    void paint(QPainter& painter, const MapScene& scene, const MapCamera& camera) override;
    /// The path follows the pointer, which no sceneChanged() announces.
    [[nodiscard]] bool paintsEveryFrame() const override { return true; }
    void setBaseFont(const QFont& font) { m_font = font; }

private:
    QFont m_font;
};

} // namespace fleet::views
