// SPDX-License-Identifier: Apache-2.0
// Every file a headless command writes, run as a user runs it (the real fleetscope process):
// on a real tmpfs that fills up mid-write the previous file stays byte for byte, no temporary
// file is left, the exit code is not 0 and the message says "disk full"; a FIFO, a folder or a
// device node given as the output is refused and stays what it was; an output that is one of
// the command's inputs is refused; `plan export` writes to standard output with "-".

#include "common/specialfiles.h"
#include "common/tmpfsmount.h"
#include "fleetscoperun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <cstring>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using fleet::tests::FleetscopeRun;
using fleet::tests::modeOf;
using fleet::tests::readAll;
using fleet::tests::writeBytes;
using fleet::tests::runFleetscope;

namespace {

const QString kPlanData = QStringLiteral(FLEET_TEST_DATA_DIR "/plan");
// Big enough that each output is larger than the page the disk-full case leaves free.
const QString kSimulatedNodes = QStringLiteral("3000");

// A run that must not hang on a FIFO nobody reads: 120 s at most.
FleetscopeRun run(const QStringList& args)
{
    return runFleetscope(args, fleet::tests::headlessEnvironment(), 120'000);
}

} // namespace

class TestCliOutputs : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void diskFullKeepsPreviousFile_data();
    void diskFullKeepsPreviousFile();
    void refusesNonRegularTarget_data();
    void refusesNonRegularTarget();
    void refusesInputAsOutput_data();
    void refusesInputAsOutput();
    void refusesTwoOutputsToOneFile();
    void exportToStandardOutput();
    void scriptKeepsItsMode();
    void fileSizeLimitKeepsPreviousFile();

private:
    QTemporaryDir m_inputs;
    QString m_plan; // a consolidation plan of the simulated cluster
    QString m_podTemplate; // a pod with a 9 KB annotation: its place-pods plan is 9.5 KB
    // Every output option of every command, OUT standing for the path.
    [[nodiscard]] QList<QPair<QString, QStringList>> commands() const;
};

void TestCliOutputs::initTestCase()
{
    QVERIFY(m_inputs.isValid());
    m_plan = m_inputs.filePath(QStringLiteral("plan.json"));
    const FleetscopeRun r = run({ QStringLiteral("plan"), QStringLiteral("consolidate"), QStringLiteral("--simulate"),
        kSimulatedNodes, QStringLiteral("--max-moves"), QStringLiteral("400"), QStringLiteral("-o"), m_plan });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(QFileInfo(m_plan).size() > 8192, "the plan is too small to be cut by the full disk");
    // Between one page and the 16 KB that Qt buffers: the size at which QSaveFile renamed a cut
    // file over the old one and the command said "plan written".
    m_podTemplate = m_inputs.filePath(QStringLiteral("pod.json"));
    QVERIFY(writeBytes(m_podTemplate,
        R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "big", "annotations": {"note": ")" + QByteArray(9000, 'x')
            + R"("}}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]}})"));
}

QList<QPair<QString, QStringList>> TestCliOutputs::commands() const
{
    const QString& plan = m_plan;
    const QString out = QStringLiteral("OUT");
    const QStringList sim { QStringLiteral("--simulate"), kSimulatedNodes };
    return {
        { QStringLiteral("plan consolidate -o"),
            QStringList { QStringLiteral("plan"), QStringLiteral("consolidate") } + sim
                + QStringList { QStringLiteral("--max-moves"), QStringLiteral("400"), QStringLiteral("-o"), out } },
        { QStringLiteral("plan check -o"),
            QStringList { QStringLiteral("plan"), QStringLiteral("check") } + sim
                + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("-o"), out } },
        { QStringLiteral("plan check --csv"),
            QStringList { QStringLiteral("plan"), QStringLiteral("check") } + sim
                + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("--csv"), out } },
        { QStringLiteral("plan export --csv"),
            QStringList { QStringLiteral("plan"), QStringLiteral("export") } + sim
                + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("--csv"), out } },
        { QStringLiteral("plan export --kubectl-script"),
            QStringList { QStringLiteral("plan"), QStringLiteral("export") } + sim
                + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("--kubectl-script"), out } },
        { QStringLiteral("plan add-nodes -o"),
            QStringList { QStringLiteral("plan"), QStringLiteral("add-nodes") } + sim
                + QStringList { QStringLiteral("--instance-type"), QStringLiteral("m7i.8xlarge"), QStringLiteral("--count"),
                    QStringLiteral("2"), QStringLiteral("-o"), out } },
        { QStringLiteral("plan place -o"),
            QStringList { QStringLiteral("plan"), QStringLiteral("place") } + sim
                + QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--cpu"), QStringLiteral("1"),
                    QStringLiteral("--memory"), QStringLiteral("1Gi"), QStringLiteral("-o"), out } },
        { QStringLiteral("plan place -o, a 9.5 KB plan"),
            QStringList { QStringLiteral("plan"), QStringLiteral("place") } + sim
                + QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--pod-template"), m_podTemplate,
                    QStringLiteral("-o"), out } },
        { QStringLiteral("screenshot -o"),
            QStringList { QStringLiteral("screenshot") } + sim
                + QStringList { QStringLiteral("--size"), QStringLiteral("1024x768"), QStringLiteral("-o"), out } },
    };
}

