// SPDX-License-Identifier: Apache-2.0
// Each placement policy (model/placement/) on a small hand-made cluster whose answers were
// worked out by hand from the policies' rules (PROTOCOL.md section 4; kube-scheduler's
// least_allocated.go / most_allocated.go). Feasibility comes from the what-if's filters.
//
// The cluster (free cpu c, free milli-GPU per GPU L):
//   a: G2 x8, 96 cores, idle                      c 96000,  L [1000 x 8]
//   b: T4 x2, 104 cores, a 500-milli share pod   c 102000, L [500, 1000]
//   c: V100 x4, 32 cores, a one-GPU pod           c 30000,  L [0, 1000, 1000, 1000]
//   d: P100 x1, 8 cores, idle                     c 8000,   L [1000]
// Memory 100 GiB a node, 10 GiB a pod. FGD's typical pods: (1 core, 500 milli, 1 GPU) and
// (1 core, 1000 milli, 1 GPU), half each.

#include "model/placement/fgdpolicy.h"
#include "model/placement/typicalpods.h"
#include "tst_filters_fixture.h"

#include <QtTest>

using namespace fixture;

namespace {

struct Cluster {
    ClusterStore store;
    PodId share, whole4, cpuOnly;
    Cluster()
    {
        auto gpuNode = [&](const std::string& name, const std::string& model, int gpus, std::int64_t cpu) {
            NodeRecord r = node(name, cpu, 100 * kGi);
            r.allocatable.setCore(CoreResource::Gpu, gpus * 1000);
            r.capacity = r.allocatable;
            r.gpuCount = gpus;
            r.gpuModel = model;
            r.labels.emplace_back("alibabacloud.com/gpu-card-model", model);
            store.addNode(r);
        };
        gpuNode("a", "G2", 8, 96000);
        gpuNode("b", "T4", 2, 104000);
        gpuNode("c", "V100", 4, 32000);
        gpuNode("d", "P100", 1, 8000);
        PodRecord s = pod("held-share", "b", 2000, 10 * kGi);
        s.request.setCore(CoreResource::Gpu, 500);
        s.gpuShareMilli = 500;
        store.addPod(s);
        PodRecord w = pod("held-gpu", "c", 2000, 10 * kGi);
        w.request.setCore(CoreResource::Gpu, 1000);
        store.addPod(w);
        PodRecord q = pod("share-300", {}, 10000, 10 * kGi);
        q.request.setCore(CoreResource::Gpu, 300);
        q.gpuShareMilli = 300;
        share = store.addPod(q);
        PodRecord g = pod("four-gpus", {}, 4000, 10 * kGi);
        g.request.setCore(CoreResource::Gpu, 4000);
        whole4 = store.addPod(g);
        cpuOnly = store.addPod(pod("cpu-only", {}, 4000, 10 * kGi));
        store.finalize();
    }
};

std::vector<TypicalPod> twoTypicalPods()
{
    TypicalPod half;
    half.shape = { 1000, 0, 500, 1 };
    half.probability = 0.5;
    TypicalPod whole = half;
    whole.shape.gpuMilli = 1000;
    return { half, whole };
}

} // namespace

class TestPlacementPolicies : public QObject {
    Q_OBJECT
private slots:
    void choice_data();
    void choice();
    void fragmentationOfANode();
    void randomPicksAFeasibleNodeAndGpu();
    void unknownPolicyIsAnError();
    void typicalPodsKeepTheCommonKeys();
};

