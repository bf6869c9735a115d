// SPDX-License-Identifier: Apache-2.0
// `fleetscope screenshot` run as a user runs it (QProcess), with DISPLAY removed (the program
// starts its own Xvfb): the image checked pixel by pixel, its metrics, panels, size and format,
// and its refusals: an output path that cannot be written and a --prices file that cannot be
// read or is malformed, each with its exit code and a message naming the path.
// (Moved out of tst_cli.cpp, which keeps the other subcommands.)

#include "fleetscoperun.h"
#include "views/map/colormap.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include <sys/stat.h>
#include <unistd.h>

namespace {

const QString kHoneycomb = QStringLiteral(FLEET_SHARED_DATA_DIR "/k8s-fixture-honeycomb-eks");
const QString kAppData = QStringLiteral(FLEET_TEST_DATA_DIR "/app");

using Run = fleet::tests::FleetscopeRun;
using fleet::tests::runFleetscope;

// Largest difference of one channel between two colours.
int channelDistance(QRgb a, QRgb b)
{
    return std::max({ std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b)) });
}

} // namespace

class TstCliScreenshot : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void screenshotWithoutDisplay();
    void screenshotLeavesOpenRecentAlone();
    void screenshotFailsCleanly();
    void screenshotMetric_data();
    void screenshotMetric();
    void screenshotBadPrices();
    void screenshotUnreadablePrices_data();
    void screenshotUnreadablePrices();
    void screenshotUnreadablePlan_data();
    void screenshotUnreadablePlan();
    void screenshotPlanOverADocumentsPlans();
    void screenshotRefusesOutput_data();
    void screenshotRefusesOutput();
    void screenshotSizeIsExact_data();
    void screenshotSizeIsExact();
    void screenshotRejectsSize_data();
    void screenshotRejectsSize();
    void screenshotUnknownCellFails();
    void screenshotViewStateErrors_data();
    void screenshotViewStateErrors();
    void screenshotSelectorDims();
    void screenshotPanel_data();
    void screenshotPanel();
    void screenshotFormatFromSuffix_data();
    void screenshotFormatFromSuffix();
};

void TstCliScreenshot::initTestCase()
{
    QVERIFY2(QFileInfo(QStringLiteral(FLEETSCOPE_EXECUTABLE)).isExecutable(), FLEETSCOPE_EXECUTABLE);
    QVERIFY2(QFileInfo(kHoneycomb + QStringLiteral("/nodes.json")).isFile(),
        "the shared data folder (FLEET_SHARED_DATA_DIR) has no k8s-fixture-honeycomb-eks/nodes.json: cmake -DFLEET_SHARED_DATA_DIR=...");
}

void TstCliScreenshot::screenshotWithoutDisplay()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("map.png"));
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"),
        QStringLiteral("-o"), png, QStringLiteral("--size"), QStringLiteral("800x600"), QStringLiteral("--print-cell"),
        QStringLiteral("gpu-node-a"), QStringLiteral("--print-cell"), QStringLiteral("cpu-node-b"),
        QStringLiteral("--print-cell"), QStringLiteral("cpu-node-c") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList { QStringLiteral("map.png") }); // no temporary left over

    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(800, 600));

    // Expected colours: tests/data/app/README.md (GPU share where a node has GPUs; CPU-only
    // nodes are not applicable under the GPU metric: NaN, the neutral grey).
    const QHash<QString, double> shares { { QStringLiteral("gpu-node-a"), 0.5 }, { QStringLiteral("cpu-node-b"), std::nan("") },
        { QStringLiteral("cpu-node-c"), std::nan("") } };
    static const QRegularExpression cellRe(QStringLiteral("^cell (\\S+) (\\d+) (\\d+)$"), QRegularExpression::MultilineOption);
    int checked = 0;
    for (auto it = cellRe.globalMatch(QString::fromUtf8(r.out)); it.hasNext();) {
        const auto m = it.next();
        const QString node = m.captured(1);
        const QPoint at(m.captured(2).toInt(), m.captured(3).toInt());
        QVERIFY2(image.rect().contains(at), qPrintable(node));
        const QRgb actual = image.pixel(at);
        const QRgb expected = fleet::views::shareRgb(shares.value(node));
        QVERIFY2(channelDistance(actual, expected) <= 2,
            qPrintable(QStringLiteral("%1 at (%2,%3): %4, expected %5")
                           .arg(node)
                           .arg(at.x())
                           .arg(at.y())
                           .arg(QColor(actual).name(), QColor(expected).name())));
        ++checked;
    }
    QVERIFY2(checked == 3, r.out.constData());
}

