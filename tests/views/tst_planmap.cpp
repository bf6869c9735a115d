// SPDX-License-Identifier: Apache-2.0
// The what-if on the fleet map, without a plan engine: the drag shading's pixels
// for a feasible vs an infeasible node (fitted and zoomed in), the plan marks, the pod-strip
// query, and the drag gestures' signals (a press on a pod strip, move, release on a node;
// a drop of pod mime data from another widget). Under xvfb-run.

#include "common/pixelchecks.h"
#include "common/mapfixtures.h"
#include "common/mapviewprobe.h"
#include "views/map/podmime.h"
#include "views/map/colormap.h"
#include "views/map/fleetmapview.h"
#include "views/map/maplegend.h"
#include "views/map/layers/nodedetaillayer.h"
#include "views/map/layers/planlayer.h"
#include "views/map/planmarks.h"
#include "views/vtk/vtkopenglwidget.h"

#include "common/guitestmain.h"

#include <QApplication>
#include <QDir>
#include <QMimeData>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSurfaceFormat>
#include <QTest>

using namespace fleet;
using fleet::views::FleetMapView;
using fleet::views::PlanLayer;

namespace {

using Cluster = testing::MapCluster;

// The map tests' cluster: node-0000007 at 75% GPU (one pod), node-0000031 at 10% (one pod).
Cluster makeCluster()
{
    return testing::makeMapCluster();
}

using fleet::testing::near;

using fleet::testing::describe;

void sendMouse(QWidget* gl, QEvent::Type type, const QPoint& pos, Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = {})
{
    QMouseEvent e(type, QPointF(pos), QPointF(gl->mapToGlobal(pos)), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
        buttons, mods);
    QApplication::sendEvent(gl, &e);
}

} // namespace

class TestPlanMap : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void shadingKeepsFeasibleAndWashesInfeasible_data();
    void shadingKeepsFeasibleAndWashesInfeasible();
    void planMarksAreDrawn();
    void planMarksKeepTheCellsColour();
    void manyPlanMarksKeepTheCellsColour();
    void hiddenViewDrawsMarksAtItsRatio();
    void podStripQueryNamesThePod();
    void pressMoveReleaseOnAPodDragsIt();
    void droppedPodMimeDataIsAPodDrag();
    void detailedCellsKeyTheirGpuBoxes();

private:
    [[nodiscard]] model::NodeId node(const char* name) const { return m_cluster.store->findNode(name); }
    QWidget* gl() const { return m_view->findChild<fleet::views::VtkOpenGLWidget*>(); }
    void show();
    /// A node other than n whose cell is wholly on screen.
    model::NodeId visibleNeighbour(model::NodeId n) const
    {
        for (std::uint32_t i = 0; i < m_cluster.store->nodeCount(); ++i)
            if (model::NodeId(i) != n && gl()->geometry().contains(m_view->cellRect(model::NodeId(i)).toAlignedRect()))
                return model::NodeId(i);
        return {};
    }

    Cluster m_cluster;
    std::unique_ptr<FleetMapView> m_view;
};

void TestPlanMap::init()
{
    m_cluster = makeCluster();
    m_view = std::make_unique<FleetMapView>();
    m_view->resize(900, 600);
    m_view->setCluster(m_cluster.store, m_cluster.topology);
}

void TestPlanMap::cleanup()
{
    m_view.reset();
}

void TestPlanMap::show()
{
    QVERIFY(testing::showAndWaitForFrame(*m_view));
}

void TestPlanMap::shadingKeepsFeasibleAndWashesInfeasible_data()
{
    QTest::addColumn<bool>("zoomed");
    QTest::newRow("fitted") << false;
    QTest::newRow("zoomed in") << true;
}