void TestCliOutputs::diskFullKeepsPreviousFile_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("freeBytes");
    const QList<QPair<QString, QStringList>> all = commands();
    for (const auto& [what, args] : all) {
        const QString name = what.startsWith(QLatin1String("screenshot")) ? QStringLiteral("old.png")
            : what.endsWith(QLatin1String("--csv"))                       ? QStringLiteral("old.csv")
            : what.endsWith(QLatin1String("--kubectl-script"))            ? QStringLiteral("old.sh")
                                                                          : QStringLiteral("old.json");
        // Nothing free: the first write fails. One page free: the write is cut after 4 KiB
        // (the case QSaveFile took for success and renamed over the old file).
        QTest::addRow("%s, disk full", qPrintable(what)) << args << name << qint64(0);
        // A plan of one add-node or place-pods action is smaller than a page: it fits.
        if (!what.startsWith(QLatin1String("plan add-nodes")) && what != QLatin1String("plan place -o"))
            QTest::addRow("%s, cut after 4 KiB", qPrintable(what)) << args << name << qint64(4096);
    }
}

void TestCliOutputs::diskFullKeepsPreviousFile()
{
    QFETCH(QStringList, args);
    QFETCH(QString, name);
    QFETCH(qint64, freeBytes);
    fleet::tests::TmpfsMount disk;
    QVERIFY2(disk.isMounted(), qPrintable(disk.error()));
    const QString out = disk.filePath(name);
    QByteArray old;
    for (int i = 0; old.size() < 3000; ++i)
        old += "the previous output, line " + QByteArray::number(i) + "\n";
    QVERIFY(writeBytes(out, old));
    const QString filled = disk.fill(freeBytes);
    QVERIFY2(filled.isEmpty(), qPrintable(filled));
    args.replaceInStrings(QRegularExpression(QStringLiteral("^OUT$")), out);
    const FleetscopeRun r = run(args);
    QVERIFY2(r.exitCode > 0, r.err.constData()); // not 0, and not a crash (-1)
    QVERIFY2(r.err.contains("disk full (No space left on device)"), r.err.constData());
    QVERIFY2(r.err.contains(out.toUtf8()), r.err.constData());
    QVERIFY2(!r.err.contains("Unknown error"), r.err.constData());
    QVERIFY2(!r.out.contains("written to") && !r.out.contains("wrote "), r.out.constData());
    QCOMPARE(readAll(out), old);
    QCOMPARE(disk.entries(), QStringList { name }); // no temporary file left
}

void TestCliOutputs::refusesNonRegularTarget_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("kind");
    const QList<QPair<QString, QStringList>> all = commands();
    for (const auto& [what, args] : all)
        for (const char* kind : { "fifo", "folder", "chardev" })
            QTest::addRow("%s onto a %s", qPrintable(what), kind) << args << QString::fromLatin1(kind);
}