// `screenshot --metric` takes every metric id; a bad one is refused, naming the valid ones.
void TstCliScreenshot::screenshotMetric_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QColor>("expected"); // gpu-node-a's texel; invalid: refused
    QTest::newRow("cpu") << "cpu" << QColor::fromRgb(fleet::views::shareRgb(8.0 / 64));
    QTest::newRow("state") << "state" << fleet::views::readyColor();
    QTest::newRow("label") << "label:kubernetes.io/hostname" << QColor();
    QTest::newRow("bad") << "gpus" << QColor();
}

void TstCliScreenshot::screenshotMetric()
{
    QFETCH(QString, metric);
    QFETCH(QColor, expected);
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("map.png"));
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"), QStringLiteral("-o"),
        png, QStringLiteral("--size"), QStringLiteral("800x600"), QStringLiteral("--metric"), metric, QStringLiteral("--print-cell"),
        QStringLiteral("gpu-node-a") });
    if (metric == QLatin1String("gpus")) {
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("expected one of gpu, cpu, memory, gpu-unallocated, gpu-fragmentation, cost, cost-unallocated, state, label:KEY"),
            r.err.constData());
        return;
    }
    QVERIFY2(r.exitCode == 0, r.err.constData());
    if (!expected.isValid())
        return;
    static const QRegularExpression cellRe(QStringLiteral("^cell gpu-node-a (\\d+) (\\d+)$"), QRegularExpression::MultilineOption);
    const auto m = cellRe.match(QString::fromUtf8(r.out));
    QVERIFY2(m.hasMatch(), r.out.constData());
    const QRgb actual = QImage(png).pixel(m.captured(1).toInt(), m.captured(2).toInt());
    QVERIFY2(channelDistance(actual, expected.rgb()) <= 2, qPrintable(QColor(actual).name() + " vs " + expected.name()));
}

// `--prices FILE` with a malformed row: refused before any import, naming file, line and column.
void TstCliScreenshot::screenshotBadPrices()
{
    QTemporaryDir dir;
    const QString prices = dir.filePath(QStringLiteral("prices.csv"));
    QFile f(prices);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("region,instance_type,capacity_type,usd_per_hour\nus-east-1,p5.48xlarge,on-demand,lots\n");
    f.close();
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"), QStringLiteral("-o"),
        dir.filePath(QStringLiteral("map.png")), QStringLiteral("--metric"), QStringLiteral("cost"), QStringLiteral("--prices"), prices });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--prices: %1:2:33: expected usd_per_hour").arg(prices).toUtf8()), r.err.constData());
}

void TstCliScreenshot::screenshotUnreadablePrices_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("inStderr");
    QTest::newRow("missing") << "missing" << "does not exist";
    QTest::newRow("folder") << "folder" << "is a folder, not a file";
}

// `--plan FILE` that cannot be read: exit 2 before any import, naming the file and saying why
// (as every other command's --plan does), no image.
void TstCliScreenshot::screenshotUnreadablePlan_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("inStderr");
    QTest::newRow("missing") << "missing" << "does not exist";
    QTest::newRow("folder") << "folder" << "is a folder, not a file";
    QTest::newRow("symlink loop") << "loop" << "symbolic link loop";
}

void TstCliScreenshot::screenshotUnreadablePlan()
{
    QFETCH(QString, kind);
    QFETCH(QString, inStderr);
    QTemporaryDir dir;
    const QString plan = dir.filePath(QStringLiteral("plan.json"));
    if (kind == QLatin1String("folder"))
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("plan.json")));
    if (kind == QLatin1String("loop"))
        QVERIFY(QFile::link(plan, plan));
    const QString png = dir.filePath(QStringLiteral("map.png"));
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"), QStringLiteral("-o"), png,
        QStringLiteral("--plan"), plan });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--plan: cannot read %1: ").arg(plan).toUtf8()), r.err.constData());
    QVERIFY2(r.err.contains(inStderr.toUtf8()), r.err.constData());
    QVERIFY(!QFileInfo::exists(png));
}

