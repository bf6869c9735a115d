// SPDX-License-Identifier: Apache-2.0
// `fleetscope bench fgd`, run as a user runs it (QProcess, no display): the JSON shape with the
// paper's figure beside ours (expected_results' on another),
// the progress on stderr, and the errors and exit codes of a bad folder, trace, seed range,
// policy and format.

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include "fleetscoperun.h"

namespace {

const QString kData = QStringLiteral(FLEET_SHARED_DATA_DIR "/alibaba-gpu-v2023-openb");

using Run = fleet::tests::FleetscopeRun;

Run fleetscope(const QStringList& args) { return fleet::tests::runFleetscope(args); }

} // namespace

class TestCliBench : public QObject {
    Q_OBJECT
private slots:
    void jsonBesideThePaper();
    void errors_data();
    void errors();
};

void TestCliBench::jsonBesideThePaper()
{
    const Run r = fleetscope({ QStringLiteral("bench"), QStringLiteral("fgd"), QStringLiteral("--data"), kData, QStringLiteral("--trace"),
        QStringLiteral("multigpu20"), QStringLiteral("--seeds"), QStringLiteral("42"), QStringLiteral("--policies"),
        QStringLiteral("FGD,LeastAllocated"), QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject traces = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("traces")).toObject();
    const QJsonObject fgd = traces.value(QStringLiteral("multigpu20")).toObject().value(QStringLiteral("FGD")).toObject();
    // expected_results: multigpu20 FGD, mean over seeds 42..51 (PROTOCOL.md's Table A).
    QCOMPARE(fgd.value(QStringLiteral("paper")).toDouble(), 4.47);
    QVERIFY2(std::abs(fgd.value(QStringLiteral("mean")).toDouble() - 4.47) < 1.5, r.out.constData());
    QCOMPARE(fgd.value(QStringLiteral("sd")).toDouble(), 0.0); // one seed
    const QJsonObject least = traces.value(QStringLiteral("multigpu20")).toObject().value(QStringLiteral("LeastAllocated")).toObject();
    QVERIFY(least.value(QStringLiteral("paper")).isNull());
    QVERIFY(least.value(QStringLiteral("mean")).toDouble() > 0);
    QVERIFY(r.err.contains("[1/2] multigpu20 FGD seed 42"));
}

void TestCliBench::errors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QStringList base { QStringLiteral("bench"), QStringLiteral("fgd"), QStringLiteral("--data"), kData, QStringLiteral("--trace") };
    QTest::newRow("folder") << QStringList { QStringLiteral("bench"), QStringLiteral("fgd"), QStringLiteral("--data"),
        QStringLiteral("/nonexistent"), QStringLiteral("--trace"), QStringLiteral("default") }
                            << 1 << QStringLiteral("not the FGD trace folder");
    QTest::newRow("trace") << (base + QStringList { QStringLiteral("nosuch") }) << 1 << QStringLiteral("unknown trace \"nosuch\"");
    QTest::newRow("seeds") << (base + QStringList { QStringLiteral("default"), QStringLiteral("--seeds"), QStringLiteral("51-42") }) << 2
                           << QStringLiteral("--seeds: expected FIRST-LAST");
    QTest::newRow("policy") << (base + QStringList { QStringLiteral("default"), QStringLiteral("--policies"), QStringLiteral("FGD,Tetris") })
                            << 2 << QStringLiteral("unknown policy \"Tetris\"");
    QTest::newRow("format") << (base + QStringList { QStringLiteral("default"), QStringLiteral("--format"), QStringLiteral("xml") }) << 2
                            << QStringLiteral("--format: expected text or json");
    QTest::newRow("benchmark") << QStringList { QStringLiteral("bench"), QStringLiteral("other") } << 2
                               << QStringLiteral("expected the benchmark's name, fgd");
}

void TestCliBench::errors()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const Run r = fleetscope(args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestCliBench)
#include "tst_clibench.moc"
