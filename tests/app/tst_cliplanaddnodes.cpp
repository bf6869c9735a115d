// SPDX-License-Identifier: Apache-2.0
// `fleetscope plan add-nodes`, run as a user runs it: the capacity question on
// tests/data/plan/cluster-pending.json, whose answers its README works out by hand (3 m5.xlarge
// or 2 m5.2xlarge; 4 of 5 pending pods placed, ml/gpu-job-0 left with
// insufficient-nvidia.com/gpu), the plan written and re-checked by plan check, --count, and
// the errors.

#include "fleetscoperun.h"

#include "importers/plan/planfile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = fleet::tests::FleetscopeRun;
const QString kPending = QStringLiteral(FLEET_TEST_DATA_DIR "/plan/cluster-pending.json");

Run fleetscope(const QStringList& args)
{
    return fleet::tests::runFleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("add-nodes") } + args);
}

} // namespace

class TestCliPlanAddNodes : public QObject {
    Q_OBJECT
private slots:
    void fitPending_data();
    void fitPending();
    void countAndErrors();
    void aCopyOfEachNodeGroup();
    void podsOfOneWorkloadRefusedAlikeAreOneEntry();

private:
    QTemporaryDir m_dir;
};

void TestCliPlanAddNodes::fitPending_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<QString>("templateNode"); // the first healthy node of the type
    QTest::newRow("m5.xlarge: one 3-cpu pod each") << QStringLiteral("m5.xlarge") << 3 << QStringLiteral("cpu-a1");
    QTest::newRow("m5.2xlarge: two each") << QStringLiteral("m5.2xlarge") << 2 << QStringLiteral("cpu-b1");
}

void TestCliPlanAddNodes::fitPending()
{
    QFETCH(QString, type);
    QFETCH(int, nodes);
    QFETCH(QString, templateNode);
    const QString plan = m_dir.filePath(type + QStringLiteral(".json"));
    const Run r = fleetscope({ kPending, QStringLiteral("--instance-type"), type, QStringLiteral("--fit-pending"), QStringLiteral("--format"),
        QStringLiteral("json"), QStringLiteral("-o"), plan });
    QCOMPARE(r.exitCode, 1); // one pod still does not fit
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("nodes")).toInt(), nodes);
    QCOMPARE(o.value(QStringLiteral("templateNode")).toString(), templateNode);
    QCOMPARE(o.value(QStringLiteral("pods")).toInt(), 5);
    QCOMPARE(o.value(QStringLiteral("placed")).toInt(), 4);
    const QJsonArray unplaced = o.value(QStringLiteral("unplaced")).toArray();
    QCOMPARE(unplaced.size(), 1);
    QCOMPARE(unplaced.at(0)[QStringLiteral("pod")].toString(), QStringLiteral("ml/gpu-job-0"));
    QCOMPARE(unplaced.at(0)[QStringLiteral("reasons")].toArray().at(0)[QStringLiteral("code")].toString(), QStringLiteral("insufficient-nvidia.com/gpu"));

    // The plan: one add-node of that count, then the 4 pods placed, each a move-pod (onto the
    // added nodes, or a node the default policy prefers: added nodes alone would stay empty);
    // it holds.
    const fleet::importers::PlanDocument doc = fleet::importers::readPlanFile(plan.toStdString());
    QCOMPARE(doc.actions.size(), std::size_t(1 + 4));
    QCOMPARE(doc.actions[0].type, fleet::model::ActionType::AddNode);
    QCOMPARE(doc.actions[0].count, nodes);
    QCOMPARE(QString::fromStdString(doc.actions[0].instanceType), type);
    int onAdded = 0;
    for (std::size_t i = 1; i < doc.actions.size(); ++i) {
        QCOMPARE(doc.actions[i].type, fleet::model::ActionType::MovePod);
        onAdded += QString::fromStdString(doc.actions[i].node).startsWith(QStringLiteral("fleetscope-") + type) ? 1 : 0;
    }
    QVERIFY2(onAdded >= nodes, qPrintable(QString::number(onAdded))); // every added node takes a pod
    QCOMPARE(doc.source.files.size(), std::size_t(1));
    const Run check = fleet::tests::runFleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPending, QStringLiteral("--plan"), plan });
    QCOMPARE(check.exitCode, 0);
}

