#include "fleetmapview.h"

#include "model/clusterstore.h"
#include "model/topology.h"
#include "views/map/colormap.h"
#include "views/map/maplayout.h"
#include "views/map/maplegend.h"
#include "views/map/mapraster.h"
#include "views/map/nodetooltip.h"
#include "views/vtk/vtkopenglwidget.h"

#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLoggingCategory>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCoordinate.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTexture.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <cstring>

Q_LOGGING_CATEGORY(lcFleetMap, "fleet.views.map", QtInfoMsg)

namespace fleet::views {

using model::DomainId;
using model::NodeId;

namespace {

// Labels are drawn for the first two topology levels (region and zone by default), for
// domains at least this wide on screen (logical pixels), and at most this many.
constexpr double kMinLabelWidthPx[] = { 0, 40, 80 };
constexpr std::size_t kMaxLabels = 600;
// Zoom limits: a cell at most 256 px wide; the whole map at least a quarter of the view.
constexpr double kMinUnitsPerPixel = 1.0 / 256.0;
// A press and release closer than this (logical px) is a click, not a drag.
constexpr double kClickSlopPx = 4.0;
// Logical pixels kept free above the map when it is fitted, for the region labels.
constexpr double kLabelRoomPx = 18.0;
// Relayout when the view's aspect moves this far (factor) from the layout's.
constexpr double kRelayoutAspectFactor = 1.3;

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

    std::shared_ptr<const model::ClusterStore> store;
    std::shared_ptr<const model::Topology> topology;
    MapLayout layout;
    MapMetric metric = MapMetric::GpuRequested;

    // VTK scene: one textured quad, one outline actor, text labels.
    vtkSmartPointer<vtkImageData> image = vtkSmartPointer<vtkImageData>::New();
    vtkSmartPointer<vtkTexture> texture = vtkSmartPointer<vtkTexture>::New();
    vtkSmartPointer<vtkPolyData> quad = vtkSmartPointer<vtkPolyData>::New();
    vtkSmartPointer<vtkActor> quadActor = vtkSmartPointer<vtkActor>::New();
    vtkSmartPointer<vtkPolyData> outlines = vtkSmartPointer<vtkPolyData>::New();
    vtkSmartPointer<vtkActor> outlineActor = vtkSmartPointer<vtkActor>::New();
    struct Label {
        vtkSmartPointer<vtkTextActor> actor;
        DomainId domain;
        int level = 0;
    };
    std::vector<Label> labels;

    // Camera: world coordinates of the view centre and world units (cells) per logical pixel.
    double centerX = 0, centerY = 0, unitsPerPixel = 1;
    bool userMovedView = false;

    // Interaction.
    bool pressed = false;
    bool dragging = false;
    QPointF pressPos, lastPos;
    NodeId hovered;

