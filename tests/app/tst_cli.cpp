// The fleetscope executable's headless subcommands, run as a user runs them (QProcess), with
// no display: `summary` on the real EKS fixture and on broken input, `screenshot` with
// DISPLAY removed (the program starts its own Xvfb) checked pixel by pixel, its output path
// and size checks, out of memory, and a clean stderr without XDG_RUNTIME_DIR (its private
// folder removed at exit and on SIGINT, SIGTERM and SIGHUP, with the private Xvfb).

#include "views/map/colormap.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <csignal>

#include <sys/resource.h>
#include <sys/stat.h>

namespace {

const QString kFleetscope = QStringLiteral(FLEETSCOPE_EXECUTABLE);
const QString kSharedData = QStringLiteral(FLEET_SHARED_DATA_DIR);
const QString kHoneycomb = QStringLiteral(FLEET_SHARED_DATA_DIR "/k8s-fixture-honeycomb-eks");
const QString kAppData = QStringLiteral(FLEET_TEST_DATA_DIR "/app");

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// How the child runs besides its arguments.
struct RunSetup {
    QHash<QString, QString> setEnv; // variables set in the child's environment
    QStringList removeEnv; // variables removed from it
    rlim_t addressSpaceBytes = 0; // RLIMIT_AS of the child, 0 for none
    int timeoutMs = 240'000;
};

// Runs fleetscope with no display at all: no DISPLAY, no WAYLAND_DISPLAY, and the offscreen
// platform that the test environment sets (which cannot host OpenGL) left in place.
Run runFleetscope(const QStringList& args, const RunSetup& setup = {})
{
    const int timeoutMs = setup.timeoutMs;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("XAUTHORITY"));
    for (const QString& name : setup.removeEnv)
        env.remove(name);
    for (auto it = setup.setEnv.cbegin(); it != setup.setEnv.cend(); ++it)
        env.insert(it.key(), it.value());
    p.setProcessEnvironment(env);
    if (setup.addressSpaceBytes > 0) {
        const rlim_t limit = setup.addressSpaceBytes;
        p.setChildProcessModifier([limit] {
            const struct rlimit rl {
                limit, limit
            };
            ::setrlimit(RLIMIT_AS, &rl);
        });
    }
    p.start(kFleetscope, args);
    Run r;
    if (!p.waitForStarted(10'000)) {
        r.err = "could not start " + kFleetscope.toUtf8();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QJsonObject nodeEntry(const QJsonObject& summary, const QString& name)
{
    for (const QJsonValue& v : summary.value(QStringLiteral("nodes")).toArray())
        if (v.toObject().value(QStringLiteral("name")).toString() == name)
            return v.toObject();
    return {};
}

// Largest difference of one channel between two colours.
int channelDistance(QRgb a, QRgb b)
{
    return std::max({ std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b)) });
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void summaryJson_data();
    void summaryJson();
    void summaryText();
    void summaryFails_data();
    void summaryFails();
    void helpAndVersion_data();
    void helpAndVersion();
    void screenshotWithoutDisplay();
    void screenshotFailsCleanly();
    void screenshotMetric_data();
    void screenshotMetric();
    void screenshotBadPrices();
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
    void summaryHelpIsTrue();
    void summarySimulated();
    void outOfMemoryIsNamed_data();
    void outOfMemoryIsNamed();
    void noRuntimeDirWarning_data();
    void noRuntimeDirWarning();
    void signalRemovesRuntimeDir_data();
    void signalRemovesRuntimeDir();
};

void TestCli::initTestCase()
{
    QVERIFY2(QFileInfo(kFleetscope).isExecutable(), qPrintable(kFleetscope));
    // Without the shared data every test on real data would fail one by one: stop here, saying how to fix it.
    if (!QFileInfo(kHoneycomb + QStringLiteral("/nodes.json")).isFile())
        QFAIL(qPrintable(QStringLiteral("the shared data folder %1 (FLEET_SHARED_DATA_DIR) is missing or has no "
                                        "k8s-fixture-honeycomb-eks/nodes.json. Point the build at it: cmake "
                                        "-DFLEET_SHARED_DATA_DIR=/path/to/shared/data, or set the environment variable "
                                        "FLEET_SHARED_DATA_DIR when configuring, then rebuild.")
                             .arg(kSharedData)));
}

void TestCli::summaryJson_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("node");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("readyNodes");
    QTest::addColumn<int>("pods");
    QTest::addColumn<int>("countedPods");
    QTest::addColumn<int>("pendingPods");
    QTest::addColumn<qint64>("cpuAllocatableMillicores");
    QTest::addColumn<qint64>("memoryAllocatableBytes");
    QTest::addColumn<double>("gpuAllocatable");
    QTest::addColumn<qint64>("cpuRequestedMillicores");
    QTest::addColumn<qint64>("memoryRequestedBytes");
    QTest::addColumn<double>("gpuRequested");
    QTest::addColumn<qint64>("nodeCpuRequestedMillicores");
    QTest::addColumn<QString>("warning"); // a substring of the one warning expected, or empty for none

