// SPDX-License-Identifier: Apache-2.0
// Tests of PodTopologySpread, DoNotSchedule (model/scheduling/podtopologyspread.cpp): skew at
// the limit and one past it, minDomains, the node inclusion policies, nodes without the key,
// ScheduleAnyway ignored and the moving pod taken off its node.
// Nodes: n1 and n2 in zone a, n3 in zone b, n4 in zone c, n5 without a zone.

#include "tst_filters_fixture.h"

#include <QtTest>

using namespace fixture;

namespace {
struct SpreadCase {
    std::vector<std::string> residents; // nodes of the app=web pods already placed
    std::int32_t maxSkew = 1;
    std::int32_t minDomains = 1;
    NodeInclusionPolicy affinityPolicy = NodeInclusionPolicy::Honor;
    NodeInclusionPolicy taintsPolicy = NodeInclusionPolicy::Ignore;
    bool avoidZoneC = false;  // the mover's nodeSelector keeps it off zone c (a label only a and b have)
    bool taintZoneC = false;  // n4 carries a taint the mover does not tolerate
    bool scheduleAnyway = false;
    bool moverMatches = true; // the mover carries app=web
    std::vector<std::string> terminating {}; // nodes of app=web pods with a deletionTimestamp
};
} // namespace
Q_DECLARE_METATYPE(SpreadCase)

class TestFiltersSpread : public QObject {
    Q_OBJECT
private slots:
    void spread_data();
    void spread();
    void movingPodDoesNotCountItself();
    void nodeSelectorBoundsEligibleDomains();
};

void TestFiltersSpread::spread_data()
{
    using P = NodeInclusionPolicy;
    QTest::addColumn<SpreadCase>("c");
    QTest::addColumn<QString>("shading"); // n1..n5 for a pending mover
    // a:2 b:1 c:1, min 1: a gives 3 - 1 = 2.
    QTest::newRow("skew at the limit and one past") << SpreadCase { { "n1", "n2", "n3", "n4" } } << "00110";
    QTest::newRow("maxSkew 2: at the limit everywhere") << SpreadCase { { "n1", "n2", "n3", "n4" }, 2 } << "11110";
    QTest::newRow("an empty zone is the minimum") << SpreadCase { { "n1", "n3" } } << "00010";
    QTest::newRow("minDomains above the domains: minimum 0") << SpreadCase { { "n1", "n2", "n3", "n4" }, 1, 4 } << "00000";
    QTest::newRow("minDomains met") << SpreadCase { { "n1", "n2", "n3", "n4" }, 1, 3 } << "00110";
    // a:2 b:2 c:0. Zone c counts (minimum 0: only zone c passes) unless the policies leave it
    // out (minimum 2: every zone passes the spread; n4 then fails the mover's other rules).
    QTest::newRow("affinity Honor leaves zone c out") << SpreadCase { { "n1", "n2", "n3", "n3" }, 1, 1, P::Honor, P::Ignore, true } << "11110";
    QTest::newRow("affinity Ignore keeps it") << SpreadCase { { "n1", "n2", "n3", "n3" }, 1, 1, P::Ignore, P::Ignore, true } << "00010";
    QTest::newRow("taints Ignore keeps a tainted zone") << SpreadCase { { "n1", "n2", "n3", "n3" }, 1, 1, P::Honor, P::Ignore, false, true } << "00010";
    QTest::newRow("taints Honor leaves it out") << SpreadCase { { "n1", "n2", "n3", "n3" }, 1, 1, P::Honor, P::Honor, false, true } << "11110";
    QTest::newRow("ScheduleAnyway does not filter") << SpreadCase { { "n1", "n2", "n3" }, 1, 1, P::Honor, P::Ignore, false, false, true } << "11111";
    QTest::newRow("a mover outside its selector adds nothing") << SpreadCase { { "n1", "n2", "n3", "n4" }, 1, 1, P::Honor, P::Ignore, false, false, false, false }
                                                             << "11110";
    // countPodsMatchSelector skips pods with a deletionTimestamp: a:1 b:1 c:0 (two terminating
    // in c), so the minimum is 0 and only zone c passes; counted, c would hold the minimum's
    // excess instead (a:1 b:1 c:2, minimum 1: c fails, a and b pass).
    QTest::newRow("terminating pods are not counted")
        << SpreadCase { { "n1", "n3" }, 1, 1, P::Honor, P::Ignore, false, false, false, true, { "n4", "n4" } } << "00010";
    QTest::newRow("terminating pods do not fill a zone")
        << SpreadCase { { "n3", "n4" }, 1, 1, P::Honor, P::Ignore, false, false, false, true, { "n1", "n2" } } << "11000";
}

