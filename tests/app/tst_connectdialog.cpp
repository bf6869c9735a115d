// SPDX-License-Identifier: Apache-2.0
// File > Connect (app/dialogs/connectdialog.h): the contexts of a kubeconfig with the current
// one chosen; a bad kubeconfig shows where and what and cannot be accepted; and, end to end in
// the window, connecting to the fake API server (tests/common/fakekubeapiserver.h) shows
// that cluster and names it as the source; a user who may list pods in some namespaces only
// gets a visible partial-view notice (status bar and connection panel) until the view is whole;
// the Prometheus typed in the dialog gives that connection its usage, and that connection only.

#include "app/dialogs/connectdialog.h"
#include "app/window/connectionpanel.h"
#include "app/controllers/importcontroller.h"
#include "app/controllers/livecontroller.h"
#include "app/window/mainwindow.h"
#include "common/fakekubeapiserver.h"
#include "common/kubeconfigfile.h"
#include "importers/prometheusserver.h"
#include "importers/stallingserver.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFile>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using fleet::app::ConnectDialog;
using fleet::app::MainWindow;

namespace {
QString dataFile(const char* name) { return QStringLiteral(FLEET_TEST_DATA_DIR "/kube/") + name; }

QString write(const QTemporaryDir& dir, const QString& name, const QString& text)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(name));
    f.write(text.toUtf8());
    return f.fileName();
}

QString kubeconfig(const QString& server, const QString& ca, const QString& current)
{
    fleet::tests::KubeconfigSpec spec;
    spec.server = server;
    spec.certificateAuthority = ca;
    spec.contexts = QStringList { "alpha", "beta" };
    spec.currentContext = current;
    return fleet::tests::kubeconfigText(spec);
}
} // namespace

class TstConnectDialog : public QObject {
    Q_OBJECT
private slots:
    void listsContextsWithTheCurrentChosen();
    void badKubeconfigSaysWhereAndCannotConnect();
    void noKubeconfigSaysWhereItLooked();
    void connectShowsTheLiveCluster();
    void partialViewIsNoticedUntilWhole();
    void prometheusIsForThisConnectionOnly();
    void slowServerIsSaidWhileListing();
    void slowServerConnectedInTheDialogIsSaidWithoutFlags();
};

void TstConnectDialog::listsContextsWithTheCurrentChosen()
{
    QTemporaryDir dir;
    const QString path = write(dir, "config", kubeconfig("https://127.0.0.1:1", "/nonexistent-ca.crt", "beta"));
    ConnectDialog dialog;
    dialog.setKubeconfig(path);
    QCOMPARE(dialog.contextField()->count(), 2);
    QCOMPARE(dialog.contextField()->itemText(0), QStringLiteral("alpha"));
    QCOMPARE(dialog.context(), QStringLiteral("beta"));
    QVERIFY(dialog.buttons()->button(QDialogButtonBox::Ok)->isEnabled());
    QVERIFY(dialog.errorLabel()->text().isEmpty());
    QCOMPARE(dialog.kubeconfig(), path);
}

void TstConnectDialog::badKubeconfigSaysWhereAndCannotConnect()
{
    QTemporaryDir dir;
    const QString path = write(dir, "bad", "apiVersion: v1\nclusters: [\n  - name: x\n");
    ConnectDialog dialog;
    dialog.show();
    dialog.setKubeconfig(path);
    QCOMPARE(dialog.contextField()->count(), 0);
    QVERIFY(!dialog.buttons()->button(QDialogButtonBox::Ok)->isEnabled());
    QVERIFY2(dialog.errorLabel()->text().contains(path), qPrintable(dialog.errorLabel()->text()));
    QVERIFY(dialog.errorLabel()->isVisible());
    // A file that does not exist names itself too.
    dialog.setKubeconfig(dir.filePath("missing"));
    QVERIFY2(dialog.errorLabel()->text().contains(QLatin1String("missing")), qPrintable(dialog.errorLabel()->text()));
    // In the dialog's words: its field, not the command line's flag.
    QVERIFY2(dialog.errorLabel()->text().contains(QLatin1String("(given in the Kubeconfig field)"))
                 && !dialog.errorLabel()->text().contains(QLatin1String("--kubeconfig")),
             qPrintable(dialog.errorLabel()->text()));
    QVERIFY(!dialog.buttons()->button(QDialogButtonBox::Ok)->isEnabled());
}

