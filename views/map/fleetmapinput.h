// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private to the fleet map: include it from fleetmapview_p.h and fleetmapinput.cpp only.

#include "views/map/fleetmapview.h"

#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QPointF>

class QEvent;
class QKeyEvent;

namespace fleet::views {

/// The fleet map's input: turns the GL widget's mouse, wheel, keyboard, drag-and-drop and
/// context-menu events into the view's gestures. A left drag pans, the wheel and +/- zoom
/// (around the pointer, the view's centre), the arrows pan a fifth of the view, Home and
/// Ctrl+0 reset, Z zooms to the selection; a click selects (nodeActivated), on a domain label
/// activates it (domainActivated), a double-click zooms to the node or domain; a press on a pod
/// strip moved past the click slop (4 px), or a drag with pod mime data from another widget,
/// is a pod drag (podDragStarted, podDragMoved, podDropped, podDragCancelled on Escape or when
/// it leaves); a right press, a pointer's context-menu event or the Menu key asks for one
/// context menu per gesture (contextMenuRequested).
///
/// Owns the gesture's state only: the press, the pan drag, the pod drag, and which gesture
/// opened the last context menu. Reads from the view (FleetMapView::Private): the scene (store,
/// layout, selection), the camera, the GL widget's size and position, and the view's picking
/// (nodeAtGl(), targetAtGl(), podAtGl(), the layers' labelAt(), nodeAt() and titleAt()).
/// Changes the view only through its Private's operations (panByPixels(), zoomBy(),
/// hoverNode(), showToolTip(), refreshHover(), notify()), the pointer's position in the scene,
/// and FleetMapView's public slots; emits FleetMapView's signals. Picking is the view's
/// arithmetic on the layout (fleetmapview.h), never done here.
///
/// Thread: the GUI thread, as the view. Lives as long as the view's Private, which holds it.
class FleetMapInput {
public:
    explicit FleetMapInput(FleetMapView::Private& view);
    FleetMapInput(const FleetMapInput&) = delete;
    FleetMapInput& operator=(const FleetMapInput&) = delete;

    /// Handles one event of the GL widget (FleetMapView's event filter); true when it is
    /// consumed. Resize is the view's (FleetMapView::Private::viewResized()), not handled here.
    bool handleEvent(QEvent* event);
    /// True from podDragStarted until podDropped or podDragCancelled.
    [[nodiscard]] bool isDraggingPod() const { return m_podDrag; }
    /// Ends a pod drag without a signal, and forgets a pressed pod (a new cluster).
    void endPodDrag();

private:
    /// Whether the gesture that asked for a menu may still send the platform's context-menu
    /// event (a right press, the Menu key: Qt's xcb plugin sends both a press and that event)
    /// or was that event itself (a pointer's context-menu event: nothing else of it follows).
    enum class GestureEnds { WithPlatformEvent, WithThisEvent };

    bool handleKey(QKeyEvent* event);
    void emitDragMove(const QPointF& glPos, const QPoint& globalPos, Qt::KeyboardModifiers modifiers);
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

    FleetMapView::Private& m_view;

    bool m_pressed = false; // a left press not yet released
    bool m_dragging = false; // the press moved past the click slop: a pan
    QPointF m_pressPos, m_lastPos; // GL widget coordinates
    model::DomainId m_pressLabel; // the domain label under the press
    // What-if: a press on a pod strip drags the pod instead of panning (m_podDrag), as does a
    // drag with pod mime data from another widget (m_externalDrag).
    model::PodId m_pressPod;
    bool m_podDrag = false;
    bool m_externalDrag = false;
    struct {
        QContextMenuEvent::Reason reason = QContextMenuEvent::Mouse;
        quint64 timestamp = 0;
        QElapsedTimer closed; // since the menu closed; invalid: no gesture to match
        bool showing = false; // a menu of this view is open (its own event loop runs)
    } m_menuOpened;
};

} // namespace fleet::views