// `--prices FILE` that cannot be read: exit 1 before any import, naming the file, no image.
void TstCliScreenshot::screenshotUnreadablePrices()
{
    QFETCH(QString, kind);
    QFETCH(QString, inStderr);
    QTemporaryDir dir;
    const QString prices = dir.filePath(QStringLiteral("prices.csv"));
    if (kind == QLatin1String("folder"))
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("prices.csv")));
    const QString png = dir.filePath(QStringLiteral("map.png"));
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"), QStringLiteral("-o"), png,
        QStringLiteral("--metric"), QStringLiteral("cost"), QStringLiteral("--prices"), prices });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("--prices: cannot read %1: ").arg(prices).toUtf8()), r.err.constData());
    QVERIFY2(r.err.contains(inStderr.toUtf8()), r.err.constData());
    QVERIFY(!QFileInfo::exists(png));
}

void TstCliScreenshot::screenshotLeavesOpenRecentAlone()
{
    // A private settings folder: the window's File > Open Recent is kept in QSettings there.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QProcessEnvironment env = fleet::tests::headlessEnvironment();
    env.insert(QStringLiteral("HOME"), dir.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"), QStringLiteral("-o"),
                                    dir.filePath(QStringLiteral("map.png")), QStringLiteral("--size"), QStringLiteral("800x600") },
        env);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QFile settings(dir.filePath(QStringLiteral("config/Fleetscope/fleetscope.conf")));
    const QByteArray text = settings.open(QIODevice::ReadOnly) ? settings.readAll() : QByteArray();
    QVERIFY2(!text.contains("recentSources") && !text.contains("small-cluster.json"), text.constData());
}

void TstCliScreenshot::screenshotFailsCleanly()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("map.png"));
    const Run r = runFleetscope(
        { QStringLiteral("screenshot"), kAppData + QStringLiteral("/bad-quantity.json"), QStringLiteral("-o"), png });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("bad-quantity.json")), r.err.constData());
    QVERIFY2(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty(), "no PNG, whole or partial, on failure");
}

// `--plan FILE` on a .fleet document that keeps plans: the document opens its first plan
// (re-checked on a worker) as soon as the plan engine is ready, and --plan replaces it once it
// is shown. Opened at once, --plan was refused ("cannot open FILE") whenever that re-check was
// still running: 1 run in 4 on an idle machine, every run under load. A 450-action
// consolidation of 2,000 nodes kept in the document makes the re-check long; five runs.
void TstCliScreenshot::screenshotPlanOverADocumentsPlans()
{
    QTemporaryDir dir;
    const QString sim = dir.filePath(QStringLiteral("sim.fleet"));
    const QString plan = dir.filePath(QStringLiteral("consolidate.json"));
    const QString doc = dir.filePath(QStringLiteral("plans.fleet"));
    const Run saved = runFleetscope({ QStringLiteral("save"), QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("-o"), sim });
    QVERIFY2(saved.exitCode == 0, saved.err.constData());
    const Run planned = runFleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), sim, QStringLiteral("-o"), plan });
    QVERIFY2(planned.exitCode == 0, planned.err.constData());
    const Run kept = runFleetscope({ QStringLiteral("save"), sim, QStringLiteral("--plan"), plan, QStringLiteral("-o"), doc });
    QVERIFY2(kept.exitCode == 0, kept.err.constData());
    for (int run = 0; run < 5; ++run) {
        const QString png = dir.filePath(QStringLiteral("map%1.png").arg(run));
        const Run r = runFleetscope({ QStringLiteral("screenshot"), doc, QStringLiteral("--plan"), plan, QStringLiteral("-o"), png,
            QStringLiteral("--size"), QStringLiteral("800x600") });
        QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("run %1: %2").arg(run).arg(QString::fromUtf8(r.err))));
        QVERIFY(!QImage(png).isNull());
    }
}

void TstCliScreenshot::screenshotRefusesOutput_data()
{
    QTest::addColumn<QString>("kind"); // what to put at the output path
    QTest::addColumn<QString>("inStderr");
    QTest::newRow("FIFO") << "fifo"
                          << "is a FIFO (named pipe), not a regular file";
    QTest::newRow("folder") << "folder"
                            << "is a folder, not a regular file";
    QTest::newRow("missing folder") << "missing folder"
                                    << "does not exist";
    QTest::newRow("folder is a file") << "folder is a file"
                                      << "is not a folder";
}