    // Real EKS fixture: 2 nodes of 7910m / 31127824Ki allocatable; 11 Running pods on
    // duckboat-01, of which three request: speaker and controller 100m/100Mi each,
    // calico-node 250m (no memory).
    const qint64 ki = 1024;
    QTest::newRow("honeycomb-eks, pods first")
        << QStringList { kHoneycomb + "/pods.json", kHoneycomb + "/nodes.json" } << "duckboat-01" << 2 << 2 << 11 << 11 << 0
        << qint64(2 * 7910) << qint64(2 * 31127824 * ki) << 0.0 << qint64(450) << qint64(200 * 1024 * 1024) << 0.0 << qint64(450)
        << QString();
    // tests/data/app/README.md lists the loads of this fixture.
    QTest::newRow("small-cluster") << QStringList { kAppData + "/small-cluster.json" } << "cpu-node-b" << 3 << 3 << 5 << 3 << 1
                                   << qint64(76'000) << qint64(304LL << 30) << 8.0 << qint64(12'000) << qint64(40LL << 30) << 4.0
                                   << qint64(4000) << QString();
    // The same as the first page of a paginated list, plus a ConfigMap: imported, with warnings.
    QTest::newRow("incomplete list") << QStringList { kAppData + "/incomplete-list.json" } << "cpu-node-b" << 3 << 3 << 5 << 3
                                     << 1 << qint64(76'000) << qint64(304LL << 30) << 8.0 << qint64(12'000) << qint64(40LL << 30)
                                     << 4.0 << qint64(4000) << QStringLiteral("incomplete");
}

