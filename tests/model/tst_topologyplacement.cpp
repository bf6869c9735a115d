// SPDX-License-Identifier: Apache-2.0
// Topology-aware placement (model/placement/topologyplacement.h) and the place-pods plan
// action on small hand-made network topologies with hand-worked answers: required and
// preferred levels with BestFit, slices, a gang that fits nowhere with its per-level
// explanation, a node whose network has a layer 4, a template without the GPU toleration, and
// the action applied, undone and applied again.

#include "planfixture.h"

#include "model/placement/topologyplacement.h"
#include "model/scheduling/filters.h"

#include <QtTest>

using namespace planfixture;

namespace {

const std::string kL1 = "topology.k8s.aws/network-node-layer-1";
const std::string kL2 = "topology.k8s.aws/network-node-layer-2";
const std::string kL3 = "topology.k8s.aws/network-node-layer-3";
const std::string kL4 = "topology.k8s.aws/network-node-layer-4";

struct Net {
    Cluster c;
    /// An 8-GPU node, tainted nvidia.com/gpu:NoSchedule, in layers l1/l2/l3 (and l4 when given).
    void gpuNode(const std::string& name, const std::string& l1, const std::string& l2, const std::string& l3, const std::string& l4 = {})
    {
        NodeRecord r;
        r.name = name;
        r.labels = { { "topology.kubernetes.io/region", "us-east-1" }, { kZoneKey, "us-east-1a" }, { "kubernetes.io/hostname", name },
            { kL1, l1 }, { kL2, l2 }, { kL3, l3 } };
        if (!l4.empty())
            r.labels.emplace_back(kL4, l4);
        r.taints.emplace_back("nvidia.com/gpu", "true", TaintEffect::NoSchedule);
        r.allocatable.setCore(CoreResource::Cpu, 192000);
        r.allocatable.setCore(CoreResource::Memory, 2048 * kGi);
        r.allocatable.setCore(CoreResource::Pods, 110);
        r.allocatable.setCore(CoreResource::Gpu, 8000);
        r.gpuCount = 8;
        r.gpuModel = "H100";
        r.capacity = r.allocatable;
        r.ready = Readiness::True;
        r.instanceType = "p5.48xlarge";
        c.store->addNode(r);
    }
    /// The template: a pending pod of `gpus` GPUs (tolerating their taint unless told not to).
    PodId templ(std::int64_t gpus = 8, bool tolerates = true)
    {
        PodRecord r;
        r.namespaceName = "ml";
        r.name = "train";
        r.phase = PodPhase::Pending;
        r.request.setCore(CoreResource::Cpu, 1000);
        r.request.setCore(CoreResource::Memory, kGi);
        r.request.setCore(CoreResource::Gpu, gpus * 1000);
        if (tolerates)
            r.tolerations.emplace_back("nvidia.com/gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
        return c.store->addPod(r);
    }
};

// Layer 1 A: layer 2 A1: blocks A1a (a1..a4) and A1b (a5, a6). Layer 1 B: B1: B1a (b1..b3),
// b3 half used by a running 4-GPU pod (so it takes no 8-GPU pod).
Net twoNetworks(bool tolerates = true)
{
    Net n;
    for (int i = 1; i <= 4; ++i)
        n.gpuNode("a" + std::to_string(i), "A", "A1", "A1a");
    n.gpuNode("a5", "A", "A1", "A1b");
    n.gpuNode("a6", "A", "A1", "A1b");
    for (int i = 1; i <= 3; ++i)
        n.gpuNode("b" + std::to_string(i), "B", "B1", "B1a");
    n.c.pod("ml", "old-0", "b3", 1000, "old", PodFlagReady, 4);
    n.templ(8, tolerates);
    n.c.finish();
    return n;
}

std::vector<std::string> nodeNames(const PlanLedger& s, const TopologyPlacement& p)
{
    std::vector<std::string> out;
    for (const auto& [n, k] : p.nodes)
        for (std::int32_t i = 0; i < k; ++i)
            out.emplace_back(s.nodeName(n));
    std::sort(out.begin(), out.end());
    return out;
}

using Names = std::vector<std::string>;

} // namespace

class TestTopologyPlacement : public QObject {
    Q_OBJECT
private slots:
    void required_data();
    void required();
    void preferredClimbsToTheSmallestDomain();
    void keepWithinStopsTheClimb();
    void slices_data();
    void slices();
    void gangThatFitsNowhere();
    void largestGangWithSlicesOfWholeBlocks();
    void withoutGangPlacesWhatFits();
    void untoleratedTaintExplained();
    void closestIsADomainTheSelectorAllows();
    void layer4IsTheBottomWhereNodesHaveIt();
    void badRequests();
    void planActionAppliedUndoneReapplied();
    void drainAndFailureOfPlannedPods();
};

void TestTopologyPlacement::required_data()
{
    QTest::addColumn<QString>("level");
    QTest::addColumn<int>("pods");
    QTest::addColumn<Names>("nodes");
    // BestFit: the domain with the least capacity that holds the pods (B holds 2, A 6).
    QTest::newRow("layer-1, 2 pods: B") << QString::fromStdString(kL1) << 2 << Names { "b1", "b2" };
    QTest::newRow("layer-1, 4 pods: A, block A1a") << QString::fromStdString(kL1) << 4 << Names { "a1", "a2", "a3", "a4" };
    QTest::newRow("layer-3, 2 pods: A1b (the tightest block)") << QString::fromStdString(kL3) << 2 << Names { "a5", "a6" };
    QTest::newRow("layer-1, 6 pods: all of A") << QString::fromStdString(kL1) << 6 << Names { "a1", "a2", "a3", "a4", "a5", "a6" };
}

void TestTopologyPlacement::required()
{
    QFETCH(QString, level);
    QFETCH(int, pods);
    QFETCH(Names, nodes);
    Net n = twoNetworks();
    const PlanLedger state(*n.c.store);
    TopologyRequest r;
    r.pods = pods;
    r.requiredLevel = level.toStdString();
    const TopologyPlacement p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(p.fits);
    QCOMPARE(p.podsPlaced, pods);
    QCOMPARE(p.levelKey, level.toStdString());
    QCOMPARE(p.domains.size(), std::size_t(1));
    QCOMPARE(nodeNames(state, p), nodes);
    QVERIFY(p.reasons.empty());
}

void TestTopologyPlacement::preferredClimbsToTheSmallestDomain()
{
    Net n = twoNetworks();
    const PlanLedger state(*n.c.store);
    TopologyRequest r;
    r.pods = 5;
    r.preferredLevel = kL3; // no block holds 5: layer 2 A1 does (4 in A1a, then 1 in A1b)
    TopologyPlacement p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(p.fits);
    QCOMPARE(p.levelKey, kL2);
    QCOMPARE(p.domains.front(), "topology.kubernetes.io/region=us-east-1/topology.kubernetes.io/zone=us-east-1a/" + kL1 + "=A/" + kL2 + "=A1");
    QCOMPARE(nodeNames(state, p), (Names { "a1", "a2", "a3", "a4", "a5" }));
    // 8 pods: no network holds them; the zone does (A's 6 and B's 2).
    r.pods = 8;
    p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(p.fits);
    QCOMPARE(p.levelKey, kZoneKey);
    QCOMPARE(nodeNames(state, p), (Names { "a1", "a2", "a3", "a4", "a5", "a6", "b1", "b2" }));
}

void TestTopologyPlacement::slices_data()
{
    QTest::addColumn<int>("pods");
    QTest::addColumn<int>("sliceSize");
    QTest::addColumn<bool>("fits");
    QTest::addColumn<Names>("nodes");
    // Slices of 2 per block: A1a holds 2, A1b 1, so A holds 3 slices.
    QTest::newRow("6 pods, slices of 2") << 6 << 2 << true << Names { "a1", "a2", "a3", "a4", "a5", "a6" };
    QTest::newRow("2 pods, slices of 2: B (BestFit)") << 2 << 2 << true << Names { "b1", "b2" };
    // Slices of 3: A1a holds one (of its 4 pods), A1b none: A holds 6 pods but 1 slice.
    QTest::newRow("6 pods, slices of 3: does not fit") << 6 << 3 << false << Names {};
    QTest::newRow("3 pods, slices of 3: one block") << 3 << 3 << true << Names { "a1", "a2", "a3" };
}

void TestTopologyPlacement::slices()
{
    QFETCH(int, pods);
    QFETCH(int, sliceSize);
    QFETCH(bool, fits);
    QFETCH(Names, nodes);
    Net n = twoNetworks();
    const PlanLedger state(*n.c.store);
    TopologyRequest r;
    r.pods = pods;
    r.requiredLevel = kL1;
    r.sliceSize = sliceSize;
    r.sliceLevel = kL3;
    const TopologyPlacement p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QCOMPARE(p.fits, fits);
    QCOMPARE(nodeNames(state, p), nodes);
    if (!fits) {
        QCOMPARE(p.shortfalls.size(), std::size_t(1));
        QCOMPARE(p.shortfalls[0].slicesFit, 1);
        QCOMPARE(p.shortfalls[0].podsFit, 6);
        QCOMPARE(p.reasons.front().code(), "topology-domain:" + kL1);
        QVERIFY2(p.reasons.front().message.find("holds 1 whole slice (6 pods fit) and lacks 1 slice") != std::string::npos,
            p.reasons.front().message.c_str());
    }
}

void TestTopologyPlacement::gangThatFitsNowhere()
{
    Net n = twoNetworks();
    const PlanLedger state(*n.c.store);
    TopologyRequest r;
    r.pods = 9; // the cluster holds 8
    r.preferredLevel = kL3;
    const TopologyPlacement p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(!p.fits);
    QCOMPARE(p.podsPlaced, 0);
    QVERIFY(p.nodes.empty());
    // One shortfall per level tried, from the preferred level up to the region.
    QCOMPARE(p.shortfalls.size(), std::size_t(5));
    QCOMPARE(p.shortfalls[0].levelKey, kL3);
    QVERIFY2(p.shortfalls[0].closestDomain.ends_with(kL2 + "=A1/" + kL3 + "=A1a"), p.shortfalls[0].closestDomain.c_str());
    QCOMPARE(p.shortfalls[0].podsFit, 4);
    QCOMPARE(p.shortfalls[2].levelKey, kL1);
    QCOMPARE(p.shortfalls[2].podsFit, 6);
    QCOMPARE(p.shortfalls[4].levelKey, "topology.kubernetes.io/region");
    QCOMPARE(p.shortfalls[4].podsFit, 8);
    // The region's closest domain: b3 takes none, for lack of whole GPUs.
    QCOMPARE(p.shortfalls[4].nodesFull, 1);
    QCOMPARE(p.shortfalls[4].nodeReasons.front().first, "insufficient-nvidia.com/gpu");
    QCOMPARE(p.reasons.size(), std::size_t(5));
    QVERIFY2(p.reasons.back().message.find("lacks 1 pod") != std::string::npos, p.reasons.back().message.c_str());
}

// The bench's question (bench_gang, bench_consolidate's gang keys) on blocks of 4 nodes with
// slices of 4 per block: a slice needs a whole idle block. Layer 1 A: A1a and A1b idle, A1c
// with 2 of 4 nodes busy (half their GPUs used); layer 1 B: B1a with one busy node, B1b of 3
// idle nodes. Sliced: A holds 2 slices (8 pods), B none: the largest gang is 8, in A1a and
// A1b; 12 is refused, A's 2 slices named. Unsliced: A holds 10, B 6. With one busy node in every
// block (as on the simulated fleet, where at most 8 nodes of a 16-node block take an 8-GPU pod)
// the sliced answer is 0 while the unsliced one is not.
void TestTopologyPlacement::largestGangWithSlicesOfWholeBlocks()
{
    auto build = [](bool everyBlockBusy) {
        auto n = std::make_unique<Net>();
        const std::vector<std::pair<std::string, int>> blocks = { { "A1a", 4 }, { "A1b", 4 }, { "A1c", 4 }, { "B1a", 4 }, { "B1b", 3 } };
        int k = 0;
        for (const auto& [block, nodes] : blocks)
            for (int i = 0; i < nodes; ++i) {
                const std::string name = block + "-" + std::to_string(i);
                n->gpuNode(name, block.substr(0, 1), block.substr(0, 2), block);
                const bool busy = (block == "A1c" && i < 2) || (block == "B1a" && i == 0) || (everyBlockBusy && i == 0);
                if (busy)
                    n->c.pod("ml", "old-" + std::to_string(k++), name, 1000, "old", PodFlagReady, 4);
            }
        n->templ(8);
        n->c.finish();
        return n;
    };
    TopologyRequest sliced; // 4 pods in one layer-1 domain, slices of 4 per block
    sliced.pods = 4;
    sliced.requiredLevel = kL1;
    sliced.sliceSize = 4;
    sliced.sliceLevel = kL3;
    TopologyRequest unsliced = sliced;
    unsliced.sliceSize = 0;
    unsliced.sliceLevel.clear();
    {
        const auto n = build(false);
        const PlanLedger state(*n->c.store);
        const PodId templ = n->c.podNamed("train");
        QCOMPARE(largestTopologyFit(state, *n->c.topology, templ, sliced), 8);
        QCOMPARE(largestTopologyFit(state, *n->c.topology, templ, unsliced), 10);
        TopologyRequest r = sliced;
        r.pods = 8;
        const TopologyPlacement p = findTopologyPlacement(state, *n->c.topology, templ, r);
        QVERIFY(p.fits);
        QCOMPARE(nodeNames(state, p), (Names { "A1a-0", "A1a-1", "A1a-2", "A1a-3", "A1b-0", "A1b-1", "A1b-2", "A1b-3" }));
        r.pods = 12;
        const TopologyPlacement refused = findTopologyPlacement(state, *n->c.topology, templ, r);
        QVERIFY(!refused.fits);
        QVERIFY(refused.nodes.empty());
        QCOMPARE(refused.shortfalls.size(), std::size_t(1));
        QCOMPARE(refused.shortfalls[0].slicesFit, 2);
        QVERIFY2(refused.reasons.front().message.find("holds 2 whole slices (10 pods fit) and lacks 1 slice") != std::string::npos,
            refused.reasons.front().message.c_str());
    }
    {
        const auto n = build(true);
        const PlanLedger state(*n->c.store);
        const PodId templ = n->c.podNamed("train");
        QCOMPARE(largestTopologyFit(state, *n->c.topology, templ, sliced), 0);
        QCOMPARE(largestTopologyFit(state, *n->c.topology, templ, unsliced), 8); // A: 3 + 3 + 2
    }
}

void TestTopologyPlacement::withoutGangPlacesWhatFits()
{
    Net n = twoNetworks();
    const PlanLedger state(*n.c.store);
    TopologyRequest r;
    r.pods = 9;
    r.preferredLevel = kL3;
    r.gang = false;
    const TopologyPlacement p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(!p.fits);
    QCOMPARE(p.podsPlaced, 8);
    // Required: what the closest domain holds.
    r.preferredLevel.clear();
    r.requiredLevel = kL1;
    const TopologyPlacement q = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QCOMPARE(q.podsPlaced, 6);
    QCOMPARE(q.reasons.size(), std::size_t(1));
}

void TestTopologyPlacement::untoleratedTaintExplained()
{
    Net n = twoNetworks(false);
    const PlanLedger state(*n.c.store);
    TopologyRequest r;
    r.pods = 1;
    r.requiredLevel = kL1;
    const TopologyPlacement p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(!p.fits);
    QCOMPARE(p.shortfalls.size(), std::size_t(1));
    QCOMPARE(p.shortfalls[0].nodesFull, 6); // A, the closest (ties by name), all 6 tainted
    QCOMPARE(p.shortfalls[0].nodeReasons.front().first, "untolerated-taint:nvidia.com/gpu=true:NoSchedule");
    QCOMPARE(p.shortfalls[0].nodeReasons.front().second, 6);
}

// A template whose nodeSelector names one domain's label (Place Workload Here… on a domain
// label): when no domain holds a pod, the closest named is the one the selector allows, with
// why its own nodes take none, not a domain whose nodes the selector rules out.
void TestTopologyPlacement::closestIsADomainTheSelectorAllows()
{
    Net n;
    n.gpuNode("a1", "A", "A1", "A1a");
    n.gpuNode("a2", "A", "A1", "A1a");
    n.gpuNode("b1", "B", "B1", "B1a");
    n.c.pod("ml", "old-0", "b1", 1000, "old", PodFlagReady, 4); // b1 has 4 GPUs left
    PodRecord r;
    r.namespaceName = "ml";
    r.name = "train";
    r.phase = PodPhase::Pending;
    r.request.setCore(CoreResource::Cpu, 1000);
    r.request.setCore(CoreResource::Memory, kGi);
    r.request.setCore(CoreResource::Gpu, 8000);
    r.tolerations.emplace_back("nvidia.com/gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
    r.nodeSelector = { { kL1, "B" } };
    n.c.store->addPod(r);
    n.c.finish();
    const PlanLedger state(*n.c.store);
    TopologyRequest req;
    req.pods = 1;
    req.requiredLevel = kL1;
    const TopologyPlacement p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), req);
    QVERIFY(!p.fits);
    QCOMPARE(p.shortfalls.size(), std::size_t(1));
    const LevelShortfall& s = p.shortfalls[0];
    QVERIFY2(s.closestDomain.ends_with(kL1 + "=B"), s.closestDomain.c_str());
    QCOMPARE(s.nodes, 1);
    QCOMPARE(s.nodesFull, 1);
    QCOMPARE(s.nodeReasons.size(), std::size_t(1));
    QCOMPARE(s.nodeReasons.front().first, "insufficient-nvidia.com/gpu");
    QVERIFY2(s.reason.message.find(kL1 + "=B") != std::string::npos, s.reason.message.c_str());
}

