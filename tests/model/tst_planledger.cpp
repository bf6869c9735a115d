// SPDX-License-Identifier: Apache-2.0
// Tests of the ledger (model/scheduling/planledger.h): move, evict and restore with the
// nodes' figures and the totals checked after each step; added nodes from a template; failed
// nodes stranding their pods; per-GPU shares; label-set counts and anti-affinity pods.
//
// The cluster: n1 (8 GPUs, $10/h) holding a trainer of 4 GPUs, a DaemonSet pod and a web pod;
// n2 ($2/h) holding a web pod; n3 ($1/h) holding only a DaemonSet pod; a pending pod; a
// Succeeded pod on n2.

#include "tst_filters_fixture.h"

#include <QtTest>

using namespace fixture;

namespace {
struct Cluster {
    ClusterStore store;
    PodId trainer, agent1, web1, web2, agent3, pending, done;
    Cluster()
    {
        NodeRecord gpu = node("n1", 96000, 1024 * kGi);
        gpu.allocatable.setCore(CoreResource::Gpu, 8000);
        gpu.capacity = gpu.allocatable;
        gpu.gpuCount = 8;
        gpu.labels.emplace_back("node.kubernetes.io/instance-type", "p5.48xlarge");
        store.addNode(gpu);
        store.addNode(node("n2"));
        NodeRecord tainted = node("n3", 4000, 16 * kGi, 110, "b");
        tainted.ready = Readiness::False;
        tainted.taints = { { "node.kubernetes.io/not-ready", "", TaintEffect::NoSchedule }, { "team", "ml", TaintEffect::NoSchedule } };
        store.addNode(tainted);
        PodRecord t = pod("trainer", "n1", 8000, 64 * kGi);
        t.request.setCore(CoreResource::Gpu, 4000);
        t.labels = { { "app", "trainer" } };
        trainer = store.addPod(t);
        PodRecord a = pod("agent-1", "n1", 100);
        a.ownerKind = OwnerKind::DaemonSet;
        agent1 = store.addPod(a);
        PodRecord w = pod("web-1", "n1", 500);
        w.labels = { { "app", "web" } };
        w.hostPorts = { { 8080, PortProtocol::TCP, {} } };
        PodAffinityTerm anti;
        anti.selector = store.internSelector(false, { { "app", "web" } }, {});
        anti.topologyKey = store.strings().intern("kubernetes.io/hostname");
        w.podAntiAffinity = { anti };
        web1 = store.addPod(w);
        w.name = "web-2";
        w.nodeName = "n2";
        web2 = store.addPod(w);
        a.name = "agent-3";
        a.nodeName = "n3";
        agent3 = store.addPod(a);
        pending = store.addPod(pod("pending"));
        PodRecord d = pod("done", "n2", 2000);
        d.phase = PodPhase::Succeeded;
        done = store.addPod(d);
        store.finalize();
    }
};
const NodeId n1(0), n2(1), n3(2);

PlanTotals expectedBefore()
{
    PlanTotals t;
    t.nodes = 3;
    t.nodesInUse = 2; // n3 holds only a DaemonSet pod
    t.nodesEmpty = 1;
    t.gpus = 8;
    t.gpuMilliAllocated = 4000;
    t.podsPlaced = 5; // the pending and the Succeeded pods do not count
    t.podsUnplaced = 0;
    t.costPerHour = 13;
    return t;
}
} // namespace

class TestPlanLedger : public QObject {
    Q_OBJECT
private slots:
    void loadedState();
    void moveEvictRestore();
    void pendingAndTerminalPods();
    void addedNodes();
    void failedNodes();
    void sharedGpus();
    void countsFollowMoves();
};

void TestPlanLedger::loadedState()
{
    Cluster c;
    const PlanLedger s(c.store, { 10.0, 2.0, 1.0 });
    QCOMPARE(s.totals(), expectedBefore());
    QCOMPARE(s.totalsBefore(), expectedBefore());
    QCOMPARE(s.nodeCount(), std::size_t { 3 });
    QCOMPARE(s.nodeRequested(n1), c.store.nodeRequested(n1));
    QCOMPARE(s.nodeRequested(n2)[CoreResource::Pods], 1); // the Succeeded pod frees its slot
    QCOMPARE(s.podNode(c.trainer), n1);
    QVERIFY(!s.podNode(c.pending).isValid());
    QVERIFY(!s.podNode(c.done).isValid());
    QVERIFY(!s.podChanged(c.trainer));
    QVERIFY(s.nodeHostPortInUse(n1, { 8080, PortProtocol::TCP, {} }));
    QVERIFY(!s.nodeHostPortInUse(n3, { 8080, PortProtocol::TCP, {} }));
    const auto gpus = s.nodeGpuShares(n1);
    QCOMPARE(std::vector<std::int32_t>(gpus.begin(), gpus.end()), (std::vector<std::int32_t> { 1000, 1000, 1000, 1000, 0, 0, 0, 0 }));
    QVERIFY(s.nodeGpuShares(n2).empty());
    QVERIFY(s.buildMs() >= 0);
}