void TestCli::summaryJson()
{
    QFETCH(QStringList, files);
    QFETCH(QString, node);
    const Run r
        = runFleetscope(QStringList { QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json") } + files);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &parseError);
    QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(parseError.errorString()));
    const QJsonObject summary = doc.object();
    const QJsonObject totals = summary.value(QStringLiteral("totals")).toObject();
    const QJsonObject alloc = totals.value(QStringLiteral("allocatable")).toObject();
    const QJsonObject req = totals.value(QStringLiteral("requested")).toObject();

    QTEST(totals.value(QStringLiteral("nodes")).toInt(), "nodes");
    QTEST(totals.value(QStringLiteral("ready_nodes")).toInt(), "readyNodes");
    QTEST(totals.value(QStringLiteral("pods")).toInt(), "pods");
    QTEST(totals.value(QStringLiteral("counted_pods")).toInt(), "countedPods");
    QTEST(totals.value(QStringLiteral("pending_pods")).toInt(), "pendingPods");
    QTEST(alloc.value(QStringLiteral("cpu_millicores")).toInteger(), "cpuAllocatableMillicores");
    QTEST(alloc.value(QStringLiteral("memory_bytes")).toInteger(), "memoryAllocatableBytes");
    QTEST(alloc.value(QStringLiteral("gpu")).toDouble(), "gpuAllocatable");
    QTEST(req.value(QStringLiteral("cpu_millicores")).toInteger(), "cpuRequestedMillicores");
    QTEST(req.value(QStringLiteral("memory_bytes")).toInteger(), "memoryRequestedBytes");
    QTEST(req.value(QStringLiteral("gpu")).toDouble(), "gpuRequested");
    const QJsonObject n = nodeEntry(summary, node);
    QVERIFY2(!n.isEmpty(), qPrintable(node));
    QTEST(n.value(QStringLiteral("requested")).toObject().value(QStringLiteral("cpu_millicores")).toInteger(),
        "nodeCpuRequestedMillicores");

    QFETCH(QString, warning);
    const QJsonArray warnings = summary.value(QStringLiteral("warnings")).toArray();
    if (warning.isEmpty()) {
        QVERIFY2(warnings.isEmpty(), qPrintable(QJsonDocument(warnings).toJson()));
    } else {
        QVERIFY(!warnings.isEmpty());
        QVERIFY2(warnings.first().toString().contains(warning), qPrintable(warnings.first().toString()));
    }
}

void TestCli::summaryText()
{
    const Run r = runFleetscope({ QStringLiteral("summary"), kAppData + QStringLiteral("/small-cluster.json") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(!r.out.isEmpty());
    QVERIFY2(!r.out.trimmed().startsWith('{'), "text is the default format");
}

void TestCli::summaryFails_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("inStderr");

    const QString bad = kAppData + QStringLiteral("/bad-quantity.json");
    QTest::newRow("bad quantity") << QStringList { QStringLiteral("summary"), bad } << 1 << QStringLiteral("bad-quantity.json");
    QTest::newRow("bad quantity with a good file") << QStringList { QStringLiteral("summary"), QStringLiteral("--format"),
        QStringLiteral("json"), kHoneycomb + "/nodes.json", bad }
                                                   << 1 << QStringLiteral("bad-quantity.json");
    QTest::newRow("missing file") << QStringList { QStringLiteral("summary"), kAppData + QStringLiteral("/no-such-file.json") }
                                  << 1 << QStringLiteral("no-such-file.json");
    QTest::newRow("no input") << QStringList { QStringLiteral("summary") } << 2 << QStringLiteral("no input");
    QTest::newRow("bad format") << QStringList { QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("xml"),
        bad } << 2 << QStringLiteral("--format");
    // A seed shapes only a simulated cluster: with files it was silently ignored.
    QTest::newRow("seed with files") << QStringList { QStringLiteral("summary"), QStringLiteral("--seed"), QStringLiteral("3"),
        kHoneycomb + "/nodes.json" } << 2 << QStringLiteral("--seed applies to --simulate only");
    QTest::newRow("--only with text") << QStringList { QStringLiteral("summary"), QStringLiteral("--only"), QStringLiteral("totals"),
        kHoneycomb + "/nodes.json" } << 2 << QStringLiteral("--only works with --format json");
    QTest::newRow("--only, unknown part") << QStringList { QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"),
        QStringLiteral("--only"), QStringLiteral("totals,everything"), kHoneycomb + "/nodes.json" }
                                          << 2 << QStringLiteral("got \"everything\"");
}

void TestCli::summaryFails()
{
    QFETCH(QStringList, args);
    QFETCH(QString, inStderr);
    const Run r = runFleetscope(args);
    QTEST(r.exitCode, "exitCode");
    QVERIFY2(QString::fromUtf8(r.err).contains(inStderr), r.err.constData());
    QVERIFY2(r.out.isEmpty(), r.out.constData()); // nothing half-written to stdout
}

void TestCli::helpAndVersion_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("inStdout");
    QTest::newRow("--help") << QStringList { QStringLiteral("--help") } << QStringLiteral("screenshot");
    QTest::newRow("--version") << QStringList { QStringLiteral("--version") } << QStringLiteral("fleetscope 0.");
    QTest::newRow("summary --help") << QStringList { QStringLiteral("summary"), QStringLiteral("--help") }
                                    << QStringLiteral("--format");
    QTest::newRow("screenshot --help") << QStringList { QStringLiteral("screenshot"), QStringLiteral("--help") }
                                       << QStringLiteral("--size");
}

void TestCli::helpAndVersion()
{
    QFETCH(QStringList, args);
    QFETCH(QString, inStdout);
    const Run r = runFleetscope(args); // no display: --help must not need one
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(QString::fromUtf8(r.out).contains(inStdout), r.out.constData());
}

void TestCli::screenshotWithoutDisplay()
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
void TestCli::screenshotMetric_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QColor>("expected"); // gpu-node-a's texel; invalid: refused
    QTest::newRow("cpu") << "cpu" << QColor::fromRgb(fleet::views::shareRgb(8.0 / 64));
    QTest::newRow("state") << "state" << fleet::views::readyColor();
    QTest::newRow("label") << "label:kubernetes.io/hostname" << QColor();
    QTest::newRow("bad") << "gpus" << QColor();
}

void TestCli::screenshotMetric()
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
void TestCli::screenshotBadPrices()
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

void TestCli::screenshotFailsCleanly()
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

