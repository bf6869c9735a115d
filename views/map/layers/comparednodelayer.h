// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer: the nodes File > Compare With found added or removed (MapScene::comparedMarks,
// views/map/comparedmarks.h). A shown node the later state no longer has is darkened with a
// cross in removedColor() (magenta: not the red of a plan's removed node, nor the red and blue
// of the difference's colour map), at least PlanLayer::kMinMarkPx across at every zoom (a cell is about a
// pixel at the fitted 100,000-node zoom); when more than kMaxDrawnMarks are in view, each is one
// texel of a layout-sized image drawn as one scaled image, as PlanLayer does. A node of the later
// state only has no cell in the shown layout: it is a square in a box under the rectangle of the
// domain its labels name (kept inside the view), titled "Added later (N)", drawn as
// AddedNodeLayer draws a plan's added nodes (its teal, filled from the bottom by the node's
// requested share in the later state), at most kMaxSquares a domain, then "+K more"; boxes of
// neighbouring domains, which want the same place, are laid out apart (placeApart()). Nothing is
// antialiased: the marks are the exact colours named here, which no metric's colour map holds
// (the end-to-end test counts them).

#include "views/map/layers/maplayer.h"

#include <QColor>
#include <QImage>
#include <QRectF>

#include <memory>
#include <vector>

namespace fleet::views {

struct ComparedMarks;

class ComparedNodeLayer final : public MapLayer {
public:
    /// The cross over a removed node.
    [[nodiscard]] static QColor removedColor() { return QColor(255, 70, 200); }
    /// Squares drawn per domain before "+K more".
    static constexpr int kMaxSquares = 48;
    /// Removed nodes in view above which they are drawn as texels.
    static constexpr std::size_t kMaxDrawnMarks = 2000;
    /// Boxes placed before the nearest free place is no longer searched (placeApart()).
    static constexpr std::size_t kMaxPlacedBoxes = 64;

    /// Boxes at `wanted` (widget px, in drawing order) moved so that no two overlap, each kept
    /// `gapPx` from the others: a box over an earlier one goes to the free place nearest the one
    /// it wanted, under or right of an earlier box, inside `view` when there is room; else
    /// under all of them (past the view's bottom: cut off, never over another box). Sizes stay.
    /// O(n^2 min(n, kMaxPlacedBoxes)) in the boxes shown (a box per domain with added nodes in
    /// view): past kMaxPlacedBoxes a box that overlaps goes under all. Thread: any.
    [[nodiscard]] static std::vector<QRectF> placeApart(const std::vector<QRectF>& wanted, const QRectF& view, double gapPx);

    void paint(QPainter& painter, const MapScene& scene, const MapCamera& camera) override;
    [[nodiscard]] unsigned paintDependsOn() const override { return ClusterChanged | CompareChanged; }
    [[nodiscard]] bool paintsAnything(const MapScene& scene, const MapCamera& camera) const override;

private:
    void paintRemoved(QPainter& painter, const MapScene& scene, const MapCamera& camera);
    void paintAdded(QPainter& painter, const MapScene& scene, const MapCamera& camera);

    QImage m_texels; // a texel per layout cell: the removed nodes'
    std::shared_ptr<const ComparedMarks> m_texelsSource;
};

} // namespace fleet::views
