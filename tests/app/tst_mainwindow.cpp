// SPDX-License-Identifier: Apache-2.0
// MainWindow under a real X server (xvfb-run): imports through the File > Open path on a
// worker, the status bar totals (and how they shorten at small widths, basic figures last),
// an error that keeps the previous cluster and is logged, stale results dropped, cancel (its
// message beside the totals, not over them), the import's progress text, the hovered node
// cleared, the smallest window, the metric menu checked on rendered pixels, and the GUI
// program removing its private runtime folder on SIGINT, SIGTERM and SIGHUP.

#include "app/controllers/workerpool.h"
#include "app/window/mainwindow.h"
#include "app/dialogs/simulatedialog.h"
#include "app/window/statusfield.h"
#include "app/startup/surfaceformat.h"
#include "model/metrics/metricregistry.h"
#include "views/map/colormap.h"
#include "views/map/maplegend.h"

#include "common/guitestmain.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QFileInfo>
#include <QProcess>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QScreen>
#include <QtTest>

#include <cmath>
#include <csignal>

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
    void progressTextFits_data();
    void progressTextFits();
    void fullStop_data();
    void fullStop();
    void hoverClears();
    void metricMenuRecolours_data();
    void metricMenuRecolours();
    void metricMenuListsEveryMetric();
    void totalsFit_data();
    void totalsFit();
    void smallestWindow();
    void windowFitsItsScreen();
    void simulateDialogTakesEveryNodeCountAndSeed();
    void shortcutsWorkAfterDialog();
    void guiLogsImportError();
    void guiSignalRemovesRuntimeDir_data();
    void guiSignalRemovesRuntimeDir();
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
                                          "GPUs 0 / 0 | CPU 0.45 / 15.8 cores | Memory 200 MiB / 59.4 GiB | 0 warnings");
    // tests/data/app/README.md lists the loads of this fixture.
    QTest::newRow("small-cluster") << QStringList { kAppData + "/small-cluster.json" }
                                   << QStringLiteral(
                                          "Nodes 3 (3 ready, 0 NotReady, 0 cordoned) | Pods 5 (3 counted, 1 pending) | "
                                          "GPUs 4 / 8 | CPU 12 / 76 cores | Memory 40 GiB / 304 GiB | 0 warnings");
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
    // The error is a sentence of its own, then what is still shown (the user trial: no full stop).
    QTest::ignoreMessage(QtWarningMsg,
        QRegularExpression(
            QStringLiteral("^Import failed: .*bad-quantity\\.json:162: .*e3\\. The previous cluster \\(.*small-cluster"
                           "\\.json\\) is still shown\\.$")));
    window.openFiles({ kAppData + "/bad-quantity.json" });
    QVERIFY(failed.wait(kWaitMs));
    QCOMPARE(shown.count(), 0);
    // The error names the file and the place (ImportError::what()), in a visible banner.
    QVERIFY2(window.errorText().contains(QStringLiteral("bad-quantity.json")), qPrintable(window.errorText()));
    QVERIFY2(window.errorText().contains(QStringLiteral("e3. The previous cluster (")), qPrintable(window.errorText()));
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
    fleet::app::longWorkPool()->waitForDone(); // the import's worker
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
    fleet::app::longWorkPool()->waitForDone(); // the import's worker
    QCoreApplication::processEvents();
    QCOMPARE(shown.count(), 0);
    QCOMPARE(window.cluster(), before);
    // The user trial: "Import of ... cancelled." replaced the totals for 5 s. It is in the
    // import's own field; the totals stay.
    QCOMPARE(window.statusBar()->currentMessage(), QString());
    QVERIFY(!window.findChild<QWidget*>(QStringLiteral("totalsLabel"))->isHidden());
    QVERIFY(!window.totalsText().isEmpty());
    QCOMPARE(window.importStatusText(), QStringLiteral("Import of simulated cluster (200000 nodes, seed 7) cancelled."));
    QVERIFY(!window.findChild<QWidget*>(QStringLiteral("importStatus"))->isHidden());
    // ... until the next import starts.
    QVERIFY(openAndWait(window, { kAppData + "/small-cluster.json" }));
    QCOMPARE(window.importStatusText(), QString());
}

// The user trial: the bar's own text was clipped ("mporting… 6%") or wrapped on two lines.
// The text is now in a field beside the bar, one line, in full; the totals of the cluster on
// screen stay beside it.
void TestMainWindow::progressTextFits_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("default 1280x860") << QSize(1280, 860);
    QTest::newRow("800x500") << QSize(800, 500);
}

