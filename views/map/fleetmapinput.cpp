// SPDX-License-Identifier: Apache-2.0
// The fleet map's input (fleetmapinput.h): mouse (pan, zoom, hover, click, pod drag), keyboard,
// drag and drop, context menu. Thread: the GUI thread.

#include "fleetmapinput.h"

#include "fleetmapview_p.h"

#include "views/map/podmime.h"

#include <QContextMenuEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
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
// Keyboard: one +/- step zooms by this factor; an arrow pans this share of the view.
constexpr double kKeyZoomFactor = 1.5;
constexpr double kKeyPanShare = 0.2;
} // namespace

FleetMapInput::FleetMapInput(FleetMapView::Private& view)
    : m_view(view)
{
}

void FleetMapInput::endPodDrag()
{
    m_podDrag = m_externalDrag = false;
    m_pressPod = {};
    m_view.gl->unsetCursor();
}

void FleetMapInput::emitDragMove(const QPointF& glPos, const QPoint& globalPos, Qt::KeyboardModifiers modifiers)
{
    emit m_view.q->podDragMoved(m_view.targetAtGl(glPos), m_view.frames->labelAt(glPos), globalPos, modifiers);
}

bool FleetMapInput::handleEvent(QEvent* event)
{
    switch (event->type()) {
    case QEvent::Show:
    case QEvent::WindowActivate:
        // Nothing in the window has the focus yet: the map takes it, so the keyboard works
        // before the first click, and Qt gives it back when a dialog closes.
        // Queued: during its Show event the widget is not visible yet and cannot take it.
        QTimer::singleShot(0, m_view.gl, [g = m_view.gl] {
            if (QWidget* w = g->window(); w && !w->focusWidget() && g->isVisible())
                g->setFocus(Qt::OtherFocusReason);
        });
        return false;
    case QEvent::KeyPress:
        if (m_podDrag && !m_externalDrag && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
            m_pressed = false;
            endPodDrag();
            emit m_view.q->podDragCancelled();
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
            requestContextMenu(at, m_view.gl->mapToGlobal(at.toPoint()), e->timestamp(), e->reason(), GestureEnds::WithPlatformEvent);
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
        if (!pod.isValid() || !m_view.scene.store || pod.index() >= m_view.scene.store->podCount())
            return false;
        e->acceptProposedAction();
        m_podDrag = m_externalDrag = true;
        emit m_view.q->podDragStarted(pod, e->modifiers());
        emitDragMove(e->position(), m_view.gl->mapToGlobal(e->position().toPoint()), e->modifiers());
        return true;
    }
    case QEvent::DragMove: {
        auto* e = static_cast<QDragMoveEvent*>(event);
        if (!m_externalDrag)
            return false;
        e->acceptProposedAction();
        emitDragMove(e->position(), m_view.gl->mapToGlobal(e->position().toPoint()), e->modifiers());
        return true;
    }
    case QEvent::DragLeave:
        if (!m_externalDrag)
            return false;
        endPodDrag();
        emit m_view.q->podDragCancelled();
        return true;
    case QEvent::Drop: {
        auto* e = static_cast<QDropEvent*>(event);
        if (!m_externalDrag)
            return false;
        e->acceptProposedAction();
        endPodDrag();
        // The keyboard follows the drop onto the map, as it follows a click: a drag from the
        // inspector's pod table left it in that dock (its filter field), where the map's keys
        // and Undo went to the field's text.
        m_view.gl->setFocus(Qt::MouseFocusReason);
        emit m_view.q->podDropped(m_view.targetAtGl(e->position()), m_view.frames->labelAt(e->position()), m_view.gl->mapToGlobal(e->position().toPoint()),
            e->modifiers());
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() == Qt::RightButton && !m_pressed && !m_podDrag) {
            // Qt 6.4 makes no QContextMenuEvent from a right press on a plain QWindow (the
            // native render window the map draws in), so the press opens the menu itself, as
            // X11 desktops do on the press.
            m_view.gl->setFocus(Qt::MouseFocusReason);
            requestContextMenu(e->position(), e->globalPosition().toPoint(), e->timestamp(), QContextMenuEvent::Mouse,
                GestureEnds::WithPlatformEvent);
            return true;
        }
        if (e->button() != Qt::LeftButton)
            return false;
        m_view.gl->setFocus(Qt::MouseFocusReason);
        m_pressed = true;
        m_dragging = false;
        m_pressPos = m_lastPos = e->position();
        m_pressLabel = m_view.frames->labelAt(e->position());
        m_pressPod = m_view.podAtGl(e->position());
        return true;
    }
    case QEvent::MouseButtonDblClick: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton)
            return false;
        if (const DomainId dom = m_view.frames->labelAt(e->position()); dom.isValid()) {
            m_view.q->zoomToDomain(dom);
        } else if (const NodeId n = m_view.nodeAtGl(e->position()); n.isValid()) {
            m_view.q->zoomToNode(n);
        }
        m_pressed = false;
        return true;
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        m_view.scene.pointerPos = e->position();
        m_view.scene.pointerInside = true;
        if (m_pressed && m_podDrag) {
            emitDragMove(e->position(), e->globalPosition().toPoint(), e->modifiers());
            return true;
        }
        if (m_pressed && m_pressPod.isValid() && QLineF(m_pressPos, e->position()).length() > kClickSlopPx) {
            m_podDrag = true;
            QToolTip::hideText();
            m_view.gl->setCursor(Qt::DragMoveCursor);
            emit m_view.q->podDragStarted(m_pressPod, e->modifiers());
            emitDragMove(e->position(), e->globalPosition().toPoint(), e->modifiers());
            return true;
        }
        if (m_pressed) {
            if (!m_dragging && QLineF(m_pressPos, e->position()).length() > kClickSlopPx) {
                m_dragging = true;
                QToolTip::hideText();
                m_view.gl->setCursor(Qt::ClosedHandCursor);
            }
            if (m_dragging) {
                const QPointF delta = e->position() - m_lastPos;
                m_view.panByPixels(delta.x(), delta.y());
            }
            m_lastPos = e->position();
            return true;
        }
        // A node the plan added (drawn by AddedNodeLayer, not in the store): its own tooltip; a
        // click selects it (its inspector reads the plan), hover reports no store node.
        const NodeId added = m_view.addedNodes->nodeAt(e->position());
        const NodeId n = added.isValid() ? NodeId {} : m_view.nodeAtGl(e->position());
        m_view.hoverNode(n);
        if (added.isValid())
            QToolTip::showText(e->globalPosition().toPoint(), AddedNodeLayer::toolTip(m_view.scene, added), m_view.gl);
        else
            m_view.showToolTip(n, e->position(), e->globalPosition().toPoint());
        if (!BreadcrumbLayer::text(m_view.scene, m_view.camera()).isEmpty())
            m_view.requestRender();
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton || !m_pressed)
            return false;
        m_pressed = false;
        if (m_podDrag) {
            endPodDrag();
            emit m_view.q->podDropped(m_view.targetAtGl(e->position()), m_view.frames->labelAt(e->position()), e->globalPosition().toPoint(),
                e->modifiers());
            return true;
        }
        m_pressPod = {};
        if (m_dragging) {
            m_dragging = false;
            m_view.gl->unsetCursor();
        } else if (m_view.addedNodes->titleAt(e->position()) && m_view.addedNodes->titleAt(m_pressPos)) {
            // The "Added by the plan" boxes fold to their titles (and back): the cells under them show.
            m_view.addedNodes->setFolded(!m_view.addedNodes->isFolded());
            m_view.notify(MapLayer::SelectionChanged); // a change the layer's kept picture depends on
        } else if (m_pressLabel.isValid() && m_view.frames->labelAt(e->position()) == m_pressLabel) {
            emit m_view.q->domainActivated(m_pressLabel);
        } else {
            const NodeId n = m_view.targetAtGl(e->position());
            if (n.isValid()) {
                m_view.q->setSelectedNode(n);
                emit m_view.q->nodeActivated(n);
            }
        }
        return true;
    }
    case QEvent::Wheel: {
        auto* e = static_cast<QWheelEvent*>(event);
        const double steps = e->angleDelta().y() / 120.0;
        if (steps == 0 || m_view.scene.layout.width() == 0)
            return true;
        m_view.scene.pointerPos = e->position();
        m_view.scene.pointerInside = true;
        m_view.zoomBy(std::pow(1.25, steps), e->position());
        return true;
    }
    case QEvent::Enter:
        // The pointer counts only from its first real move: a window that appears under a
        // resting pointer gets an Enter, and took it for a hover (user trial: the headless
        // screenshot named a node in its status bar that nobody pointed at).
        return false;
    case QEvent::Leave:
        m_view.scene.pointerInside = false;
        m_view.refreshHover(false);
        m_view.requestRender();
        return false;
    default:
        return false;
    }
}

