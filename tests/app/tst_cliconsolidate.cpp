// SPDX-License-Identifier: Apache-2.0
// `fleetscope plan consolidate`, run as a user runs it (QProcess, no display) on the plan
// fixtures (tests/data/plan/README.md): the plan it writes holds under `plan check`, its
// summary beats or equals the Karpenter baseline, the nodes that stay say why, node-group
// minimums are kept, and bad command lines and inputs exit 2 without writing a plan.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

#include <map>
#include <set>

#include "fleetscoperun.h"

namespace {

const QString kPlanData = QStringLiteral(FLEET_TEST_DATA_DIR "/plan");
using Run = fleet::tests::FleetscopeRun;

Run fleetscope(const QStringList& args) { return fleet::tests::runFleetscope(args); }

QStringList consolidateArgs(const QString& out, const QStringList& more = {}, const QString& cluster = QStringLiteral("/cluster.json"))
{
    return QStringList { QStringLiteral("plan"), QStringLiteral("consolidate"), kPlanData + cluster, QStringLiteral("--prices"),
               kPlanData + QStringLiteral("/prices.csv"), QStringLiteral("-o"), out }
        + more;
}

QString writeText(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text);
    return path;
}

} // namespace

class TestCliConsolidate : public QObject {
    Q_OBJECT
private slots:
    void writesAPlanThatHolds()
    {
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const Run r = fleetscope(consolidateArgs(plan));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("nodes freed:"), r.out.constData());
        QVERIFY2(r.out.contains("cost per hour saved:"), r.out.constData());
        QVERIFY2(r.out.contains("lower bound:"), r.out.constData());
        QVERIFY2(r.out.contains("baseline (Karpenter emptiness and multi-node consolidation"), r.out.constData());
        // gpu-b2 holds one member of the JobSet train: it stays, and says so.
        QVERIFY2(r.out.contains("gpu-b2: ml/train-workers-0-0 is one member of the gang JobSet ml/train"), r.out.constData());
        const QJsonObject o = QJsonDocument::fromJson([&] {
            QFile f(plan);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }()).object();
        QCOMPARE(o.value(QStringLiteral("fleetscopePlan")).toInt(), 1);
        const QJsonArray actions = o.value(QStringLiteral("actions")).toArray();
        QVERIFY(!actions.isEmpty());
        // Per drained node, the moves of its pods straight to a node that stays, then its drain.
        for (const QJsonValue& a : actions) {
            const QString type = a.toObject().value(QStringLiteral("type")).toString();
            QVERIFY2(type == QLatin1String("drain-node") || type == QLatin1String("move-pod"), qPrintable(type));
        }
        QCOMPARE(actions.last().toObject().value(QStringLiteral("type")).toString(), QStringLiteral("drain-node"));
        const Run check = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"),
            QStringLiteral("--plan"), plan });
        QVERIFY2(check.exitCode == 0, check.out.constData());
    }

    void unpricedNodesAreNamed()
    {
        // Without --prices the shipped table prices gpu-b2 alone: the cost figures count it
        // alone, and plan consolidate and plan check say the three m5 nodes are left out.
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const Run r = fleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), kPlanData + QStringLiteral("/cluster.json"),
            QStringLiteral("--lp-time-limit"), QStringLiteral("0"), QStringLiteral("-o"), plan });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("(3 of 4 nodes have no price") && r.out.contains("left out of the costs"), r.out.constData());
        // The two nodes freed are unpriced: what they save is unknown, not $0.00, and the costs
        // before and after say how many nodes they leave out.
        QVERIFY2(r.out.contains("  cost per hour saved: unknown (2 unpriced nodes freed) (before $32.77 and 3 unpriced nodes, after $32.77 and 1 unpriced node)\n"),
            r.out.constData());
        QVERIFY2(!r.out.contains("$0.00"), r.out.constData());
        const Run check = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"),
            QStringLiteral("--plan"), plan });
        QVERIFY2(check.out.contains("\ncosts: 3 of 4 nodes have no price"), check.out.constData());
        // plan check's totals say what their cost leaves out, and name the pods they count.
        QVERIFY2(check.out.contains(", cost $32.77/h and 3 unpriced nodes\n") && check.out.contains(", cost $32.77/h and 1 unpriced node\n"),
            check.out.constData());
        QVERIFY2(check.out.contains("pods placed 7, evicted with no node 0, DaemonSet and mirror pods removed with their nodes 0, cost"),
            check.out.constData());
        // The header counts what it says it counts.
        QVERIFY2(r.out.contains("(2 drain-node actions, each after the move-pod actions of its node's pods: 3 move-pod actions)"), r.out.constData());
        // Every node priced: no such note.
        const Run priced = fleetscope(consolidateArgs(dir.filePath(QStringLiteral("priced.json")), { QStringLiteral("--lp-time-limit"), QStringLiteral("0") }));
        QVERIFY2(!priced.out.contains("no price"), priced.out.constData());
        // The JSON outputs give the count too.
        const Run json = fleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), kPlanData + QStringLiteral("/cluster.json"),
            QStringLiteral("--lp-time-limit"), QStringLiteral("0"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), plan });
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(json.out).object().value(QStringLiteral("unpricedNodes")).toInt(-1), 3);
        QCOMPARE(QJsonDocument::fromJson(json.out).object().value(QStringLiteral("ours")).toObject().value(QStringLiteral("unpricedNodesFreed")).toInt(-1), 2);
        const Run checkJson = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"),
            QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(QJsonDocument::fromJson(checkJson.out).object().value(QStringLiteral("unpricedNodes")).toInt(-1), 3);
        const Run pricedJson = fleetscope(consolidateArgs(dir.filePath(QStringLiteral("priced.json")),
            { QStringLiteral("--lp-time-limit"), QStringLiteral("0"), QStringLiteral("--format"), QStringLiteral("json") }));
        QCOMPARE(QJsonDocument::fromJson(pricedJson.out).object().value(QStringLiteral("unpricedNodes")).toInt(-1), 0);
    }

    void eachPodMovesOnce()
    {
        // On the simulated fleet the search's drains put pods on nodes that later drains empty.
        // The plan moves each evicted pod once, straight to a node that stays: plan check, which
        // applies it as written, moves no pod twice and none to a node the plan removes, and the
        // summary's pods moved are its evictions.
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        // (At 2,000 nodes the search's drains alone evict 4,138 times for 3,038 pods, 893 of them
        // moved two to five times, 1,100 moves onto nodes drained later.)
        const QStringList fleet { QStringLiteral("--simulate"), QStringLiteral("2000") };
        const Run r = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("consolidate") } + fleet
            + QStringList { QStringLiteral("--lp-time-limit"), QStringLiteral("0"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), plan });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject ours = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("ours")).toObject();
        QVERIFY(ours.value(QStringLiteral("nodesFreed")).toInt() > 100);
        QVERIFY(ours.value(QStringLiteral("podsMoved")).toInt() > 1000);
        QCOMPARE(ours.value(QStringLiteral("evictions")).toInt(-1), ours.value(QStringLiteral("podsMoved")).toInt());
        const Run check = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("check") } + fleet
            + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(check.exitCode == 0, check.out.left(2000).constData());
        const QJsonArray actions = QJsonDocument::fromJson(check.out).object().value(QStringLiteral("actions")).toArray();
        std::map<QString, int> moves;
        std::set<QString> removed, destinations;
        int evictions = 0;
        for (const QJsonValue& v : actions) {
            const QJsonObject a = v.toObject();
            for (const QJsonValue& n : a.value(QStringLiteral("nodesRemoved")).toArray())
                removed.insert(n.toString());
            for (const QJsonValue& c : a.value(QStringLiteral("changes")).toArray()) {
                const QJsonObject change = c.toObject();
                if (change.value(QStringLiteral("from")).isNull())
                    continue; // a pending pod placed first
                ++evictions;
                QVERIFY2(++moves[change.value(QStringLiteral("pod")).toString()] == 1, qPrintable(change.value(QStringLiteral("pod")).toString()));
                destinations.insert(change.value(QStringLiteral("to")).toString());
            }
        }
        QVERIFY(evictions > 0);
        QCOMPARE(evictions, ours.value(QStringLiteral("podsMoved")).toInt());
        for (const QString& to : destinations)
            QVERIFY2(!removed.contains(to), qPrintable(to + " takes a pod and is drained later"));
    }

    void textFiguresAreReadable()
    {
        // The text outputs write counts with thousands separators ("2,000"), dollars to the cent
        // with them ("$4,283.39") and whole GPUs without a decimal ("6,629", not "6629.0"); the
        // JSON outputs keep plain numbers.
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const QStringList fleet { QStringLiteral("--simulate"), QStringLiteral("2000") };
        const Run r = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("consolidate") } + fleet
            + QStringList { QStringLiteral("--lp-time-limit"), QStringLiteral("0"), QStringLiteral("-o"), plan });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString text = QString::fromUtf8(r.out);
        const QRegularExpression bareNumber(QStringLiteral("(?<![\\d.,])\\d{4,}"));
        const QRegularExpression oneDecimalGpus(QStringLiteral("allocated [\\d,]+\\.0\\)"));
        int figureLines = 0;
        for (const QString& line : text.split(QLatin1Char('\n'))) {
            static const QStringList figures { QStringLiteral("  nodes freed:"), QStringLiteral("  pods moved:"), QStringLiteral("  cost per hour saved:"),
                QStringLiteral("  lower bound:"), QStringLiteral("  baseline ("), QStringLiteral("  nodes that stay:") };
            if (std::none_of(figures.begin(), figures.end(), [&](const QString& f) { return line.startsWith(f); }))
                continue;
            ++figureLines;
            QVERIFY2(!bareNumber.match(line).hasMatch(), qPrintable(line));
        }
        QCOMPARE(figureLines, 6);
        QVERIFY2(QRegularExpression(QStringLiteral("  nodes freed: +\\d{1,3}(,\\d{3})* \\(of 2,000; \\d{1,3}(,\\d{3})* after\\)\n")).match(text).hasMatch(),
            qPrintable(text.left(3000)));
        QVERIFY2(QRegularExpression(QStringLiteral("  pods moved: +\\d{1,3},\\d{3}")).match(text).hasMatch(), qPrintable(text.left(3000)));
        QVERIFY2(QRegularExpression(QStringLiteral("  cost per hour saved: \\$\\d{1,3}(,\\d{3})*\\.\\d\\d \\(before \\$\\d{1,3},\\d{3}\\.\\d\\d, after \\$"))
                     .match(text)
                     .hasMatch(),
            qPrintable(text.left(3000)));
        const Run check = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("check") } + fleet + QStringList { QStringLiteral("--plan"), plan });
        const QString checked = QString::fromUtf8(check.out);
        int totals = 0;
        for (const QString& line : checked.split(QLatin1Char('\n'))) {
            if (!line.startsWith(QStringLiteral("before: ")) && !line.startsWith(QStringLiteral("after: ")))
                continue;
            ++totals;
            QVERIFY2(!bareNumber.match(line).hasMatch(), qPrintable(line));
            QVERIFY2(!oneDecimalGpus.match(line).hasMatch(), qPrintable(line));
            QVERIFY2(QRegularExpression(QStringLiteral(", cost \\$\\d{1,3}(,\\d{3})*\\.\\d\\d/h$")).match(line).hasMatch(), qPrintable(line));
        }
        QCOMPARE(totals, 2);
        QVERIFY2(checked.contains(QStringLiteral("before: nodes 2,000 (in use ")), qPrintable(checked.right(2000)));
        // JSON: plain numbers.
        const Run json = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("check") } + fleet
            + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") });
        const QJsonObject before = QJsonDocument::fromJson(json.out).object().value(QStringLiteral("before")).toObject();
        QCOMPARE(before.value(QStringLiteral("nodes")).toInteger(), 2000);
        // The GPU total is named for what it counts (allocatable nvidia.com/gpu, the Plan dock's),
        // with JSON's figure, so it is not read as the status bar's physical devices.
        QVERIFY2(checked.contains(QStringLiteral("), GPUs (allocatable nvidia.com/gpu) %1 (allocated ")
                                      .arg(QLocale(QLocale::English).toString(before.value(QStringLiteral("gpus")).toInteger()))),
            qPrintable(checked.right(2000)));
    }

    void pendingPodsPlacedOnceAtTheirFinalNode_data()
    {
        QTest::addColumn<QString>("seed");
        QTest::newRow("seed 1") << QStringLiteral("1");
        QTest::newRow("seed 2") << QStringLiteral("2");
        QTest::newRow("seed 3") << QStringLiteral("3");
    }

    void pendingPodsPlacedOnceAtTheirFinalNode()
    {
        // The search places the pending pods first, then drains; a drain of the node a pending
        // pod was first put on would move it again. The plan places each pending pod on the node
        // it ends on: plan check, which applies the plan as written, finds every action holding
        // and no pod in the changes of more than one action, placements of pending pods included.
        QFETCH(QString, seed);
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const QStringList fleet { QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--seed"), seed };
        const Run r = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("consolidate") } + fleet
            + QStringList { QStringLiteral("--lp-time-limit"), QStringLiteral("0"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), plan });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject ours = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("ours")).toObject();
        QVERIFY(ours.value(QStringLiteral("pendingPlaced")).toInt() > 0);
        const Run check = fleetscope(QStringList { QStringLiteral("plan"), QStringLiteral("check") } + fleet
            + QStringList { QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY2(check.exitCode == 0, check.out.left(2000).constData());
        const QJsonObject evaluation = QJsonDocument::fromJson(check.out).object();
        QVERIFY(evaluation.value(QStringLiteral("holds")).toBool());
        std::map<QString, int> actionsOfPod;
        int pendingPlacements = 0;
        for (const QJsonValue& v : evaluation.value(QStringLiteral("actions")).toArray()) {
            const QJsonObject a = v.toObject();
            QVERIFY2(a.value(QStringLiteral("holds")).toBool(), qPrintable(QString::number(a.value(QStringLiteral("index")).toInt())));
            std::set<QString> pods;
            for (const QJsonValue& c : a.value(QStringLiteral("changes")).toArray()) {
                const QJsonObject change = c.toObject();
                pendingPlacements += change.value(QStringLiteral("from")).isNull() ? 1 : 0;
                pods.insert(change.value(QStringLiteral("pod")).toString());
            }
            for (const QString& pod : pods)
                QVERIFY2(++actionsOfPod[pod] == 1, qPrintable(pod + " moves in more than one action"));
        }
        QCOMPARE(pendingPlacements, ours.value(QStringLiteral("pendingPlaced")).toInt());
    }

    void severalRegionsGetANote()
    {
        // A fleet over four regions without --keep-within: a note on stderr suggests the region
        // label; with it, or in one region, none.
        QTemporaryDir dir;
        const QStringList simulated { QStringLiteral("plan"), QStringLiteral("consolidate"), QStringLiteral("--simulate"), QStringLiteral("50"),
            QStringLiteral("--seed"), QStringLiteral("3"), QStringLiteral("--lp-time-limit"), QStringLiteral("0"), QStringLiteral("-o"),
            dir.filePath(QStringLiteral("plan.json")) };
        const Run four = fleetscope(simulated + QStringList { QStringLiteral("--regions"), QStringLiteral("4") });
        QCOMPARE(four.exitCode, 0);
        QVERIFY2(four.err.contains("note: the nodes span 4 regions") && four.err.contains("give --keep-within topology.kubernetes.io/region"),
            four.err.constData());
        const Run kept = fleetscope(simulated
            + QStringList { QStringLiteral("--regions"), QStringLiteral("4"), QStringLiteral("--keep-within"), QStringLiteral("topology.kubernetes.io/region") });
        QCOMPARE(kept.exitCode, 0);
        QVERIFY2(!kept.err.contains("regions"), kept.err.constData());
        const Run one = fleetscope(simulated);
        QCOMPARE(one.exitCode, 0);
        QVERIFY2(!one.err.contains("regions"), one.err.constData());
    }

    void keepWithinZone()
    {
        // Every drain-node action names its node's zone, and the plan, read back, still holds
        // (plan check re-applies each drain inside its domain).
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const Run r = fleetscope(consolidateArgs(plan, { QStringLiteral("--keep-within"), QStringLiteral("topology.kubernetes.io/zone") }));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray actions = QJsonDocument::fromJson([&] {
            QFile f(plan);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }()).object().value(QStringLiteral("actions")).toArray();
        QVERIFY(!actions.isEmpty());
        for (const QJsonValue& a : actions) {
            if (a.toObject().value(QStringLiteral("type")).toString() != QLatin1String("drain-node"))
                continue; // a move-pod names its destination, in the zone
            const QString domain = a.toObject().value(QStringLiteral("domain")).toString();
            QVERIFY2(domain.contains(QLatin1String("topology.kubernetes.io/zone=")), qPrintable(domain));
        }
        const Run check = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster.json"),
            QStringLiteral("--plan"), plan });
        QVERIFY2(check.exitCode == 0, check.out.constData());
    }

    void jsonSummaryAgainstTheBaseline()
    {
        QTemporaryDir dir;
        const Run r = fleetscope(consolidateArgs(dir.filePath(QStringLiteral("plan.json")), { QStringLiteral("--format"), QStringLiteral("json") }));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject ours = o.value(QStringLiteral("ours")).toObject(), base = o.value(QStringLiteral("baseline")).toObject();
        QVERIFY2(!ours.isEmpty() && !base.isEmpty(), r.out.constData());
        QVERIFY(ours.value(QStringLiteral("nodesFreed")).toInt() >= base.value(QStringLiteral("nodesFreed")).toInt());
        QVERIFY(ours.value(QStringLiteral("costPerHourSaved")).toDouble() >= base.value(QStringLiteral("costPerHourSaved")).toDouble());
        // cpu-b1 holds only its DaemonSet pod: it goes or takes the others' pods; either way >= 1 node and $0.50/h.
        QVERIFY(ours.value(QStringLiteral("nodesFreed")).toInt() >= 1);
        QVERIFY(ours.value(QStringLiteral("costPerHourSaved")).toDouble() >= 0.5 - 1e-9);
        const QJsonObject bound = o.value(QStringLiteral("lowerBound")).toObject();
        QVERIFY(bound.value(QStringLiteral("nodes")).toInt() >= 1);
        QVERIFY(bound.value(QStringLiteral("ratio")).toDouble() >= 1.0);
        bool gangKept = false;
        for (const QJsonValue& k : o.value(QStringLiteral("kept")).toArray())
            gangKept |= k.toObject().value(QStringLiteral("node")).toString() == QLatin1String("gpu-b2")
                && k.toObject().value(QStringLiteral("code")).toString() == QLatin1String("gang-member");
        QVERIFY(gangKept);
        // The nodes that stay, grouped by reason code with counts that add up; each entry's pod
        // is the one its message names.
        std::map<QString, int> byCode;
        const QJsonArray kept = o.value(QStringLiteral("kept")).toArray();
        for (const QJsonValue& k : kept) {
            QString code = k.toObject().value(QStringLiteral("code")).toString();
            if (code.startsWith(QLatin1String("disruption-budget:")))
                code = QStringLiteral("disruption-budget:*"); // a budget's nodes are grouped by the kind
            ++byCode[code];
            const QString pod = k.toObject().value(QStringLiteral("pod")).toString();
            if (!pod.isEmpty())
                QVERIFY2(k.toObject().value(QStringLiteral("message")).toString().contains(pod), qPrintable(k.toObject().value(QStringLiteral("message")).toString()));
        }
        int total = 0;
        for (const QJsonValue& g : o.value(QStringLiteral("keptByCode")).toArray()) {
            const QString code = g.toObject().value(QStringLiteral("code")).toString();
            QCOMPARE(g.toObject().value(QStringLiteral("nodes")).toInt(), byCode[code]);
            total += g.toObject().value(QStringLiteral("nodes")).toInt();
        }
        QCOMPARE(total, kept.size());
        QVERIFY(total > 0);
    }

    void noFeasibleNodeNamesItsBlockingFilter()
    {
        // On the simulated fleet pods wait for a node pool of their own: "no node passes every
        // filter" names the filter that turns most nodes away, per entry and per group, in
        // text and JSON alike.
        QTemporaryDir dir;
        const QStringList args { QStringLiteral("plan"), QStringLiteral("consolidate"), QStringLiteral("--simulate"), QStringLiteral("300"),
            QStringLiteral("-o"), dir.filePath(QStringLiteral("plan.json")) };
        const Run json = fleetscope(args + QStringList { QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        int entries = 0;
        std::map<QString, int> byBlocking;
        for (const QJsonValue& v : o.value(QStringLiteral("kept")).toArray()) {
            const QJsonObject k = v.toObject();
            if (k.value(QStringLiteral("code")).toString() != QLatin1String("no-feasible-node"))
                continue;
            ++entries;
            const QJsonObject b = k.value(QStringLiteral("blockingFilter")).toObject();
            const QString code = b.value(QStringLiteral("code")).toString();
            QVERIFY2(!code.isEmpty(), qPrintable(k.value(QStringLiteral("message")).toString()));
            QVERIFY(b.value(QStringLiteral("nodes")).toInt() > 0);
            QVERIFY(b.value(QStringLiteral("nodes")).toInt() <= b.value(QStringLiteral("of")).toInt());
            // The message says what the fields say.
            const bool sampled = b.value(QStringLiteral("judged")).toInt() < b.value(QStringLiteral("of")).toInt();
            QVERIFY2(k.value(QStringLiteral("message")).toString().contains(QStringLiteral("the most common blocking filter: %1 (rejects %2%3 of %4 other nodes")
                                                                          .arg(code, sampled ? QStringLiteral("about ") : QString())
                                                                          .arg(b.value(QStringLiteral("nodes")).toInt())
                                                                          .arg(b.value(QStringLiteral("of")).toInt())),
                qPrintable(k.value(QStringLiteral("message")).toString()));
            QVERIFY(k.value(QStringLiteral("message")).toString().startsWith(k.value(QStringLiteral("pod")).toString() + u':'));
            ++byBlocking[code];
        }
        QVERIFY2(entries > 0, "the simulated fleet keeps nodes whose pods no node takes");
        // The LP bound beside the volume bound, and the plan's ratio to the better of the two.
        const QJsonObject lp = o.value(QStringLiteral("lpBound")).toObject();
        QCOMPARE(lp.value(QStringLiteral("status")).toString(), QStringLiteral("optimal"));
        const int better = std::max(lp.value(QStringLiteral("nodes")).toInt(), o.value(QStringLiteral("lowerBound")).toObject().value(QStringLiteral("nodes")).toInt());
        QVERIFY(better > 0);
        QCOMPARE(o.value(QStringLiteral("ratioToBetterBound")).toDouble(),
            o.value(QStringLiteral("ours")).toObject().value(QStringLiteral("nodesAfter")).toDouble() / better);
        const auto most = std::max_element(byBlocking.begin(), byBlocking.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        bool grouped = false;
        for (const QJsonValue& g : o.value(QStringLiteral("keptByCode")).toArray())
            if (g.toObject().value(QStringLiteral("code")).toString() == QLatin1String("no-feasible-node")) {
                const QJsonObject b = g.toObject().value(QStringLiteral("blockingFilter")).toObject();
                QCOMPARE(b.value(QStringLiteral("code")).toString(), most->first);
                QCOMPARE(b.value(QStringLiteral("entries")).toInt(), most->second);
                grouped = true;
            }
        QVERIFY(grouped);
        const Run text = fleetscope(args);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QStringLiteral("most common blocking filter: %1 for %2 of %3 entries").arg(most->first).arg(most->second).arg(entries).toUtf8()),
            text.out.constData());
        QVERIFY2(text.out.contains(QStringLiteral("  LP bound:           %1 nodes (COIN-OR Clp, ").arg(lp.value(QStringLiteral("nodes")).toInt()).toUtf8()),
            text.out.constData());
        const Run skipped = fleetscope(args + QStringList { QStringLiteral("--lp-time-limit"), QStringLiteral("0") });
        QCOMPARE(skipped.exitCode, 0);
        QVERIFY2(skipped.out.contains("  LP bound:           none (skipped (--lp-time-limit 0)"), skipped.out.constData());
    }

    void maxMovesZeroMovesNothing()
    {
        QTemporaryDir dir;
        const Run r = fleetscope(consolidateArgs(dir.filePath(QStringLiteral("plan.json")),
            { QStringLiteral("--max-moves"), QStringLiteral("0"), QStringLiteral("--format"), QStringLiteral("json") }));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject ours = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("ours")).toObject();
        QCOMPARE(ours.value(QStringLiteral("podsMoved")).toInt(), 0);
        QCOMPARE(ours.value(QStringLiteral("nodesFreed")).toInt(), 1); // cpu-b1, empty
    }

    // --max-moves counts the pods the drains move off their nodes (the JSON's evictions), not the
    // pending pods placed first (a trial read "at most N pods moved in all" and found 55
    // placements beside 20 moves); the help says so, and docs/cli.md's copy of the help too.
    void maxMovesCountsTheDrainsMovesOnly()
    {
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const Run r = fleetscope(consolidateArgs(plan, { QStringLiteral("--max-moves"), QStringLiteral("0"), QStringLiteral("--format"), QStringLiteral("json") },
            QStringLiteral("/cluster-pending.json")));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject ours = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("ours")).toObject();
        QVERIFY2(ours.value(QStringLiteral("pendingPlaced")).toInt() > 0, r.out.constData());
        QCOMPARE(ours.value(QStringLiteral("evictions")).toInt(), 0);
        QCOMPARE(ours.value(QStringLiteral("podsMoved")).toInt(), 0);

        const Run help = fleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        // The option's description, its wrapped lines made one.
        auto described = [](const QString& text) {
            const QStringList lines = text.split(QLatin1Char('\n'));
            QString out;
            bool in = false;
            for (const QString& line : lines) {
                if (line.trimmed().startsWith(QStringLiteral("--max-moves <N>"))) {
                    in = true;
                    out = line.trimmed().mid(QStringLiteral("--max-moves <N>").size());
                } else if (in && (line.trimmed().startsWith(QStringLiteral("--")) || line.trimmed().isEmpty() || line.startsWith(QStringLiteral("```")))) {
                    break;
                } else if (in) {
                    out += QLatin1Char(' ') + line;
                }
            }
            return out.simplified();
        };
        const QString option = described(QString::fromUtf8(help.out));
        QVERIFY2(option.contains(QStringLiteral("evictions")), qPrintable(option));
        QVERIFY2(option.contains(QStringLiteral("The pending pods the plan places first do not count")), qPrintable(option));
        QFile cli(QStringLiteral(FLEET_TEST_DATA_DIR "/../../docs/cli.md"));
        QVERIFY(cli.open(QIODevice::ReadOnly));
        QCOMPARE(described(QString::fromUtf8(cli.readAll())), option);
        QFile whatIf(QStringLiteral(FLEET_TEST_DATA_DIR "/../../docs/what-if.md"));
        QVERIFY(whatIf.open(QIODevice::ReadOnly));
        const QString guide = QString::fromUtf8(whatIf.readAll()).simplified();
        QVERIFY2(guide.contains(QStringLiteral("`--max-moves N` caps the pods the drains move off their nodes")), "docs/what-if.md");
    }

    void nodeGroupMinimum()
    {
        // Every CPU node in one group of minimum 3: none of them may go.
        QTemporaryDir dir;
        const QString groups = writeText(dir, QStringLiteral("groups.yaml"),
            "nodeGroups:\n  - label: eks.amazonaws.com/nodegroup\n    name: cpu\n    minSize: 3\n");
        const Run r = fleetscope(consolidateArgs(dir.filePath(QStringLiteral("plan.json")),
            { QStringLiteral("--node-groups"), groups, QStringLiteral("--format"), QStringLiteral("json") }, QStringLiteral("/cluster-nodegroups.json")));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("ours")).toObject().value(QStringLiteral("nodesFreed")).toInt(), 0);
        bool said = false;
        for (const QJsonValue& k : o.value(QStringLiteral("kept")).toArray())
            said |= k.toObject().value(QStringLiteral("code")).toString() == QLatin1String("node-group-minimum:eks.amazonaws.com/nodegroup=cpu");
        QVERIFY2(said, r.out.constData());
    }

    void policyChoosesTheTargets_data()
    {
        // cluster-prepaid.json: cpu-b1 (8 cpu, empty) and cpu-b3 (8 cpu, fill-0 holds 5 cpu and
        // 20Gi) are prepaid, so they stay as destinations; draining cpu-a1 sends its two 1-cpu web
        // pods to the emptier cpu-b1 (LeastAllocated) or to the fuller cpu-b3 (MostAllocated; the
        // default best fit too, the least free after placing).
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("webTarget");
        QTest::newRow("default") << QStringLiteral("default") << QStringLiteral("cpu-b3");
        QTest::newRow("LeastAllocated") << QStringLiteral("LeastAllocated") << QStringLiteral("cpu-b1");
        QTest::newRow("MostAllocated") << QStringLiteral("MostAllocated") << QStringLiteral("cpu-b3");
    }
    void policyChoosesTheTargets()
    {
        QFETCH(QString, policy);
        QFETCH(QString, webTarget);
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const Run r = fleetscope(consolidateArgs(plan, { QStringLiteral("--policy"), policy, QStringLiteral("--format"), QStringLiteral("json") },
            QStringLiteral("/cluster-prepaid.json")));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("ours")).toObject().value(QStringLiteral("nodesFreed")).toInt(), 2); // cpu-a1 and cpu-a2
        QFile planFile(plan);
        QVERIFY(planFile.open(QIODevice::ReadOnly));
        const QJsonArray actions = QJsonDocument::fromJson(planFile.readAll()).object().value(QStringLiteral("actions")).toArray();
        // Per drained node, its pods' moves straight to their node (2 web pods, 1 of cpu-a2), then its drain.
        int drains = 0;
        for (const QJsonValue& a : actions) { // the default is written as no policy
            if (a.toObject().value(QStringLiteral("type")).toString() != QLatin1String("drain-node"))
                continue;
            ++drains;
            QCOMPARE(a.toObject().value(QStringLiteral("policy")).toString(), policy == QLatin1String("default") ? QString() : policy);
        }
        QCOMPARE(drains, 2);
        // Where the pods went, as `plan check` re-applies the plan.
        const QString evaluation = dir.filePath(QStringLiteral("evaluation.json"));
        const Run check = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), kPlanData + QStringLiteral("/cluster-prepaid.json"),
            QStringLiteral("--plan"), plan, QStringLiteral("-o"), evaluation });
        QVERIFY2(check.exitCode == 0, check.out.constData());
        QFile evalFile(evaluation);
        QVERIFY(evalFile.open(QIODevice::ReadOnly));
        int webPods = 0;
        for (const QJsonValue& a : QJsonDocument::fromJson(evalFile.readAll()).object().value(QStringLiteral("actions")).toArray())
            for (const QJsonValue& c : a.toObject().value(QStringLiteral("changes")).toArray()) {
                const QJsonObject change = c.toObject();
                if (!change.value(QStringLiteral("pod")).toString().contains(QLatin1String("web-7f9c")))
                    continue;
                ++webPods;
                QCOMPARE(change.value(QStringLiteral("to")).toString(), webTarget);
            }
        QCOMPARE(webPods, 2);
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("max-moves") << QStringList { QStringLiteral("--max-moves"), QStringLiteral("many") } << QByteArray("--max-moves: expected a whole number");
        QTest::newRow("policy") << QStringList { QStringLiteral("--policy"), QStringLiteral("FGD") }
                                << QByteArray("--policy: unknown policy \"FGD\" (known: default, LeastAllocated, MostAllocated, BestFit, GpuPacking, GpuClustering, DotProduct)");
        QTest::newRow("keep-within") << QStringList { QStringLiteral("--keep-within"), QStringLiteral("example.com/rack") }
                                     << QByteArray("--keep-within: \"example.com/rack\" is not a topology level (levels: topology.kubernetes.io/region");
        // Given, --keep-within is a label key: an empty one was silently no constraint.
        QTest::newRow("keep-within empty") << QStringList { QStringLiteral("--keep-within=") }
                                           << QByteArray("--keep-within: an empty label key; give a topology level's label key, e.g. topology.kubernetes.io/zone");
        QTest::newRow("keep-within not a key") << QStringList { QStringLiteral("--keep-within"), QStringLiteral("zone/") }
                                               << QByteArray("--keep-within: \"zone/\" is not a label key: the name after '/' is empty");
        QTest::newRow("groups file") << QStringList { QStringLiteral("--node-groups"), QStringLiteral("@BAD@") } << QByteArray("at $.nodeGroups[0].minSize");
        QTest::newRow("missing groups") << QStringList { QStringLiteral("--node-groups"), QStringLiteral("/nonexistent/groups.yaml") }
                                        << QByteArray("/nonexistent/groups.yaml: does not exist");
        QTest::newRow("groups folder") << QStringList { QStringLiteral("--node-groups"), QStringLiteral("@DIR@") } << QByteArray(": is a folder, not a file");
        // Two minimums for one group (the reader took the last) or a key twice: refused.
        QTest::newRow("minSize twice") << QStringList { QStringLiteral("--node-groups"), QStringLiteral("@TWICE@") }
                                       << QByteArray("line 4: nodeGroups[0].minSize: the key \"minSize\" is given twice in one mapping (lines 3 and 4)");
        QTest::newRow("group twice") << QStringList { QStringLiteral("--node-groups"), QStringLiteral("@GROUP-TWICE@") }
                                     << QByteArray("at $.nodeGroups[1]: the node group eks.amazonaws.com/nodegroup=cpu is given twice");
        // --time-limit is range-checked like every number: nan, inf and a deadline past what the
        // clock can hold (the search stopped at once, "stopped at --time-limit") are refused.
        for (const char* t : { "inf", "nan", "-inf", "9.3e9", "1e300", "0", "-1", "31536001" })
            QTest::addRow("time-limit %s", t) << QStringList { QStringLiteral("--time-limit=") + QString::fromLatin1(t) }
                                              << QByteArray("--time-limit: expected seconds from above 0 to 31536000 (a year), got \"") + t + "\"";
    }
    void errors()
    {
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, message);
        QTemporaryDir dir;
        const QString bad = writeText(dir, QStringLiteral("bad.yaml"), "nodeGroups:\n  - name: cpu\n    minSize: -1\n");
        const QString twice = writeText(dir, QStringLiteral("twice.yaml"), "nodeGroups:\n  - name: cpu\n    minSize: 2\n    minSize: 0\n");
        const QString groupTwice = writeText(dir, QStringLiteral("group-twice.yaml"),
            "nodeGroups:\n  - {name: cpu, minSize: 2}\n  - {name: cpu, minSize: 0}\n");
        for (QString& e : extra)
            if (e == QLatin1String("@BAD@"))
                e = bad;
            else if (e == QLatin1String("@DIR@"))
                e = dir.path();
            else if (e == QLatin1String("@TWICE@"))
                e = twice;
            else if (e == QLatin1String("@GROUP-TWICE@"))
                e = groupTwice;
        const QString plan = dir.filePath(QStringLiteral("plan.json"));
        const Run r = fleetscope(consolidateArgs(plan, extra));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), r.err.constData());
        QVERIFY(!QFile::exists(plan));
    }

    void needsAnOutput()
    {
        const Run r = fleetscope({ QStringLiteral("plan"), QStringLiteral("consolidate"), kPlanData + QStringLiteral("/cluster.json") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("-o PLAN.json is needed"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliConsolidate)
#include "tst_cliconsolidate.moc"
