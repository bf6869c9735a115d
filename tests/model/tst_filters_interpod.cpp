// SPDX-License-Identifier: Apache-2.0
// Tests of InterPodAffinity (model/scheduling/interpodaffinity.cpp): required anti-affinity
// in both directions across a topology key, namespaces and namespaceSelector, required
// affinity with the rule for the first pod of a self-affine group, and the moving pod taken
// off its node. Nodes: n1 and n2 in zone a, n3 in zone b, n4 in zone c.

#include "tst_filters_fixture.h"

#include <QtTest>

using namespace fixture;

namespace {
struct Cluster {
    ClusterStore store;
    Cluster()
    {
        store.addNode(node("n1", 8000, 32 * kGi, 110, "a"));
        store.addNode(node("n2", 8000, 32 * kGi, 110, "a"));
        store.addNode(node("n3", 8000, 32 * kGi, 110, "b"));
        store.addNode(node("n4", 8000, 32 * kGi, 110, "c"));
    }
    PodAffinityTerm term(const std::string& app, const std::string& key, std::vector<std::string> namespaces = {})
    {
        PodAffinityTerm t;
        t.selector = store.internSelector(false, { { "app", app } }, {});
        t.topologyKey = store.strings().intern(key);
        for (const auto& ns : namespaces)
            t.namespaces.push_back(store.strings().intern(ns));
        std::sort(t.namespaces.begin(), t.namespaces.end());
        return t;
    }
    static PodRecord labelled(const std::string& name, const std::string& nodeName, const std::string& app, const std::string& ns = "default")
    {
        PodRecord p = pod(name, nodeName, 100, kGi / 4, ns);
        p.labels = { { "app", app } };
        return p;
    }
    /// The shading of pod `p` over n1..n4 as a string of 0 and 1, checked against each verdict.
    QString shade(PodId p)
    {
        const PlanLedger state(store);
        const PodFeasibility f(state, p);
        std::vector<std::uint8_t> mask;
        f.feasibleNodes(mask);
        QString out;
        for (std::uint32_t n = 0; n < 4; ++n) {
            out += mask[n] ? '1' : '0';
            if (checkMove(state, p, NodeId(n)).feasible != (mask[n] == 1))
                out += '!';
        }
        return out;
    }
};
constexpr const char* kHost = "kubernetes.io/hostname";
constexpr const char* kZone = "topology.kubernetes.io/zone";
} // namespace

class TestFiltersInterPod : public QObject {
    Q_OBJECT
private slots:
    void ownAntiAffinity_data();
    void ownAntiAffinity();
    void existingAntiAffinity_data();
    void existingAntiAffinity();
    void affinity_data();
    void affinity();
    void reasonsNameThePod();
    void movingPodDoesNotCountItself();
    void firstPodNeedsEveryTopologyKey();
};

void TestFiltersInterPod::ownAntiAffinity_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("residentNamespace");
    QTest::addColumn<QStringList>("termNamespaces");
    QTest::addColumn<QString>("shading"); // n1..n4; the mover is pending
    QTest::newRow("hostname: only n1") << kHost << "default" << QStringList {} << "0111";
    QTest::newRow("zone: zone a") << kZone << "default" << QStringList {} << "0011";
    QTest::newRow("another namespace, none named") << kZone << "other" << QStringList {} << "1111";
    QTest::newRow("another namespace, named") << kZone << "other" << QStringList { "other" } << "0011";
    QTest::newRow("namespaces not naming it") << kZone << "other" << QStringList { "third" } << "1111";
}

void TestFiltersInterPod::ownAntiAffinity()
{
    QFETCH(QString, key);
    QFETCH(QString, residentNamespace);
    QFETCH(QStringList, termNamespaces);
    QFETCH(QString, shading);
    Cluster c;
    c.store.addPod(Cluster::labelled("web-1", "n1", "web", residentNamespace.toStdString()));
    PodRecord mover = Cluster::labelled("web-2", "", "web");
    std::vector<std::string> ns;
    for (const QString& s : termNamespaces)
        ns.push_back(s.toStdString());
    mover.podAntiAffinity = { c.term("web", key.toStdString(), ns) };
    const PodId id = c.store.addPod(mover);
    c.store.finalize();
    QCOMPARE(c.shade(id), shading);
}

void TestFiltersInterPod::existingAntiAffinity_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("moverApp");
    QTest::addColumn<bool>("namespaceSelector");
    QTest::addColumn<QString>("moverNamespace");
    QTest::addColumn<QString>("shading");
    QTest::newRow("hostname") << kHost << "api" << false << "default" << "0111";
    QTest::newRow("zone") << kZone << "api" << false << "default" << "0011";
    QTest::newRow("not matching the term") << kZone << "web" << false << "default" << "1111";
    QTest::newRow("another namespace") << kZone << "api" << false << "other" << "1111";
    QTest::newRow("another namespace, namespaceSelector {}") << kZone << "api" << true << "other" << "0011";
}

