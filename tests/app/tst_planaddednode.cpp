// SPDX-License-Identifier: Apache-2.0
// A node added by the plan in the window, under xvfb-run with real events: the map's
// context menu on a node offers Add a Node Like it (one AddNode, one undo step); the added node,
// which has no cell in the layout, is drawn as a square in an "Added by the plan" box under its
// domain (AddedNodeLayer), found there by the map's picking (addedNodeAt) with its own tooltip,
// and gone again after undo. A click on the square selects it and opens it in the node
// inspector (its template's allocatable, its own name and labels); a pod dragged onto it with
// mouse events is moved there by the plan; its context menu fails it like any node.

#include "planwindowfixture.h"

#include "app/window/explorepanels.h"
#include "app/startup/surfaceformat.h"
#include "model/scheduling/filters.h"
#include "views/inspectors/nodeinspector.h"
#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/nodepodsmodel.h"
#include "views/itemmodels/noderesourcesmodel.h"
#include "views/map/layers/addednodelayer.h"
#include "views/plan/planactionsmodel.h"
#include "views/plan/planpanel.h"

#include "views/map/layers/selectionlayer.h"

#include "common/guitestmain.h"

#include <QContextMenuEvent>
#include <QWheelEvent>
#include <QTreeWidget>
#include <QMenu>
#include <QUndoStack>

using namespace fleet;
using namespace planwindow;

class TestPlanAddedNode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void addedNodeIsDrawnAndPicked();
    void addedNodeIsSelectedInspectedAndADropTarget();
    void addedBoxHidesNoCellsAndFolds();
    void addNodeLikeAFailedNodeIsRefused();

private:
    /// The first position (map coordinates, 2 px steps) where the map draws an added node.
    QPoint findAddedSquare(model::NodeId& n) const
    {
        for (int y = 0; y < map()->height(); y += 2)
            for (int x = 0; x < map()->width(); x += 2)
                if ((n = map()->addedNodeAt(QPoint(x, y))).isValid())
                    return { x, y };
        return {};
    }
    views::FleetMapView* map() const { return m_window->mapView(); }
    std::unique_ptr<app::MainWindow> m_window;
};

void TestPlanAddedNode::initTestCase()
{
    m_window = openWindow();
    QVERIFY(m_window);
}

void TestPlanAddedNode::cleanupTestCase() { m_window.reset(); }

