#include "fleetmapview.h"

#include "model/clusterstore.h"
#include "model/metrics/pricetable.h"
#include "model/topology.h"
#include "views/map/colormap.h"
#include "views/map/layers/breadcrumblayer.h"
#include "views/map/layers/domainframelayer.h"
#include "views/map/layers/layeroverlay.h"
#include "views/map/layers/markerlayer.h"
#include "views/map/layers/nodedetaillayer.h"
#include "views/map/layers/addednodelayer.h"
#include "views/map/layers/planlayer.h"
#include "views/map/layers/selectionlayer.h"
#include "views/map/layers/texelimagelayer.h"
#include "views/map/maplayout.h"
#include "views/map/maplegend.h"
#include "views/map/nodetooltip.h"
#include "views/map/planmarks.h"
#include "views/map/podstrips.h"
#include "views/itemmodels/podmime.h"
#include "views/vtk/vtkopenglwidget.h"

#include <QContextMenuEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QMimeData>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLoggingCategory>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>

Q_LOGGING_CATEGORY(lcFleetMap, "fleet.views.map", QtInfoMsg)
// Per-layer paint times, for tuning (QT_LOGGING_RULES="fleet.views.map.paint.debug=true").
Q_LOGGING_CATEGORY(lcFleetMapPaint, "fleet.views.map.paint", QtInfoMsg)

namespace fleet::views {

using model::DomainId;
using model::NodeId;

namespace {

// Cells per node of the simulated fleets' layouts (gutters and bands), a first guess to size
// the label rows before the layout exists (see relayout()).
constexpr double kCellsPerNodeGuess = 4.0;
// The fitted map leaves this factor of room around the grid.
constexpr double kFitMargin = 1.02;
// Zoom limits: a cell at most 256 px wide; the whole map at least a quarter of the view.
constexpr double kMinUnitsPerPixel = 1.0 / 256.0;
// A press and release closer than this (logical px) is a click, not a drag.
constexpr double kClickSlopPx = 4.0;
// Hover and click on a gutter pick the nearest cell within this distance (logical px): at the
// fitted zoom on 100,000 nodes a cell is about 1 px and most pixels are gutters (user trial).
constexpr double kPickSlopPx = 2.0;
// The gutter search looks at most this many cells either side (zoomed far out).
constexpr int kMaxPickSlopCells = 16;
// Relayout when the view's aspect moves this far (factor) from the layout's: the fitted map
// must fill the view (user trial: 25% of a 1900-px window stayed empty after a resize).
constexpr double kRelayoutAspectFactor = 1.04;
// Relayout when the view's area moves this far (factor) from the layout's: the label rows
// are sized in screen pixels.
constexpr double kRelayoutAreaFactor = 2.0;
// zoomToNode(): the node's cell this many logical px wide (GPUs, pods and name drawn),
// at most a third of the view's smaller side.
constexpr double kZoomToNodePx = 160.0;
// Keyboard: one +/- step zooms by this factor; an arrow pans this share of the view.
constexpr double kKeyZoomFactor = 1.5;
constexpr double kKeyPanShare = 0.2;

void setRgb(double out[3], const QColor& c)
{
    out[0] = c.redF();
    out[1] = c.greenF();
    out[2] = c.blueF();
}

} // namespace

struct FleetMapView::Private {
    FleetMapView* q = nullptr;
    VtkOpenGLWidget* gl = nullptr;
    MapLegend* legend = nullptr;

    MapScene scene;
    QSize layoutViewSize; // the GL widget's size when the layout was built
    std::shared_ptr<const model::PriceTable> prices; // for the cost metrics; null: none

    /// A new MetricContext for the store and prices, handed to the legend, which computes
    /// the metric's column that the texel layer draws.
    void updateMetricContext();

    // The stack, bottom to top (see maplayer.h). The typed pointers are views into it for
    // the few queries the view answers from a layer (label hit test, marker list).
    std::vector<std::unique_ptr<MapLayer>> layers;
    LayerOverlay overlay; // the layers' pictures, cached while scene and camera stay
    DomainFrameLayer* frames = nullptr;
    BreadcrumbLayer* breadcrumb = nullptr;
    MarkerLayer* markers = nullptr;
    PlanLayer* plan = nullptr;
    AddedNodeLayer* addedNodes = nullptr;

    // Camera: world coordinates of the view centre and world units (cells) per logical pixel.
    double centerX = 0, centerY = 0, unitsPerPixel = 1;
    bool userMovedView = false;

    // Interaction.
    bool pressed = false;
    bool dragging = false;
    QPointF pressPos, lastPos;
    DomainId pressLabel;
    NodeId hovered;
    // What-if: a press on a pod strip drags the pod instead of panning (podDrag), as does a
    // drag with pod mime data from another widget (external).
    model::PodId pressPod;
    bool podDrag = false;
    bool externalDrag = false;
    [[nodiscard]] model::PodId podAtGl(const QPointF& glPos) const;
    void emitDragMove(const QPointF& glPos, const QPoint& globalPos, Qt::KeyboardModifiers modifiers)
    {
        emit q->podDragMoved(targetAtGl(glPos), frames->labelAt(glPos), globalPos, modifiers);
    }
    /// What a click, a drop or a context menu at glPos is about: the added node whose square is
    /// there (AddedNodeLayer, drawn above the cells), else the node nodeAtGl() picks.
    [[nodiscard]] NodeId targetAtGl(const QPointF& glPos) const
    {
        const NodeId added = addedNodes->nodeAt(glPos);
        return added.isValid() ? added : nodeAtGl(glPos);
    }
    void endPodDrag()
    {
        podDrag = externalDrag = false;
        pressPod = {};
        gl->unsetCursor();
    }