void TestCli::screenshotRefusesOutput_data()
{
    QTest::addColumn<QString>("kind"); // what to put at the output path
    QTest::addColumn<QString>("inStderr");
    QTest::newRow("FIFO") << "fifo"
                          << "is a FIFO (named pipe), not a regular file";
    QTest::newRow("folder") << "folder"
                            << "is a folder, not a regular file";
    QTest::newRow("missing folder") << "missing folder"
                                    << "does not exist";
}

// `-o /dev/full` once replaced the device node with a PNG (QSaveFile renames over the path):
// anything that is not a regular file is refused, and left as it was.
void TestCli::screenshotRefusesOutput()
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
    else
        out = dir.filePath(QStringLiteral("no-such-folder/out.png"));
    const QStringList before = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);

    const Run r = runFleetscope(
        { QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"), QStringLiteral("-o"), out });
    QCOMPARE(r.exitCode, 2);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(inStderr), r.err.constData());
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

void TestCli::screenshotSizeIsExact_data()
{
    QTest::addColumn<QSize>("size");
    // The smallest size used to give 200x306: the window's minimum (legend, status bar) won.
    QTest::newRow("smallest") << QSize(200, 150);
    QTest::newRow("small") << QSize(320, 200);
    QTest::newRow("800x500") << QSize(800, 500);
}

void TestCli::screenshotSizeIsExact()
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

void TestCli::screenshotRejectsSize_data()
{
    QTest::addColumn<QString>("size");
    QTest::newRow("too narrow") << "199x150";
    QTest::newRow("too low") << "200x149";
    QTest::newRow("too large") << "8193x100";
    QTest::newRow("not a size") << "big";
}

void TestCli::screenshotRejectsSize()
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

void TestCli::screenshotUnknownCellFails()
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
void TestCli::screenshotViewStateErrors_data()
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

void TestCli::screenshotViewStateErrors()
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
void TestCli::screenshotSelectorDims()
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

void TestCli::screenshotPanel_data()
{
    QTest::addColumn<QString>("panel");
    QTest::addColumn<bool>("mapOnly");
    QTest::newRow("problems") << "problems" << false;
    QTest::newRow("pending") << "pending" << false;
    QTest::newRow("heatmap") << "heatmap" << false;
    QTest::newRow("heatmap, map only") << "heatmap" << true;
}

// --panel puts the panel in a band below, in the same --size; the band is not the map's.
void TestCli::screenshotPanel()
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

void TestCli::screenshotFormatFromSuffix_data()
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
void TestCli::screenshotFormatFromSuffix()
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

void TestCli::summaryHelpIsTrue()
{
    const Run help = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--help") });
    QCOMPARE(help.exitCode, 0);
    const Run bare = runFleetscope({ QStringLiteral("summary") });
    QCOMPARE(bare.exitCode, 2);
    QVERIFY2(QString::fromUtf8(bare.err).contains(QStringLiteral("no input")), bare.err.constData());
    QVERIFY2(!help.out.contains("when no FILE is given"), help.out.constData());
    QVERIFY2(help.out.contains("--simulate <NODES>"), help.out.constData());
}

void TestCli::summarySimulated()
{
    const Run r = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"),
        QStringLiteral("--simulate"), QStringLiteral("50"), QStringLiteral("--seed"), QStringLiteral("3") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject totals = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("totals")).toObject();
    QCOMPARE(totals.value(QStringLiteral("nodes")).toInt(), 50);
    // --only totals: the totals and warnings, not 50 nodes and their pods.
    const Run only = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--only"),
        QStringLiteral("totals"), QStringLiteral("--simulate"), QStringLiteral("50"), QStringLiteral("--seed"), QStringLiteral("3") });
    QVERIFY2(only.exitCode == 0, only.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(only.out).object();
    QCOMPARE(o.keys(), QStringList({ QStringLiteral("totals"), QStringLiteral("warnings") }));
    QCOMPARE(o.value(QStringLiteral("totals")).toObject(), totals);
    QVERIFY(only.out.size() < r.out.size() / 10);
}

void TestCli::outOfMemoryIsNamed_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("inStderr");
    // 10 million simulated nodes cannot fit in 768 MiB of address space.
    const QStringList simulate { QStringLiteral("--simulate"), QStringLiteral("10000000") };
    QTest::newRow("summary") << (QStringList { QStringLiteral("summary") } + simulate)
                             << "fleetscope summary: out of memory while importing simulated cluster (10000000 nodes, seed 1)";
}

