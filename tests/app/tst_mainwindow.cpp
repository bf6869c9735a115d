// MainWindow under a real X server (xvfb-run): imports through the File > Open path on a
// worker, the status bar totals, an error that keeps the previous cluster, stale results
// dropped, cancel, and the metric menu checked on rendered pixels.

#include "app/mainwindow.h"
#include "app/surfaceformat.h"
#include "views/map/colormap.h"

#include <QAction>
#include <QApplication>
#include <QSignalSpy>
#include <QThreadPool>
#include <QtTest>

using fleet::app::MainWindow;

namespace {

const QString kHoneycomb = QStringLiteral(FLEET_SHARED_DATA_DIR "/k8s-fixture-honeycomb-eks");
const QString kAppData = QStringLiteral(FLEET_TEST_DATA_DIR "/app");
constexpr int kWaitMs = 120'000;

// Opens `files` through the same path as File > Open and waits for the map to show them.
bool openAndWait(MainWindow& window, const QStringList& files)
{
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    window.openFiles(files);
    return shown.wait(kWaitMs);
}

int channelDistance(QRgb a, QRgb b)
{
    return std::max({ std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b)) });
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void totalsInStatusBar_data();
    void totalsInStatusBar();
    void errorKeepsPreviousCluster();
    void warningsAreShown();
    void staleResultIsDropped();
    void cancelKeepsPreviousCluster();
    void metricMenuRecolours_data();
    void metricMenuRecolours();
};

void TestMainWindow::totalsInStatusBar_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("totals");
    QTest::newRow("honeycomb-eks")
        << QStringList { kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json" }
        << QStringLiteral("Nodes 2 (2 ready, 0 NotReady, 0 cordoned) | Pods 11 (11 counted, 0 pending) | "
                          "GPUs 0 of 0 requested | CPU 0.45 of 15.82 cores | Memory 0.2 of 59.4 GiB | 0 warnings");
    // tests/data/app/README.md lists the loads of this fixture.
    QTest::newRow("small-cluster") << QStringList { kAppData + "/small-cluster.json" }
                                   << QStringLiteral(
                                          "Nodes 3 (3 ready, 0 NotReady, 0 cordoned) | Pods 5 (3 counted, 1 pending) | "
                                          "GPUs 4 of 8 requested | CPU 12 of 76 cores | Memory 40.0 of 304.0 GiB | 0 warnings");
}

void TestMainWindow::totalsInStatusBar()
{
    QFETCH(QStringList, files);
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, files));
    QTEST(window.totalsText(), "totals");
    QVERIFY(window.errorText().isEmpty());
    QVERIFY(!window.importController()->isBusy());
}

void TestMainWindow::errorKeepsPreviousCluster()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, { kAppData + "/small-cluster.json" }));
    const auto before = window.cluster();
    const QString totalsBefore = window.totalsText();
    const auto nodeA = before->store->findNode("gpu-node-a");
    QVERIFY(!window.mapView()->cellCenter(nodeA).isNull());

    QSignalSpy failed(&window, &MainWindow::importFailed);
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    window.openFiles({ kAppData + "/bad-quantity.json" });
    QVERIFY(failed.wait(kWaitMs));
    QCOMPARE(shown.count(), 0);
    // The error names the file and the place (ImportError::what()), in a visible banner.
    QVERIFY2(window.errorText().contains(QStringLiteral("bad-quantity.json")), qPrintable(window.errorText()));
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("bad-quantity.json")),
        qPrintable(failed.first().first().toString()));
    QVERIFY(window.findChild<QWidget*>(QStringLiteral("errorBanner"))->isVisible());
    // The previous cluster is kept, on the map and in the status bar.
    QCOMPARE(window.cluster(), before);
    QCOMPARE(window.totalsText(), totalsBefore);
    QVERIFY(!window.mapView()->cellCenter(nodeA).isNull());

    // The next good import clears the error.
    QVERIFY(openAndWait(window, { kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json" }));
    QVERIFY(window.errorText().isEmpty());
}

void TestMainWindow::warningsAreShown()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.warningText().isEmpty());
    // tests/data/app/README.md: the first page of a paginated list, plus a ConfigMap.
    QVERIFY(openAndWait(window, { kAppData + "/incomplete-list.json" }));
    QVERIFY2(window.totalsText().endsWith(QStringLiteral("| 2 warnings")), qPrintable(window.totalsText()));
    QVERIFY2(window.warningText().contains(QStringLiteral("incomplete")), qPrintable(window.warningText()));
    QVERIFY(window.findChild<QWidget*>(QStringLiteral("warningBanner"))->isVisible());
    QCOMPARE(window.cluster()->report.warnings.size(), std::size_t(2));

    // A clean import hides the banner again.
    QVERIFY(openAndWait(window, { kAppData + "/small-cluster.json" }));
    QVERIFY(window.warningText().isEmpty());
    QVERIFY2(window.totalsText().endsWith(QStringLiteral("| 0 warnings")), qPrintable(window.totalsText()));
}