void TestTopologyPlacement::layer4IsTheBottomWhereNodesHaveIt()
{
    // Block C1a: c1, c2 under layer-4 x, c3 under y, c4 has no layer 4 (its bottom is C1a).
    Net n;
    n.gpuNode("c1", "C", "C1", "C1a", "x");
    n.gpuNode("c2", "C", "C1", "C1a", "x");
    n.gpuNode("c3", "C", "C1", "C1a", "y");
    n.gpuNode("c4", "C", "C1", "C1a");
    n.templ();
    n.c.finish();
    const PlanLedger state(*n.c.store);
    const std::vector<std::string> levels = topologyPlacementLevels(state, *n.c.topology);
    QVERIFY(std::find(levels.begin(), levels.end(), kL4) != levels.end());
    QCOMPARE(*(std::find(levels.begin(), levels.end(), kL3) + 1), kL4);
    TopologyRequest r;
    r.pods = 2;
    r.requiredLevel = kL4;
    TopologyPlacement p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(p.fits);
    QCOMPARE(nodeNames(state, p), (Names { "c1", "c2" }));
    // c4 lacks layer 4 and the request's level is layer 4: it is outside, not a domain of its own.
    QCOMPARE(p.nodesOutsideTopology, 1);
    r.pods = 3;
    p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(!p.fits);
    QCOMPARE(p.shortfalls.front().podsFit, 2);
    // Slices of 2 per layer 4 inside layer 3: x holds one, y none, c4's bottom (C1a) none.
    r.pods = 4;
    r.requiredLevel = kL3;
    r.sliceSize = 2;
    r.sliceLevel = kL4;
    p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(!p.fits);
    QCOMPARE(p.shortfalls.front().slicesFit, 1);
    // Slices of 1: every node, c4 through its bottom domain.
    r.sliceSize = 1;
    p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(p.fits);
    QCOMPARE(nodeNames(state, p), (Names { "c1", "c2", "c3", "c4" }));
}

