// SPDX-License-Identifier: Apache-2.0
// The plan engine (model/plan/plan.h): fail-node and fail-domain (pods re-placed or stranded,
// gangs as a whole), add-node then a move onto it, place-workload all or nothing; each applied,
// undone and applied again with the ledger checked each time.

#include "planfixture.h"

#include <QtTest>

using namespace planfixture;

namespace {

// GPU nodes g1 (zone c) and g2 (zone d), 8 GPUs each; a JobSet "train" of two 8-GPU pods,
// one on each; CPU nodes n1 (zone c) and n2 (zone d) with one Deployment pod each.
Cluster gangCluster(bool spareGpuNode)
{
    Cluster c;
    c.node("g1", "us-east-1c", 96000, 8, "p4d.24xlarge");
    c.node("g2", "us-east-1d", 96000, 8, "p4d.24xlarge");
    if (spareGpuNode)
        c.node("g3", "us-east-1d", 96000, 8, "p4d.24xlarge");
    c.node("n1", "us-east-1c", 4000);
    c.node("n2", "us-east-1d", 4000);
    const std::vector<std::pair<std::string, std::string>> gang { { "jobset.sigs.k8s.io/jobset-name", "train" }, { "app", "train" } };
    c.pod("ml", "train-0", "g1", 8000, "train-workers-0", PodFlagReady, 8, OwnerKind::Job, gang);
    c.pod("ml", "train-1", "g2", 8000, "train-workers-1", PodFlagReady, 8, OwnerKind::Job, gang);
    c.pod("default", "web-0", "n1", 1000, "web");
    c.pod("default", "web-1", "n2", 1000, "web");
    c.pod("default", "bare", "n1", 100, "");
    return c;
}

const std::string kZoneC = "topology.kubernetes.io/zone=us-east-1c";
const std::string kZoneD = "topology.kubernetes.io/zone=us-east-1d";

} // namespace

class TestPlanFailure : public QObject {
    Q_OBJECT
private slots:
    void domainFailureStrandsAGang();
    void domainFailureReplacesAGangAsAWhole();
    void nodeFailureReplacesItsPods();
    void addNodeThenMoveOntoIt();
    void placeWorkloadAllOrNothing();
};

void TestPlanFailure::domainFailureStrandsAGang()
{
    Cluster c = gangCluster(false);
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    for (int round = 0; round < 2; ++round) {
        const AppliedAction& a = engine.apply(inDomain(ActionType::FailDomain, kZoneC));
        QVERIFY(!a.holds);
        QCOMPARE(a.nodesRemoved.size(), std::size_t(2)); // g1 and n1
        // train-0 cannot be re-placed (g2 is full), so the whole gang stops: train-1 too.
        QVERIFY(!engine.state().podNode(c.podNamed("train-0")).isValid());
        QVERIFY(!engine.state().podNode(c.podNamed("train-1")).isValid());
        std::size_t gangReasons = 0;
        for (const auto& [pod, reasons] : a.unplaced)
            gangReasons += hasCode(reasons, "gang-member") ? 1 : 0;
        QCOMPARE(gangReasons, std::size_t(2));
        // web-0 moved to n2; the bare pod is lost (nothing recreates it).
        QCOMPARE(engine.state().podNode(c.podNamed("web-0")), c.store->findNode("n2"));
        QVERIFY(!engine.state().podNode(c.podNamed("bare")).isValid());
        QCOMPARE(a.after.podsUnplaced, 3);
        QCOMPARE(a.after.gpus, 8);
        QCOMPARE(a.after.gpuMilliAllocated, 0);
        QVERIFY(engine.undo());
        QCOMPARE(ledgerOf(engine.state()), before);
    }
}

void TestPlanFailure::domainFailureReplacesAGangAsAWhole()
{
    Cluster c = gangCluster(true);
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    const AppliedAction& a = engine.apply(inDomain(ActionType::FailDomain, kZoneC));
    QCOMPARE(engine.state().podNode(c.podNamed("train-0")), c.store->findNode("g3"));
    QCOMPARE(engine.state().podNode(c.podNamed("train-1")), c.store->findNode("g2"));
    QCOMPARE(a.unplaced.size(), std::size_t(1)); // only the bare pod
    QVERIFY(hasCode(a.unplaced[0].second, "no-controller"));
    QVERIFY(engine.undo());
    QCOMPARE(ledgerOf(engine.state()), before);
}