void TestPlanMap::shadingKeepsFeasibleAndWashesInfeasible()
{
    QFETCH(bool, zoomed);
    show();
    const model::NodeId feasible = node("node-0000007"), infeasible = node("node-0000031");
    if (zoomed)
        m_view->zoomToNode(feasible); // its neighbours are on screen too
    QImage before = m_view->grabImage();
    const QColor feasibleBefore = testing::swatchColor(*m_view, before, feasible);
    // At the fitted zoom the cell centre is the texel; zoomed in, the frame; both metric colours.
    auto bytes = std::make_shared<std::vector<std::uint8_t>>(m_cluster.store->nodeCount(), 0);
    (*bytes)[feasible.index()] = 1;
    model::NodeId other = infeasible;
    if (zoomed)
        other = visibleNeighbour(feasible);
    const QColor otherBefore = testing::swatchColor(*m_view, before, other);
    QVERIFY(!testing::swatchPoint(*m_view, other).isNull());
    auto* legend = m_view->findChild<views::MapLegend*>();
    QVERIFY(legend);
    QVERIFY(!legend->entries().contains(QStringLiteral("Fits dragged pod"))); // no drag: no drag mark, no key row
    m_view->setDragShading(bytes);
    QVERIFY(legend->entries().contains(QStringLiteral("Fits dragged pod")));
    const QImage during = m_view->grabImage();
    QDir().mkpath(QStringLiteral("shots"));
    during.save(QStringLiteral("shots/tst_planmap-shading-%1.png").arg(zoomed ? QStringLiteral("zoomed") : QStringLiteral("fitted")));
    const QColor feasibleDuring = testing::swatchColor(*m_view, during, feasible);
    const QColor otherDuring = testing::swatchColor(*m_view, during, other);
    QVERIFY2(near(feasibleDuring, feasibleBefore, 2), qPrintable(describe(feasibleDuring) + " vs " + describe(feasibleBefore)));
    const QColor expected = PlanLayer::shadedColor(otherBefore);
    QVERIFY2(near(otherDuring, expected, 4), qPrintable(describe(otherDuring) + " expected " + describe(expected)));
    QVERIFY(!near(otherDuring, otherBefore, 20));
    QVERIFY(m_view->lastShadeMs() >= 0);
    // Ending the drag restores the colours.
    m_view->setDragShading(nullptr);
    QVERIFY(!legend->entries().contains(QStringLiteral("Fits dragged pod")));
    const QImage after = m_view->grabImage();
    QVERIFY(near(testing::swatchColor(*m_view, after, other), otherBefore, 2));
}

void TestPlanMap::planMarksAreDrawn()
{
    show();
    const model::NodeId changed = node("node-0000031");
    auto marks = std::make_shared<views::PlanMarks>();
    marks->changed = { changed };
    m_view->setPlanMarks(marks);
    const QImage image = m_view->grabImage();
    image.save(QStringLiteral("shots/tst_planmap-marks.png"));
    // The outline's colour is on its right edge, at least kMinMarkPx wide around the cell.
    const QRectF cell = m_view->cellRect(changed);
    const double half = std::max(PlanLayer::kMinMarkPx, cell.width() + 2) / 2.0;
    const qreal dpr = image.devicePixelRatio();
    bool found = false;
    for (int dx = -2; dx <= 2 && !found; ++dx) {
        const QPoint p(qRound((cell.center().x() + half + dx) * dpr), qRound(cell.center().y() * dpr));
        found = near(image.pixelColor(p), PlanLayer::changedColor(), 40);
    }
    QVERIFY(found);
    m_view->setPlanMarks(nullptr);
    const QImage cleared = m_view->grabImage();
    QVERIFY(!near(cleared.pixelColor(qRound((cell.center().x() + half) * dpr), qRound(cell.center().y() * dpr)),
        PlanLayer::changedColor(), 40));
}