    template <class Layer>
    Layer* addLayer()
    {
        auto layer = std::make_unique<Layer>();
        Layer* raw = layer.get();
        layer->attach(gl->renderer());
        layers.push_back(std::move(layer));
        return raw;
    }
    void buildLayers();
    void notify(unsigned changes)
    {
        for (auto& layer : layers)
            layer->sceneChanged(scene, changes);
        overlay.sceneChanged(changes, layers, scene);
        if (changes & (MapLayer::ClusterChanged | MapLayer::ProblemsChanged))
            updateMarkerKey();
        requestRender();
    }
    /// The legend's marker key counts what the marker layer draws.
    void updateMarkerKey()
    {
        std::size_t byKind[3] = { 0, 0, 0 };
        for (const auto& marker : markers->markers())
            ++byKind[static_cast<int>(marker.second)];
        legend->setMarkerCounts(byKind[static_cast<int>(NodeMarkerKind::NotReady)],
            byKind[static_cast<int>(NodeMarkerKind::Cordoned)], byKind[static_cast<int>(NodeMarkerKind::Problem)]);
    }
    void relayout();
    void fitView();
    void requestRender()
    {
        gl->requestRender();
    }
    [[nodiscard]] MapCamera camera() const
    {
        MapCamera c;
        c.centerX = centerX;
        c.centerY = centerY;
        c.unitsPerPixel = unitsPerPixel;
        c.viewport = QSize(std::max(1, gl->width()), std::max(1, gl->height()));
        c.layoutHeight = scene.layout.height();
        c.devicePixelRatio = gl->devicePixelRatioF();
        return c;
    }
    void paintLayers(QPainter& painter)
    {
        const MapCamera c = camera();
        if (!lcFleetMapPaint().isDebugEnabled()) {
            overlay.paint(painter, layers, scene, c, mapBackgroundColor());
            return;
        }
        QString times;
        overlay.paint(painter, layers, scene, c, mapBackgroundColor(), &times);
        qCDebug(lcFleetMapPaint).noquote() << "layer paint ms:" << times;
    }
    [[nodiscard]] double fitUnitsPerPixel(const MapLayout& l) const
    {
        if (l.width() == 0)
            return 1.0;
        return std::max(l.width() / double(std::max(1, gl->width())), l.height() / double(std::max(1, gl->height())))
            * kFitMargin;
    }
    void applyCamera();
    [[nodiscard]] double viewAspect() const
    {
        return gl->width() > 16 && gl->height() > 16 ? static_cast<double>(gl->width()) / gl->height() : 1.6;
    }
    [[nodiscard]] QPointF toWorld(const QPointF& glPos) const { return camera().toWorld(glPos); }
    /// A GL widget position in cell coordinates (column, row from the top); the hot path of
    /// picking, so without building a whole MapCamera (devicePixelRatioF() is not free).
    [[nodiscard]] QPointF toCell(const QPointF& glPos) const
    {
        return { centerX + (glPos.x() - gl->width() / 2.0) * unitsPerPixel,
            scene.layout.height() - (centerY - (glPos.y() - gl->height() / 2.0) * unitsPerPixel) };
    }
    [[nodiscard]] QPointF toWidget(const QPointF& world) const { return camera().toWidget(world); }
    /// Node whose cell holds a position in the GL widget's coordinates, or an invalid id.
    [[nodiscard]] NodeId cellNodeAtGl(const QPointF& glPos) const
    {
        if (!scene.hasMap())
            return {};
        const QPointF c = toCell(glPos);
        const double cx = std::floor(c.x());
        const double cy = std::floor(c.y());
        if (cx < 0 || cy < 0 || cx >= scene.layout.width() || cy >= scene.layout.height())
            return {};
        return scene.layout.nodeAt(static_cast<int>(cx), static_cast<int>(cy));
    }
    [[nodiscard]] NodeId nodeAtGl(const QPointF& glPos) const;
    void refreshHover(bool newCluster);
    void showToolTip(NodeId n, const QPointF& glPos, const QPoint& globalPos);
    bool handleEvent(QEvent* event);
    bool handleKey(QKeyEvent* event);
    void zoomBy(double factor, const QPointF& anchorGl);
    void zoomToCells(double x, double y, double w, double h, double marginFactor);
    void cameraMoved()
    {
        userMovedView = true;
        refreshHover(false);
        requestRender();
    }
};

FleetMapView::FleetMapView(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
{
    qRegisterMetaType<fleet::model::NodeId>();
    qRegisterMetaType<fleet::model::DomainId>();
    qRegisterMetaType<fleet::model::PodId>();
    d->q = this;
    d->gl = new VtkOpenGLWidget(this);
    d->gl->setMouseTracking(true);
    d->gl->setAcceptDrops(true); // pods dragged from the node inspector (what-if)
    // Keyboard navigation: the GL widget takes focus on click, wheel and tab, and the view
    // forwards its own focus there, so setFocus() on the view (or a dialog closing and Qt
    // restoring the focus) reaches the map's key handling.
    d->gl->setFocusPolicy(Qt::WheelFocus);
    setFocusProxy(d->gl);
    setFocusPolicy(Qt::WheelFocus);
    d->gl->installEventFilter(this);
    d->legend = new MapLegend(this);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(d->gl, 1);
    layout->addWidget(d->legend, 0);
    // A layer asking for a frame has a new picture: the cached overlay is stale.
    d->scene.requestRender = [p = d.get()] {
        p->overlay.invalidate();
        p->requestRender();
    };
    d->buildLayers();
    connect(d->gl, &VtkOpenGLWidget::aboutToRender, this, [this] { d->applyCamera(); });
    // The layers' 2D part is painted in the GL widget's own frame, after VTK.
    connect(d->gl, &VtkOpenGLWidget::paintOverlay, this, [this](QPainter& painter) { d->paintLayers(painter); });
    connect(d->gl, &VtkOpenGLWidget::frameRendered, this, &FleetMapView::frameRendered);
}

FleetMapView::~FleetMapView() = default;

void FleetMapView::Private::buildLayers()
{
    vtkRenderer* renderer = gl->renderer();
    double bg[3];
    setRgb(bg, mapBackgroundColor());
    renderer->SetBackground(bg);
    renderer->SetBackgroundAlpha(1.0); // opaque: Qt composes the widget's alpha
    // The layers' frame image (LayerOverlay) covers the whole view, opaque: VTK's clear of
    // colour and depth would be a full-view pass of software OpenGL for nothing.
    renderer->SetPreserveColorBuffer(1);
    renderer->SetPreserveDepthBuffer(1);
    renderer->GetActiveCamera()->ParallelProjectionOn();

    // The stack, bottom to top. A new layer is one more line here.
    addLayer<TexelImageLayer>();
    frames = addLayer<DomainFrameLayer>();
    frames->setBaseFont(q->font());
    addLayer<NodeDetailLayer>(); // inside cells; the labels sit in gutters, so order is free
    markers = addLayer<MarkerLayer>();
    plan = addLayer<PlanLayer>();
    addedNodes = addLayer<AddedNodeLayer>(); // beside domains, over cells: above the plan's marks
    addLayer<SelectionLayer>();
    breadcrumb = addLayer<BreadcrumbLayer>();
    breadcrumb->setBaseFont(q->font());
}

void FleetMapView::setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology)
{
    if (!store || !topology) {
        store.reset();
        topology.reset();
    }
    d->scene.store = std::move(store);
    d->scene.topology = std::move(topology);
    d->scene.keys = d->scene.store ? MetricKeys::find(*d->scene.store) : MetricKeys {};
    d->scene.selected = {};
    d->scene.mask.reset();
    d->scene.problemNodes.clear();
    d->scene.dragFeasible.reset();
    d->scene.dragTarget = {};
    d->scene.dragDomain = {};
    d->scene.planMarks.reset();
    d->scene.planState.reset();
    d->endPodDrag();
    d->userMovedView = false;
    d->updateMetricContext();
    d->relayout();
    d->fitView();
    d->refreshHover(true);
    d->requestRender();
}

NodeId FleetMapView::Private::nodeAtGl(const QPointF& glPos) const
{
    const NodeId exact = cellNodeAtGl(glPos);
    if (exact.isValid() || !scene.hasMap())
        return exact;
    // On a gutter: the nearest cell within kPickSlopPx screen pixels (distance from the
    // position to the cell's square), scanning the few cells that can be that close;
    // ties go to the first in row-major order. Still arithmetic on the layout.
    const MapLayout& layout = scene.layout;
    const double reach = kPickSlopPx * unitsPerPixel; // in cells
    const QPointF c = toCell(glPos);
    const double gx = c.x();
    const double gy = c.y();
    const int span = std::min(kMaxPickSlopCells, static_cast<int>(std::ceil(reach)));
    const int x0 = std::max(0, static_cast<int>(std::floor(gx)) - span);
    const int x1 = std::min(layout.width() - 1, static_cast<int>(std::floor(gx)) + span);
    const int y0 = std::max(0, static_cast<int>(std::floor(gy)) - span);
    const int y1 = std::min(layout.height() - 1, static_cast<int>(std::floor(gy)) + span);
    NodeId best;
    double bestDistance2 = reach * reach;
    for (int y = y0; y <= y1; ++y) {
        const double dy = std::max({ 0.0, y - gy, gy - (y + 1) });
        for (int x = x0; x <= x1; ++x) {
            const NodeId n = layout.nodeAt(x, y);
            if (!n.isValid())
                continue;
            const double dx = std::max({ 0.0, x - gx, gx - (x + 1) });
            const double d2 = dx * dx + dy * dy;
            if (d2 < bestDistance2 || (!best.isValid() && d2 <= bestDistance2)) {
                bestDistance2 = d2;
                best = n;
            }
        }
    }
    return best;
}

void FleetMapView::Private::refreshHover(bool newCluster)
{
    // The map under the pointer moved or changed (new cluster, zoom, pan, resize, leave):
    // the tooltip names what was there before, so it goes (the next pointer move shows the
    // new node's), and the node under the pointer is computed again. A new cluster always
    // emits, since the same id names another node there (user trial: a stale tooltip stayed
    // over a newly loaded cluster). QToolTip is shared: hide only when ours may be showing.
    if ((scene.pointerInside || hovered.isValid()) && QToolTip::isVisible())
        QToolTip::hideText();
    const NodeId n = scene.pointerInside ? nodeAtGl(scene.pointerPos) : NodeId {};
    if (n != hovered || newCluster) {
        hovered = n;
        emit q->nodeHovered(n);
    }
}

void FleetMapView::Private::showToolTip(NodeId n, const QPointF&, const QPoint& globalPos)
{
    if (!n.isValid()) {
        QToolTip::hideText();
        return;
    }
    const CellPos cell = scene.layout.nodeCell(n);
    const QRect cellRect = camera().cellsToWidget(cell.x, cell.y, 1, 1).normalized().toAlignedRect();
    // The one call of nodeToolTip() in the view.
    QToolTip::showText(globalPos,
        scene.metricContext ? nodeToolTip(*scene.metricContext, n, *scene.metricRef, scene.topology.get(), scene.planState.get())
                            : nodeToolTip(*scene.store, n, scene.metric, scene.topology.get()),
        gl, cellRect);
}

void FleetMapView::Private::relayout()
{
    QElapsedTimer timer;
    timer.start();
    layoutViewSize = gl->size();
    const model::Topology* topology = scene.topology.get();
    if (topology && !topology->orderedNodes().empty()) {
        // The label rows depend on the pixels per cell, which depend on the layout: guess
        // from the node count, lay out, and lay out once more when the guess left a label
        // level too little room at the default zoom.
        const double areaPx = std::max(1.0, double(gl->width())) * std::max(1.0, double(gl->height()));
        const double guess = std::sqrt(areaPx / (kCellsPerNodeGuess * static_cast<double>(topology->orderedNodes().size())));
        std::vector<int> labelRows = DomainFrameLayer::labelRowsForView(*topology, guess);
        MapLayout layout = MapLayout::build(*topology, viewAspect(), labelRows);
        // The rows themselves shrink the cells a little: aim 10% low.
        const std::vector<int> needed = DomainFrameLayer::labelRowsForView(*topology, 0.9 / fitUnitsPerPixel(layout));
        bool more = false;
        for (std::size_t i = 0; i < needed.size() && i < labelRows.size(); ++i)
            if (needed[i] > labelRows[i]) {
                labelRows[i] = needed[i];
                more = true;
            }
        if (more) {
            layout = MapLayout::build(*topology, viewAspect(), labelRows);
            qCDebug(lcFleetMap) << "laid out again for label rows" << labelRows;
        }
        scene.layout = std::move(layout);
    } else {
        scene.layout = MapLayout {};
    }
    const double layoutMs = timer.nsecsElapsed() / 1e6;
    notify(MapLayer::ClusterChanged);
    qCDebug(lcFleetMap) << "aspect" << viewAspect() << "gl" << gl->size() << "layout" << scene.layout.width() << "x"
                        << scene.layout.height() << "cells for" << scene.layout.nodeCount() << "nodes in" << layoutMs
                        << "ms";
}

void FleetMapView::Private::fitView()
{
    // The whole grid fits (its margin and label bands hold the top labels).
    scene.fittedUnitsPerPixel = fitUnitsPerPixel(scene.layout);
    if (scene.layout.width() == 0) {
        centerX = centerY = 0;
        unitsPerPixel = 1.0;
        return;
    }
    unitsPerPixel = scene.fittedUnitsPerPixel;
    centerX = scene.layout.width() / 2.0;
    centerY = scene.layout.height() / 2.0;
}

void FleetMapView::Private::applyCamera()
{
    vtkCamera* cam = gl->renderer()->GetActiveCamera();
    cam->ParallelProjectionOn();
    cam->SetFocalPoint(centerX, centerY, 0);
    cam->SetPosition(centerX, centerY, 100);
    cam->SetViewUp(0, 1, 0);
    cam->SetParallelScale(unitsPerPixel * std::max(1, gl->height()) / 2.0);
    cam->SetClippingRange(50, 150);
    const MapCamera c = camera();
    for (auto& layer : layers)
        layer->cameraChanged(scene, c);
}

void FleetMapView::Private::zoomBy(double factor, const QPointF& anchorGl)
{
    if (scene.layout.width() == 0)
        return;
    const QPointF anchor = toWorld(anchorGl);
    const double fitUnits = fitUnitsPerPixel(scene.layout);
    const double next = std::clamp(unitsPerPixel / factor, kMinUnitsPerPixel, fitUnits * 4.0);
    // Keep the world point under the anchor where it is.
    centerX = anchor.x() - (anchorGl.x() - gl->width() / 2.0) * next;
    centerY = anchor.y() + (anchorGl.y() - gl->height() / 2.0) * next;
    unitsPerPixel = next;
    cameraMoved();
}

void FleetMapView::Private::zoomToCells(double x, double y, double w, double h, double marginFactor)
{
    if (scene.layout.width() == 0 || w <= 0 || h <= 0)
        return;
    const double vw = std::max(1, gl->width()), vh = std::max(1, gl->height());
    unitsPerPixel = std::max(kMinUnitsPerPixel, std::max(w / vw, h / vh) * marginFactor);
    centerX = x + w / 2.0;
    centerY = scene.layout.height() - (y + h / 2.0);
    cameraMoved();
}

void FleetMapView::Private::updateMetricContext()
{
    scene.metricContext = scene.store ? std::make_shared<const model::MetricContext>(*scene.store, prices.get()) : nullptr;
    legend->setContext(scene.metricContext); // computes the metric's column
    scene.column = scene.metricContext ? &legend->column() : nullptr;
}

void FleetMapView::setMetric(MapMetric metric)
{
    setMetric(mapMetric(metric));
}

void FleetMapView::setMetric(std::shared_ptr<const model::Metric> metric)
{
    if (!metric || metric->id() == d->scene.metricRef->id())
        return;
    QElapsedTimer timer;
    timer.start();
    d->scene.metricRef = std::move(metric);
    d->legend->setMetric(d->scene.metricRef); // computes the metric's column
    const qint64 legendNs = timer.nsecsElapsed();
    d->scene.metric = d->legend->metric();
    d->scene.column = d->scene.metricContext ? &d->legend->column() : nullptr;
    d->notify(MapLayer::MetricChanged);
    qCDebug(lcFleetMapPaint).noquote() << "setMetric ms: legend" << legendNs / 1e6 << "layers" << (timer.nsecsElapsed() - legendNs) / 1e6;
}

const model::Metric& FleetMapView::currentMetric() const
{
    return *d->scene.metricRef;
}

void FleetMapView::setPrices(std::shared_ptr<const model::PriceTable> prices)
{
    d->prices = std::move(prices);
    d->updateMetricContext();
    d->notify(MapLayer::MetricChanged);
}

MapMetric FleetMapView::metric() const
{
    return d->scene.metric;
}

QImage FleetMapView::grabImage()
{
    // A hidden view has had no layout pass yet: size the GL widget and legend now, and
    // re-fit the map to the GL widget's real size.
    if (!isVisible() && layout()) {
        const QSize glBefore = d->gl->size();
        layout()->activate();
        if (d->gl->size() != glBefore) {
            QResizeEvent resize(d->gl->size(), glBefore);
            d->handleEvent(&resize);
        }
    }
    const qreal dpr = devicePixelRatioF();
    QImage out(size() * dpr, QImage::Format_RGB32);
    out.setDevicePixelRatio(dpr);
    out.fill(mapBackgroundColor());
    QPainter painter(&out);
    QImage map = d->gl->grabFramebuffer(); // renders now (paintGL: VTK, then the layers' 2D part)
    painter.drawImage(QRectF(d->gl->geometry()), map);
    if (!d->legend->isHidden()) // a window too small for the legend hides it (fleet::app::MainWindow)
        d->legend->render(&painter, d->legend->pos(), QRegion(), QWidget::DrawChildren);
    painter.end();
    return out;
}

QPoint FleetMapView::cellCenter(NodeId n) const
{
    const CellPos cell = d->scene.layout.nodeCell(n);
    if (!cell.isValid())
        return {};
    const QPointF p = d->toWidget(QPointF(cell.x + 0.5, d->scene.layout.height() - cell.y - 0.5));
    if (p.x() < 0 || p.y() < 0 || p.x() >= d->gl->width() || p.y() >= d->gl->height())
        return {};
    return QPoint(static_cast<int>(std::floor(p.x())), static_cast<int>(std::floor(p.y()))) + d->gl->pos();
}

QRectF FleetMapView::cellRect(NodeId n) const
{
    const CellPos cell = d->scene.layout.nodeCell(n);
    if (!cell.isValid())
        return {};
    return d->camera().cellsToWidget(cell.x, cell.y, 1, 1).normalized().translated(d->gl->pos());
}

NodeId FleetMapView::nodeAt(const QPoint& pos) const
{
    const QPoint local = pos - d->gl->pos();
    if (!d->gl->rect().contains(local))
        return {};
    return d->nodeAtGl(QPointF(local) + QPointF(0.5, 0.5));
}

NodeId FleetMapView::addedNodeAt(const QPoint& pos) const
{
    return d->addedNodes->nodeAt(QPointF(pos - d->gl->pos()) + QPointF(0.5, 0.5));
}

QString FleetMapView::addedNodeToolTip(model::NodeId n) const
{
    return AddedNodeLayer::toolTip(d->scene, n);
}

NodeId FleetMapView::cellNodeAt(const QPoint& pos) const
{
    const QPoint local = pos - d->gl->pos();
    if (!d->gl->rect().contains(local))
        return {};
    return d->cellNodeAtGl(QPointF(local) + QPointF(0.5, 0.5));
}

void FleetMapView::resetView()
{
    // Reset Zoom always fills the view: lay out again when the view's shape moved at all
    // since the last layout.
    if (d->scene.topology && d->gl->size() != d->layoutViewSize
        && std::abs(d->viewAspect() / d->scene.layout.viewAspect() - 1.0) > 0.01)
        d->relayout();
    d->userMovedView = false;
    d->fitView();
    d->refreshHover(false);
    d->requestRender();
}

QRect FleetMapView::domainLabelRect(model::DomainId domain) const
{
    const model::Topology* topology = d->scene.topology.get();
    if (!topology || domain.index() >= topology->domainCount() || domain == topology->root())
        return {};
    DomainFrameLayer::LabelPlacement placement;
    if (!DomainFrameLayer::placeLabel(d->scene, d->camera(), font(), domain, placement))
        return {};
    return placement.box.toAlignedRect().translated(d->gl->pos());
}

bool FleetMapView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == d->gl && d->handleEvent(event))
        return true;
    return QWidget::eventFilter(watched, event);
}

