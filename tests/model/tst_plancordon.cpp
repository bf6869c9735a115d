// SPDX-License-Identifier: Apache-2.0
// The ledger's cordons and the plan's pod identity (model/plan/plan.h): a node a drain
// cordoned (emptied and removed, or left with pods it could not evict) and a failed node are
// unschedulable for every later move of the plan, for PodFeasibility and for the drag's shading
// (feasibleNodes); undoing the drain lifts the cordon. A move-pod whose pod uid differs from
// the state's (the pod was recreated) does not hold (pod-replaced).

#include "planfixture.h"

#include "model/scheduling/filters.h"

#include <QtTest>

using namespace planfixture;

namespace {

// webCluster() (planfixture.h) and pod solo (its own Deployment, 500m) on n3.
Cluster cluster()
{
    Cluster c = webCluster();
    c.pod("default", "solo", "n3", 500, "solo");
    return c;
}

bool shaded(const PlanLedger& state, PodId p, NodeId n)
{
    std::vector<std::uint8_t> mask;
    PodFeasibility(state, p).feasibleNodes(mask);
    return n.index() < mask.size() && mask[n.index()] != 0;
}

} // namespace

class TestPlanCordon : public QObject {
    Q_OBJECT
private slots:
    void moveOntoADrainedNodeIsRefused();
    void drainThatLeavesPodsKeepsTheNodeCordoned();
    void moveOntoAFailedNodeIsRefused();
    void replacedPodDoesNotHold_data();
    void replacedPodDoesNotHold();
};

void TestPlanCordon::moveOntoADrainedNodeIsRefused()
{
    Cluster c = cluster();
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    const NodeId n1 = c.store->findNode("n1");
    const PodId solo = c.podNamed("solo");
    QVERIFY(checkMove(engine.state(), solo, n1).feasible);
    QVERIFY(shaded(engine.state(), solo, n1));
    for (int round = 0; round < 2; ++round) {
        const AppliedAction& drain = engine.apply(onNode(ActionType::DrainNode, "n1"));
        QVERIFY(drain.holds);
        QVERIFY(!engine.state().nodePresent(n1));
        QVERIFY(engine.state().nodeCordonedByPlan(n1));
        QVERIFY(engine.state().nodeUnschedulable(n1));
        // The filters and the shading see the cordon.
        const Verdict v = checkMove(engine.state(), solo, n1);
        QVERIFY(!v.feasible);
        QVERIFY(hasCode(v.reasons, "node-unschedulable"));
        QVERIFY(!shaded(engine.state(), solo, n1));
        // A later move of the plan is refused with it, override or not (the node is gone too).
        for (const bool override : { false, true }) {
            const AppliedAction& m = engine.apply(move("default", "solo", "n1", override));
            QVERIFY(!m.holds);
            QVERIFY2(hasCode(m.reasons, "node-unschedulable"), m.reasons.empty() ? "" : m.reasons.front().code().c_str());
            QCOMPARE(engine.applied().size(), std::size_t(1));
        }
        // Undoing the drain lifts it.
        QVERIFY(engine.undo());
        QCOMPARE(ledgerOf(engine.state()), before);
        QVERIFY(!engine.state().nodeUnschedulable(n1));
        QVERIFY(checkMove(engine.state(), solo, n1).feasible);
        QVERIFY(shaded(engine.state(), solo, n1));
    }
    const AppliedAction& m = engine.apply(move("default", "solo", "n1"));
    QVERIFY(m.holds);
    QCOMPARE(engine.state().podNode(solo), n1);
}

void TestPlanCordon::drainThatLeavesPodsKeepsTheNodeCordoned()
{
    Cluster c = cluster();
    c.budget("default", "web", { { "app", "web" } }, count(3)); // no disruption allowed
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    const NodeId n1 = c.store->findNode("n1");
    const PodId solo = c.podNamed("solo");
    const AppliedAction& drain = engine.apply(onNode(ActionType::DrainNode, "n1"));
    QVERIFY(!drain.holds);
    QCOMPARE(drain.unplaced.size(), std::size_t(3));
    QVERIFY(engine.state().nodePresent(n1)); // it keeps the pods it could not evict
    QVERIFY(engine.state().nodeUnschedulable(n1));
    const Verdict v = checkMove(engine.state(), solo, n1);
    QVERIFY(!v.feasible);
    QCOMPARE(v.reasons.size(), std::size_t(1));
    QCOMPARE(v.reasons.front().code(), std::string("node-unschedulable"));
    QVERIFY(!shaded(engine.state(), solo, n1));
    QVERIFY(!engine.apply(move("default", "solo", "n1")).holds);
    // The default policy does not put a pod back on it either.
    QVERIFY(engine.chooseNode(solo) != n1);
    QVERIFY(engine.undo());
    QCOMPARE(ledgerOf(engine.state()), before);
    QVERIFY(!engine.state().nodeUnschedulable(n1));
    QVERIFY(shaded(engine.state(), solo, n1));
}

void TestPlanCordon::moveOntoAFailedNodeIsRefused()
{
    Cluster c = cluster();
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const NodeId n2 = c.store->findNode("n2");
    const PodId solo = c.podNamed("solo");
    QVERIFY(engine.apply(onNode(ActionType::FailNode, "n2")).holds);
    const Verdict v = checkMove(engine.state(), solo, n2);
    QVERIFY(!v.feasible);
    QVERIFY(hasCode(v.reasons, "node-gone"));
    QVERIFY(!shaded(engine.state(), solo, n2));
    const AppliedAction& m = engine.apply(move("default", "solo", "n2", true));
    QVERIFY(!m.holds);
    QVERIFY(hasCode(m.reasons, "node-gone"));
    QCOMPARE(engine.applied().size(), std::size_t(1));
    QVERIFY(engine.undo());
    QVERIFY(checkMove(engine.state(), solo, n2).feasible);
}

void TestPlanCordon::replacedPodDoesNotHold_data()
{
    QTest::addColumn<QString>("uid");
    QTest::addColumn<bool>("holds");
    QTest::newRow("same uid") << QStringLiteral("uid-solo") << true;
    QTest::newRow("no uid in the plan (by name)") << QString() << true;
    QTest::newRow("another uid: recreated") << QStringLiteral("uid-solo-before") << false;
}

void TestPlanCordon::replacedPodDoesNotHold()
{
    QFETCH(QString, uid);
    QFETCH(bool, holds);
    Cluster c = cluster();
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    PlanAction a = move("default", "solo", "n2");
    a.pod.uid = uid.toStdString();
    const AppliedAction& r = engine.apply(a);
    QCOMPARE(r.holds, holds);
    QCOMPARE(engine.applied().size(), std::size_t(holds ? 1 : 0));
    if (!holds) {
        QCOMPARE(r.reasons.size(), std::size_t(1));
        QCOMPARE(r.reasons.front().code(), std::string("pod-replaced"));
        QVERIFY(r.reasons.front().message.find("uid-solo-before") != std::string::npos);
        QVERIFY(r.reasons.front().message.find("uid-solo") != std::string::npos);
        QCOMPARE(ledgerOf(engine.state()), before);
        // Overriding does not move a pod the plan does not know.
        a.override = true;
        QVERIFY(!engine.apply(a).holds);
        QVERIFY(engine.applied().empty());
    }
}

QTEST_APPLESS_MAIN(TestPlanCordon)
#include "tst_plancordon.moc"