void TestCliOutputs::refusesNonRegularTarget()
{
    QFETCH(QStringList, args);
    QFETCH(QString, kind);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("out.png")); // a name every command takes
    const QString made = fleet::tests::makeSpecialFile(out, kind);
    QVERIFY2(made.isEmpty(), qPrintable(made));
    const char* says = kind == QLatin1String("fifo") ? "a FIFO (named pipe), not a regular file"
        : kind == QLatin1String("folder")            ? "a folder, not a regular file"
                                                     : "a character device, not a regular file";
    const mode_t before = modeOf(out);
    args.replaceInStrings(QRegularExpression(QStringLiteral("^OUT$")), out);
    const FleetscopeRun r = run(args);
    QVERIFY2(r.exitCode > 0, r.err.constData());
    QVERIFY2(r.err.contains(says), r.err.constData());
    QCOMPARE(modeOf(out), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
        QStringList { "out.png" });
}

void TestCliOutputs::refusesInputAsOutput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("input"); // the input file the output names
    const QString cluster = QStringLiteral("CLUSTER");
    const QString plan = QStringLiteral("PLAN");
    const QString prices = QStringLiteral("PRICES");
    QTest::newRow("plan consolidate nodes.json -o nodes.json")
        << QStringList { QStringLiteral("plan"), QStringLiteral("consolidate"), cluster, QStringLiteral("-o"), cluster }
        << cluster;
    QTest::newRow("plan check --plan p.json -o p.json") << QStringList { QStringLiteral("plan"), QStringLiteral("check"), cluster,
        QStringLiteral("--plan"), plan, QStringLiteral("-o"), plan }
                                                        << plan;
    QTest::newRow("plan export --csv onto --prices") << QStringList { QStringLiteral("plan"), QStringLiteral("export"), cluster,
        QStringLiteral("--plan"), plan, QStringLiteral("--prices"), prices, QStringLiteral("--csv"), prices }
                                                     << prices;
    QTest::newRow("plan export --kubectl-script onto the cluster file") << QStringList { QStringLiteral("plan"),
        QStringLiteral("export"), cluster, QStringLiteral("--plan"), plan, QStringLiteral("--kubectl-script"), cluster }
                                                                        << cluster;
    QTest::newRow("plan add-nodes -o onto the cluster file") << QStringList { QStringLiteral("plan"), QStringLiteral("add-nodes"),
        cluster, QStringLiteral("--instance-type"), QStringLiteral("m5.xlarge"), QStringLiteral("--count"), QStringLiteral("1"),
        QStringLiteral("-o"), cluster } << cluster;
    QTest::newRow("plan place -o onto the cluster file") << QStringList { QStringLiteral("plan"), QStringLiteral("place"),
        cluster, QStringLiteral("--pods"), QStringLiteral("1"), QStringLiteral("--cpu"), QStringLiteral("1"),
        QStringLiteral("--memory"), QStringLiteral("1Gi"), QStringLiteral("-o"), cluster }
                                                         << cluster;
    QTest::newRow("screenshot -o onto a cluster file (hard link named .png)")
        << QStringList { QStringLiteral("screenshot"), cluster, QStringLiteral("-o"), QStringLiteral("LINK") } << cluster;
}

void TestCliOutputs::refusesInputAsOutput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, input);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QHash<QString, QString> files { { QStringLiteral("CLUSTER"), QStringLiteral("cluster.json") },
        { QStringLiteral("PLAN"), QStringLiteral("plan.json") }, { QStringLiteral("PRICES"), QStringLiteral("prices.csv") } };
    for (auto it = files.begin(); it != files.end(); ++it) {
        QVERIFY(QFile::copy(kPlanData + QLatin1Char('/') + it.value(), dir.filePath(it.value())));
        args.replaceInStrings(QRegularExpression(QLatin1Char('^') + it.key() + QLatin1Char('$')), dir.filePath(it.value()));
    }
    const QString link = dir.filePath(QStringLiteral("map.png"));
    QVERIFY(::link(QFile::encodeName(dir.filePath(files.value(input))).constData(), QFile::encodeName(link).constData()) == 0);
    args.replaceInStrings(QRegularExpression(QStringLiteral("^LINK$")), link);
    const QString inputPath = dir.filePath(files.value(input));
    const QByteArray before = readAll(inputPath);
    const FleetscopeRun r = run(args);
    QVERIFY2(r.exitCode > 0, r.err.constData());
    QVERIFY2(r.err.contains("is the same file as the input"), r.err.constData());
    QCOMPARE(readAll(inputPath), before);
}

