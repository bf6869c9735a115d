// SPDX-License-Identifier: Apache-2.0
// The fleet map's layers under xvfb-run, checked by pixels: selection highlight, filter
// dimming, problem markers at the full-fleet zoom, GPU tiles of a zoomed 8-GPU node, gaps
// between cells at deep zoom, re-fit on resize, breadcrumb, domain label click, keyboard
// navigation after a dialog, and no hover from a pointer that never moved.

#include "common/pixelchecks.h"
#include "common/mapfixtures.h"
#include "common/mapviewprobe.h"
#include "views/map/colormap.h"
#include "views/map/fleetmapview.h"
#include "views/map/comparedmarks.h"
#include "views/map/layers/addednodelayer.h"
#include "views/map/layers/breadcrumblayer.h"
#include "views/map/layers/comparednodelayer.h"
#include "views/map/layers/markerlayer.h"
#include "views/map/layers/nodedetaillayer.h"
#include "views/map/layers/selectionlayer.h"
#include "views/map/maplegend.h"
#include "views/vtk/vtkopenglwidget.h"

#include "common/guitestmain.h"

#include <QApplication>
#include <QDialog>
#include <QDir>

#include <QSignalSpy>
#include <QSurfaceFormat>
#include <QTest>
#include <QTimer>

using namespace fleet;
using fleet::views::FleetMapView;

namespace {

using Cluster = testing::MapCluster;

// `shape` nodes of the map tests' cluster (makeMapCluster(): node 7 at 6 of 8 GPUs requested,
// node 31 at 10%); `notReady` and `cordoned` (indices, -1 for none) marked.
Cluster makeCluster(const testing::FleetShape& shape, int notReady = -1, int cordoned = -1)
{
    return testing::makeMapCluster(shape, [&](model::NodeRecord& rec, std::size_t i) {
        if (static_cast<int>(i) == notReady)
            rec.ready = model::Readiness::False;
        if (static_cast<int>(i) == cordoned)
            rec.unschedulable = true;
    });
}

using fleet::testing::near;

using fleet::testing::describe;

QColor pixel(const QImage& image, QPointF p)
{
    const qreal dpr = image.devicePixelRatio();
    return image.pixelColor(QPoint(qRound(p.x() * dpr), qRound(p.y() * dpr)));
}

} // namespace

class TestFleetMapLayers : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { m_view.reset(); }
    void selectedNodeIsHighlighted();
    void filterDimsTheOthers();
    void notReadyMarkerIsVisibleAtTheFullFleetZoom();
    void zoomedEightGpuNodeShowsItsAllocation();
    void neighbouringCellsStayApartAtDeepZoom();
    void resizeRefitsTheMap_data();
    void resizeRefitsTheMap();
    void resizeWhileZoomedKeepsTheView_data();
    void resizeWhileZoomedKeepsTheView();
    void markersCanBeHiddenAndFadeWithTheirNodes();
    void breadcrumbNamesWhereYouAre();
    void clickOnADomainLabel();
    void keyboardWorksAfterADialog();
    void noHoverWithoutARealPointerMove();
    void clickSelects();
    void nodeNamesKeepWhatDistinguishesThem_data();
    void nodeNamesKeepWhatDistinguishesThem();
    void framedDomainIsWholeCentredAndNamed();
    void comparedAddedBoxesDoNotOverlap();
    void comparedBoxesArePlacedApart();
    void framedDomainLabelClearsTheBreadcrumb();

private:
    void show(const Cluster& c, QSize size = QSize(900, 600));
    QWidget* gl() const { return m_view->findChild<views::VtkOpenGLWidget*>(); }

    Cluster m_cluster;
    std::unique_ptr<FleetMapView> m_view;
};

void TestFleetMapLayers::show(const Cluster& c, QSize size)
{
    m_cluster = c;
    m_view = std::make_unique<FleetMapView>();
    m_view->resize(size);
    m_view->setCluster(c.store, c.topology);
    QVERIFY(testing::showAndWaitForFrame(*m_view));
}