// A mark is drawn inside its cell and leaves the cell's colour around it: a removed node's
// black cross (not NotReady's red, and no darkened cell), a changed node's outline on its
// border. The legend's plan key names each mark with its count.
void TestPlanMap::planMarksKeepTheCellsColour()
{
    show();
    const QImage before = m_view->grabImage();
    const model::NodeId changed = node("node-0000031"), removed = node("node-0000007"), emptied = node("node-0000050");
    auto marks = std::make_shared<views::PlanMarks>();
    marks->changed = { changed };
    marks->removed = { removed };
    marks->emptied = { emptied };
    m_view->setPlanMarks(marks);
    const QImage image = m_view->grabImage();
    image.save(QStringLiteral("shots/tst_planmap-marks-in-cell.png"));
    const qreal dpr = image.devicePixelRatio();
    auto at = [&](const QImage& i, QPointF p) { return i.pixelColor(qRound(p.x() * dpr), qRound(p.y() * dpr)); };
    const QRectF removedCell = m_view->cellRect(removed);
    QVERIFY(removedCell.width() >= PlanLayer::kInCellMarkPx);
    const QColor centre = at(image, removedCell.center());
    QVERIFY2(near(centre, PlanLayer::removedColor(), 30), qPrintable(describe(centre)));
    QVERIFY(!near(centre, views::notReadyColor(), 120));
    // A quarter of the cell right of the centre lies between the cross's arms: the cell's own colour.
    const QPointF between = removedCell.center() + QPointF(removedCell.width() / 4, 0);
    QVERIFY2(near(at(image, between), at(before, between), 2), qPrintable(describe(at(image, between)) + " was " + describe(at(before, between))));
    const QRectF emptiedCell = m_view->cellRect(emptied);
    QVERIFY(near(at(image, emptiedCell.center()), PlanLayer::emptiedColor(), 30));
    // The changed node: the outline on its border, its middle as it was.
    const QRectF changedCell = m_view->cellRect(changed);
    QVERIFY(near(at(image, changedCell.center()), at(before, changedCell.center()), 2));
    const QPointF border(changedCell.right() - 1, changedCell.center().y());
    QVERIFY2(near(at(image, border), PlanLayer::changedColor(), 40), qPrintable(describe(at(image, border))));
    auto* legend = m_view->findChild<views::MapLegend*>();
    QVERIFY(legend);
    const QStringList entries = legend->entries();
    const qsizetype plan = entries.indexOf(QStringLiteral("Plan"));
    QVERIFY2(plan > 0, qPrintable(entries.join(" | ")));
    QCOMPARE(entries.mid(plan + 1), (QStringList { QStringLiteral("Removed: 1"), QStringLiteral("Emptied: 1"), QStringLiteral("Nodes with pods moved or placed: 1") }));
    m_view->setPlanMarks(nullptr);
    QVERIFY(!legend->entries().contains(QStringLiteral("Plan")));
}

// More than kMaxDrawnMarks marks in view (a consolidation's) are written as pixels inside their
// cells: a removed node's cell holds black and keeps some of its own colour, a changed node's
// small cell keeps its colour but for one amber pixel (filling it amber hid the plan's heat
// map, leaving it unmarked lost the node at print resolution); the kept image follows
// a new set of marks, and a repaint for another reason (a selection) keeps them.
void TestPlanMap::manyPlanMarksKeepTheCellsColour()
{
    Cluster big;
    testing::addFleetNodes(*big.store, testing::FleetShape { 2, 4, 10, 30, 1 }); // 2,400 nodes
    big.store->finalize();
    big.topology = std::make_shared<model::Topology>(model::Topology::build(*big.store));
    m_cluster = big;
    m_view->setCluster(m_cluster.store, m_cluster.topology);
    show();
    const QImage before = m_view->grabImage();
    auto marks = std::make_shared<views::PlanMarks>();
    for (std::uint32_t i = 0; i < m_cluster.store->nodeCount(); ++i)
        (i % 10 == 3 ? marks->removed : marks->changed).push_back(model::NodeId(i));
    QVERIFY(marks->changed.size() > PlanLayer::kMaxDrawnMarks);
    m_view->setPlanMarks(marks);
    const model::NodeId changed(100), removed(103);
    // The device pixels of a node's cell (its edge's left out, which may be a neighbour's): how many
    // are near `colour`, and how many kept their colour.
    auto count = [&](const QImage& image, model::NodeId n, const QColor& colour) {
        const qreal dpr = image.devicePixelRatio();
        const QRectF cell = m_view->cellRect(n);
        const int x0 = static_cast<int>(std::ceil(cell.left() * dpr)), x1 = static_cast<int>(std::floor(cell.right() * dpr));
        const int y0 = static_cast<int>(std::ceil(cell.top() * dpr)), y1 = static_cast<int>(std::floor(cell.bottom() * dpr));
        int same = 0, kept = 0;
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) {
                same += near(image.pixelColor(x, y), colour, 8) ? 1 : 0;
                kept += near(image.pixelColor(x, y), before.pixelColor(x, y), 2) ? 1 : 0;
            }
        return std::pair { same, kept };
    };
    QImage image = m_view->grabImage();
    image.save(QStringLiteral("shots/tst_planmap-marks-pixels.png"));
    const qreal side = m_view->cellRect(removed).width() * image.devicePixelRatio();
    QVERIFY2(side >= 3, qPrintable(QString::number(side)));
    const auto [removedBlack, removedKept] = count(image, removed, PlanLayer::removedColor());
    QVERIFY2(removedBlack > 0 && removedKept > 0, qPrintable(QStringLiteral("%1 black, %2 kept").arg(removedBlack).arg(removedKept)));
    QCOMPARE(count(image, removed, views::notReadyColor()).first, 0);
    const auto [changedAmber, changedKept] = count(image, changed, PlanLayer::changedColor());
    QVERIFY2(changedKept > 0, qPrintable(QStringLiteral("%1 amber, %2 kept").arg(changedAmber).arg(changedKept)));
    // An outline where the cell holds one, else one amber pixel in its middle: the node is marked.
    QVERIFY2(changedAmber > 0 && (side >= PlanLayer::kMinOutlinePx || changedAmber == 1), qPrintable(QString::number(changedAmber)));
    // A repaint for the selection keeps the marks.
    m_view->setSelectedNode(model::NodeId(500));
    image = m_view->grabImage();
    QCOMPARE(count(image, removed, PlanLayer::removedColor()).first, removedBlack);
    // New marks replace the kept ones: node 103 is no longer marked.
    auto fewer = std::make_shared<views::PlanMarks>(*marks);
    std::erase(fewer->removed, removed);
    m_view->setPlanMarks(fewer);
    image = m_view->grabImage();
    QCOMPARE(count(image, removed, PlanLayer::removedColor()).first, 0);
    QVERIFY(count(image, model::NodeId(113), PlanLayer::removedColor()).first > 0);
}

