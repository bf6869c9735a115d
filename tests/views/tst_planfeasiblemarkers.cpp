// SPDX-License-Identifier: Apache-2.0
// The few nodes that could take a dragged pod, marked, under xvfb-run: on a
// 100,000-node fleet at the fitted zoom a cell is under a pixel, so the plan layer draws each
// feasible node (up to PlanLayer::kMaxFeasibleMarkers) with the marker layer's drawing, a green
// square of MarkerLayer::kMarkerPx: its pixels show around the node's cell while the drag lasts,
// none when every node is feasible (the feasible area is visible then) or the drag ends.

#include "common/mapviewprobe.h"
#include "common/pixelchecks.h"
#include "common/mapfixtures.h"
#include "views/map/fleetmapview.h"
#include "views/map/layers/markerlayer.h"
#include "views/map/layers/planlayer.h"
#include "views/vtk/vtkopenglwidget.h"

#include "common/guitestmain.h"

#include <QApplication>
#include <QSignalSpy>
#include <QSurfaceFormat>
#include <QTest>

using namespace fleet;
using fleet::views::FleetMapView;
using fleet::views::MarkerLayer;
using fleet::views::NodeMarkerKind;

namespace {

using fleet::testing::near;

/// Pixels of `green` (the feasible marker's colour by default) within `reach` logical px
/// (the marker's size by default) of node n's cell centre.
int markerPixels(FleetMapView& view, model::NodeId n, QColor green = MarkerLayer::markerColor(NodeMarkerKind::Feasible), int reach = MarkerLayer::kMarkerPx)
{
    const QImage image = view.grabImage();
    const QRectF cell = view.cellRect(n);
    const qreal dpr = image.devicePixelRatio();
    int count = 0;
    for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -reach; dx <= reach; ++dx) {
            const QPoint p(qRound((cell.center().x() + dx) * dpr), qRound((cell.center().y() + dy) * dpr));
            if (image.rect().contains(p) && near(image.pixelColor(p), green, 40))
                ++count;
        }
    return count;
}

} // namespace

class TestPlanFeasibleMarkers : public QObject {
    Q_OBJECT
private slots:
    void fewFeasibleNodesAreMarked();
    void scatteredFeasibleNodesShowAtTheFittedZoom();
};

void TestPlanFeasibleMarkers::fewFeasibleNodesAreMarked()
{
    auto store = std::make_shared<model::ClusterStore>();
    testing::addFleetNodes(*store, testing::FleetShape { 2, 5, 20, 500, 1 }); // 100,000 nodes
    store->finalize();
    auto topology = std::make_shared<model::Topology>(model::Topology::build(*store));
    FleetMapView view;
    view.resize(1200, 800);
    view.setCluster(store, topology);
    QVERIFY(testing::showAndWaitForFrame(view, 20000));
    view.resetView();
    const model::NodeId a(12345), b(87654), c(500);
    QVERIFY(view.cellRect(a).width() < MarkerLayer::kMarkerPx / 2.0); // a few pixels at most: hard to see without a marker
    QCOMPARE(markerPixels(view, a), 0);

    auto few = std::make_shared<std::vector<std::uint8_t>>(store->nodeCount(), 0);
    for (const model::NodeId n : { a, b })
        (*few)[n.index()] = 1;
    view.setDragShading(few);
    QVERIFY2(markerPixels(view, a) >= 8, "no feasible marker around the first feasible node");
    QVERIFY2(markerPixels(view, b) >= 8, "no feasible marker around the second feasible node");
    QCOMPARE(markerPixels(view, c), 0); // an infeasible node has none

    // Many feasible nodes: an area shows them; no markers.
    auto many = std::make_shared<std::vector<std::uint8_t>>(store->nodeCount(), 1);
    view.setDragShading(many);
    QCOMPARE(markerPixels(view, a), 0);
    view.setDragShading(nullptr);
    QCOMPARE(markerPixels(view, a), 0);
}

// More feasible nodes than markers, scattered through the fleet (one in 25 of its first half):
// at the fitted zoom each shows as a green square of PlanLayer::kFeasibleDotPx; the shading
// alone drew a sub-pixel cell only where a screen pixel happened to sample it.
void TestPlanFeasibleMarkers::scatteredFeasibleNodesShowAtTheFittedZoom()
{
    auto store = std::make_shared<model::ClusterStore>();
    testing::addFleetNodes(*store, testing::FleetShape { 2, 5, 20, 500, 1 }); // 100,000 nodes
    store->finalize();
    auto topology = std::make_shared<model::Topology>(model::Topology::build(*store));
    FleetMapView view;
    view.resize(1200, 800);
    view.setCluster(store, topology);
    QVERIFY(testing::showAndWaitForFrame(view, 20000));
    view.resetView();
    const QColor green = views::PlanLayer::feasibleTargetColor();
    const int reach = 2; // logical px around the cell's centre
    auto scattered = std::make_shared<std::vector<std::uint8_t>>(store->nodeCount(), 0);
    std::vector<model::NodeId> feasible;
    for (std::uint32_t i = 0; i < store->nodeCount() / 2; i += 25) {
        (*scattered)[i] = 1;
        feasible.emplace_back(i);
    }
    QVERIFY(feasible.size() > views::PlanLayer::kMaxFeasibleMarkers);
    QVERIFY(view.cellRect(feasible[7]).width() < views::PlanLayer::kFeasibleDotPx);
    QCOMPARE(markerPixels(view, feasible[7], green, reach), 0);
    view.setDragShading(scattered);
    int shown = 0;
    for (std::size_t k = 0; k < feasible.size(); k += feasible.size() / 40)
        shown += markerPixels(view, feasible[k], green, reach) >= 4 ? 1 : 0;
    QVERIFY2(shown >= 38, qPrintable(QStringLiteral("%1 of 40 feasible nodes show green").arg(shown)));
    // The second half has none: no green there.
    QCOMPARE(markerPixels(view, model::NodeId(87654), green, reach), 0);
    view.setDragShading(nullptr);
    QCOMPARE(markerPixels(view, feasible[7], green, reach), 0);
}

FLEET_GUI_TEST_MAIN(TestPlanFeasibleMarkers, fleet::testing::setVtkSurfaceFormat)

#include "tst_planfeasiblemarkers.moc"
