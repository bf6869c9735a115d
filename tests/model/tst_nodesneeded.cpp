// SPDX-License-Identifier: Apache-2.0
// The capacity question (model/search/nodesneeded.h): how many nodes of a type pending pods or a
// workload would take, on a cluster small enough to work out by hand, and the engine left as it
// was.
#include "model/search/nodesneeded.h"
#include "model/plan/notfounderror.h"

#include "planfixture.h"

#include <QtTest>

using namespace planfixture;

namespace {

// Zone a: n1 (4 cpu, m5.xlarge, 3 cpu used), g1 and g2 (p4d.24xlarge: 96 cpu, 8 A100 each,
// every GPU used; g2 bought as spot). Pending: Job train, 5 pods of 3 GPUs and 1 cpu; two
// web pods of 2 cpu; one pod of 16 GPUs.
//
// By hand: a p4d node takes two train pods (6 of 8 GPUs; a third needs 9), so the five take
// ceil(5 / 2) = 3 nodes. The web pods fit on g1 or g2 already (cpu free, no GPU asked). The
// 16-GPU pod fits no node of 8 GPUs: left, insufficient-nvidia.com/gpu. So 3 nodes, 7 of 8
// pods placed; 2 nodes place only 4 train pods (6 of 8).
Cluster gpuCluster()
{
    Cluster c;
    c.node("n1", "us-east-1a", 4000);
    c.node("g1", "us-east-1a", 96000, 8, "p4d.24xlarge");
    c.node("g2", "us-east-1a", 96000, 8, "p4d.24xlarge", { { "karpenter.sh/capacity-type", "spot" } });
    c.pod("default", "busy", "n1", 3000, "busy");
    c.pod("ml", "full-1", "g1", 1000, "full", PodFlagReady, 8);
    c.pod("ml", "full-2", "g2", 1000, "full", PodFlagReady, 8);
    auto pending = [&](const std::string& ns, const std::string& name, std::int64_t cpu, std::int64_t gpus, const std::string& workload, OwnerKind kind) {
        return c.pod(ns, name, "", cpu, workload, PodFlagNone, gpus, kind);
    };
    for (int i = 0; i < 5; ++i)
        pending("ml", "train-" + std::to_string(i), 1000, 3, "train", OwnerKind::Job);
    pending("default", "web-0", 2000, 0, "web", OwnerKind::ReplicaSet);
    pending("default", "web-1", 2000, 0, "web", OwnerKind::ReplicaSet);
    pending("ml", "huge", 1000, 16, "huge", OwnerKind::Job);
    c.finish();
    return c;
}

NodesNeededQuestion question(const std::string& capacityType = {}, const std::string& domain = {})
{
    NodesNeededQuestion q;
    q.addNode.type = ActionType::AddNode;
    q.addNode.instanceType = "p4d.24xlarge";
    q.addNode.capacityType = capacityType;
    q.addNode.domain = domain;
    return q;
}

/// A Ready p5.48xlarge node of node group `group` in us-east-1a (192 cpu, 2,048 GiB, 110 pods):
/// `capacityGpuMilli` GPUs in capacity (its gpuCount their whole number), `allocatableGpuMilli`
/// of them allocatable (fewer: GPUs that dropped out, or MIG-partitioned ones), of `gpuModel`.
NodeRecord p5Node(const std::string& name, const std::string& group, std::int64_t capacityGpuMilli, std::int64_t allocatableGpuMilli,
    const std::string& gpuModel = {})
{
    NodeRecord r;
    r.name = name;
    r.labels = { { "topology.kubernetes.io/region", "us-east-1" }, { kZoneKey, "us-east-1a" }, { "kubernetes.io/hostname", name },
        { "node.kubernetes.io/instance-type", "p5.48xlarge" }, { "eks.amazonaws.com/nodegroup", group } };
    r.allocatable.setCore(CoreResource::Cpu, 192000);
    r.allocatable.setCore(CoreResource::Memory, 2048 * kGi);
    r.allocatable.setCore(CoreResource::Pods, 110);
    r.allocatable.setCore(CoreResource::Gpu, capacityGpuMilli);
    r.capacity = r.allocatable;
    r.allocatable.setCore(CoreResource::Gpu, allocatableGpuMilli);
    r.gpuCount = static_cast<std::int32_t>(capacityGpuMilli / 1000);
    r.gpuModel = gpuModel;
    r.ready = Readiness::True;
    r.instanceType = "p5.48xlarge";
    return r;
}

} // namespace

