// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fleet map as a stack of layers.
//
// Design note (STYLE.md, after 3D Slicer's displayable managers and ParaView's
// representations): FleetMapView owns the camera, the input events and an ordered stack of
// MapLayer objects; each layer turns one aspect of the shared, read-only MapScene into
// pixels (QPainter strokes into the view's cached frame, and/or VTK actors it owns), listens to the
// data (sceneChanged) and the camera (cameraChanged) and never edits the store, the
// topology, the layout or another layer. A layer that needs a new frame asks through
// MapScene::requestRender, which the view merges into one render per event-loop turn.
// Adding a layer (what-if shading, plan overlay) is one new file plus one line in
// FleetMapView::Private::buildLayers(); no other layer changes.
//
// Stack order (bottom to top), in layer order: the texel image with the filter's dimming,
// domain frames and labels, cell gaps and per-node detail, markers, the plan (drag shading,
// plan marks), the plan's added nodes, the compared state's added and removed nodes, selection,
// breadcrumb. VTK actors a layer attaches (none today) are drawn
// first, under all of them (the layers' frame is opaque: such a layer would have to make
// room in it).
//
// Design note (speed): on software OpenGL (llvmpipe) a frame costs what its
// fragments cost, about 12 ms per opaque full-view pass on 2 loaded cores and twice that
// blended, while the raster engine scales the texel image in about 2 ms. So the layers
// paint with QPainter (raster engine) into view-sized images that the view keeps while
// neither what they read in the scene (paintDependsOn()) nor the camera changed, composes
// them on the CPU into one opaque frame and draws that in one pass (LayerOverlay): a frame
// with nothing new repaints nothing, a recolor repaints the texel layer only. A layer whose
// picture depends on anything else (the pointer) says so (paintsEveryFrame()) and is painted
// over the frame every frame.
// Thread: GUI thread, but for paint() of a view that is never shown, which may run on a worker
// while the GUI thread leaves that view alone (FleetMapView::grabImageLater()): paint() keeps
// what it caches in its layer, never in a static shared with other views. VTK headers stay in
// the layers' .cpp files.

#include "model/clusterstore.h"
#include "model/ids.h"
#include "model/metrics/metric.h"
#include "model/topology.h"
#include "views/map/maplayout.h"
#include "views/map/mapmetric.h"
#include "views/nodeview/plannodeview.h"

#include <QPointF>
#include <QRectF>
#include <QSize>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

class QPainter;
class vtkRenderer;

namespace fleet::views {

struct PlanMarks; // views/map/planmarks.h
struct ComparedMarks; // views/map/comparedmarks.h

/// The map's 2D camera: world x = cell column, world y = layout height - cell row (row 0 of
/// cells at the top), `unitsPerPixel` world units (cells) per logical pixel, centred on
/// (centerX, centerY) in a viewport of `viewport` logical pixels. A value; cheap to copy.
struct MapCamera {
    double centerX = 0;
    double centerY = 0;
    double unitsPerPixel = 1;
    QSize viewport { 1, 1 };
    double layoutHeight = 0; // the layout's height in cells, to flip rows
    double devicePixelRatio = 1; // device pixels per logical pixel

    /// Logical pixels per cell (> 0).
    [[nodiscard]] double pxPerCell() const noexcept { return 1.0 / unitsPerPixel; }
    [[nodiscard]] QPointF toWorld(const QPointF& p) const noexcept
    {
        return { centerX + (p.x() - viewport.width() / 2.0) * unitsPerPixel,
            centerY - (p.y() - viewport.height() / 2.0) * unitsPerPixel };
    }
    [[nodiscard]] QPointF toWidget(const QPointF& world) const noexcept
    {
        return { viewport.width() / 2.0 + (world.x() - centerX) / unitsPerPixel,
            viewport.height() / 2.0 - (world.y() - centerY) / unitsPerPixel };
    }
    /// A position in cell coordinates (fractional column, fractional row from the top).
    [[nodiscard]] QPointF toCell(const QPointF& p) const noexcept
    {
        const QPointF w = toWorld(p);
        return { w.x(), layoutHeight - w.y() };
    }
    /// Cells [x, x + w) x [y, y + h) (row 0 at the top) on screen, in logical pixels.
    [[nodiscard]] QRectF cellsToWidget(double x, double y, double w, double h) const noexcept
    {
        return QRectF(toWidget(QPointF(x, layoutHeight - y)), toWidget(QPointF(x + w, layoutHeight - y - h)));
    }
    /// The visible cell columns and rows, clamped to [0, width) x [0, height).
    [[nodiscard]] CellRect visibleCells(int layoutWidth, int layoutHeightCells) const noexcept
    {
        const QPointF a = toCell(QPointF(0, 0));
        const QPointF b = toCell(QPointF(viewport.width(), viewport.height()));
        const int x0 = std::max(0, static_cast<int>(std::floor(a.x())));
        const int y0 = std::max(0, static_cast<int>(std::floor(a.y())));
        const int x1 = std::min(layoutWidth, static_cast<int>(std::ceil(b.x())));
        const int y1 = std::min(layoutHeightCells, static_cast<int>(std::ceil(b.y())));
        return { x0, y0, std::max(0, x1 - x0), std::max(0, y1 - y0) };
    }
};

/// Everything the layers read: the cluster, its layout, the view state the app sets. Owned
/// by FleetMapView; layers hold a const reference and never write to it.
struct MapScene {
    std::shared_ptr<const model::ClusterStore> store; // null: empty map
    std::shared_ptr<const model::Topology> topology;
    MapLayout layout;
    MetricKeys keys; // of `store`
    MapMetric metric = MapMetric::GpuRequested; // the nearest built-in of metricRef (legacy callers)
    /// The metric the map is coloured by (model::MetricRegistry), never null.
    std::shared_ptr<const model::Metric> metricRef = mapMetric(MapMetric::GpuRequested);
    /// The store with its prices, for metric values; null without a store.
    std::shared_ptr<const model::MetricContext> metricContext;
    /// metricRef's values over the store (computed once by the legend, which owns it); null
    /// without a store.
    const model::MetricColumn* column = nullptr;
    model::NodeId selected;
    /// Indexed by NodeId; 0 dims the node. Null: nothing dimmed.
    std::shared_ptr<const std::vector<std::uint8_t>> mask;
    /// Nodes with a problem other than NotReady / cordoned (setProblemNodes()).
    std::vector<model::NodeId> problemNodes;
    /// The problem marker kinds drawn: bit (1 << NodeMarkerKind) each, all three by default
    /// (FleetMapView::setShownMarkerKinds()).
    unsigned shownMarkerKinds = 0x7;
    /// The pointer's position over the GL widget, valid after a real pointer move while it
    /// is inside (never a position the pointer merely rests at when the window appears).
    bool pointerInside = false;
    QPointF pointerPos;
    /// The domain FleetMapView::frameDomain() framed (a report's zoomed map): the breadcrumb
    /// names it; invalid once the view moves.
    model::DomainId framedDomain;
    /// While a pod is dragged (what-if): one byte per node (PodFeasibility::feasibleNodes),
    /// 1 when the node could take the pod; null when nothing is dragged. The plan layer shades it.
    std::shared_ptr<const std::vector<std::uint8_t>> dragFeasible;
    /// The node the dragged pod is over (invalid: none), whether it could take it, and the
    /// domain label it is over (a workload drag's target).
    model::NodeId dragTarget;
    bool dragTargetFeasible = false;
    model::DomainId dragDomain;
    /// What the plan changed, for its outlines and marks; null: no plan.
    std::shared_ptr<const PlanMarks> planMarks;
    /// The plan's ledger, whose pods and requests the zoomed node detail and the tooltip show
    /// (nodeView()); null: the loaded state.
    std::shared_ptr<const model::PlanLedger> planState;
    /// The nodes File > Compare With found added and removed; null: no comparison shown.
    std::shared_ptr<const ComparedMarks> comparedMarks;
    /// The camera the view fits the whole map with (to tell "zoomed in").
    double fittedUnitsPerPixel = 1;
    /// Asks for one more frame (merged: one per event-loop turn).
    std::function<void()> requestRender;