// An empty field, no KUBECONFIG and no ~/.kube/config: the dialog says no kubeconfig was found
// and where it looked, not that a kubeconfig defines no context.
void TstConnectDialog::noKubeconfigSaysWhereItLooked()
{
    QTemporaryDir home;
    const QByteArray oldHome = qgetenv("HOME");
    const QByteArray oldKubeconfig = qgetenv("KUBECONFIG");
    const bool hadKubeconfig = qEnvironmentVariableIsSet("KUBECONFIG");
    qputenv("HOME", QFile::encodeName(home.path()));
    qunsetenv("KUBECONFIG");
    QString text;
    {
        ConnectDialog dialog;
        dialog.setKubeconfig(QString());
        text = dialog.errorLabel()->text();
        QVERIFY(!dialog.buttons()->button(QDialogButtonBox::Ok)->isEnabled());
    }
    qputenv("HOME", oldHome);
    if (hadKubeconfig)
        qputenv("KUBECONFIG", oldKubeconfig);
    QVERIFY2(text.startsWith(QLatin1String("No kubeconfig found: KUBECONFIG is not set and ")) && text.contains(home.path() + "/.kube/config"),
        qPrintable(text));
}

void TstConnectDialog::connectShowsTheLiveCluster()
{
    QTemporaryDir dir;
    const auto pki = fleet::tests::TestPki::create(dir.path().toStdString());
    QVERIFY2(!pki.caPem.empty(), "the openssl command failed or is missing");
    std::map<std::string, QJsonArray> lists{{"/api/v1/nodes", fleet::tests::itemsOfListFile(dataFile("scheduling-nodes.json"))},
                                            {"/api/v1/pods", fleet::tests::itemsOfListFile(dataFile("scheduling-pods.json"))}};
    fleet::tests::FakeKubeApiServer server(pki, lists, {});
    const QString path = write(dir, "config", kubeconfig(QString::fromStdString(server.url()), QString::fromStdString(pki.caFile), "alpha"));

    MainWindow window;
    window.resize(1000, 700);
    window.show();
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    auto* action = window.findChild<QAction*>(QStringLiteral("actionConnect"));
    QVERIFY(action);
    bool sawDialog = false;
    QTimer::singleShot(0, [&] {
        auto* dialog = qobject_cast<ConnectDialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        sawDialog = true;
        dialog->fileField()->setText(path);
        QMetaObject::invokeMethod(dialog->fileField(), "editingFinished");
        dialog->contextField()->setCurrentText(QStringLiteral("beta"));
        dialog->buttons()->button(QDialogButtonBox::Ok)->click();
    });
    action->trigger();
    QVERIFY(sawDialog);
    QVERIFY(shown.count() > 0 || shown.wait(60000));
    QCOMPARE(window.cluster()->store->nodeCount(), 2u);
    QCOMPARE(window.cluster()->store->podCount(), 4u);
    QCOMPARE(window.cluster()->server, QString::fromStdString(server.url()));
    QVERIFY2(window.windowTitle().contains(QLatin1String("beta")), qPrintable(window.windowTitle()));

    // Then the window watches it: a node cordoned on the server is cordoned in the shown store,
    // through one batch and one transaction (the same path as the simulated live feed).
    const auto node2 = window.cluster()->store->findNode("node-2");
    QVERIFY(!window.cluster()->store->nodeUnschedulable(node2));
    QVERIFY(window.liveController()->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(server.openWatches() >= 2, 15000);
    QJsonObject node = fleet::tests::itemsOfListFile(dataFile("scheduling-nodes.json")).at(1).toObject();
    QJsonObject spec = node.value("spec").toObject();
    spec["unschedulable"] = true;
    node["spec"] = spec;
    node["kind"] = "Node";
    server.addEvent("/api/v1/nodes", "MODIFIED", node);
    QTRY_VERIFY_WITH_TIMEOUT(window.cluster()->store->nodeUnschedulable(node2), 30000);
    QCOMPARE(window.liveController()->status().server, server.url());
}

// The token may list pods in shop only (cluster-wide and in cache: 403). The LIST reads shop's
// pods and the window says so at once; the watch (refused cluster-wide) relists namespace by
// namespace and says the same; once the user may list every pod and the feed relists, the
// notice goes.
void TstConnectDialog::partialViewIsNoticedUntilWhole()
{
    QTemporaryDir dir;
    const auto pki = fleet::tests::TestPki::create(dir.path().toStdString());
    QVERIFY2(!pki.caPem.empty(), "the openssl command failed or is missing");
    std::map<std::string, QJsonArray> lists{{"/api/v1/nodes", fleet::tests::itemsOfListFile(dataFile("scheduling-nodes.json"))},
                                            {"/api/v1/pods", fleet::tests::itemsOfListFile(dataFile("scheduling-pods.json"))},
                                            {"/api/v1/namespaces", fleet::tests::itemsOfListFile(dataFile("scheduling-namespaces.json"))}};
    fleet::tests::FakeKubeApiServer::Options o;
    o.forbidden = {"/api/v1/pods", "/api/v1/namespaces/cache/pods"};
    fleet::tests::FakeKubeApiServer server(pki, lists, o);
    const QString path = write(dir, "config", kubeconfig(QString::fromStdString(server.url()), QString::fromStdString(pki.caFile), "alpha"));

    MainWindow window;
    window.resize(1100, 700);
    window.show();
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    window.openLive(path, QStringLiteral("alpha"));
    QVERIFY(shown.wait(60000));
    const QString listed = QStringLiteral("Partial view: pods of 1 of 2 namespaces (not listed: cache)");
    QCOMPARE(window.partialViewNotice(), listed);
    QCOMPARE(window.connectionPanel()->fieldText(QStringLiteral("view")), listed);
    QVERIFY(window.findChild<QWidget*>(QStringLiteral("partialViewNotice"))->isVisible());

    // The watch's own view, after its relist namespace by namespace.
    const QString watched = listed + QStringLiteral(", each watched on its own");
    QTRY_COMPARE_WITH_TIMEOUT(window.partialViewNotice(), watched, 30000);
    QCOMPARE(window.connectionPanel()->fieldText(QStringLiteral("view")), watched);
    if (const QByteArray shots = qgetenv("FLEET_SHOT_DIR"); !shots.isEmpty())
        window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/partialview.png"));

    // The user may now list every pod, and a pod arrives in cache (which no watch sees) before
    // the history is compacted past it: the watches resume from before it, get 410 Gone, and the
    // relist sees the whole cluster.
    server.setForbidden({});
    const QJsonObject late{{"kind", "Pod"}, {"apiVersion", "v1"},
                           {"metadata", QJsonObject{{"namespace", "cache"}, {"name", "late"}, {"uid", "cache-late-uid"}}},
                           {"spec", QJsonObject{{"nodeName", "node-1"}, {"containers", QJsonArray{QJsonObject{{"name", "c"}, {"image", "x"}}}}}},
                           {"status", QJsonObject{{"phase", "Running"}}}};
    server.addEvent("/api/v1/pods", "ADDED", late);
    server.compact();
    server.endWatches();
    QTRY_VERIFY_WITH_TIMEOUT(window.partialViewNotice().isEmpty(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(window.cluster()->store->findPod("cache", "late").isValid(), 30000);
    QVERIFY(!window.findChild<QWidget*>(QStringLiteral("partialViewNotice"))->isVisible());
    QCOMPARE(window.connectionPanel()->fieldText(QStringLiteral("view")), QStringLiteral("whole cluster"));
}

// The dialog's Prometheus (a real one, with dcgm-exporter series for node-1) is the usage of
// the connection; a simulated cluster opened next has its own usage, a file none: neither
// keeps the connection's Prometheus.
void TstConnectDialog::prometheusIsForThisConnectionOnly()
{
    const qint64 last = QDateTime::currentSecsSinceEpoch() - 30;
    QByteArray om = "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n";
    for (int i = 10; i >= 0; --i)
        om += QStringLiteral("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"node-1\"} 40 %1\n").arg(last - i * 60).toUtf8();
    PrometheusServer prometheus(om + "# EOF\n");
    QVERIFY2(!prometheus.url().isEmpty(), qPrintable(prometheus.error()));
    QTemporaryDir dir;
    const auto pki = fleet::tests::TestPki::create(dir.path().toStdString());
    QVERIFY2(!pki.caPem.empty(), "the openssl command failed or is missing");
    std::map<std::string, QJsonArray> lists{{"/api/v1/nodes", fleet::tests::itemsOfListFile(dataFile("scheduling-nodes.json"))},
                                            {"/api/v1/pods", fleet::tests::itemsOfListFile(dataFile("scheduling-pods.json"))}};
    fleet::tests::FakeKubeApiServer server(pki, lists, {});
    const QString path = write(dir, "config", kubeconfig(QString::fromStdString(server.url()), QString::fromStdString(pki.caFile), "alpha"));

    MainWindow window;
    window.resize(1000, 700);
    window.show();
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    bool sawDialog = false;
    QString refused;
    QTimer::singleShot(0, [&] {
        auto* dialog = qobject_cast<ConnectDialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        sawDialog = true;
        dialog->setKubeconfig(path);
        QPushButton* ok = dialog->buttons()->button(QDialogButtonBox::Ok);
        dialog->prometheusField()->setText(QStringLiteral("ftp://prometheus:9090")); // not http(s): refused, and said why
        refused = ok->isEnabled() ? QString() : dialog->prometheusErrorLabel()->text();
        dialog->prometheusField()->setText(prometheus.url());
        dialog->tokenField()->setText(QStringLiteral("prometheus-test-token"));
        QVERIFY(dialog->prometheusErrorLabel()->text().isEmpty());
        ok->click();
    });
    window.findChild<QAction*>(QStringLiteral("actionConnect"))->trigger();
    QVERIFY(sawDialog);
    QVERIFY2(refused.contains(QLatin1String("ftp://prometheus:9090")), qPrintable(refused));
    QVERIFY(shown.count() > 0 || shown.wait(60000));
    QVERIFY(window.cluster()->kubeconfig);
    QVERIFY2(window.cluster()->usage, qPrintable(window.warningText()));
    QCOMPARE(window.cluster()->usage->source, "Prometheus " + prometheus.url().toStdString());
    const auto node1 = window.cluster()->store->findNode("node-1");
    QCOMPARE(window.cluster()->usage->gpuUtilization[node1.index()], 0.4);
    QVERIFY(window.findChild<QAction*>(QStringLiteral("actionMetricGpuUsed"))->isEnabled());

    // The simulated cluster next: its own usage, not the connection's Prometheus.
    shown.clear();
    window.openSimulated(300, 2);
    QVERIFY(shown.wait(60000));
    QVERIFY(window.cluster()->usage);
    QCOMPARE(window.cluster()->usage->source, std::string("simulated"));
    // A file next: no usage at all.
    shown.clear();
    window.openFiles({ QStringLiteral(FLEET_TEST_DATA_DIR "/app/small-cluster.json") });
    QVERIFY(shown.wait(60000));
    QVERIFY(!window.cluster()->usage);
    QVERIFY(!window.findChild<QAction*>(QStringLiteral("actionMetricGpuUsed"))->isEnabled());
}

// A server that accepts and never answers: while the window lists it, the status bar says what
// the request waits for after 3 s (not only "Importing..."), from the worker's RequestObserver.
void TstConnectDialog::slowServerIsSaidWhileListing()
{
    QTemporaryDir dir;
    fleet::tests::StallingServer server(fleet::tests::StallingServer::Mode::Silent);
    const QString url = QString::fromStdString(server.url());
    const QString path = write(dir, "config", kubeconfig(url, QString(), "alpha").replace("    certificate-authority: \n", ""));
    MainWindow window;
    window.resize(1000, 700);
    window.show();
    auto* imports = window.findChild<fleet::app::ImportController*>();
    QVERIFY(imports);
    QSignalSpy waiting(imports, &fleet::app::ImportController::importWaiting);
    window.openLive(path, QString());
    QVERIFY(waiting.wait(8000));
    const QString said = waiting.first().first().toString();
    QCOMPARE(
        said, "waiting for " + url + " /api/v1/nodes?REDACTED: no answer yet, 3 s so far (gives up at 60 s, --request-timeout)");
    QTRY_VERIFY_WITH_TIMEOUT(window.importStatusText().contains(said), 10000);
    // The server goes away with its connections: the list fails soon after (refused retries).
}

// The same server connected through File > Connect: the window's dialog has no request
// timeout field, so the wait names the timeout without the command line's --request-timeout.
void TstConnectDialog::slowServerConnectedInTheDialogIsSaidWithoutFlags()
{
    QTemporaryDir dir;
    fleet::tests::StallingServer server(fleet::tests::StallingServer::Mode::Silent);
    const QString url = QString::fromStdString(server.url());
    const QString path = write(dir, "config", kubeconfig(url, QString(), "alpha").replace("    certificate-authority: \n", ""));
    MainWindow window;
    window.resize(1000, 700);
    window.show();
    auto* imports = window.findChild<fleet::app::ImportController*>();
    QVERIFY(imports);
    QSignalSpy waiting(imports, &fleet::app::ImportController::importWaiting);
    auto* action = window.findChild<QAction*>(QStringLiteral("actionConnect"));
    QVERIFY(action);
    bool sawDialog = false;
    QTimer::singleShot(0, [&] {
        auto* dialog = qobject_cast<ConnectDialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        sawDialog = true;
        dialog->fileField()->setText(path);
        QMetaObject::invokeMethod(dialog->fileField(), "editingFinished");
        dialog->buttons()->button(QDialogButtonBox::Ok)->click();
    });
    action->trigger();
    QVERIFY(sawDialog);
    QVERIFY(waiting.wait(8000));
    const QString said = waiting.first().first().toString();
    QCOMPARE(said, "waiting for " + url + " /api/v1/nodes?REDACTED: no answer yet, 3 s so far (gives up at 60 s)");
    QTRY_VERIFY_WITH_TIMEOUT(window.importStatusText().contains(said), 10000);
}

QTEST_MAIN(TstConnectDialog)
#include "tst_connectdialog.moc"