bool FleetMapInput::handleKey(QKeyEvent* e)
{
    const QPointF centre(m_view.gl->width() / 2.0, m_view.gl->height() / 2.0);
    const double panXPx = m_view.gl->width() * kKeyPanShare;
    const double panYPx = m_view.gl->height() * kKeyPanShare;
    switch (e->key()) {
    case Qt::Key_Menu: {
        if (menuOpenedForKey(e))
            return true;
        const QPointF at = keyboardMenuPos();
        requestContextMenu(at, m_view.gl->mapToGlobal(at.toPoint()), e->timestamp(), QContextMenuEvent::Keyboard, GestureEnds::WithPlatformEvent);
        return true;
    }
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        m_view.zoomBy(kKeyZoomFactor, centre);
        return true;
    case Qt::Key_Minus:
        m_view.zoomBy(1.0 / kKeyZoomFactor, centre);
        return true;
    case Qt::Key_Left:
        m_view.panByPixels(panXPx, 0);
        return true;
    case Qt::Key_Right:
        m_view.panByPixels(-panXPx, 0);
        return true;
    case Qt::Key_Up:
        m_view.panByPixels(0, panYPx);
        return true;
    case Qt::Key_Down:
        m_view.panByPixels(0, -panYPx);
        return true;
    case Qt::Key_Home:
        m_view.q->resetView();
        return true;
    case Qt::Key_0:
        if (e->modifiers() & Qt::ControlModifier) {
            m_view.q->resetView();
            return true;
        }
        return false;
    case Qt::Key_Z:
        if (e->modifiers() == Qt::NoModifier) {
            m_view.q->zoomToSelection();
            return true;
        }
        return false;
    default:
        return false;
    }
}

