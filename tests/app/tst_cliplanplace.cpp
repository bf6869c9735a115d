// SPDX-License-Identifier: Apache-2.0
// `fleetscope plan place` run as a user runs it (QProcess, no display) on the simulated fleet:
// a gang placed in one network-node-layer-1 domain and its plan re-checked by `plan check`
// (the template pod comes from the plan), a YAML pod template with its tolerations, a gang that
// does not fit (exit 1, the per-level explanation, no plan written), --keep-within on the
// four-region fleet (a gang no region holds spreads over regions without it, is refused with
// it), and wrong command lines.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "fleetscoperun.h"

namespace {

using Run = fleet::tests::FleetscopeRun;

const QString kL1 = QStringLiteral("topology.k8s.aws/network-node-layer-1");
const QString kL3 = QStringLiteral("topology.k8s.aws/network-node-layer-3");
const QString kRegion = QStringLiteral("topology.kubernetes.io/region");
const QString kZone = QStringLiteral("topology.kubernetes.io/zone");

Run fleetscope(const QStringList& args) { return fleet::tests::runFleetscope(args); }

QStringList place(const QStringList& more)
{
    return QStringList { QStringLiteral("plan"), QStringLiteral("place"), QStringLiteral("--simulate"), QStringLiteral("2000") } + more;
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

} // namespace

class TestCliPlanPlace : public QObject {
    Q_OBJECT
private slots:
    void placesAGangAndPlanCheckRechecksIt();
    void podTemplateYaml();
    void gangThatDoesNotFit();
    void keepWithinRegion();
    void errors_data();
    void errors();
};

void TestCliPlanPlace::placesAGangAndPlanCheckRechecksIt()
{
    QTemporaryDir dir;
    const QString plan = dir.filePath(QStringLiteral("plan.json"));
    const Run r = fleetscope(place({ QStringLiteral("--pods"), QStringLiteral("4"), QStringLiteral("--cpu"), QStringLiteral("1"),
        QStringLiteral("--memory"), QStringLiteral("4Gi"), QStringLiteral("--gpu"), QStringLiteral("8"), QStringLiteral("--required-level"), kL1,
        QStringLiteral("--name"), QStringLiteral("train"), QStringLiteral("-o"), plan }));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.startsWith("placed 4 of 4 pods like default/train at level " + kL1.toUtf8()), r.out.constData());
    QVERIFY(r.out.contains(" pods on "));
    const QJsonObject doc = readJson(plan);
    QCOMPARE(doc.value(QStringLiteral("fleetscopePlan")).toInt(), 1);
    const QJsonObject action = doc.value(QStringLiteral("actions")).toArray().at(0).toObject();
    QCOMPARE(action.value(QStringLiteral("type")).toString(), QStringLiteral("place-pods"));
    QCOMPARE(action.value(QStringLiteral("count")).toInt(), 4);
    QCOMPARE(action.value(QStringLiteral("requiredLevel")).toString(), kL1);
    QCOMPARE(action.value(QStringLiteral("podTemplate")).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("Pod"));
    // plan check on the same state: the template is not in it; the plan brings it.
    const Run check = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("--plan"), plan, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(check.exitCode == 0, check.err.constData());
    const QJsonObject eval = QJsonDocument::fromJson(check.out).object();
    QVERIFY(eval.value(QStringLiteral("holds")).toBool());
    const QJsonArray changes = eval.value(QStringLiteral("actions")).toArray().at(0).toObject().value(QStringLiteral("changes")).toArray();
    QCOMPARE(changes.size(), 4);
    QCOMPARE(changes.at(0).toObject().value(QStringLiteral("pod")).toString(), QStringLiteral("default/train-0"));
    QVERIFY(changes.at(0).toObject().value(QStringLiteral("from")).isNull());
}