void TestFleetMapLayers::selectedNodeIsHighlighted()
{
    // 4,800 nodes: a few pixels a cell, the outline's minimum size matters.
    show(makeCluster({ 2, 3, 4, 200, 1 }));
    const model::NodeId n = m_cluster.store->findNode("node-0000031");
    QSignalSpy changed(m_view.get(), &FleetMapView::selectionChanged);
    const QRectF cell = m_view->cellRect(n);
    QVERIFY(cell.width() < 10);
    const QPointF probe(cell.center().x(), cell.center().y() - views::SelectionLayer::kMinOutlinePx / 2.0);
    const QImage before = m_view->grabImage();
    QVERIFY2(!near(pixel(before, probe), views::SelectionLayer::outlineColor(), 40), qPrintable(describe(pixel(before, probe))));
    m_view->setSelectedNode(n);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(m_view->selectedNode(), n);
    m_view->setSelectedNode(n); // no change, no signal
    QCOMPARE(changed.count(), 1);
    const QImage after = m_view->grabImage();
    after.save(QDir::current().filePath(QStringLiteral("tst_fleetmaplayers_selected.png")));
    // The outline's top edge, kMinOutlinePx across around the cell, is the bright colour.
    int bright = 0;
    for (int dy = -2; dy <= 2; ++dy)
        bright += near(pixel(after, probe + QPointF(0, dy)), views::SelectionLayer::outlineColor(), 40) ? 1 : 0;
    QVERIFY2(bright > 0, qPrintable(describe(pixel(after, probe))));
    // The cell itself keeps its colour.
    QVERIFY(near(pixel(after, cell.center()), pixel(before, cell.center()), 3));
    m_view->setSelectedNode({});
    QCOMPARE(changed.count(), 2);
    QVERIFY(!m_view->selectedNode().isValid());
}

void TestFleetMapLayers::filterDimsTheOthers()
{
    show(makeCluster({ 2, 3, 4, 200, 1 }));
    const model::NodeId kept = m_cluster.store->findNode("node-0000007");
    const model::NodeId dimmed = m_cluster.store->findNode("node-0000031");
    const QImage before = m_view->grabImage();
    auto mask = std::make_shared<std::vector<std::uint8_t>>(m_cluster.store->nodeCount(), 0);
    (*mask)[kept.index()] = 1;
    m_view->setNodeMask(mask);
    const QImage after = m_view->grabImage();
    after.save(QDir::current().filePath(QStringLiteral("tst_fleetmaplayers_filter.png")));
    const QPointF k = m_view->cellRect(kept).center();
    const QPointF dd = m_view->cellRect(dimmed).center();
    QVERIFY2(near(pixel(after, k), pixel(before, k), 3), qPrintable(describe(pixel(after, k))));
    // Dimmed: faded into the map's background (a quarter of its colour's distance is left).
    const QColor bg = views::mapBackgroundColor();
    auto distance = [&](const QColor& c) {
        return std::max({ std::abs(c.red() - bg.red()), std::abs(c.green() - bg.green()), std::abs(c.blue() - bg.blue()) });
    };
    QVERIFY2(distance(pixel(before, dd)) > 20 && distance(pixel(after, dd)) < distance(pixel(before, dd)) * 0.4,
        qPrintable(describe(pixel(before, dd)) + " -> " + describe(pixel(after, dd))));
    // Cleared: the colour is back.
    m_view->setNodeMask({});
    QVERIFY(near(pixel(m_view->grabImage(), dd), pixel(before, dd), 3));
}

void TestFleetMapLayers::notReadyMarkerIsVisibleAtTheFullFleetZoom()
{
    // 48,000 nodes in 900 x 600: a cell is under 2 pixels; the marker is kMarkerPx wide.
    show(makeCluster({ 2, 4, 10, 600, 1 }, 12345, 20001));
    const model::NodeId bad = m_cluster.store->findNode("node-0012345");
    const model::NodeId cordoned = m_cluster.store->findNode("node-0020001");
    QVERIFY2(m_view->cellRect(bad).width() < 2.5, qPrintable(QString::number(m_view->cellRect(bad).width())));
    const QImage image = m_view->grabImage();
    image.save(QDir::current().filePath(QStringLiteral("tst_fleetmaplayers_markers.png")));
    const auto countNear = [&](model::NodeId n, QColor colour) {
        const QPointF c = m_view->cellRect(n).center();
        int count = 0;
        for (int dy = -6; dy <= 6; ++dy)
            for (int dx = -6; dx <= 6; ++dx)
                count += near(pixel(image, c + QPointF(dx, dy)), colour, 20) ? 1 : 0;
        return count;
    };
    const int ring = countNear(bad, views::MarkerLayer::markerColor(views::NodeMarkerKind::NotReady));
    QVERIFY2(ring >= 12, qPrintable(QString::number(ring)));
    const int diamond = countNear(cordoned, views::MarkerLayer::markerColor(views::NodeMarkerKind::Cordoned));
    QVERIFY2(diamond >= 12, qPrintable(QString::number(diamond)));
    // A node problem from the app gets the third kind.
    const model::NodeId other = m_cluster.store->findNode("node-0005000");
    QCOMPARE(countNear(other, views::MarkerLayer::markerColor(views::NodeMarkerKind::Problem)), 0);
    m_view->setProblemNodes({ other });
    const QImage withProblem = m_view->grabImage();
    const QPointF c = m_view->cellRect(other).center();
    int amber = 0;
    for (int dy = -6; dy <= 6; ++dy)
        for (int dx = -6; dx <= 6; ++dx)
            amber += near(pixel(withProblem, c + QPointF(dx, dy)), views::MarkerLayer::markerColor(views::NodeMarkerKind::Problem), 40);
    QVERIFY2(amber >= 8, qPrintable(QString::number(amber)));
}