void TestPlacementPolicies::choice_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("pod");
    QTest::addColumn<bool>("reversedRank"); // node order d, c, b, a instead of a, b, c, d
    QTest::addColumn<QString>("node");
    QTest::addColumn<quint64>("gpus");
    // The 300-milli share (10 cores: d cannot take it). BestFit raw a 18, b 56, c 75.
    QTest::newRow("BestFit share") << "BestFit" << "share-300" << false << "c" << quint64(0b10);
    // DotProduct a 95, b 96, c 98.
    QTest::newRow("DotProduct share") << "DotProduct" << "share-300" << false << "c" << quint64(0b10);
    // GpuPacking a max(33-8, 8) = 25, b 100 - 50/10 = 95 (tops up its shared GPU), c max(50-1, 33) = 49.
    QTest::newRow("GpuPacking share") << "GpuPacking" << "share-300" << false << "b" << quint64(0b01);
    // GpuClustering a 0 + 25 (no GPU pod), b 20 + 75 (only shares), c 15 (another kind).
    QTest::newRow("GpuClustering share") << "GpuClustering" << "share-300" << false << "b" << quint64(0b01);
    // FGD: a F 0 -> 350 (score 41); b F 250 -> 200 on GPU 0 (51) or 600 on GPU 1 (41); c 0 -> 350 (41).
    QTest::newRow("FGD share") << "FGD" << "share-300" << false << "b" << quint64(0b01);
    QTest::newRow("FGDFine share") << "FGDFine" << "share-300" << false << "b" << quint64(0b01);
    // LeastAllocated a (89 + 90) / 2 = 89, b (88 + 80) / 2 = 84, c (62 + 80) / 2 = 71.
    QTest::newRow("LeastAllocated share") << "LeastAllocated" << "share-300" << false << "a" << quint64(0b01);
    // MostAllocated a (10 + 10) / 2 = 10, b (11 + 20) / 2 = 15, c (37 + 20) / 2 = 28.
    QTest::newRow("MostAllocated share") << "MostAllocated" << "share-300" << false << "c" << quint64(0b10);
    // Four whole GPUs: only a has four idle; the lowest four.
    for (const char* p : { "FGD", "BestFit", "GpuPacking", "GpuClustering", "DotProduct", "Random", "LeastAllocated", "MostAllocated" })
        QTest::newRow(qPrintable(QStringLiteral("%1 four GPUs").arg(QLatin1String(p)))) << p << "four-gpus" << true << "a" << quint64(0b1111);
    // A CPU-only pod: GpuPacking, GpuClustering and FGD (no change in fragmentation) tie
    // everywhere, so the node order decides; BestFit raw a 14, b 52, c 71, d 92.
    QTest::newRow("GpuPacking cpu, order") << "GpuPacking" << "cpu-only" << false << "a" << quint64(0);
    QTest::newRow("GpuPacking cpu, reversed") << "GpuPacking" << "cpu-only" << true << "d" << quint64(0);
    QTest::newRow("GpuClustering cpu, reversed") << "GpuClustering" << "cpu-only" << true << "d" << quint64(0);
    QTest::newRow("FGD cpu, order") << "FGD" << "cpu-only" << false << "a" << quint64(0);
    QTest::newRow("FGD cpu, reversed") << "FGD" << "cpu-only" << true << "d" << quint64(0);
    QTest::newRow("BestFit cpu") << "BestFit" << "cpu-only" << false << "d" << quint64(0);
    // Ours: FGD's ties go to nodes already holding pods (b, c) before the node order.
    QTest::newRow("FGDTieInUse cpu, order") << "FGDTieInUse" << "cpu-only" << false << "b" << quint64(0);
    QTest::newRow("FGDTieInUse cpu, reversed") << "FGDTieInUse" << "cpu-only" << true << "c" << quint64(0);
    QTest::newRow("FGDTieInUse share") << "FGDTieInUse" << "share-300" << false << "b" << quint64(0b01);
    QTest::newRow("FGDFineGpu share") << "FGDFineGpu" << "share-300" << false << "b" << quint64(0b01);
}

void TestPlacementPolicies::choice()
{
    QFETCH(QString, policy);
    QFETCH(QString, pod);
    QFETCH(bool, reversedRank);
    QFETCH(QString, node);
    QFETCH(quint64, gpus);
    Cluster c;
    PlanLedger state(c.store);
    const PodId p = findPod(c.store, pod.toStdString());
    QVERIFY(p.isValid());
    const PodFeasibility f(state, p);
    std::vector<NodeId> feasible;
    for (std::uint32_t n = 0; n < state.nodeCount(); ++n)
        if (f.feasible(NodeId(n)))
            feasible.emplace_back(n);
    QVERIFY(!feasible.empty());
    std::vector<std::uint32_t> rank;
    if (reversedRank)
        rank = { 3, 2, 1, 0 };
    const auto policyObject = makePlacementPolicy(policy.toStdString(), twoTypicalPods(), 1);
    QCOMPARE(QString::fromUtf8(policyObject->name().data(), static_cast<qsizetype>(policyObject->name().size())), policy);
    const PodShape shape = podShape(c.store, p);
    const NodeId chosen = policyObject->choose(state, shape, feasible, rank);
    QVERIFY(chosen.isValid());
    QCOMPARE(QString::fromUtf8(state.nodeName(chosen).data(), static_cast<qsizetype>(state.nodeName(chosen).size())), node);
    const std::uint64_t mask = policyObject->chooseGpus(state, shape, chosen);
    if (policy != QLatin1String("Random") || pod != QLatin1String("share-300"))
        QCOMPARE(quint64(mask), gpus);
    // The ledger takes the pod on the GPUs chosen.
    QVERIFY(state.movePod(p, chosen, mask));
    const auto used = state.nodeGpuShares(chosen);
    for (std::size_t i = 0; i < used.size(); ++i)
        if (gpus >> i & 1)
            QVERIFY2(used[i] >= shape.gpuMilli, qPrintable(QStringLiteral("GPU %1 holds %2").arg(i).arg(used[i])));
}