class TestNodesNeeded : public QObject {
    Q_OBJECT
private slots:
    void pendingPodsTakeThreeNodes();
    void capacityTypePicksTheTemplate();
    void templateIsAHealthyNodeOfThePodsGroup();
    void templateHoldsThePodsRequests();
    void workloadIntoADomain();
    void badQuestions();
    void progressAndCancel();
};

// Progress rises to 1 over the search; a cancel set before any placement ends it with no answer
// and the engine as it was, for the question and for the add-nodes-and-place of its answer.
void TestNodesNeeded::progressAndCancel()
{
    const Cluster c = gpuCluster();
    PlanEngine engine(*c.store, *c.topology);
    NodesNeededQuestion q = question();
    q.pods = pendingPods(engine);
    std::vector<double> seen;
    NodesNeededControl control;
    control.progress = [&](double f) { seen.push_back(f); };
    const NodesNeededAnswer a = nodesNeeded(engine, q, control);
    QCOMPARE(a.nodes, 3);
    QVERIFY(!a.cancelled);
    QVERIFY(!seen.empty());
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    QCOMPARE(seen.back(), 1.0);

    std::atomic<bool> cancel { true };
    control.cancel = &cancel;
    const PlanTotals before = engine.state().totals();
    const NodesNeededAnswer none = nodesNeeded(engine, q, control);
    QVERIFY(none.cancelled);
    QCOMPARE(none.nodes, 0);
    QCOMPARE(none.podsPlaced, 0);
    QVERIFY(engine.applied().empty());
    QCOMPARE(engine.state().totals(), before);
    QCOMPARE(addNodesAndPlace(engine, q, 3, control), -1);
    QVERIFY(engine.applied().empty());
    QCOMPARE(engine.state().totals(), before);
    cancel = false;
    QCOMPARE(addNodesAndPlace(engine, q, 3, control), 7);
}

// Two healthy p5.48xlarge node groups that a pending 8-GPU pod may both use (it selects none):
// "mig" first, its GPUs MIG-partitioned (no whole GPU in capacity or allocatable, as a node of
// the mixed MIG strategy shows), then "whole" with 8 GPUs. A copy of the first would add no GPU
// the pod can take: the template is the node whose allocatable holds the pod's request.
void TestNodesNeeded::templateHoldsThePodsRequests()
{
    Cluster c;
    c.store->addNode(p5Node("p5-mig", "mig", 0, 0));
    c.store->addNode(p5Node("p5-whole", "whole", 8000, 8000));
    PodRecord r;
    r.namespaceName = "ml";
    r.name = "train-0";
    r.phase = PodPhase::Pending;
    r.request.setCore(CoreResource::Cpu, 1000);
    r.request.setCore(CoreResource::Gpu, 8000);
    c.store->addPod(r);
    c.finish();
    QCOMPARE(c.store->nodeName(templateNodeFor(*c.store, std::vector<NodeId> { NodeId(0), NodeId(1) }, storePendingPods(*c.store))),
        std::string_view("p5-whole"));
}