void TestFleetMapLayers::zoomedEightGpuNodeShowsItsAllocation()
{
    show(makeCluster({ 2, 3, 4, 200, 1 }));
    const model::NodeId n = m_cluster.store->findNode("node-0000007"); // 6 of 8 GPUs
    m_view->zoomToNode(n);
    const QImage image = m_view->grabImage();
    image.save(QDir::current().filePath(QStringLiteral("tst_fleetmaplayers_gpus.png")));
    const QRectF cell = m_view->cellRect(n);
    QVERIFY2(cell.width() >= views::NodeDetailLayer::kNameMinPx, qPrintable(QString::number(cell.width())));
    views::NodeDetailLayer::DeviceTiles tiles;
    tiles.kind = views::NodeDetailLayer::DeviceTiles::Gpu;
    tiles.allocatable = tiles.capacity = 8;
    tiles.requested = 6;
    const QColor full = views::shareColor(1.0);
    for (int i = 0; i < 8; ++i) {
        // The lower part of tile i: filled from the bottom by its allocation.
        const QRectF t = views::NodeDetailLayer::tileRect(cell, tiles, i);
        const QColor got = pixel(image, QPointF(t.center().x(), t.bottom() - t.height() * 0.3));
        if (i < 6)
            QVERIFY2(near(got, full, 6), qPrintable(QStringLiteral("tile %1: %2").arg(i).arg(describe(got))));
        else
            QVERIFY2(!near(got, full, 60) && got.lightness() < 90, qPrintable(QStringLiteral("tile %1: %2").arg(i).arg(describe(got))));
    }
    // The metric colour frames the cell.
    QVERIFY(near(testing::swatchColor(*m_view, image, n), views::shareColor(0.75), 3));
}

void TestFleetMapLayers::nodeNamesKeepWhatDistinguishesThem_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("roomFor"); // the name fits in the width of this text
    QTest::addColumn<QString>("shown");
    const QString eks = QStringLiteral("ip-10-7-16-197.us-west-2.compute.internal");
    QTest::newRow("fits whole") << eks << eks << eks;
    QTest::newRow("the hostname") << eks << QStringLiteral("ip-10-7-16-197xx") << QStringLiteral("ip-10-7-16-197");
    QTest::newRow("no domain") << QStringLiteral("duckboat-01") << QStringLiteral("duckboat-01") << QStringLiteral("duckboat-01");
    // Too narrow for the hostname: its end stays, where the names of one fleet differ.
    QTest::newRow("elided left") << eks << QStringLiteral("ip-10-7-1") << QStringLiteral("*6-197");
}

// At the zoom where names first fit, an EKS name was "ip-10-7…compute.internal": the middle,
// where nodes differ, was dropped (user trial).
void TestFleetMapLayers::nodeNamesKeepWhatDistinguishesThem()
{
    QFETCH(QString, name);
    QFETCH(QString, roomFor);
    QFETCH(QString, shown);
    const QFontMetrics fm(QApplication::font());
    const QString got = views::NodeDetailLayer::fitNodeName(name, fm, fm.horizontalAdvance(roomFor));
    if (shown.startsWith(QLatin1Char('*')))
        QVERIFY2(got.startsWith(QChar(0x2026)) && got.endsWith(shown.mid(1)), qPrintable(got));
    else
        QCOMPARE(got, shown);
}

