// SPDX-License-Identifier: Apache-2.0
// The fleetscope executable's headless subcommands, run as a user runs them (QProcess), with
// no display: `summary` on the real EKS fixture and on broken input, out of memory, and a clean
// stderr without XDG_RUNTIME_DIR (its private folder removed at exit and on SIGINT, SIGTERM and
// SIGHUP, with the private Xvfb). `screenshot`'s own tests: tst_cliscreenshot.cpp.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <ctime>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>

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
    void summaryHelpIsTrue();
    void summarySimulated();
    void outOfMemoryIsNamed_data();
    void outOfMemoryIsNamed();
    void hugeBinaryInputRefusedFromItsHead();
    void noRuntimeDirWarning_data();
    void noRuntimeDirWarning();
    void signalRemovesRuntimeDir_data();
    void signalRemovesRuntimeDir();
    void staleRuntimeDirRemovedAtStart();
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
    // One style in the table: cores whole with thousands separators, as the GPUs beside them
    // ("147,316 cores" and "6,629 GPUs", not "147k cores").
    const Run big = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--simulate"), QStringLiteral("2000") });
    QVERIFY2(big.exitCode == 0, big.err.constData());
    const QString text = QString::fromUtf8(big.out);
    const QRegularExpressionMatch cpu
        = QRegularExpression(QStringLiteral("^cpu\\s+(\\S+) cores\\s+(\\S+) cores\\s"), QRegularExpression::MultilineOption).match(text);
    QVERIFY2(cpu.hasMatch(), qPrintable(text));
    for (int i = 1; i <= 2; ++i)
        QVERIFY2(QRegularExpression(QStringLiteral("^\\d{1,3}(,\\d{3})+$")).match(cpu.captured(i)).hasMatch(), qPrintable(cpu.captured(0)));
    QVERIFY2(QRegularExpression(QStringLiteral("^gpu\\s+\\d{1,3}(,\\d{3})+ GPUs"), QRegularExpression::MultilineOption).match(text).hasMatch(), qPrintable(text));
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
    QTest::newRow("regions with files") << QStringList { QStringLiteral("summary"), QStringLiteral("--regions"), QStringLiteral("4"),
        kHoneycomb + "/nodes.json" } << 2 << QStringLiteral("--regions applies to --simulate only");
    QTest::newRow("regions out of range") << QStringList { QStringLiteral("summary"), QStringLiteral("--simulate"), QStringLiteral("50"),
        QStringLiteral("--regions"), QStringLiteral("5") } << 2 << QStringLiteral("--regions: expected a region count from 1 to 4, got \"5\"");
    QTest::newRow("regions zero") << QStringList { QStringLiteral("summary"), QStringLiteral("--simulate"), QStringLiteral("50"),
        QStringLiteral("--regions"), QStringLiteral("0") } << 2 << QStringLiteral("--regions: expected a region count from 1 to 4, got \"0\"");
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

    // One cluster is regional: every simulated node lies in us-west-2 unless --regions asks for
    // several clusters' worth (us-east-1's DNS names end in ec2.internal).
    const auto names = [](const QByteArray& json) {
        QStringList out;
        for (const QJsonValue& n : QJsonDocument::fromJson(json).object().value(QStringLiteral("nodes")).toArray())
            out << n.toObject().value(QStringLiteral("name")).toString();
        return out;
    };
    const QStringList one = names(r.out);
    QCOMPARE(one.size(), 50);
    for (const QString& n : one)
        QVERIFY2(n.endsWith(QLatin1String(".us-west-2.compute.internal")), qPrintable(n));
    const Run four = runFleetscope({ QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--simulate"),
        QStringLiteral("50"), QStringLiteral("--seed"), QStringLiteral("3"), QStringLiteral("--regions"), QStringLiteral("4") });
    QVERIFY2(four.exitCode == 0, four.err.constData());
    const QStringList several = names(four.out);
    QCOMPARE(several.size(), 50);
    for (const char* suffix : { ".us-west-2.compute.internal", ".ec2.internal", ".us-east-2.compute.internal", ".eu-west-1.compute.internal" })
        QVERIFY2(std::any_of(several.begin(), several.end(), [&](const QString& n) { return n.endsWith(QLatin1String(suffix)); }), suffix);
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

