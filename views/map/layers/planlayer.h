// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer: the what-if. While a pod is dragged, every node is shaded by whether it
// could take it (MapScene::dragFeasible): a feasible node keeps its colour, an infeasible one
// is washed toward a rose grey (kInfeasibleRgb at kInfeasibleAlpha), which no metric colour
// is (viridis and the blue ramp hold no red), so the few nodes that could take a pod stand
// out at the fitted 100,000-node zoom, where a cell is about a pixel; the node under the
// pointer is ringed, green when it could take the pod, red when not. After drops, the plan's
// marks (PlanMarkKind): nodes a pod moved to or from outlined (amber), override destinations
// outlined red, emptied nodes with a white cross, drained or failed nodes with a black cross
// (not red: red is NotReady's, and a drained node is grey under the plan, where black reads
// best; the black and white crosses differ in lightness, which every colour-vision deficiency
// keeps). Where a cell is at least kInCellMarkPx across, a mark is drawn inside its cell and
// leaves most of the cell's colour visible (the plan's heat map stays readable under its
// marks); smaller cells get marks kMinMarkPx across, with a halo, while few are in view. When
// at most kMaxFeasibleMarkers nodes could take the dragged pod, each also gets a green square
// marker of MarkerLayer's size and drawing (MarkerLayer::paintMarkers), since at 100,000
// nodes a feasible cell is a single texel nobody can see; more of them, but fewer than half the
// nodes, each get a green square kFeasibleDotPx across while cells are smaller than that (the
// shading's nearest filtering drew a sub-pixel cell only where a screen pixel sampled it: the
// scattered feasible nodes of a 100,000-node fleet vanished at the fitted zoom). Written as
// device pixels into a view-sized image once per drag and camera, O(feasible nodes).
//
// Design note (speed and legibility): the marks are drawn once per plan change and camera
// into a view-sized image that every other frame reuses (a drag's pointer moves, a hover, a
// selection repaint the overlay); when more than kMaxDrawnMarks marks are in view (a
// consolidation marks some 40,000 of 100,000 nodes at the fitted zoom), each mark is written
// as device pixels inside its cell, in O(marks x cell pixels) (drawing 40,000 antialiased
// marks took half a second per frame): a cross on the cell's diagonals, an outline on its
// border once the cell is kMinOutlinePx device pixels across, a cross with a pixel of halo
// there. Below that a cell cannot hold both its colour and an outline, and the colour wins:
// the nodes pods moved to or from get one amber pixel in the middle (none in a one-pixel cell: their
// colour under the plan is what the map is for), the crosses and override outlines fill the
// cell; a cell under a device pixel gets no cross (its pixel is shared).
// Filling every marked cell with its mark's colour hid the heat map of a 100,000-node
// consolidation under amber and red.
//
// The shading is one image with a texel per layout cell (built once per
// drag in O(nodes), about 1 ms at 100,000 nodes, from the feasibility bytes), drawn each frame
// as one scaled image over the visible cells with nearest filtering (the OpenGL paint engine
// uploads it once and draws one quad); no per-node geometry. Why not in the texel image
// layer: that is one texture shared with the metric and the filter's dimming, and a drag
// would re-upload it per drag; an overlay leaves it alone.

#include "views/map/layers/maplayer.h"
#include "views/map/layers/markerlayer.h"

#include <QColor>
#include <QImage>
#include <QRgb>
#include <QString>

namespace fleet::views {

/// The kinds of plan mark, in the order drawn (a later one on top where a node has two).
enum class PlanMarkKind : std::uint8_t { Changed, Violation, Emptied, Removed };

class PlanLayer final : public MapLayer {
public:
    /// The wash over an infeasible node (opaque colour; applied at kInfeasibleAlpha).
    static constexpr QRgb kInfeasibleRgb = 0xff7d5055; // (125, 80, 85)
    static constexpr int kInfeasibleAlpha = 204; // of 255: 80% wash, 20% of the node's colour kept
    /// The smallest on-screen size of a plan mark or the drag target's ring, logical px.
    static constexpr double kMinMarkPx = 9.0;
    static constexpr double kMinTargetPx = 15.0;
    /// Cells at least this many logical px across hold their marks inside.
    static constexpr double kInCellMarkPx = 4.0;
    /// Up to this many plan marks in view are drawn as antialiased shapes; more as pixels.
    static constexpr std::size_t kMaxDrawnMarks = 2000;
    /// As pixels, an outline needs cells this many device px across (it keeps the centre's colour).
    static constexpr int kMinOutlinePx = 4;
    /// Up to this many feasible nodes are also marked while dragging (more are visible as an area).
    static constexpr std::size_t kMaxFeasibleMarkers = 256;
    /// Beyond kMaxFeasibleMarkers (and up to half the nodes), each feasible node is a green
    /// square this many logical px across while cells are smaller.
    static constexpr double kFeasibleDotPx = 4.0;