void TestFleetMapLayers::neighbouringCellsStayApartAtDeepZoom()
{
    // Every node at 0%: one colour; at 10+ px a cell, the boundary between two neighbours is
    // the background colour.
    show(makeCluster({ 1, 1, 2, 100, 1 }));
    const model::NodeId a = m_cluster.store->findNode("node-0000050");
    m_view->zoomToNode(a);
    for (int i = 0; i < 6; ++i)
        QTest::keyClick(gl(), Qt::Key_Minus);
    const QRectF cell = m_view->cellRect(a);
    QVERIFY2(cell.width() >= 8 && cell.width() < views::NodeDetailLayer::kDetailMinPx, qPrintable(QString::number(cell.width())));
    const QImage image = m_view->grabImage();
    image.save(QDir::current().filePath(QStringLiteral("tst_fleetmaplayers_gaps.png")));
    const model::NodeId right = m_view->cellNodeAt(QPoint(qRound(cell.center().x() + cell.width()), qRound(cell.center().y())));
    QVERIFY(right.isValid());
    QVERIFY(near(pixel(image, cell.center()), views::shareColor(0), 3));
    // Scan the pixels across the right boundary: at least one is the background.
    int gaps = 0;
    for (double x = cell.right() - 2; x <= cell.right() + 2; x += 1)
        gaps += near(pixel(image, QPointF(x, cell.center().y())), views::mapBackgroundColor(), 3) ? 1 : 0;
    QVERIFY(gaps >= 1);
}

void TestFleetMapLayers::resizeRefitsTheMap_data()
{
    QTest::addColumn<QSize>("to");
    QTest::newRow("wider") << QSize(1900, 600);
    QTest::newRow("taller") << QSize(700, 1000);
}

void TestFleetMapLayers::resizeRefitsTheMap()
{
    QFETCH(QSize, to);
    show(makeCluster({ 2, 3, 4, 200, 1 }));
    m_view->resize(to);
    QSignalSpy frames(m_view.get(), &FleetMapView::frameRendered);
    QTRY_COMPARE(m_view->size(), to);
    m_view->resetView();
    const QImage image = m_view->grabImage();
    image.save(QDir::current().filePath(QStringLiteral("tst_fleetmaplayers_resized_%1x%2.png").arg(to.width()).arg(to.height())));
    // The extent of the map (every pixel that is not background: cells, frames, labels)
    // fills most of the GL widget's width or height (the layout keeps a margin), and the
    // other to at least 75% (the treemap's blocks are whole cells, so the shape follows the
    // view's only roughly). Before the
    // re-layout on resize, the wider view kept the old shape: about 45% of its width.
    const QRect g = gl()->geometry();
    int left = g.right(), right = g.left(), top = g.bottom(), bottom = g.top();
    const QColor bg = views::mapBackgroundColor();
    for (int y = g.top(); y <= g.bottom(); y += 2)
        for (int x = g.left(); x <= g.right(); x += 2)
            if (!near(pixel(image, QPointF(x, y)), bg, 3)) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
    const double fw = double(right - left) / g.width(), fh = double(bottom - top) / g.height();
    QVERIFY2(std::max(fw, fh) > 0.88 && std::min(fw, fh) > 0.75, qPrintable(QStringLiteral("%1 x %2").arg(fw).arg(fh)));
}

void TestFleetMapLayers::resizeWhileZoomedKeepsTheView_data()
{
    QTest::addColumn<QSize>("to");
    QTest::newRow("wider") << QSize(1900, 600);
    QTest::newRow("a dock opens below") << QSize(900, 380);
    QTest::newRow("a dock opens beside") << QSize(480, 600);
}

void TestFleetMapLayers::resizeWhileZoomedKeepsTheView()
{
    // Zoomed to a node, any change of the view's size (a dock opening, a dock resized) keeps
    // the zoom and what is at the centre, though the map is laid out again for the new shape.
    QFETCH(QSize, to);
    show(makeCluster({ 2, 3, 4, 200, 1 }));
    const model::NodeId n = m_cluster.store->findNode("node-0000031");
    m_view->zoomToNode(n);
    const QImage zoomed = m_view->grabImage();
    const QRectF before = m_view->cellRect(n);
    const QPointF fromCentreBefore = before.center() - QRectF(gl()->geometry()).center();
    m_view->resize(to);
    QTRY_COMPARE(m_view->size(), to);
    const QImage image = m_view->grabImage();
    image.save(QDir::current().filePath(QStringLiteral("tst_fleetmaplayers_zoomed_resized_%1x%2.png").arg(to.width()).arg(to.height())));
    const QRectF after = m_view->cellRect(n);
    QVERIFY2(std::abs(after.width() - before.width()) < 0.01,
        qPrintable(QStringLiteral("cell %1 px wide before, %2 after").arg(before.width()).arg(after.width())));
    const QPointF fromCentreAfter = after.center() - QRectF(gl()->geometry()).center();
    QVERIFY2((fromCentreAfter - fromCentreBefore).manhattanLength() < 2.0,
        qPrintable(QStringLiteral("(%1, %2) from the centre before, (%3, %4) after")
                       .arg(fromCentreBefore.x())
                       .arg(fromCentreBefore.y())
                       .arg(fromCentreAfter.x())
                       .arg(fromCentreAfter.y())));
    // The pixels say so too: the node's cell shows the same colour where it was drawn.
    QVERIFY(near(pixel(image, after.center()), pixel(zoomed, before.center()), 3));
}