bool FleetMapView::Private::handleEvent(QEvent* event)
{
    switch (event->type()) {
    case QEvent::Resize: {
        const double aspect = viewAspect();
        const double ratio = aspect / scene.layout.viewAspect();
        const double areaRatio = std::max(1.0, double(gl->width()) * gl->height())
            / std::max(1.0, double(layoutViewSize.width()) * layoutViewSize.height());
        if (scene.topology
            && (ratio > kRelayoutAspectFactor || ratio < 1.0 / kRelayoutAspectFactor || areaRatio > kRelayoutAreaFactor
                || areaRatio < 1.0 / kRelayoutAreaFactor)) {
            relayout();
            userMovedView = false;
        }
        if (!userMovedView)
            fitView();
        scene.fittedUnitsPerPixel = fitUnitsPerPixel(scene.layout);
        refreshHover(false);
        requestRender();
        return false;
    }
    case QEvent::Show:
    case QEvent::WindowActivate:
        // Nothing in the window has the focus yet: the map takes it, so the keyboard works
        // before the first click, and Qt gives it back when a dialog closes.
        // Queued: during its Show event the widget is not visible yet and cannot take it.
        QTimer::singleShot(0, gl, [g = gl] {
            if (QWidget* w = g->window(); w && !w->focusWidget() && g->isVisible())
                g->setFocus(Qt::OtherFocusReason);
        });
        return false;
    case QEvent::KeyPress:
        if (podDrag && !externalDrag && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
            pressed = false;
            endPodDrag();
            emit q->podDragCancelled();
            return true;
        }
        return handleKey(static_cast<QKeyEvent*>(event));
    case QEvent::ContextMenu: {
        auto* e = static_cast<QContextMenuEvent*>(event);
        emit q->contextMenuRequested(targetAtGl(e->pos()), frames->labelAt(e->pos()), e->globalPos());
        return true;
    }
    case QEvent::DragEnter: {
        auto* e = static_cast<QDragEnterEvent*>(event);
        const model::PodId pod = podFromMimeData(e->mimeData());
        if (!pod.isValid() || !scene.store || pod.index() >= scene.store->podCount())
            return false;
        e->acceptProposedAction();
        podDrag = externalDrag = true;
        emit q->podDragStarted(pod, e->modifiers());
        emitDragMove(e->position(), gl->mapToGlobal(e->position().toPoint()), e->modifiers());
        return true;
    }
    case QEvent::DragMove: {
        auto* e = static_cast<QDragMoveEvent*>(event);
        if (!externalDrag)
            return false;
        e->acceptProposedAction();
        emitDragMove(e->position(), gl->mapToGlobal(e->position().toPoint()), e->modifiers());
        return true;
    }
    case QEvent::DragLeave:
        if (!externalDrag)
            return false;
        endPodDrag();
        emit q->podDragCancelled();
        return true;
    case QEvent::Drop: {
        auto* e = static_cast<QDropEvent*>(event);
        if (!externalDrag)
            return false;
        e->acceptProposedAction();
        endPodDrag();
        emit q->podDropped(targetAtGl(e->position()), frames->labelAt(e->position()), gl->mapToGlobal(e->position().toPoint()),
            e->modifiers());
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton)
            return false;
        gl->setFocus(Qt::MouseFocusReason);
        pressed = true;
        dragging = false;
        pressPos = lastPos = e->position();
        pressLabel = frames->labelAt(e->position());
        pressPod = podAtGl(e->position());
        return true;
    }
    case QEvent::MouseButtonDblClick: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton)
            return false;
        if (const DomainId dom = frames->labelAt(e->position()); dom.isValid()) {
            q->zoomToDomain(dom);
        } else if (const NodeId n = nodeAtGl(e->position()); n.isValid()) {
            q->zoomToNode(n);
        }
        pressed = false;
        return true;
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        scene.pointerPos = e->position();
        scene.pointerInside = true;
        if (pressed && podDrag) {
            emitDragMove(e->position(), e->globalPosition().toPoint(), e->modifiers());
            return true;
        }
        if (pressed && pressPod.isValid() && QLineF(pressPos, e->position()).length() > kClickSlopPx) {
            podDrag = true;
            QToolTip::hideText();
            gl->setCursor(Qt::DragMoveCursor);
            emit q->podDragStarted(pressPod, e->modifiers());
            emitDragMove(e->position(), e->globalPosition().toPoint(), e->modifiers());
            return true;
        }
        if (pressed) {
            if (!dragging && QLineF(pressPos, e->position()).length() > kClickSlopPx) {
                dragging = true;
                QToolTip::hideText();
                gl->setCursor(Qt::ClosedHandCursor);
            }
            if (dragging) {
                const QPointF delta = e->position() - lastPos;
                centerX -= delta.x() * unitsPerPixel;
                centerY += delta.y() * unitsPerPixel;
                cameraMoved();
            }
            lastPos = e->position();
            return true;
        }
        // A node the plan added (drawn by AddedNodeLayer, not in the store): its own tooltip; a
        // click selects it (its inspector reads the plan), hover reports no store node.
        const NodeId added = addedNodes->nodeAt(e->position());
        const NodeId n = added.isValid() ? NodeId {} : nodeAtGl(e->position());
        if (n != hovered) {
            hovered = n;
            emit q->nodeHovered(n);
        }
        if (added.isValid())
            QToolTip::showText(e->globalPosition().toPoint(), AddedNodeLayer::toolTip(scene, added), gl);
        else
            showToolTip(n, e->position(), e->globalPosition().toPoint());
        if (!BreadcrumbLayer::text(scene, camera()).isEmpty())
            requestRender();
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton || !pressed)
            return false;
        pressed = false;
        if (podDrag) {
            endPodDrag();
            emit q->podDropped(targetAtGl(e->position()), frames->labelAt(e->position()), e->globalPosition().toPoint(),
                e->modifiers());
            return true;
        }
        pressPod = {};
        if (dragging) {
            dragging = false;
            gl->unsetCursor();
        } else if (pressLabel.isValid() && frames->labelAt(e->position()) == pressLabel) {
            emit q->domainActivated(pressLabel);
        } else {
            const NodeId n = targetAtGl(e->position());
            if (n.isValid()) {
                q->setSelectedNode(n);
                emit q->nodeActivated(n);
            }
        }
        return true;
    }
    case QEvent::Wheel: {
        auto* e = static_cast<QWheelEvent*>(event);
        const double steps = e->angleDelta().y() / 120.0;
        if (steps == 0 || scene.layout.width() == 0)
            return true;
        scene.pointerPos = e->position();
        scene.pointerInside = true;
        zoomBy(std::pow(1.25, steps), e->position());
        return true;
    }
    case QEvent::Enter:
        // The pointer counts only from its first real move: a window that appears under a
        // resting pointer gets an Enter, and took it for a hover (user trial: the headless
        // screenshot named a node in its status bar that nobody pointed at).
        return false;
    case QEvent::Leave:
        scene.pointerInside = false;
        refreshHover(false);
        requestRender();
        return false;
    default:
        return false;
    }
}