void TestNodesNeeded::templateIsAHealthyNodeOfThePodsGroup()
{
    // Three p5.48xlarge nodes, each holding a full 8-GPU pod: p5-a first, in node group "old",
    // 8 GPUs in capacity and none allocatable (they dropped out); p5-b healthy, node group
    // "old"; p5-c healthy, node group "train". Two pending 8-GPU pods select node group "train".
    // A copy of p5-a would add no GPU, a copy of p5-b no node they select: the template is p5-c,
    // and two copies place both.
    Cluster c;
    c.store->addNode(p5Node("p5-a", "old", 8000, 0, "H100")); // its GPUs dropped out of allocatable
    c.store->addNode(p5Node("p5-b", "old", 8000, 8000, "H100"));
    c.store->addNode(p5Node("p5-c", "train", 8000, 8000, "H100"));
    c.pod("ml", "old-0", "p5-b", 1000, "old", PodFlagReady, 8);
    c.pod("ml", "train-0", "p5-c", 1000, "train", PodFlagReady, 8);
    for (int i = 1; i <= 2; ++i) {
        PodRecord r;
        r.namespaceName = "ml";
        r.name = "train-" + std::to_string(i);
        r.phase = PodPhase::Pending;
        r.ownerKind = OwnerKind::Job;
        r.ownerName = "train";
        r.nodeSelector = { { "eks.amazonaws.com/nodegroup", "train" } };
        r.request.setCore(CoreResource::Cpu, 1000);
        r.request.setCore(CoreResource::Gpu, 8000);
        c.store->addPod(r);
    }
    c.finish();
    const std::vector<NodeId> all { NodeId(0), NodeId(1), NodeId(2) };
    QCOMPARE(c.store->nodeName(templateNodeFor(*c.store, all, storePendingPods(*c.store))), std::string_view("p5-c"));
    // Of p5-a and p5-b, the healthy one, although no pending pod selects its group.
    QCOMPARE(c.store->nodeName(templateNodeFor(*c.store, std::vector<NodeId> { NodeId(0), NodeId(1) }, storePendingPods(*c.store))),
        std::string_view("p5-b"));

    PlanEngine engine(*c.store, *c.topology);
    NodesNeededQuestion q;
    q.addNode.type = ActionType::AddNode;
    q.addNode.instanceType = "p5.48xlarge";
    q.pods = pendingPods(engine);
    QCOMPARE(q.pods.size(), std::size_t(2));
    const NodesNeededAnswer a = nodesNeeded(engine, q);
    QCOMPARE(a.nodes, 2);
    QCOMPARE(a.podsPlaced, 2);
    QVERIFY(a.unplaced.empty());
    PlanAction add = q.addNode;
    add.count = 1;
    const AppliedAction applied = engine.apply(add);
    QCOMPARE(applied.nodesAdded.size(), std::size_t(1));
    QCOMPARE(engine.state().nodeTemplate(applied.nodesAdded.front()), NodeId(2));
    QCOMPARE(engine.state().nodeAllocatable(applied.nodesAdded.front())[CoreResource::Gpu], std::int64_t(8000));
}

void TestNodesNeeded::pendingPodsTakeThreeNodes()
{
    Cluster c = gpuCluster();
    PlanEngine engine(*c.store, *c.topology);
    const std::vector<PodId> pending = pendingPods(engine);
    QCOMPARE(pending.size(), std::size_t(8));
    const Ledger before = ledgerOf(engine.state());

    NodesNeededQuestion q = question();
    q.pods = pending;
    const NodesNeededAnswer a = nodesNeeded(engine, q);
    QCOMPARE(a.pods, 8);
    QCOMPARE(a.nodes, 3);
    QCOMPARE(a.podsPlaced, 7);
    QVERIFY(!a.limitReached);
    QCOMPARE(a.unplaced.size(), std::size_t(1));
    QCOMPARE(a.unplaced[0].first, c.podNamed("huge"));
    QVERIFY(!a.unplaced[0].second.empty());
    QCOMPARE(a.unplaced[0].second.front().code(), std::string("insufficient-nvidia.com/gpu"));
    // Everything it applied is undone.
    QVERIFY(engine.applied().empty());
    QVERIFY(ledgerOf(engine.state()) == before);

    // A limit below the answer: the search says it stopped there.
    q.maxNodes = 2;
    const NodesNeededAnswer limited = nodesNeeded(engine, q);
    QCOMPARE(limited.nodes, 2);
    QCOMPARE(limited.podsPlaced, 6);
    QVERIFY(limited.limitReached);

    // On top of a plan: one p4d the plan added already takes two train pods, so the question
    // needs one node fewer, and the plan's action stays.
    PlanAction add;
    add.type = ActionType::AddNode;
    add.instanceType = "p4d.24xlarge";
    engine.apply(add);
    q.maxNodes = 1000;
    const NodesNeededAnswer onPlan = nodesNeeded(engine, q);
    QCOMPARE(onPlan.nodes, 2);
    QCOMPARE(onPlan.podsPlaced, 7);
    QCOMPARE(engine.applied().size(), std::size_t(1));
}