void TestFleetMapLayers::markersCanBeHiddenAndFadeWithTheirNodes()
{
    show(makeCluster({ 2, 4, 10, 600, 1 }, 12345, 20001));
    const model::NodeId bad = m_cluster.store->findNode("node-0012345");
    const model::NodeId cordoned = m_cluster.store->findNode("node-0020001");
    const QColor red = views::MarkerLayer::markerColor(views::NodeMarkerKind::NotReady);
    const QColor pink = views::MarkerLayer::markerColor(views::NodeMarkerKind::Cordoned);
    // Around the cell, not on it (a cordoned cell is filled pink itself): the marker's
    // stroke, kMarkerPx across, lies 3 to 6 px from the cell's centre.
    const auto countNear = [&](const QImage& image, model::NodeId n, QColor colour) {
        const QPointF c = m_view->cellRect(n).center();
        int count = 0;
        for (int dy = -6; dy <= 6; ++dy)
            for (int dx = -6; dx <= 6; ++dx)
                if (std::max(std::abs(dx), std::abs(dy)) >= 3)
                    count += near(pixel(image, c + QPointF(dx, dy)), colour, 20) ? 1 : 0;
        return count;
    };
    QCOMPARE(m_view->shownMarkerKinds(), FleetMapView::kAllMarkerKinds);
    const QImage all = m_view->grabImage();
    QVERIFY(countNear(all, bad, red) >= 12);
    QVERIFY(countNear(all, cordoned, pink) >= 12);
    // The legend's key counts the marked nodes whether their markers are drawn or not, and says
    // which kinds are hidden (a trial read "NotReady: 0" with the markers off).
    const auto* legend = m_view->findChild<views::MapLegend*>();
    QVERIFY(legend);
    QVERIFY2(legend->entries().contains(QStringLiteral("NotReady: 1")), qPrintable(legend->entries().join(QStringLiteral(" | "))));
    m_view->setShownMarkerKinds(0);
    QVERIFY2(legend->entries().contains(QStringLiteral("NotReady: 1 (hidden)")), qPrintable(legend->entries().join(QStringLiteral(" | "))));
    QVERIFY2(legend->entries().contains(QStringLiteral("Cordoned: 1 (hidden)")), qPrintable(legend->entries().join(QStringLiteral(" | "))));
    const QImage none = m_view->grabImage();
    QCOMPARE(countNear(none, bad, red), 0);
    QCOMPARE(countNear(none, cordoned, pink), 0);
    m_view->setShownMarkerKinds(1u << static_cast<unsigned>(views::NodeMarkerKind::Cordoned));
    QVERIFY2(legend->entries().contains(QStringLiteral("NotReady: 1 (hidden)")), qPrintable(legend->entries().join(QStringLiteral(" | "))));
    QVERIFY2(legend->entries().contains(QStringLiteral("Cordoned: 1")), qPrintable(legend->entries().join(QStringLiteral(" | "))));
    const QImage onlyCordoned = m_view->grabImage();
    QCOMPARE(countNear(onlyCordoned, bad, red), 0);
    QVERIFY(countNear(onlyCordoned, cordoned, pink) >= 12);
    // A filter that dims the NotReady node fades its marker with it; the kept one stays whole.
    m_view->setShownMarkerKinds(FleetMapView::kAllMarkerKinds);
    auto mask = std::make_shared<std::vector<std::uint8_t>>(m_cluster.store->nodeCount(), 1);
    (*mask)[bad.index()] = 0;
    m_view->setNodeMask(mask);
    const QImage filtered = m_view->grabImage();
    filtered.save(QDir::current().filePath(QStringLiteral("tst_fleetmaplayers_markers_filtered.png")));
    QVERIFY2(countNear(filtered, bad, red) < 3, qPrintable(QString::number(countNear(filtered, bad, red))));
    QVERIFY(countNear(filtered, cordoned, pink) >= 12);
    // Faded, not gone: the ring still differs from the map without markers.
    const QPointF c = m_view->cellRect(bad).center();
    int differs = 0;
    for (int dy = -6; dy <= 6; ++dy)
        for (int dx = -6; dx <= 6; ++dx)
            if (std::max(std::abs(dx), std::abs(dy)) >= 3)
                differs += near(pixel(filtered, c + QPointF(dx, dy)), pixel(none, c + QPointF(dx, dy)), 12) ? 0 : 1;
    QVERIFY2(differs >= 8, qPrintable(QString::number(differs)));
}