    [[nodiscard]] bool hasMap() const noexcept { return store && topology && layout.width() > 0; }
    /// Nodes as shown: under the plan when planState is set (views/nodeview/plannodeview.h).
    [[nodiscard]] PlanNodeView nodeView() const noexcept { return { store.get(), planState.get() }; }
    [[nodiscard]] bool isDimmed(model::NodeId n) const noexcept
    {
        return mask && n.index() < mask->size() && (*mask)[n.index()] == 0;
    }
};

/// One layer of the fleet map. Every hook has an empty default, so a layer overrides only
/// what it uses. A layer never edits the scene or the store.
class MapLayer {
public:
    MapLayer() = default;
    MapLayer(const MapLayer&) = delete;
    MapLayer& operator=(const MapLayer&) = delete;
    virtual ~MapLayer() = default;

    /// What changed in the scene, for sceneChanged().
    enum Change : unsigned {
        ClusterChanged = 1, // store, topology or layout (also a relayout)
        MetricChanged = 2,
        SelectionChanged = 4,
        MaskChanged = 8,
        ProblemsChanged = 16,
        DragChanged = 32, // dragFeasible, dragTarget, dragDomain
        PlanChanged = 64, // planMarks, planState
        CompareChanged = 128, // comparedMarks
    };

    /// Once, when the layer joins the stack: add its VTK actors to `renderer`.
    virtual void attach(vtkRenderer* /*renderer*/) {}
    /// The scene changed (a bitwise OR of Change values): rebuild what depends on it.
    virtual void sceneChanged(const MapScene& /*scene*/, unsigned /*changes*/) {}
    /// Just before each VTK frame, with the camera it renders with: sync actors (line widths,
    /// visibility by zoom). Must be cheap: no uploads here.
    virtual void cameraChanged(const MapScene& /*scene*/, const MapCamera& /*camera*/) {}
    /// Paints the layer, in the GL widget's logical coordinates, over the layers below it:
    /// into a raster-engine QImage of the view's size that the view keeps, for a layer that
    /// does not paint every frame, else on the GL frame itself. Called again only when the
    /// scene or the camera changed (or every frame, see paintsEveryFrame()). Work only on
    /// what is on screen.
    virtual void paint(QPainter& /*painter*/, const MapScene& /*scene*/, const MapCamera& /*camera*/) {}
    /// True when paint()'s picture depends on more than the scene as sceneChanged() announces
    /// it and the camera (the pointer's position, the time): the view then paints the layer
    /// every frame, after (over) every cached layer, so such a layer belongs at the top.
    [[nodiscard]] virtual bool paintsEveryFrame() const { return false; }
    /// The Change bits after which paint() may draw something else at the same camera (the
    /// view keeps its cached overlay through other changes: a recolor repaints no label).
    /// The default, every bit, is always right; a layer narrows it to what paint() reads.
    [[nodiscard]] virtual unsigned paintDependsOn() const { return ~0u; }
    /// False when paint() would leave the view untouched at `camera` (nothing selected, no
    /// detail at this zoom): the view then neither clears nor composes the layer's image,
    /// about 1 ms each at 1920x1080. The default, true, is always right.
    [[nodiscard]] virtual bool paintsAnything(const MapScene& /*scene*/, const MapCamera& /*camera*/) const { return true; }
};

} // namespace fleet::views
