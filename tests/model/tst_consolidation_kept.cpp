// SPDX-License-Identifier: Apache-2.0
// Why consolidation keeps a node (model/search/consolidation.h), on small hand-made clusters
// with known answers: the kept node's reason, the filter that blocks its pod most
// (blockingfilter.h), sampled at scale, and the kept groups' text (keptgroups.h).
#include "consolidationfixture.h"

#include "model/plan/evictionrules.h"
#include "model/search/blockingfilter.h"
#include "model/search/keptgroups.h"

#include <QtTest>

#include <tuple>

using namespace planfixture;

namespace {

/// A node as Cluster::node() makes it, with taints.
void taintedNode(Cluster& c, const std::string& name, std::int64_t cpuMilli, std::vector<std::tuple<std::string, std::string, TaintEffect>> taints)
{
    NodeRecord r = fleet::testing::nodeRecord(name, cpuMilli, 16 * kGi);
    r.labels = { { "topology.kubernetes.io/region", "us-east-1" }, { kZoneKey, "us-east-1a" }, { "kubernetes.io/hostname", name },
        { "node.kubernetes.io/instance-type", "m5.xlarge" } };
    r.taints = std::move(taints);
    r.capacity = r.allocatable;
    r.instanceType = "m5.xlarge";
    c.store->addNode(r);
}

/// The other nodes of the blocking-filter tests, after the pods' own: 40 nodes of 8 cpu tainted
/// dedicated=infer:NoSchedule ("t0" to "t39"), then 20 untainted nodes of 2 cpu ("r0" to "r19"),
/// so that a 3-cpu pod is refused by the taint on 40 of 60 and by insufficient-cpu on 20.
void addTaintedThenSmallNodes(Cluster& c)
{
    for (int i = 0; i < 40; ++i)
        taintedNode(c, "t" + std::to_string(i), 8000, { { "dedicated", "infer", TaintEffect::NoSchedule } });
    for (int i = 0; i < 20; ++i)
        c.node("r" + std::to_string(i), "us-east-1a", 2000);
}

} // namespace