void TestFiltersSpread::spread()
{
    QFETCH(SpreadCase, c);
    QFETCH(QString, shading);
    ClusterStore store;
    for (const auto& [name, zone] : std::vector<std::pair<std::string, std::string>> { { "n1", "a" }, { "n2", "a" }, { "n3", "b" }, { "n4", "c" } }) {
        NodeRecord n = node(name, 8000, 32 * kGi, 110, zone);
        if (zone != "c")
            n.labels.emplace_back("pool", "main");
        if (zone == "c" && c.taintZoneC)
            n.taints = { { "spot", "true", TaintEffect::NoSchedule } };
        store.addNode(n);
    }
    NodeRecord bare = node("n5");
    bare.labels = { { "kubernetes.io/hostname", "n5" } };
    store.addNode(bare);
    int i = 0;
    for (const std::string& n : c.residents) {
        PodRecord p = pod("web-" + std::to_string(i++), n);
        p.labels = { { "app", "web" } };
        store.addPod(p);
    }
    for (const std::string& n : c.terminating) {
        PodRecord p = pod("web-" + std::to_string(i++), n);
        p.labels = { { "app", "web" } };
        p.flags |= PodFlagTerminating;
        store.addPod(p);
    }
    PodRecord mover = pod("mover");
    if (c.moverMatches)
        mover.labels = { { "app", "web" } };
    if (c.avoidZoneC)
        mover.requiredAffinityTerms = { { { "topology.kubernetes.io/zone", SelectorOperator::NotIn, { "c" } } } };
    TopologySpreadConstraint tc;
    tc.maxSkew = c.maxSkew;
    tc.minDomains = c.minDomains;
    tc.topologyKey = store.strings().intern("topology.kubernetes.io/zone");
    tc.selector = store.internSelector(false, { { "app", "web" } }, {});
    tc.nodeAffinityPolicy = c.affinityPolicy;
    tc.nodeTaintsPolicy = c.taintsPolicy;
    tc.whenUnsatisfiable = c.scheduleAnyway ? WhenUnsatisfiable::ScheduleAnyway : WhenUnsatisfiable::DoNotSchedule;
    mover.spreadConstraints = { tc };
    const PodId id = store.addPod(mover);
    store.finalize();
    const PlanLedger state(store);
    const PodFeasibility f(state, id);
    std::vector<std::uint8_t> mask;
    f.feasibleNodes(mask);
    QString got;
    for (std::uint32_t n = 0; n < 5; ++n) {
        // Nodes the mover's own rules refuse (zone c under avoidZoneC, the tainted n4) are
        // judged on the spread alone here: their other reasons are removed.
        Verdict v = checkMove(state, id, NodeId(n));
        std::erase_if(v.reasons, [](const Reason& r) { return r.kind != ReasonKind::TopologySpread; });
        got += v.reasons.empty() ? '1' : '0';
        if (n == 4 && !c.scheduleAnyway)
            QCOMPARE(codes(v), QStringList { "topology-spread:topology.kubernetes.io/zone" });
        if (mask[n] == 1)
            QVERIFY(v.reasons.empty());
    }
    QCOMPARE(got, shading);
}

