// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fleet map: every node a cell, laid out as nested blocks of the topology tree,
// coloured by a metric, in an embedded OpenGL window that hosts VTK (VtkOpenGLWidget), with
// a legend beside it.
//
// Design note (DESIGN.md, "Views"): at a distance the map is one image with a texel per
// node cell, computed on the CPU from the store's columns (MapRaster), scaled to the view
// with nearest filtering; no per-node geometry. The map is a stack of layers
// (layers/maplayer.h) painted by Qt's raster engine into one frame that is cached while the
// scene and the camera stay and drawn in one opaque OpenGL pass (layers/layeroverlay.h):
// on software OpenGL each full-view pass costs more than the raster engine's whole frame.
// Picking (hover, click, nodeAt(), cellCenter()) is arithmetic on the layout (MapLayout),
// O(1) on a cell, a scan of the few cells within 2 px on a gutter, no VTK picker.
// Domain labels are painted only in the empty rows MapLayout reserves above each block, at
// the size those rows have on screen at the current zoom: a label never covers a cell. The
// layout's label rows for regions and zones are sized so their labels fit at the default zoom.
// VTK headers stay in the .cpp files.

#include "model/ids.h"
#include "views/map/mapmetric.h"

#include <QImage>
#include <QMetaType>
#include <QPoint>
#include <QRect>
#include <QRectF>
#include <QWidget>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace fleet::model {
class ClusterStore;
class PlanLedger;
class Topology;
} // namespace fleet::model

namespace fleet::views {

struct PlanMarks;
struct ComparedMarks;

// MapMetric (GpuRequested, CpuRequested, MemoryRequested) is declared in mapmetric.h.

/// The map widget (a VTK-driven VtkOpenGLWidget plus its legend, a Qt widget at its right).
/// Input: the wheel zooms around the cursor, a left drag pans, a left click on a cell
/// emits nodeActivated (a gutter pixel within 2 px of a cell picks that cell: nodeAt()),
/// hovering shows a tooltip with the node's figures and its whole
/// domain path (nodeToolTip()) and emits nodeHovered. The legend's title follows the
/// fleet (mapMetricTitle(): "CPU requested (no GPU nodes)" where no node has GPUs). Render requests are merged: one frame per
/// event-loop turn. Colours: colormap.h (viridis share; red NotReady, pink cordoned, grey no allocatable). Thread: GUI thread
/// only. Needs a real OpenGL surface (an X server; see DESIGN.md); set
/// QSurfaceFormat::setDefaultFormat(VtkOpenGLWidget::vtkSurfaceFormat()) before QApplication.
class FleetMapView : public QWidget {
    Q_OBJECT
public:
    explicit FleetMapView(QWidget* parent = nullptr);
    ~FleetMapView() override;

