// SPDX-License-Identifier: Apache-2.0
#include "fleetmapview_p.h"

#include "model/clusterstore.h"
#include "model/pricing/pricetable.h"
#include "model/topology.h"
#include "views/map/colormap.h"
#include "views/map/layers/breadcrumblayer.h"
#include "views/map/layers/domainframelayer.h"
#include "views/map/layers/layeroverlay.h"
#include "views/map/layers/markerlayer.h"
#include "views/map/layers/nodedetaillayer.h"
#include "views/map/layers/addednodelayer.h"
#include "views/map/layers/comparednodelayer.h"
#include "views/map/layers/planlayer.h"
#include "views/map/layers/selectionlayer.h"
#include "views/map/layers/texelimagelayer.h"
#include "views/map/maplayout.h"
#include "views/map/maplegend.h"
#include "views/map/nodetooltip.h"
#include "views/map/planmarks.h"
#include "views/map/podstrips.h"
#include "views/vtk/vtkopenglwidget.h"

#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLoggingCategory>
#include <QPainter>
#include <QResizeEvent>
#include <QToolTip>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <cmath>

Q_LOGGING_CATEGORY(lcFleetMap, "fleet.views.map", QtInfoMsg)
// Per-layer paint times (declared in fleetmapview_p.h).
Q_LOGGING_CATEGORY(lcFleetMapPaint, "fleet.views.map.paint", QtInfoMsg)

namespace fleet::views {

using model::DomainId;
using model::NodeId;

namespace {

// Cells per node of the simulated fleets' layouts (gutters and bands), a first guess to size
// the label rows before the layout exists (see relayout()).
constexpr double kCellsPerNodeGuess = 4.0;
// Zoom limits: a cell at most 256 px wide; the whole map at least a quarter of the view.
constexpr double kMinUnitsPerPixel = fleetmap::kMinUnitsPerPixel;
// Hover, click, drop and right click on a gutter pick the nearest cell within this distance
// (logical px): at the fitted zoom on 100,000 nodes a cell is about 1 px and most pixels are
// gutters, and on 2,000 nodes the gutter between two blocks is about 7 px, whose middle a
// hand hits as often as a cell (user trials).
constexpr double kPickSlopPx = 5.0;
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

void setRgb(double out[3], const QColor& c)
{
    out[0] = c.redF();
    out[1] = c.greenF();
    out[2] = c.blueF();
}

} // namespace

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
    d->metrics = new MapMetricModel(this);
    d->legend = new MapLegend(d->metrics, this);
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
    addLayer<ComparedNodeLayer>(); // the compared state's added and removed nodes
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
    // A comparison's marks name the shown store's nodes: another store ends them (a live
    // batch that rebuilt the topology keeps them; their added nodes go under its root).
    if (d->scene.store != store)
        d->scene.comparedMarks.reset();
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
    d->legend->setPlanMarkCounts({});
    d->scene.planState.reset();
    d->input.endPodDrag();
    d->userMovedView = false;
    d->zoomedDomain = {};
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

bool FleetMapView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == d->gl) {
        if (event->type() == QEvent::Resize)
            d->viewResized(static_cast<QResizeEvent*>(event)->oldSize()); // never consumed
        else if (d->input.handleEvent(event))
            return true;
    }
    return QWidget::eventFilter(watched, event);
}