void TestMainWindow::staleResultIsDropped()
{
    MainWindow window;
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    // Two imports in a row: the first one's result, whenever it comes, is stale.
    window.openFiles({ kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json" });
    window.openFiles({ kAppData + "/small-cluster.json" });
    QVERIFY(shown.wait(kWaitMs));
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    QCOMPARE(shown.count(), 1);
    QCOMPARE(window.cluster()->store->nodeCount(), std::size_t(3));
    QCOMPARE(window.importController()->generation(), std::uint64_t(2));
}

void TestMainWindow::cancelKeepsPreviousCluster()
{
    MainWindow window;
    QVERIFY(openAndWait(window, { kAppData + "/small-cluster.json" }));
    const auto before = window.cluster();
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    QSignalSpy cancelled(window.importController(), &fleet::app::ImportController::importCancelled);
    window.openSimulated(200000, 7);
    QVERIFY(window.importController()->isBusy());
    window.cancelImport();
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(!window.importController()->isBusy());
    // Whatever the worker hands back after the cancel is dropped.
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    QCOMPARE(shown.count(), 0);
    QCOMPARE(window.cluster(), before);
}

void TestMainWindow::metricMenuRecolours_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("node");
    QTest::addColumn<double>("share");
    // tests/data/app/README.md: gpu-node-a requests 4 of 8 GPUs, 8 of 64 cpu, 32 of 256 GiB.
    QTest::newRow("gpu") << "actionMetricGpu"
                         << "gpu-node-a" << 0.5;
    QTest::newRow("cpu") << "actionMetricCpu"
                         << "gpu-node-a" << 0.125;
    QTest::newRow("memory") << "actionMetricMemory"
                            << "gpu-node-a" << 0.125;
    QTest::newRow("gpu falls back to cpu") << "actionMetricGpu"
                                           << "cpu-node-b" << 1.0;
    QTest::newRow("memory, cpu node") << "actionMetricMemory"
                                      << "cpu-node-b" << 0.5;
}

void TestMainWindow::metricMenuRecolours()
{
    QFETCH(QString, action);
    QFETCH(QString, node);
    QFETCH(double, share);
    MainWindow window;
    window.resize(900, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, { kAppData + "/small-cluster.json" }));
    auto* a = window.findChild<QAction*>(action);
    QVERIFY(a);
    a->trigger();
    QVERIFY(a->isChecked());
    const auto id = window.cluster()->store->findNode(node.toStdString());
    const QPoint centre = window.mapView()->cellCenter(id);
    QVERIFY(!centre.isNull());
    const QImage image = window.mapView()->grabImage();
    const QRgb actual = image.pixel(centre * image.devicePixelRatio());
    const QRgb expected = fleet::views::shareRgb(share);
    QVERIFY2(channelDistance(actual, expected) <= 2,
        qPrintable(QStringLiteral("%1: %2, expected %3").arg(node, QColor(actual).name(), QColor(expected).name())));
}

int main(int argc, char** argv)
{
    fleet::app::setDefaultSurfaceFormat(); // before QApplication, as in fleetscope
    QApplication app(argc, argv);
    TestMainWindow test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_mainwindow.moc"
