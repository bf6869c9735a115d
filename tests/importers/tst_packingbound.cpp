// SPDX-License-Identifier: Apache-2.0
// The consolidation's LP lower bound (model/search/packingrelaxation.h) solved with COIN-OR
// (importers/solver/coinsolver.h): a hand-made fleet whose bound is worked out by hand, the
// keep-within rule, and the bound never above what the consolidation reaches.
#include "importers/clusterloader.h"
#include "importers/solver/coinsolver.h"
#include "model/planfixture.h"
#include "model/search/consolidation.h"
#include "model/search/consolidationbound.h"
#include "model/search/packingrelaxation.h"

#include <QtTest>

using namespace fleet;
using namespace fleet::model;
using planfixture::Cluster;

namespace {

// Two GPU nodes tainted for GPU pods only, beside four 4-cpu nodes.
void gpuNode(Cluster& c, const std::string& name)
{
    NodeRecord r;
    r.name = name;
    r.labels = { { "topology.kubernetes.io/region", "us-east-1" }, { planfixture::kZoneKey, "us-east-1a" }, { "kubernetes.io/hostname", name } };
    r.taints = { { "nvidia.com/gpu", "true", TaintEffect::NoSchedule } };
    r.allocatable.setCore(CoreResource::Cpu, 8000);
    r.allocatable.setCore(CoreResource::Memory, 64 * planfixture::kGi);
    r.allocatable.setCore(CoreResource::Pods, 110);
    r.allocatable.setCore(CoreResource::Gpu, 8000);
    r.gpuCount = 8;
    r.gpuModel = "A100";
    r.capacity = r.allocatable;
    r.ready = Readiness::True;
    r.instanceType = "p4d.24xlarge";
    c.store->addNode(r);
}

void trainPod(Cluster& c, const std::string& name, const std::string& node)
{
    PodRecord r;
    r.namespaceName = "ml";
    r.name = name;
    r.uid = "uid-" + name;
    r.nodeName = node;
    r.phase = PodPhase::Running;
    r.ownerKind = OwnerKind::ReplicaSet;
    r.ownerName = "train-5d4f";
    r.labels = { { "app", "train" }, { "pod-template-hash", "5d4f" } };
    r.tolerations = { { "nvidia.com/gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule } };
    r.request.setCore(CoreResource::Cpu, 1000);
    r.request.setCore(CoreResource::Memory, planfixture::kGi);
    r.request.setCore(CoreResource::Gpu, 2000);
    r.flags = PodFlagReady;
    c.store->addPod(r);
}

PackingBound bound(const Cluster& c, PackingRelaxationOptions options = {})
{
    return packingLowerBound(*c.store, {}, options, [](const LinearProgram& lp, const LinearProgramLimits& l) { return importers::solveWithCoin(lp, l); });
}

} // namespace

class TestPackingBound : public QObject {
    Q_OBJECT
private slots:
    void solverSolvesSmallPrograms()
    {
        // minimise x + y, x + 2y >= 3, 2x + y >= 3: (1, 1), 2; integer the same; x + y >= 1.5 alone: 1.5 / 2.
        LinearProgram lp;
        const auto x = lp.addColumn(0, 10, 1, false), y = lp.addColumn(0, 10, 1, false);
        const auto r1 = lp.addRow(3, LinearProgram::kInfinity), r2 = lp.addRow(3, LinearProgram::kInfinity);
        lp.entries = { { r1, x, 1 }, { r1, y, 2 }, { r2, x, 2 }, { r2, y, 1 } };
        const LinearProgramSolution s = importers::solveWithCoin(lp);
        QCOMPARE(s.status, LinearProgramSolution::Status::Optimal);
        QVERIFY(std::abs(s.objective - 2.0) < 1e-9);
        LinearProgram half;
        const auto a = half.addColumn(0, 10, 1, true), b = half.addColumn(0, 10, 1, true);
        const auto r = half.addRow(1.5, LinearProgram::kInfinity);
        half.entries = { { r, a, 1 }, { r, b, 1 } };
        LinearProgramLimits relaxed;
        relaxed.relaxIntegers = true;
        QVERIFY(std::abs(importers::solveWithCoin(half, relaxed).objective - 1.5) < 1e-9);
        const LinearProgramSolution integer = importers::solveWithCoin(half);
        QCOMPARE(integer.status, LinearProgramSolution::Status::Optimal);
        QVERIFY(std::abs(integer.provenLowerBound - 2.0) < 1e-6);
        LinearProgram bad = half;
        bad.entries.push_back({ 7, 0, 1.0 });
        const LinearProgramSolution refused = importers::solveWithCoin(bad);
        QCOMPARE(refused.status, LinearProgramSolution::Status::Failed);
        QVERIFY2(refused.message.find("row 7") != std::string::npos, refused.message.c_str());
    }

    void terminatingPodsAreNoDemand()
    {
        // 8 cpu of web pods over 4-cpu nodes (2), and four more pods on n3 and n4 that are
        // terminating: leaving, they need no node.
        Cluster c = planfixture::terminatingPodCluster();
        c.finish();
        const PackingBound lp = bound(c);
        QVERIFY2(lp.valid, lp.status.c_str());
        QCOMPARE(lp.movablePods, std::size_t(4));
        QCOMPARE(lp.nodes, 2);
    }

    void handMadeFleet()
    {
        // Web pods (2 cpu, no toleration) may use only the four 4-cpu nodes: 12 cpu -> 3 nodes.
        // Train pods (2 GPUs each, tolerating the taint) use the GPU nodes only: 4 of 8 GPUs ->
        // half a node in the relaxation, one in the integer program. The volume bound
        // (consolidationbound.h) sees 14 cpu over 8-cpu nodes and says 2.
        Cluster c;
        for (const char* n : { "n1", "n2", "n3", "n4" })
            c.node(n, "us-east-1a", 4000);
        gpuNode(c, "g1");
        gpuNode(c, "g2");
        const char* webNodes[] = { "n1", "n1", "n2", "n2", "n3", "n4" };
        for (int i = 0; i < 6; ++i)
            c.pod("default", "web-" + std::to_string(i), webNodes[i], 2000, "web");
        trainPod(c, "train-0", "g1");
        trainPod(c, "train-1", "g2");
        for (const char* n : { "n1", "n2", "n3", "n4", "g1", "g2" })
            c.pod("kube-system", std::string("agent-") + n, n, 0, "agent", PodFlagReady, 0, OwnerKind::DaemonSet);
        c.finish();
        QCOMPARE(nodeCountLowerBound(*c.store).nodes, 2);
        const PackingBound lp = bound(c);
        QVERIFY2(lp.valid, lp.status.c_str());
        QCOMPARE(lp.status, std::string("optimal"));
        QVERIFY2(std::abs(lp.objective - 3.5) < 1e-6, std::to_string(lp.objective).c_str());
        QCOMPARE(lp.nodes, 4);
        QCOMPARE(lp.nodeClasses, std::size_t(2));
        QCOMPARE(lp.podClasses, std::size_t(2));
        QCOMPARE(lp.movablePods, std::size_t(8));
        PackingRelaxationOptions integer;
        integer.integer = true;
        const PackingBound ip = bound(c, integer);
        QVERIFY2(std::abs(ip.objective - 4.0) < 1e-6, std::to_string(ip.objective).c_str());
        // Whatever the consolidation keeps, it is never below the bound.
        ConsolidationInput in;
        in.nodePricePerHour.assign(c.store->nodeCount(), 1.0);
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QVERIFY(r.after.nodes >= lp.nodes);
    }

    void pinnedNodesStay()
    {
        // A bare pod (no controller) pins its node: 3 nodes of 4 cpu, one 1-cpu pod on each,
        // the middle one bare. Without it: ceil(3/4) = 1; with it the bound is still 1 (the
        // pinned node takes the others), and n2's class keeps y >= 1.
        Cluster c;
        for (const char* n : { "n1", "n2", "n3" })
            c.node(n, "us-east-1a", 4000);
        c.pod("default", "a-0", "n1", 1000, "a");
        c.pod("default", "bare", "n2", 1000, "");
        c.pod("default", "a-1", "n3", 1000, "a");
        c.finish();
        const PackingBound b = bound(c);
        QCOMPARE(b.pinnedNodes, std::size_t(1));
        QCOMPARE(b.movablePods, std::size_t(2));
        QCOMPARE(b.nodes, 1);
    }

    void keepWithinZone()
    {
        // One 2-cpu pod in each of two zones on 4-cpu nodes: one node could hold both, but not
        // when pods keep their zone; the integer bound says so (2), the relaxation 1 (0.5 + 0.5).
        Cluster c;
        c.node("a1", "us-east-1a", 4000);
        c.node("b1", "us-east-1b", 4000);
        c.pod("default", "w-0", "a1", 2000, "w");
        c.pod("default", "w-1", "b1", 2000, "w");
        c.finish();
        PackingRelaxationOptions integer;
        integer.integer = true;
        QCOMPARE(bound(c, integer).nodes, 1);
        integer.keepWithinLabel = planfixture::kZoneKey;
        const PackingBound kept = bound(c, integer);
        QCOMPARE(kept.nodes, 2);
        QCOMPARE(kept.podClasses, std::size_t(2));
    }

    void neverAboveTheSearch_data()
    {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("seed");
        QTest::newRow("300 nodes, seed 1") << 300 << 1;
        QTest::newRow("500 nodes, seed 7") << 500 << 7;
    }
    void neverAboveTheSearch()
    {
        QFETCH(int, nodes);
        QFETCH(int, seed);
        const importers::LoadedCluster cluster = importers::loadSimulatedCluster({ static_cast<std::size_t>(nodes), static_cast<std::uint64_t>(seed) });
        ConsolidationInput in;
        in.nodePricePerHour.assign(cluster.store->nodeCount(), 1.0);
        const ConsolidationResult r = consolidate(*cluster.store, *cluster.topology, in);
        const PackingBound lp = packingLowerBound(*cluster.store, r.pendingPods, {}, importers::solveWithCoin);
        QVERIFY2(lp.valid, lp.status.c_str());
        const NodeCountBound volume = nodeCountLowerBound(*cluster.store, r.pendingPods);
        qInfo("%d nodes: plan keeps %lld, LP bound %lld (%.2f; %zu node classes, %zu pod classes), volume bound %lld", nodes,
            static_cast<long long>(r.after.nodes), static_cast<long long>(lp.nodes), lp.objective, lp.nodeClasses, lp.podClasses,
            static_cast<long long>(volume.nodes));
        QVERIFY(lp.nodes > 0);
        QVERIFY2(lp.nodes <= r.after.nodes, "the bound is above a plan that holds");
        PackingRelaxationOptions integer;
        integer.integer = true;
        integer.timeLimitSeconds = 20;
        const PackingBound ip = packingLowerBound(*cluster.store, r.pendingPods, integer, importers::solveWithCoin);
        QVERIFY2(ip.valid, ip.status.c_str());
        QVERIFY(ip.nodes >= lp.nodes);
        QVERIFY2(ip.nodes <= r.after.nodes, "the integer bound is above a plan that holds");
    }
};

QTEST_GUILESS_MAIN(TestPackingBound)
#include "tst_packingbound.moc"
