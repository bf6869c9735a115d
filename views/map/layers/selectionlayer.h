// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer: the selected node's highlight, a bright outline with a dark halo around its cell,
// at least kMinOutlinePx across on screen so it is visible at every zoom (at the fitted
// zoom of 100,000 nodes a cell is about a pixel).

#include "views/map/layers/maplayer.h"

#include <QColor>

namespace fleet::views {

/// Reads MapScene::selected; paints only (one rectangle per frame).
class SelectionLayer final : public MapLayer {
public:
    static constexpr int kMinOutlinePx = 15;
    /// The outline's colour (for tests).
    [[nodiscard]] static QColor outlineColor();
    /// The rectangle the outline is drawn on, in GL widget logical coordinates (null when
    /// nothing is selected or it is not laid out).
    [[nodiscard]] static QRectF outlineRect(const MapScene& scene, const MapCamera& camera);
    [[nodiscard]] unsigned paintDependsOn() const override { return ClusterChanged | SelectionChanged; }
    [[nodiscard]] bool paintsAnything(const MapScene& scene, const MapCamera&) const override
    {
        return scene.hasMap() && scene.selected.isValid();
    }
    void paint(QPainter& painter, const MapScene& scene, const MapCamera& camera) override;
};

} // namespace fleet::views
