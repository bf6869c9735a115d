// Tests of the exploring docks as the main window wires them (a real FleetMapView, so under
// xvfb-run) and of the panels `screenshot --panel` renders.

#include "app/explorepanels.h"
#include "app/surfaceformat.h"
#include "importers/clusterloader.h"
#include "views/heatmaps/domainheatmap.h"
#include "views/heatmaps/heatmappanel.h"
#include "views/inspectors/domaininspector.h"
#include "views/inspectors/nodeinspector.h"
#include "views/map/colormap.h"
#include "views/map/fleetmapview.h"
#include "views/panels/searchfield.h"

#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace fleet;

namespace {
importers::LoadedCluster eks()
{
    const std::string dir = std::string(FLEET_SHARED_DATA_DIR) + "/k8s-fixture-honeycomb-eks/";
    return importers::loadClusterFiles({ dir + "nodes.json", dir + "pods.json" });
}
// With FLEET_TEST_SAVE_IMAGES=DIR, writes the images the test checks into DIR for a person
// to look at.
void saveForReview(const QImage& image, const QString& name)
{
    const QString dir = qEnvironmentVariable("FLEET_TEST_SAVE_IMAGES");
    if (!dir.isEmpty())
        image.save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}
} // namespace

class TestExplorePanels : public QObject {
    Q_OBJECT
private slots:
    void screenshotPanels_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString& n : app::screenshotPanelNames())
            QTest::newRow(qPrintable(n)) << n;
    }
    void screenshotPanels()
    {
        QFETCH(QString, name);
        importers::SimulationSpec spec;
        spec.nodeCount = 300;
        const auto cluster = importers::loadSimulatedCluster(spec);
        auto panel = app::createScreenshotPanel(name, cluster.store, cluster.topology, QSize(900, 320));
        QVERIFY(panel);
        QCOMPARE(panel->size(), QSize(900, 320));
        QImage image(panel->size(), QImage::Format_ARGB32);
        image.fill(Qt::transparent);
        panel->render(&image);
        QVERIFY(image.pixel(450, 160) != qRgba(0, 0, 0, 0)); // painted, not transparent
        saveForReview(image, QStringLiteral("panel-") + name);
        if (name == QLatin1String("heatmap")) {
            auto* heatmap = panel->findChild<views::DomainHeatmap*>();
            QVERIFY(heatmap && heatmap->rowCount() > 1);
            const QPoint corner = heatmap->mapTo(panel.get(), heatmap->cellRect(0, 0).topLeft() + QPoint(2, 2));
            QCOMPARE(image.pixel(corner), views::shareColor(heatmap->cellShare(0, 0)).rgb());
        }
    }
    void screenshotPanel_unknown()
    {
        const auto cluster = eks();
        QVERIFY(!app::createScreenshotPanel(QStringLiteral("nope"), cluster.store, cluster.topology, QSize(100, 100)));
        QVERIFY(!app::createScreenshotPanel(QStringLiteral("problems"), nullptr, nullptr, QSize(100, 100)));
    }

    void docksFollowTheMap()
    {
        QMainWindow window;
        auto* map = new views::FleetMapView(&window);
        window.setCentralWidget(map);
        app::ExplorePanels panels(&window, map);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!panels.problemsDock()->isVisible()); // the map has the window until asked
        const auto cluster = eks();
        map->setCluster(cluster.store, cluster.topology);
        QSignalSpy applied(&panels, &app::ExplorePanels::analysisApplied);
        panels.setCluster(cluster.store, cluster.topology);
        QVERIFY(panels.isIndexing());
        QVERIFY(applied.wait(20000));
        QVERIFY(!panels.isIndexing());
        QVERIFY(panels.problemsDock()->windowTitle().startsWith(QStringLiteral("Problems (")));
        QVERIFY(!panels.problemsDock()->windowTitle().contains(QChar(0x2026)));

        // Search: a pod finds its node, which the node inspector then shows.
        QVERIFY(panels.searchField()->index());
        const model::NodeId duckboat = cluster.store->findNode("duckboat-01");
        QCOMPARE(panels.searchField()->search(QStringLiteral("kube-system/calico-node-h2bjp")), duckboat);
        QCOMPARE(panels.nodeInspector()->node(), duckboat);
        QVERIFY(panels.nodeDock()->isVisible());
        QCOMPARE(panels.nodeDock()->windowTitle(), QStringLiteral("Node duckboat-01"));

        // A heatmap row opens the domain inspector on that domain.
        views::DomainHeatmap* heatmap = panels.heatmapPanel()->heatmap();
        QVERIFY(heatmap->rowCount() >= 1);
        emit heatmap->domainActivated(heatmap->domainAt(0));
        QCOMPARE(panels.domainInspector()->domain(), heatmap->domainAt(0));
        QVERIFY(panels.domainDock()->isVisible());
        panels.problemsDock()->show();
        QCoreApplication::processEvents();
        saveForReview(window.grab().toImage(), QStringLiteral("window-eks"));

        // A new cluster clears the inspector.
        panels.setCluster(nullptr, nullptr);
        QVERIFY(!panels.nodeInspector()->node().isValid());
    }
};

int main(int argc, char** argv)
{
    fleet::app::setDefaultSurfaceFormat(); // before QApplication, as in fleetscope
    QApplication app(argc, argv);
    TestExplorePanels test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_explorepanels.moc"
