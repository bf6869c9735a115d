// SPDX-License-Identifier: Apache-2.0
// Renders a small hand-made cluster with FleetMapView (VTK in an embedded OpenGL window, under
// xvfb-run) and checks pixels: the colour at a known node's cell, picking, click, zoom.

#include "common/pixelchecks.h"
#include "common/mapfixtures.h"
#include "common/mapviewprobe.h"
#include "views/map/colormap.h"
#include "views/map/fleetmapview.h"
#include "views/map/maplegend.h"
#include "views/map/mapraster.h"
#include "views/vtk/vtkopenglwidget.h"

#include "common/guitestmain.h"

#include <QApplication>
#include <QScreen>
#include <QMouseEvent>
#include <QDir>

#include <QSignalSpy>
#include <QSurfaceFormat>
#include <QTest>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <limits>
#include <vector>

using namespace fleet;
using fleet::views::FleetMapView;
using fleet::views::MapMetric;

namespace {

using Cluster = testing::MapCluster;

// The map tests' cluster (makeMapCluster(): node-0000007 at 75% GPU, node-0000031 at 10%), with
// node-0000050 NotReady, node-0000052 cordoned and a spread of loads.
Cluster makeCluster()
{
    return testing::makeMapCluster(
        testing::kMapTestShape,
        [](model::NodeRecord& rec, std::size_t i) {
            if (i == 50)
                rec.ready = model::Readiness::False;
            if (i == 52)
                rec.unschedulable = true;
        },
        [](model::ClusterStore& s) {
            for (int i = 0; i < 120; i += 11) // a spread of loads
                testing::addPod(
                    s, "spread-" + std::to_string(i), "node-" + testing::zeroPad(i, 7), 1000, 1LL << 30, (i * 37) % 8001);
        });
}

using fleet::testing::near;

using fleet::testing::describe;

} // namespace

class TestFleetMapRender : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void knownNodesHaveTheirColours();
    void windowShowsWhatGrabImageShows();
    void hiddenViewPaintsWhatTheWindowShows();
    void pickingIsTheInverseOfCellCenter();
    void clickActivatesTheNode();
    void wheelZoomKeepsTheNodeUnderTheCursor();
    void metricChangeRecolours();
    void renderRequestsAreMerged();
    void frameComesInALaterTurn();
    void labelsNeverCoverCells_data();
    void labelsNeverCoverCells();
    void hoverFollowsTheMapUnderARestingPointer();
    void gutterPixelPicksTheNearestCell_data();
    void gutterPixelPicksTheNearestCell();
    void legendTitleFollowsTheFleet();
    void zoomedDomainStaysFramedWhenTheViewNarrows();

private:
    [[nodiscard]] model::NodeId node(const char* name) const { return m_cluster.store->findNode(name); }
    QWidget* glWidget() const { return m_view->findChild<views::VtkOpenGLWidget*>(); }
    void showAndWaitForFrame();
    /// The known nodes' colours in `image` (a grab of the view, device pixels).
    void checkKnownColours(const QImage& image, const char* what);
    void wheel(const QPointF& glPos, int angle);

    Cluster m_cluster;
    std::unique_ptr<FleetMapView> m_view;
};

void TestFleetMapRender::init()
{
    m_cluster = makeCluster();
    m_view = std::make_unique<FleetMapView>();
    m_view->resize(900, 600);
    m_view->setCluster(m_cluster.store, m_cluster.topology);
}

void TestFleetMapRender::cleanup()
{
    m_view.reset();
}

void TestFleetMapRender::showAndWaitForFrame()
{
    QVERIFY(testing::showAndWaitForFrame(*m_view));
}

void TestFleetMapRender::checkKnownColours(const QImage& image, const char* what)
{
    struct Case {
        const char* name;
        QColor expected;
    };
    const Case cases[] = {
        { "node-0000007", views::shareColor(0.75) },
        { "node-0000031", views::shareColor(0.10) },
        { "node-0000100", views::shareColor(0.0) },
        { "node-0000050", views::notReadyColor() },
        { "node-0000052", views::cordonedColor() },
    };
    const qreal dpr = image.devicePixelRatio();
    for (const Case& c : cases) {
        const QPoint p = testing::swatchPoint(*m_view, node(c.name));
        QVERIFY2(!p.isNull(), c.name);
        const QColor got = image.pixelColor(QPoint(qRound(p.x() * dpr), qRound(p.y() * dpr)));
        QVERIFY2(near(got, c.expected, 3),
            qPrintable(QStringLiteral("%1 at (%2,%3) in the %4: got %5, expected %6")
                           .arg(QLatin1String(c.name))
                           .arg(p.x())
                           .arg(p.y())
                           .arg(QLatin1String(what), describe(got), describe(c.expected))));
    }
}