// keep-within: a preferred level climbs no higher than it, and one domain of it holds every pod
// or none (a gang), as a required level; what fits inside it is unchanged.
void TestTopologyPlacement::keepWithinStopsTheClimb()
{
    Net n = twoNetworks();
    const PlanLedger state(*n.c.store);
    TopologyRequest r;
    r.pods = 5;
    r.preferredLevel = kL3;
    r.keepWithinLevel = kL1;
    TopologyPlacement p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(p.fits);
    QCOMPARE(p.levelKey, kL2);
    QCOMPARE(nodeNames(state, p), (Names { "a1", "a2", "a3", "a4", "a5" }));
    // 8 pods: without it the zone holds them across both layer-1 networks; with it, neither
    // network holds 8 (A 6, B 2): nothing, with the layer-1 level's shortfall last.
    r.pods = 8;
    p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QVERIFY(!p.fits);
    QCOMPARE(p.podsPlaced, 0);
    QVERIFY(p.nodes.empty());
    QCOMPARE(p.shortfalls.back().levelKey, kL1);
    QCOMPARE(p.shortfalls.back().podsFit, 6);
    // Without gang: what the best network holds, never a pod in the other.
    r.gang = false;
    p = findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r);
    QCOMPARE(p.podsPlaced, 6);
    QCOMPARE(nodeNames(state, p), (Names { "a1", "a2", "a3", "a4", "a5", "a6" }));
    // With no level given, the climb starts at the bottom and still stops at keep-within.
    r = TopologyRequest {};
    r.pods = 8;
    r.keepWithinLevel = kL1;
    QVERIFY(!findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r).fits);
    r.keepWithinLevel = kZoneKey;
    QVERIFY(findTopologyPlacement(state, *n.c.topology, n.c.podNamed("train"), r).fits);
}

