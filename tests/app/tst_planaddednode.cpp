// A node added by the plan (issue 6) in the window, under xvfb-run with real events: the map's
// context menu on a node offers Add a Node Like it (one AddNode, one undo step); the added node,
// which has no cell in the layout, is drawn as a square in an "Added by the plan" box under its
// domain (AddedNodeLayer), found there by the map's picking (addedNodeAt) with its own tooltip,
// and gone again after undo.

#include "planwindowfixture.h"

#include "app/surfaceformat.h"
#include "views/map/layers/addednodelayer.h"
#include "views/plan/planactionsmodel.h"
#include "views/plan/planpanel.h"

#include <QContextMenuEvent>
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

int main(int argc, char** argv)
{
    fleet::app::setDefaultSurfaceFormat();
    QApplication app(argc, argv);
    TestPlanAddedNode test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_planaddednode.moc"