void TestCliPlanPlace::podTemplateYaml()
{
    QTemporaryDir dir;
    const QString pod = dir.filePath(QStringLiteral("pod.yaml"));
    {
        QFile f(pod);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: v1\nkind: Pod\nmetadata:\n  namespace: ml\n  name: worker\nspec:\n  tolerations:\n"
                "  - key: nvidia.com/gpu\n    operator: Exists\n    effect: NoSchedule\n  containers:\n  - name: main\n"
                "    resources:\n      requests:\n        cpu: 2\n        memory: 8Gi\n        nvidia.com/gpu: 8\n"
                "      limits:\n        nvidia.com/gpu: 8\n");
    }
    const QString plan = dir.filePath(QStringLiteral("plan.json"));
    Run r = fleetscope(place({ QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--pod-template"), pod,
        QStringLiteral("--preferred-level"), kL3, QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"), plan }));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(out.value(QStringLiteral("placed")).toInt(), 2);
    QVERIFY(!out.value(QStringLiteral("level")).toString().isEmpty());
    QVERIFY(QFile::exists(plan));
    // Without the toleration, no GPU node takes it: the explanation names the taint.
    QFile f(pod);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray text = f.readAll();
    f.close();
    text.replace("nvidia.com/gpu\n    operator", "example.com/other\n    operator");
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
    f.close();
    r = fleetscope(place({ QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--pod-template"), pod, QStringLiteral("--required-level"),
        kL1, QStringLiteral("-o"), dir.filePath(QStringLiteral("none.json")) }));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.contains("untolerated-taint:nvidia.com/gpu"), r.out.constData());
}

void TestCliPlanPlace::gangThatDoesNotFit()
{
    QTemporaryDir dir;
    const QString plan = dir.filePath(QStringLiteral("plan.json"));
    const Run r = fleetscope(place({ QStringLiteral("--pods"), QStringLiteral("3200"), QStringLiteral("--cpu"), QStringLiteral("1"),
        QStringLiteral("--memory"), QStringLiteral("4Gi"), QStringLiteral("--gpu"), QStringLiteral("8"), QStringLiteral("--required-level"), kL1,
        QStringLiteral("--slice-size"), QStringLiteral("16"), QStringLiteral("--slice-level"), kL3, QStringLiteral("-o"), plan }));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.contains("do not fit (a gang: all or nothing; nothing placed)"), r.out.constData());
    QVERIFY(r.out.contains("topology-domain:" + kL1.toUtf8() + ": no " + kL1.toUtf8() + " domain holds 200 slices of 16 pods: the closest, "));
    QVERIFY(r.out.contains("lacks "));
    QVERIFY(!QFile::exists(plan));
}