void TestMainWindow::progressTextFits()
{
    QFETCH(QSize, size);
    MainWindow window;
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, { kAppData + "/small-cluster.json" }));
    QSignalSpy progress(window.importController(), &fleet::app::ImportController::progressChanged);
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    window.openSimulated(300000, 3);
    QVERIFY(window.importController()->isBusy());
    QVERIFY(window.importStatusText().startsWith(QStringLiteral("Importing\u2026")));
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0 && progress.last().first().toInt() >= 0, kWaitMs);
    QCoreApplication::processEvents();
    const int permille = progress.last().first().toInt();
    QVERIFY(window.importController()->isBusy());
    const QString text = window.importStatusText();
    QVERIFY2(text == QStringLiteral("Importing\u2026 %1%").arg(permille / 10) || shown.count() > 0, qPrintable(text));
    auto* field = window.findChild<fleet::app::StatusField*>(QStringLiteral("importStatus"));
    auto* bar = window.findChild<QProgressBar*>(QStringLiteral("importProgress"));
    QVERIFY(field && bar);
    QVERIFY(!bar->isTextVisible());
    QVERIFY(field->isVisible() && bar->isVisible());
    QCOMPARE(field->displayedText(), field->text()); // in full, one line (a StatusField paints one)
    QVERIFY(field->geometry().right() < bar->geometry().left()); // beside the bar, not over it
    QVERIFY2(window.displayedTotalsText().startsWith(QStringLiteral("Nodes 3 ")), qPrintable(window.displayedTotalsText()));
    if (!qEnvironmentVariableIsEmpty("FLEET_PROGRESS_SCREENSHOT")) // to look at it: PATH-WxH.png
        window.grab().save(QStringLiteral("%1-%2x%3.png")
                               .arg(qEnvironmentVariable("FLEET_PROGRESS_SCREENSHOT"))
                               .arg(size.width())
                               .arg(size.height()));
    window.cancelImport();
}

void TestMainWindow::fullStop_data()
{
    QTest::addColumn<QString>("sentence");
    QTest::addColumn<QString>("expected");
    QTest::newRow("added") << "a.json:3: bad quantity"
                           << "a.json:3: bad quantity.";
    QTest::newRow("kept") << "out of memory."
                          << "out of memory.";
    QTest::newRow("question") << "really?"
                              << "really?";
    QTest::newRow("trailing space") << "x "
                                    << "x.";
    QTest::newRow("empty") << ""
                           << "";
}

void TestMainWindow::fullStop()
{
    QFETCH(QString, sentence);
    QTEST(fleet::app::withFullStop(sentence), "expected");
}

// The user trial: the status bar kept naming a node after the cluster was replaced and
// after the pointer left the map.
void TestMainWindow::hoverClears()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, { kAppData + "/small-cluster.json" }));
    const auto nodeA = window.cluster()->store->findNode("gpu-node-a");
    QVERIFY(nodeA.isValid());
    emit window.mapView()->nodeHovered(nodeA);
    QCOMPARE(window.hoverText(), QStringLiteral("gpu-node-a"));
    emit window.mapView()->nodeHovered(fleet::model::NodeId());
    QCOMPARE(window.hoverText(), QString());

    emit window.mapView()->nodeHovered(nodeA);
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(window.mapView(), &leave);
    QCOMPARE(window.hoverText(), QString());

    emit window.mapView()->nodeHovered(nodeA);
    QVERIFY(openAndWait(window, { kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json" }));
    QCOMPARE(window.hoverText(), QString());
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
    QTest::newRow("gpu: a cpu node is not applicable (NaN)") << "actionMetricGpu"
                                                             << "cpu-node-b" << std::nan("");
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

// The Metric menu: every metric of the registry, Ctrl+1 onwards, plus the label metrics;
// choosing one colours the map by it and checks it.
void TestMainWindow::metricMenuListsEveryMetric()
{
    MainWindow window;
    const auto& metrics = fleet::model::MetricRegistry::builtin().metrics();
    QCOMPARE(metrics.size(), std::size_t(8));
    const char* names[] = { "actionMetricGpu", "actionMetricCpu", "actionMetricMemory", "actionMetricGpuUnallocated",
        "actionMetricGpuFragmentation", "actionMetricCost", "actionMetricCostUnallocated", "actionMetricState" };
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        auto* a = window.findChild<QAction*>(QLatin1String(names[i]));
        QVERIFY2(a, names[i]);
        QCOMPARE(a->shortcut(), QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + static_cast<int>(i))));
        a->trigger();
        QCOMPARE(window.mapView()->currentMetric().id(), metrics[i]->id());
        QVERIFY(a->isChecked());
    }
    for (const char* name : { "actionMetricNodeGroup", "actionMetricCapacityType", "actionMetricInstanceType", "actionMetricLabel" })
        QVERIFY2(window.findChild<QAction*>(QLatin1String(name)), name);
    window.findChild<QAction*>(QStringLiteral("actionMetricInstanceType"))->trigger();
    QCOMPARE(window.mapView()->currentMetric().id(), std::string("label:node.kubernetes.io/instance-type"));
    // Any label key by id; an unknown id changes nothing.
    QVERIFY(window.setMetric(QStringLiteral("label:topology.kubernetes.io/zone")));
    QVERIFY(window.findChild<QAction*>(QStringLiteral("actionMetricLabel"))->isChecked());
    QVERIFY(!window.setMetric(QStringLiteral("nope")));
    QCOMPARE(window.mapView()->currentMetric().id(), std::string("label:topology.kubernetes.io/zone"));
}