bool FleetMapView::Private::handleKey(QKeyEvent* e)
{
    const QPointF centre(gl->width() / 2.0, gl->height() / 2.0);
    const double panX = gl->width() * kKeyPanShare * unitsPerPixel;
    const double panY = gl->height() * kKeyPanShare * unitsPerPixel;
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(kKeyZoomFactor, centre);
        return true;
    case Qt::Key_Minus:
        zoomBy(1.0 / kKeyZoomFactor, centre);
        return true;
    case Qt::Key_Left:
        centerX -= panX;
        cameraMoved();
        return true;
    case Qt::Key_Right:
        centerX += panX;
        cameraMoved();
        return true;
    case Qt::Key_Up:
        centerY += panY;
        cameraMoved();
        return true;
    case Qt::Key_Down:
        centerY -= panY;
        cameraMoved();
        return true;
    case Qt::Key_Home:
        q->resetView();
        return true;
    case Qt::Key_0:
        if (e->modifiers() & Qt::ControlModifier) {
            q->resetView();
            return true;
        }
        return false;
    case Qt::Key_Z:
        if (e->modifiers() == Qt::NoModifier) {
            q->zoomToSelection();
            return true;
        }
        return false;
    default:
        return false;
    }
}

void FleetMapView::setSelectedNode(NodeId n)
{
    if (!d->scene.store
        || (n.index() >= d->scene.store->nodeCount() && !(d->scene.planState && n.index() < d->scene.planState->nodeCount())))
        n = NodeId {};
    if (n == d->scene.selected)
        return;
    d->scene.selected = n;
    d->notify(MapLayer::SelectionChanged);
    emit selectionChanged(n);
}