void FleetMapView::Private::viewResized(const QSize& oldSize)
{
    // Zoomed in, the selected node stays where it was on the screen (a dock opened beside
    // the map after a click on it must not move it from under the pointer); the fitted map
    // is fitted again; a domain zoomToDomain() framed is framed again in the new size (the
    // zoom came before the dock that narrows the map opened).
    const model::DomainId reframe = zoomedDomain;
    std::optional<QPointF> keepAt;
    if (!reframe.isValid() && userMovedView && scene.selected.isValid() && oldSize.isValid()) {
        if (const CellPos c = scene.layout.nodeCell(scene.selected); c.isValid()) {
            const double wx = c.x + 0.5, wy = scene.layout.height() - c.y - 0.5;
            const QPointF at((wx - centerX) / unitsPerPixel + oldSize.width() / 2.0, (centerY - wy) / unitsPerPixel + oldSize.height() / 2.0);
            if (QRectF(QPointF(0, 0), QSizeF(std::min(oldSize.width(), gl->width()), std::min(oldSize.height(), gl->height()))).contains(at))
                keepAt = at;
        }
    }
    const double aspect = viewAspect();
    const double ratio = aspect / scene.layout.viewAspect();
    const double areaRatio = std::max(1.0, double(gl->width()) * gl->height())
        / std::max(1.0, double(layoutViewSize.width()) * layoutViewSize.height());
    if (scene.topology
        && (ratio > kRelayoutAspectFactor || ratio < 1.0 / kRelayoutAspectFactor || areaRatio > kRelayoutAreaFactor
            || areaRatio < 1.0 / kRelayoutAreaFactor)) {
        if (userMovedView)
            relayoutKeepingView();
        else
            relayout();
    }
    if (!userMovedView)
        fitView();
    else if (reframe.isValid() && scene.topology && reframe.index() < scene.topology->domainCount())
        q->zoomToDomain(reframe);
    if (const CellPos c = scene.layout.nodeCell(scene.selected); keepAt && c.isValid()) {
        const double wx = c.x + 0.5, wy = scene.layout.height() - c.y - 0.5;
        centerX = wx - (keepAt->x() - gl->width() / 2.0) * unitsPerPixel;
        centerY = wy + (keepAt->y() - gl->height() / 2.0) * unitsPerPixel;
    }
    scene.fittedUnitsPerPixel = fitUnitsPerPixel(scene.layout);
    refreshHover(false);
    requestRender();
}