// A view never shown draws at the ratio set for it (a report's print resolution), whatever the
// screen's: three device pixels per logical pixel. Among many marks (written as pixels) a removed
// node's cross has a halo lighter than its cell beside its black (so that it reads on a dark cell),
// and a changed node's cell an amber outline.
void TestPlanMap::hiddenViewDrawsMarksAtItsRatio()
{
    Cluster big;
    testing::addFleetNodes(*big.store, testing::FleetShape { 2, 4, 10, 30, 1 }); // 2,400 nodes
    big.store->finalize();
    big.topology = std::make_shared<model::Topology>(model::Topology::build(*big.store));
    FleetMapView view;
    view.setAttribute(Qt::WA_DontShowOnScreen, true);
    view.resize(720, 500);
    view.setCluster(big.store, big.topology);
    view.setHiddenDevicePixelRatio(3);
    const QImage before = view.grabImage();
    QCOMPARE(before.size(), QSize(2160, 1500));
    QCOMPARE(before.devicePixelRatio(), 3.0);
    auto marks = std::make_shared<views::PlanMarks>();
    for (std::uint32_t i = 0; i < big.store->nodeCount(); ++i)
        (i % 10 == 3 ? marks->removed : marks->changed).push_back(model::NodeId(i));
    view.setPlanMarks(marks);
    const QImage image = view.grabImage();
    QCOMPARE(image.size(), before.size());
    const model::NodeId changed(100), removed(103);
    auto cellPixels = [&](model::NodeId n) {
        const QRectF cell = view.cellRect(n);
        return QRect(QPoint(static_cast<int>(std::ceil(cell.left() * 3)), static_cast<int>(std::ceil(cell.top() * 3))),
            QPoint(static_cast<int>(std::floor(cell.right() * 3)) - 1, static_cast<int>(std::floor(cell.bottom() * 3)) - 1));
    };
    const QRect r = cellPixels(removed);
    QVERIFY2(r.width() >= PlanLayer::kMinOutlinePx, qPrintable(QString::number(r.width())));
    int black = 0, halo = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            black += near(image.pixelColor(x, y), PlanLayer::removedColor(), 8) ? 1 : 0;
            halo += qGray(image.pixel(x, y)) > qGray(before.pixel(x, y)) + 40 ? 1 : 0;
        }
    QVERIFY2(black > 0 && halo > 0, qPrintable(QStringLiteral("%1 black, %2 halo").arg(black).arg(halo)));
    const QRect c = cellPixels(changed);
    int amber = 0;
    for (int y = c.top(); y <= c.bottom(); ++y)
        for (int x = c.left(); x <= c.right(); ++x)
            amber += near(image.pixelColor(x, y), PlanLayer::changedColor(), 8) ? 1 : 0;
    QVERIFY2(amber > 0, qPrintable(QString::number(amber)));
}