void TestPlanAddedNode::addedNodeIsDrawnAndPicked()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::NodeId like(7);
    QVERIFY(!store.nodeInstanceType(like).empty());
    map()->zoomToNode(like);
    map()->grabImage();
    model::NodeId none;
    QVERIFY(findAddedSquare(none).isNull());

    bool found = false;
    whenShown([&](QWidget* w) {
        auto* menu = qobject_cast<QMenu*>(w);
        if (!menu)
            return;
        if (QAction* a = menu->findChild<QAction*>(QStringLiteral("actionAddNodeLike"))) {
            found = true;
            a->trigger();
        }
        menu->close();
    });
    const QPoint at = map()->cellCenter(like);
    QWidget* gl = glOf(map());
    QContextMenuEvent e(QContextMenuEvent::Mouse, at - gl->pos(), gl->mapToGlobal(at - gl->pos()));
    QApplication::sendEvent(gl, &e);
    QVERIFY(found);
    QCOMPARE(engine->applied().size(), std::size_t(1));
    const model::AppliedAction& applied = engine->applied()[0];
    QCOMPARE(applied.action.type, model::ActionType::AddNode);
    QCOMPARE(applied.action.instanceType, std::string(store.nodeInstanceType(like)));
    QCOMPARE(applied.nodesAdded.size(), std::size_t(1));
    QCOMPARE(m_window->undoStack()->count(), 1);
    const model::NodeId added = applied.nodesAdded[0];
    QVERIFY(added.index() >= store.nodeCount());
    // Its template: a node of that type in the same domain (the engine's pick, not always `like`).
    QCOMPARE(store.nodeInstanceType(engine->state().nodeTemplate(added)), store.nodeInstanceType(like));

    // Drawn and picked: the zoomed-out map too (the box keeps a fixed size on screen).
    for (const bool fitted : { false, true }) {
        if (fitted)
            map()->resetView();
        const QImage image = map()->grabImage();
        model::NodeId picked;
        const QPoint square = findAddedSquare(picked);
        QVERIFY2(!square.isNull(), fitted ? "no added node drawn on the fitted map" : "no added node drawn zoomed in");
        QCOMPARE(picked, added);
        // The square's colour: the empty node's pale teal (no pods on it yet) or its dashed outline.
        const qreal dpr = image.devicePixelRatio();
        const QPoint glAt = square - gl->pos() + QPoint(views::AddedNodeLayer::kSquarePx / 2, views::AddedNodeLayer::kSquarePx / 2);
        const QColor c = image.pixelColor(QPoint(qRound(glAt.x() * dpr), qRound(glAt.y() * dpr)));
        QVERIFY2(near(c, QColor(210, 240, 238), 12) || near(c, views::AddedNodeLayer::addedColor().darker(140), 40),
            qPrintable(c.name()));
        // Its tooltip names it and its template; no store node is hovered there.
        const QString tip = map()->addedNodeToolTip(added);
        QVERIFY2(tip.contains(QString::fromStdString(std::string(engine->state().nodeName(added)))), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("added by the plan, like ") + QString::fromStdString(std::string(store.nodeName(engine->state().nodeTemplate(added))))),
            qPrintable(tip));
        QVERIFY(map()->addedNodeToolTip(like).isEmpty());
        saveScreenshot(m_window.get(), fitted ? QStringLiteral("added-node-fitted") : QStringLiteral("added-node-zoomed"));
    }

    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
    map()->grabImage();
    QVERIFY(findAddedSquare(none).isNull());
}