    /// Shows the cluster; both pointers are kept (shared ownership). Lays out and rasterises.
    /// Passing null pointers clears the map. The topology must have been built over `store`.
    void setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology);
    /// Recolours the map by `metric` (rasterises again, about 1 ms at 100,000 nodes).
    void setMetric(MapMetric metric);
    /// Recolours the map by `metric`, any metric of model::MetricRegistry (null: ignored).
    void setMetric(std::shared_ptr<const model::Metric> metric);
    /// The metric the map is coloured by, when it is gpu, cpu or memory; else GpuRequested.
    [[nodiscard]] MapMetric metric() const;
    /// The metric the map is coloured by ("gpu" until setMetric()).
    [[nodiscard]] const model::Metric& currentMetric() const;
    /// Prices for the cost metrics (null: none, every price unknown); recolours.
    void setPrices(std::shared_ptr<const model::PriceTable> prices);
    /// Renders now and returns the whole view (map + legend) as an image of size() times
    /// devicePixelRatioF() device pixels (the ratio is set on the image). Works on a view
    /// that was never shown too (it lays itself out first): its layers paint with the raster
    /// engine then, without OpenGL, at setHiddenDevicePixelRatio()'s ratio where one is set;
    /// a shown view renders its OpenGL frame.
    QImage grabImage();
    /// The device pixels per logical pixel grabImage() draws a view that is not shown at
    /// (the layers' marks, the cells' sizes in device pixels, the legend), whatever the
    /// screen's ratio: a report's print resolution in a window on a 96 dpi screen. 0 (the
    /// default): the screen's, devicePixelRatioF(). A shown view keeps the screen's.
    void setHiddenDevicePixelRatio(qreal ratio);
    /// grabImage() in two parts, so that a view never shown is painted off the GUI thread: lays
    /// out and renders the legend now (GUI thread), and returns the function that paints the
    /// layers (the part that grows with the fleet and the ratio) and gives the image. Run the
    /// function once, on any thread, while nothing touches the view (no setter, no event, not
    /// destroyed) until it returned. A shown view is grabbed now (the function returns it).
    [[nodiscard]] std::function<QImage()> grabImageLater();
    /// What grabImage() does first on a view that was never shown: sizes the map and the legend
    /// and lays the fleet out for that size (O(nodes)), without rendering; a caller that draws in
    /// slices of the event loop runs it in a slice of its own. Thread: GUI thread.
    void layOutHidden();
    /// Centre of node n's cell in this widget's coordinates (for tests and tooltips);
    /// a null QPoint when n is not visible.
    [[nodiscard]] QPoint cellCenter(model::NodeId n) const;
    /// Node n's cell in this widget's coordinates (logical px) at the current zoom and pan,
    /// also when off screen; a null rectangle when n is not laid out.
    [[nodiscard]] QRectF cellRect(model::NodeId n) const;
    /// The node under a widget position, as hover and click pick it: the node whose cell
    /// holds pos, else, on a gutter, the nearest cell within 2 logical px (ties: the first
    /// in row-major order), else an invalid id. O(1) on a cell; on a gutter O(r^2) for r
    /// cells in 2 px (r <= 16). Arithmetic on the layout, no VTK picker.
    [[nodiscard]] model::NodeId nodeAt(const QPoint& pos) const;
    /// The node whose cell holds a widget position exactly (no gutter tolerance), or an
    /// invalid id. For tests: "does this pixel show a cell".
    [[nodiscard]] model::NodeId cellNodeAt(const QPoint& pos) const;
    /// The node a plan added (AddNode) whose square the map draws at `pos` (this widget's
    /// coordinates; views/map/layers/addednodelayer.h), as last rendered; invalid when none.
    /// Such ids (>= the store's node count) are the plan's: a click on the square selects it
    /// (selectionChanged, nodeActivated), a pod dropped there is dropped on it (podDropped), a
    /// context menu there is about it; hover (nodeHovered) reports store nodes only.
    [[nodiscard]] model::NodeId addedNodeAt(const QPoint& pos) const;
    /// The tooltip the map shows over added node n's square ("" when n is not one).
    [[nodiscard]] QString addedNodeToolTip(model::NodeId n) const;
    /// Resets zoom and pan so the whole fleet fits.
    void resetView();
    /// Where the label of `domain` is drawn at the current zoom and pan, in this widget's
    /// coordinates; a null rectangle when it is not drawn (too small on screen for its
    /// name, off screen, or the root). Labels sit in the empty rows the layout reserves
    /// above each block (MapLayout::labelGapRows()), so they never cover a cell; deeper
    /// levels' labels appear as zooming in makes room. Every node's tooltip names its whole
    /// domain path, so a domain too small for its label is still named. For tests.
    [[nodiscard]] QRect domainLabelRect(model::DomainId domain) const;