// A 2 GiB file of NUL bytes (sparse: a disk image, a core dump) is refused from its first
// bytes: format detection read the whole first "line", 2 GiB, before any check, and so ran out
// of a 768 MiB address space here (it took 21 s and 4.2 GB for a 3 GB file).
void TestCli::hugeBinaryInputRefusedFromItsHead()
{
#if defined(__SANITIZE_ADDRESS__)
    QSKIP("an address-space limit cannot be tested under AddressSanitizer (FLEET_SANITIZE)");
#endif
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("disk.img"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.resize(qint64(2) << 30));
    f.close();
    RunSetup setup;
    setup.addressSpaceBytes = rlim_t(768) << 20;
    const Run r = runFleetscope({ QStringLiteral("summary"), path }, setup);
    QVERIFY2(r.exitCode > 0, r.err.constData());
    QVERIFY2(r.err.contains("disk.img: binary file (it holds NUL bytes)"), r.err.constData());
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

// A screenshot killed by SIGKILL cannot remove its private runtime folder: the next run does,
// and only folders that no running process holds (its lock), that are ours, by name and mode.
void TestCli::staleRuntimeDirRemovedAtStart()
{
    QTemporaryDir tmp; // the children's TMPDIR
    QTemporaryDir out;
    QVERIFY(tmp.isValid() && out.isValid());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : { "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_RUNTIME_DIR" })
        env.remove(QString::fromLatin1(name));
    env.insert(QStringLiteral("TMPDIR"), tmp.path());
    auto runtimeDirs = [&] {
        return QDir(tmp.path()).entryList({ QStringLiteral("fleetscope-runtime-*") }, QDir::Dirs | QDir::NoDotAndDotDot);
    };
    // A screenshot long enough to be caught while it imports; returns its folder's name.
    auto startScreenshot = [&](QProcess& p, const QString& name) {
        const QStringList before = runtimeDirs();
        p.setProcessEnvironment(env);
        p.start(kFleetscope,
            { QStringLiteral("screenshot"), QStringLiteral("--simulate"), QStringLiteral("1000000"), QStringLiteral("-o"),
                out.filePath(name) });
        if (!p.waitForStarted(10'000))
            return QString();
        QString mine;
        auto newFolder = [&] {
            for (const QString& d : runtimeDirs())
                if (!before.contains(d))
                    return d;
            return QString();
        };
        // Its Xvfb runs (the child's only child): the folder is made and set up well before.
        auto hasChild = [&] {
            QFile f(QStringLiteral("/proc/%1/task/%1/children").arg(p.processId()));
            return f.open(QIODevice::ReadOnly) && !f.readAll().trimmed().isEmpty();
        };
        (void)QTest::qWaitFor([&] { return (!newFolder().isEmpty() && hasChild()) || p.state() != QProcess::Running; }, 60'000);
        mine = newFolder();
        return p.state() == QProcess::Running ? mine : QString();
    };
    QProcess killed;
    const QString killedDir = startScreenshot(killed, QStringLiteral("killed.png"));
    QVERIFY2(!killedDir.isEmpty(), killed.readAllStandardError().constData());
    QVERIFY(::kill(static_cast<pid_t>(killed.processId()), SIGKILL) == 0);
    QVERIFY(killed.waitForFinished(30'000));
    QVERIFY(QDir(tmp.filePath(killedDir)).exists()); // SIGKILL left it, as the user saw

    // What is not a stale folder of ours stays; a lock-less one older than 10 minutes goes.
    auto makeFolder = [&](const QString& name, mode_t mode, qint64 ageSeconds) {
        const QByteArray path = QFile::encodeName(tmp.filePath(name));
        if (::mkdir(path.constData(), mode) != 0 || ::chmod(path.constData(), mode) != 0)
            return false;
        const struct timeval times[2] = { { ::time(nullptr) - ageSeconds, 0 }, { ::time(nullptr) - ageSeconds, 0 } };
        return ::utimes(path.constData(), times) == 0;
    };
    QVERIFY(makeFolder(QStringLiteral("fleetscope-runtime-old123"), 0700, 3600)); // before the lock: stale
    QVERIFY(makeFolder(QStringLiteral("fleetscope-runtime-new456"), 0700, 0)); // could be starting: kept
    QVERIFY(makeFolder(QStringLiteral("fleetscope-runtime-mode77"), 0755, 3600)); // not mkdtemp's mode: kept
    QVERIFY(makeFolder(QStringLiteral("fleetscope-runtime-longer-name"), 0700, 3600)); // not the pattern: kept

    QProcess alive; // a running process's folder is never taken
    const QString aliveDir = startScreenshot(alive, QStringLiteral("alive.png"));
    QVERIFY2(!aliveDir.isEmpty(), alive.readAllStandardError().constData());

    QProcess next;
    next.setProcessEnvironment(env);
    next.start(kFleetscope,
        { QStringLiteral("summary"), QStringLiteral("--simulate"), QStringLiteral("20"), QStringLiteral("--only"),
            QStringLiteral("totals"), QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY(next.waitForFinished(60'000));
    QCOMPARE(next.exitCode(), 0);
    QStringList left = runtimeDirs();
    QVERIFY(alive.state() == QProcess::Running);
    QVERIFY2(left.contains(aliveDir), qPrintable(left.join(u' ')));
    left.removeAll(aliveDir);
    left.sort();
    QCOMPARE(left,
        QStringList({ QStringLiteral("fleetscope-runtime-longer-name"), QStringLiteral("fleetscope-runtime-mode77"),
            QStringLiteral("fleetscope-runtime-new456") }));
    QVERIFY(::kill(static_cast<pid_t>(alive.processId()), SIGTERM) == 0); // its handler removes its folder
    QVERIFY(alive.waitForFinished(30'000));
    QVERIFY(!runtimeDirs().contains(aliveDir));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