NodeId FleetMapView::selectedNode() const
{
    return d->scene.selected;
}

void FleetMapView::setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask)
{
    d->scene.mask = std::move(mask);
    d->notify(MapLayer::MaskChanged);
}

void FleetMapView::setProblemNodes(std::vector<NodeId> nodes)
{
    d->scene.problemNodes = std::move(nodes);
    d->notify(MapLayer::ProblemsChanged);
}

void FleetMapView::zoomToNode(NodeId n)
{
    const CellPos cell = d->scene.layout.nodeCell(n);
    if (!cell.isValid())
        return;
    const double side = std::min(kZoomToNodePx, std::min(d->gl->width(), d->gl->height()) / 3.0);
    const double units = 1.0 / std::max(1.0, side);
    d->zoomToCells(cell.x + 0.5 - units * d->gl->width() / 2.0, cell.y + 0.5 - units * d->gl->height() / 2.0,
        units * d->gl->width(), units * d->gl->height(), 1.0);
}

void FleetMapView::zoomToDomain(DomainId dom)
{
    const model::Topology* topology = d->scene.topology.get();
    if (!topology || !dom.isValid() || dom.index() >= topology->domainCount())
        return;
    if (dom == topology->root()) {
        resetView();
        return;
    }
    const CellRect r = d->scene.layout.domainRect(dom);
    const int gap = d->scene.layout.labelGapRows(dom);
    // The block and its label above it, with a little room around.
    d->zoomToCells(r.x - 1, r.y - gap - 1, r.width + 2, r.height + gap + 2, 1.05);
}