void TestFleetMapLayers::breadcrumbNamesWhereYouAre()
{
    show(makeCluster({ 2, 3, 4, 200, 1 }));
    QCOMPARE(m_view->breadcrumbText(), QString()); // the whole fleet: nothing to say
    const model::NodeId n = m_cluster.store->findNode("node-0000031");
    m_view->zoomToNode(n);
    const QString text = m_view->breadcrumbText();
    QVERIFY2(text.startsWith(QStringLiteral("region-0 > region-0a > nn-")), qPrintable(text));
    QVERIFY2(text.endsWith(QStringLiteral("node-0000031")), qPrintable(text));
    // The strip is drawn at the top: its pixels are not the map's.
    const QImage image = m_view->grabImage();
    image.save(QDir::current().filePath(QStringLiteral("tst_fleetmaplayers_breadcrumb.png")));
    int light = 0;
    for (int x = 4; x < 300; ++x)
        light += pixel(image, QPointF(gl()->x() + x, gl()->y() + 11)).lightness() > 150 ? 1 : 0;
    QVERIFY(light > 5);
}

void TestFleetMapLayers::clickOnADomainLabel()
{
    show(makeCluster({ 2, 3, 4, 200, 1 }));
    const model::Topology& topology = *m_cluster.topology;
    model::DomainId zone;
    for (std::uint32_t i = 1; i < topology.domainCount() && !zone.isValid(); ++i)
        if (topology.domainLevel(model::DomainId(i)) == 2 && !m_view->domainLabelRect(model::DomainId(i)).isNull())
            zone = model::DomainId(i);
    QVERIFY(zone.isValid());
    m_view->grabImage(); // a paint places the labels
    QApplication::processEvents();
    const QPoint at = m_view->domainLabelRect(zone).center() - gl()->pos();
    QSignalSpy activated(m_view.get(), &FleetMapView::domainActivated);
    QTest::mouseClick(gl(), Qt::LeftButton, {}, at);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().at(0).value<model::DomainId>(), zone);
    const QRectF before = m_view->cellRect(topology.domainNodes(zone)[0]);
    QTest::mouseDClick(gl(), Qt::LeftButton, {}, at);
    const QRectF after = m_view->cellRect(topology.domainNodes(zone)[0]);
    QVERIFY2(after.width() > before.width() * 1.5, qPrintable(QStringLiteral("%1 -> %2").arg(before.width()).arg(after.width())));
    // Every node of the zone is on screen.
    for (const model::NodeId n : topology.domainNodes(zone))
        QVERIFY(!m_view->cellCenter(n).isNull());
}

void TestFleetMapLayers::keyboardWorksAfterADialog()
{
    show(makeCluster({ 2, 3, 4, 200, 1 }));
    m_view->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_view.get()));
    // Nobody clicked the map: it has the focus all the same.
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(gl()));
    QDialog dialog(m_view.get());
    QTimer::singleShot(100, &dialog, &QDialog::accept);
    dialog.exec();
    // The window manager activates the window again (xvfb has none: the test does it).
    m_view->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_view.get()));
    QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(gl()));
    const model::NodeId n = m_cluster.store->findNode("node-0000031");
    const double w0 = m_view->cellRect(n).width();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Plus);
    const double w1 = m_view->cellRect(n).width();
    QVERIFY2(w1 > w0 * 1.3, qPrintable(QStringLiteral("%1 -> %2").arg(w0).arg(w1)));
    const QPointF c1 = m_view->cellRect(n).center();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Left);
    QVERIFY(m_view->cellRect(n).center().x() > c1.x() + 10); // the map moves right
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(m_view->cellRect(n).width(), w0);
    m_view->setSelectedNode(n);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z);
    QVERIFY(m_view->cellRect(n).width() >= views::NodeDetailLayer::kNameMinPx);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Home);
    QCOMPARE(m_view->cellRect(n).width(), w0);
}