void TestPlacementPolicies::fragmentationOfANode()
{
    // b before: the 500-milli typical pod fits leaving nothing below 500 (0); the whole-GPU one
    // fits leaving GPU 0's 500 as fragment: 0.5 * 0 + 0.5 * 500.
    Cluster c;
    PlanLedger state(c.store);
    placement::FgdPolicy fgd(twoTypicalPods(), placement::FgdPolicy::Precision::Fine);
    QCOMPARE(fgd.fragmentation(state, NodeId(1)), 250.0);
    QCOMPARE(fgd.fragmentation(state, NodeId(0)), 0.0);
    // A node that lacks the cpu for a typical pod counts all its free GPU as fragment.
    const std::int32_t free[] = { 1000, 300 };
    const std::uint8_t allowed[] = { 1, 1 };
    QCOMPARE(nodeFragmentation(500, free, twoTypicalPods(), allowed), 1300.0);
    QCOMPARE(nodeFragmentation(1000, free, twoTypicalPods(), allowed), 0.5 * 300 + 0.5 * 300);
    // A model the typical pod does not accept: all of it.
    const std::uint8_t notAllowed[] = { 0, 1 };
    QCOMPARE(nodeFragmentation(1000, free, twoTypicalPods(), notAllowed), 0.5 * 1300 + 0.5 * 300);
    // The cache follows the ledger: after a move the figure is recomputed.
    const PodId p = findPod(c.store, "share-300");
    QVERIFY(state.movePod(p, NodeId(1), 0b01));
    QCOMPARE(fgd.fragmentation(state, NodeId(1)), 0.5 * 200 + 0.5 * 200);
}

void TestPlacementPolicies::randomPicksAFeasibleNodeAndGpu()
{
    Cluster c;
    PlanLedger state(c.store);
    const PodId p = findPod(c.store, "share-300");
    const std::vector<NodeId> feasible { NodeId(0), NodeId(1), NodeId(2) };
    const auto random = makePlacementPolicy("Random", {}, 7);
    std::array<int, 3> hits {};
    for (int i = 0; i < 300; ++i) {
        const NodeId n = random->choose(state, podShape(c.store, p), feasible, {});
        QVERIFY(n.index() < 3);
        ++hits[n.index()];
        const std::uint64_t mask = random->chooseGpus(state, podShape(c.store, p), NodeId(2));
        QVERIFY(mask == 0b10 || mask == 0b100 || mask == 0b1000); // c's GPU 0 is full
    }
    for (int h : hits)
        QVERIFY2(h > 60, qPrintable(QStringLiteral("a node chosen %1 times of 300").arg(h)));
}

void TestPlacementPolicies::unknownPolicyIsAnError()
{
    try {
        (void)makePlacementPolicy("Tetris", {}, 1);
        QFAIL("no error");
    } catch (const std::invalid_argument& e) {
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("unknown placement policy \"Tetris\" (known: FGD, BestFit")));
    }
}

void TestPlacementPolicies::typicalPodsKeepTheCommonKeys()
{
    ClusterStore store;
    store.addNode(node("n"));
    // 6 pods of (1000, 1 GPU), 3 of (2000 cpu only), 1 of (500, share 250 on T4).
    for (int i = 0; i < 6; ++i) {
        PodRecord r = pod("g" + std::to_string(i), {}, 1000);
        r.request.setCore(CoreResource::Gpu, 1000);
        store.addPod(r);
    }
    for (int i = 0; i < 3; ++i)
        store.addPod(pod("c" + std::to_string(i), {}, 2000));
    PodRecord s = pod("s", {}, 500);
    s.request.setCore(CoreResource::Gpu, 250);
    s.gpuShareMilli = 250;
    s.requiredAffinityTerms = { { { "alibabacloud.com/gpu-card-model", SelectorOperator::In, { "T4" }, false } } };
    store.addPod(s);
    store.finalize();
    std::vector<PodId> all;
    for (std::uint32_t i = 0; i < store.podCount(); ++i)
        all.emplace_back(i);
    // 90% coverage: 6 + 3 pods reach it; the share is left out.
    const auto t = typicalPods(store, all, { true, true, 0.9 });
    QCOMPARE(t.size(), std::size_t(2));
    QCOMPARE(t[0].shape.gpuCount, 1);
    QCOMPARE(t[0].probability, 6.0 / 9.0);
    QCOMPARE(t[1].shape.gpuCount, 0);
    const auto all3 = typicalPods(store, all, { true, true, 1.0 });
    QCOMPARE(all3.size(), std::size_t(3));
    QCOMPARE(all3[2].spec, std::string("T4"));
    QCOMPARE(all3[2].shape.gpuMilli, 250);
    // Without CPU-only pods: the GPU ones only.
    const auto gpuOnly = typicalPods(store, all, { false, true, 1.0 });
    QCOMPARE(gpuOnly.size(), std::size_t(2));
    QCOMPARE(gpuOnly[0].probability, 6.0 / 7.0);
}

QTEST_GUILESS_MAIN(TestPlacementPolicies)
#include "tst_placementpolicies.moc"
