// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer: domain frames (one outline per topology domain, in the gutters) and their labels,
// painted with QPainter in the empty rows MapLayout reserves above each block
// (MapLayout::labelGapRows()), at the size those rows have on screen: a label never covers
// a cell, and deeper levels' labels appear as zooming in makes room.

#include "views/map/layers/maplayer.h"

#include <QFont>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <span>

namespace fleet::views {

/// Outlines are world rectangles computed on ClusterChanged only and stroked with QPainter
/// (one logical pixel, no antialiasing) for those on screen; labels are placed per paint for
/// the domains on screen (at most kMaxLabels). The view keeps what this layer paints in its
/// cached overlay (MapLayer::paintsEveryFrame()). Thread: GUI thread.
class DomainFrameLayer final : public MapLayer {
public:
    DomainFrameLayer();
    ~DomainFrameLayer() override;
    void sceneChanged(const MapScene& scene, unsigned changes) override;
    [[nodiscard]] unsigned paintDependsOn() const override { return ClusterChanged; }
    [[nodiscard]] bool paintsAnything(const MapScene& scene, const MapCamera&) const override { return scene.hasMap(); }
    void paint(QPainter& painter, const MapScene& scene, const MapCamera& camera) override;

    /// Where and how domain d's label is drawn at `camera`.
    struct LabelPlacement {
        QRectF box; // GL widget logical coordinates
        QFont font;
        QString text;
    };
    /// Places domain d's label; false when it does not fit or is off screen. `baseFont` is
    /// the widget's font (family; sizes are set here).
    [[nodiscard]] static bool placeLabel(
        const MapScene& scene, const MapCamera& camera, const QFont& baseFont, model::DomainId d, LabelPlacement& out);
    /// The room domain d's label may take at `camera` (logical pixels: the gap above its
    /// block, inside the outlines); false when it is too small or off screen.
    [[nodiscard]] static bool labelRoom(const MapScene& scene, const MapCamera& camera, model::DomainId d, QRectF& room);
    /// A label's font (from `baseFont`, by tree `level`), text (`name`, elided when it must be)
    /// and box size fitted to a room of `room` logical pixels; false when it does not fit.
    struct LabelFit {
        QFont font;
        QString text;
        double width = 0, height = 0;
    };
    [[nodiscard]] static bool fitLabel(const QSizeF& room, int level, const QString& name, const QFont& baseFont, LabelFit& out);
    /// The domain whose drawn label holds `pos` (GL widget coordinates) in the last paint,
    /// or an invalid id.
    [[nodiscard]] model::DomainId labelAt(const QPointF& pos) const;
    /// Extra label rows per tree level so that region and zone labels fit at `pxPerCell`
    /// (MapLayout::build()'s labelRowsByLevel).
    [[nodiscard]] static std::vector<int> labelRowsForView(const model::Topology& topology, double pxPerCell);
    void setBaseFont(const QFont& font)
    {
        m_font = font;
        clearLabelCache();
    }

    /// Labels painted per frame at most; beyond, names are in the tooltip.
    static constexpr int kMaxLabels = 3000;

private:
    void clearLabelCache();
    void paintOutlines(QPainter& painter, const MapCamera& camera);
    struct Private;
    std::unique_ptr<Private> d;
    QFont m_font;
};

} // namespace fleet::views
