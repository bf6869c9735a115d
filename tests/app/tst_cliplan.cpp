// SPDX-License-Identifier: Apache-2.0
// The fleetscope executable's what-if subcommands, run as a user runs them (QProcess, no
// display): check-move on the EKS fixture and on tests/data/plan, plan check against the state
// a plan was made on and against a changed one (reporting what broke), plan export, and the
// exit codes of each.

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "fleetscoperun.h"

namespace {

const QString kHoneycomb = QStringLiteral(FLEET_SHARED_DATA_DIR "/k8s-fixture-honeycomb-eks");
const QString kPlanData = QStringLiteral(FLEET_TEST_DATA_DIR "/plan");

using Run = fleet::tests::FleetscopeRun;

Run fleetscope(const QStringList& args) { return fleet::tests::runFleetscope(args); }

QStringList eks() { return { kHoneycomb + QStringLiteral("/nodes.json"), kHoneycomb + QStringLiteral("/pods.json") }; }

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// A plan file of `actions` (JSON text) in `dir`.
QString writePlan(const QTemporaryDir& dir, const QByteArray& actions)
{
    const QString path = dir.filePath(QStringLiteral("plan.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(R"({"fleetscopePlan": 1, "source": {"files": []}, "actions": )" + actions + "}");
    return path;
}

} // namespace

class TestCliPlan : public QObject {
    Q_OBJECT
private slots:
    void checkMoveOnTheEksFixture();
    void checkMoveTextAndSimulated();
    void checkMoveSaysAGangMemberCannotMoveAlone();
    void checkMoveErrors_data();
    void checkMoveErrors();
    void planCheckHolds();
    void planCheckReportsWhatBroke();
    void planExport();
    void planCheckCostsFromThePriceTable_data();
    void planCheckCostsFromThePriceTable();
    void planCheckReportsARecreatedPod();
    void planErrors_data();
    void planErrors();
};

void TestCliPlan::checkMoveOnTheEksFixture()
{
    // duckboat-02 has the taint type=hound:NoSchedule, which kuard does not tolerate.
    const Run r = fleetscope(QStringList { QStringLiteral("check-move") } + eks()
        + QStringList { QStringLiteral("--pod"), QStringLiteral("default/kuard-6b65d9d8b5-44bbs"), QStringLiteral("--to"),
            QStringLiteral("duckboat-02"), QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(r.exitCode, 0);
    QJsonParseError error {};
    const QJsonObject o = QJsonDocument::fromJson(r.out, &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(o.value(QStringLiteral("pod")).toString(), QStringLiteral("default/kuard-6b65d9d8b5-44bbs"));
    QCOMPARE(o.value(QStringLiteral("to")).toString(), QStringLiteral("duckboat-02"));
    QCOMPARE(o.value(QStringLiteral("feasible")).toBool(true), false);
    const QJsonArray reasons = o.value(QStringLiteral("reasons")).toArray();
    QVERIFY(!reasons.isEmpty());
    QCOMPARE(reasons.at(0).toObject().value(QStringLiteral("code")).toString(), QStringLiteral("untolerated-taint:type=hound:NoSchedule"));
    QVERIFY(!reasons.at(0).toObject().value(QStringLiteral("message")).toString().isEmpty());
    // The node it is on: feasible, no reasons.
    const Run same = fleetscope(QStringList { QStringLiteral("check-move") } + eks()
        + QStringList { QStringLiteral("--pod"), QStringLiteral("default/kuard-6b65d9d8b5-44bbs"), QStringLiteral("--to"),
            QStringLiteral("duckboat-01"), QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(same.exitCode, 0);
    const QJsonObject s = QJsonDocument::fromJson(same.out).object();
    QCOMPARE(s.value(QStringLiteral("feasible")).toBool(false), true);
    QVERIFY(s.value(QStringLiteral("reasons")).toArray().isEmpty());
}

void TestCliPlan::checkMoveTextAndSimulated()
{
    // api-0 needs 3 cpu; cpu-a1 has 4 - 2.1 = 1.9 free.
    const Run r = fleetscope({ QStringLiteral("check-move"), kPlanData + QStringLiteral("/cluster.json"), QStringLiteral("--pod"),
        QStringLiteral("default/api-0"), QStringLiteral("--to"), QStringLiteral("cpu-a1") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.startsWith("default/api-0 -> cpu-a1: not feasible\n"), r.out.constData());
    QVERIFY2(r.out.contains("  insufficient-cpu: "), r.out.constData());
    const Run ok = fleetscope({ QStringLiteral("check-move"), kPlanData + QStringLiteral("/cluster.json"), QStringLiteral("--pod"),
        QStringLiteral("default/api-0"), QStringLiteral("--to"), QStringLiteral("cpu-b1") });
    QCOMPARE(ok.exitCode, 0);
    QCOMPARE(ok.out, QByteArray("default/api-0 -> cpu-b1: feasible\n"));
    // A node name from the input that holds a control sequence is printed escaped, never raw.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QByteArray cluster = readFile(kPlanData + QStringLiteral("/cluster.json"));
    QVERIFY(!cluster.isEmpty());
    cluster.replace("\"cpu-b1\"", "\"cpu-b1\\u001b[2J\"");
    const QString hostile = dir.filePath(QStringLiteral("cluster.json"));
    QFile f(hostile);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(cluster) == cluster.size());
    f.close();
    // No Kubernetes name holds a control character: the file is refused, the name escaped.
    const Run esc = fleetscope({ QStringLiteral("check-move"), hostile, QStringLiteral("--pod"), QStringLiteral("default/api-0"),
        QStringLiteral("--to"), QStringLiteral("cpu-b1\x1b[2J") });
    QVERIFY2(esc.exitCode != 0, esc.out.constData());
    QVERIFY2(!esc.out.contains('\x1b') && !esc.err.contains('\x1b'), esc.err.constData());
    QVERIFY2(esc.err.contains("the name \"cpu-b1\\x1B[2J\" holds the control character \\x1B"), esc.err.constData());
    // --simulate: a pod it does not have is an error naming the simulated cluster.
    const Run sim = fleetscope({ QStringLiteral("check-move"), QStringLiteral("--simulate"), QStringLiteral("50"), QStringLiteral("--seed"),
        QStringLiteral("3"), QStringLiteral("--pod"), QStringLiteral("nowhere/nothing"), QStringLiteral("--to"), QStringLiteral("x") });
    QCOMPARE(sim.exitCode, 1);
    QVERIFY2(sim.err.contains("pod nowhere/nothing is not in simulated cluster (50 nodes, seed 3)"), sim.err.constData());
}

void TestCliPlan::checkMoveSaysAGangMemberCannotMoveAlone()
{
    // A worker of a simulated JobSet (a gang: "NAME-workers-I-J-HASH" in ml-training), checked
    // against the node it is on: the scheduler's filters take it (it is taken off first), but the
    // window refuses to drop it alone, gang-member first, and check-move says so too, beside the
    // scheduler's verdict.
    const QStringList source { QStringLiteral("--simulate"), QStringLiteral("50"), QStringLiteral("--seed"), QStringLiteral("3") };
    const Run pods = fleetscope(QStringList { QStringLiteral("summary"), QStringLiteral("--format"), QStringLiteral("json"),
                                    QStringLiteral("--only"), QStringLiteral("pods") }
        + source);
    QCOMPARE(pods.exitCode, 0);
    QString pod, node;
    for (const QJsonValue& v : QJsonDocument::fromJson(pods.out).object().value(QStringLiteral("pods")).toArray()) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("namespace")).toString() == QLatin1String("ml-training")
            && o.value(QStringLiteral("name")).toString().contains(QStringLiteral("-workers-"))
            && !o.value(QStringLiteral("node")).toString().isEmpty()) {
            pod = QStringLiteral("ml-training/") + o.value(QStringLiteral("name")).toString();
            node = o.value(QStringLiteral("node")).toString();
            break;
        }
    }
    QVERIFY2(!pod.isEmpty(), "the simulated fleet has no bound JobSet worker");
    const QStringList args = QStringList { QStringLiteral("check-move") } + source
        + QStringList { QStringLiteral("--pod"), pod, QStringLiteral("--to"), node };

    const Run json = fleetscope(args + QStringList { QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(json.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(json.out).object();
    QCOMPARE(o.value(QStringLiteral("feasible")).toBool(false), true); // the scheduler's verdict
    QVERIFY(o.value(QStringLiteral("reasons")).toArray().isEmpty());
    QCOMPARE(o.value(QStringLiteral("movesAlone")).toBool(true), false);
    const QJsonArray blockers = o.value(QStringLiteral("evictionBlockers")).toArray();
    QCOMPARE(blockers.size(), 1);
    QCOMPARE(blockers.at(0).toObject().value(QStringLiteral("code")).toString(), QStringLiteral("gang-member"));
    QVERIFY2(blockers.at(0).toObject().value(QStringLiteral("message")).toString().contains(QStringLiteral("one member of the gang JobSet")),
        json.out.constData());

    const Run text = fleetscope(args);
    QCOMPARE(text.exitCode, 0);
    const QByteArray head = (pod + QStringLiteral(" -> ") + node).toUtf8();
    QVERIFY2(text.out.startsWith(head + ": feasible for the scheduler, but the pod cannot move alone (gang-member)\n"), text.out.constData());
    QVERIFY2(text.out.contains("\n  gang-member: " + pod.toUtf8() + " is one member of the gang JobSet"), text.out.constData());

    // A pod that moves alone: the verdict and the JSON as before, nothing of gangs.
    const Run plain = fleetscope({ QStringLiteral("check-move"), kPlanData + QStringLiteral("/cluster.json"), QStringLiteral("--pod"),
        QStringLiteral("default/api-0"), QStringLiteral("--to"), QStringLiteral("cpu-b1"), QStringLiteral("--format"), QStringLiteral("json") });
    const QJsonObject p = QJsonDocument::fromJson(plain.out).object();
    QCOMPARE(p.value(QStringLiteral("movesAlone")).toBool(false), true);
    QVERIFY(p.value(QStringLiteral("evictionBlockers")).toArray().isEmpty());
}

void TestCliPlan::checkMoveErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QString cluster = kPlanData + QStringLiteral("/cluster.json");
    QTest::newRow("unknown pod") << QStringList { cluster, QStringLiteral("--pod"), QStringLiteral("default/ghost"), QStringLiteral("--to"), QStringLiteral("cpu-a1") }
                                 << 1 << QStringLiteral("pod default/ghost is not in");
    QTest::newRow("unknown node") << QStringList { cluster, QStringLiteral("--pod"), QStringLiteral("default/api-0"), QStringLiteral("--to"), QStringLiteral("ghost") }
                                  << 1 << QStringLiteral("node ghost is not in");
    QTest::newRow("unreadable input") << QStringList { kPlanData + QStringLiteral("/missing.json"), QStringLiteral("--pod"), QStringLiteral("a/b"),
                                             QStringLiteral("--to"), QStringLiteral("n") }
                                      << 1 << QStringLiteral("missing.json");
    QTest::newRow("pod without namespace") << QStringList { cluster, QStringLiteral("--pod"), QStringLiteral("api-0"), QStringLiteral("--to"), QStringLiteral("n") }
                                           << 2 << QStringLiteral("--pod: expected NAMESPACE/NAME");
    QTest::newRow("no --to") << QStringList { cluster, QStringLiteral("--pod"), QStringLiteral("default/api-0") } << 2 << QStringLiteral("--to NODE is needed");
    QTest::newRow("no input") << QStringList { QStringLiteral("--pod"), QStringLiteral("a/b"), QStringLiteral("--to"), QStringLiteral("n") } << 2
                              << QStringLiteral("no input");
}

void TestCliPlan::checkMoveErrors()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const Run r = fleetscope(QStringList { QStringLiteral("check-move") } + args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.startsWith("fleetscope check-move: "), r.err.constData());
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestCliPlan::planCheckHolds()
{
    QTemporaryDir dir;
    const QString evaluation = dir.filePath(QStringLiteral("evaluation.json"));
    const Run r = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"), QStringLiteral("--plan"),
        kPlanData + QStringLiteral("/plan.json"), QStringLiteral("-o"), evaluation });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("4 actions, all hold"), r.out.constData());
    // Numbered from 1 in text, as the window's Plan panel ("1.") and the report number them; the
    // JSON's "index" is the plan file's 0-based array index (#1 is index 0).
    QVERIFY2(r.out.contains("\n  #1 move-pod default/web-7f9c-aaaaa -> cpu-b1: holds") && r.out.contains("\n  #4 move-pod default/api-0 -> "),
        r.out.constData());
    QVERIFY2(!r.out.contains("#0") && !r.out.contains("[0]"), r.out.constData());
    // The plan's digest is a placeholder: the state is not the one it names.
    QVERIFY2(r.err.contains("note: the plan was made on cluster.json (sha256 000000000000), checked against "), r.err.constData());
    QVERIFY2(r.err.contains("(changed since the plan was made: cluster.json)"), r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(readFile(evaluation)).object();
    QCOMPARE(o.value(QStringLiteral("holds")).toBool(false), true);
    QCOMPARE(o.value(QStringLiteral("actions")).toArray().size(), 4);
    QCOMPARE(o.value(QStringLiteral("actions")).toArray().at(0).toObject().value(QStringLiteral("index")).toInt(-1), 0);
    QVERIFY(o.contains(QStringLiteral("before")) && o.contains(QStringLiteral("after")));
    QCOMPARE(o.value(QStringLiteral("after")).toObject().value(QStringLiteral("nodes")).toInt(), 4); // one drained, one added
    // The evaluation names the state it was checked against, and why it is not the plan's.
    const QJsonArray files = o.value(QStringLiteral("state")).toObject().value(QStringLiteral("files")).toArray();
    QCOMPARE(files.size(), 1);
    QCOMPARE(files.at(0).toObject().value(QStringLiteral("sha256")).toString().size(), 64);
    QVERIFY(o.value(QStringLiteral("sourceNote")).toString().startsWith(QStringLiteral("the plan was made on cluster.json")));
}

void TestCliPlan::planCheckReportsWhatBroke()
{
    const Run r = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster-changed.json"), QStringLiteral("--plan"),
        kPlanData + QStringLiteral("/plan.json"), QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(r.exitCode, 1);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("holds")).toBool(true), false);
    const QJsonArray actions = o.value(QStringLiteral("actions")).toArray();
    QCOMPARE(actions.size(), 4);
    auto action = [&](int i) { return actions.at(i).toObject(); };
    QCOMPARE(action(0).value(QStringLiteral("index")).toInt(), 0);
    QCOMPARE(action(0).value(QStringLiteral("holds")).toBool(true), false);
    QCOMPARE(action(0).value(QStringLiteral("reasons")).toArray().at(0).toObject().value(QStringLiteral("code")).toString(),
        QStringLiteral("not-found:node/cpu-b1"));
    QCOMPARE(action(1).value(QStringLiteral("type")).toString(), QStringLiteral("drain-node"));
    QCOMPARE(action(1).value(QStringLiteral("holds")).toBool(true), false);
    QCOMPARE(action(1).value(QStringLiteral("unplaced")).toArray().size(), 2);
    QCOMPARE(action(2).value(QStringLiteral("holds")).toBool(false), true);
    QCOMPARE(action(3).value(QStringLiteral("holds")).toBool(false), true);
    QCOMPARE(action(3).value(QStringLiteral("changes")).toArray().at(0).toObject().value(QStringLiteral("to")).toString(),
        QStringLiteral("fleetscope-m5.xlarge-1"));
}

void TestCliPlan::planExport()
{
    QTemporaryDir dir;
    const QString cluster = kPlanData + QStringLiteral("/cluster.json");
    // tests/data/plan/plan.json names a placeholder digest: it was not made on cluster.json.
    const QString csv = dir.filePath(QStringLiteral("plan.csv")), script = dir.filePath(QStringLiteral("plan.sh"));
    const QStringList outputs = { QStringLiteral("--csv"), csv, QStringLiteral("--kubectl-script"), script };
    const Run refused = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("export"), cluster, QStringLiteral("--plan"),
                                       kPlanData + QStringLiteral("/plan.json") }
        + outputs);
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("refusing to write --csv or --kubectl-script: the plan was made on cluster.json (sha256 000000000000)")
            && refused.err.contains("give --force"),
        refused.err.constData());
    QVERIFY(!QFile::exists(csv) && !QFile::exists(script));
    const Run forced = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("export"), cluster, QStringLiteral("--plan"),
                                      kPlanData + QStringLiteral("/plan.json"), QStringLiteral("--force") }
        + outputs);
    QCOMPARE(forced.exitCode, 0);
    QVERIFY(QFile::exists(csv) && QFile::exists(script));
    QFile::remove(csv);
    QFile::remove(script);

    // The same plan naming cluster.json's real digest: exported without --force.
    QFile clusterFile(cluster);
    QVERIFY(clusterFile.open(QIODevice::ReadOnly));
    const QByteArray digest = QCryptographicHash::hash(clusterFile.readAll(), QCryptographicHash::Sha256).toHex();
    const QString plan = dir.filePath(QStringLiteral("plan.json"));
    QFile planFile(plan);
    QVERIFY(planFile.open(QIODevice::WriteOnly));
    planFile.write(readFile(kPlanData + QStringLiteral("/plan.json")).replace(QByteArray(64, '0'), digest));
    planFile.close();
    const Run r = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("export"), cluster, QStringLiteral("--plan"), plan } + outputs);
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.isEmpty());
    const QByteArray rows = readFile(csv);
    QVERIFY2(rows.startsWith("action,type,namespace,pod,from,to,holds,reasons\r\n"), rows.constData());
    QVERIFY2(rows.contains("0,move-pod,default,web-7f9c-aaaaa,cpu-a1,cpu-b1,true,"), rows.constData());
    QVERIFY2(rows.contains("2,add-node,,,,,true,"), rows.constData());
    const QByteArray sh = readFile(script);
    QVERIFY(sh.startsWith("#!/usr/bin/env bash\n"));
    QVERIFY(sh.contains("Fleetscope never runs this script"));
    QVERIFY2(QFile::permissions(script) & QFileDevice::ExeOwner, "the CLI's kubectl script is not executable (the window's is)");
    // Made on files: no server recorded (the operator names it with --server when running it).
    QVERIFY2(sh.contains("# Cluster: no API server recorded") && sh.contains("\nreadonly plan_server=''\n"), sh.constData());
    QVERIFY2(sh.contains("\n    # #2 drain cpu-a1\n") && sh.contains("\n    cpu-a1\n"), sh.constData());
    QVERIFY(sh.contains("#   default/web-7f9c-bbbbb -> cpu-b1"));
    // bash can parse it (nothing runs: -n).
    QProcess bash;
    bash.start(QStringLiteral("bash"), { QStringLiteral("-n"), script });
    QVERIFY(bash.waitForFinished(10'000));
    QCOMPARE(bash.exitCode(), 0);
    // plan check refuses its --kubectl-script on another state as export does.
    const Run check = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster-changed.json"),
        QStringLiteral("--plan"), plan, QStringLiteral("--kubectl-script"), dir.filePath(QStringLiteral("check.sh")) });
    QCOMPARE(check.exitCode, 2);
    QVERIFY2(check.err.contains("refusing to write"), check.err.constData());
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("check.sh"))));
    // Forced onto the changed state, where actions 0 and 1 no longer hold: exit status 1, and
    // stderr says which actions, why, what was written of them and what to do.
    const Run broken = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("export"), kPlanData + QStringLiteral("/cluster-changed.json"),
                                      QStringLiteral("--plan"), plan, QStringLiteral("--force") }
        + outputs);
    QCOMPARE(broken.exitCode, 1);
    QVERIFY(QFile::exists(csv) && QFile::exists(script));
    QVERIFY2(broken.err.contains("2 of 4 actions do not hold against")
            && broken.err.contains("#1 move-pod default/web-7f9c-aaaaa -> cpu-b1 (not-found:node/cpu-b1); #2 drain-node cpu-a1 (")
            && broken.err.contains("the CSV marks them holds=false and the kubectl script leaves them out")
            && broken.err.contains("fleetscope plan check"),
        broken.err.constData());
}

