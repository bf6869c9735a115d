// The Metric menu's usage section (app/mainwindow_usage.cpp, issue 8): enabled for a cluster
// with usage (the simulated one), colouring the map by it, and disabled again, falling back
// to GPU requested, for a cluster without usage (a kubectl JSON file).

#include "app/explorepanels.h"
#include "app/importcontroller.h"
#include "app/mainwindow.h"
#include "model/metrics/usagemetrics.h"
#include "views/inspectors/nodeinspector.h"
#include "views/itemmodels/idlegpusmodel.h"
#include "views/map/fleetmapview.h"

#include <QAction>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using fleet::app::MainWindow;

namespace {
const QString kAppData = QStringLiteral(FLEET_TEST_DATA_DIR "/app");

bool waitShown(QSignalSpy& shown)
{
    return shown.count() > 0 || shown.wait(120000);
}
} // namespace

class TstUsageMenu : public QObject {
    Q_OBJECT
private slots:
    void usageMetricsFollowTheCluster();
};

void TstUsageMenu::usageMetricsFollowTheCluster()
{
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    auto* idle = window.findChild<QAction*>(QStringLiteral("actionMetricGpuIdle"));
    QVERIFY(idle);
    QVERIFY(!idle->isEnabled()); // nothing loaded yet
    QVERIFY(!window.setMetric(QStringLiteral("gpu-idle")));

    QSignalSpy shown(&window, &MainWindow::clusterShown);
    window.openSimulated(3000, 5);
    QVERIFY(waitShown(shown));
    QVERIFY(window.cluster()->usage);
    for (const char* name : { "actionMetricCpuUsed", "actionMetricMemoryUsed", "actionMetricGpuUsed", "actionMetricGpuIdle" })
        QVERIFY2(window.findChild<QAction*>(QLatin1String(name))->isEnabled(), name);
    idle->trigger();
    QCOMPARE(window.mapView()->currentMetric().id(), std::string("gpu-idle"));
    QVERIFY(idle->isChecked());
    // The map's metric is over this cluster's usage: its values are the usage's counts.
    const fleet::model::ClusterUsage& usage = *window.cluster()->usage;
    const fleet::model::MetricContext context(*window.cluster()->store);
    std::int64_t total = 0;
    for (std::uint32_t i = 0; i < window.cluster()->store->nodeCount(); ++i) {
        const double v = window.mapView()->currentMetric().value(context, fleet::model::NodeId(i));
        QCOMPARE(std::isnan(v), usage.idleAllocatedGpus[i] < 0);
        if (!std::isnan(v))
            total += static_cast<std::int64_t>(v);
    }
    QCOMPARE(total, usage.idleAllocatedGpuTotal());
    QVERIFY(total > 0);
    QVERIFY(QString::fromStdString(window.mapView()->currentMetric().description()).contains(QLatin1String("allocated GPUs idle for 1 h")));
    // The node inspector has the same usage: a node holding idle GPUs lists their pods.
    fleet::views::NodeInspector* inspector = window.explorePanels()->nodeInspector();
    QVERIFY(!usage.idleGpus.empty());
    const fleet::model::NodeId idleNode = usage.idleGpus.front().node;
    inspector->setNode(window.cluster()->store, window.cluster()->topology, idleNode);
    QCOMPARE(inspector->idleGpusModel()->idleGpuCount(), usage.idleAllocatedGpus[idleNode.index()]);
    QVERIFY(inspector->idleGpusModel()->rowCount() > 0);
    QVERIFY2(inspector->idleGpusText().contains(QLatin1String("(below 5% for 1 h or more)")), qPrintable(inspector->idleGpusText()));

    // Another simulated cluster: the same metric, over its usage.
    shown.clear();
    window.openSimulated(2000, 9);
    QVERIFY(waitShown(shown));
    const fleet::model::MetricContext context2(*window.cluster()->store);
    QCOMPARE(window.mapView()->currentMetric().id(), std::string("gpu-idle"));
    std::int64_t total2 = 0;
    for (std::uint32_t i = 0; i < window.cluster()->store->nodeCount(); ++i)
        if (const double v = window.mapView()->currentMetric().value(context2, fleet::model::NodeId(i)); !std::isnan(v))
            total2 += static_cast<std::int64_t>(v);
    QCOMPARE(total2, window.cluster()->usage->idleAllocatedGpuTotal());

    // A file without usage: the section is disabled and the map shows GPU requested.
    shown.clear();
    window.openFiles({ kAppData + "/small-cluster.json" });
    QVERIFY(waitShown(shown));
    QVERIFY(!window.cluster()->usage);
    QVERIFY(!idle->isEnabled());
    QCOMPARE(window.mapView()->currentMetric().id(), std::string("gpu"));
    QVERIFY(idle->toolTip().contains(QLatin1String("No usage")));
    // ... and the inspector no usage: unknown, no rows, whatever node it shows.
    for (std::uint32_t i = 0; i < window.cluster()->store->nodeCount(); ++i) {
        inspector->setNode(window.cluster()->store, window.cluster()->topology, fleet::model::NodeId(i));
        QCOMPARE(inspector->idleGpusModel()->idleGpuCount(), -1);
        QCOMPARE(inspector->idleGpusModel()->rowCount(), 0);
        QVERIFY(inspector->idleGpusText().isEmpty() || inspector->idleGpusText().endsWith(QLatin1String("unknown (no usage source)")));
    }
}

QTEST_MAIN(TstUsageMenu)
#include "tst_usagemenu.moc"
