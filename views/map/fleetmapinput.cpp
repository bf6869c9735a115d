// SPDX-License-Identifier: Apache-2.0
// FleetMapView's input: mouse (pan, zoom, hover, click, pod drag), keyboard, drag and drop,
// context menu; the event filter on the GL widget. The view's state is FleetMapView::Private
// (fleetmapview_p.h). Thread: the GUI thread.

#include "fleetmapview_p.h"

#include "views/map/podmime.h"

#include <QContextMenuEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <optional>

namespace fleet::views {

using model::DomainId;
using model::NodeId;

namespace {

// A press and release closer than this (logical px) is a click, not a drag.
constexpr double kClickSlopPx = 4.0;
// Relayout when the view's aspect moves this far (factor) from the layout's: the fitted map
// must fill the view (user trial: 25% of a 1900-px window stayed empty after a resize).
constexpr double kRelayoutAspectFactor = 1.04;
// Relayout when the view's area moves this far (factor) from the layout's: the label rows
// are sized in screen pixels.
constexpr double kRelayoutAreaFactor = 2.0;
// Keyboard: one +/- step zooms by this factor; an arrow pans this share of the view.
constexpr double kKeyZoomFactor = 1.5;
constexpr double kKeyPanShare = 0.2;
} // namespace

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
        // Zoomed in, the selected node stays where it was on the screen (a dock opened beside
        // the map after a click on it must not move it from under the pointer); the fitted map
        // is fitted again.
        const QSize oldSize = static_cast<QResizeEvent*>(event)->oldSize();
        std::optional<QPointF> keepAt;
        if (userMovedView && scene.selected.isValid() && oldSize.isValid()) {
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
        if (const CellPos c = scene.layout.nodeCell(scene.selected); keepAt && c.isValid()) {
            const double wx = c.x + 0.5, wy = scene.layout.height() - c.y - 0.5;
            centerX = wx - (keepAt->x() - gl->width() / 2.0) * unitsPerPixel;
            centerY = wy + (keepAt->y() - gl->height() / 2.0) * unitsPerPixel;
        }
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
        // The right press or Menu key that made this event opened the menu already (below).
        if (menuOpenedFor(e))
            return true;
        // The Menu key's event: Qt places it at the focus widget's input cursor (the map's top
        // middle) when it comes through the top-level window; the menu is for what the key's
        // own press would open it for.
        if (e->reason() == QContextMenuEvent::Keyboard) {
            const QPointF at = keyboardMenuPos();
            requestContextMenu(at, gl->mapToGlobal(at.toPoint()), e->timestamp(), e->reason(), GestureEnds::WithPlatformEvent);
        } else {
            // A pointer's context-menu event is the whole gesture (a right press that opened a
            // menu already was caught above): the next one, however soon, is another request.
            requestContextMenu(e->pos(), e->globalPos(), e->timestamp(), e->reason(), GestureEnds::WithThisEvent);
        }
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
        if (e->button() == Qt::RightButton && !pressed && !podDrag) {
            // Qt 6.4 makes no QContextMenuEvent from a right press on a plain QWindow (the
            // native render window the map draws in), so the press opens the menu itself, as
            // X11 desktops do on the press.
            gl->setFocus(Qt::MouseFocusReason);
            requestContextMenu(e->position(), e->globalPosition().toPoint(), e->timestamp(), QContextMenuEvent::Mouse,
                GestureEnds::WithPlatformEvent);
            return true;
        }
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
        } else if (addedNodes->titleAt(e->position()) && addedNodes->titleAt(pressPos)) {
            // The "Added by the plan" boxes fold to their titles (and back): the cells under them show.
            addedNodes->setFolded(!addedNodes->isFolded());
            notify(MapLayer::SelectionChanged); // a change the layer's kept picture depends on
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

bool FleetMapView::Private::handleKey(QKeyEvent* e)
{
    const QPointF centre(gl->width() / 2.0, gl->height() / 2.0);
    const double panX = gl->width() * kKeyPanShare * unitsPerPixel;
    const double panY = gl->height() * kKeyPanShare * unitsPerPixel;
    switch (e->key()) {
    case Qt::Key_Menu: {
        if (menuOpenedForKey(e))
            return true;
        const QPointF at = keyboardMenuPos();
        requestContextMenu(at, gl->mapToGlobal(at.toPoint()), e->timestamp(), QContextMenuEvent::Keyboard, GestureEnds::WithPlatformEvent);
        return true;
    }
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

void FleetMapView::Private::requestContextMenu(
    const QPointF& glPos, const QPoint& globalPos, quint64 timestamp, QContextMenuEvent::Reason reason, GestureEnds ends)
{
    // The other event of the same gesture, delivered by the open menu's event loop (the X11
    // Menu key makes a context-menu event and a key press): one menu, closed by one Escape.
    if (menuOpened.showing)
        return;
    if (QToolTip::isVisible())
        QToolTip::hideText();
    // Runs the menu's own event loop; the platform's context-menu event for the same gesture
    // (a Qt that makes one, or the X11 Menu key) may come after it closes.
    menuOpened.showing = true;
    menuOpened.closed.invalidate();
    emit q->contextMenuRequested(targetAtGl(glPos), frames->labelAt(glPos), globalPos);
    menuOpened.showing = false;
    menuOpened.reason = reason;
    menuOpened.timestamp = timestamp;
    if (ends == GestureEnds::WithPlatformEvent)
        menuOpened.closed.start();
}

QPointF FleetMapView::Private::keyboardMenuPos() const
{
    // The pointer's node when the pointer is over the map, else the selected node's cell,
    // else the view's centre.
    if (scene.pointerInside)
        return scene.pointerPos;
    if (const QPoint cell = q->cellCenter(scene.selected); !cell.isNull())
        return QPointF(cell - gl->pos());
    return QPointF(gl->width() / 2.0, gl->height() / 2.0);
}

bool FleetMapView::Private::sameGestureAsMenu(QContextMenuEvent::Reason reason, quint64 timestamp)
{
    // Same gesture: the event carries the press's or key's timestamp, or it follows the menu at
    // once (the X11 Menu key's event has a time of its own). Either way, one event is matched
    // to the gesture at most: the next one is a request of its own.
    constexpr qint64 kSameGestureMs = 300;
    if (!menuOpened.closed.isValid() || reason != menuOpened.reason)
        return false;
    const bool same = (timestamp != 0 && timestamp == menuOpened.timestamp) || menuOpened.closed.elapsed() < kSameGestureMs;
    menuOpened.closed.invalidate();
    return same;
}

bool FleetMapView::Private::menuOpenedForKey(const QKeyEvent* e)
{
    if (menuOpened.showing)
        return true;
    return !e->isAutoRepeat() && sameGestureAsMenu(QContextMenuEvent::Keyboard, e->timestamp());
}

bool FleetMapView::Private::menuOpenedFor(const QContextMenuEvent* e)
{
    return sameGestureAsMenu(e->reason(), e->timestamp());
}

} // namespace fleet::views
