// MainWindow under a real X server (xvfb-run): imports through the File > Open path on a
// worker, the status bar totals (and how they shorten at small widths), an error that keeps
// the previous cluster and is logged, stale results dropped, cancel, the smallest window,
// and the metric menu checked on rendered pixels.

#include "app/mainwindow.h"
#include "app/surfaceformat.h"
#include "views/map/colormap.h"
#include "views/map/maplegend.h"

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtTest>

using fleet::app::MainWindow;

namespace {

const QString kFleetscope = QStringLiteral(FLEETSCOPE_EXECUTABLE);
const QString kSharedData = QStringLiteral(FLEET_SHARED_DATA_DIR);
const QString kHoneycomb = QStringLiteral(FLEET_SHARED_DATA_DIR "/k8s-fixture-honeycomb-eks");
const QString kAppData = QStringLiteral(FLEET_TEST_DATA_DIR "/app");
constexpr int kWaitMs = 120'000;

// Waits until the window showed a cluster (true) or an import failed (false, at once: a
// failure is not waited out to the timeout).
bool waitShown(MainWindow& window, QSignalSpy& shown)
{
    QSignalSpy failed(&window, &MainWindow::importFailed);
    if (!QTest::qWaitFor([&] { return shown.count() > 0 || failed.count() > 0; }, kWaitMs))
        return false;
    if (failed.count() > 0)
        qWarning("import failed: %s", qPrintable(failed.first().first().toString()));
    return shown.count() > 0;
}

// Opens `files` through the same path as File > Open and waits for the map to show them.
bool openAndWait(MainWindow& window, const QStringList& files)
{
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    window.openFiles(files);
    return waitShown(window, shown);
}

int channelDistance(QRgb a, QRgb b)
{
    return std::max({ std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b)) });
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void totalsInStatusBar_data();
    void totalsInStatusBar();
    void errorKeepsPreviousCluster();
    void warningsAreShown();
    void staleResultIsDropped();
    void cancelKeepsPreviousCluster();
    void metricMenuRecolours_data();
    void metricMenuRecolours();
    void totalsFit_data();
    void totalsFit();
    void smallestWindow();
    void guiLogsImportError();
};

void TestMainWindow::initTestCase()
{
    // Without the shared data each test would wait for an import that fails: stop here,
    // saying how to fix it.
    if (!QFileInfo(kHoneycomb + QStringLiteral("/nodes.json")).isFile())
        QFAIL(qPrintable(QStringLiteral("the shared data folder %1 (FLEET_SHARED_DATA_DIR) is missing or has no "
                                        "k8s-fixture-honeycomb-eks/nodes.json. Point the build at it: cmake "
                                        "-DFLEET_SHARED_DATA_DIR=/path/to/shared/data, or set the environment variable "
                                        "FLEET_SHARED_DATA_DIR when configuring, then rebuild.")
                             .arg(kSharedData)));
    QVERIFY2(QFileInfo(kFleetscope).isExecutable(), qPrintable(kFleetscope));
}

void TestMainWindow::totalsInStatusBar_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("totals");
    QTest::newRow("honeycomb-eks") << QStringList { kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json" }
                                   << QStringLiteral(
                                          "Nodes 2 (2 ready, 0 NotReady, 0 cordoned) | Pods 11 (11 counted, 0 pending) | "
                                          "GPUs 0 / 0 | CPU 0.45 / 15.8 cores | Memory 0.195 / 59.4 GiB | 0 warnings");
    // tests/data/app/README.md lists the loads of this fixture.
    QTest::newRow("small-cluster") << QStringList { kAppData + "/small-cluster.json" }
                                   << QStringLiteral(
                                          "Nodes 3 (3 ready, 0 NotReady, 0 cordoned) | Pods 5 (3 counted, 1 pending) | "
                                          "GPUs 4 / 8 | CPU 12 / 76 cores | Memory 40 / 304 GiB | 0 warnings");
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
    // Also logged (category fleet.app), so that a GUI started from a shell says why on stderr.
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^Import failed: .*bad-quantity\\.json")));
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
    QVERIFY(waitShown(window, shown));
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

void TestMainWindow::totalsFit_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("resourcesInFull"); // GPUs, CPU and memory shown unabridged
    // The user trial: cut off at the default 1280x860, totals gone at 800x500.
    QTest::newRow("1400x900") << QSize(1400, 900) << true;
    QTest::newRow("default 1280x860") << QSize(1280, 860) << true;
    QTest::newRow("800x500") << QSize(800, 500) << true;
    QTest::newRow("smallest 200x150") << QSize(200, 150) << false;
}