void TestMainWindow::totalsFit_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("figures"); // how many of Nodes, Pods, GPUs, CPU, Memory are shown unabridged
    // The user trial: cut off at the default 1280x860, totals gone at 800x500; then, narrower,
    // Nodes and Pods went first. The most basic figures are now the last to go.
    QTest::newRow("1400x900") << QSize(1400, 900) << 5;
    QTest::newRow("default 1280x860") << QSize(1280, 860) << 5;
    QTest::newRow("800x500") << QSize(800, 500) << 5;
    QTest::newRow("600x400") << QSize(600, 400) << 3;
    QTest::newRow("450x300") << QSize(450, 300) << 2;
    QTest::newRow("smallest 200x150") << QSize(200, 150) << 1;
}

// The 100,000-node simulation (the trial's default screenshot): the status bar shows the
// longest form of the totals that fits, and it really fits.
void TestMainWindow::totalsFit()
{
    QFETCH(QSize, size);
    QFETCH(int, figures);
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
    // The shown text is the first `figures` figures of the short form, in this order, or the
    // node count elided.
    const QStringList parts = full.split(QStringLiteral(" | "));
    QCOMPARE(parts.size(), 6); // Nodes, Pods, GPUs, CPU, Memory, warnings
    QStringList expected, expectedFull;
    for (int i = 0; i < figures; ++i) {
        expected << parts[i].section(QStringLiteral(" ("), 0, 0); // without the breakdowns
        expectedFull << parts[i];
    }
    if (figures > 0) {
        // The short form, or the long one where it fits (no hover takes room any more: the
        // map hovers only after a real pointer move).
        QVERIFY2(shown.startsWith(expected.join(QStringLiteral(" | ")))
                || shown.startsWith(expectedFull.join(QStringLiteral(" | "))),
            qPrintable(shown));
        QVERIFY2(!shown.contains(QChar(0x2026)), qPrintable(shown));
    } else {
        const qsizetype cut = shown.indexOf(QChar(0x2026)); // elided in the middle
        QVERIFY2(cut > 0 && QStringLiteral("Nodes 100,000").startsWith(shown.left(cut))
                && QStringLiteral("Nodes 100,000").endsWith(shown.mid(cut + 1)),
            qPrintable(shown));
        QVERIFY2(window->totalsToolTip().startsWith(window->totalsText().section(QStringLiteral(" | "), 0, 0)), qPrintable(window->totalsToolTip()));
    }
    qInfo("%dx%d: \"%s\"", size.width(), size.height(), qPrintable(shown));
    // Hovering a node never takes the totals' room (user trial: at 1280 px a hover hid the
    // NotReady and pending figures).
    emit window->mapView()->nodeHovered(fleet::model::NodeId(0));
    QCoreApplication::processEvents();
    QCOMPARE(window->displayedTotalsText(), shown);
    emit window->mapView()->nodeHovered(fleet::model::NodeId());
    if (QTest::currentDataTag() == QByteArray("smallest 200x150")) {
        delete window;
        window = nullptr;
    }
}

// File > Open Simulated Cluster once dropped a 7th digit and had no seed field.
void TestMainWindow::simulateDialogTakesEveryNodeCountAndSeed()
{
    fleet::app::SimulateDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.nodesField()->selectAll();
    dialog.nodesField()->clear();
    QTest::keyClicks(dialog.nodesField(), QStringLiteral("2500000"));
    QCOMPARE(dialog.nodeCount(), std::size_t(2'500'000));
    dialog.seedField()->clear();
    QTest::keyClicks(dialog.seedField(), QStringLiteral("18446744073709551615"));
    QVERIFY(dialog.seedIsValid());
    QCOMPARE(dialog.seed(), std::uint64_t(18446744073709551615ull));
    dialog.seedField()->clear();
    QTest::keyClicks(dialog.seedField(), QStringLiteral("7x"));
    QCOMPARE(dialog.seedField()->text(), QStringLiteral("7")); // the validator refuses the letter
    dialog.seedField()->clear();
    QVERIFY(!dialog.seedIsValid()); // empty: OK is disabled
    auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled());
    dialog.setSeed(42);
    QVERIFY(ok->isEnabled());
    // One region (one cluster) unless asked; up to four, as --regions takes, typed or set.
    QCOMPARE(dialog.regionCount(), std::size_t(1));
    dialog.regionsField()->selectAll();
    QTest::keyClicks(dialog.regionsField(), QStringLiteral("4"));
    QCOMPARE(dialog.regionCount(), std::size_t(4));
    dialog.setRegionCount(9);
    QCOMPARE(dialog.regionCount(), std::size_t(4));
}