void TestTopologyPlacement::badRequests()
{
    Net n = twoNetworks();
    const PlanLedger state(*n.c.store);
    const PodId t = n.c.podNamed("train");
    auto throws = [&](TopologyRequest r, const char* part) {
        try {
            (void)findTopologyPlacement(state, *n.c.topology, t, r);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what()).find(part) != std::string::npos;
        }
        return false;
    };
    TopologyRequest r;
    r.pods = 4;
    r.requiredLevel = "no/such-level";
    QVERIFY(throws(r, "is not a topology level; the levels are: topology.kubernetes.io/region"));
    r.requiredLevel = kL3;
    r.sliceSize = 3;
    r.sliceLevel = kL3;
    QVERIFY(throws(r, "does not divide"));
    r.requiredLevel = kL3;
    r.sliceSize = 2;
    r.sliceLevel = kL1;
    QVERIFY(throws(r, "must be"));
    r.sliceSize = 0;
    r.sliceLevel.clear();
    r.preferredLevel = kL1;
    QVERIFY(throws(r, "not both"));
    r.requiredLevel.clear();
    r.keepWithinLevel = kL3; // below the preferred level: it could never hold the climb
    QVERIFY(throws(r, ("the keep-within level " + kL3 + " must be " + kL1 + " or a level above it").c_str()));
    r.keepWithinLevel = "no/such-level";
    QVERIFY(throws(r, "the keep-within level \"no/such-level\" is not a topology level"));
}