void TestCliOutputs::refusesTwoOutputsToOneFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("out.txt"));
    const FleetscopeRun r = run(
        { QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"), QStringLiteral("--plan"),
            kPlanData + QStringLiteral("/plan.json"), QStringLiteral("-o"), out, QStringLiteral("--csv"), out });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("-o and --csv name the same file"), r.err.constData());
    QVERIFY(!QFile::exists(out));
    // plan check prints its report on standard output: "-" is refused there, not taken as a file.
    const FleetscopeRun dash = run({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"),
        QStringLiteral("--plan"), kPlanData + QStringLiteral("/plan.json"), QStringLiteral("--csv"), QStringLiteral("-") });
    QCOMPARE(dash.exitCode, 2);
    QVERIFY2(dash.err.contains("--csv -: standard output carries this command's report"), dash.err.constData());
}

void TestCliOutputs::exportToStandardOutput()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString csv = dir.filePath(QStringLiteral("plan.csv"));
    // The fixture plan names a placeholder digest for its cluster: --force exports it anyway.
    const QStringList base { QStringLiteral("plan"), QStringLiteral("export"), kPlanData + QStringLiteral("/cluster.json"),
        QStringLiteral("--plan"), kPlanData + QStringLiteral("/plan.json"), QStringLiteral("--force") };
    const FleetscopeRun file = run(base + QStringList { QStringLiteral("--csv"), csv });
    QVERIFY2(file.exitCode == 0 || file.exitCode == 1, file.err.constData());
    const FleetscopeRun stdoutRun = run(base + QStringList { QStringLiteral("--csv"), QStringLiteral("-") });
    QCOMPARE(stdoutRun.exitCode, file.exitCode);
    QVERIFY(!readAll(csv).isEmpty());
    QCOMPARE(stdoutRun.out, readAll(csv));
    QVERIFY(!QFile::exists(QStringLiteral("-")));
}

void TestCliOutputs::scriptKeepsItsMode()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString script = dir.filePath(QStringLiteral("drain.sh"));
    QVERIFY(writeBytes(script, "#!/bin/bash\n"));
    QVERIFY(::chmod(QFile::encodeName(script).constData(), 0750) == 0);
    const FleetscopeRun r = run({ QStringLiteral("plan"), QStringLiteral("export"), kPlanData + QStringLiteral("/cluster.json"),
        QStringLiteral("--plan"), kPlanData + QStringLiteral("/plan.json"), QStringLiteral("--force"), QStringLiteral("--kubectl-script"),
        script });
    QVERIFY2(r.exitCode == 0 || r.exitCode == 1, r.err.constData());
    QVERIFY(readAll(script).startsWith("#!"));
    QVERIFY(readAll(script).size() > 20);
    QCOMPARE(modeOf(script) & 07777, mode_t(0750));
}

// Under a file-size limit (ulimit -f) the kernel once killed the command mid-write with SIGXFSZ,
// leaving its temporary file behind: now the write fails with "file too large" and the previous
// file stays.
void TestCliOutputs::fileSizeLimitKeepsPreviousFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("drain.sh"));
    const QByteArray old = "#!/bin/bash\necho the previous script\n";
    QVERIFY(writeBytes(out, old));
    QProcess p;
    p.setProcessEnvironment(fleet::tests::headlessEnvironment());
    p.setChildProcessModifier([] {
        const struct rlimit limit {
            8192, 8192
        };
        ::setrlimit(RLIMIT_FSIZE, &limit);
    });
    p.start(QStringLiteral(FLEETSCOPE_EXECUTABLE),
        { QStringLiteral("plan"), QStringLiteral("export"), QStringLiteral("--simulate"), kSimulatedNodes,
            QStringLiteral("--plan"), m_plan, QStringLiteral("--kubectl-script"), out });
    QVERIFY(p.waitForFinished(120'000));
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitStatus(), QProcess::NormalExit); // not killed by SIGXFSZ
    QVERIFY2(p.exitCode() != 0, err.constData());
    QVERIFY2(err.contains("file too large") && !err.contains("(File too large)"), err.constData()); // said once
    QCOMPARE(readAll(out), old);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
        QStringList { "drain.sh" });
}

QTEST_GUILESS_MAIN(TestCliOutputs)
#include "tst_clioutputs.moc"
