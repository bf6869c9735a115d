// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the fleet map view: the state FleetMapView::Private holds (cluster, metric,
// camera, layers, picking; fleetmapview.cpp) and the operations its input (FleetMapInput,
// fleetmapinput.h) calls. Not a public header: include it from those two files only.
// Thread: the GUI thread, as FleetMapView.

#include "fleetmapview.h"
#include "views/map/fleetmapinput.h"

#include "views/map/layers/addednodelayer.h"
#include "views/map/layers/breadcrumblayer.h"
#include "views/map/layers/domainframelayer.h"
#include "views/map/layers/layeroverlay.h"
#include "views/map/layers/maplayer.h"
#include "views/map/layers/markerlayer.h"
#include "views/map/layers/planlayer.h"
#include "views/map/maplayout.h"
#include "views/map/maplegend.h"
#include "views/map/mapmetricmodel.h"
#include "views/vtk/vtkopenglwidget.h"

#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QPainter>
#include <QPointF>
#include <QSize>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

// Per-layer paint times, for tuning (QT_LOGGING_RULES="fleet.views.map.paint.debug=true").
Q_DECLARE_LOGGING_CATEGORY(lcFleetMapPaint)

namespace fleet::views {

namespace fleetmap {
// The fitted map leaves this factor of room around the grid.
inline constexpr double kFitMargin = 1.02;
// Zoom limit: a cell at most 256 px wide.
inline constexpr double kMinUnitsPerPixel = 1.0 / 256.0;
} // namespace fleetmap

struct FleetMapView::Private {
    FleetMapView* q = nullptr;
    VtkOpenGLWidget* gl = nullptr;
    MapMetricModel* metrics = nullptr; // the metric, its context and column: the texel layer's and the legend's
    MapLegend* legend = nullptr;

    MapScene scene;
    QSize layoutViewSize; // the GL widget's size when the layout was built
    std::shared_ptr<const model::PriceTable> prices; // for the cost metrics; null: none

    /// A new MetricContext for the store and prices, handed to the metric model, which
    /// computes the metric's column that the texel layer and the legend draw.
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
    /// The device pixel ratio a view that is never shown is drawn at (grabImage()); 0: the screen's.
    double hiddenRatio = 0;
    bool userMovedView = false;
    /// The domain zoomToDomain() framed, framed again at every resize until the view moves
    /// otherwise: a dock that opens beside the map after the zoom (the Domain inspector, which
    /// a heatmap row's click opens) narrows it, and the domain must stay whole in the view.
    model::DomainId zoomedDomain;

    // The mouse, keyboard, drag-and-drop and context-menu gestures (fleetmapinput.h).
    FleetMapInput input { *this };
    model::NodeId hovered; // the store node under the pointer (nodeHovered)
    /// The pod whose strip is drawn at glPos (zoomed in: NodeDetailLayer), or an invalid id.
    [[nodiscard]] model::PodId podAtGl(const QPointF& glPos) const;
    /// What a click, a drop or a context menu at glPos is about: the added node whose square is
    /// there (AddedNodeLayer, drawn above the cells), else the node nodeAtGl() picks.
    [[nodiscard]] model::NodeId targetAtGl(const QPointF& glPos) const
    {
        const model::NodeId added = addedNodes->nodeAt(glPos);
        return added.isValid() ? added : nodeAtGl(glPos);
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
    /// The legend's marker key counts the nodes the marker layer marks, and says which kinds
    /// View > Markers hides.
    void updateMarkerKey()
    {
        const auto& byKind = markers->counts();
        legend->setMarkerCounts(byKind[static_cast<int>(NodeMarkerKind::NotReady)],
            byKind[static_cast<int>(NodeMarkerKind::Cordoned)], byKind[static_cast<int>(NodeMarkerKind::Problem)]);
        legend->setHiddenMarkerKinds(~scene.shownMarkerKinds & 0x7u);
    }
    void relayout();
    /// Lays out again for a new view size and keeps what the user looks at: the node nearest
    /// the view's centre stays at the same place from the centre, and the scale stays.
    void relayoutKeepingView();
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
        c.devicePixelRatio = ratio();
        return c;
    }
    /// Device pixels per logical pixel of the frame: the screen's, or the one set for a view
    /// drawn without being shown (FleetMapView::setHiddenDevicePixelRatio()).
    [[nodiscard]] double ratio() const { return hiddenRatio > 0 && !gl->isVisible() ? hiddenRatio : gl->devicePixelRatioF(); }
    void paintLayers(QPainter& painter) { paintLayers(painter, camera()); }
    /// The layers through `c`; what FleetMapView::grabImageLater()'s worker runs (it reads no widget).
    void paintLayers(QPainter& painter, const MapCamera& c)
    {
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
            * fleetmap::kFitMargin;
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
    [[nodiscard]] model::NodeId cellNodeAtGl(const QPointF& glPos) const
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
    [[nodiscard]] model::NodeId nodeAtGl(const QPointF& glPos) const;
    /// The node under the pointer is n (a store node or invalid): emits nodeHovered when it changed.
    void hoverNode(model::NodeId n)
    {
        if (n != hovered) {
            hovered = n;
            emit q->nodeHovered(n);
        }
    }
    void refreshHover(bool newCluster);
    void showToolTip(model::NodeId n, const QPointF& glPos, const QPoint& globalPos);
    /// The GL widget was resized from oldSize (invalid: unknown): lays out again when its shape
    /// or area moved far from the layout's, fits the map again unless the user moved the view,
    /// and, zoomed in, keeps the selected node where it was on the screen.
    void viewResized(const QSize& oldSize);
    void zoomBy(double factor, const QPointF& anchorGl);
    /// Moves the map with the pointer: dx, dy logical px of the GL widget (a pan drag, the arrows).
    void panByPixels(double dx, double dy)
    {
        centerX -= dx * unitsPerPixel;
        centerY += dy * unitsPerPixel;
        cameraMoved();
    }
    void zoomToCells(double x, double y, double w, double h, double marginFactor);
    void cameraMoved()
    {
        userMovedView = true;
        scene.framedDomain = {}; // the view moved off the domain FleetMapView::frameDomain() framed
        zoomedDomain = {}; // and off the one zoomToDomain() framed (it sets it again after)
        refreshHover(false);
        requestRender();
    }
};

} // namespace fleet::views