void TestCliPlan::planCheckCostsFromThePriceTable_data()
{
    QTest::addColumn<QStringList>("prices");
    QTest::addColumn<double>("before");
    QTest::addColumn<double>("after");
    // The shipped table prices gpu-b2 (p4d.24xlarge, us-east-1, on-demand) only.
    QTest::newRow("shipped table") << QStringList {} << 32.7726 << 32.7726;
    // --prices adds the m5 nodes: draining cpu-a1 (m5.xlarge) saves its $0.25/h.
    QTest::newRow("--prices") << QStringList { QStringLiteral("--prices"), kPlanData + QStringLiteral("/prices.csv") } << 33.7726 << 33.5226;
}

void TestCliPlan::planCheckCostsFromThePriceTable()
{
    QFETCH(QStringList, prices);
    QFETCH(double, before);
    QFETCH(double, after);
    QTemporaryDir dir;
    const QString plan = writePlan(dir, R"([{"type": "drain-node", "node": "cpu-a1"}])");
    const Run r = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"),
                                 QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") }
        + prices);
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("before")).toObject().value(QStringLiteral("costPerHour")).toDouble(), before);
    QCOMPARE(o.value(QStringLiteral("after")).toObject().value(QStringLiteral("costPerHour")).toDouble(), after);
    const Run text = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"),
                                    QStringLiteral("--plan"), plan }
        + prices);
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains(QStringLiteral("cost $%1/h").arg(before, 0, 'f', 2).toUtf8()), text.out.constData());
    // A bad price file is an unreadable input (2), named.
    const QString bad = dir.filePath(QStringLiteral("bad.csv"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("region,instance_type,capacity_type,usd_per_hour\nus-east-1,m5.xlarge,on-demand,cheap\n");
    f.close();
    const Run refused = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"),
        QStringLiteral("--plan"), plan, QStringLiteral("--prices"), bad });
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("--prices") && refused.err.contains("bad.csv"), refused.err.constData());
}

