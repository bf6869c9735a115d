// The node inspector in the window (issue 5): a click on a node opens the inspector beside the
// map at its own width, and the map, narrower now, keeps the node the user zoomed to (it
// used to fit the whole fleet again, or open the dock at its widest hint and squeeze the map).

#include "planwindowfixture.h"

#include "views/inspectors/nodeinspector.h"

#include <QDockWidget>

using namespace planwindow;

class TestInspectorWindow : public QObject {
    Q_OBJECT
private slots:
    void clickOpensTheInspectorBesideTheZoomedNode();
};

void TestInspectorWindow::clickOpensTheInspectorBesideTheZoomedNode()
{
    auto window = openWindow();
    QVERIFY(window);
    views::FleetMapView* map = window->mapView();
    auto* dock = window->findChild<QDockWidget*>(QStringLiteral("nodeInspectorDock"));
    QVERIFY(dock);
    QVERIFY(!dock->isVisible());
    const int mapWidthBefore = map->width();
    const model::NodeId n(17);
    map->zoomToNode(n);
    map->grabImage();
    const QRectF before = map->cellRect(n);
    const QPoint at = map->cellCenter(n);
    QVERIFY(!at.isNull());
    QCOMPARE(map->nodeAt(at), n);
    QSignalSpy frames(map, &views::FleetMapView::frameRendered);
    sendMouse(map, QEvent::MouseButtonPress, at, Qt::LeftButton);
    sendMouse(map, QEvent::MouseButtonRelease, at, Qt::NoButton);
    QTRY_VERIFY_WITH_TIMEOUT(dock->isVisible(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(frames.count() > 0, 5000);
    QTest::qWait(100); // the dock's layout settles
    saveScreenshot(window.get(), QStringLiteral("inspector-open"));
    qInfo() << "window" << window->width() << "map" << mapWidthBefore << "->" << map->width() << "dock" << dock->width();
    // The dock takes its set width, not its table's widest hint.
    QVERIFY2(dock->width() >= 300 && dock->width() <= window->width() * 45 / 100,
        qPrintable(QStringLiteral("dock %1 px of a %2 px window").arg(dock->width()).arg(window->width())));
    QVERIFY(map->width() < mapWidthBefore);
    // The node stays on screen at its zoom.
    const QRectF after = map->cellRect(n);
    QVERIFY2(std::abs(after.width() - before.width()) < 1.0,
        qPrintable(QStringLiteral("cell %1 px wide before, %2 after").arg(before.width()).arg(after.width())));
    const QPoint still = map->cellCenter(n);
    QVERIFY2(!still.isNull(), "the node left the view");
    QCOMPARE(map->nodeAt(still), n);
    QCOMPARE(map->selectedNode(), n);
}

QTEST_MAIN(TestInspectorWindow)
#include "tst_inspectorwindow.moc"