    // ---- exploring (the map's layers draw these) ---------------------------
    /// Selects node n (an invalid id clears it): the selection layer outlines its cell at
    /// every zoom (AddedNodeLayer its square, for a node the plan added: valid while the plan
    /// state set by setPlanState() has it; a plan without it clears the selection). Emits
    /// selectionChanged when it changes.
    void setSelectedNode(model::NodeId n);
    [[nodiscard]] model::NodeId selectedNode() const;
    /// Dims every node whose byte in `mask` is 0 (indexed by NodeId, size = nodes of the
    /// store); a null mask dims nothing. Used by the label-selector filter and the
    /// workload / namespace highlight. The mask is shared, never copied or edited.
    void setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask);
    /// Nodes drawn with a problem marker of a minimum on-screen size at every zoom (the
    /// app feeds model::findNodeProblems()); NotReady and cordoned nodes are marked too.
    void setProblemNodes(std::vector<model::NodeId> nodes);
    /// Which problem marker kinds are drawn (and counted in the legend's key): bit
    /// (1 << NodeMarkerKind) each, kAllMarkerKinds by default, 0 none (the metric's colours
    /// alone). The markers of nodes the mask dims are drawn faded.
    void setShownMarkerKinds(unsigned kinds);
    [[nodiscard]] unsigned shownMarkerKinds() const;
    static constexpr unsigned kAllMarkerKinds = 0x7;
    /// Zooms and pans so that node n fills a comfortable part of the view (its GPUs, pods
    /// and name drawn), or domain d fits, or the selection does. No-op for invalid ids.
    void zoomToNode(model::NodeId n);
    void zoomToDomain(model::DomainId d);
    void zoomToSelection();
    /// Frames domain d for a picture of it (a report's zoomed maps): the bounding box of its
    /// nodes' cells whole and centred in the part of the view under the breadcrumb strip,
    /// with a cell of room around, and the breadcrumb names d (until the view moves). The
    /// window's zoomToDomain() also shows d's label band above it. No-op for invalid ids; the
    /// root resets the view. O(nodes of d).
    void frameDomain(model::DomainId d);
    /// The domain path at the centre of the view (or under the pointer while it is over
    /// the map), outermost first: "us-east-1 > us-east-1a > nn-1a2b"; "" when zoomed out
    /// to the whole fleet.
    [[nodiscard]] QString breadcrumbText() const;

    // ---- what-if (views/map/layers/planlayer.h draws these) ------------------
    /// While a pod is dragged: one byte per node (store nodes, then the plan's added nodes), 1
    /// when it could take the pod (PodFeasibility::feasibleNodes); infeasible nodes are shaded
    /// (added nodes' squares too), and the legend's key names the drag's mark. Null ends both.
    void setDragShading(std::shared_ptr<const std::vector<std::uint8_t>> feasible);
    /// The drag's target: the node under the pointer (ringed green or red by `feasible`) and
    /// the domain label under it (a workload's target).
    void setDragTarget(model::NodeId node, bool feasible, model::DomainId domain = {});
    /// The plan's outlines and marks (null: none).
    void setPlanMarks(std::shared_ptr<const PlanMarks> marks);
    /// The nodes a comparison found added and removed (views/map/layers/comparednodelayer.h;
    /// null: none).
    void setComparedMarks(std::shared_ptr<const ComparedMarks> marks);
    /// The plan's ledger (null: the loaded state): the zoomed node detail (GPU tiles, pod
    /// strips, pod picking) and the node tooltip show nodes under it, so that a pod the plan
    /// moved is on its new node and a drained or failed node is empty. Kept (shared) until
    /// replaced; repaints.
    void setPlanState(std::shared_ptr<const model::PlanLedger> state);
    /// Computes the metric's values again (a plan-aware metric whose plan changed) and
    /// recolours; `metric`, when given, replaces the current one even when its id is the same.
    void refreshMetric(std::shared_ptr<const model::Metric> metric = {});
    /// The pod whose strip is drawn at a widget position (zoomed in: NodeDetailLayer), or an
    /// invalid id.
    [[nodiscard]] model::PodId podAt(const QPoint& pos) const;
    /// The domain whose label is drawn at a widget position, or an invalid id.
    [[nodiscard]] model::DomainId domainLabelAt(const QPoint& pos) const;
    /// True from podDragStarted until podDropped or podDragCancelled.
    [[nodiscard]] bool isDraggingPod() const;
    /// Milliseconds the plan layer took to build the last drag's shading image.
    [[nodiscard]] double lastShadeMs() const;

    struct Private;

signals:
    /// The node under the pointer changed: on pointer moves, and when the map moves under a
    /// resting pointer (setCluster, which always emits, zoom, pan, resize, resetView) or it
    /// leaves; an invalid id when no cell is under it. The tooltip is hidden on those
    /// changes and shown again on the next pointer move.
    void nodeHovered(fleet::model::NodeId node);
    void nodeActivated(fleet::model::NodeId node); // click
    void frameRendered(); // after each VTK frame reached the screen
    void selectionChanged(fleet::model::NodeId node);
    /// A domain label was clicked (a double-click also zooms to it).
    void domainActivated(fleet::model::DomainId domain);

    /// A pod drag began: a press on a pod strip of the zoomed map moved past the click slop,
    /// or a drag with PodMime data (the node inspector's pod table) entered the map.
    /// `modifiers` at its start (Alt: the pod's whole workload).
    void podDragStarted(fleet::model::PodId pod, Qt::KeyboardModifiers modifiers);
    /// The dragged pod is over `node` (invalid: none) and the domain label `label` (invalid: none).
    void podDragMoved(fleet::model::NodeId node, fleet::model::DomainId label, const QPoint& globalPos,
        Qt::KeyboardModifiers modifiers);
    /// The pod was released over `node` / `label` (either may be invalid). Ends the drag.
    void podDropped(fleet::model::NodeId node, fleet::model::DomainId label, const QPoint& globalPos,
        Qt::KeyboardModifiers modifiers);
    /// The drag left the map or Escape was pressed. Ends the drag.
    void podDragCancelled();
    /// A context menu was asked for over `node` and/or the domain label `label`.
    void contextMenuRequested(fleet::model::NodeId node, fleet::model::DomainId label, const QPoint& globalPos);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::unique_ptr<Private> d;
};

} // namespace fleet::views

Q_DECLARE_METATYPE(fleet::model::NodeId)
Q_DECLARE_METATYPE(fleet::model::DomainId)
Q_DECLARE_METATYPE(fleet::model::PodId)