void TestPlanMap::podStripQueryNamesThePod()
{
    show();
    const model::NodeId n = node("node-0000007");
    m_view->zoomToNode(n);
    m_view->grabImage();
    const model::PodId pod = m_cluster.store->nodePods(n)[0];
    // The strip fills the lower part of the cell: scan a column for the pod.
    const QRectF cell = m_view->cellRect(n);
    QPoint hit;
    for (int y = static_cast<int>(cell.center().y()); y < cell.bottom() && hit.isNull(); ++y)
        if (m_view->podAt(QPoint(static_cast<int>(cell.left() + cell.width() * 0.25), y)) == pod)
            hit = QPoint(static_cast<int>(cell.left() + cell.width() * 0.25), y);
    QVERIFY(!hit.isNull());
    // The pixel there shows the pod's workload colour (no workload: grey), not the metric.
    const QImage image = m_view->grabImage();
    const QColor c = image.pixelColor(hit * image.devicePixelRatio());
    QVERIFY2(near(c, views::NodeDetailLayer::workloadColor(m_cluster.store->podWorkload(pod)), 6), qPrintable(describe(c)));
    QVERIFY(!m_view->podAt(QPoint(static_cast<int>(cell.center().x()), static_cast<int>(cell.top()) + 3)).isValid());
}

void TestPlanMap::pressMoveReleaseOnAPodDragsIt()
{
    show();
    const model::NodeId from = node("node-0000007");
    m_view->zoomToNode(from);
    m_view->grabImage();
    const model::NodeId to = visibleNeighbour(from);
    const model::PodId pod = m_cluster.store->nodePods(from)[0];
    const QRectF cell = m_view->cellRect(from);
    QPoint press;
    for (int y = static_cast<int>(cell.center().y()); y < cell.bottom() && press.isNull(); ++y)
        if (m_view->podAt(QPoint(static_cast<int>(cell.left() + cell.width() * 0.25), y)) == pod)
            press = QPoint(static_cast<int>(cell.left() + cell.width() * 0.25), y);
    QVERIFY(!press.isNull());
    const QPoint target = m_view->cellCenter(to);
    QVERIFY(!target.isNull());
    QSignalSpy started(m_view.get(), &FleetMapView::podDragStarted);
    QSignalSpy moved(m_view.get(), &FleetMapView::podDragMoved);
    QSignalSpy dropped(m_view.get(), &FleetMapView::podDropped);
    QWidget* g = gl();
    const QPoint o = g->pos();
    sendMouse(g, QEvent::MouseButtonPress, press - o, Qt::LeftButton);
    sendMouse(g, QEvent::MouseMove, (press + target) / 2 - o, Qt::LeftButton);
    QCOMPARE(started.count(), 1);
    QCOMPARE(started.at(0).at(0).value<model::PodId>(), pod);
    QVERIFY(m_view->isDraggingPod());
    sendMouse(g, QEvent::MouseMove, target - o, Qt::LeftButton);
    QCOMPARE(moved.last().at(0).value<model::NodeId>(), to);
    sendMouse(g, QEvent::MouseButtonRelease, target - o, Qt::NoButton);
    QCOMPARE(dropped.count(), 1);
    QCOMPARE(dropped.at(0).at(0).value<model::NodeId>(), to);
    QVERIFY(!m_view->isDraggingPod());
    // A press off the pods pans, as before.
    const QPointF beforePan = m_view->cellRect(to).center();
    sendMouse(g, QEvent::MouseButtonPress, QPoint(5, 5), Qt::LeftButton);
    sendMouse(g, QEvent::MouseMove, QPoint(40, 40), Qt::LeftButton);
    sendMouse(g, QEvent::MouseButtonRelease, QPoint(40, 40), Qt::NoButton);
    QCOMPARE(started.count(), 1);
    QVERIFY(m_view->cellRect(to).center() != beforePan);
}

