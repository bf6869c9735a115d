// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the fleet map view: the state FleetMapView::Private holds and the inline helpers
// that fleetmapview.cpp (cluster, metric, camera, queries) and fleetmapinput.cpp (mouse,
// keyboard, drag and drop) share. Not a public header: include it from those two files only.
// Thread: the GUI thread, as FleetMapView.

#include "fleetmapview.h"

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

    // Interaction.
    bool pressed = false;
    bool dragging = false;
    QPointF pressPos, lastPos;
    model::DomainId pressLabel;
    model::NodeId hovered;
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
    [[nodiscard]] model::NodeId targetAtGl(const QPointF& glPos) const
    {
        const model::NodeId added = addedNodes->nodeAt(glPos);
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
    void refreshHover(bool newCluster);
    void showToolTip(model::NodeId n, const QPointF& glPos, const QPoint& globalPos);
    bool handleEvent(QEvent* event);
    /// Whether the gesture that asked for a menu may still send the platform's context-menu
    /// event (a right press, the Menu key: Qt's xcb plugin sends both a press and that event)
    /// or was that event itself (a pointer's context-menu event: nothing else of it follows).
    enum class GestureEnds { WithPlatformEvent, WithThisEvent };
    /// Emits contextMenuRequested for what is at glPos, and, when the gesture may still send
    /// another event (`ends`), remembers it so that that event opens no second menu.
    void requestContextMenu(const QPointF& glPos, const QPoint& globalPos, quint64 timestamp, QContextMenuEvent::Reason reason,
        GestureEnds ends);
    /// The one rule for both kinds of follow-up event: true when an event of `reason` at
    /// `timestamp` belongs to the gesture that opened the last menu (consumes the match).
    [[nodiscard]] bool sameGestureAsMenu(QContextMenuEvent::Reason reason, quint64 timestamp);
    /// The platform's context-menu event of the gesture that opened the menu: opens no second one.
    [[nodiscard]] bool menuOpenedFor(const QContextMenuEvent* e);
    /// The Menu key's press that follows the platform's context-menu event for the same key
    /// (Qt's xcb plugin sends that event first, then the press): it opens no second menu.
    [[nodiscard]] bool menuOpenedForKey(const QKeyEvent* e);
    /// Where the Menu key opens the menu (view coordinates): the pointer over the map, else the
    /// selected node's cell, else the view's centre.
    [[nodiscard]] QPointF keyboardMenuPos() const;
    struct {
        QContextMenuEvent::Reason reason = QContextMenuEvent::Mouse;
        quint64 timestamp = 0;
        QElapsedTimer closed; // since the menu closed; invalid: no gesture to match
        bool showing = false; // a menu of this view is open (its own event loop runs)
    } menuOpened;
    bool handleKey(QKeyEvent* event);
    void zoomBy(double factor, const QPointF& anchorGl);
    void zoomToCells(double x, double y, double w, double h, double marginFactor);
    void cameraMoved()
    {
        userMovedView = true;
        scene.framedDomain = {}; // the view moved off the domain FleetMapView::frameDomain() framed
        refreshHover(false);
        requestRender();
    }
};

} // namespace fleet::views