void TestCliPlanAddNodes::countAndErrors()
{
    const QString plan = m_dir.filePath(QStringLiteral("count.json"));
    const Run r = fleetscope({ kPending, QStringLiteral("--instance-type"), QStringLiteral("m5.xlarge"), QStringLiteral("--count"), QStringLiteral("2"),
        QStringLiteral("--domain"), QStringLiteral("topology.kubernetes.io/zone=us-east-1a"), QStringLiteral("-o"), plan });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("added 2 m5.xlarge node(s)"), r.out.constData());
    QVERIFY2(r.out.contains("a m5.xlarge node added copies cpu-a1\n"), r.out.constData());
    const fleet::importers::PlanDocument doc = fleet::importers::readPlanFile(plan.toStdString());
    QCOMPARE(doc.actions.size(), std::size_t(1));
    QCOMPARE(doc.actions[0].count, 2);
    QCOMPARE(doc.actions[0].domain, std::string("topology.kubernetes.io/zone=us-east-1a"));

    // No p5 in the state to copy; no spot m5; a bad count; both or neither of --count and --fit-pending.
    const Run missing = fleetscope({ kPending, QStringLiteral("--instance-type"), QStringLiteral("p5.48xlarge"), QStringLiteral("--count"),
        QStringLiteral("1"), QStringLiteral("-o"), m_dir.filePath(QStringLiteral("x.json")) });
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains("no node of instance type p5.48xlarge"), missing.err.constData());
    const Run spot = fleetscope({ kPending, QStringLiteral("--instance-type"), QStringLiteral("m5.xlarge"), QStringLiteral("--capacity-type"),
        QStringLiteral("spot"), QStringLiteral("--fit-pending"), QStringLiteral("-o"), m_dir.filePath(QStringLiteral("y.json")) });
    QCOMPARE(spot.exitCode, 2);
    QVERIFY2(spot.err.contains("bought spot"), spot.err.constData());
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("x.json"))));
    QCOMPARE(fleetscope({ kPending, QStringLiteral("--instance-type"), QStringLiteral("m5.xlarge"), QStringLiteral("--count"), QStringLiteral("0"),
                 QStringLiteral("-o"), plan })
                 .exitCode,
        2);
    QCOMPARE(fleetscope({ kPending, QStringLiteral("--instance-type"), QStringLiteral("m5.xlarge"), QStringLiteral("-o"), plan }).exitCode, 2);
}

void TestCliPlanAddNodes::aCopyOfEachNodeGroup()
{
    // Three pending pods select node group ng-gpu, one ng-gpu2: the plan copies a healthy node of
    // each group (d-p5-good, then e-p5-good2), every pod is placed and the plan holds.
    const QString nodes = QStringLiteral(FLEET_TEST_DATA_DIR "/plan/p5-groups-nodes.json");
    const QString pods = QStringLiteral(FLEET_TEST_DATA_DIR "/plan/p5-groups-pods.json");
    const QString plan = m_dir.filePath(QStringLiteral("groups.json"));
    const Run r = fleetscope({ nodes, pods, QStringLiteral("--instance-type"), QStringLiteral("p5.48xlarge"), QStringLiteral("--fit-pending"),
        QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), plan });
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("nodes")).toInt(), 4);
    QCOMPARE(o.value(QStringLiteral("placed")).toInt(), 4);
    QVERIFY(o.value(QStringLiteral("unplaced")).toArray().isEmpty());
    const QJsonArray templates = o.value(QStringLiteral("templates")).toArray();
    QCOMPARE(templates.size(), 2);
    QCOMPARE(templates.at(0)[QStringLiteral("node")].toString(), QStringLiteral("d-p5-good"));
    QCOMPARE(templates.at(0)[QStringLiteral("nodes")].toInt(), 3);
    QCOMPARE(templates.at(1)[QStringLiteral("node")].toString(), QStringLiteral("e-p5-good2"));
    QCOMPARE(templates.at(1)[QStringLiteral("nodes")].toInt(), 1);
    QCOMPARE(templates.at(0)[QStringLiteral("nodeGroup")].toString(), QStringLiteral("ng-gpu"));
    QCOMPARE(templates.at(1)[QStringLiteral("nodeGroup")].toString(), QStringLiteral("ng-gpu2"));
    const fleet::importers::PlanDocument doc = fleet::importers::readPlanFile(plan.toStdString());
    int addNodes = 0;
    for (const auto& a : doc.actions)
        addNodes += a.type == fleet::model::ActionType::AddNode ? 1 : 0;
    QCOMPARE(addNodes, 2);
    const Run check = fleet::tests::runFleetscope({ QStringLiteral("plan"), QStringLiteral("check"), nodes, pods, QStringLiteral("--plan"), plan });
    QCOMPARE(check.exitCode, 0);
    // The text names each template.
    const Run text = fleetscope({ nodes, pods, QStringLiteral("--instance-type"), QStringLiteral("p5.48xlarge"), QStringLiteral("--fit-pending"),
        QStringLiteral("-o"), m_dir.filePath(QStringLiteral("groups2.json")) });
    QVERIFY2(text.out.contains("  3 p5.48xlarge node(s) copy d-p5-good\n  1 p5.48xlarge node(s) copy e-p5-good2\n"), text.out.constData());
}


// The simulated fleet's on-demand p5.48xlarge nodes suit none of its pending 8-GPU training pods
// (they select a node group of another capacity type): the text names the first pod of the job
// with its reasons and counts the rest, instead of 201 copies of the same lines; JSON lists all.
void TestCliPlanAddNodes::podsOfOneWorkloadRefusedAlikeAreOneEntry()
{
    QTemporaryDir dir;
    const QStringList args { QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--instance-type"), QStringLiteral("p5.48xlarge"),
        QStringLiteral("--capacity-type"), QStringLiteral("on-demand"), QStringLiteral("--fit-pending"), QStringLiteral("-o"),
        dir.filePath(QStringLiteral("p.json")) };
    const Run text = fleetscope(args);
    QCOMPARE(text.exitCode, 1);
    QVERIFY2(text.out.count("still does not fit: ") == 1 && text.out.contains("    and 200 more pods of its workload, for the same reasons\n"),
        text.out.constData());
    const Run json = fleetscope(args + QStringList { QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(json.exitCode, 1);
    QCOMPARE(QJsonDocument::fromJson(json.out).object().value(QStringLiteral("unplaced")).toArray().size(), 201);
}
QTEST_GUILESS_MAIN(TestCliPlanAddNodes)
#include "tst_cliplanaddnodes.moc"