void TestFiltersSpread::movingPodDoesNotCountItself()
{
    // a:2 b:1 c:1 with the mover one of zone a's: taken off, a:1 b:1 c:1, so zone b gives
    // 1 + 1 - 1 = 1, at the limit; counted, the minimum would be the same and zone a 3 - 1.
    ClusterStore store;
    store.addNode(node("n1", 8000, 32 * kGi, 110, "a"));
    store.addNode(node("n2", 8000, 32 * kGi, 110, "a"));
    store.addNode(node("n3", 8000, 32 * kGi, 110, "b"));
    store.addNode(node("n4", 8000, 32 * kGi, 110, "c"));
    PodId mover;
    for (const char* n : { "n1", "n2", "n3", "n4" }) {
        PodRecord p = pod(std::string("web-") + n, n);
        p.labels = { { "app", "web" } };
        TopologySpreadConstraint tc;
        tc.topologyKey = store.strings().intern("topology.kubernetes.io/zone");
        tc.selector = store.internSelector(false, { { "app", "web" } }, {});
        p.spreadConstraints = { tc };
        const PodId id = store.addPod(p);
        if (!mover.isValid())
            mover = id;
    }
    store.finalize();
    PlanLedger state(store);
    const PodFeasibility f(state, mover);
    QVERIFY(f.feasible(NodeId(1))); // zone a again: 1 + 1 - 1
    QVERIFY(f.feasible(NodeId(2)));
    QVERIFY(f.feasible(NodeId(3)));
    // Moved to zone b: a:1 b:2 c:1. web-n2, taken off n2, leaves zone a empty (minimum 0):
    // it may stay in zone a and go nowhere else.
    QVERIFY(state.movePod(mover, NodeId(2)));
    const PodFeasibility g(state, findPod(store, "web-n2"));
    QCOMPARE(codes(g.verdict(NodeId(2))), QStringList { "topology-spread:topology.kubernetes.io/zone" });
    QVERIFY(!g.feasible(NodeId(3)));
    QVERIFY(g.feasible(NodeId(0)));
}

void TestFiltersSpread::nodeSelectorBoundsEligibleDomains()
{
    // Zones a and b hold one node of pool main each (one web pod on each); zone c has four
    // nodes, none of pool main unless `poolInC` gives n6 the label. The mover selects pool=main
    // with nodeAffinityPolicy Honor: zone c is a domain only through n6 (podtopologyspread.cpp
    // judges the pool's 2 or 3 nodes instead of zone c's 4: the same answer as a full pass).
    for (const bool poolInC : { false, true }) {
        for (const NodeInclusionPolicy policy : { NodeInclusionPolicy::Honor, NodeInclusionPolicy::Ignore }) {
            ClusterStore store;
            int k = 1;
            for (const char* zone : { "a", "b", "c", "c", "c", "c" }) {
                const std::string name = "n" + std::to_string(k++);
                NodeRecord n = node(name, 8000, 32 * kGi, 110, zone);
                if (std::string(zone) != "c" || (poolInC && name == "n6"))
                    n.labels.emplace_back("pool", "main");
                store.addNode(n);
            }
            for (const char* n : { "n1", "n2" }) {
                PodRecord p = pod(std::string("web-") + n, n);
                p.labels = { { "app", "web" } };
                store.addPod(p);
            }
            PodRecord mover = pod("mover");
            mover.labels = { { "app", "web" } };
            mover.nodeSelector = { { "pool", "main" } };
            TopologySpreadConstraint tc;
            tc.topologyKey = store.strings().intern("topology.kubernetes.io/zone");
            tc.selector = store.internSelector(false, { { "app", "web" } }, {});
            tc.nodeAffinityPolicy = policy;
            mover.spreadConstraints = { tc };
            const PodId id = store.addPod(mover);
            store.finalize();
            const PlanLedger state(store);
            const PodFeasibility f(state, id);
            // Zone c a domain (minimum 0): zones a and b give skew 2 > 1; else the minimum is 1.
            const bool zoneCCounts = poolInC || policy == NodeInclusionPolicy::Ignore;
            QCOMPARE(f.feasible(NodeId(0)), !zoneCCounts);
            QCOMPARE(f.feasible(NodeId(1)), !zoneCCounts);
            QCOMPARE(f.feasible(NodeId(5)), poolInC); // n6: the pool's only node in zone c
            QCOMPARE(checkMove(state, id, NodeId(0)).feasible, !zoneCCounts);
        }
    }
}

QTEST_GUILESS_MAIN(TestFiltersSpread)
#include "tst_filters_spread.moc"