// `-o /dev/full` once replaced the device node with a PNG (QSaveFile renames over the path):
// anything that is not a regular file is refused, and left as it was. A path that cannot take
// the image exits 1 (the image cannot be written), naming the path, before any import.
void TstCliScreenshot::screenshotRefusesOutput()
{
    QFETCH(QString, kind);
    QFETCH(QString, inStderr);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString out = dir.filePath(QStringLiteral("out"));
    if (kind == QLatin1String("fifo"))
        QVERIFY2(::mkfifo(QFile::encodeName(out).constData(), 0600) == 0, "mkfifo");
    else if (kind == QLatin1String("folder"))
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("out")));
    else if (kind == QLatin1String("folder is a file")) {
        QFile plain(dir.filePath(QStringLiteral("plain")));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        out = dir.filePath(QStringLiteral("plain/out.png"));
    } else
        out = dir.filePath(QStringLiteral("no-such-folder/out.png"));
    const QStringList before = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);

    const Run r = runFleetscope(
        { QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"), QStringLiteral("-o"), out });
    QCOMPARE(r.exitCode, 1);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(inStderr), r.err.constData());
    QVERIFY2(err.contains(out), r.err.constData());
    QVERIFY2(err.contains(kind == QLatin1String("missing folder") ? dir.filePath(QStringLiteral("no-such-folder")) : out),
        r.err.constData());
    QVERIFY2(r.out.isEmpty(), r.out.constData());
    // Nothing replaced, nothing left over.
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot), before);
    struct stat st { };
    if (kind == QLatin1String("fifo")) {
        QVERIFY(::lstat(QFile::encodeName(out).constData(), &st) == 0);
        QVERIFY(S_ISFIFO(st.st_mode));
    } else if (kind == QLatin1String("folder")) {
        QVERIFY(QFileInfo(out).isDir());
        QVERIFY(QDir(out).isEmpty());
    }
}

void TstCliScreenshot::screenshotSizeIsExact_data()
{
    QTest::addColumn<QSize>("size");
    // The smallest size used to give 200x306: the window's minimum (legend, status bar) won.
    QTest::newRow("smallest") << QSize(200, 150);
    QTest::newRow("small") << QSize(320, 200);
    QTest::newRow("800x500") << QSize(800, 500);
}

void TstCliScreenshot::screenshotSizeIsExact()
{
    QFETCH(QSize, size);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("map.png"));
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"),
        QStringLiteral("-o"), png, QStringLiteral("--size"), QStringLiteral("%1x%2").arg(size.width()).arg(size.height()) });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), size);
}

void TstCliScreenshot::screenshotRejectsSize_data()
{
    QTest::addColumn<QString>("size");
    QTest::newRow("too narrow") << "199x150";
    QTest::newRow("too low") << "200x149";
    QTest::newRow("too large") << "8193x100";
    QTest::newRow("not a size") << "big";
}

void TstCliScreenshot::screenshotRejectsSize()
{
    QFETCH(QString, size);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"),
        QStringLiteral("-o"), dir.filePath(QStringLiteral("map.png")), QStringLiteral("--size"), size });
    QCOMPARE(r.exitCode, 2);
    // The real limits, as the window honours them (MainWindow::kMinimumSize).
    QVERIFY2(QString::fromUtf8(r.err).contains(
                 QStringLiteral("--size: expected WxH between 200x150 and 8192x8192, got \"%1\"").arg(size)),
        r.err.constData());
    QVERIFY(QDir(dir.path()).isEmpty());
}

void TstCliScreenshot::screenshotUnknownCellFails()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("map.png"));
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"),
        QStringLiteral("-o"), png, QStringLiteral("--print-cell"), QStringLiteral("gpu-node-a"), QStringLiteral("--print-cell"),
        QStringLiteral("nosuchnode") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("no node named \"nosuchnode\"")), r.err.constData());
    QVERIFY2(r.out.isEmpty(), r.out.constData());
    QVERIFY2(QDir(dir.path()).isEmpty(), "no PNG when a --print-cell node is unknown");
}