void TestCliPlan::planCheckReportsARecreatedPod()
{
    // cluster.json's web-7f9c-aaaaa has uid uid-web-7f9c-aaaaa: the plan's pod was another one.
    QTemporaryDir dir;
    const QString plan = writePlan(dir, R"([{"type": "move-pod", "pod": {"namespace": "default", "name": "web-7f9c-aaaaa",
        "uid": "uid-web-7f9c-old"}, "node": "cpu-b1"}, {"type": "move-pod", "pod": {"namespace": "default", "name": "web-7f9c-bbbbb",
        "uid": "uid-web-7f9c-bbbbb"}, "node": "cpu-b1"}])");
    const Run r = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"),
        QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") });
    QCOMPARE(r.exitCode, 1);
    const QJsonArray actions = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("actions")).toArray();
    QCOMPARE(actions.size(), 2);
    const QJsonObject replaced = actions.at(0).toObject();
    QCOMPARE(replaced.value(QStringLiteral("holds")).toBool(true), false);
    const QJsonObject reason = replaced.value(QStringLiteral("reasons")).toArray().at(0).toObject();
    QCOMPARE(reason.value(QStringLiteral("code")).toString(), QStringLiteral("pod-replaced"));
    QVERIFY2(reason.value(QStringLiteral("message")).toString().contains(QStringLiteral("uid-web-7f9c-old")), r.out.constData());
    QVERIFY(replaced.value(QStringLiteral("changes")).toArray().isEmpty());
    QCOMPARE(actions.at(1).toObject().value(QStringLiteral("holds")).toBool(false), true);
    const Run text = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"),
        QStringLiteral("--plan"), plan });
    QCOMPARE(text.exitCode, 1);
    QVERIFY2(text.out.contains("pod-replaced"), text.out.constData());
}