    void buildScene();
    void relayout();
    void rasterise();
    void rebuildOutlines();
    void rebuildLabels();
    void fitView();
    void applyCamera();
    [[nodiscard]] double viewAspect() const
    {
        return gl->width() > 16 && gl->height() > 16 + kLabelRoomPx ? gl->width() / (gl->height() - kLabelRoomPx) : 1.6;
    }
    [[nodiscard]] QPointF toWorld(const QPointF& glPos) const
    {
        return { centerX + (glPos.x() - gl->width() / 2.0) * unitsPerPixel,
            centerY - (glPos.y() - gl->height() / 2.0) * unitsPerPixel };
    }
    [[nodiscard]] QPointF toWidget(const QPointF& world) const
    {
        return { gl->width() / 2.0 + (world.x() - centerX) / unitsPerPixel,
            gl->height() / 2.0 - (world.y() - centerY) / unitsPerPixel };
    }
    /// Node under a position in the GL widget's coordinates (the pixel's centre).
    [[nodiscard]] NodeId nodeAtGl(const QPointF& glPos) const
    {
        if (!store || layout.width() == 0)
            return {};
        const QPointF w = toWorld(glPos);
        const double cx = std::floor(w.x());
        const double cy = std::floor(layout.height() - w.y());
        if (cx < 0 || cy < 0 || cx >= layout.width() || cy >= layout.height())
            return {};
        return layout.nodeAt(static_cast<int>(cx), static_cast<int>(cy));
    }
    bool handleEvent(QEvent* event);
};

FleetMapView::FleetMapView(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
{
    qRegisterMetaType<fleet::model::NodeId>();
    d->q = this;
    d->gl = new VtkOpenGLWidget(this);
    d->gl->setMouseTracking(true);
    d->gl->setFocusPolicy(Qt::StrongFocus);
    d->gl->installEventFilter(this);
    d->legend = new MapLegend(this);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(d->gl, 1);
    layout->addWidget(d->legend, 0);
    d->buildScene();
    connect(d->gl, &VtkOpenGLWidget::aboutToRender, this, [this] { d->applyCamera(); });
    connect(d->gl, &VtkOpenGLWidget::frameRendered, this, &FleetMapView::frameRendered);
}

FleetMapView::~FleetMapView() = default;

void FleetMapView::Private::buildScene()
{
    vtkRenderer* renderer = gl->renderer();
    double bg[3];
    setRgb(bg, mapBackgroundColor());
    renderer->SetBackground(bg);
    renderer->SetBackgroundAlpha(1.0); // opaque: Qt composes the widget's alpha
    renderer->GetActiveCamera()->ParallelProjectionOn();

    texture->SetInputData(image);
    texture->InterpolateOff(); // nearest: one crisp texel per node
    texture->MipmapOff();
    texture->RepeatOff();
    texture->EdgeClampOn();
    texture->SetColorModeToDirectScalars();

    auto quadMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    quadMapper->SetInputData(quad);
    quadMapper->ScalarVisibilityOff();
    quadActor->SetMapper(quadMapper);
    quadActor->SetTexture(texture);
    quadActor->GetProperty()->LightingOff(); // texel colours reach the screen unchanged
    quadActor->GetProperty()->SetColor(1, 1, 1);
    quadActor->VisibilityOff();
    renderer->AddActor(quadActor);

    auto outlineMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    outlineMapper->SetInputData(outlines);
    outlineMapper->SetScalarModeToUseCellData();
    outlineMapper->SetColorModeToDirectScalars();
    outlineMapper->ScalarVisibilityOn();
    outlineActor->SetMapper(outlineMapper);
    outlineActor->GetProperty()->LightingOff();
    outlineActor->GetProperty()->SetLineWidth(1.0f);
    outlineActor->VisibilityOff();
    renderer->AddActor(outlineActor);
}

void FleetMapView::setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology)
{
    if (!store || !topology) {
        store.reset();
        topology.reset();
    }
    d->store = std::move(store);
    d->topology = std::move(topology);
    d->hovered = {};
    d->userMovedView = false;
    d->relayout();
    d->fitView();
    d->gl->requestRender();
}

void FleetMapView::Private::relayout()
{
    QElapsedTimer timer;
    timer.start();
    layout = topology ? MapLayout::build(*topology, viewAspect()) : MapLayout {};
    const double layoutMs = timer.nsecsElapsed() / 1e6;

    // The quad: world x = cell column, world y = layout height - cell row (row 0 at the top).
    const double w = layout.width(), h = layout.height();
    auto points = vtkSmartPointer<vtkPoints>::New();
    points->InsertNextPoint(0, h, 0);
    points->InsertNextPoint(w, h, 0);
    points->InsertNextPoint(w, 0, 0);
    points->InsertNextPoint(0, 0, 0);
    auto tcoords = vtkSmartPointer<vtkFloatArray>::New();
    tcoords->SetNumberOfComponents(2);
    // Texture row 0 (t = 0) is image row 0, the top row of cells.
    const float tc[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
    for (const auto& t : tc)
        tcoords->InsertNextTuple(std::array<double, 2> { t[0], t[1] }.data());
    auto polys = vtkSmartPointer<vtkCellArray>::New();
    const vtkIdType ids[4] = { 0, 1, 2, 3 };
    polys->InsertNextCell(4, ids);
    quad->Initialize();
    quad->SetPoints(points);
    quad->SetPolys(polys);
    quad->GetPointData()->SetTCoords(tcoords);
    quad->Modified();

    rasterise();
    rebuildOutlines();
    rebuildLabels();
    const bool visible = layout.width() > 0;
    quadActor->SetVisibility(visible);
    outlineActor->SetVisibility(visible);
    qCDebug(lcFleetMap) << "layout" << layout.width() << "x" << layout.height() << "cells for" << layout.nodeCount() << "nodes in"
                        << layoutMs << "ms";
}

void FleetMapView::Private::rasterise()
{
    if (!store || layout.width() == 0) {
        image->Initialize();
        return;
    }
    const QImage raster = MapRaster::render(*store, layout, metric);
    image->SetDimensions(raster.width(), raster.height(), 1);
    image->AllocateScalars(VTK_UNSIGNED_CHAR, 4);
    auto* dst = static_cast<unsigned char*>(image->GetScalarPointer());
    const auto rowBytes = static_cast<std::size_t>(raster.width()) * 4;
    for (int y = 0; y < raster.height(); ++y)
        std::memcpy(dst + static_cast<std::size_t>(y) * rowBytes, raster.constScanLine(y), rowBytes);
    image->Modified();
    texture->Modified();
}

void FleetMapView::Private::rebuildOutlines()
{
    auto points = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    auto colours = vtkSmartPointer<vtkUnsignedCharArray>::New();
    colours->SetNumberOfComponents(3);
    if (topology && layout.width() > 0) {
        const double h = layout.height();
        const QColor base = domainOutlineColor();
        for (std::uint32_t i = 1; i < topology->domainCount(); ++i) {
            const DomainId dom(i);
            const CellRect r = layout.domainRect(dom);
            // Outlines sit in the gutters, a quarter cell further out per tree level, so
            // nested outlines never coincide and siblings' never touch (gutter = height).
            const double e = 0.25 * (layout.domainHeight(dom) + 1);
            const double x0 = r.x - e, x1 = r.x + r.width + e;
            const double y0 = h - (r.y + r.height) - e, y1 = h - r.y + e;
            const vtkIdType first = points->GetNumberOfPoints();
            points->InsertNextPoint(x0, y0, 0.01);
            points->InsertNextPoint(x1, y0, 0.01);
            points->InsertNextPoint(x1, y1, 0.01);
            points->InsertNextPoint(x0, y1, 0.01);
            const vtkIdType loop[5] = { first, first + 1, first + 2, first + 3, first };
            lines->InsertNextCell(5, loop);
            // Brighter for the outer levels.
            const int level = topology->domainLevel(dom);
            const double f = level <= 1 ? 1.0 : level == 2 ? 0.8 : 0.55;
            const unsigned char rgb[3] = { static_cast<unsigned char>(base.red() * f),
                static_cast<unsigned char>(base.green() * f), static_cast<unsigned char>(base.blue() * f) };
            colours->InsertNextTypedTuple(rgb);
        }
    }
    outlines->Initialize();
    outlines->SetPoints(points);
    outlines->SetLines(lines);
    outlines->GetCellData()->SetScalars(colours);
    outlines->Modified();
}

void FleetMapView::Private::rebuildLabels()
{
    vtkRenderer* renderer = gl->renderer();
    for (const Label& l : labels)
        renderer->RemoveActor2D(l.actor);
    labels.clear();
    if (!topology || layout.width() == 0)
        return;
    for (std::uint32_t i = 1; i < topology->domainCount() && labels.size() < kMaxLabels; ++i) {
        const DomainId dom(i);
        const int level = topology->domainLevel(dom);
        if (level > 2)
            continue;
        Label l;
        l.actor = vtkSmartPointer<vtkTextActor>::New();
        l.domain = dom;
        l.level = level;
        l.actor->SetInput(topology->domainName(dom).c_str());
        l.actor->GetPositionCoordinate()->SetCoordinateSystemToWorld();
        const CellRect r = layout.domainRect(dom);
        const double e = 0.25 * (layout.domainHeight(dom) + 1);
        vtkTextProperty* text = l.actor->GetTextProperty();
        text->SetFontFamilyToArial();
        text->SetColor(0.95, 0.95, 0.97);
        text->SetBackgroundColor(0.07, 0.08, 0.1);
        text->SetBackgroundOpacity(0.75);
        text->SetJustificationToLeft();
        if (level == 1) {
            // Region: just above its block.
            text->SetFontSize(13); // points at 72 dpi: logical pixels (see VtkOpenGLWidget)
            text->BoldOn();
            text->SetVerticalJustificationToBottom();
            l.actor->SetPosition(r.x - e, layout.height() - r.y + e);
        } else {
            // Zone: inside the top-left corner of its block.
            text->SetFontSize(11);
            text->SetVerticalJustificationToTop();
            l.actor->SetPosition(r.x, layout.height() - r.y);
        }
        renderer->AddActor2D(l.actor);
        labels.push_back(std::move(l));
    }
}

void FleetMapView::Private::fitView()
{
    // The whole grid fits, with room above it for the labels of the top domains.
    const double w = std::max(1, gl->width());
    const double h = std::max(1.0, gl->height() - kLabelRoomPx);
    if (layout.width() == 0) {
        centerX = centerY = 0;
        unitsPerPixel = 1.0;
        return;
    }
    unitsPerPixel = std::max(layout.width() / w, layout.height() / h) * 1.02;
    centerX = layout.width() / 2.0;
    centerY = layout.height() / 2.0 + kLabelRoomPx / 2.0 * unitsPerPixel;
}

void FleetMapView::Private::applyCamera()
{
    vtkCamera* camera = gl->renderer()->GetActiveCamera();
    camera->ParallelProjectionOn();
    camera->SetFocalPoint(centerX, centerY, 0);
    camera->SetPosition(centerX, centerY, 100);
    camera->SetViewUp(0, 1, 0);
    camera->SetParallelScale(unitsPerPixel * std::max(1, gl->height()) / 2.0);
    camera->SetClippingRange(50, 150);
    outlineActor->GetProperty()->SetLineWidth(static_cast<float>(gl->devicePixelRatioF()));
    for (Label& l : labels) {
        const double widthPx = layout.domainRect(l.domain).width / unitsPerPixel;
        l.actor->SetVisibility(widthPx >= kMinLabelWidthPx[std::min(l.level, 2)]);
    }
}

void FleetMapView::setMetric(MapMetric metric)
{
    if (metric == d->metric)
        return;
    d->metric = metric;
    d->legend->setMetric(metric);
    d->rasterise();
    d->gl->requestRender();
}

MapMetric FleetMapView::metric() const
{
    return d->metric;
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
    QImage map = d->gl->grabFramebuffer(); // renders now (paintGL)
    painter.drawImage(QRectF(d->gl->geometry()), map);
    d->legend->render(&painter, d->legend->pos(), QRegion(), QWidget::DrawChildren);
    painter.end();
    return out;
}

QPoint FleetMapView::cellCenter(NodeId n) const
{
    const CellPos cell = d->layout.nodeCell(n);
    if (!cell.isValid())
        return {};
    const QPointF p = d->toWidget(QPointF(cell.x + 0.5, d->layout.height() - cell.y - 0.5));
    if (p.x() < 0 || p.y() < 0 || p.x() >= d->gl->width() || p.y() >= d->gl->height())
        return {};
    return QPoint(static_cast<int>(std::floor(p.x())), static_cast<int>(std::floor(p.y()))) + d->gl->pos();
}

NodeId FleetMapView::nodeAt(const QPoint& pos) const
{
    const QPoint local = pos - d->gl->pos();
    if (!d->gl->rect().contains(local))
        return {};
    return d->nodeAtGl(QPointF(local) + QPointF(0.5, 0.5));
}

void FleetMapView::resetView()
{
    d->userMovedView = false;
    d->fitView();
    d->gl->requestRender();
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
        const double ratio = aspect / layout.viewAspect();
        if (topology && (ratio > kRelayoutAspectFactor || ratio < 1.0 / kRelayoutAspectFactor)) {
            relayout();
            userMovedView = false;
        }
        if (!userMovedView)
            fitView();
        gl->requestRender();
        return false;
    }
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton)
            return false;
        pressed = true;
        dragging = false;
        pressPos = lastPos = e->position();
        return true;
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
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
                userMovedView = true;
                gl->requestRender();
            }
            lastPos = e->position();
            return true;
        }
        const NodeId n = nodeAtGl(e->position());
        if (n != hovered) {
            hovered = n;
            emit q->nodeHovered(n);
        }
        if (n.isValid()) {
            const CellPos cell = layout.nodeCell(n);
            const QPointF topLeft = toWidget(QPointF(cell.x, layout.height() - cell.y));
            const QPointF bottomRight = toWidget(QPointF(cell.x + 1, layout.height() - cell.y - 1));
            const QRect cellRect = QRectF(topLeft, bottomRight).toAlignedRect();
            QToolTip::showText(e->globalPosition().toPoint(), nodeToolTip(*store, n, metric), gl, cellRect);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton || !pressed)
            return false;
        pressed = false;
        if (dragging) {
            dragging = false;
            gl->unsetCursor();
        } else {
            const NodeId n = nodeAtGl(e->position());
            if (n.isValid())
                emit q->nodeActivated(n);
        }
        return true;
    }
    case QEvent::Wheel: {
        auto* e = static_cast<QWheelEvent*>(event);
        const double steps = e->angleDelta().y() / 120.0;
        if (steps == 0 || layout.width() == 0)
            return true;
        const QPointF anchor = toWorld(e->position());
        const double fitUnits = std::max(
            layout.width() / std::max(1.0, double(gl->width())), layout.height() / std::max(1.0, double(gl->height())));
        const double next = std::clamp(unitsPerPixel * std::pow(0.8, steps), kMinUnitsPerPixel, fitUnits * 4.0);
        // Keep the world point under the cursor where it is.
        centerX = anchor.x() - (e->position().x() - gl->width() / 2.0) * next;
        centerY = anchor.y() + (e->position().y() - gl->height() / 2.0) * next;
        unitsPerPixel = next;
        userMovedView = true;
        gl->requestRender();
        return true;
    }
    case QEvent::Leave:
        if (hovered.isValid()) {
            hovered = {};
            emit q->nodeHovered(hovered);
        }
        return false;
    default:
        return false;
    }
}

} // namespace fleet::views
