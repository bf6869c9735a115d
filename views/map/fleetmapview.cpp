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
#include <QFontMetrics>
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

// Domain labels (see paintLabels()): font pixel size by tree level at most, the smallest
// drawn, and the levels that get label rows in the layout at the default zoom.
constexpr int kLabelFontPx[] = { 13, 13, 12, 11 }; // by level; deeper levels use the last
constexpr int kMinLabelFontPx = 8;
constexpr int kBandedLevels = 2; // region and zone: readable at the default zoom
constexpr int kMaxLabelRows = 12;
constexpr int kMaxLabels = 3000; // per frame; beyond, names are in the tooltip
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
// Relayout when the view's aspect moves this far (factor) from the layout's.
constexpr double kRelayoutAspectFactor = 1.3;
// Relayout when the view's area moves this far (factor) from the layout's: the label rows
// are sized in screen pixels.
constexpr double kRelayoutAreaFactor = 2.0;

void setRgb(double out[3], const QColor& c)
{
    out[0] = c.redF();
    out[1] = c.greenF();
    out[2] = c.blueF();
}

int labelFontPx(int level)
{
    constexpr int last = static_cast<int>(std::size(kLabelFontPx)) - 1;
    return kLabelFontPx[std::clamp(level, 0, last)];
}

} // namespace

/// Transparent widget over the GL widget that paints the domain labels with QPainter in the
/// reserved empty rows above each block (MapLayout::labelGapRows()); mouse events pass
/// through to the map.
class FleetMapLabelOverlay : public QWidget {
public:
    FleetMapLabelOverlay(FleetMapView::Private* owner, QWidget* parent)
        : QWidget(parent)
        , m_owner(owner)
    {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setAttribute(Qt::WA_TranslucentBackground);
        setFocusPolicy(Qt::NoFocus);
    }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    FleetMapView::Private* m_owner;
};

struct FleetMapView::Private {
    FleetMapView* q = nullptr;
    VtkOpenGLWidget* gl = nullptr;
    MapLegend* legend = nullptr;

    std::shared_ptr<const model::ClusterStore> store;
    std::shared_ptr<const model::Topology> topology;
    MapLayout layout;
    QSize layoutViewSize; // the GL widget's size when the layout was built
    MapMetric metric = MapMetric::GpuRequested;
    std::shared_ptr<const model::Metric> metricRef = mapMetric(MapMetric::GpuRequested);
    std::shared_ptr<const model::PriceTable> prices;
    std::shared_ptr<const model::MetricContext> metricContext;

    // VTK scene: one textured quad and one outline actor; the labels are on `overlay`.
    vtkSmartPointer<vtkImageData> image = vtkSmartPointer<vtkImageData>::New();
    vtkSmartPointer<vtkTexture> texture = vtkSmartPointer<vtkTexture>::New();
    vtkSmartPointer<vtkPolyData> quad = vtkSmartPointer<vtkPolyData>::New();
    vtkSmartPointer<vtkActor> quadActor = vtkSmartPointer<vtkActor>::New();
    vtkSmartPointer<vtkPolyData> outlines = vtkSmartPointer<vtkPolyData>::New();
    vtkSmartPointer<vtkActor> outlineActor = vtkSmartPointer<vtkActor>::New();
    FleetMapLabelOverlay* overlay = nullptr;

    // Camera: world coordinates of the view centre and world units (cells) per logical pixel.
    double centerX = 0, centerY = 0, unitsPerPixel = 1;
    bool userMovedView = false;

    // Interaction.
    bool pressed = false;
    bool dragging = false;
    QPointF pressPos, lastPos;
    NodeId hovered;
    // The pointer's last position over the GL widget (its coordinates), while it is inside.
    QPointF pointerPos;
    bool pointerInside = false;