// A pointer move delivered straight to the GL widget. QTest::mouseMove warps the X server's
// pointer too, whose own motion events then arrive later, in any order with the next move:
// CI once saw the hover of an earlier position win.
static void moveOver(QWidget* gl, const QPoint& pos)
{
    QMouseEvent event(QEvent::MouseMove, QPointF(pos), QPointF(gl->mapToGlobal(pos)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(gl, &event);
}

void TestFleetMapRender::wheel(const QPointF& glPos, int angle)
{
    QWidget* gl = glWidget();
    QWheelEvent event(
        glPos, gl->mapToGlobal(glPos), QPoint(), QPoint(0, angle), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(gl, &event);
}

void TestFleetMapRender::knownNodesHaveTheirColours()
{
    showAndWaitForFrame();
    const QImage image = m_view->grabImage();
    const QString out = QDir::current().filePath(QStringLiteral("tst_fleetmaprender.png"));
    QVERIFY(image.save(out));
    qInfo() << "saved" << out;
    checkKnownColours(image, "screenshot");
    if (QTest::currentTestFailed())
        return;
    // Differently loaded nodes differ on screen.
    const auto pixelAt = [&](const char* name) { return testing::swatchColor(*m_view, image, node(name)); };
    QVERIFY(!near(pixelAt("node-0000007"), pixelAt("node-0000031"), 20));
    // A gutter pixel is the background.
    QCOMPARE(image.pixelColor(1, 1), views::mapBackgroundColor());
}

// The window's frame is a copy of the layers' image into the window's framebuffer
// (FrameBlit), a screenshot a flipped blit into a framebuffer object: both must show the same
// picture, the right way up. Read back from the X server, as a user sees it.
void TestFleetMapRender::windowShowsWhatGrabImageShows()
{
    showAndWaitForFrame();
    const QImage grabbed = m_view->grabImage().convertToFormat(QImage::Format_RGB32);
    const QPoint origin = m_view->mapToGlobal(QPoint(0, 0)); // the map and its legend
    const auto grabScreen = [&] {
        QImage image = m_view->screen()->grabWindow(0, origin.x(), origin.y(), m_view->width(), m_view->height())
                           .toImage()
                           .convertToFormat(QImage::Format_RGB32);
        image.setDevicePixelRatio(m_view->devicePixelRatioF());
        return image;
    };
    const auto differing = [&](const QImage& screen) {
        std::size_t differ = 0;
        for (int y = 0; y < screen.height(); ++y)
            for (int x = 0; x < screen.width(); ++x)
                differ += screen.pixel(x, y) != grabbed.pixel(x, y) ? 1 : 0;
        return differ;
    };
    // The swapped frame reaches the X server some time after frameRendered: read the screen
    // until it shows the frame (at most 10 s), then check what it shows (the checks below say
    // what differs when it never does).
    QImage screen;
    (void)QTest::qWaitFor(
        [&] {
            screen = grabScreen();
            return screen.size() == grabbed.size() && differing(screen) * 1000 < static_cast<std::size_t>(screen.width()) * screen.height();
        },
        10000);
    QCOMPARE(screen.size(), grabbed.size());
    const QString out = QDir::current().filePath(QStringLiteral("tst_fleetmaprender-window.png"));
    QVERIFY(screen.save(out));
    checkKnownColours(screen, "window");
    if (QTest::currentTestFailed())
        return;
    const std::size_t differ = differing(screen);
    QVERIFY2(differ * 1000 < static_cast<std::size_t>(screen.width()) * screen.height(),
        qPrintable(QStringLiteral("%1 of %2 pixels differ; window saved as %3").arg(differ).arg(screen.width() * screen.height()).arg(out)));
}

// A view that is never shown (a report's maps) paints its layers with the raster engine, with
// no OpenGL context: the same picture as the shown view's OpenGL frame, the legend included.
void TestFleetMapRender::hiddenViewPaintsWhatTheWindowShows()
{
    FleetMapView hidden;
    hidden.setAttribute(Qt::WA_DontShowOnScreen, true);
    hidden.resize(m_view->size());
    hidden.setCluster(m_cluster.store, m_cluster.topology);
    const QImage painted = hidden.grabImage().convertToFormat(QImage::Format_RGB32);
    QVERIFY(!hidden.isVisible());
    showAndWaitForFrame();
    const QImage rendered = m_view->grabImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(painted.size(), rendered.size());
    checkKnownColours(painted, "hidden view");
    if (QTest::currentTestFailed())
        return;
    std::size_t differ = 0;
    for (int y = 0; y < painted.height(); ++y)
        for (int x = 0; x < painted.width(); ++x)
            differ += near(painted.pixelColor(x, y), rendered.pixelColor(x, y), 2) ? 0 : 1;
    QVERIFY2(differ * 1000 < static_cast<std::size_t>(painted.width()) * painted.height(),
        qPrintable(QStringLiteral("%1 of %2 pixels differ").arg(differ).arg(painted.width() * painted.height())));
}

void TestFleetMapRender::pickingIsTheInverseOfCellCenter()
{
    showAndWaitForFrame();
    for (std::uint32_t i = 0; i < m_cluster.store->nodeCount(); ++i) {
        const model::NodeId n(i);
        const QPoint p = m_view->cellCenter(n);
        QVERIFY(!p.isNull());
        QCOMPARE(m_view->nodeAt(p), n);
    }
    QVERIFY(!m_view->nodeAt(QPoint(1, 1)).isValid());
    QVERIFY(!m_view->nodeAt(QPoint(-5, 3)).isValid());
}

void TestFleetMapRender::clickActivatesTheNode()
{
    showAndWaitForFrame();
    QSignalSpy activated(m_view.get(), &FleetMapView::nodeActivated);
    QSignalSpy hovered(m_view.get(), &FleetMapView::nodeHovered);
    const model::NodeId n = node("node-0000031");
    QWidget* gl = glWidget();
    QVERIFY(gl);
    const QPoint local = m_view->cellCenter(n) - gl->pos();
    moveOver(gl, local);
    QTRY_VERIFY(hovered.count() > 0);
    QCOMPARE(hovered.last().at(0).value<model::NodeId>(), n);
    QTest::mouseClick(gl, Qt::LeftButton, {}, local);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().at(0).value<model::NodeId>(), n);
}

void TestFleetMapRender::wheelZoomKeepsTheNodeUnderTheCursor()
{
    showAndWaitForFrame();
    const model::NodeId n = node("node-0000007");
    QWidget* gl = glWidget();
    const QPoint before = m_view->cellCenter(n);
    const QPointF local = QPointF(before - gl->pos()) + QPointF(0.5, 0.5);
    QWheelEvent wheel(
        local, gl->mapToGlobal(local), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(gl, &wheel);
    QCOMPARE(m_view->nodeAt(before), n);
    const QImage image = m_view->grabImage();
    const QPoint after = m_view->cellCenter(n);
    QVERIFY(!after.isNull());
    const QColor got = testing::swatchColor(*m_view, image, n);
    QVERIFY2(near(got, views::shareColor(0.75), 3), qPrintable(describe(got)));
    image.save(QDir::current().filePath(QStringLiteral("tst_fleetmaprender_zoomed.png")));
}

void TestFleetMapRender::metricChangeRecolours()
{
    showAndWaitForFrame();
    m_view->setMetric(MapMetric::CpuRequested);
    QCOMPARE(m_view->metric(), MapMetric::CpuRequested);
    const QImage image = m_view->grabImage();
    const QColor got = testing::swatchColor(*m_view, image, node("node-0000007"));
    QVERIFY2(near(got, views::shareColor(0.5), 3), qPrintable(describe(got)));
}

// Many requests in one event-loop turn give one frame.
void TestFleetMapRender::renderRequestsAreMerged()
{
    showAndWaitForFrame();
    {
        // Let every frame still queued from showing arrive: quiet for 500 ms (a busy CI
        // machine can delay one well past a fixed pause).
        QSignalSpy settling(m_view.get(), &FleetMapView::frameRendered);
        while (settling.wait(500))
            settling.clear();
    }
    QSignalSpy frames(m_view.get(), &FleetMapView::frameRendered);
    for (int i = 0; i < 5; ++i) {
        m_view->resetView();
        m_view->setMetric(i % 2 ? MapMetric::CpuRequested : MapMetric::MemoryRequested);
    }
    QVERIFY(frames.wait(10000));
    // A second frame would be a 1 ms timer started before this one (requestRender()): once
    // this one has fired, every frame the five requests asked for has been rendered.
    bool flushed = false;
    QTimer::singleShot(20, Qt::PreciseTimer, m_view.get(), [&] { flushed = true; });
    QTRY_VERIFY_WITH_TIMEOUT(flushed, 10000);
    QCOMPARE(frames.count(), 1);
}

// The frame a change asks for comes in a later turn of the event loop than the change (a timer,
// not a posted call): the work and the frame are two stalls at most, never one.
void TestFleetMapRender::frameComesInALaterTurn()
{
    showAndWaitForFrame();
    {
        QSignalSpy settling(m_view.get(), &FleetMapView::frameRendered);
        while (settling.wait(500))
            settling.clear();
    }
    QSignalSpy frames(m_view.get(), &FleetMapView::frameRendered);
    m_view->setMetric(m_view->metric() == MapMetric::CpuRequested ? MapMetric::MemoryRequested : MapMetric::CpuRequested);
    QCoreApplication::sendPostedEvents(); // what the turn that asked runs before it returns to the loop
    QCOMPARE(frames.count(), 0);
    QVERIFY(frames.wait(10000));
    QCOMPARE(frames.count(), 1);
}

void TestFleetMapRender::labelsNeverCoverCells_data()
{
    QTest::addColumn<int>("zonesPerRegion");
    QTest::addColumn<int>("leavesPerZone");
    QTest::addColumn<int>("nodesPerLeaf");
    QTest::addColumn<int>("regions");
    QTest::newRow("10 nodes") << 1 << 1 << 10 << 1;
    QTest::newRow("120 nodes") << 2 << 3 << 10 << 2;
    QTest::newRow("1,008 nodes") << 3 << 6 << 28 << 2;
}

// A labelled block's first cells show their own colour at the default zoom (the labels sit
// in the rows the layout keeps free above each block), every zone is labelled at the
// default zoom, no label covers a cell, and zooming in labels deeper levels.
void TestFleetMapRender::labelsNeverCoverCells()
{
    QFETCH(int, zonesPerRegion);
    QFETCH(int, leavesPerZone);
    QFETCH(int, nodesPerLeaf);
    QFETCH(int, regions);
    Cluster c;
    testing::addFleetNodes(*c.store, { regions, zonesPerRegion, leavesPerZone, nodesPerLeaf, 1 });
    for (int i = 0; i < static_cast<int>(c.store->nodeCount()); i += 3)
        testing::addPod(
            *c.store, "p" + std::to_string(i), "node-" + testing::zeroPad(i, 7), 1000, 1LL << 30, 1000 + (i * 997) % 7000);
    c.store->finalize();
    c.topology = std::make_shared<model::Topology>(model::Topology::build(*c.store));
    m_view->setCluster(c.store, c.topology);
    showAndWaitForFrame();
    const model::Topology& topology = *c.topology;
    const views::MetricKeys keys = views::MetricKeys::find(*c.store);

    const auto checkLabels = [&](const QImage& image, int& zoneLabels, int& deepLabels) {
        const qreal dpr = image.devicePixelRatio();
        zoneLabels = deepLabels = 0;
        for (std::uint32_t i = 1; i < topology.domainCount(); ++i) {
            const model::DomainId dom(i);
            const QRect label = m_view->domainLabelRect(dom).intersected(m_view->rect());
            if (label.isEmpty())
                continue;
            if (topology.domainLevel(dom) == 2)
                ++zoneLabels;
            if (topology.domainLevel(dom) >= 3)
                ++deepLabels;
            // No pixel of the label is on a cell.
            for (int y = label.top(); y <= label.bottom(); ++y)
                for (int x = label.left(); x <= label.right(); ++x)
                    QVERIFY2(!m_view->cellNodeAt(QPoint(x, y)).isValid(),
                        qPrintable(QStringLiteral("label of %1 covers a cell at (%2,%3)")
                                       .arg(QString::fromStdString(topology.domainName(dom)))
                                       .arg(x)
                                       .arg(y)));
            // The first cells of a labelled block show their own colour.
            const auto nodes = topology.domainNodes(dom);
            for (std::size_t k = 0; k < std::min<std::size_t>(nodes.size(), 3); ++k) {
                const QPoint p = testing::swatchPoint(*m_view, nodes[k]);
                if (p.isNull())
                    continue;
                const QColor expected(views::MapRaster::nodeColor(*c.store, nodes[k], m_view->metric(), keys));
                const QColor got = image.pixelColor(QPoint(qRound(p.x() * dpr), qRound(p.y() * dpr)));
                QVERIFY2(near(got, expected, 3),
                    qPrintable(QStringLiteral("node %1 of %2 at (%3,%4): got %5, expected %6")
                                   .arg(k)
                                   .arg(QString::fromStdString(topology.domainName(dom)))
                                   .arg(p.x())
                                   .arg(p.y())
                                   .arg(describe(got), describe(expected))));
            }
            // The label is drawn: its box holds light text pixels.
            int light = 0;
            for (int y = label.top(); y <= label.bottom(); ++y)
                for (int x = label.left(); x <= label.right(); ++x)
                    light += image.pixelColor(QPoint(qRound(x * dpr), qRound(y * dpr))).lightness() > 140 ? 1 : 0;
            QVERIFY2(light > 0, qPrintable(QString::fromStdString(topology.domainName(dom))));
        }
    };

    int zoneLabels = 0, deepLabels = 0;
    QImage image = m_view->grabImage();
    checkLabels(image, zoneLabels, deepLabels);
    if (QTest::currentTestFailed())
        return;
    image.save(QDir::current().filePath(QStringLiteral("tst_fleetmaprender_labels_%1.png").arg(c.store->nodeCount())));
    QCOMPARE(zoneLabels, regions * zonesPerRegion);
    const int deepLabelsAtDefaultZoom = deepLabels;

    // Every block that has room gets its label, in every row of its parent, not only the
    // first (user trial: blocks in rows 2 and below had none and looked as if they belonged
    // to the label above). The fleet is uniform, so at each zoom: where a domain of a level
    // is labelled, every domain of that level wholly on screen and at least as wide on
    // screen is labelled too. Checked zoom step by step, so that the zooms where only some
    // rows have room are met.
    struct Extent {
        int left = 0, right = 0, top = 0;
        bool onScreen = false;
    };
    const auto extentOf = [&](model::DomainId dom) {
        Extent ex;
        ex.onScreen = true;
        bool first = true;
        for (const model::NodeId n : topology.domainNodes(dom)) {
            const QPoint p = m_view->cellCenter(n);
            if (p.isNull()) {
                ex.onScreen = false;
                return ex;
            }
            ex.left = first ? p.x() : std::min(ex.left, p.x());
            ex.right = first ? p.x() : std::max(ex.right, p.x());
            ex.top = first ? p.y() : std::min(ex.top, p.y());
            first = false;
        }
        return ex;
    };
    int laterRowLabels = 0;
    const auto checkEveryRow = [&]() {
        std::vector<int> narrowestLabelled(topology.levelKeys().size() + 1, std::numeric_limits<int>::max());
        std::vector<Extent> extents(topology.domainCount());
        for (std::uint32_t i = 1; i < topology.domainCount(); ++i) {
            const model::DomainId dom(i);
            extents[i] = extentOf(dom);
            if (extents[i].onScreen && !m_view->domainLabelRect(dom).isNull()) {
                int& w = narrowestLabelled[static_cast<std::size_t>(topology.domainLevel(dom))];
                w = std::min(w, extents[i].right - extents[i].left);
            }
        }
        for (std::uint32_t i = 1; i < topology.domainCount(); ++i) {
            const model::DomainId dom(i);
            const Extent& ex = extents[i];
            // Wholly on screen with room for its label above it (a label is drawn from 8 px).
            if (!ex.onScreen || ex.top < m_view->height() / 8
                || ex.right - ex.left < narrowestLabelled[static_cast<std::size_t>(topology.domainLevel(dom))])
                continue;
            const bool labelled = !m_view->domainLabelRect(dom).isNull();
            QVERIFY2(labelled,
                qPrintable(QStringLiteral("%1 (level %2, %3 px wide) has no label where a sibling as wide has one")
                               .arg(QString::fromStdString(topology.domainName(dom)))
                               .arg(topology.domainLevel(dom))
                               .arg(ex.right - ex.left)));
            // Below the first row of its parent: a sibling's first cell is higher up.
            bool laterRow = false;
            for (const model::DomainId sibling : topology.domainChildren(topology.domainParent(dom))) {
                const Extent& sx = extents[sibling.index()];
                laterRow = laterRow || (sx.onScreen && sx.top + 1 < ex.top && sx.left <= ex.right && ex.left <= sx.right);
            }
            if (laterRow && topology.domainLevel(dom) >= 2)
                ++laterRowLabels;
        }
    };
    checkEveryRow();
    if (QTest::currentTestFailed())
        return;

    // Zoomed in at the centre, the network layer's labels appear.
    QWidget* gl = glWidget();
    const QPointF at(gl->width() / 2.0, gl->height() / 2.0);
    for (int i = 0; i < 8; ++i) {
        QWheelEvent wheel(
            at, gl->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(gl, &wheel);
        checkEveryRow();
        if (QTest::currentTestFailed())
            return;
        if (i == 5) {
            image = m_view->grabImage();
            checkLabels(image, zoneLabels, deepLabels);
            if (QTest::currentTestFailed())
                return;
            QVERIFY(deepLabelsAtDefaultZoom + deepLabels > 0);
        }
    }
    // Labels below the first row were checked (the 1,008-node fleet has several rows).
    if (c.store->nodeCount() > 500)
        QVERIFY(laterRowLabels > 0);
}

// User trial: with the pointer resting on a cell, the tooltip of a node that was gone stayed
// over a newly loaded cluster, and after a zoom the hovered node was the one from before.
// Whenever the map moves or changes under a resting pointer, the tooltip goes and
// nodeHovered names the node now under the pointer (or an invalid id).
void TestFleetMapRender::hoverFollowsTheMapUnderARestingPointer()
{
    showAndWaitForFrame();
    QWidget* gl = glWidget();
    QSignalSpy hovered(m_view.get(), &FleetMapView::nodeHovered);
    const model::NodeId first = node("node-0000031");
    const QPoint local = m_view->cellCenter(first) - gl->pos();
    const QPoint inView = local + gl->pos();
    moveOver(gl, QPoint(2, 2)); // Qt drops a move to where the pointer already is
    moveOver(gl, local);
    QTRY_VERIFY(hovered.count() > 0);
    QCOMPARE(hovered.last().at(0).value<model::NodeId>(), first);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("node-0000031")), qPrintable(QToolTip::text()));

    // A new cluster of 2 nodes: one emission, naming what the new map has under the pointer.
    Cluster small;
    testing::addFleetNodes(*small.store, { 1, 1, 1, 2, 1 });
    small.store->finalize();
    small.topology = std::make_shared<model::Topology>(model::Topology::build(*small.store));
    hovered.clear();
    m_view->setCluster(small.store, small.topology);
    QCOMPARE(hovered.count(), 1);
    QCOMPARE(hovered.last().at(0).value<model::NodeId>(), m_view->nodeAt(inView));
    // The old tooltip goes well before its own 10 s expiry.
    QTRY_VERIFY_WITH_TIMEOUT(!QToolTip::isVisible(), 5000);

    // Back to the first cluster, the pointer on a cell again; the tooltip shows again.
    m_view->setCluster(m_cluster.store, m_cluster.topology);
    QCOMPARE(hovered.last().at(0).value<model::NodeId>(), first);
    moveOver(gl, local + QPoint(1, 0));
    QTRY_VERIFY(QToolTip::isVisible());

    // Zooming out far around another point moves the map under the pointer: the pointer is
    // now where the wheel turned, and the node there is recomputed.
    const model::NodeId far = node("node-0000100");
    const QPointF wheelAt = QPointF(m_view->cellCenter(far) - gl->pos()) + QPointF(0.5, 0.5);
    hovered.clear();
    for (int i = 0; i < 4; ++i)
        wheel(wheelAt, -120);
    QVERIFY(hovered.count() > 0);
    QCOMPARE(hovered.last().at(0).value<model::NodeId>(), far);
    QTRY_VERIFY_WITH_TIMEOUT(!QToolTip::isVisible(), 5000);

    // A resize refits the map: the node under the resting pointer is recomputed.
    m_view->resetView();
    moveOver(gl, local);
    QTRY_COMPARE(hovered.last().at(0).value<model::NodeId>(), first);
    hovered.clear();
    m_view->resize(500, 700);
    QTRY_VERIFY(hovered.count() > 0);
    QCOMPARE(hovered.last().at(0).value<model::NodeId>(), m_view->nodeAt(inView));
    QVERIFY(hovered.last().at(0).value<model::NodeId>() != first);

    // Leaving: an invalid id.
    moveOver(gl, m_view->cellCenter(first) - gl->pos());
    QTRY_COMPARE(hovered.last().at(0).value<model::NodeId>(), first);
    hovered.clear();
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(gl, &leave);
    QCOMPARE(hovered.count(), 1);
    QVERIFY(!hovered.last().at(0).value<model::NodeId>().isValid());
}

void TestFleetMapRender::gutterPixelPicksTheNearestCell_data()
{
    QTest::addColumn<int>("zoomOutSteps");
    QTest::newRow("fitted") << 0;
    QTest::newRow("zoomed out") << 6;
}

// User trial: at the fitted zoom on 100,000 nodes a cell is about 1 px and most pointer
// positions are on gutters. A gutter pixel within 5 px of a cell picks that cell; a pixel
// farther from every cell picks nothing; cellNodeAt() stays exact.
void TestFleetMapRender::gutterPixelPicksTheNearestCell()
{
    QFETCH(int, zoomOutSteps);
    showAndWaitForFrame();
    QWidget* gl = glWidget();
    for (int i = 0; i < zoomOutSteps; ++i)
        wheel(QPointF(gl->width() / 2.0, gl->height() / 2.0), -120);
    int checked = 0, wide = 0;
    for (std::uint32_t i = 0; i < m_cluster.store->nodeCount(); ++i) {
        const model::NodeId n(i);
        const QPoint c = m_view->cellCenter(n);
        if (c.isNull())
            continue;
        // The first pixel right of n's cell: a gutter when n ends its block's row.
        int x = c.x();
        while (m_view->cellNodeAt(QPoint(x, c.y())) == n)
            ++x;
        const QPoint gutter(x, c.y());
        if (m_view->cellNodeAt(gutter).isValid())
            continue; // the next cell of the same block
        QCOMPARE(m_view->nodeAt(gutter), n);
        // 7 px right (the pixel's centre 6.5 px from n's cell) picks n no longer; when the
        // gutter is that wide, it picks nothing, and 4 px right (3.5 px from n's cell, nearer
        // to it than to any other) still picks n: a click in the middle of a 7 px gutter
        // between two blocks selects a node (a trial's clicks there selected nothing).
        const QPoint beyond = gutter + QPoint(7, 0);
        QVERIFY(m_view->nodeAt(beyond) != n);
        bool wideGutter = true;
        for (int dx = 0; dx <= 12; ++dx)
            for (int dy = -7; dy <= 7; ++dy)
                wideGutter = wideGutter && !m_view->cellNodeAt(gutter + QPoint(dx, dy)).isValid();
        if (wideGutter) {
            QVERIFY(!m_view->nodeAt(beyond).isValid());
            QCOMPARE(m_view->nodeAt(gutter + QPoint(3, 0)), n);
            ++wide;
        }
        ++checked;
    }
    QVERIFY(checked > 0);
    QVERIFY(wide > 0);
}

// The legend says "CPU requested (no GPU nodes)" for GpuRequested on a fleet without GPUs.
void TestFleetMapRender::legendTitleFollowsTheFleet()
{
    auto* legend = m_view->findChild<views::MapLegend*>();
    QVERIFY(legend);
    QCOMPARE(legend->title(), QStringLiteral("GPU requested"));
    Cluster c;
    testing::addFleetNodes(*c.store, { 1, 2, 1, 3, 1 }, [](model::NodeRecord& rec, std::size_t) {
        rec.allocatable.setCore(model::CoreResource::Gpu, 0);
        rec.capacity = rec.allocatable;
        rec.gpuModel.clear();
        rec.gpuCount = 0;
    });
    c.store->finalize();
    c.topology = std::make_shared<model::Topology>(model::Topology::build(*c.store));
    m_view->setCluster(c.store, c.topology);
    QCOMPARE(legend->title(), QStringLiteral("CPU requested (no GPU nodes)"));
    m_view->setMetric(MapMetric::MemoryRequested);
    QCOMPARE(legend->title(), QStringLiteral("Memory requested"));
    m_view->setCluster(m_cluster.store, m_cluster.topology);
    m_view->setMetric(MapMetric::GpuRequested);
    QCOMPARE(legend->title(), QStringLiteral("GPU requested"));
}

// A heatmap row's click zooms to its domain and then opens the Domain dock beside the map,
// which narrows it: the domain is framed again in the new size, every cell of it in the view
// and filling it, until the view is moved by hand (then a resize leaves the view alone).
void TestFleetMapRender::zoomedDomainStaysFramedWhenTheViewNarrows()
{
    showAndWaitForFrame();
    const model::Topology& topology = *m_cluster.topology;
    const auto regions = topology.domainChildren(topology.root());
    QVERIFY(regions.size() >= 2);
    const auto zones = topology.domainChildren(regions.back());
    QVERIFY(zones.size() >= 2);
    const model::DomainId zone = zones.back(); // the right-most: what a narrower view cuts off
    QWidget* gl = glWidget();
    // The bounding box of the zone's cells, and how much of it is in the GL widget.
    const auto zoneBox = [&] {
        QRectF box;
        for (const model::NodeId n : topology.domainNodes(zone))
            box = box.united(m_view->cellRect(n));
        return box;
    };
    const auto check = [&](const char* when) {
        const QRectF box = zoneBox();
        const QRectF view = QRectF(gl->geometry());
        QVERIFY2(view.contains(box),
            qPrintable(QStringLiteral("%1: the zone's cells span (%2,%3 %4x%5), the view (%6,%7 %8x%9)")
                           .arg(QLatin1String(when))
                           .arg(box.x()).arg(box.y()).arg(box.width()).arg(box.height())
                           .arg(view.x()).arg(view.y()).arg(view.width()).arg(view.height())));
        // Framed, not merely inside: it fills most of the view's width or height.
        QVERIFY2(box.width() >= 0.6 * view.width() || box.height() >= 0.6 * view.height(), when);
    };
    m_view->zoomToDomain(zone);
    check("zoomed");
    if (QTest::currentTestFailed())
        return;
    const int wide = gl->width();
    m_view->resize(m_view->width() - wide / 2, m_view->height());
    QTRY_VERIFY(gl->width() < wide * 0.6);
    check("narrowed");
    if (QTest::currentTestFailed())
        return;

    // Moved by hand, then resized: the view is not framed again on the zone.
    m_view->resize(m_view->width() + wide / 2, m_view->height());
    QTRY_COMPARE(gl->width(), wide);
    m_view->zoomToDomain(zone);
    const QPointF inZone = zoneBox().center() - QPointF(gl->pos());
    wheel(inZone, -120 * 3);
    const model::NodeId first = topology.domainNodes(zone).front();
    const double cellBefore = m_view->cellRect(first).width();
    m_view->resize(m_view->width() - wide / 2, m_view->height());
    QTRY_VERIFY(gl->width() < wide * 0.6);
    QCOMPARE(m_view->cellRect(first).width(), cellBefore); // the same scale: not zoomed to the zone again
}

FLEET_GUI_TEST_MAIN(TestFleetMapRender, fleet::testing::setVtkSurfaceFormat)

#include "tst_fleetmaprender.moc"