    /// The colour an infeasible node of colour `c` shows while dragging (for tests).
    [[nodiscard]] static QColor shadedColor(QColor c) noexcept;
    [[nodiscard]] static QColor changedColor() { return QColor(255, 176, 32); }
    [[nodiscard]] static QColor violationColor() { return QColor(255, 40, 40); }
    /// A drained or failed node's cross: near-black (never NotReady's red).
    [[nodiscard]] static QColor removedColor() { return QColor(12, 12, 14); }
    /// An emptied node's cross: white.
    [[nodiscard]] static QColor emptiedColor() { return QColor(250, 250, 250); }
    /// Draws one mark of `kind` inside the cell `cell` (logical px) as the map draws it on cells
    /// of at least kInCellMarkPx: the legend's key uses it, so the key cannot drift from the
    /// map. Thread: GUI thread.
    static void drawMark(QPainter& painter, PlanMarkKind kind, const QRectF& cell);
    /// What a mark of `kind` means, for the legend's key (its label wraps there): "Nodes with
    /// pods moved or placed" (the outline marks nodes, so the key's count is of nodes, not of
    /// pods; a node a pending pod is placed on has one too), "Override" (a move applied although
    /// infeasible), "Emptied", "Removed" (drained or failed).
    [[nodiscard]] static QString markMeaning(PlanMarkKind kind);
    [[nodiscard]] static QColor feasibleTargetColor() { return QColor(60, 230, 90); }
    [[nodiscard]] static QColor infeasibleTargetColor() { return QColor(255, 50, 50); }
    /// The rectangle a mark of node n is drawn on (around its cell, at least `minPx`), in GL
    /// widget logical coordinates; null when n is not laid out.
    [[nodiscard]] static QRectF markRect(const MapScene& scene, const MapCamera& camera, model::NodeId n, double minPx);

    void sceneChanged(const MapScene& scene, unsigned changes) override;
    void paint(QPainter& painter, const MapScene& scene, const MapCamera& camera) override;
    [[nodiscard]] unsigned paintDependsOn() const override { return ClusterChanged | DragChanged | PlanChanged; }
    /// Something to draw: drag shading, plan marks, a drag target or domain.
    [[nodiscard]] bool paintsAnything(const MapScene& scene, const MapCamera&) const override
    {
        return scene.hasMap()
            && ((m_shading && !m_shade.isNull()) || scene.planMarks || scene.dragTarget.isValid() || scene.dragDomain.isValid());
    }

    /// Milliseconds the last shading image took to build (from the feasibility bytes).
    [[nodiscard]] double lastShadeMs() const noexcept { return m_shadeMs; }
    /// The feasible nodes marked during the drag (empty: none, or more than kMaxFeasibleMarkers).
    [[nodiscard]] const std::vector<std::pair<model::NodeId, NodeMarkerKind>>& feasibleMarkers() const noexcept { return m_feasibleMarkers; }
    /// The feasible nodes drawn as squares of kFeasibleDotPx at small cells (empty: none, at most
    /// kMaxFeasibleMarkers, or half the nodes or more).
    [[nodiscard]] const std::vector<model::NodeId>& feasibleDots() const noexcept { return m_feasibleDots; }

private:
    void paintMarks(QPainter& painter, const MapScene& scene, const MapCamera& camera);
    void paintMarkShapes(QPainter& painter, const MapScene& scene, const MapCamera& camera);
    static void paintMarkPixels(QImage& image, const MapScene& scene, const MapCamera& camera);
    void paintDragTarget(QPainter& painter, const MapScene& scene, const MapCamera& camera);
    /// The marks whose cells are in view, counted up to `limit` + 1.
    [[nodiscard]] static std::size_t visibleMarks(const MapScene& scene, const MapCamera& camera, std::size_t limit);
    QImage m_marksImage; // view-sized: the marks as last drawn
    std::shared_ptr<const PlanMarks> m_marksSource; // drawn into it (held: a new one never reuses its address)
    MapCamera m_marksCamera;
    QImage m_shade; // layout-sized, premultiplied; transparent where feasible or no node
    bool m_shading = false;
    const void* m_shadeSource = nullptr; // the bytes the image was built from
    double m_shadeMs = 0;
    std::vector<std::pair<model::NodeId, NodeMarkerKind>> m_feasibleMarkers;
    void paintFeasibleDots(QPainter& painter, const MapScene& scene, const MapCamera& camera);
    std::vector<model::NodeId> m_feasibleDots;
    QImage m_dotsImage; // view-sized: m_feasibleDots as last drawn
    MapCamera m_dotsCamera;
    bool m_dotsDrawn = false; // m_dotsImage holds the current drag's dots at m_dotsCamera
};

} // namespace fleet::views
