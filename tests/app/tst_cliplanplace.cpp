// SPDX-License-Identifier: Apache-2.0
// `fleetscope plan place` run as a user runs it (QProcess, no display) on the simulated fleet:
// a gang placed in one network-node-layer-1 domain and its plan re-checked by `plan check`
// (the template pod comes from the plan), a YAML pod template with its tolerations, a gang that
// does not fit (exit 1, the per-level explanation, no plan written), and wrong command lines.

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