// The 100,000-node simulation (the trial's default screenshot): the status bar shows the
// longest form of the totals that fits, and it really fits.
void TestMainWindow::totalsFit()
{
    QFETCH(QSize, size);
    QFETCH(bool, resourcesInFull);
    static MainWindow* window = nullptr; // one import of 100,000 nodes for all rows
    if (!window) {
        window = new MainWindow;
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window));
        QSignalSpy shown(window, &MainWindow::clusterShown);
        window->openSimulated(100000, 1);
        QVERIFY(waitShown(*window, shown));
    }
    window->resize(size);
    QTRY_COMPARE(window->size(), size);
    QCoreApplication::processEvents();
    auto* field = window->findChild<QWidget*>(QStringLiteral("totalsLabel"));
    QVERIFY(field);
    const QString full = window->totalsText();
    const QString shown = window->displayedTotalsText();
    const QFontMetrics fm(field->font());
    QVERIFY2(fm.horizontalAdvance(shown) <= field->contentsRect().width(), qPrintable(shown));
    QVERIFY2(field->geometry().right() < window->width(), "the field ends inside the window");
    // The shown text is one of the forms, or an elided one; the resources part is the full one's.
    const QString resources = full.section(QStringLiteral(" | "), 2, 4);
    QVERIFY2(resources.startsWith(QStringLiteral("GPUs ")) && resources.contains(QStringLiteral("Memory ")), qPrintable(full));
    if (resourcesInFull)
        QVERIFY2(shown.endsWith(resources), qPrintable(shown + QStringLiteral(" / ") + resources));
    else
        QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown));
    qInfo("%dx%d: \"%s\"", size.width(), size.height(), qPrintable(shown));
    if (QTest::currentDataTag() == QByteArray("smallest 200x150")) {
        delete window;
        window = nullptr;
    }
}

// The smallest window is honoured exactly, whatever its contents would like (the legend, a
// wrapped warning banner, the import progress bar): `screenshot --size 200x150` depends on it.
void TestMainWindow::smallestWindow()
{
    MainWindow window;
    window.resize(MainWindow::kMinimumSize);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    window.openFiles({ kAppData + "/incomplete-list.json" }); // two warnings: the banner shows
    QCOMPARE(window.size(), MainWindow::kMinimumSize); // while the progress bar shows
    QVERIFY(waitShown(window, shown));
    QCoreApplication::processEvents();
    QVERIFY(!window.warningText().isEmpty());
    QCOMPARE(window.size(), MainWindow::kMinimumSize);
    QCOMPARE(window.grab().size() / window.devicePixelRatioF(), MainWindow::kMinimumSize);
    // The legend does not fit beside a map this small: hidden, and back when there is room.
    auto* legendWidget = window.mapView()->findChild<fleet::views::MapLegend*>();
    QVERIFY(legendWidget);
    QVERIFY(legendWidget->isHidden());
    window.resize(900, 700);
    QTRY_VERIFY(!legendWidget->isHidden());
}

// The GUI program started with a bad file says why on stderr, not only in its banner.
void TestMainWindow::guiLogsImportError()
{
    QTemporaryDir runtimeDir; // killed below, the program could not remove a private one
    QVERIFY(runtimeDir.isValid());
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir.path());
    p.setProcessEnvironment(env);
    p.setProgram(kFleetscope);
    p.setArguments({ kAppData + "/bad-quantity.json" });
    p.start(); // DISPLAY: xvfb-run's
    QVERIFY(p.waitForStarted(10'000));
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT(
        (err += p.readAllStandardError()).contains("bad-quantity.json") || p.state() != QProcess::Running, 60'000);
    const bool stillRunning = p.state() == QProcess::Running; // the window stays open on an error
    p.kill();
    p.waitForFinished();
    err += p.readAllStandardError();
    QVERIFY2(stillRunning, err.constData());
    QVERIFY2(err.contains("Import failed: ") && err.contains("bad-quantity.json"), err.constData());
}

int main(int argc, char** argv)
{
    fleet::app::setDefaultSurfaceFormat(); // before QApplication, as in fleetscope
    QApplication app(argc, argv);
    TestMainWindow test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_mainwindow.moc"