class TestConsolidationKept : public QObject {
    Q_OBJECT
private slots:
    void onlyNodeSaysThereIsNoOther()
    {
        // One node: its pod has nowhere to go, and the reason says there is no other node, not
        // "no other node has 0.1 free (the most is 0)", with a code that says so (no-other-node).
        Cluster c;
        c.node("n1", "us-east-1a", 4000);
        c.pod("default", "web-0", "n1", 100, "web");
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 1.0 };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QVERIFY(r.drained.empty());
        const KeptNode* k = keptOf(r, c, "n1");
        QVERIFY(k);
        QCOMPARE(k->reason.code(), std::string("no-other-node"));
        QCOMPARE(k->reason.message, std::string("default/web-0 needs cpu 0.1; there is no other node (n1 is the only node under the plan)"));
    }

    void noFeasibleNodeNamesTheBlockingFilter()
    {
        // ml/big-0 and ml/big-1 (3 cpu each, on a and b) fit nowhere else: six nodes carry a
        // taint they do not tolerate, three have 2 cpu free. Every other node holds a bare pod, so
        // none of them is drained. The refusal names the filter that turns most nodes away.
        Cluster c;
        c.node("a", "us-east-1a", 4000);
        c.node("b", "us-east-1a", 4000);
        c.pod("ml", "big-0", "a", 3000, "big");
        c.pod("ml", "big-1", "b", 3000, "big");
        for (int i = 0; i < 6; ++i) {
            const std::string name = "t" + std::to_string(i);
            taintedNode(c, name, 8000, { { "dedicated", "infer", TaintEffect::NoSchedule } });
            c.pod("ml", "bare-" + name, name, 100, ""); // no controller: its eviction is refused
        }
        for (int i = 0; i < 3; ++i) {
            const std::string name = "r" + std::to_string(i);
            c.node(name, "us-east-1a", 4000);
            c.pod("ml", "bare-" + name, name, 2000, "");
        }
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour.assign(c.store->nodeCount(), 1.0);
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QVERIFY(r.drained.empty());
        const std::string taint = "untolerated-taint:dedicated=infer:NoSchedule";
        for (const char* node : { "a", "b" }) {
            const KeptNode* k = keptOf(r, c, node);
            QVERIFY(k);
            QCOMPARE(k->reason.code(), std::string("no-feasible-node"));
            // Of the other nine present nodes and the other big pod's node: the taint rejects
            // six, insufficient cpu four (r0..r2 and the other big pod's node).
            QCOMPARE(k->blocking.code, taint);
            QCOMPARE(k->blocking.nodes, 6);
            QCOMPARE(k->blocking.of, 10);
            QCOMPARE(k->blocking.judged, 10);
            QCOMPARE(k->blocking.nextCode, std::string("insufficient-cpu"));
            QCOMPARE(k->blocking.nextNodes, 4);
            QVERIFY2(k->reason.message.find("the most common blocking filter: " + taint + " (rejects 6 of 10 other nodes; then insufficient-cpu: 4)")
                    != std::string::npos,
                k->reason.message.c_str());
            // The entry's pod is the one its message starts with.
            QVERIFY2(k->reason.message.starts_with(podKey(*c.store, k->pod) + ":"), k->reason.message.c_str());
        }
        bool found = false;
        for (const KeptGroup& g : keptByCode(r.kept))
            if (g.code == "no-feasible-node") {
                found = true;
                QCOMPARE(g.nodes, 2);
                QCOMPARE(g.blockingCode, taint);
                QCOMPARE(g.blockingEntries, 2);
                QCOMPARE(g.blockingNodes, 6);
            }
        QVERIFY(found);
    }

    void blockingFilterIsSampledAtScale()
    {
        // More eligible nodes than the sample: every k-th is judged, the counts scaled.
        Cluster c;
        c.node("a", "us-east-1a", 4000);
        c.pod("ml", "big-0", "a", 3000, "big");
        addTaintedThenSmallNodes(c);
        c.finish();
        PlanEngine engine(*c.store, *c.topology);
        const PodId big = c.podNamed("big-0");
        const BlockingFilter all = tallyBlockingFilter(engine.state(), big, c.store->podNode(big));
        QCOMPARE(all.code, std::string("untolerated-taint:dedicated=infer:NoSchedule"));
        QCOMPARE(all.nodes, 40);
        QCOMPARE(all.of, 60);
        QCOMPARE(all.judged, 60);
        const BlockingFilter sampled = tallyBlockingFilter(engine.state(), big, c.store->podNode(big), {}, 12);
        QCOMPARE(sampled.judged, 12); // every 5th of 60
        QCOMPARE(sampled.of, 60);
        QCOMPARE(sampled.code, all.code);
        QCOMPARE(sampled.nodes, 40); // 8 of the 12 judged, scaled
        QCOMPARE(sampled.nextNodes, 20); // 4 of 12, scaled
        QVERIFY2(blockingFilterClause(sampled).find("(rejects about 40 of 60 other nodes, 12 judged; then insufficient-cpu: about 20)") != std::string::npos,
            blockingFilterClause(sampled).c_str());
    }

    void blockingFilterNamedPastTheBudget()
    {
        // The memo's budget of verdicts is spent by the first pod: a pod judged later (another
        // request) is judged on the smaller samples, and still names its filter.
        Cluster c;
        c.node("a", "us-east-1a", 4000);
        c.node("b", "us-east-1a", 4000);
        c.pod("ml", "big-0", "a", 3000, "big");
        c.pod("ml", "bigger-0", "b", 3500, "bigger");
        addTaintedThenSmallNodes(c);
        c.finish();
        PlanEngine engine(*c.store, *c.topology);
        BlockingFilterMemo memo(1);
        const PodId big = c.podNamed("big-0"), bigger = c.podNamed("bigger-0");
        QCOMPARE(memo.of(engine.state(), big, c.store->podNode(big)).code, std::string("untolerated-taint:dedicated=infer:NoSchedule"));
        QVERIFY(memo.verdicts() > 1);
        const BlockingFilter late = memo.of(engine.state(), bigger, c.store->podNode(bigger));
        QCOMPARE(late.code, std::string("untolerated-taint:dedicated=infer:NoSchedule"));
        QCOMPARE(late.of, 61);
        QVERIFY(late.nodes > 0 && late.nodes <= late.of);
        QCOMPARE(late.nextCode, std::string("insufficient-cpu"));
    }

    void keptGroupBlockingTextCountsInTheSingular()
    {
        KeptGroup g;
        g.code = "no-feasible-node";
        g.nodes = 1;
        g.blockingCode = "node-selector-mismatch";
        g.blockingEntries = 1;
        g.blockingNodes = 1;
        g.blockingOf = 1;
        QCOMPARE(keptGroupBlockingText(g), std::string("node-selector-mismatch for 1 of 1 entry (rejects up to 1 of 1 other node)"));
        g.blockingOf = 2;
        QCOMPARE(keptGroupBlockingText(g), std::string("node-selector-mismatch for 1 of 1 entry (rejects up to 1 of 2 other nodes)"));
    }
};

QTEST_GUILESS_MAIN(TestConsolidationKept)
#include "tst_consolidation_kept.moc"