void FleetMapView::zoomToSelection()
{
    zoomToNode(d->scene.selected);
}

model::PodId FleetMapView::Private::podAtGl(const QPointF& glPos) const
{
    if (!scene.hasMap() || 1.0 / unitsPerPixel < NodeDetailLayer::kDetailMinPx)
        return {};
    const NodeId n = cellNodeAtGl(glPos);
    if (!n.isValid())
        return {};
    // The cell as the detail layer draws it: snapped to whole pixels.
    const CellPos cell = scene.layout.nodeCell(n);
    const QRectF raw = camera().cellsToWidget(cell.x, cell.y, 1, 1).normalized();
    const QRectF snapped(QPointF(std::floor(raw.left()), std::floor(raw.top())), QPointF(std::floor(raw.right()), std::floor(raw.bottom())));
    return podStripAt(scene, n, snapped, glPos);
}

void FleetMapView::setDragShading(std::shared_ptr<const std::vector<std::uint8_t>> feasible)
{
    d->scene.dragFeasible = std::move(feasible);
    if (!d->scene.dragFeasible) {
        d->scene.dragTarget = {};
        d->scene.dragDomain = {};
    }
    d->notify(MapLayer::DragChanged);
}

void FleetMapView::setDragTarget(NodeId node, bool feasible, DomainId domain)
{
    if (node == d->scene.dragTarget && feasible == d->scene.dragTargetFeasible && domain == d->scene.dragDomain)
        return;
    d->scene.dragTarget = node;
    d->scene.dragTargetFeasible = feasible;
    d->scene.dragDomain = domain;
    d->notify(MapLayer::DragChanged);
}

