// SPDX-License-Identifier: Apache-2.0
// Tests of the exploring docks as the main window wires them (a real FleetMapView, so under
// xvfb-run) and of the panels `screenshot --panel` renders.

#include "app/window/explorepanels.h"
#include "app/controllers/storereaders.h"
#include "app/startup/surfaceformat.h"
#include "importers/clusterloader.h"
#include "model/plan/plan.h"
#include "views/heatmaps/domainheatmap.h"
#include "views/heatmaps/heatmappanel.h"
#include "views/inspectors/domaininspector.h"
#include "views/inspectors/nodeinspector.h"
#include "views/inspectors/podtableview.h"
#include "views/map/podmime.h"
#include "views/map/colormap.h"
#include "views/map/fleetmapview.h"
#include "views/panels/filterfield.h"
#include "views/panels/pendingpanel.h"
#include "views/panels/problemspanel.h"
#include "views/itemmodels/problemsmodel.h"
#include "views/panels/searchfield.h"
#include "views/plan/planpanel.h"
#include "views/vtk/vtkopenglwidget.h"

#include "common/guitestmain.h"

#include <QApplication>
#include <QDockWidget>
#include <QDrag>
#include <QMimeData>
#include <QTabBar>
#include <QLineEdit>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>
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

    // Only with FLEET_TEST_SAVE_IMAGES: the inspectors and panels filled, for a person to look at.
    void reviewImages()
    {
        if (qEnvironmentVariable("FLEET_TEST_SAVE_IMAGES").isEmpty())
            QSKIP("set FLEET_TEST_SAVE_IMAGES=DIR to write review images");
        importers::SimulationSpec spec;
        spec.nodeCount = 2000;
        const auto cluster = importers::loadSimulatedCluster(spec);
        const auto& st = *cluster.store;
        model::NodeId gpuNode;
        for (std::size_t i = 0; i < st.nodeCount() && !gpuNode.isValid(); ++i)
            if (st.nodeGpuCount(model::NodeId(static_cast<std::uint32_t>(i))) == 8
                && st.nodePods(model::NodeId(static_cast<std::uint32_t>(i))).size() > 6)
                gpuNode = model::NodeId(static_cast<std::uint32_t>(i));
        views::NodeInspector node;
        node.resize(460, 900);
        node.setNode(cluster.store, cluster.topology, gpuNode);
        saveForReview(node.grab().toImage(), QStringLiteral("node-inspector"));
        views::DomainInspector domain;
        domain.resize(460, 700);
        domain.setDomain(cluster.store, cluster.topology, cluster.topology->domainChildren(cluster.topology->root())[0]);
        saveForReview(domain.grab().toImage(), QStringLiteral("domain-inspector"));
        std::vector<model::NodeProblem> problems(3);
        problems[0] = { model::NodeProblemKind::NotReady, model::NodeId(3), {}, "KubeletNotReady: container runtime is down",
            1796133600 };
        problems[1] = { model::NodeProblemKind::Condition, model::NodeId(9), {},
            "MemoryPressure: kubelet has insufficient memory available", 1796130000 };
        problems[2] = { model::NodeProblemKind::PodOnUnknownNode, {}, model::PodId(5),
            "node ip-10-0-0-1.ec2.internal is not in the input", 0 };
        views::ProblemsPanel problemsPanel;
        problemsPanel.resize(1200, 260);
        problemsPanel.setProblems(cluster.store, cluster.topology, problems);
        saveForReview(problemsPanel.grab().toImage(), QStringLiteral("problems-filled"));
        std::vector<model::PendingShape> shapes(2);
        shapes[0].request[model::CoreResource::Cpu] = 96000;
        shapes[0].request[model::CoreResource::Memory] = 1LL << 40;
        shapes[0].request[model::CoreResource::Gpu] = 8000;
        shapes[0].gpuModel = "NVIDIA-H100-80GB-HBM3";
        shapes[0].podCount = 64;
        shapes[0].total = shapes[0].request;
        for (auto& a : shapes[0].total.amounts)
            a *= 64;
        shapes[0].reason = "0/2000 nodes are available: 1800 Insufficient nvidia.com/gpu, 200 node(s) had untolerated taint.";
        shapes[1].request[model::CoreResource::Cpu] = 500;
        shapes[1].request[model::CoreResource::Memory] = 512LL << 20;
        shapes[1].podCount = 12;
        shapes[1].gatedPods = 12;
        shapes[1].total[model::CoreResource::Cpu] = 6000;
        shapes[1].total[model::CoreResource::Memory] = 6LL << 30;
        views::PendingPanel pendingPanel;
        pendingPanel.resize(1200, 200);
        pendingPanel.setShapes(cluster.store, shapes);
        saveForReview(pendingPanel.grab().toImage(), QStringLiteral("pending-filled"));
    }

    // A pod dragged from the inspector shows its label beside the pointer, never over it: Qt's
    // picture of the whole row, held at the point pressed, covered the cell the pod is dropped
    // on and its feasibility ring.
    void podDragLeavesTheCellUnderThePointerVisible()
    {
        QMainWindow window;
        auto* map = new views::FleetMapView(&window);
        window.setCentralWidget(map);
        app::ExplorePanels panels(&window, map, std::make_shared<app::StoreReaders>());
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto cluster = eks();
        map->setCluster(cluster.store, cluster.topology);
        panels.setCluster(cluster.store, cluster.topology);
        model::NodeId node;
        for (std::uint32_t i = 0; i < cluster.store->nodeCount() && !node.isValid(); ++i)
            if (!cluster.store->nodePods(model::NodeId(i)).empty())
                node = model::NodeId(i);
        QVERIFY(node.isValid());
        panels.nodeInspector()->setNode(cluster.store, cluster.topology, node);
        auto* table = panels.nodeInspector()->findChild<views::PodTableView*>(QStringLiteral("nodeInspectorPods"));
        QVERIFY(table);
        QVERIFY(table->dragEnabled());
        QVERIFY(table->model()->rowCount() > 0);
        table->selectRow(0);
        std::unique_ptr<QDrag> drag = table->createDrag();
        QVERIFY(drag);
        QVERIFY(views::podFromMimeData(drag->mimeData()).isValid());
        QVERIFY(!drag->pixmap().isNull());
        // Where the pixmap is drawn, with the pointer at (0, 0): the pointer's cell (a few pixels)
        // and the ring around it stay clear.
        const QRectF label(QPointF(0, 0) - QPointF(drag->hotSpot()), drag->pixmap().deviceIndependentSize());
        const QRectF clear(-12, -12, 24, 24);
        QVERIFY2(!label.intersects(clear), qPrintable(QStringLiteral("the drag's picture at %1,%2 %3x%4 covers the pointer")
                                                          .arg(label.x()).arg(label.y()).arg(label.width()).arg(label.height())));
        // Near it, so the eye follows it, and above it: the map's tooltip shows below the pointer.
        QVERIFY(label.left() <= 40 && label.bottom() >= -40);
        QVERIFY(label.bottom() < 0);
    }

    // The Node dock's title names a node by the host part of a DNS name only: a node the plan
    // added ("fleetscope-p5.48xlarge-3") has a dot in its instance type, and cutting there named
    // every added p5 node "fleetscope-p5".
    void nodeTitleName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("title");
        QTest::newRow("dns") << QStringLiteral("ip-10-1-2-3.us-west-2.compute.internal") << QStringLiteral("ip-10-1-2-3");
        QTest::newRow("added") << QStringLiteral("fleetscope-p5.48xlarge-3") << QStringLiteral("fleetscope-p5.48xlarge-3");
        QTest::newRow("added g5") << QStringLiteral("fleetscope-g5.12xlarge-12") << QStringLiteral("fleetscope-g5.12xlarge-12");
        QTest::newRow("ip") << QStringLiteral("10.1.2.3") << QStringLiteral("10.1.2.3");
        QTest::newRow("plain") << QStringLiteral("duckboat-01") << QStringLiteral("duckboat-01");
    }
    void nodeTitleName()
    {
        QFETCH(QString, name);
        QFETCH(QString, title);
        QCOMPARE(app::nodeTitleName(name), title);
    }

    // The Node dock's tab beside the Domain dock's, for a node with a cloud's long DNS name
    // (ip-10-….us-west-2.compute.internal), in the dock area's width: the tab names the node by
    // its host part, whole (the inspector's header has the full name), and every tab shows.
    void stackedDockTabsAllShow()
    {
        QMainWindow window;
        auto* map = new views::FleetMapView(&window);
        window.setCentralWidget(map);
        app::ExplorePanels panels(&window, map, std::make_shared<app::StoreReaders>());
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        importers::SimulationSpec spec;
        spec.nodeCount = 300;
        const auto cluster = importers::loadSimulatedCluster(spec);
        map->setCluster(cluster.store, cluster.topology);
        panels.setCluster(cluster.store, cluster.topology);
        const model::NodeId node(17);
        const QString name = QString::fromStdString(std::string(cluster.store->nodeName(node)));
        QVERIFY2(name.count(QLatin1Char('.')) >= 2, qPrintable(name));
        const QString host = name.section(QLatin1Char('.'), 0, 0);
        emit map->nodeActivated(node);
        QCOMPARE(panels.nodeInspector()->node(), node);
        QVERIFY2(panels.nodeInspector()->headerText().startsWith(name), qPrintable(panels.nodeInspector()->headerText()));
        panels.domainDock()->setWindowTitle(QStringLiteral("Domain us-west-2 / us-west-2a"));
        panels.domainDock()->show();
        panels.nodeDock()->raise();
        window.resizeDocks({ panels.nodeDock() }, { 320 }, Qt::Horizontal);
        QTabBar* bar = nullptr;
        QTRY_VERIFY([&] {
            for (QTabBar* b : window.findChildren<QTabBar*>())
                for (int i = 0; b->isVisible() && i < b->count(); ++i)
                    if (b->tabText(i).startsWith(QStringLiteral("Domain")))
                        bar = b;
            return bar != nullptr;
        }());
        QCoreApplication::processEvents();
        QCOMPARE(bar->count(), 2);
        int nodeTab = -1;
        for (int i = 0; i < bar->count(); ++i) {
            if (bar->tabText(i).startsWith(QStringLiteral("Node")))
                nodeTab = i;
            QVERIFY2(bar->rect().contains(bar->tabRect(i)),
                qPrintable(QStringLiteral("tab %1 (%2) at %3..%4 of a %5 px bar")
                               .arg(i)
                               .arg(bar->tabText(i))
                               .arg(bar->tabRect(i).left())
                               .arg(bar->tabRect(i).right())
                               .arg(bar->width())));
        }
        QVERIFY(nodeTab >= 0);
        QCOMPARE(bar->tabText(nodeTab), QStringLiteral("Node ") + host);
        // The whole title shows: the tab is at least as wide as its text.
        const int needs = bar->fontMetrics().horizontalAdvance(bar->tabText(nodeTab));
        QVERIFY2(bar->tabRect(nodeTab).width() >= needs,
            qPrintable(QStringLiteral("the node's tab is %1 px of the %2 its title needs").arg(bar->tabRect(nodeTab).width()).arg(needs)));
        QVERIFY(!bar->usesScrollButtons());
    }

    // The Heatmap opened while the Plan dock shows: the two share the bottom area's width (a
    // trial saw the Heatmap's wide table squeeze the Plan dock to about 140 px).
    void heatmapLeavesThePlanDockHalfTheWidth()
    {
        QMainWindow window;
        auto* map = new views::FleetMapView(&window);
        window.setCentralWidget(map);
        app::ExplorePanels panels(&window, map, std::make_shared<app::StoreReaders>());
        // The Plan dock as PlanController makes it: the bottom area, a plan's table in it.
        auto* plan = new QDockWidget(QStringLiteral("Plan"), &window);
        plan->setObjectName(QStringLiteral("planDock"));
        plan->setWidget(new views::PlanPanel(plan));
        window.addDockWidget(Qt::BottomDockWidgetArea, plan);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        importers::SimulationSpec spec;
        spec.nodeCount = 2000;
        const auto cluster = importers::loadSimulatedCluster(spec);
        map->setCluster(cluster.store, cluster.topology);
        panels.setCluster(cluster.store, cluster.topology);
        QTRY_VERIFY(plan->isVisible() && plan->width() > 1000);
        auto* heatmap = window.findChild<QDockWidget*>(QStringLiteral("heatmapDock"));
        QVERIFY(heatmap);
        heatmap->toggleViewAction()->trigger();
        QTRY_VERIFY(heatmap->isVisible());
        QCoreApplication::processEvents();
        QTRY_VERIFY2(plan->width() >= 0.4 * (plan->width() + heatmap->width()),
            qPrintable(QStringLiteral("Plan dock %1 px, Heatmap %2 px").arg(plan->width()).arg(heatmap->width())));
        QVERIFY(std::abs(plan->y() - heatmap->y()) <= 4); // side by side
        // Each column's header in view is readable whole in the dock at this size: drawn in the
        // part of its column inside the scroll area's viewport (a title centred on a column that
        // the dock's edge cut was cut with it: "Unallocated GP"), wrapped to fit that part.
        auto* table = heatmap->findChild<views::DomainHeatmap*>();
        QVERIFY(table);
        auto* viewport = table->parentWidget();
        QVERIFY(viewport);
        QTRY_VERIFY(table->columnCount() >= views::DomainHeatmap::kColumnCount + 3);
        QFont bold = table->font();
        bold.setBold(true);
        const QFontMetrics fm(bold);
        int cut = 0;
        for (int c = -1; c < table->columnCount(); ++c) {
            const QRect cell(table->mapTo(viewport, table->headerRect(c).topLeft()), table->headerRect(c).size());
            if (cell.left() >= viewport->width() - 80)
                continue; // out of view, or too little of it in view for a word: scrolled to
            cut += cell.right() >= viewport->width() ? 1 : 0;
            const QRect text = table->headerTextRect(c);
            const QRect shown(table->mapTo(viewport, text.topLeft()), text.size());
            const QString title = c < 0 ? QStringLiteral("Domain") : table->columnTitle(c);
            QVERIFY2(viewport->rect().contains(shown),
                qPrintable(QStringLiteral("\"%1\" drawn at %2..%3 px, the dock shows 0..%4").arg(title).arg(shown.left()).arg(shown.right()).arg(viewport->width())));
            const QStringList lines = table->headerLines(c);
            QVERIFY2(lines.size() <= 2 && 2 * fm.height() <= text.height(), qPrintable(lines.join(QLatin1Char('|'))));
            for (const QString& line : lines)
                QVERIFY2(fm.horizontalAdvance(line) <= text.width(), qPrintable(line));
            // Whole (the sort arrow aside) wherever as much as its longest word is in view.
            QVERIFY2(lines.join(QLatin1Char(' ')).startsWith(title), qPrintable(lines.join(QLatin1Char('|'))));
        }
        QVERIFY(cut <= 1);
    }

    // A heatmap row's click zooms to its domain and opens the Domain dock, which narrows the
    // map when the Node dock is closed: the domain ends framed in the narrower map (it was
    // framed for the wider one, and a trial saw the zone beside it, part of it off the map).
    void heatmapRowFramesItsDomainInTheNarrowedMap()
    {
        QMainWindow window;
        auto* map = new views::FleetMapView(&window);
        window.setCentralWidget(map);
        app::ExplorePanels panels(&window, map, std::make_shared<app::StoreReaders>());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        importers::SimulationSpec spec;
        spec.nodeCount = 2000;
        const auto cluster = importers::loadSimulatedCluster(spec);
        map->setCluster(cluster.store, cluster.topology);
        panels.setCluster(cluster.store, cluster.topology);
        panels.nodeDock()->close(); // the Domain dock opens alone beside the map
        QTRY_VERIFY(!panels.nodeDock()->isVisible());
        QWidget* gl = map->findChild<views::VtkOpenGLWidget*>();
        const int mapWidth = map->width();
        const model::Topology& topology = *cluster.topology;
        const auto zones = topology.domainChildren(topology.domainChildren(topology.root()).front());
        QVERIFY(zones.size() >= 2);
        for (const model::DomainId zone : { zones.back(), zones.front() }) {
            emit panels.heatmapPanel()->domainActivated(zone);
            QTRY_VERIFY(window.findChild<QDockWidget*>(QStringLiteral("domainInspectorDock"))->isVisible());
            QTRY_VERIFY(map->width() < mapWidth - 100);
            QVERIFY(gl);
            QRectF box;
            for (const model::NodeId n : topology.domainNodes(zone))
                box = box.united(map->cellRect(n));
            const QRectF view = QRectF(gl->geometry());
            QVERIFY2(view.contains(box),
                qPrintable(QStringLiteral("%1: its cells span x %2..%3, y %4..%5; the map x %6..%7, y %8..%9")
                               .arg(QString::fromStdString(topology.domainName(zone)))
                               .arg(box.left()).arg(box.right()).arg(box.top()).arg(box.bottom())
                               .arg(view.left()).arg(view.right()).arg(view.top()).arg(view.bottom())));
            QVERIFY(box.width() >= 0.5 * view.width() || box.height() >= 0.5 * view.height()); // framed
        }
    }

    void docksFollowTheMap()
    {
        QMainWindow window;
        auto* map = new views::FleetMapView(&window);
        window.setCentralWidget(map);
        app::ExplorePanels panels(&window, map, std::make_shared<app::StoreReaders>());
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!panels.problemsDock()->isVisible()); // the map has the window until asked
        QVERIFY(panels.nodeDock()->isVisible()); // a click fills it without resizing the map
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
        // ... with the pod's row selected in the inspector's pods table.
        const model::PodId calico = [&] {
            for (const model::PodId p : cluster.store->nodePods(duckboat))
                if (cluster.store->podName(p) == "calico-node-h2bjp")
                    return p;
            return model::PodId();
        }();
        QCOMPARE(panels.nodeInspector()->selectedPod(), calico);

        // A part of a name, not its start: the first name containing it (on a worker).
        QSignalSpy finished(panels.searchField(), &views::SearchField::searchFinished);
        QVERIFY(!panels.searchField()->search(QStringLiteral("node-h2bj")).isValid()); // no name starts with it
        QVERIFY(finished.wait(10000));
        QCOMPARE(panels.nodeInspector()->node(), duckboat);
        QCOMPARE(panels.nodeInspector()->selectedPod(), calico);
        QVERIFY2(panels.searchField()->resultText().contains(QStringLiteral("calico-node-h2bjp")), qPrintable(panels.searchField()->resultText()));
        // Completions offer names containing the text too, after those that start with it.
        QSignalSpy completed(panels.searchField(), &views::SearchField::completionsUpdated);
        panels.searchField()->lineEdit()->clear();
        QTest::keyClicks(panels.searchField()->lineEdit(), QStringLiteral("boat-0"));
        QVERIFY(completed.wait(10000));
        QVERIFY2(panels.searchField()->completions().contains(QStringLiteral("duckboat-01")), qPrintable(panels.searchField()->completions().join(',')));

        // A long result sentence keeps its fixed width: nothing in the toolbar moves behind
        // its extension button ("»").
        auto* toolbar = window.findChild<QToolBar*>(QStringLiteral("exploreToolBar"));
        QVERIFY(toolbar);
        auto* extension = toolbar->findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"));
        const bool extendedBefore = extension && extension->isVisible();
        const int filterRight = panels.filterField()->lineEdit()->mapTo(&window, QPoint(panels.filterField()->lineEdit()->width(), 0)).x();
        QVERIFY(!panels.searchField()->search(QStringLiteral("no-such-name-anywhere-in-this-cluster-at-all")).isValid());
        QVERIFY(finished.wait(10000));
        QVERIFY2(panels.searchField()->resultText().startsWith(QStringLiteral("No match: no node or pod name contains")),
            qPrintable(panels.searchField()->resultText()));
        // A search that finds nothing keeps the selection (the node found before, its inspector).
        QCOMPARE(panels.nodeInspector()->node(), duckboat);
        QCOMPARE(map->selectedNode(), duckboat);
        QCoreApplication::processEvents();
        QCOMPARE(extension && extension->isVisible(), extendedBefore);
        QCOMPARE(panels.filterField()->lineEdit()->mapTo(&window, QPoint(panels.filterField()->lineEdit()->width(), 0)).x(), filterRight);

        // Under a plan that failed the node (gone), the search finds it and says the plan removed it
        // (it found nothing, and the operator could not tell a typo from a removed node), and a pod
        // of it is found where the plan moved it.
        {
            auto engine = std::make_shared<model::PlanEngine>(*cluster.store, *cluster.topology, std::vector<double> {});
            model::PlanAction drain;
            drain.type = model::ActionType::FailNode;
            drain.node = "duckboat-01";
            const model::AppliedAction& drained = engine->apply(drain);
            QVERIFY(!engine->state().nodePresent(duckboat));
            panels.searchField()->setPlanState(std::shared_ptr<const model::PlanLedger>(engine, &engine->state()));
            QCOMPARE(panels.searchField()->search(QStringLiteral("duckboat-01")), duckboat);
            QVERIFY2(panels.searchField()->resultText().contains(QStringLiteral("duckboat-01 is removed by the plan")),
                qPrintable(panels.searchField()->resultText()));
            QCOMPARE(panels.nodeInspector()->node(), duckboat);
            QCOMPARE(map->selectedNode(), duckboat);
            for (const auto& change : drained.changes)
                if (change.to.isValid()) {
                    const QString key = QString::fromStdString(std::string(cluster.store->podNamespace(change.pod)) + "/" + std::string(cluster.store->podName(change.pod)));
                    QCOMPARE(panels.searchField()->search(key), change.to);
                    break;
                }
            // A node the plan drained (removed, or cordoned to be removed) is found and said so too.
            model::PlanAction drainOther;
            drainOther.type = model::ActionType::DrainNode;
            drainOther.node = "duckboat-02";
            (void)engine->apply(drainOther);
            panels.searchField()->setPlanState(std::shared_ptr<const model::PlanLedger>(engine, &engine->state()));
            QCOMPARE(panels.searchField()->search(QStringLiteral("duckboat-02")), cluster.store->findNode("duckboat-02"));
            QVERIFY2(panels.searchField()->resultText().contains(QStringLiteral("duckboat-02 is ")) && panels.searchField()->resultText().contains(QStringLiteral(" by the plan")),
                qPrintable(panels.searchField()->resultText()));
            panels.searchField()->setPlanState(nullptr);
        }

        // The label filter scopes Problems and the Heatmap, and Pending says it cannot.
        const int allProblems = panels.problemsPanel()->problemCount();
        auto mask = std::make_shared<std::vector<std::uint8_t>>(cluster.store->nodeCount(), 0);
        (*mask)[duckboat.index()] = 1;
        emit panels.filterField()->maskChanged(mask);
        QVERIFY(panels.problemsPanel()->problemCount() <= allProblems);
        for (int row = 0; row < panels.problemsPanel()->problemCount(); ++row)
            QCOMPARE(panels.problemsPanel()->problemsModel()->nodeAt(row), duckboat);
        QVERIFY2(panels.problemsPanel()->summaryText().startsWith(QStringLiteral("Label filter: ")), qPrintable(panels.problemsPanel()->summaryText()));
        QVERIFY2(panels.problemsDock()->windowTitle().contains(QStringLiteral("filtered")), qPrintable(panels.problemsDock()->windowTitle()));
        QVERIFY2(!panels.pendingPanel()->scopeText().isEmpty(), "Pending does not say the filter does not apply");
        QVERIFY(panels.heatmapPanel()->scopeText().startsWith(QStringLiteral("Label filter: ")));
        for (int row = 0; row < panels.heatmapPanel()->heatmap()->rowCount(); ++row) {
            const auto nodes = cluster.topology->domainNodes(panels.heatmapPanel()->heatmap()->domainAt(row));
            QVERIFY(std::find(nodes.begin(), nodes.end(), duckboat) != nodes.end());
        }
        emit panels.filterField()->maskChanged(nullptr);
        QCOMPARE(panels.problemsPanel()->problemCount(), allProblems);
        QVERIFY(panels.pendingPanel()->scopeText().isEmpty());
        QVERIFY(panels.heatmapPanel()->scopeText().isEmpty());
        QVERIFY(!panels.problemsDock()->windowTitle().contains(QStringLiteral("filtered")));

        // A heatmap row opens the domain inspector on that domain.
        views::DomainHeatmap* heatmap = panels.heatmapPanel()->heatmap();
        QVERIFY(heatmap->rowCount() >= 1);
        emit heatmap->domainActivated(heatmap->domainAt(0));
        QCOMPARE(panels.domainInspector()->domain(), heatmap->domainAt(0));
        QVERIFY(panels.domainDock()->isVisible());
        panels.problemsDock()->show();
        QCoreApplication::processEvents();
        saveForReview(window.grab().toImage(), QStringLiteral("window-eks"));

        // Ctrl+F puts the focus in the search field, Ctrl+L in the filter field.
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        map->setFocus();
        QTest::keyClick(map, Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(panels.searchField()->lineEdit()->hasFocus());
        QTest::keyClick(panels.searchField()->lineEdit(), Qt::Key_L, Qt::ControlModifier);
        QTRY_VERIFY(panels.filterField()->lineEdit()->hasFocus());

        // A new cluster clears the inspector.
        panels.setCluster(nullptr, nullptr);
        QVERIFY(!panels.nodeInspector()->node().isValid());
    }
};

FLEET_GUI_TEST_MAIN(TestExplorePanels, fleet::app::setDefaultSurfaceFormat)
#include "tst_explorepanels.moc"