void TestPlanAddedNode::addedNodeIsSelectedInspectedAndADropTarget()
{
    app::PlanController* plan = m_window->planController();
    const auto engine = plan->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::NodeId like(7);
    QVERIFY(plan->addNodeLike(like));
    const model::NodeId added = engine->applied().back().nodesAdded.at(0);
    const model::NodeId templ = engine->state().nodeTemplate(added);
    const QString name = QString::fromStdString(std::string(engine->state().nodeName(added)));

    // A pod on `like` that the added node can take (same instance type: most can).
    model::PodId pod;
    for (const model::PodId p : engine->state().nodePods(like))
        if (store.podOwnerKind(p) != model::OwnerKind::DaemonSet && !store.podIsMirror(p) && model::PodFeasibility(engine->state(), p).feasible(added)) {
            pod = p;
            break;
        }
    QVERIFY2(pod.isValid(), "no pod of the template's node fits the added node");
    QPoint press = podPixel(map(), like, pod); // zooms to `like` and renders
    QVERIFY(!press.isNull());
    model::NodeId picked;
    const QPoint centre(views::AddedNodeLayer::kSquarePx / 2, views::AddedNodeLayer::kSquarePx / 2);
    QPoint square = findAddedSquare(picked) + centre;
    QCOMPARE(picked, added);

    // Click: selected, and the inspector shows it.
    sendMouse(map(), QEvent::MouseButtonPress, square, Qt::LeftButton);
    sendMouse(map(), QEvent::MouseButtonRelease, square, Qt::NoButton);
    QCOMPARE(map()->selectedNode(), added);
    views::NodeInspector* inspector = m_window->explorePanels()->nodeInspector();
    // The node dock opened beside the map, which laid itself out again: find both again.
    press = podPixel(map(), like, pod);
    square = findAddedSquare(picked) + centre;
    QVERIFY(!press.isNull());
    QCOMPARE(picked, added);
    QCOMPARE(inspector->node(), added);
    QVERIFY2(inspector->headerText().startsWith(name), qPrintable(inspector->headerText()));
    QVERIFY2(inspector->headerText().contains(QStringLiteral("added by the plan, like ") + QString::fromStdString(std::string(store.nodeName(templ)))),
        qPrintable(inspector->headerText()));
    const views::NodeResourcesModel* resources = inspector->resourcesModel();
    const int cpuRow = resources->rowOf(QStringLiteral("cpu"));
    QVERIFY(cpuRow >= 0);
    QCOMPARE(resources->data(resources->index(cpuRow, views::NodeResourcesModel::AllocatableColumn), views::kSortRole).toLongLong(),
        qlonglong(store.nodeAllocatable(templ)[model::CoreResource::Cpu]));
    QCOMPARE(resources->data(resources->index(cpuRow, views::NodeResourcesModel::RequestedColumn), views::kSortRole).toLongLong(), qlonglong(0));
    QCOMPARE(inspector->podsModel()->rowCount(), 0);
    bool hostname = false;
    const QTreeWidgetItem* labels = inspector->detailsTree()->topLevelItem(0);
    for (int i = 0; labels && i < labels->childCount(); ++i)
        hostname = hostname || (labels->child(i)->text(0) == QStringLiteral("kubernetes.io/hostname") && labels->child(i)->text(1) == name);
    QVERIFY2(hostname, "the added node's labels do not carry its own hostname");
    const QImage selected = map()->grabImage();
    const qreal dpr = selected.devicePixelRatio();
    const QPoint ring = square - glOf(map())->pos() + QPoint(-views::AddedNodeLayer::kSquarePx / 2 - 2, 0);
    const QColor ringColor = selected.pixelColor(QPoint(qRound(ring.x() * dpr), qRound(ring.y() * dpr)));
    saveScreenshot(m_window.get(), QStringLiteral("added-node-clicked"));
    QVERIFY2(near(ringColor, views::SelectionLayer::outlineColor(), 60), qPrintable(QStringLiteral("no selection ring around the added node's square: ") + ringColor.name()));

    // Drag the pod onto the square: the plan moves it there; the inspector lists it.
    sendMouse(map(), QEvent::MouseButtonPress, press, Qt::LeftButton);
    sendMouse(map(), QEvent::MouseMove, press + QPoint(12, 0), Qt::LeftButton);
    QVERIFY(map()->isDraggingPod());
    sendMouse(map(), QEvent::MouseMove, square, Qt::LeftButton);
    sendMouse(map(), QEvent::MouseButtonRelease, square, Qt::NoButton);
    QCOMPARE(engine->applied().size(), std::size_t(2));
    QCOMPARE(engine->applied().back().action.type, model::ActionType::MovePod);
    QCOMPARE(QString::fromStdString(engine->applied().back().action.node), name);
    QCOMPARE(engine->state().podNode(pod), added);
    QCOMPARE(m_window->undoStack()->count(), 2);
    QCOMPARE(inspector->podsModel()->rowCount(), 1);
    QVERIFY(resources->data(resources->index(cpuRow, views::NodeResourcesModel::RequestedColumn), views::kSortRole).toLongLong() > 0);
    saveScreenshot(m_window.get(), QStringLiteral("added-node-selected"));

    // Its context menu fails it like any node: the pod is re-placed or stranded.
    bool failed = false;
    whenShown([&](QWidget* w) {
        auto* menu = qobject_cast<QMenu*>(w);
        if (!menu)
            return;
        QVERIFY(menu->findChild<QAction*>(QStringLiteral("actionDrainNode")));
        if (QAction* a = menu->findChild<QAction*>(QStringLiteral("actionFailNode"))) {
            failed = true;
            a->trigger();
        }
        menu->close();
    });
    map()->grabImage();
    QWidget* gl = glOf(map());
    QContextMenuEvent e(QContextMenuEvent::Mouse, square - gl->pos(), gl->mapToGlobal(square - gl->pos()));
    QApplication::sendEvent(gl, &e);
    QVERIFY(failed);
    QCOMPARE(engine->applied().back().action.type, model::ActionType::FailNode);
    QCOMPARE(QString::fromStdString(engine->applied().back().action.node), name);
    QVERIFY(!engine->state().nodePresent(added));

    // Undo all: the selection and the inspector let the added node go.
    while (m_window->undoStack()->canUndo())
        m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
    QVERIFY(!map()->selectedNode().isValid());
    QVERIFY(!inspector->node().isValid());
}

