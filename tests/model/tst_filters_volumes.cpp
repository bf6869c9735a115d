// SPDX-License-Identifier: Apache-2.0
// Tests of VolumeBinding (a bound PersistentVolume's node affinity) and VolumeZone
// (model/scheduling/volumes.cpp). Nodes: "a1" in zone a, "b1" in zone b, "bare" without zone
// labels, "beta" with only the beta zone label (zone a).

#include "tst_filters_fixture.h"

#include <QtTest>

using namespace fixture;

class TestFiltersVolumes : public QObject {
    Q_OBJECT
private slots:
    void volumes_data();
    void volumes();
};

void TestFiltersVolumes::volumes_data()
{
    QTest::addColumn<QString>("zoneKey");   // the PV's zone label key, "" for none
    QTest::addColumn<QStringList>("zones"); // its values
    QTest::addColumn<QString>("affinityHost"); // the PV's node affinity: kubernetes.io/hostname In (this), "" for none
    QTest::addColumn<QString>("shading");   // a1, b1, bare, beta
    QTest::newRow("no constraint") << "" << QStringList {} << "" << "1111";
    // A GA key is not translated to the beta one: "beta" fails it, as in volume_zone.go.
    QTest::newRow("zone a") << "topology.kubernetes.io/zone" << QStringList { "a" } << "" << "1010";
    QTest::newRow("zone a or b") << "topology.kubernetes.io/zone" << QStringList { "a", "b" } << "" << "1110";
    QTest::newRow("beta key matches the GA label") << "failure-domain.beta.kubernetes.io/zone" << QStringList { "a" } << "" << "1011";
    QTest::newRow("node affinity to b1") << "" << QStringList {} << "b1" << "0100";
    QTest::newRow("both") << "topology.kubernetes.io/zone" << QStringList { "a" } << "b1" << "0000";
}

void TestFiltersVolumes::volumes()
{
    QFETCH(QString, zoneKey);
    QFETCH(QStringList, zones);
    QFETCH(QString, affinityHost);
    QFETCH(QString, shading);
    ClusterStore store;
    store.addNode(node("a1", 4000, 16 * kGi, 110, "a"));
    store.addNode(node("b1", 4000, 16 * kGi, 110, "b"));
    NodeRecord bare = node("bare");
    bare.labels = { { "kubernetes.io/hostname", "bare" } };
    store.addNode(bare);
    NodeRecord beta = node("beta");
    beta.labels = { { "kubernetes.io/hostname", "beta" }, { "failure-domain.beta.kubernetes.io/zone", "a" } };
    store.addNode(beta);
    PodRecord p = pod("db-0");
    VolumeConstraint v;
    v.volume = store.strings().intern("pv-db-0");
    if (!zoneKey.isEmpty()) {
        std::vector<StringId> values;
        for (const QString& z : zones)
            values.push_back(store.strings().intern(z.toStdString()));
        v.zoneLabels.emplace_back(store.strings().intern(zoneKey.toStdString()), values);
    }
    if (!affinityHost.isEmpty()) {
        NodeSelectorRequirement r;
        r.key = store.strings().intern("kubernetes.io/hostname");
        r.values = { store.strings().intern(affinityHost.toStdString()) };
        v.nodeAffinity = { NodeSelectorTerm { { r } } };
    }
    p.volumes = { v };
    const PodId id = store.addPod(p);
    store.finalize();
    const PlanLedger state(store);
    const PodFeasibility f(state, id);
    QString got;
    for (std::uint32_t n = 0; n < 4; ++n) {
        const Verdict verdict = f.verdict(NodeId(n));
        got += verdict.feasible ? '1' : '0';
        QCOMPARE(f.feasible(NodeId(n)), verdict.feasible);
        for (const Reason& r : verdict.reasons)
            QVERIFY(r.kind == ReasonKind::VolumeNodeAffinity || r.kind == ReasonKind::VolumeZone);
    }
    QCOMPARE(got, shading);
}

QTEST_GUILESS_MAIN(TestFiltersVolumes)
#include "tst_filters_volumes.moc"
