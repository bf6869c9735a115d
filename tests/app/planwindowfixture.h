// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the what-if window tests (tst_plan*.cpp under tests/app, run under xvfb-run): a main
// window on a small simulated cluster with its plan engine ready, mouse events sent to the
// map's GL widget, the pixel of a pod's strip on the zoomed map, and a hook that acts on the
// next popup menu or modal dialog (a context menu, a file dialog) once it shows.

#include "common/pixelchecks.h"
#include "app/window/mainwindow.h"
#include "app/controllers/plancontroller.h"
#include "model/scheduling/filters.h"
#include "views/map/fleetmapview.h"
#include "views/vtk/vtkopenglwidget.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <cstdlib>
#include <functional>
#include <memory>

namespace planwindow {

using namespace fleet;

using fleet::testing::near;

/// The map's GL widget (mouse events go there; its position in the map is gl->pos()).
inline QWidget* glOf(const views::FleetMapView* map) { return map->findChild<views::VtkOpenGLWidget*>(); }

/// A mouse event at `pos` in the map's coordinates, sent to its GL widget.
inline void sendMouse(views::FleetMapView* map, QEvent::Type type, const QPoint& pos, Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = {})
{
    QWidget* gl = glOf(map);
    const QPoint at = pos - gl->pos();
    QMouseEvent e(type, QPointF(at), QPointF(gl->mapToGlobal(at)), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons, mods);
    QApplication::sendEvent(gl, &e);
}

/// A shown main window on the simulated cluster (nodes, seed, regions: importers::
/// SimulationSpec::regionCount) with its plan engine built and the map coloured by cpu
/// requested; null when it did not get there in time.
inline std::unique_ptr<app::MainWindow> openWindow(std::size_t nodes = 240, std::uint64_t seed = 3, std::size_t regions = 1)
{
    auto window = std::make_unique<app::MainWindow>();
    window->resize(1400, 900);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    QSignalSpy shown(window.get(), &app::MainWindow::clusterShown);
    window->openSimulated(nodes, seed, std::nullopt, regions);
    if (!shown.wait(30000))
        return nullptr;
    QSignalSpy ready(window->planController(), &app::PlanController::engineReady);
    if (!window->planController()->engine() && !ready.wait(30000))
        return nullptr;
    if (!window->setMetric(QStringLiteral("cpu")))
        return nullptr;
    return window;
}

/// The first pod (by id) that can move to another node under `state`, and that node: a counted
/// pod that is not a DaemonSet or mirror pod, the filters' first feasible node (PodFeasibility).
/// False when none can.
inline bool findFeasibleMove(const model::PlanLedger& state, model::PodId& pod, model::NodeId& to)
{
    const model::ClusterStore& store = state.store();
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        if (!store.podIsCounted(p) || store.podOwnerKind(p) == model::OwnerKind::DaemonSet || store.podIsMirror(p))
            continue;
        const model::PodFeasibility f(state, p);
        for (std::uint32_t j = 0; j < store.nodeCount(); ++j)
            if (model::NodeId(j) != store.podNode(p) && f.feasible(model::NodeId(j))) {
                pod = p;
                to = model::NodeId(j);
                return true;
            }
    }
    return false;
}

/// A pixel (map coordinates) of pod p's strip once the map is zoomed to node n (it zooms and
/// renders); a null point when no strip of p is drawn in n's cell.
inline QPoint podPixel(views::FleetMapView* map, model::NodeId n, model::PodId p)
{
    map->zoomToNode(n);
    map->grabImage();
    const QRectF cell = map->cellRect(n);
    // The middle of the first run of its pixels: podAt() reads a pixel's centre, a press its
    // corner, so an edge pixel could press the neighbouring strip.
    for (int y = static_cast<int>(cell.center().y()) + 1; y < cell.bottom(); ++y)
        for (int x = static_cast<int>(cell.left()) + 2; x < cell.right() - 2; ++x) {
            if (map->podAt(QPoint(x, y)) != p)
                continue;
            int end = x;
            while (end + 1 < cell.right() && map->podAt(QPoint(end + 1, y)) == p)
                ++end;
            if (end - x >= 2)
                return QPoint((x + end + 1) / 2, y);
            x = end;
        }
    return {};
}

/// Saves a grab of the whole window as DIR/NAME.png and of the map as DIR/NAME-map.png when FLEET_SCREENSHOT_DIR=DIR is set (to look
/// at what a test saw, as a user would); does nothing otherwise.
inline void saveScreenshot(app::MainWindow* window, const QString& name)
{
    const QString dir = qEnvironmentVariable("FLEET_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    window->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
    window->mapView()->grabImage().save(dir + QLatin1Char('/') + name + QStringLiteral("-map.png")); // the GL part, as rendered
}

/// Calls `act` with the next popup (QMenu) or modal dialog once one shows, polling every 20 ms
/// for up to 10 s; the caller then runs what opens it (QMenu::exec, QFileDialog).
inline void whenShown(std::function<void(QWidget*)> act)
{
    auto* tries = new int(0);
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, tries, act] {
        QWidget* w = QApplication::activePopupWidget();
        if (!w)
            w = QApplication::activeModalWidget();
        if (w || ++*tries > 500) {
            timer->stop();
            timer->deleteLater();
            delete tries;
            if (w)
                act(w);
        }
    });
    timer->start();
}

/// Right-clicks domain d's label (the map zoomed to d) and triggers the context menu's action
/// named `actionName`; false when the label is not drawn or the menu lacks the action.
inline bool triggerLabelMenuAction(views::FleetMapView* map, model::DomainId d, const QString& actionName)
{
    map->zoomToDomain(d);
    map->grabImage();
    const QRect label = map->domainLabelRect(d);
    if (label.isNull() || map->domainLabelAt(label.center()) != d)
        return false;
    bool found = false;
    whenShown([&](QWidget* w) {
        auto* menu = qobject_cast<QMenu*>(w);
        if (!menu)
            return;
        if (QAction* a = menu->findChild<QAction*>(actionName)) {
            found = true;
            a->trigger();
        }
        menu->close();
    });
    QWidget* gl = glOf(map);
    const QPoint at = label.center() - gl->pos();
    QContextMenuEvent e(QContextMenuEvent::Mouse, at, gl->mapToGlobal(at));
    QApplication::sendEvent(gl, &e);
    return found;
}

} // namespace planwindow