void TestPlanLedger::moveEvictRestore()
{
    Cluster c;
    PlanLedger s(c.store, { 10.0, 2.0, 1.0 });
    const ResourceVector n1Before = s.nodeRequested(n1), n3Before = s.nodeRequested(n3);

    // The trainer to n3: n1 keeps its web pod (still in use), n3 becomes in use.
    QVERIFY(s.movePod(c.trainer, n3));
    PlanTotals t = expectedBefore();
    t.nodesInUse = 3;
    t.nodesEmpty = 0;
    QCOMPARE(s.totals(), t);
    QCOMPARE(s.nodeRequested(n1)[CoreResource::Gpu], 0);
    QCOMPARE(s.nodeRequested(n3)[CoreResource::Cpu], n3Before[CoreResource::Cpu] + 8000);
    QVERIFY(s.podChanged(c.trainer));
    QCOMPARE(s.nodePods(n3).size(), std::size_t { 2 });
    QCOMPARE(s.nodePods(n1).size(), std::size_t { 2 });
    QVERIFY(s.nodeGpuShares(n1)[0] == 0);

    // web-1 evicted: n1 holds only its DaemonSet pod now, so it is empty (removable).
    QVERIFY(s.evictPod(c.web1));
    t.nodesInUse = 2;
    t.nodesEmpty = 1;
    t.podsPlaced = 4;
    t.podsUnplaced = 1;
    QCOMPARE(s.totals(), t);
    QVERIFY(!s.nodeHostPortInUse(n1, { 8080, PortProtocol::TCP, {} }));
    QVERIFY(!s.evictPod(c.web1)); // nothing to evict

    // Undo both: every figure as loaded.
    QVERIFY(s.restorePod(c.web1));
    QVERIFY(s.restorePod(c.trainer));
    QCOMPARE(s.totals(), expectedBefore());
    QCOMPARE(s.nodeRequested(n1), n1Before);
    QCOMPARE(s.nodeRequested(n3), n3Before);
    QVERIFY(!s.podChanged(c.trainer));
    const auto gpus = s.nodeGpuShares(n1);
    QCOMPARE(std::vector<std::int32_t>(gpus.begin(), gpus.end()), (std::vector<std::int32_t> { 1000, 1000, 1000, 1000, 0, 0, 0, 0 }));

    // Moving a pod where it is changes nothing; to a node out of range, nothing either.
    QVERIFY(s.movePod(c.web2, n2));
    QVERIFY(!s.movePod(c.web2, NodeId(7)));
    QCOMPARE(s.totals(), expectedBefore());
}

void TestPlanLedger::pendingAndTerminalPods()
{
    Cluster c;
    PlanLedger s(c.store, { 10.0, 2.0, 1.0 });
    QVERIFY(!s.movePod(c.done, n2)); // a Succeeded pod uses nothing and does not move
    QVERIFY(s.movePod(c.pending, n2));
    PlanTotals t = expectedBefore();
    t.podsPlaced = 6;
    QCOMPARE(s.totals(), t); // placing pending demand strands nobody
    QVERIFY(s.podChanged(c.pending));
    QVERIFY(s.restorePod(c.pending));
    QVERIFY(!s.podNode(c.pending).isValid());
    QCOMPARE(s.totals(), expectedBefore());
}

void TestPlanLedger::addedNodes()
{
    Cluster c;
    PlanLedger s(c.store, { 10.0, 2.0, 1.0 });
    QVERIFY(!s.addNode(n1, "n2", {}).isValid()); // names are unique
    QVERIFY(!s.addNode(NodeId(9), "x", {}).isValid());
    const NodeId added = s.addNode(n3, "n3-copy", { { "kubernetes.io/hostname", "n3-copy" }, { "topology.kubernetes.io/zone", "z" } });
    QCOMPARE(added, NodeId(3));
    QCOMPARE(s.nodeName(added), std::string_view("n3-copy"));
    QCOMPARE(s.nodeTemplate(added), n3);
    QCOMPARE(s.str(s.nodeLabel(added, c.store.strings().find("topology.kubernetes.io/zone"))), std::string_view("z"));
    QCOMPARE(s.str(s.nodeLabel(added, c.store.strings().find("kubernetes.io/hostname"))), std::string_view("n3-copy"));
    // A fresh node: Ready, and without the lifecycle controller's not-ready taint.
    QCOMPARE(s.nodeReadiness(added), Readiness::True);
    QCOMPARE(s.nodeTaints(added).size(), std::size_t { 1 });
    PlanTotals t = expectedBefore();
    t.nodes = 4;
    t.nodesEmpty = 2;
    t.costPerHour = 14;
    QCOMPARE(s.totals(), t);

    // The web pod fits there once it tolerates the team taint; without, the filters say so.
    QCOMPARE(codes(checkMove(s, c.web2, added)), QStringList { "untolerated-taint:team=ml:NoSchedule" });
    QVERIFY(s.movePod(c.web2, added));
    t.nodesEmpty = 2; // n2 emptied (its Succeeded pod does not count), the added node in use
    QCOMPARE(s.totals(), t);
    QVERIFY(!s.removeLastAddedNode()); // it holds a pod
    QVERIFY(s.restorePod(c.web2));
    QVERIFY(s.removeLastAddedNode());
    QCOMPARE(s.nodeCount(), std::size_t { 3 });
    QCOMPARE(s.totals(), expectedBefore());
    QVERIFY(!s.removeLastAddedNode());
}