    void buildScene();
    void relayout();
    void rasterise();
    void rebuildOutlines();
    void fitView();
    void requestRender()
    {
        gl->requestRender();
        overlay->update();
    }
    /// Where domain d's label is drawn at the current camera, in GL widget coordinates,
    /// with its font and (possibly elided) text; false when it does not fit or is off screen.
    struct LabelPlacement {
        QRectF box;
        QFont font;
        QString text;
    };
    bool placeLabel(DomainId dom, LabelPlacement& out) const;
    void paintLabels(QPainter& painter) const;
    [[nodiscard]] std::vector<int> labelRowsForView(double pxPerCell) const;
    [[nodiscard]] double fittedPxPerCell(const MapLayout& l) const
    {
        return l.width() == 0
            ? 1.0
            : std::min(std::max(1, gl->width()) / double(l.width()), std::max(1, gl->height()) / double(l.height())) / kFitMargin;
    }
    void applyCamera();
    [[nodiscard]] double viewAspect() const
    {
        return gl->width() > 16 && gl->height() > 16 ? static_cast<double>(gl->width()) / gl->height() : 1.6;
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
    /// Node whose cell holds a position in the GL widget's coordinates, or an invalid id.
    [[nodiscard]] NodeId cellNodeAtGl(const QPointF& glPos) const
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
    [[nodiscard]] NodeId nodeAtGl(const QPointF& glPos) const;
    void refreshHover(bool newCluster);
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
    d->overlay = new FleetMapLabelOverlay(d.get(), d->gl);
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
    d->userMovedView = false;
    d->metricContext = d->store ? std::make_shared<const model::MetricContext>(*d->store, d->prices.get()) : nullptr;
    d->legend->setContext(d->metricContext);
    d->relayout();
    d->fitView();
    d->refreshHover(true);
    d->requestRender();
}

NodeId FleetMapView::Private::nodeAtGl(const QPointF& glPos) const
{
    const NodeId exact = cellNodeAtGl(glPos);
    if (exact.isValid() || !store || layout.width() == 0)
        return exact;
    // On a gutter: the nearest cell within kPickSlopPx screen pixels (distance from the
    // position to the cell's square), scanning the few cells that can be that close;
    // ties go to the first in row-major order. Still arithmetic on the layout.
    const double reach = kPickSlopPx * unitsPerPixel; // in cells
    const QPointF w = toWorld(glPos);
    const double gx = w.x();
    const double gy = layout.height() - w.y();
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
    if ((pointerInside || hovered.isValid()) && QToolTip::isVisible())
        QToolTip::hideText();
    const NodeId n = pointerInside ? nodeAtGl(pointerPos) : NodeId {};
    if (n != hovered || newCluster) {
        hovered = n;
        emit q->nodeHovered(n);
    }
}

std::vector<int> FleetMapView::Private::labelRowsForView(double pxPerCell) const
{
    // Rows so that the region and zone labels fit at the default zoom, `pxPerCell` pixels
    // a cell. The room a label gets is its gap minus the outlines drawn in it (see
    // placeLabel()).
    std::vector<int> rows;
    if (!topology || topology->orderedNodes().empty())
        return rows;
    const int depth = static_cast<int>(topology->levelKeys().size());
    rows.assign(static_cast<std::size_t>(std::min(depth, kBandedLevels) + 1), 0);
    for (int level = 1; level < static_cast<int>(rows.size()); ++level) {
        const int parentHeight = depth - level + 1;
        // The block's own outline, (its height + 1) / 4 = parentHeight / 4 cells out, and
        // those of the siblings above, at most parentHeight / 4 cells below them.
        const double outlinesCells = 0.5 * parentHeight;
        const double needCells = (labelFontPx(level) * 1.25 + 2) / pxPerCell + outlinesCells;
        rows[static_cast<std::size_t>(level)]
            = std::clamp(static_cast<int>(std::ceil(needCells)) - MapLayout::gutterForHeight(parentHeight), 0, kMaxLabelRows);
    }
    return rows;
}

void FleetMapView::Private::relayout()
{
    QElapsedTimer timer;
    timer.start();
    layoutViewSize = gl->size();
    if (topology && !topology->orderedNodes().empty()) {
        // The label rows depend on the pixels per cell, which depend on the layout: guess
        // from the node count, lay out, and lay out once more when the guess left a label
        // level too little room at the default zoom.
        const double areaPx = std::max(1.0, double(gl->width())) * std::max(1.0, double(gl->height()));
        const double guess = std::sqrt(areaPx / (kCellsPerNodeGuess * static_cast<double>(topology->orderedNodes().size())));
        std::vector<int> labelRows = labelRowsForView(guess);
        layout = MapLayout::build(*topology, viewAspect(), labelRows);
        // The rows themselves shrink the cells a little: aim 10% low.
        const std::vector<int> needed = labelRowsForView(fittedPxPerCell(layout) * 0.9);
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
    } else {
        layout = MapLayout {};
    }
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
    const bool visible = layout.width() > 0;
    quadActor->SetVisibility(visible);
    outlineActor->SetVisibility(visible);
    qCDebug(lcFleetMap) << "aspect" << viewAspect() << "gl" << gl->size() << "layout" << layout.width() << "x" << layout.height()
                        << "cells for" << layout.nodeCount() << "nodes in" << layoutMs << "ms";
}

void FleetMapView::Private::rasterise()
{
    if (!store || layout.width() == 0) {
        image->Initialize();
        return;
    }
    const QImage raster = metricContext ? MapRaster::render(*metricContext, layout, *metricRef, legend->column()) : QImage();
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

bool FleetMapView::Private::placeLabel(DomainId dom, LabelPlacement& out) const
{
    // The label's box: in the gap above the block, below the block's own outline (a quarter
    // cell per tree level out) and across it, at the bottom of the gap. MapLayout keeps
    // these rows and columns free of cells, so the label never covers a cell. Every row of
    // blocks gets the whole gap, as the first row does (there the gap is the parent's band,
    // whose outline lies above it): further down, the bottom outlines of the siblings above
    // reach a little into the gap (at most a quarter of the parent's height), and a label
    // as tall as the whole gap covers that stretch of their line. Keeping clear of those
    // lines left the blocks below the first row unlabelled at zooms where the first row was
    // labelled, so they looked as if they belonged to the label above (user trial).
    const CellRect r = layout.domainRect(dom);
    const int gap = layout.labelGapRows(dom);
    if (gap <= 0 || r.width <= 0)
        return false;
    const double e = 0.25 * (layout.domainHeight(dom) + 1);
    const double h = layout.height();
    const QPointF bottomLeft = toWidget(QPointF(r.x - e, h - (r.y - e)));
    const QPointF topRight = toWidget(QPointF(r.x + r.width + e, h - (r.y - gap)));
    // One pixel off the outlines.
    const QRectF room(QPointF(bottomLeft.x() + 1, topRight.y() + 1), QPointF(topRight.x() - 1, bottomLeft.y() - 1));
    if (room.height() < kMinLabelFontPx || room.width() < 3 * kMinLabelFontPx)
        return false;
    if (room.right() < 0 || room.left() > gl->width() || room.bottom() < 0 || room.top() > gl->height())
        return false;
    const int level = topology->domainLevel(dom);
    QFont font = q->font();
    font.setBold(level == 1);
    int px = std::min(labelFontPx(level), static_cast<int>(room.height() / 1.25));
    font.setPixelSize(std::max(1, px));
    QFontMetrics fm(font);
    while (fm.height() > room.height() && px > kMinLabelFontPx) {
        font.setPixelSize(--px);
        fm = QFontMetrics(font);
    }
    if (fm.height() > room.height() || px < kMinLabelFontPx)
        return false;
    const QString name = QString::fromStdString(topology->domainName(dom));
    const int pad = 2;
    QString text = name;
    // A narrow block: a smaller font first, then the name elided.
    while (fm.horizontalAdvance(text) + 2 * pad > room.width() && px > kMinLabelFontPx) {
        font.setPixelSize(--px);
        fm = QFontMetrics(font);
    }
    if (fm.horizontalAdvance(text) + 2 * pad > room.width()) {
        text = fm.elidedText(name, Qt::ElideRight, static_cast<int>(room.width()) - 2 * pad);
        if (text.size() < 5) // fewer than 4 characters of the name left: the tooltip names it
            return false;
    }
    const double textWidth = std::min<double>(fm.horizontalAdvance(text) + 2 * pad, room.width());
    out.box = QRectF(room.left(), room.bottom() - fm.height(), textWidth, fm.height());
    out.font = font;
    out.text = text;
    return true;
}

void FleetMapView::Private::paintLabels(QPainter& painter) const
{
    if (!topology || layout.width() == 0)
        return;
    painter.setRenderHint(QPainter::TextAntialiasing);
    int drawn = 0;
    LabelPlacement placement;
    for (std::uint32_t i = 1; i < topology->domainCount() && drawn < kMaxLabels; ++i) {
        if (!placeLabel(DomainId(i), placement))
            continue;
        painter.fillRect(placement.box, QColor(18, 20, 26, 200));
        painter.setFont(placement.font);
        painter.setPen(QColor(242, 242, 247));
        painter.drawText(placement.box, Qt::AlignCenter, placement.text);
        ++drawn;
    }
}

void FleetMapLabelOverlay::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    m_owner->paintLabels(painter);
}

void FleetMapView::Private::fitView()
{
    // The whole grid fits (its margin and label bands hold the top labels).
    const double w = std::max(1, gl->width());
    const double h = std::max(1, gl->height());
    if (layout.width() == 0) {
        centerX = centerY = 0;
        unitsPerPixel = 1.0;
        return;
    }
    unitsPerPixel = std::max(layout.width() / w, layout.height() / h) * kFitMargin;
    centerX = layout.width() / 2.0;
    centerY = layout.height() / 2.0;
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
}

void FleetMapView::setMetric(MapMetric metric)
{
    setMetric(mapMetric(metric));
}

void FleetMapView::setMetric(std::shared_ptr<const model::Metric> metric)
{
    if (!metric || metric->id() == d->metricRef->id())
        return;
    d->metricRef = std::move(metric);
    d->legend->setMetric(d->metricRef);
    d->metric = d->legend->metric();
    d->rasterise();
    d->requestRender();
}

MapMetric FleetMapView::metric() const
{
    return d->metric;
}

const model::Metric& FleetMapView::currentMetric() const
{
    return *d->metricRef;
}

void FleetMapView::setPrices(std::shared_ptr<const model::PriceTable> prices)
{
    d->prices = std::move(prices);
    d->metricContext = d->store ? std::make_shared<const model::MetricContext>(*d->store, d->prices.get()) : nullptr;
    d->legend->setContext(d->metricContext);
    d->rasterise();
    d->requestRender();
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
    painter.save();
    painter.translate(d->gl->pos());
    painter.setClipRect(QRect(QPoint(0, 0), d->gl->size()));
    d->paintLabels(painter);
    painter.restore();
    if (!d->legend->isHidden()) // a window too small for the legend hides it (fleet::app::MainWindow)
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

NodeId FleetMapView::cellNodeAt(const QPoint& pos) const
{
    const QPoint local = pos - d->gl->pos();
    if (!d->gl->rect().contains(local))
        return {};
    return d->cellNodeAtGl(QPointF(local) + QPointF(0.5, 0.5));
}

void FleetMapView::resetView()
{
    d->userMovedView = false;
    d->fitView();
    d->refreshHover(false);
    d->requestRender();
}

QRect FleetMapView::domainLabelRect(model::DomainId domain) const
{
    if (!d->topology || domain.index() >= d->topology->domainCount() || domain == d->topology->root())
        return {};
    Private::LabelPlacement placement;
    if (!d->placeLabel(domain, placement))
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
        overlay->setGeometry(QRect(QPoint(0, 0), static_cast<QResizeEvent*>(event)->size()));
        const double aspect = viewAspect();
        const double ratio = aspect / layout.viewAspect();
        const double areaRatio = std::max(1.0, double(gl->width()) * gl->height())
            / std::max(1.0, double(layoutViewSize.width()) * layoutViewSize.height());
        if (topology
            && (ratio > kRelayoutAspectFactor || ratio < 1.0 / kRelayoutAspectFactor || areaRatio > kRelayoutAreaFactor
                || areaRatio < 1.0 / kRelayoutAreaFactor)) {
            relayout();
            userMovedView = false;
        }
        if (!userMovedView)
            fitView();
        refreshHover(false);
        requestRender();
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
        pointerPos = e->position();
        pointerInside = true;
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
                refreshHover(false);
                requestRender();
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
            QToolTip::showText(e->globalPosition().toPoint(), nodeToolTip(*metricContext, n, *metricRef, topology.get()), gl, cellRect);
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
        pointerPos = e->position();
        pointerInside = true;
        refreshHover(false);
        requestRender();
        return true;
    }
    case QEvent::Enter:
        pointerPos = static_cast<QEnterEvent*>(event)->position();
        pointerInside = true;
        return false;
    case QEvent::Leave:
        pointerInside = false;
        refreshHover(false);
        return false;
    default:
        return false;
    }
}

// Contract stubs for issue 5; the map's layers implement them.
void FleetMapView::setSelectedNode(NodeId) {}
NodeId FleetMapView::selectedNode() const { return {}; }
void FleetMapView::setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>>) {}
void FleetMapView::setProblemNodes(std::vector<NodeId>) {}
void FleetMapView::zoomToNode(NodeId) {}
void FleetMapView::zoomToDomain(DomainId) {}
void FleetMapView::zoomToSelection() {}
QString FleetMapView::breadcrumbText() const { return {}; }

} // namespace fleet::views