void TestFleetMapLayers::noHoverWithoutARealPointerMove()
{
    show(makeCluster({ 2, 3, 4, 200, 1 }));
    const model::NodeId n = m_cluster.store->findNode("node-0000031");
    const QPointF at = m_view->cellRect(n).center() - QPointF(gl()->pos());
    QSignalSpy hovered(m_view.get(), &FleetMapView::nodeHovered);
    // The window appears under a resting pointer: an Enter, no move.
    QEnterEvent enter(at, gl()->mapToGlobal(at), gl()->mapToGlobal(at));
    QApplication::sendEvent(gl(), &enter);
    m_view->resetView();
    QCOMPARE(hovered.count(), 0);
    m_view->setCluster(m_cluster.store, m_cluster.topology); // always emits: nothing under it
    QCOMPARE(hovered.count(), 1);
    QVERIFY(!hovered.last().at(0).value<model::NodeId>().isValid());
    // The user moves it: now it hovers.
    QMouseEvent real(QEvent::MouseMove, at, gl()->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(gl(), &real);
    QCOMPARE(hovered.count(), 2);
    QCOMPARE(hovered.last().at(0).value<model::NodeId>(), n);
}

void TestFleetMapLayers::clickSelects()
{
    show(makeCluster({ 2, 3, 4, 200, 1 }));
    const model::NodeId n = m_cluster.store->findNode("node-0000031");
    QSignalSpy activated(m_view.get(), &FleetMapView::nodeActivated);
    QSignalSpy selected(m_view.get(), &FleetMapView::selectionChanged);
    QTest::mouseClick(gl(), Qt::LeftButton, {}, m_view->cellCenter(n) - gl()->pos());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(m_view->selectedNode(), n);
}

FLEET_GUI_TEST_MAIN(TestFleetMapLayers, fleet::testing::setVtkSurfaceFormat)

// A report's zoomed map (frameDomain()) shows the domain it names: its nodes whole, centred
// under the breadcrumb strip and filling the view one way, and the breadcrumb names the
// domain (user trial: a zone's map named one node, a network domain's named another domain
// and ran off both edges).
void TestFleetMapLayers::framedDomainIsWholeCentredAndNamed()
{
    show(makeCluster({ 2, 3, 4, 200, 1 }), QSize(720, 500));
    const model::Topology& topology = *m_cluster.topology;
    const QRectF map = QRectF(gl()->geometry()).adjusted(0, views::BreadcrumbLayer::kStripPx, 0, 0);
    int framed = 0;
    for (std::uint32_t i = 1; i < topology.domainCount(); ++i) {
        const model::DomainId d(i);
        if (topology.domainLevel(d) < 2 || topology.domainLevel(d) > 3 || framed >= 8)
            continue;
        ++framed;
        m_view->frameDomain(d);
        QStringList path;
        for (model::DomainId p = d; p != topology.root(); p = topology.domainParent(p))
            path.prepend(QString::fromStdString(topology.domainName(p)));
        QCOMPARE(m_view->breadcrumbText(), path.join(QStringLiteral(" > ")));
        QRectF nodes;
        for (const model::NodeId n : topology.domainNodes(d))
            nodes |= m_view->cellRect(n);
        const QString where = QStringLiteral("%1: nodes at %2,%3 %4x%5 in %6,%7 %8x%9")
                                  .arg(path.join(QLatin1Char('/')))
                                  .arg(nodes.x()).arg(nodes.y()).arg(nodes.width()).arg(nodes.height())
                                  .arg(map.x()).arg(map.y()).arg(map.width()).arg(map.height());
        QVERIFY2(map.contains(nodes), qPrintable(where));
        // The labels of its children, in the band at its top, are under the strip too (user
        // trial: the strip covered the first row's labels): the nodes and that band are centred.
        QRectF framed = nodes;
        // The domain's own label, in the gap above its block, is not under the strip either:
        // there it was drawn over the breadcrumb.
        if (const QRect own = m_view->domainLabelRect(d); !own.isEmpty()) {
            QVERIFY2(own.top() >= map.top(), qPrintable(where + QStringLiteral(": its own label at y %1").arg(own.top())));
            framed |= QRectF(own);
        }
        for (std::uint32_t c = 1; c < topology.domainCount(); ++c)
            if (topology.domainParent(model::DomainId(c)) == d)
                if (const QRect label = m_view->domainLabelRect(model::DomainId(c)); !label.isEmpty()) {
                    QVERIFY2(label.top() >= map.top(), qPrintable(where + QStringLiteral(": a label at y %1").arg(label.top())));
                    framed |= QRectF(label);
                }
        const double cell = m_view->cellRect(topology.domainNodes(d).front()).height();
        QVERIFY2(std::abs(nodes.center().x() - map.center().x()) <= 2 && std::abs(framed.center().y() - map.center().y()) <= std::max(2.0, cell),
            qPrintable(where));
        QVERIFY2(nodes.width() >= 0.85 * map.width() || framed.height() >= 0.85 * map.height(), qPrintable(where));
    }
    QVERIFY(framed >= 4);
    // Reset Zoom shows the whole fleet again: no domain is named (a report's whole-fleet maps,
    // drawn after its zoomed ones, were headed with the last zoomed domain's name).
    m_view->resetView();
    QCOMPARE(m_view->breadcrumbText(), QString());
}

// The "Added later (N)" boxes of a comparison, one under each domain with added nodes: two
// neighbouring racks' boxes wanted the same place and were drawn over each other (a trial saw
// them overlap). Drawn apart, their teal pixels (outlines and filled squares) add up: the two
// together show as many as each alone.
void TestFleetMapLayers::comparedAddedBoxesDoNotOverlap()
{
    show(makeCluster({ 1, 1, 24, 4, 1 })); // racks narrower than a box
    const model::Topology& topology = *m_cluster.topology;
    const model::DomainId zone = topology.domainChildren(topology.domainChildren(topology.root()).front()).front();
    const auto racks = topology.domainChildren(zone);
    QVERIFY(racks.size() >= 2);
    const auto marksIn = [&](std::vector<model::DomainId> domains) {
        auto marks = std::make_shared<views::ComparedMarks>();
        marks->topology = m_cluster.topology;
        int n = 0;
        for (const model::DomainId d : domains)
            marks->added.push_back({ "new-" + std::to_string(n++), d, 0.5 });
        return marks;
    };
    const auto tealIn = [this](std::shared_ptr<const views::ComparedMarks> marks) {
        m_view->setComparedMarks(std::move(marks));
        const QImage image = m_view->grabImage().convertToFormat(QImage::Format_RGB32);
        const QRgb teal = views::AddedNodeLayer::addedColor().rgb();
        int count = 0;
        for (int y = 0; y < image.height(); ++y) {
            const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
            for (int x = 0; x < image.width(); ++x)
                count += line[x] == teal;
        }
        return count;
    };
    const int none = tealIn(nullptr);
    const int first = tealIn(marksIn({ racks[0] })) - none;
    const int second = tealIn(marksIn({ racks[1] })) - none;
    QVERIFY2(first > 100 && second > 100, qPrintable(QStringLiteral("%1, %2").arg(first).arg(second)));
    const int both = tealIn(marksIn({ racks[0], racks[1] })) - none;
    QVERIFY2(both == first + second, qPrintable(QStringLiteral("both %1, apart %2 + %3").arg(both).arg(first).arg(second)));
    m_view->setComparedMarks(nullptr);
}

// placeApart() on its own: boxes wanted at one place, and at the view's bottom edge, end apart
// and, while there is room, inside the view.
void TestFleetMapLayers::comparedBoxesArePlacedApart()
{
    const QRectF view(2, 2, 600, 400);
    const std::vector<QRectF> sameSpot(5, QRectF(100, 100, 120, 40));
    const std::vector<QRectF> atBottom(4, QRectF(50, 358, 120, 40));
    for (const auto& wanted : { sameSpot, atBottom }) {
        const std::vector<QRectF> placed = views::ComparedNodeLayer::placeApart(wanted, view, 3);
        QCOMPARE(placed.size(), wanted.size());
        QCOMPARE(placed.front(), wanted.front());
        for (std::size_t i = 0; i < placed.size(); ++i) {
            QCOMPARE(placed[i].size(), wanted[i].size());
            QVERIFY2(view.contains(placed[i]), qPrintable(QStringLiteral("box %1 out of the view").arg(i)));
            for (std::size_t j = 0; j < i; ++j)
                QVERIFY2(!placed[i].intersects(placed[j]), qPrintable(QStringLiteral("boxes %1 and %2 overlap").arg(j).arg(i)));
        }
    }
}

// A domain framed by its height (a wide, low map): its own label, in the gap above its block,
// is drawn below the breadcrumb strip, not under it (a report's zoomed map drew it over the
// breadcrumb).
void TestFleetMapLayers::framedDomainLabelClearsTheBreadcrumb()
{
    show(makeCluster({ 2, 3, 4, 200, 1 }), QSize(1400, 260));
    const model::Topology& topology = *m_cluster.topology;
    const double strip = views::BreadcrumbLayer::kStripPx;
    int labelled = 0;
    for (std::uint32_t i = 1; i < topology.domainCount(); ++i) {
        const model::DomainId d(i);
        if (topology.domainLevel(d) > 3)
            continue;
        m_view->frameDomain(d);
        const QRect own = m_view->domainLabelRect(d);
        if (own.isEmpty())
            continue;
        ++labelled;
        QVERIFY2(own.top() >= gl()->geometry().top() + strip,
            qPrintable(QStringLiteral("%1: its label at y %2, the strip to %3").arg(QString::fromStdString(topology.domainName(d))).arg(own.top()).arg(strip)));
    }
    QVERIFY(labelled >= 4);
}

#include "tst_fleetmaplayers.moc"
