// SPDX-License-Identifier: Apache-2.0
// The Metric menu's usage section (MainWindow::updateUsageMenu(), app/window/mainwindow.cpp): enabled for a cluster
// with usage (the simulated one), colouring the map by it, and disabled again, falling back
// to GPU requested, for a cluster without usage (a kubectl JSON file); a file's usage from a
// real Prometheus described by a --usage-config file (importers/prometheus/usageconfig.h), as
// `fleetscope --usage-config FILE` opens it, down to the node inspector's idle GPUs.

#include "app/window/explorepanels.h"
#include "app/cli/clustersource.h"
#include "app/controllers/importcontroller.h"
#include "app/window/mainwindow.h"
#include "importers/prometheus/usageconfig.h"
#include "importers/prometheusserver.h"
#include "model/metrics/usagemetrics.h"
#include "views/inspectors/nodeinspector.h"
#include "views/itemmodels/idlegpusmodel.h"
#include "views/map/fleetmapview.h"

#include <QAction>
#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
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
    void usageFromConfig();
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

void TstUsageMenu::usageFromConfig()
{
    // gpu-node-a's pod ml/train-0 holds 4 GPUs: 0-1 busy (90%), 2-3 at 1% for the whole hour;
    // the exporter names the node by `node_name`, which only the config tells.
    const qint64 last = QDateTime::currentSecsSinceEpoch() - 60;
    QByteArray om = "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n";
    for (int i = 60; i >= 0; --i)
        for (int gpu = 0; gpu < 4; ++gpu)
            om += QStringLiteral("DCGM_FI_DEV_GPU_UTIL{gpu=\"%1\",node_name=\"gpu-node-a\",exported_namespace=\"ml\",exported_pod=\"train-0\"} %2 %3\n")
                      .arg(gpu)
                      .arg(gpu < 2 ? 90 : 1)
                      .arg(last - i * 60)
                      .toUtf8();
    PrometheusServer server(om + "# EOF\n");
    QVERIFY2(!server.url().isEmpty(), qPrintable(server.error()));
    QTemporaryDir dir;
    QFile config(dir.filePath(QStringLiteral("usage.yaml")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("prometheus:\n  url: " + server.url().toUtf8() + "\nqueries:\n  gpuNodeLabel: node_name\nidle:\n  threshold: 2%\ntime: "
        + QByteArray::number(last) + "\n");
    config.close();

    fleet::app::ClusterSource source;
    source.files = QStringList { kAppData + "/small-cluster.json" };
    source.usage = fleet::importers::prometheus::readUsageConfig(config.fileName().toStdString());
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    window.openSource(source);
    QVERIFY(waitShown(shown));
    QVERIFY(window.cluster()->usage);
    const fleet::model::ClusterUsage& usage = *window.cluster()->usage;
    QCOMPARE(usage.source, "Prometheus " + server.url().toStdString());
    QCOMPARE(usage.idleThreshold, 0.02);
    QCOMPARE(usage.idleAllocatedGpuTotal(), std::int64_t(2));
    QVERIFY(window.findChild<QAction*>(QStringLiteral("actionMetricGpuIdle"))->isEnabled());

    fleet::views::NodeInspector* inspector = window.explorePanels()->nodeInspector();
    const fleet::model::NodeId node = window.cluster()->store->findNode("gpu-node-a");
    QVERIFY(node.isValid());
    inspector->setNode(window.cluster()->store, window.cluster()->topology, node);
    QCOMPARE(inspector->idleGpusText(), QStringLiteral("Allocated but idle GPUs: 2, held by 1 pod (below 2% for 1 h or more)"));
    const auto* idle = inspector->idleGpusModel();
    QCOMPARE(idle->rowCount(), 1);
    QCOMPARE(idle->data(idle->index(0, fleet::views::IdleGpusModel::PodColumn)).toString(), QStringLiteral("train-0"));
    QCOMPARE(idle->data(idle->index(0, fleet::views::IdleGpusModel::HeldColumn)).toString(), QStringLiteral("4"));
    QCOMPARE(idle->data(idle->index(0, fleet::views::IdleGpusModel::DevicesColumn)).toString(), QStringLiteral("2, 3"));
    QCOMPARE(idle->data(idle->index(0, fleet::views::IdleGpusModel::PeakColumn)).toString(), QStringLiteral("1.0%"));
}

QTEST_MAIN(TstUsageMenu)
#include "tst_usagemenu.moc"
