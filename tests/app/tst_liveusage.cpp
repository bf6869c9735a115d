// SPDX-License-Identifier: Apache-2.0
// A watched live cluster's usage from Prometheus stays current (app/controllers/usagecontroller.h,
// docs/usage.md): with the refresh interval shortened, a real Prometheus (tests/importers/prometheusserver.h)
// holds an hour of dcgm-exporter samples at 1% for a pod the cluster does not have yet; once the
// watch adds that pod, the next refresh joins the series to it and the allocated-but-idle GPU
// appears, with no new import. A file opened next stops the refresh (its usage stays none).

#include "app/window/mainwindow.h"
#include "common/fakekubeapiserver.h"
#include "common/kubeconfigfile.h"
#include "importers/prometheusserver.h"
#include "model/usage.h"

#include <QDateTime>
#include <algorithm>
#include <QFile>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using fleet::app::MainWindow;

namespace {
QString dataFile(const char* name) { return QStringLiteral(FLEET_TEST_DATA_DIR "/kube/") + name; }

QString kubeconfig(const QTemporaryDir& dir, const std::string& server, const std::string& ca)
{
    fleet::tests::KubeconfigSpec spec;
    spec.server = QString::fromStdString(server);
    spec.certificateAuthority = QString::fromStdString(ca);
    const QString path = fleet::tests::writeKubeconfig(dir.filePath(QStringLiteral("config")), spec);
    if (path.isEmpty())
        qFatal("cannot write the kubeconfig");
    return path;
}

QJsonObject gpuPod(const QString& ns, const QString& name, const QString& node)
{
    const QJsonObject requests{{"cpu", "1"}, {"nvidia.com/gpu", "1"}};
    const QJsonObject spec{{"nodeName", node},
                           {"containers", QJsonArray{QJsonObject{{"name", "c"}, {"image", "x"},
                                                                 {"resources", QJsonObject{{"requests", requests}, {"limits", requests}}}}}}};
    return {{"kind", "Pod"}, {"apiVersion", "v1"},
            {"metadata", QJsonObject{{"namespace", ns}, {"name", name}, {"uid", ns + "-" + name + "-uid"}}},
            {"spec", spec}, {"status", QJsonObject{{"phase", "Running"}}}};
}
} // namespace

class TstLiveUsage : public QObject {
    Q_OBJECT
private slots:
    void usageRefreshFollowsTheWatchedCluster();
};

void TstLiveUsage::usageRefreshFollowsTheWatchedCluster()
{
    // GPU 0 of node-1, held by shop/gpu-job at 1% for the last hour (a sample a minute).
    const qint64 last = QDateTime::currentSecsSinceEpoch() - 20;
    QByteArray om = "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n";
    for (int i = 62; i >= 0; --i)
        om += QStringLiteral("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"node-1\",namespace=\"shop\",pod=\"gpu-job\"} 1 %1\n")
                  .arg(last - i * 60)
                  .toUtf8();
    PrometheusServer prometheus(om + "# EOF\n");
    QVERIFY2(!prometheus.url().isEmpty(), qPrintable(prometheus.error()));
    QTemporaryDir dir;
    const auto pki = fleet::tests::TestPki::create(dir.path().toStdString());
    QVERIFY2(!pki.caPem.empty(), "the openssl command failed or is missing");
    std::map<std::string, QJsonArray> lists{{"/api/v1/nodes", fleet::tests::itemsOfListFile(dataFile("scheduling-nodes.json"))},
                                            {"/api/v1/pods", fleet::tests::itemsOfListFile(dataFile("scheduling-pods.json"))}};
    fleet::tests::FakeKubeApiServer server(pki, lists, {});

    MainWindow window;
    window.resize(1000, 700);
    window.show();
    window.setUsageRefreshInterval(300);
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    fleet::importers::prometheus::UsageSource source;
    source.server.baseUrl = prometheus.url().toStdString();
    window.openLive(kubeconfig(dir, server.url(), pki.caFile), QStringLiteral("alpha"), source);
    QVERIFY(shown.wait(60000));
    QVERIFY2(window.cluster()->usage, qPrintable(window.warningText()));
    // The series names a pod the list did not have: measured, not allocated, not idle.
    QCOMPARE(window.cluster()->usage->idleAllocatedGpuTotal(), std::int64_t(0));
    const auto& warnings = window.cluster()->report.warnings;
    QVERIFY2(std::any_of(warnings.begin(), warnings.end(),
                 [](const std::string& w) { return w.find("GPU series name pods that are not in the cluster") != std::string::npos; }),
        qPrintable(window.warningText()));
    QSignalSpy refreshed(&window, &MainWindow::usageRefreshed);
    QVERIFY(refreshed.wait(30000));
    QCOMPARE(refreshed.last().at(0).toString(), QString());
    QCOMPARE(window.cluster()->usage->idleAllocatedGpuTotal(), std::int64_t(0));

    // The pod arrives through the watch; a refresh after it finds its GPU idle.
    QTRY_VERIFY_WITH_TIMEOUT(server.openWatches() >= 2, 15000);
    server.addEvent("/api/v1/pods", "ADDED", gpuPod("shop", "gpu-job", "node-1"));
    QTRY_VERIFY_WITH_TIMEOUT(window.cluster()->store->findPod("shop", "gpu-job").isValid(), 30000);
    const auto pod = window.cluster()->store->findPod("shop", "gpu-job");
    QTRY_COMPARE_WITH_TIMEOUT(window.cluster()->usage->idleAllocatedGpuTotal(), std::int64_t(1), 30000);
    const fleet::model::ClusterUsage& usage = *window.cluster()->usage;
    QCOMPARE(usage.idleGpus.size(), 1u);
    QCOMPARE(usage.idleGpus.front().pod, pod);
    QCOMPARE(usage.idleGpus.front().node, window.cluster()->store->findNode("node-1"));
    QCOMPARE(usage.source, "Prometheus " + prometheus.url().toStdString());

    // A file next: no usage, and the refresh stopped (no usage comes back).
    shown.clear();
    window.openFiles({ QStringLiteral(FLEET_TEST_DATA_DIR "/app/small-cluster.json") });
    QVERIFY(shown.wait(60000));
    QVERIFY(!window.cluster()->usage);
    const std::uint64_t refreshes = window.usageRefreshes();
    // A refresh still running would be joined within a few of its 300 ms intervals: no
    // usageRefreshed in ten of them (the wait ends at the first one, failing at once).
    QSignalSpy lateRefresh(&window, &MainWindow::usageRefreshed);
    QVERIFY2(!lateRefresh.wait(10 * 300), "a usage refresh was joined to the file's cluster");
    QCOMPARE(window.usageRefreshes(), refreshes);
    QVERIFY(!window.cluster()->usage);
}

QTEST_MAIN(TstLiveUsage)
#include "tst_liveusage.moc"