void TestPlanMap::droppedPodMimeDataIsAPodDrag()
{
    show();
    const model::PodId pod = m_cluster.store->nodePods(node("node-0000031"))[0];
    const model::NodeId to = node("node-0000007");
    std::unique_ptr<QMimeData> data(views::makePodMimeData(*m_cluster.store, pod));
    QCOMPARE(views::podFromMimeData(data.get()), pod);
    QCOMPARE(data->text(), QStringLiteral("default/light"));
    QSignalSpy started(m_view.get(), &FleetMapView::podDragStarted);
    QSignalSpy dropped(m_view.get(), &FleetMapView::podDropped);
    QSignalSpy cancelled(m_view.get(), &FleetMapView::podDragCancelled);
    QWidget* g = gl();
    const QPoint at = m_view->cellCenter(to) - g->pos();
    QDragEnterEvent enter(at, Qt::MoveAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(g, &enter);
    QVERIFY(enter.isAccepted());
    QCOMPARE(started.count(), 1);
    QDropEvent drop(QPointF(at), Qt::MoveAction, data.get(), Qt::LeftButton, Qt::ShiftModifier);
    QApplication::sendEvent(g, &drop);
    QCOMPARE(dropped.count(), 1);
    QCOMPARE(dropped.at(0).at(0).value<model::NodeId>(), to);
    QCOMPARE(dropped.at(0).at(3).value<Qt::KeyboardModifiers>(), Qt::KeyboardModifiers(Qt::ShiftModifier));
    // Another drag leaves: cancelled.
    QApplication::sendEvent(g, &enter);
    QDragLeaveEvent leave;
    QApplication::sendEvent(g, &leave);
    QCOMPARE(cancelled.count(), 1);
    // Mime data without a pod is not taken.
    QMimeData text;
    text.setText(QStringLiteral("hello"));
    QDragEnterEvent other(at, Qt::MoveAction, &text, Qt::LeftButton, Qt::NoModifier);
    other.setAccepted(false);
    QApplication::sendEvent(g, &other);
    QCOMPARE(started.count(), 2);
}

// Zoomed in far enough for each cell to show one box per GPU (NodeDetailLayer), the legend keys
// those boxes, with a box drawn as the map draws it (filled as allocated); at the fitted zoom,
// where no box is drawn, it does not.
void TestPlanMap::detailedCellsKeyTheirGpuBoxes()
{
    show();
    const QString boxes = QStringLiteral("Box: one GPU, filled as allocated");
    auto* legend = m_view->findChild<views::MapLegend*>();
    QVERIFY(legend);
    const model::NodeId gpuNode = node("node-0000007");
    // A map this small fits the fleet in cells too small for boxes.
    m_view->resize(300, 300);
    m_view->resetView();
    QTRY_VERIFY2(m_view->cellRect(gpuNode).width() < views::NodeDetailLayer::kDetailMinPx, qPrintable(QString::number(m_view->cellRect(gpuNode).width())));
    QTRY_VERIFY2(!legend->entries().contains(boxes), qPrintable(legend->entries().join(" | ")));
    m_view->resize(900, 600); // room for the legend's marker key
    m_view->zoomToNode(gpuNode);
    QTRY_VERIFY(m_view->cellRect(gpuNode).width() >= views::NodeDetailLayer::kDetailMinPx);
    QTRY_VERIFY2(legend->entries().contains(boxes), qPrintable(legend->entries().join(" | ")));
    // The key row is painted with a box: a pixel of a full GPU's colour left of its text.
    const QImage image = legend->grab().toImage();
    const qreal dpr = image.devicePixelRatio();
    const QColor full = QColor::fromRgb(views::shareRgb(1.0));
    bool rowFound = false, boxFound = false;
    for (int y = 0; y < legend->height() && !boxFound; ++y) {
        if (legend->rowTextAt(QPoint(legend->width() / 2, y)) != boxes)
            continue;
        rowFound = true;
        for (int x = 0; x < 30 && !boxFound; ++x)
            boxFound = near(image.pixelColor(qRound(x * dpr), qRound(y * dpr)), full, 12);
    }
    QVERIFY(rowFound);
    QVERIFY(boxFound);
    m_view->resize(300, 300);
    m_view->resetView();
    QTRY_VERIFY2(!legend->entries().contains(boxes), qPrintable(legend->entries().join(" | ")));
}

FLEET_GUI_TEST_MAIN(TestPlanMap, fleet::testing::setVtkSurfaceFormat)

#include "tst_planmap.moc"
