// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer: the nodes a plan added (AddNode). They are not in the store, so the layout has
// no cell for them; this layer draws them where a user looks for them: a small box near the
// rectangle of the domain each was added in, titled "Added by the plan (N)", placed where it
// covers no cells when the view has room for it (under, above, right or left of the whole
// layout; the domain's own neighbours otherwise disappeared under it), else where it covers
// the fewest, kept inside the view. A click on its title folds the boxes to their title lines
// (and back), so no cell stays hidden under one. One square per added node of a fixed
// on-screen size (kSquarePx at every
// zoom), dashed teal, filled from the bottom by its requested share under the plan (GPU on GPU
// nodes, else the larger of CPU and memory). At most kMaxSquares squares per domain are drawn,
// then "+K more". A hover over a square shows the added node's tooltip (toolTip()): the view
// asks nodeAt() with the geometry of the last paint, so what is picked is what is on screen;
// a click there selects the node (ringed in the selection's cyan), a pod dropped there is
// dropped on it, and while a pod is dragged a square that cannot take it is washed like an
// infeasible cell (PlanLayer's colours; the drag's target ringed green or red). nodeHovered
// stays about store nodes.

#include "views/map/layers/maplayer.h"

#include <QColor>
#include <QRectF>
#include <QString>

#include <utility>
#include <vector>

namespace fleet::views {

class AddedNodeLayer final : public MapLayer {
public:
    /// Side of an added node's square, logical px.
    static constexpr int kSquarePx = 12;
    /// Squares drawn per domain before "+K more".
    static constexpr int kMaxSquares = 48;
    /// The squares' outline colour (teal: in no share colour map, no marker, no plan mark).
    [[nodiscard]] static QColor addedColor() { return QColor(0, 170, 160); }

    /// Forgets the last paint's squares when the plan or cluster changes to one without added
    /// nodes (the view then skips paint(), which would otherwise clear them).
    void sceneChanged(const MapScene& scene, unsigned changes) override;
    void paint(QPainter& painter, const MapScene& scene, const MapCamera& camera) override;
    [[nodiscard]] unsigned paintDependsOn() const override { return ClusterChanged | PlanChanged | SelectionChanged | DragChanged; }
    [[nodiscard]] bool paintsAnything(const MapScene& scene, const MapCamera&) const override;

    /// The added node whose square holds `glPos` (GL widget logical px) as last painted;
    /// invalid when none.
    [[nodiscard]] model::NodeId nodeAt(const QPointF& glPos) const;
    /// The squares of the last paint, for tests: node and its square (GL widget logical px).
    [[nodiscard]] const std::vector<std::pair<model::NodeId, QRectF>>& squares() const noexcept { return m_squares; }
    /// Whether `glPos` is on a box's title line as last painted (GL widget logical px).
    [[nodiscard]] bool titleAt(const QPointF& glPos) const;
    /// Folds the boxes to their title lines, or unfolds them (a click on a title: titleAt()).
    void setFolded(bool folded) noexcept { m_folded = folded; }
    [[nodiscard]] bool isFolded() const noexcept { return m_folded; }
    /// Rich text for an added node n (PlanLedger id >= store nodes): its name, "added by the
    /// plan like TEMPLATE", domain, instance type, CPU, memory and GPUs requested / allocatable
    /// and its pods under the plan. Empty when n is not an added node of the scene's plan.
    [[nodiscard]] static QString toolTip(const MapScene& scene, model::NodeId n);

private:
    std::vector<std::pair<model::NodeId, QRectF>> m_squares;
    std::vector<QRectF> m_titles; // the title line of each box, as last painted
    bool m_folded = false;
};

} // namespace fleet::views