void TestFiltersInterPod::existingAntiAffinity()
{
    QFETCH(QString, key);
    QFETCH(QString, moverApp);
    QFETCH(bool, namespaceSelector);
    QFETCH(QString, moverNamespace);
    QFETCH(QString, shading);
    Cluster c;
    PodRecord resident = Cluster::labelled("db-1", "n1", "db");
    PodAffinityTerm t = c.term("api", key.toStdString());
    if (namespaceSelector) {
        t.hasNamespaceSelector = true;
        t.namespaceSelector = c.store.internSelector(false, {}, {});
    }
    resident.podAntiAffinity = { t };
    c.store.addPod(resident);
    const PodId id = c.store.addPod(Cluster::labelled("api-1", "", moverApp.toStdString(), moverNamespace.toStdString()));
    c.store.finalize();
    QCOMPARE(c.shade(id), shading);
}

void TestFiltersInterPod::affinity_data()
{
    QTest::addColumn<QString>("dbNode"); // "" for no db pod anywhere
    QTest::addColumn<QString>("moverApp");
    QTest::addColumn<QString>("shading");
    QTest::newRow("db in zone b") << "n3" << "api" << "0010";
    QTest::newRow("db on n1: zone a") << "n1" << "api" << "1100";
    QTest::newRow("no db anywhere, the mover is not one") << "" << "api" << "0000";
    QTest::newRow("no db anywhere, the mover is the first db") << "" << "db" << "1111";
    QTest::newRow("a db exists: the first-pod rule no longer applies") << "n4" << "db" << "0001";
}

void TestFiltersInterPod::affinity()
{
    QFETCH(QString, dbNode);
    QFETCH(QString, moverApp);
    QFETCH(QString, shading);
    Cluster c;
    if (!dbNode.isEmpty())
        c.store.addPod(Cluster::labelled("db-1", dbNode.toStdString(), "db"));
    c.store.addPod(Cluster::labelled("cache-1", "n2", "cache"));
    PodRecord mover = Cluster::labelled("mover", "", moverApp.toStdString());
    mover.podAffinity = { c.term("db", kZone) };
    const PodId id = c.store.addPod(mover);
    c.store.finalize();
    QCOMPARE(c.shade(id), shading);
}

void TestFiltersInterPod::reasonsNameThePod()
{
    Cluster c;
    PodRecord resident = Cluster::labelled("db-1", "n1", "db");
    resident.podAntiAffinity = { c.term("api", kZone) };
    c.store.addPod(resident);
    c.store.addPod(Cluster::labelled("api-0", "n3", "api"));
    PodRecord mover = Cluster::labelled("api-1", "", "api");
    mover.podAntiAffinity = { c.term("api", kZone) };
    mover.podAffinity = { c.term("cache", kZone) };
    const PodId id = c.store.addPod(mover);
    c.store.finalize();
    const PlanLedger state(c.store);
    QCOMPARE(codes(checkMove(state, id, NodeId(1))), (QStringList { "pod-affinity-mismatch", "pod-anti-affinity:default/db-1" }));
    QCOMPARE(codes(checkMove(state, id, NodeId(2))), (QStringList { "pod-affinity-mismatch", "pod-anti-affinity:default/api-0" }));
}

void TestFiltersInterPod::movingPodDoesNotCountItself()
{
    // web-1 on n1 keeps other web pods off its host; moving it, its own presence on n1 does
    // not count, in either direction.
    Cluster c;
    PodRecord web = Cluster::labelled("web-1", "n1", "web");
    web.podAntiAffinity = { c.term("web", kZone) };
    const PodId id = c.store.addPod(web);
    c.store.addPod(Cluster::labelled("web-2", "n3", "web"));
    c.store.finalize();
    QCOMPARE(c.shade(id), QStringLiteral("1101"));
    PlanLedger state(c.store);
    QVERIFY(state.movePod(id, NodeId(3)));
    QCOMPARE(state.podsWithAntiAffinity().size(), std::size_t { 1 });
    QCOMPARE(state.podsWithAntiAffinity().front().second, NodeId(3));
    const PodId web2 = findPod(c.store, "web-2");
    // Now web-1 in zone c forbids zone c to web-2, and zone a is free again.
    const PodFeasibility f(state, web2);
    QVERIFY(f.feasible(NodeId(0)));
    QVERIFY(!f.feasible(NodeId(3)));
    QCOMPARE(codes(f.verdict(NodeId(3))), QStringList { "pod-anti-affinity:default/web-1" });
}

void TestFiltersInterPod::firstPodNeedsEveryTopologyKey()
{
    // satisfyPodAffinity: "All topology labels must exist on the node", the first pod of a
    // self-affine group included. n5 has a hostname but no zone.
    Cluster c;
    NodeRecord bare = node("n5");
    bare.labels = { { kHost, "n5" } };
    const NodeId n5 = c.store.addNode(bare);
    PodRecord mover = Cluster::labelled("db-0", "", "db");
    mover.podAffinity = { c.term("db", kZone), c.term("db", kHost) };
    const PodId id = c.store.addPod(mover);
    c.store.finalize();
    QCOMPARE(c.shade(id), QStringLiteral("1111"));
    const PlanLedger state(c.store);
    const Verdict v = checkMove(state, id, n5);
    QCOMPARE(codes(v), QStringList { "pod-affinity-mismatch" });
    QVERIFY2(v.reasons.front().message.find(kZone) != std::string::npos, v.reasons.front().message.c_str());
    QVERIFY(!PodFeasibility(state, id).feasible(n5));
}

QTEST_GUILESS_MAIN(TestFiltersInterPod)
#include "tst_filters_interpod.moc"