void TestNodesNeeded::capacityTypePicksTheTemplate()
{
    Cluster c = gpuCluster();
    PlanEngine engine(*c.store, *c.topology, { 1.0, 32.0, 12.0 }); // n1, g1 (on-demand), g2 (spot)
    NodesNeededQuestion q = question("spot");
    q.pods = pendingPods(engine);
    QCOMPARE(nodesNeeded(engine, q).nodes, 3);

    // The add-node of the answer: spot nodes cost g2's price.
    PlanAction add = q.addNode;
    add.count = 3;
    const AppliedAction& r = engine.apply(add);
    QCOMPARE(r.nodesAdded.size(), std::size_t(3));
    QCOMPARE(engine.state().nodeTemplate(r.nodesAdded[0]), c.store->findNode("g2"));
    QCOMPARE(engine.state().totals().costPerHour - engine.state().totalsBefore().costPerHour, 36.0);
    engine.undo();

    // No reserved p4d in the state: nothing to copy.
    q.addNode.capacityType = "reserved";
    QVERIFY_THROWS_EXCEPTION(NotFoundError, (void)nodesNeeded(engine, q));
    q.addNode.capacityType = "prepaid";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)nodesNeeded(engine, q));
    QVERIFY(engine.applied().empty());
}

void TestNodesNeeded::workloadIntoADomain()
{
    Cluster c = gpuCluster();
    PlanEngine engine(*c.store, *c.topology);
    NodesNeededQuestion q = question({}, kZoneKey + "=us-east-1a");
    q.workload = c.store->podWorkload(c.podNamed("train-0"));
    QVERIFY(q.workload.isValid());
    const NodesNeededAnswer a = nodesNeeded(engine, q);
    QCOMPARE(a.pods, 5);
    QCOMPARE(a.nodes, 3); // all or nothing: 3 nodes hold the five
    QCOMPARE(a.podsPlaced, 5);
    QVERIFY(a.unplaced.empty());

    // The 16-GPU Job fits no number of p4d nodes: the pod that failed and why.
    q.workload = c.store->podWorkload(c.podNamed("huge"));
    const NodesNeededAnswer none = nodesNeeded(engine, q);
    QCOMPARE(none.nodes, 0);
    QCOMPARE(none.podsPlaced, 0);
    QCOMPARE(none.unplaced.size(), std::size_t(1));
    QVERIFY(engine.applied().empty());
}

void TestNodesNeeded::badQuestions()
{
    Cluster c = gpuCluster();
    PlanEngine engine(*c.store, *c.topology);
    NodesNeededQuestion q = question();
    q.pods = pendingPods(engine);
    q.maxNodes = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)nodesNeeded(engine, q));
    q.maxNodes = 10;
    q.addNode.instanceType = "m9.huge";
    QVERIFY_THROWS_EXCEPTION(NotFoundError, (void)nodesNeeded(engine, q));
    q.addNode.type = ActionType::DrainNode;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)nodesNeeded(engine, q));
    // Nothing pending: nothing to place, no node needed.
    NodesNeededQuestion empty = question();
    const NodesNeededAnswer a = nodesNeeded(engine, empty);
    QCOMPARE(a.pods, 0);
    QCOMPARE(a.nodes, 0);
    QVERIFY(engine.applied().empty());
}

QTEST_GUILESS_MAIN(TestNodesNeeded)
#include "tst_nodesneeded.moc"