// What `summary --help` says about a missing FILE must be what summary does.
void TstCliScreenshot::screenshotViewStateErrors_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("inStderr");
    // The position once, then the selector and a caret under it.
    QTest::newRow("malformed selector") << QStringList { "--selector", "zone in (a,b" } << 2
                                        << "--selector: at character 13: found the end of the selector, expected: ',' or ')'\n"
                                           "  zone in (a,b\n              ^";
    QTest::newRow("selector caret") << QStringList { "--selector", "a=b,,c" } << 2 << "^";
    // The window's filter forms: the cluster decides, after the import.
    QTest::newRow("unknown workload") << QStringList { "--selector", "workload:nginx/nope" } << 1
                                      << "--selector: no workload named nginx/nope";
    QTest::newRow("unknown namespace") << QStringList { "--selector", "namespace:nowhere" } << 1
                                       << "--selector: no pods in namespace nowhere";
    QTest::newRow("unknown node") << QStringList { "--focus", "node/nope" } << 1 << "--focus: no node named \"nope\"";
    QTest::newRow("empty node") << QStringList { "--focus", "node/" } << 2 << "expected node/NAME";
    QTest::newRow("bad path") << QStringList { "--focus", "us-east-1a" } << 2 << "expected KEY=VALUE at offset 0";
    QTest::newRow("unknown domain") << QStringList { "--focus", "topology.kubernetes.io/zone=nowhere" } << 1
                                    << "no domain topology.kubernetes.io/zone=nowhere; there are: us-east-1a";
    QTest::newRow("unknown level") << QStringList { "--focus", "rack=r1" } << 1 << "no topology level \"rack\"";
    QTest::newRow("unknown panel") << QStringList { "--panel", "graphs" } << 2 << "--panel: expected problems, pending, heatmap";
    QTest::newRow("panel too tall") << QStringList { "--panel", "problems", "--size", "400x200" } << 2 << "leaves the window less than";
}

void TstCliScreenshot::screenshotViewStateErrors()
{
    QFETCH(QStringList, options);
    QFETCH(int, exitCode);
    QFETCH(QString, inStderr);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("map.png"));
    const Run r = runFleetscope(
        QStringList { QStringLiteral("screenshot"), kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json", QStringLiteral("-o"), png }
        + options);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(r.err).contains(inStderr), r.err.constData());
    QVERIFY(!QFileInfo::exists(png));
}

// --selector dims the nodes it does not match: duckboat-02's cell fades into the background,
// duckboat-01's (matched) stays as it was.
void TstCliScreenshot::screenshotSelectorDims()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto shoot = [&](const QStringList& extra, QImage& image, QHash<QString, QPoint>& cells) {
        const QString png = dir.filePath(QStringLiteral("map%1.png").arg(extra.size()));
        const Run r = runFleetscope(QStringList { QStringLiteral("screenshot"), kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json",
                                        QStringLiteral("-o"), png, QStringLiteral("--size"), QStringLiteral("800x600"),
                                        QStringLiteral("--print-cell"), QStringLiteral("duckboat-01"), QStringLiteral("--print-cell"),
                                        QStringLiteral("duckboat-02") }
            + extra);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        image = QImage(png);
        static const QRegularExpression cellRe(QStringLiteral("^cell (\\S+) (\\d+) (\\d+)$"), QRegularExpression::MultilineOption);
        for (auto it = cellRe.globalMatch(QString::fromUtf8(r.out)); it.hasNext();) {
            const auto m = it.next();
            cells.insert(m.captured(1), QPoint(m.captured(2).toInt(), m.captured(3).toInt()));
        }
        QCOMPARE(cells.size(), 2);
    };
    // Mean distance (largest channel difference) of the 9x9 pixels around p from the map's
    // background: dimming fades a node into the background.
    auto contrast = [](const QImage& image, QPoint p) {
        const QRgb bg = fleet::views::mapBackgroundColor().rgb();
        double sum = 0;
        int n = 0;
        for (int dy = -4; dy <= 4; ++dy)
            for (int dx = -4; dx <= 4; ++dx) {
                const QPoint q = p + QPoint(dx, dy);
                if (!image.rect().contains(q))
                    continue;
                sum += channelDistance(image.pixel(q), bg);
                ++n;
            }
        return n ? sum / n : 0.0;
    };
    QImage plain, filtered;
    QHash<QString, QPoint> plainCells, filteredCells;
    shoot({}, plain, plainCells);
    shoot({ QStringLiteral("--selector"), QStringLiteral("topology.kubernetes.io/zone=us-east-1a") }, filtered, filteredCells);
    QCOMPARE(filteredCells, plainCells);
    const double keptBefore = contrast(plain, plainCells.value("duckboat-01"));
    const double keptAfter = contrast(filtered, filteredCells.value("duckboat-01"));
    const double dimmedBefore = contrast(plain, plainCells.value("duckboat-02"));
    const double dimmedAfter = contrast(filtered, filteredCells.value("duckboat-02"));
    QVERIFY2(std::abs(keptAfter - keptBefore) < 2, qPrintable(QStringLiteral("%1 -> %2").arg(keptBefore).arg(keptAfter)));
    QVERIFY2(dimmedBefore > 20 && dimmedAfter < 0.5 * dimmedBefore,
        qPrintable(QStringLiteral("%1 -> %2").arg(dimmedBefore).arg(dimmedAfter)));

    // The window filter's other forms (one rule, views::evaluateNodeFilter): every pod of the
    // fixture runs on duckboat-01, so namespace:nginx keeps it and dims duckboat-02.
    QImage byNamespace;
    QHash<QString, QPoint> byNamespaceCells;
    shoot({ QStringLiteral("--selector"), QStringLiteral("namespace:nginx") }, byNamespace, byNamespaceCells);
    QCOMPARE(byNamespaceCells, plainCells);
    QVERIFY(std::abs(contrast(byNamespace, plainCells.value("duckboat-01")) - keptBefore) < 2);
    QVERIFY(contrast(byNamespace, plainCells.value("duckboat-02")) < 0.5 * dimmedBefore);

    // A selector that matches no node still writes the image, with a warning that says so
    // (user trial: every node dimmed and not a word why).
    const QString none = dir.filePath(QStringLiteral("none.png"));
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json",
        QStringLiteral("-o"), none, QStringLiteral("--selector"), QStringLiteral("eks.amazonaws.com/capacityType=SPOT") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.contains("warning: --selector eks.amazonaws.com/capacityType=SPOT matches none of the 2 nodes"), r.err.constData());
    QVERIFY(QFileInfo::exists(none));
}