void FleetMapView::setPlanMarks(std::shared_ptr<const PlanMarks> marks)
{
    d->scene.planMarks = std::move(marks);
    d->notify(MapLayer::PlanChanged);
}

void FleetMapView::setPlanState(std::shared_ptr<const model::PlacementState> state)
{
    d->scene.planState = std::move(state);
    d->notify(MapLayer::PlanChanged);
    // A selected node the plan added goes with it (undo).
    const NodeId selected = d->scene.selected;
    if (d->scene.store && selected.isValid() && selected.index() >= d->scene.store->nodeCount()
        && !(d->scene.planState && selected.index() < d->scene.planState->nodeCount()))
        setSelectedNode({});
}

void FleetMapView::refreshMetric(std::shared_ptr<const model::Metric> metric)
{
    if (metric && metric != d->scene.metricRef) {
        d->scene.metricRef = std::move(metric);
        d->legend->setMetric(d->scene.metricRef); // computes the metric's column
    } else {
        d->legend->setContext(d->scene.metricContext); // computes it again
    }
    d->scene.metric = d->legend->metric();
    d->scene.column = d->scene.metricContext ? &d->legend->column() : nullptr;
    d->notify(MapLayer::MetricChanged);
}

model::PodId FleetMapView::podAt(const QPoint& pos) const
{
    const QPoint local = pos - d->gl->pos();
    if (!d->gl->rect().contains(local))
        return {};
    return d->podAtGl(QPointF(local) + QPointF(0.5, 0.5));
}

DomainId FleetMapView::domainLabelAt(const QPoint& pos) const
{
    return d->frames->labelAt(QPointF(pos - d->gl->pos()) + QPointF(0.5, 0.5));
}

bool FleetMapView::isDraggingPod() const
{
    return d->podDrag;
}

double FleetMapView::lastShadeMs() const
{
    return d->plan->lastShadeMs();
}

QString FleetMapView::breadcrumbText() const
{
    return BreadcrumbLayer::text(d->scene, d->camera());
}

} // namespace fleet::views