// Keyboard shortcuts once stopped working after a dialog closed, until the map was clicked:
// nothing re-activated the window under an X server without a window manager.
void TestMainWindow::shortcutsWorkAfterDialog()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, { kAppData + "/small-cluster.json" }));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    auto* simulate = window.findChild<QAction*>(QStringLiteral("actionSimulate"));
    QVERIFY(simulate);
    QTimer::singleShot(300, [] {
        if (QWidget* modal = QApplication::activeModalWidget())
            static_cast<QDialog*>(modal)->reject();
    });
    simulate->trigger(); // runs the dialog until the timer rejects it
    QTRY_VERIFY(QApplication::activeWindow() == &window);
    QVERIFY(window.mapView()->isAncestorOf(QApplication::focusWidget()) || QApplication::focusWidget() == window.mapView());
    auto* cpu = window.findChild<QAction*>(QStringLiteral("actionMetricCpu"));
    QVERIFY(cpu);
    QVERIFY(!cpu->isChecked());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_2, Qt::ControlModifier);
    QTRY_VERIFY(cpu->isChecked());
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

// A window larger than its screen (the 1280x860 default on a 1280x800 laptop, or a geometry
// saved on a larger screen) is brought inside the screen's free area, its frame allowed for, so
// that the status bar is never below the screen's edge.
void TestMainWindow::windowFitsItsScreen()
{
    MainWindow window;
    QScreen* screen = window.screen();
    QVERIFY(screen);
    const QRect free = screen->availableGeometry();
    window.resize(free.width() + 200, free.height() + 200);
    window.move(free.topLeft() + QPoint(300, 300));
    window.fitToScreen();
    QVERIFY2(window.width() <= free.width() && window.height() <= free.height() - 48,
        qPrintable(QStringLiteral("%1x%2 in %3x%4").arg(window.width()).arg(window.height()).arg(free.width()).arg(free.height())));
    QVERIFY(free.contains(window.geometry()));
    // A window that fits keeps its size.
    window.resize(free.width() / 2, free.height() / 2);
    window.fitToScreen();
    QCOMPARE(window.size(), QSize(free.width() / 2, free.height() / 2));
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

void TestMainWindow::guiSignalRemovesRuntimeDir_data()
{
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGINT (Ctrl+C)") << int(SIGINT);
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGHUP") << int(SIGHUP);
}

// The user trial: Ctrl+C on the GUI left /tmp/fleetscope-runtime-XXXXXX behind.
void TestMainWindow::guiSignalRemovesRuntimeDir()
{
    QFETCH(int, signal);
    QTemporaryDir tmp; // the child's TMPDIR: must be empty again afterwards
    QVERIFY(tmp.isValid());
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    env.insert(QStringLiteral("TMPDIR"), tmp.path());
    p.setProcessEnvironment(env);
    p.setProgram(kFleetscope);
    p.setArguments({ kAppData + "/small-cluster.json" });
    p.start(); // DISPLAY: xvfb-run's
    QVERIFY(p.waitForStarted(10'000));
    const QDir taskDir(QStringLiteral("/proc/%1/task").arg(p.processId()));
    auto runtimeDirs = [&] {
        return QDir(tmp.path()).entryList({ QStringLiteral("fleetscope-runtime-*") }, QDir::Dirs | QDir::NoDotAndDotDot);
    };
    // The folder exists and QApplication runs (Qt's xcb event reader is a second thread).
    QTRY_VERIFY_WITH_TIMEOUT((runtimeDirs().size() == 1 && taskDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot).size() >= 2)
            || p.state() != QProcess::Running,
        60'000);
    QTest::qWait(500); // into the event loop, with the window shown (not needed for the result)
    QVERIFY2(p.state() == QProcess::Running, p.readAllStandardError().constData());
    QVERIFY(::kill(static_cast<pid_t>(p.processId()), signal) == 0);
    QVERIFY(p.waitForFinished(30'000));
    QCOMPARE(p.exitStatus(), QProcess::CrashExit); // ended by the signal, as the shell expects
    QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
}

FLEET_GUI_TEST_MAIN(TestMainWindow, fleet::app::setDefaultSurfaceFormat)

#include "tst_mainwindow.moc"