void TestCliPlan::planErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString cluster = kPlanData + QStringLiteral("/cluster.json");
    const QString plan = kPlanData + QStringLiteral("/plan.json");
    QTest::newRow("unreadable plan") << QStringList { QStringLiteral("check"), cluster, QStringLiteral("--plan"), kPlanData + QStringLiteral("/none.json") }
                                     << QStringLiteral("none.json: does not exist");
    QTest::newRow("plan is a folder") << QStringList { QStringLiteral("check"), cluster, QStringLiteral("--plan"), kPlanData }
                                      << QStringLiteral("plan: is a folder, not a file");
    QTest::newRow("plan is not a plan") << QStringList { QStringLiteral("check"), cluster, QStringLiteral("--plan"), cluster }
                                        << QStringLiteral("cluster.json: at $: unknown field");
    QTest::newRow("unreadable cluster") << QStringList { QStringLiteral("check"), kPlanData + QStringLiteral("/none.json"), QStringLiteral("--plan"), plan }
                                        << QStringLiteral("none.json");
    QTest::newRow("no plan") << QStringList { QStringLiteral("check"), cluster } << QStringLiteral("--plan PLAN.json is needed");
    QTest::newRow("export without output") << QStringList { QStringLiteral("export"), cluster, QStringLiteral("--plan"), plan }
                                           << QStringLiteral("give --csv OUT.csv or --kubectl-script OUT.sh");
    // Every verb is listed, not two of five.
    QTest::newRow("unknown verb") << QStringList { QStringLiteral("apply"), cluster }
                                  << QStringLiteral("unknown verb \"apply\"; expected check, export, consolidate, place or add-nodes");
    QTest::newRow("unwritable output") << QStringList { QStringLiteral("check"), cluster, QStringLiteral("--plan"), plan, QStringLiteral("-o"),
                                              QStringLiteral("/nonexistent-dir/evaluation.json") }
                                       << QStringLiteral("/nonexistent-dir/evaluation.json: cannot write");
}

void TestCliPlan::planErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = fleetscope(QStringList { QStringLiteral("plan") } + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
}

QTEST_GUILESS_MAIN(TestCliPlan)
#include "tst_cliplan.moc"