void TestTopologyPlacement::planActionAppliedUndoneReapplied()
{
    Net n = twoNetworks();
    PlanEngine engine(*n.c.store, *n.c.topology);
    const Ledger before = ledgerOf(engine.state());
    const std::size_t podsBefore = engine.state().podCount();
    PlanAction a;
    a.type = ActionType::PlacePods;
    a.pod = { "ml", "train", "" };
    a.count = 4;
    a.requiredLevel = kL1;
    a.sliceSize = 2;
    a.sliceLevel = kL3;
    for (int round = 0; round < 2; ++round) {
        const AppliedAction& r = engine.apply(a);
        QVERIFY(r.holds);
        QCOMPARE(r.podsAdded.size(), std::size_t(4));
        QCOMPARE(engine.state().podCount(), podsBefore + 4);
        QCOMPARE(r.after.podsPlaced, r.before.podsPlaced + 4);
        QCOMPARE(r.after.gpuMilliAllocated, r.before.gpuMilliAllocated + 32000);
        QCOMPARE(engine.state().podName(r.podsAdded.front()), "train-0");
        QCOMPARE(engine.state().podTemplate(r.podsAdded.front()), n.c.podNamed("train"));
        QCOMPARE(engine.state().nodeName(engine.state().podNode(r.podsAdded.front())), "a1");
        // The filters judge an added pod by its template's spec, on a node full now: a1 has
        // no GPU left, a5 (untouched) has 8.
        const PodFeasibility f(engine.state(), r.podsAdded.back());
        QVERIFY(!f.feasible(n.c.store->findNode("a1")));
        QVERIFY(f.feasible(n.c.store->findNode("a5")));
        // A second gang: only 2 pods are left in A, the rest in B; 4 more in one network do not fit.
        const AppliedAction& refused = engine.apply(a);
        QVERIFY(!refused.holds);
        QCOMPARE(engine.applied().size(), std::size_t(1));
        QCOMPARE(engine.state().podCount(), podsBefore + 4);
        QCOMPARE(refused.reasons.front().code(), "topology-domain:" + kL1);
        QVERIFY(engine.undo());
        QCOMPARE(engine.state().podCount(), podsBefore);
        QCOMPARE(ledgerOf(engine.state()), before);
    }
}

