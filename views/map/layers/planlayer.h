// SPDX-License-Identifier: Apache-2.0
#pragma once
// Layer: the what-if. While a pod is dragged, every node is shaded by whether it
// could take it (MapScene::dragFeasible): a feasible node keeps its colour, an infeasible one
// is washed toward a rose grey (kInfeasibleRgb at kInfeasibleAlpha), which no metric colour
// is (viridis and the blue ramp hold no red), so the few nodes that could take a pod stand
// out at the fitted 100,000-node zoom, where a cell is about a pixel; the node under the
// pointer is ringed, green when it could take the pod, red when not. After drops, the plan:
// changed nodes outlined (amber), override destinations outlined red, emptied nodes with a
// white cross, drained or failed nodes darkened with a red cross; each mark at least
// kMinMarkPx across on screen at every zoom. When at most kMaxFeasibleMarkers nodes could take
// the dragged pod, each also gets a green square marker of MarkerLayer's size and drawing
// (MarkerLayer::paintMarkers), since at 100,000 nodes a feasible cell is a single texel
// nobody can see.
//
// Design note (speed): the marks are drawn once per plan change and camera into a view-sized
// image that every other frame reuses (a drag's pointer moves, a hover, a selection repaint
// the overlay); when more than kMaxDrawnMarks marks are in view (a consolidation marks some
// 40,000 of 100,000 nodes at the fitted zoom, where the 9 px marks of neighbouring one-pixel
// cells cover each other), each marked cell is one texel of a layout-sized image drawn as one
// scaled image, in O(marks): drawing each mark took half a second per frame there.
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

namespace fleet::views {

class PlanLayer final : public MapLayer {
public:
    /// The wash over an infeasible node (opaque colour; applied at kInfeasibleAlpha).
    static constexpr QRgb kInfeasibleRgb = 0xff7d5055; // (125, 80, 85)
    static constexpr int kInfeasibleAlpha = 204; // of 255: 80% wash, 20% of the node's colour kept
    /// The smallest on-screen size of a plan mark or the drag target's ring, logical px.
    static constexpr double kMinMarkPx = 9.0;
    static constexpr double kMinTargetPx = 15.0;
    /// Up to this many plan marks in view are drawn as outlines and crosses; more as texels.
    static constexpr std::size_t kMaxDrawnMarks = 2000;
    /// A removed node's texel when marks are texels (the darkened cell of its cross).
    [[nodiscard]] static QColor removedTexelColor() { return QColor(200, 40, 48); }
    /// Up to this many feasible nodes are also marked while dragging (more are visible as an area).
    static constexpr std::size_t kMaxFeasibleMarkers = 256;

    /// The colour an infeasible node of colour `c` shows while dragging (for tests).
    [[nodiscard]] static QColor shadedColor(QColor c) noexcept;
    [[nodiscard]] static QColor changedColor() { return QColor(255, 176, 32); }
    [[nodiscard]] static QColor violationColor() { return QColor(255, 40, 40); }
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

private:
    void paintMarks(QPainter& painter, const MapScene& scene, const MapCamera& camera);
    void paintMarkShapes(QPainter& painter, const MapScene& scene, const MapCamera& camera);
    void paintMarkTexels(QPainter& painter, const MapScene& scene, const MapCamera& camera);
    void paintDragTarget(QPainter& painter, const MapScene& scene, const MapCamera& camera);
    void buildMarkTexels(const MapScene& scene);
    /// The marks whose cells are in view, counted up to `limit` + 1.
    [[nodiscard]] static std::size_t visibleMarks(const MapScene& scene, const MapCamera& camera, std::size_t limit);
    QImage m_marksImage; // view-sized: the marks as last drawn
    std::shared_ptr<const PlanMarks> m_marksSource; // drawn into it (held: a new one never reuses its address)
    MapCamera m_marksCamera;
    QImage m_markTexels; // layout-sized: a texel per marked cell
    std::shared_ptr<const PlanMarks> m_texelsSource;
    QImage m_shade; // layout-sized, premultiplied; transparent where feasible or no node
    bool m_shading = false;
    const void* m_shadeSource = nullptr; // the bytes the image was built from
    double m_shadeMs = 0;
    std::vector<std::pair<model::NodeId, NodeMarkerKind>> m_feasibleMarkers;
};

} // namespace fleet::views