// The "Added by the plan" box hides no cell where the view has room beside the cells (it was
// drawn under its domain, over the cells of the domain below), and a click on its title folds it
// to that line and back, so no cell stays hidden under it.
void TestPlanAddedNode::addedBoxHidesNoCellsAndFolds()
{
    app::PlanController* plan = m_window->planController();
    const auto engine = plan->engine();
    QVERIFY(plan->addNodeLike(model::NodeId(7)));
    const model::NodeId added = engine->applied().back().nodesAdded.at(0);
    map()->resetView();
    // Zoomed out past the fitted view: room around the cells.
    QWidget* gl = glOf(map());
    const QPointF centre(gl->width() / 2.0, gl->height() / 2.0);
    for (int i = 0; i < 3; ++i) {
        QWheelEvent wheel(centre, gl->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(gl, &wheel);
    }
    map()->grabImage();
    model::NodeId picked;
    const QPoint square = findAddedSquare(picked);
    QVERIFY2(!square.isNull(), "no added node drawn on the zoomed-out map");
    QCOMPARE(picked, added);
    int squarePoints = 0;
    for (int y = 0; y < map()->height(); y += 2)
        for (int x = 0; x < map()->width(); x += 2)
            if (map()->addedNodeAt(QPoint(x, y)).isValid()) {
                ++squarePoints;
                QVERIFY2(!map()->cellNodeAt(QPoint(x, y)).isValid(),
                    qPrintable(QStringLiteral("the added node's square at %1,%2 covers a cell").arg(x).arg(y)));
            }
    QVERIFY(squarePoints > 0);

    // A click on the title (just above the squares) folds the box: no square, the selection as it was.
    const model::NodeId selectedBefore = map()->selectedNode();
    const QPoint title = square + QPoint(3, -5);
    QVERIFY(!map()->addedNodeAt(title).isValid());
    sendMouse(map(), QEvent::MouseButtonPress, title, Qt::LeftButton);
    sendMouse(map(), QEvent::MouseButtonRelease, title, Qt::NoButton);
    map()->grabImage();
    QVERIFY2(findAddedSquare(picked).isNull(), "the box did not fold");
    QCOMPARE(map()->selectedNode(), selectedBefore);
    // The folded title is where it was: a second click unfolds it.
    sendMouse(map(), QEvent::MouseButtonPress, title, Qt::LeftButton);
    sendMouse(map(), QEvent::MouseButtonRelease, title, Qt::NoButton);
    map()->grabImage();
    QVERIFY2(!findAddedSquare(picked).isNull(), "the box did not unfold");
    QCOMPARE(picked, added);
    while (m_window->undoStack()->canUndo())
        m_window->undoStack()->undo();
}

// Add a Node Like It on a node the plan failed would put the copy where the plan says nothing
// runs any more, without a word: it is refused, and the message says why and what to do.
void TestPlanAddedNode::addNodeLikeAFailedNodeIsRefused()
{
    app::PlanController* plan = m_window->planController();
    const auto engine = plan->engine();
    while (m_window->undoStack()->canUndo())
        m_window->undoStack()->undo();
    const model::NodeId node(11);
    QVERIFY(plan->failNode(node));
    QVERIFY(!engine->state().nodePresent(node));
    const std::size_t before = engine->applied().size();
    QVERIFY(!plan->addNodeLike(node));
    QCOMPARE(engine->applied().size(), before);
    const QString message = plan->lastMessage();
    QVERIFY2(message.startsWith(QStringLiteral("Cannot add a node like ")) && message.contains(QStringLiteral("gone under the plan")),
        qPrintable(message));
    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
}

FLEET_GUI_TEST_MAIN(TestPlanAddedNode, fleet::app::setDefaultSurfaceFormat)
#include "tst_planaddednode.moc"