void TestTopologyPlacement::drainAndFailureOfPlannedPods()
{
    Net n = twoNetworks();
    PlanEngine engine(*n.c.store, *n.c.topology);
    PlanAction a;
    a.type = ActionType::PlacePods;
    a.pod = { "ml", "train", "" };
    a.count = 2;
    a.requiredLevel = kL1; // BestFit: b1, b2
    QVERIFY(engine.apply(a).holds);
    const Ledger placed = ledgerOf(engine.state());
    PlanAction drain;
    drain.type = ActionType::DrainNode;
    drain.node = "b1";
    const AppliedAction& d = engine.apply(drain);
    QVERIFY(!d.holds);
    QVERIFY(d.nodesRemoved.empty());
    QVERIFY(hasCode(d.reasons, "unsupported:planned-pod"));
    QVERIFY(engine.undo());
    QCOMPARE(ledgerOf(engine.state()), placed);
    PlanAction fail;
    fail.type = ActionType::FailNode;
    fail.node = "b2";
    const AppliedAction& f = engine.apply(fail);
    QVERIFY(!f.holds);
    QCOMPARE(f.unplaced.size(), std::size_t(1));
    QVERIFY(!engine.state().podNode(f.unplaced.front().first).isValid());
    QCOMPARE(f.after.podsPlaced, f.before.podsPlaced - 1);
    QVERIFY(engine.undo());
    QCOMPARE(ledgerOf(engine.state()), placed);
}

QTEST_APPLESS_MAIN(TestTopologyPlacement)
#include "tst_topologyplacement.moc"