void TestCli::outOfMemoryIsNamed()
{
#if defined(__SANITIZE_ADDRESS__)
    // ASan reserves terabytes of shadow address space: no program starts under a 768 MiB limit.
    QSKIP("an address-space limit cannot be tested under AddressSanitizer (FLEET_SANITIZE)");
#endif
    QFETCH(QStringList, args);
    QFETCH(QString, inStderr);
    RunSetup setup;
    setup.addressSpaceBytes = rlim_t(768) << 20;
    const Run r = runFleetscope(args, setup);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(QString::fromUtf8(r.err).contains(inStderr), r.err.constData());
}

void TestCli::noRuntimeDirWarning_data()
{
    QTest::addColumn<QStringList>("args"); // "OUT" is replaced by a PNG path
    QTest::newRow("summary") << QStringList { QStringLiteral("summary"), kAppData + QStringLiteral("/small-cluster.json") };
    QTest::newRow("screenshot") << QStringList { QStringLiteral("screenshot"), kAppData + QStringLiteral("/small-cluster.json"),
        QStringLiteral("-o"), QStringLiteral("OUT") };
}

// Without XDG_RUNTIME_DIR, Qt warned on every run; fleetscope now makes a private one in
// $TMPDIR and removes it at exit.
void TestCli::noRuntimeDirWarning()
{
    QFETCH(QStringList, args);
    QTemporaryDir tmp; // the child's TMPDIR: must be empty again afterwards
    QTemporaryDir out;
    QVERIFY(tmp.isValid() && out.isValid());
    args.replaceInStrings(QStringLiteral("OUT"), out.filePath(QStringLiteral("map.png")));
    RunSetup setup;
    setup.removeEnv = { QStringLiteral("XDG_RUNTIME_DIR") };
    setup.setEnv = { { QStringLiteral("TMPDIR"), tmp.path() } };
    const Run r = runFleetscope(args, setup);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(!r.err.contains("XDG_RUNTIME_DIR"), r.err.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
}

void TestCli::signalRemovesRuntimeDir_data()
{
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGINT (Ctrl+C)") << int(SIGINT);
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGHUP") << int(SIGHUP);
}

// The user trial: Ctrl+C on `screenshot` left /tmp/fleetscope-runtime-XXXXXX behind. The
// signal comes while the private Xvfb runs (its handler chains to the runtime folder's); the
// program still ends by the signal, and its Xvfb goes too.
void TestCli::signalRemovesRuntimeDir()
{
    QFETCH(int, signal);
    QTemporaryDir tmp; // the child's TMPDIR: must be empty again afterwards
    QTemporaryDir out;
    QVERIFY(tmp.isValid() && out.isValid());
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("XAUTHORITY"));
    env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    env.insert(QStringLiteral("TMPDIR"), tmp.path());
    p.setProcessEnvironment(env);
    // Big enough that the import is still running when the signal comes.
    p.start(kFleetscope,
        { QStringLiteral("screenshot"), QStringLiteral("--simulate"), QStringLiteral("1000000"), QStringLiteral("-o"),
            out.filePath(QStringLiteral("map.png")) });
    QVERIFY(p.waitForStarted(10'000));
    const QString children = QStringLiteral("/proc/%1/task/%1/children").arg(p.processId());
    auto readChildren = [&] {
        QFile f(children);
        return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
    };
    auto runtimeDirs = [&] {
        return QDir(tmp.path()).entryList({ QStringLiteral("fleetscope-runtime-*") }, QDir::Dirs | QDir::NoDotAndDotDot);
    };
    // The folder exists and Xvfb runs (the child's only child).
    QTRY_VERIFY_WITH_TIMEOUT((runtimeDirs().size() == 1 && !readChildren().isEmpty()) || p.state() != QProcess::Running, 60'000);
    QVERIFY2(p.state() == QProcess::Running, p.readAllStandardError().constData());
    const QString xvfb = readChildren().section(QLatin1Char(' '), 0, 0);
    QVERIFY(::kill(static_cast<pid_t>(p.processId()), signal) == 0);
    QVERIFY(p.waitForFinished(30'000));
    QCOMPARE(p.exitStatus(), QProcess::CrashExit); // ended by the signal, as the shell expects
    QCOMPARE(p.exitCode(), signal);
    QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
    // Xvfb is gone too (or a zombie until its new parent reaps it).
    auto xvfbAlive = [&] {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(xvfb));
        if (!stat.open(QIODevice::ReadOnly))
            return false;
        return !stat.readAll().contains(") Z ");
    };
    QTRY_VERIFY_WITH_TIMEOUT(!xvfbAlive(), 10'000);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