void FleetMapView::Private::relayoutKeepingView()
{
    // The anchor: the node nearest the view's centre (a ring search, at most kAnchorReach
    // cells out), and where the centre is from its cell. Cells are one world unit in every
    // layout, so the scale (units per pixel) carries over as it is.
    constexpr int kAnchorReach = 256;
    const double cx = centerX;
    const double cy = scene.layout.height() - centerY; // rows from the top
    const int x0 = static_cast<int>(std::floor(cx));
    const int y0 = static_cast<int>(std::floor(cy));
    NodeId anchor;
    for (int r = 0; r <= kAnchorReach && !anchor.isValid(); ++r)
        for (int dy = -r; dy <= r && !anchor.isValid(); ++dy)
            for (int dx = -r; dx <= r; ++dx) {
                if (std::max(std::abs(dx), std::abs(dy)) != r)
                    continue; // the ring only
                if (const NodeId n = scene.layout.nodeAt(x0 + dx, y0 + dy); n.isValid()) {
                    anchor = n;
                    break;
                }
            }
    const CellPos before = scene.layout.nodeCell(anchor);
    const double fx = scene.layout.width() > 0 ? cx / scene.layout.width() : 0.5;
    const double fy = scene.layout.height() > 0 ? cy / scene.layout.height() : 0.5;
    relayout();
    const CellPos after = scene.layout.nodeCell(anchor);
    double nx = fx * scene.layout.width(), ny = fy * scene.layout.height();
    if (before.isValid() && after.isValid()) {
        nx = after.x + (cx - before.x);
        ny = after.y + (cy - before.y);
    }
    centerX = nx;
    centerY = scene.layout.height() - ny;
    unitsPerPixel = std::clamp(unitsPerPixel, fleetmap::kMinUnitsPerPixel, fitUnitsPerPixel(scene.layout) * 4.0);
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
    // The key names the detailed cells' device boxes while the cells are large enough to show them.
    legend->setDetailKeyShown(scene.hasMap() && c.pxPerCell() >= NodeDetailLayer::kDetailMinPx);
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
    metrics->setContext(scene.metricContext); // computes the metric's column
    scene.column = scene.metricContext ? &metrics->column() : nullptr;
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
    d->metrics->setMetric(d->scene.metricRef); // computes the metric's column
    const qint64 legendNs = timer.nsecsElapsed();
    d->scene.metric = d->metrics->mapMetric();
    d->scene.column = d->scene.metricContext ? &d->metrics->column() : nullptr;
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

void FleetMapView::layOutHidden()
{
    // A hidden view has had no layout pass yet: size the GL widget and legend now, and
    // re-fit the map to the GL widget's real size.
    if (!isVisible() && layout()) {
        const QSize glBefore = d->gl->size();
        layout()->activate();
        if (d->gl->size() != glBefore) {
            d->viewResized(glBefore);
        }
    }
}

void FleetMapView::setHiddenDevicePixelRatio(qreal ratio)
{
    d->hiddenRatio = ratio > 0 ? ratio : 0;
}

QImage FleetMapView::grabImage()
{
    if (!isVisible())
        return grabImageLater()();
    const qreal dpr = devicePixelRatioF();
    QImage out(size() * dpr, QImage::Format_RGB32);
    out.setDevicePixelRatio(dpr);
    out.fill(mapBackgroundColor());
    QPainter painter(&out);
    const QImage map = d->gl->grabFramebuffer(); // renders now (paintGL: VTK, then the layers' 2D part)
    painter.drawImage(QRectF(d->gl->geometry()), map);
    if (!d->legend->isHidden()) // a window too small for the legend hides it (fleet::app::MainWindow)
        d->legend->render(&painter, d->legend->pos(), QRegion(), QWidget::DrawChildren);
    painter.end();
    return out;
}

std::function<QImage()> FleetMapView::grabImageLater()
{
    if (isVisible())
        return [image = grabImage()] { return image; };
    // Never shown (a report's maps): the layers paint the frame with the raster engine, as
    // paintGL has them paint it (no layer attaches VTK actors, maplayer.h), without an OpenGL
    // context, whose creation and first frame took about 100 ms at 20,000 nodes. The legend is
    // a widget (GUI thread): rendered here; the layers' pixels, the part that grows with the
    // fleet and the ratio, are painted by the function, on any thread.
    layOutHidden();
    // The key's row for the detailed cells' device boxes, as applyCamera() sets it for a shown view.
    d->legend->setDetailKeyShown(d->scene.hasMap() && d->camera().pxPerCell() >= NodeDetailLayer::kDetailMinPx);
    const qreal dpr = d->ratio();
    QImage legend;
    QPoint legendPos;
    if (!d->legend->isHidden()) {
        legend = QImage(d->legend->size() * dpr, QImage::Format_ARGB32_Premultiplied);
        legend.setDevicePixelRatio(dpr);
        legend.fill(Qt::transparent);
        QPainter painter(&legend);
        d->legend->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
        legendPos = d->legend->pos();
    }
    return [p = d.get(), camera = d->camera(), dpr, size = size(), mapRect = d->gl->geometry(), legend = std::move(legend), legendPos] {
        QImage out(size * dpr, QImage::Format_RGB32);
        out.setDevicePixelRatio(dpr);
        out.fill(mapBackgroundColor());
        QImage map(mapRect.size() * dpr, QImage::Format_RGB32);
        map.setDevicePixelRatio(dpr);
        map.fill(mapBackgroundColor());
        {
            QPainter layers(&map);
            p->paintLayers(layers, camera);
        }
        QPainter painter(&out);
        painter.drawImage(QRectF(mapRect), map);
        if (!legend.isNull())
            painter.drawImage(QPointF(legendPos), legend);
        painter.end();
        return out;
    };
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
    d->zoomedDomain = {};
    // The whole fleet is what the view shows now: no domain frameDomain() framed is named.
    d->scene.framedDomain = {};
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

void FleetMapView::setShownMarkerKinds(unsigned kinds)
{
    kinds &= kAllMarkerKinds;
    if (kinds == d->scene.shownMarkerKinds)
        return;
    d->scene.shownMarkerKinds = kinds;
    d->notify(MapLayer::ProblemsChanged);
}

unsigned FleetMapView::shownMarkerKinds() const
{
    return d->scene.shownMarkerKinds;
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
    d->zoomedDomain = dom; // framed again for the view's next size (viewResized())
}

void FleetMapView::frameDomain(DomainId dom)
{
    const model::Topology* topology = d->scene.topology.get();
    if (!topology || !dom.isValid() || dom.index() >= topology->domainCount())
        return;
    if (dom == topology->root()) {
        resetView();
        return;
    }
    int x0 = std::numeric_limits<int>::max(), y0 = x0, x1 = -1, y1 = -1;
    for (const NodeId n : topology->domainNodes(dom)) {
        const CellPos c = d->scene.layout.nodeCell(n);
        if (!c.isValid())
            continue;
        x0 = std::min(x0, c.x);
        y0 = std::min(y0, c.y);
        x1 = std::max(x1, c.x + 1);
        y1 = std::max(y1, c.y + 1);
    }
    if (x1 < 0) {
        zoomToDomain(dom);
        return;
    }
    // The label band at the domain's top (its first row of children's labels) is framed too:
    // fitted to the cells alone, those labels fell under the breadcrumb strip.
    if (const CellRect r = d->scene.layout.domainRect(dom); r.width > 0)
        y0 = std::min(y0, r.y);
    // Fitted into the view under the breadcrumb strip and a band for the domain's own label,
    // centred there (the camera's centre is the view's: it sits half of both above the block's
    // centre). The label is drawn in the gap above the block, up to DomainFrameLayer's largest
    // (a 13 px font at 1.25 lines and 2 px of padding): without its band, a domain framed by its
    // height had its label drawn under the strip, over the breadcrumb.
    constexpr double kOwnLabelBandPx = 13 * 1.25 + 2;
    const double strip = BreadcrumbLayer::kStripPx + kOwnLabelBandPx;
    const double w = x1 - x0 + 2.0, h = y1 - y0 + 2.0;
    const double vw = std::max(1, d->gl->width()), vh = std::max(1.0, d->gl->height() - strip);
    d->unitsPerPixel = std::max(kMinUnitsPerPixel, std::max(w / vw, h / vh));
    d->centerX = (x0 + x1) / 2.0;
    d->centerY = d->scene.layout.height() - (y0 + y1) / 2.0 + strip / 2.0 * d->unitsPerPixel;
    d->cameraMoved();
    d->scene.framedDomain = dom;
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
    d->legend->setDragKeyShown(d->scene.dragFeasible != nullptr); // the key names the drag's mark while it can be seen
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
    const PlanMarks* m = d->scene.planMarks.get();
    d->legend->setPlanMarkCounts(m ? std::array<std::size_t, 4> { m->changed.size(), m->violations.size(), m->emptied.size(), m->removed.size() }
                                   : std::array<std::size_t, 4> {});
    d->notify(MapLayer::PlanChanged);
}

void FleetMapView::setComparedMarks(std::shared_ptr<const ComparedMarks> marks)
{
    d->scene.comparedMarks = std::move(marks);
    d->notify(MapLayer::CompareChanged);
}

void FleetMapView::setPlanState(std::shared_ptr<const model::PlanLedger> state)
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
        d->metrics->setMetric(d->scene.metricRef); // computes the metric's column
    } else {
        d->metrics->setContext(d->scene.metricContext); // computes it again
    }
    d->scene.metric = d->metrics->mapMetric();
    d->scene.column = d->scene.metricContext ? &d->metrics->column() : nullptr;
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
    return d->input.isDraggingPod();
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