void TestPlanFailure::nodeFailureReplacesItsPods()
{
    Cluster c = gangCluster(false);
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    const NodeId n2 = c.store->findNode("n2");
    for (int round = 0; round < 2; ++round) {
        const AppliedAction& a = engine.apply(onNode(ActionType::FailNode, "n2"));
        QVERIFY(a.holds);
        QVERIFY(!engine.state().nodePresent(n2));
        QCOMPARE(engine.state().podNode(c.podNamed("web-1")), c.store->findNode("n1"));
        QCOMPARE(a.after.nodes, before.totals.nodes - 1);
        // A failed node cannot fail again, nor take a pod.
        QVERIFY(!engine.apply(onNode(ActionType::FailNode, "n2")).holds);
        QVERIFY(hasCode(engine.apply(move("default", "web-0", "n2", true)).reasons, "node-gone"));
        QCOMPARE(engine.applied().size(), std::size_t(1));
        QVERIFY(engine.undo());
        QCOMPARE(ledgerOf(engine.state()), before);
    }
}

void TestPlanFailure::addNodeThenMoveOntoIt()
{
    Cluster c = gangCluster(false);
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    PlanAction add = inDomain(ActionType::AddNode, kZoneD);
    add.instanceType = "m5.xlarge";
    add.count = 2;
    for (int round = 0; round < 2; ++round) {
        const AppliedAction& a = engine.apply(add);
        QVERIFY(a.holds);
        QCOMPARE(a.nodesAdded.size(), std::size_t(2));
        QCOMPARE(engine.state().nodeCount(), c.store->nodeCount() + 2);
        const NodeId added = a.nodesAdded[0];
        QCOMPARE(engine.state().nodeName(added), std::string_view("fleetscope-m5.xlarge-1"));
        const StringId zoneKey = c.store->strings().find(kZoneKey);
        QCOMPARE(c.store->str(engine.state().nodeLabel(added, zoneKey)), std::string_view("us-east-1d"));
        QCOMPARE(a.after.nodes, before.totals.nodes + 2);
        QCOMPARE(a.after.nodesEmpty, before.totals.nodesEmpty + 2);

        const AppliedAction& m = engine.apply(move("default", "web-0", "fleetscope-m5.xlarge-1"));
        QVERIFY2(m.holds, m.reasons.empty() ? "" : m.reasons.front().message.c_str());
        QCOMPARE(engine.state().podNode(c.podNamed("web-0")), added);
        // Nothing bigger than the template fits on the added node.
        QVERIFY(!engine.apply(move("ml", "train-0", "fleetscope-m5.xlarge-2", true)).holds);
        QVERIFY(engine.undo()); // the forced move (a violation, applied)
        QVERIFY(engine.undo()); // the move
        QVERIFY(engine.undo()); // the nodes
        QCOMPARE(ledgerOf(engine.state()), before);
    }
    PlanAction unknown = add;
    unknown.instanceType = "x9.huge";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, engine.apply(unknown));
}

void TestPlanFailure::placeWorkloadAllOrNothing()
{
    Cluster c = gangCluster(false);
    c.node("n3", "us-east-1d", 4000);
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    PlanAction place = inDomain(ActionType::PlaceWorkload, kZoneD);
    place.workloadNamespace = "default";
    place.workloadName = "web";
    place.workloadKind = "Deployment";
    for (int round = 0; round < 2; ++round) {
        const AppliedAction& a = engine.apply(place);
        QVERIFY(a.holds);
        QCOMPARE(a.changes.size(), std::size_t(2));
        // Inside zone d; best fit by memory (the pods' larger share) is g2, which has 1 GiB used.
        const StringId zoneKey = c.store->strings().find(kZoneKey);
        for (const PodId p : { c.podNamed("web-0"), c.podNamed("web-1") }) {
            const NodeId n = engine.state().podNode(p);
            QVERIFY(n.isValid());
            QCOMPARE(c.store->str(engine.state().nodeLabel(n, zoneKey)), std::string_view("us-east-1d"));
        }
        QCOMPARE(engine.state().podNode(c.podNamed("web-0")), c.store->findNode("g2"));
        QVERIFY(engine.undo());
        QCOMPARE(ledgerOf(engine.state()), before);
    }
    // The gang needs two 8-GPU nodes; zone d has one: nothing is placed.
    PlanAction gang = inDomain(ActionType::PlaceWorkload, kZoneD);
    gang.workloadNamespace = "ml";
    gang.workloadName = "train";
    const AppliedAction& refused = engine.apply(gang);
    QVERIFY(!refused.holds);
    QVERIFY(hasCode(refused.reasons, "no-feasible-node"));
    QCOMPARE(refused.unplaced.size(), std::size_t(1));
    QVERIFY(engine.applied().empty());
    QCOMPARE(ledgerOf(engine.state()), before);
}

QTEST_APPLESS_MAIN(TestPlanFailure)
#include "tst_planfailure.moc"