void TstCliScreenshot::screenshotPanel_data()
{
    QTest::addColumn<QString>("panel");
    QTest::addColumn<bool>("mapOnly");
    QTest::newRow("problems") << "problems" << false;
    QTest::newRow("pending") << "pending" << false;
    QTest::newRow("heatmap") << "heatmap" << false;
    QTest::newRow("heatmap, map only") << "heatmap" << true;
}

// --panel puts the panel in a band below, in the same --size; the band is not the map's.
void TstCliScreenshot::screenshotPanel()
{
    QFETCH(QString, panel);
    QFETCH(bool, mapOnly);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("panel.png"));
    QStringList args { QStringLiteral("screenshot"), kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json", QStringLiteral("-o"), png,
        QStringLiteral("--size"), QStringLiteral("900x700"), QStringLiteral("--panel"), panel };
    if (mapOnly)
        args << QStringLiteral("--map-only");
    const Run r = runFleetscope(args);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QImage image(png);
    QVERIFY(!image.isNull());
    // --size is the image's size, with --map-only too (user trial: it once ignored the height).
    QCOMPARE(image.size(), QSize(900, 700));
    // The band (the bottom 40%, 280 px) is a light Qt widget, not the map's dark background.
    const QRgb bandPixel = image.pixel(image.width() / 2, image.height() - 20);
    QVERIFY2(QColor(bandPixel).lightnessF() > 0.5, qPrintable(QColor(bandPixel).name()));
}

void TstCliScreenshot::screenshotFormatFromSuffix_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QByteArray>("magic"); // first bytes of the file written, or what stderr says
    QTest::newRow("png") << "map.png" << 0 << QByteArray("\x89PNG");
    QTest::newRow("jpg") << "map.jpg" << 0 << QByteArray("\xff\xd8\xff");
    QTest::newRow("JPEG upper case") << "map.JPEG" << 0 << QByteArray("\xff\xd8\xff");
    QTest::newRow("bmp") << "map.bmp" << 0 << QByteArray("BM");
    QTest::newRow("no suffix") << "map" << 0 << QByteArray("\x89PNG");
    QTest::newRow("gif refused") << "map.gif" << 2 << QByteArray("cannot write .gif images");
}

// `-o x.jpg` once wrote PNG bytes under a .jpg name.
void TstCliScreenshot::screenshotFormatFromSuffix()
{
    QFETCH(QString, fileName);
    QFETCH(int, exitCode);
    QFETCH(QByteArray, magic);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(fileName);
    const Run r = runFleetscope({ QStringLiteral("screenshot"), kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json",
        QStringLiteral("-o"), out, QStringLiteral("--size"), QStringLiteral("400x300") });
    QCOMPARE(r.exitCode, exitCode);
    if (exitCode != 0) {
        QVERIFY2(r.err.contains(magic), r.err.constData());
        QVERIFY(!QFileInfo::exists(out));
        return;
    }
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY2(f.read(magic.size()) == magic, qPrintable(fileName));
}

QTEST_GUILESS_MAIN(TstCliScreenshot)
#include "tst_cliscreenshot.moc"
