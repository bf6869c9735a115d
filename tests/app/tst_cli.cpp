// The fleetscope executable's headless subcommands, run as a user runs them (QProcess), with
// no display: `summary` on the real EKS fixture and on broken input, `screenshot` with
// DISPLAY removed (the program starts its own Xvfb) checked pixel by pixel.

#include "views/map/colormap.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kFleetscope = QStringLiteral(FLEETSCOPE_EXECUTABLE);
const QString kHoneycomb = QStringLiteral(FLEET_SHARED_DATA_DIR "/k8s-fixture-honeycomb-eks");
const QString kAppData = QStringLiteral(FLEET_TEST_DATA_DIR "/app");

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Runs fleetscope with no display at all: no DISPLAY, no WAYLAND_DISPLAY, and the offscreen
// platform that the test environment sets (which cannot host OpenGL) left in place.
Run runFleetscope(const QStringList& args, int timeoutMs = 240'000)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("XAUTHORITY"));
    p.setProcessEnvironment(env);
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
};

void TestCli::initTestCase()
{
    QVERIFY2(QFileInfo(kFleetscope).isExecutable(), qPrintable(kFleetscope));
    QVERIFY2(QFileInfo::exists(kHoneycomb + QStringLiteral("/nodes.json")), qPrintable(kHoneycomb));
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

    // Expected colours: tests/data/app/README.md (GPU share where a node has GPUs, else CPU).
    const QHash<QString, double> shares { { QStringLiteral("gpu-node-a"), 0.5 }, { QStringLiteral("cpu-node-b"), 1.0 },
        { QStringLiteral("cpu-node-c"), 0.0 } };
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

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