void FleetMapInput::requestContextMenu(
    const QPointF& glPos, const QPoint& globalPos, quint64 timestamp, QContextMenuEvent::Reason reason, GestureEnds ends)
{
    // The other event of the same gesture, delivered by the open menu's event loop (the X11
    // Menu key makes a context-menu event and a key press): one menu, closed by one Escape.
    if (m_menuOpened.showing)
        return;
    if (QToolTip::isVisible())
        QToolTip::hideText();
    // Runs the menu's own event loop; the platform's context-menu event for the same gesture
    // (a Qt that makes one, or the X11 Menu key) may come after it closes.
    m_menuOpened.showing = true;
    m_menuOpened.closed.invalidate();
    emit m_view.q->contextMenuRequested(m_view.targetAtGl(glPos), m_view.frames->labelAt(glPos), globalPos);
    m_menuOpened.showing = false;
    m_menuOpened.reason = reason;
    m_menuOpened.timestamp = timestamp;
    if (ends == GestureEnds::WithPlatformEvent)
        m_menuOpened.closed.start();
}

QPointF FleetMapInput::keyboardMenuPos() const
{
    // The pointer's node when the pointer is over the map, else the selected node's cell,
    // else the view's centre.
    if (m_view.scene.pointerInside)
        return m_view.scene.pointerPos;
    if (const QPoint cell = m_view.q->cellCenter(m_view.scene.selected); !cell.isNull())
        return QPointF(cell - m_view.gl->pos());
    return QPointF(m_view.gl->width() / 2.0, m_view.gl->height() / 2.0);
}

bool FleetMapInput::sameGestureAsMenu(QContextMenuEvent::Reason reason, quint64 timestamp)
{
    // Same gesture: the event carries the press's or key's timestamp, or it follows the menu at
    // once (the X11 Menu key's event has a time of its own). Either way, one event is matched
    // to the gesture at most: the next one is a request of its own.
    constexpr qint64 kSameGestureMs = 300;
    if (!m_menuOpened.closed.isValid() || reason != m_menuOpened.reason)
        return false;
    const bool same = (timestamp != 0 && timestamp == m_menuOpened.timestamp) || m_menuOpened.closed.elapsed() < kSameGestureMs;
    m_menuOpened.closed.invalidate();
    return same;
}

bool FleetMapInput::menuOpenedForKey(const QKeyEvent* e)
{
    if (m_menuOpened.showing)
        return true;
    return !e->isAutoRepeat() && sameGestureAsMenu(QContextMenuEvent::Keyboard, e->timestamp());
}

bool FleetMapInput::menuOpenedFor(const QContextMenuEvent* e)
{
    return sameGestureAsMenu(e->reason(), e->timestamp());
}

} // namespace fleet::views