void TestCliPlanPlace::keepWithinRegion()
{
    // The four-region fleet: several clusters' worth of nodes, so that a placement can cross a
    // region. Whole-node pods (8 GPUs each).
    const QStringList fleet { QStringLiteral("plan"), QStringLiteral("place"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("--regions"), QStringLiteral("4"), QStringLiteral("--cpu"), QStringLiteral("1"), QStringLiteral("--memory"),
        QStringLiteral("4Gi"), QStringLiteral("--gpu"), QStringLiteral("8"), QStringLiteral("--format"), QStringLiteral("json") };
    QTemporaryDir dir;
    const QString plan = dir.filePath(QStringLiteral("plan.json"));
    // The most pods one region holds: a required region level without gang places that many.
    const Run most = fleetscope(fleet + QStringList { QStringLiteral("--pods"), QStringLiteral("1000000"), QStringLiteral("--required-level"),
                                            kRegion, QStringLiteral("--no-gang"), QStringLiteral("-o"), plan });
    QVERIFY2(most.exitCode == 1, most.err.constData()); // not all placed
    const int regionHolds = QJsonDocument::fromJson(most.out).object().value(QStringLiteral("placed")).toInt();
    QVERIFY2(regionHolds > 0, most.out.constData());
    const QStringList gang { QStringLiteral("--pods"), QString::number(regionHolds + 1), QStringLiteral("--preferred-level"), kZone,
        QStringLiteral("-o"), plan };

    // Without --keep-within, one pod more than a region holds spreads over regions.
    QFile::remove(plan);
    const Run spread = fleetscope(fleet + gang);
    QVERIFY2(spread.exitCode == 0, spread.out.constData());
    const QJsonObject s = QJsonDocument::fromJson(spread.out).object();
    QCOMPARE(s.value(QStringLiteral("level")).toString(), kRegion);
    QVERIFY2(s.value(QStringLiteral("domains")).toArray().size() >= 2, spread.out.constData());
    // Which plan consolidate's note says on standard error, in the same words.
    QVERIFY2(spread.err.contains("fleetscope plan place: note: the nodes span 4 regions")
            && spread.err.contains("give --keep-within topology.kubernetes.io/region"),
        spread.err.constData());

    // With it, a gang stays in one region or is not placed: here it does not fit, and says why.
    QFile::remove(plan);
    const Run kept = fleetscope(fleet + gang + QStringList { QStringLiteral("--keep-within"), kRegion });
    QCOMPARE(kept.exitCode, 1);
    QVERIFY2(!kept.err.contains("regions"), kept.err.constData());
    const QJsonObject k = QJsonDocument::fromJson(kept.out).object();
    QCOMPARE(k.value(QStringLiteral("placed")).toInt(), 0);
    QVERIFY2(kept.out.contains("topology-domain:" + kRegion.toUtf8()), kept.out.constData());
    QVERIFY(!QFile::exists(plan));

    // One pod fewer fits in one region; the plan keeps the rule, and plan check re-applies it.
    const QStringList fits { QStringLiteral("--pods"), QString::number(regionHolds), QStringLiteral("--preferred-level"), kZone,
        QStringLiteral("--keep-within"), kRegion, QStringLiteral("-o"), plan };
    const Run one = fleetscope(fleet + fits);
    QVERIFY2(one.exitCode == 0, one.out.constData());
    QCOMPARE(QJsonDocument::fromJson(one.out).object().value(QStringLiteral("domains")).toArray().size(), 1);
    QCOMPARE(readJson(plan).value(QStringLiteral("actions")).toArray().at(0).toObject().value(QStringLiteral("keepWithin")).toString(), kRegion);
    const Run check = fleetscope({ QStringLiteral("plan"), QStringLiteral("check"), QStringLiteral("--simulate"), QStringLiteral("2000"),
        QStringLiteral("--regions"), QStringLiteral("4"), QStringLiteral("--plan"), plan });
    QVERIFY2(check.exitCode == 0, check.out.constData());
}

void TestCliPlanPlace::errors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QStringList shape { QStringLiteral("--cpu"), QStringLiteral("1"), QStringLiteral("--memory"), QStringLiteral("1Gi") };
    QTest::newRow("no pods") << (shape + QStringList { QStringLiteral("-o"), QStringLiteral("p.json") }) << QStringLiteral("--pods N is needed");
    QTest::newRow("shape and template")
        << (shape + QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--pod-template"), QStringLiteral("x.json"), QStringLiteral("-o"), QStringLiteral("p.json") })
        << QStringLiteral("give either --cpu");
    QTest::newRow("slice does not divide")
        << (shape + QStringList { QStringLiteral("--pods"), QStringLiteral("5"), QStringLiteral("--slice-size"), QStringLiteral("2"), QStringLiteral("--slice-level"), kL3, QStringLiteral("-o"), QStringLiteral("p.json") })
        << QStringLiteral("the slice size 2 does not divide the 5 pods");
    QTest::newRow("cpu without memory")
        << QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--cpu"), QStringLiteral("1"), QStringLiteral("-o"), QStringLiteral("p.json") }
        << QStringLiteral("a pod shape needs both --cpu and --memory");
    // A bad quantity names its option and value, not the template made of them.
    QTest::newRow("pods too many for an int")
        << (shape + QStringList { QStringLiteral("--pods"), QStringLiteral("99999999999"), QStringLiteral("-o"), QStringLiteral("p.json") })
        << QStringLiteral("--pods: expected a whole number of pods of at least 1 (at most 1000000), got \"99999999999\"");
    QTest::newRow("cpu nan")
        << QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--cpu"), QStringLiteral("nan"), QStringLiteral("--memory"),
               QStringLiteral("1Gi"), QStringLiteral("-o"), QStringLiteral("p.json") }
        << QStringLiteral("--cpu: expected a Kubernetes quantity such as 8 or 500m, got \"nan\"");
    QTest::newRow("memory negative")
        << QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--cpu"), QStringLiteral("1"), QStringLiteral("--memory"),
               QStringLiteral("-1Gi"), QStringLiteral("-o"), QStringLiteral("p.json") }
        << QStringLiteral("--memory: expected a Kubernetes quantity such as 64Gi or 512Mi, got \"-1Gi\"");
    QTest::newRow("both levels")
        << (shape + QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--required-level"), kL1, QStringLiteral("--preferred-level"), kL3, QStringLiteral("-o"), QStringLiteral("p.json") })
        << QStringLiteral("give --required-level or --preferred-level, not both");
    QTest::newRow("slice size without level")
        << (shape + QStringList { QStringLiteral("--pods"), QStringLiteral("4"), QStringLiteral("--slice-size"), QStringLiteral("2"), QStringLiteral("-o"), QStringLiteral("p.json") })
        << QStringLiteral("--slice-size and --slice-level go together");
    QTest::newRow("unknown level")
        << (shape + QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--required-level"), QStringLiteral("rack"), QStringLiteral("-o"), QStringLiteral("p.json") })
        << QStringLiteral("\"rack\" is not a topology level; the levels are: topology.kubernetes.io/region");
    QTest::newRow("keep-within empty")
        << (shape + QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--keep-within="), QStringLiteral("-o"), QStringLiteral("p.json") })
        << QStringLiteral("--keep-within: an empty label key; give a topology level's label key, e.g. topology.kubernetes.io/region");
    QTest::newRow("keep-within not a key")
        << (shape + QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--keep-within"), QStringLiteral("zone/"), QStringLiteral("-o"), QStringLiteral("p.json") })
        << QStringLiteral("--keep-within: \"zone/\" is not a label key: the name after '/' is empty");
    QTest::newRow("keep-within unknown level")
        << (shape + QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--keep-within"), QStringLiteral("example.com/rack"), QStringLiteral("-o"), QStringLiteral("p.json") })
        << QStringLiteral("the keep-within level \"example.com/rack\" is not a topology level; the levels are: topology.kubernetes.io/region");
    QTest::newRow("keep-within below the level")
        << (shape + QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--preferred-level"), kZone, QStringLiteral("--keep-within"), kL1, QStringLiteral("-o"), QStringLiteral("p.json") })
        << QStringLiteral("the keep-within level ") + kL1 + QStringLiteral(" must be topology.kubernetes.io/zone or a level above it");
    QTest::newRow("missing template")
        << QStringList { QStringLiteral("--pods"), QStringLiteral("2"), QStringLiteral("--pod-template"), QStringLiteral("/nonexistent/pod.yaml"), QStringLiteral("-o"), QStringLiteral("p.json") }
        << QStringLiteral("/nonexistent/pod.yaml: does not exist");
}

void TestCliPlanPlace::errors()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QTemporaryDir dir;
    for (QString& a : args)
        if (a == QLatin1String("p.json"))
            a = dir.filePath(a);
    const Run r = fleetscope(place(args));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("p.json"))));
}

QTEST_GUILESS_MAIN(TestCliPlanPlace)
#include "tst_cliplanplace.moc"