void TestPlanLedger::failedNodes()
{
    Cluster c;
    PlanLedger s(c.store, { 10.0, 2.0, 1.0 });
    QVERIFY(s.setNodePresent(n1, false));
    QVERIFY(!s.nodePresent(n1));
    PlanTotals t;
    t.nodes = 2;
    t.nodesInUse = 1;
    t.nodesEmpty = 1;
    t.gpus = 0;
    t.gpuMilliAllocated = 0;
    t.podsPlaced = 2;
    // Stranded on the failed node: the trainer and the web pod. Its DaemonSet pod goes with it:
    // no work left without a node, counted apart.
    t.podsUnplaced = 2;
    t.podsRemovedWithNodes = 1;
    t.costPerHour = 3;
    QCOMPARE(s.totals(), t);
    // Re-placing one stranded pod: placed again, on a present node.
    QVERIFY(s.movePod(c.web1, n2));
    t.podsPlaced = 3;
    t.podsUnplaced = 1;
    QCOMPARE(s.totals(), t);
    QVERIFY(s.restorePod(c.web1));
    QVERIFY(s.setNodePresent(n1, true));
    QCOMPARE(s.totals(), expectedBefore());
}

void TestPlanLedger::sharedGpus()
{
    ClusterStore store;
    NodeRecord n = node("shared", 96000, 512 * kGi);
    n.allocatable.setCore(CoreResource::Gpu, 2000);
    n.capacity = n.allocatable;
    n.gpuCount = 2;
    store.addNode(n);
    n.name = "other";
    n.labels = { { "kubernetes.io/hostname", "other" } };
    store.addNode(n);
    std::vector<PodId> pods;
    for (int share : { 500, 300, 400 }) {
        PodRecord p = pod("share-" + std::to_string(share), "shared");
        p.request.setCore(CoreResource::Gpu, share);
        p.gpuShareMilli = share;
        pods.push_back(store.addPod(p));
    }
    store.finalize();
    PlanLedger s(store);
    // Best fit: 500 on GPU 0; 300 onto GPU 0 (fits, least left); 400 no longer fits GPU 0 (800).
    auto shares = [&](NodeId id) {
        const auto g = s.nodeGpuShares(id);
        return std::vector<std::int32_t>(g.begin(), g.end());
    };
    QCOMPARE(shares(NodeId(0)), (std::vector<std::int32_t> { 800, 400 }));
    QVERIFY(s.movePod(pods[0], NodeId(1)));
    QCOMPARE(shares(NodeId(0)), (std::vector<std::int32_t> { 300, 400 }));
    QCOMPARE(shares(NodeId(1)), (std::vector<std::int32_t> { 500, 0 }));
    QCOMPARE(s.totals().gpuMilliAllocated, 1200);
    QVERIFY(s.restorePod(pods[0]));
    QCOMPARE(shares(NodeId(0)), (std::vector<std::int32_t> { 800, 400 })); // back on the GPU it held
    QCOMPARE(shares(NodeId(1)), (std::vector<std::int32_t> { 0, 0 }));
}

void TestPlanLedger::countsFollowMoves()
{
    Cluster c;
    PlanLedger s(c.store);
    const std::uint32_t set = s.podLabelSet(c.web1);
    QCOMPARE(s.podLabelSet(c.web2), set);
    QVERIFY(s.podLabelSet(c.trainer) != set);
    QCOMPARE(s.labelSet(set).size(), std::size_t { 1 });
    const StringId ns = c.store.strings().find("default");
    QCOMPARE(s.podsWithLabelSet(set, ns, n1), 1);
    QCOMPARE(s.nodesWithLabelSet(set, ns).size(), std::size_t { 2 });
    QCOMPARE(s.podsWithAntiAffinity().size(), std::size_t { 2 });
    QVERIFY(s.movePod(c.web1, n2));
    QCOMPARE(s.podsWithLabelSet(set, ns, n1), 0);
    QCOMPARE(s.podsWithLabelSet(set, ns, n2), 2);
    QCOMPARE(s.nodesWithLabelSet(set, ns), (std::vector<std::pair<NodeId, std::int32_t>> { { n2, 2 } }));
    QVERIFY(s.evictPod(c.web2));
    QCOMPARE(s.podsWithAntiAffinity(), (std::vector<std::pair<PodId, NodeId>> { { c.web1, n2 } }));
    QVERIFY(s.restorePod(c.web2));
    QVERIFY(s.restorePod(c.web1));
    QCOMPARE(s.podsWithLabelSet(set, ns, n1), 1);
    QCOMPARE(s.podsWithLabelSet(set, ns, n2), 1);
    QCOMPARE(s.podsWithAntiAffinity().size(), std::size_t { 2 });
}

QTEST_GUILESS_MAIN(TestPlanLedger)
#include "tst_planledger.moc"
