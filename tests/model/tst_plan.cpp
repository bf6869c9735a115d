// SPDX-License-Identifier: Apache-2.0
// The plan engine (model/plan/plan.h): move-pod and drain-node, each applied, undone and
// applied again with the ledger checked each time; PodDisruptionBudgets spent across the plan
// (a drain a budget stops, a budget spent across two drains, a pod under two budgets); the
// eviction rules; the best-fit default policy; on a state large enough that the engine builds its
// indexes on two threads, the same moves, budgets and undo.

#include "planfixture.h"

#include "model/plan/disruptionbudgets.h"
#include "model/scheduling/matching.h"

#include <QtTest>

using namespace planfixture;

class TestPlan : public QObject {
    Q_OBJECT
private slots:
    void moveAppliesUndoesAndReapplies();
    void infeasibleMoveIsRefusedUnlessOverridden();
    void daemonSetPodNeverMoves();
    void drainEmptiesTheNodeAndUndoes();
    void drainStoppedByABudget();
    void budgetSpentAcrossTwoDrains();
    void podUnderTwoBudgetsCannotBeEvicted();
    void evictionRulesOnDrain();
    void budgetsComputedAsTheControllerDoes_data();
    void budgetsComputedAsTheControllerDoes();
    void budgetSelectionIsEachSelectorsMatch();
    void defaultPolicyIsBestFit();
    void missingNamesThrow();
    void indexesBuiltTogetherOnALargeState();
};

void TestPlan::moveAppliesUndoesAndReapplies()
{
    Cluster c = webCluster();
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    const PodId web0 = c.podNamed("web-0");
    const NodeId n1 = c.store->findNode("n1"), n3 = c.store->findNode("n3");
    for (int round = 0; round < 2; ++round) {
        const AppliedAction& a = engine.apply(move("default", "web-0", "n3"));
        QVERIFY(a.holds);
        QCOMPARE(a.changes.size(), std::size_t(1));
        QCOMPARE(a.changes[0].from, n1);
        QCOMPARE(a.changes[0].to, n3);
        QCOMPARE(engine.state().podNode(web0), n3);
        QCOMPARE(engine.state().nodeRequested(n1)[CoreResource::Cpu], 2100);
        QCOMPARE(engine.state().nodeRequested(n3)[CoreResource::Cpu], 1100);
        QCOMPARE(a.before, before.totals);
        QCOMPARE(a.after, engine.state().totals());
        QCOMPARE(engine.applied().size(), std::size_t(1));
        QVERIFY(engine.undo());
        QCOMPARE(ledgerOf(engine.state()), before);
        QVERIFY(engine.applied().empty());
    }
    QVERIFY(!engine.undo());
}

void TestPlan::infeasibleMoveIsRefusedUnlessOverridden()
{
    Cluster c = webCluster();
    c.pod("default", "big", "n2", 3500, "big");
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    // n1 has 4000 - 3100 = 900m free.
    const AppliedAction& refused = engine.apply(move("default", "big", "n1"));
    QVERIFY(!refused.holds);
    QVERIFY(refused.changes.empty());
    QVERIFY(hasCode(refused.reasons, "insufficient-cpu"));
    QVERIFY(engine.applied().empty());
    QCOMPARE(ledgerOf(engine.state()), before);

    const AppliedAction& forced = engine.apply(move("default", "big", "n1", true));
    QVERIFY(!forced.holds); // a violation, marked
    QVERIFY(hasCode(forced.reasons, "insufficient-cpu"));
    QCOMPARE(engine.state().podNode(c.podNamed("big")), c.store->findNode("n1"));
    QCOMPARE(engine.applied().size(), std::size_t(1));
    QVERIFY(engine.undo());
    QCOMPARE(ledgerOf(engine.state()), before);
}

void TestPlan::daemonSetPodNeverMoves()
{
    Cluster c = webCluster();
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const AppliedAction& a = engine.apply(move("kube-system", "agent-n1", "n2", true));
    QVERIFY(!a.holds);
    QVERIFY(hasCode(a.reasons, "daemonset-pod"));
    QVERIFY(engine.applied().empty());
}

void TestPlan::drainEmptiesTheNodeAndUndoes()
{
    Cluster c = webCluster();
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    const NodeId n1 = c.store->findNode("n1");
    for (int round = 0; round < 2; ++round) {
        const AppliedAction& a = engine.apply(onNode(ActionType::DrainNode, "n1"));
        QVERIFY2(a.holds, a.reasons.empty() ? "" : a.reasons.front().message.c_str());
        QCOMPARE(a.changes.size(), std::size_t(3)); // the DaemonSet pod stays
        QCOMPARE(a.nodesRemoved, std::vector<NodeId> { n1 });
        QVERIFY(!engine.state().nodePresent(n1));
        for (const auto& ch : a.changes)
            QVERIFY(ch.to.isValid() && ch.to != n1);
        QCOMPARE(a.after.nodes, before.totals.nodes - 1);
        QCOMPARE(a.after.podsPlaced, before.totals.podsPlaced - 1); // the DaemonSet pod went with its node
        // A drain that holds leaves no pod without a node: the DaemonSet pod is counted apart.
        QCOMPARE(a.after.podsUnplaced, std::int64_t(0));
        QCOMPARE(a.after.podsRemovedWithNodes, std::int64_t(1));
        QVERIFY(engine.undo());
        QCOMPARE(ledgerOf(engine.state()), before);
    }
}

void TestPlan::drainStoppedByABudget()
{
    Cluster c = webCluster();
    c.budget("default", "web", { { "app", "web" } }, count(2)); // 3 healthy, 2 desired: 1 disruption
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    const NodeId n1 = c.store->findNode("n1");
    for (int round = 0; round < 2; ++round) {
        const AppliedAction& a = engine.apply(onNode(ActionType::DrainNode, "n1"));
        QVERIFY(!a.holds);
        QCOMPARE(a.changes.size(), std::size_t(1));
        QCOMPARE(a.unplaced.size(), std::size_t(2));
        for (const auto& [pod, reasons] : a.unplaced)
            QVERIFY(hasCode(reasons, "disruption-budget:default/web"));
        QVERIFY(hasCode(a.reasons, "disruption-budget:default/web"));
        QVERIFY(engine.state().nodePresent(n1)); // pods stay: the node stays, cordoned by the plan
        QVERIFY(a.nodesRemoved.empty());
        // The plan cordoned n1: nothing may move onto it now.
        const AppliedAction& back = engine.apply(move("default", "web-0", "n1"));
        QVERIFY(!back.holds);
        QVERIFY(engine.undo());
        QCOMPARE(ledgerOf(engine.state()), before);
    }
}

void TestPlan::budgetSpentAcrossTwoDrains()
{
    Cluster c;
    c.node("n1", "us-east-1a", 4000);
    c.node("n2", "us-east-1a", 4000);
    c.node("n3", "us-east-1b", 4000);
    c.pod("default", "web-0", "n1", 1000, "web");
    c.pod("default", "web-1", "n2", 1000, "web");
    c.pod("default", "web-2", "n3", 1000, "web");
    c.budget("default", "web", { { "app", "web" } }, {}, count(1)); // maxUnavailable 1: one disruption
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    QVERIFY(engine.apply(onNode(ActionType::DrainNode, "n1")).holds);
    const AppliedAction& second = engine.apply(onNode(ActionType::DrainNode, "n2"));
    QVERIFY(!second.holds);
    QVERIFY(hasCode(second.reasons, "disruption-budget:default/web"));
    QVERIFY(second.reasons.front().message.find("spent 1") != std::string::npos);
    // Undoing the first drain gives its disruption back.
    QVERIFY(engine.undo());
    QVERIFY(engine.undo());
    QCOMPARE(ledgerOf(engine.state()), before);
    QVERIFY(engine.apply(onNode(ActionType::DrainNode, "n2")).holds);
}

void TestPlan::podUnderTwoBudgetsCannotBeEvicted()
{
    Cluster c = webCluster();
    c.pod("default", "shared", "n1", 100, "shared", PodFlagReady, 0, OwnerKind::ReplicaSet, { { "app", "shared" }, { "tier", "front" } });
    c.budget("default", "by-app", { { "app", "shared" } }, {}, count(5));
    c.budget("default", "by-tier", { { "tier", "front" } }, {}, count(5));
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const AppliedAction& a = engine.apply(onNode(ActionType::DrainNode, "n1"));
    QVERIFY(!a.holds);
    QCOMPARE(a.unplaced.size(), std::size_t(1));
    QCOMPARE(a.unplaced[0].first, c.podNamed("shared"));
    QVERIFY(hasCode(a.unplaced[0].second, "disruption-budget:default/by-app"));
    QVERIFY(hasCode(a.unplaced[0].second, "disruption-budget:default/by-tier"));
    QVERIFY(a.unplaced[0].second[0].message.find("more than one PodDisruptionBudget") != std::string::npos);
    QCOMPARE(a.changes.size(), std::size_t(3)); // the web pods moved
}

void TestPlan::evictionRulesOnDrain()
{
    Cluster c;
    c.node("n1", "us-east-1a", 4000);
    c.node("n2", "us-east-1a", 4000);
    c.pod("default", "bare", "n1", 100, "");
    c.pod("default", "precious", "n1", 100, "precious", PodFlagReady | PodFlagDoNotDisrupt);
    c.pod("default", "cache", "n1", 100, "cache", PodFlagReady | PodFlagLocalStorage);
    c.pod("ml", "train-0", "n1", 100, "train", PodFlagReady, 0, OwnerKind::Job, { { "jobset.sigs.k8s.io/jobset-name", "train" } });
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    const AppliedAction& a = engine.apply(onNode(ActionType::DrainNode, "n1"));
    QVERIFY(!a.holds);
    auto reasonsOf = [&](const std::string& pod) {
        for (const auto& [p, reasons] : a.unplaced)
            if (p == c.podNamed(pod))
                return reasons;
        return std::vector<Reason> {};
    };
    QVERIFY(hasCode(reasonsOf("bare"), "no-controller"));
    QVERIFY(hasCode(reasonsOf("precious"), "do-not-disrupt"));
    QVERIFY(hasCode(reasonsOf("train-0"), "gang-member"));
    QVERIFY(reasonsOf("cache").empty()); // moved, with a note
    QVERIFY(hasCode(a.reasons, "local-storage"));
    QCOMPARE(a.changes.size(), std::size_t(1));
    QCOMPARE(a.changes[0].pod, c.podNamed("cache"));
}

void TestPlan::budgetsComputedAsTheControllerDoes_data()
{
    QTest::addColumn<int>("readyPods");
    QTest::addColumn<int>("unreadyPods");
    QTest::addColumn<bool>("useMin");
    QTest::addColumn<bool>("isPercent");
    QTest::addColumn<int>("value");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("allowed");
    // minAvailable 2 of 3 healthy: 1.
    QTest::newRow("minAvailable count") << 3 << 0 << true << false << 2 << -1 << 1;
    // minAvailable 50% of 3 = ceil(1.5) = 2 desired: 1.
    QTest::newRow("minAvailable percent rounds up") << 3 << 0 << true << true << 50 << -1 << 1;
    // maxUnavailable 50% of 3 = ceil(1.5) = 2: desired 1, healthy 3: 2.
    QTest::newRow("maxUnavailable percent rounds up") << 3 << 0 << false << true << 50 << -1 << 2;
    // maxUnavailable 1 of 4 expected (one not Ready): desired 3, healthy 3: 0.
    QTest::newRow("unready pods are not healthy") << 3 << 1 << false << false << 1 << -1 << 0;
    // status.disruptionsAllowed wins over the computation.
    QTest::newRow("status given") << 3 << 0 << true << false << 2 << 0 << 0;
    QTest::newRow("minAvailable above healthy") << 2 << 0 << true << false << 3 << -1 << 0;
}

void TestPlan::budgetsComputedAsTheControllerDoes()
{
    QFETCH(int, readyPods);
    QFETCH(int, unreadyPods);
    QFETCH(bool, useMin);
    QFETCH(bool, isPercent);
    QFETCH(int, value);
    QFETCH(int, status);
    QFETCH(int, allowed);
    Cluster c;
    c.node("n1", "us-east-1a", 64000);
    for (int i = 0; i < readyPods + unreadyPods; ++i)
        c.pod("default", "web-" + std::to_string(i), "n1", 100, "web", i < readyPods ? PodFlagReady : PodFlagNone);
    const IntOrPercent v { true, isPercent, value };
    c.budget("default", "web", { { "app", "web" } }, useMin ? v : IntOrPercent {}, useMin ? IntOrPercent {} : v, status);
    c.finish();
    const DisruptionBudgets budgets(*c.store);
    QCOMPARE(budgets.count(), std::size_t(1));
    QCOMPARE(budgets.status(0).disruptionsAllowed, allowed);
    QCOMPARE(budgets.check(c.podNamed("web-0")).allowed, allowed > 0);
}

// Which pods each budget selects and guards is what its selector matches, whatever its form
// (the budgets are looked up by a label they require where they have an In requirement).
void TestPlan::budgetSelectionIsEachSelectorsMatch()
{
    Cluster c;
    c.node("n1", "us-east-1a", 640000);
    const std::vector<std::vector<std::pair<std::string, std::string>>> labelSets = {
        { { "app", "web" }, { "tier", "front" } },
        { { "app", "web" }, { "tier", "back" }, { "pod", "unique-1" } },
        { { "app", "api" }, { "tier", "front" } },
        { { "app", "db" } },
        { { "tier", "front" } },
        {},
    };
    int n = 0;
    for (const std::string ns : { "default", "other" })
        for (const auto& labels : labelSets)
            c.pod(ns, "p-" + std::to_string(n++), "n1", 10, "w" + std::to_string(n), PodFlagReady, 0, OwnerKind::ReplicaSet, labels);
    using Expr = std::tuple<std::string, MatchOperator, std::vector<std::string>>;
    auto add = [&](const std::string& name, std::vector<std::pair<std::string, std::string>> matchLabels, std::vector<Expr> expressions,
                   bool null = false) {
        DisruptionBudgetRecord r;
        r.namespaceName = "default";
        r.name = name;
        r.selectorNull = null;
        r.matchLabels = std::move(matchLabels);
        r.matchExpressions = std::move(expressions);
        r.maxUnavailable = count(1); // expected: the selected live pods
        c.store->addDisruptionBudget(r);
    };
    add("labels", { { "app", "web" } }, {});
    add("in-two", {}, { Expr { "app", MatchOperator::In, { "web", "api" } } });
    add("in-and-notin", {}, { Expr { "tier", MatchOperator::In, { "front" } }, Expr { "app", MatchOperator::NotIn, { "api" } } });
    add("notin-only", {}, { Expr { "app", MatchOperator::NotIn, { "web" } } });
    add("exists-only", {}, { Expr { "tier", MatchOperator::Exists, {} } });
    add("doesnotexist-only", {}, { Expr { "app", MatchOperator::DoesNotExist, {} } });
    add("in-no-value", {}, { Expr { "app", MatchOperator::In, {} } });
    add("everything", {}, {});
    add("nothing", {}, {}, true);
    add("missing-label", { { "app", "web" }, { "zone", "a" } }, {});
    c.finish();
    const DisruptionBudgets budgets(*c.store);
    const auto all = c.store->disruptionBudgets();
    QCOMPARE(budgets.count(), all.size());
    std::vector<std::int32_t> selected(all.size(), 0);
    for (std::uint32_t i = 0; i < c.store->podCount(); ++i) {
        const PodId p(i);
        std::vector<std::uint32_t> guards;
        for (std::uint32_t b = 0; b < all.size(); ++b) {
            if (c.store->podNamespace(p) != c.store->strings().view(all[b].namespaceName)
                || !scheduling::selectorMatches(all[b].selector, c.store->podLabels(p)))
                continue;
            ++selected[b];
            if (!all[b].selector.requirements.empty())
                guards.push_back(b);
        }
        const auto got = budgets.guarding(p);
        QCOMPARE(std::vector<std::uint32_t>(got.begin(), got.end()), guards);
    }
    for (std::uint32_t b = 0; b < all.size(); ++b)
        QVERIFY2(budgets.status(b).expected == selected[b], std::string(c.store->strings().view(all[b].name)).c_str());
    // The cases differ: some budgets select several pods, one none, one every pod of its namespace.
    QCOMPARE(selected[0], 2);
    QCOMPARE(selected[7], 6);
    QCOMPARE(selected[8], 0);
}

void TestPlan::defaultPolicyIsBestFit()
{
    Cluster c;
    c.node("roomy", "us-east-1a", 8000);
    c.node("tight-b", "us-east-1a", 2000);
    c.node("tight-a", "us-east-1a", 2000);
    c.node("small", "us-east-1a", 500);
    c.pod("default", "p", "", 1000, "p");
    c.pod("default", "q", "", 1500, "q");
    c.pod("default", "r", "", 1000, "r");
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    // The least free cpu that still fits, ties by node name.
    QCOMPARE(engine.chooseNode(c.podNamed("p")), c.store->findNode("tight-a"));
    QVERIFY(engine.apply(move("default", "p", "tight-a")).holds);
    // tight-a has 1000m left: q (1500m) goes to tight-b, r (1000m) fits tight-a exactly.
    QCOMPARE(engine.chooseNode(c.podNamed("q")), c.store->findNode("tight-b"));
    QCOMPARE(engine.chooseNode(c.podNamed("r")), c.store->findNode("tight-a"));
    // Undo keeps the index exact: tight-a is the best fit for q again.
    QVERIFY(engine.undo());
    QCOMPARE(engine.chooseNode(c.podNamed("q")), c.store->findNode("tight-a"));
}

void TestPlan::missingNamesThrow()
{
    Cluster c = webCluster();
    c.finish();
    PlanEngine engine(*c.store, *c.topology);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, engine.apply(move("default", "nope", "n1")));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, engine.apply(move("default", "web-0", "nope")));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, engine.apply(inDomain(ActionType::FailDomain, "topology.kubernetes.io/zone=mars")));
    QVERIFY(engine.applied().empty());
}

void TestPlan::indexesBuiltTogetherOnALargeState()
{
    // Above the engine's threshold (20,000 pods) the first move-pod builds the pod-name index
    // and the budgets on a worker while the capacity index is built: the plan reads the same.
    // Every pod asks for 1 GiB of a node's 16: the default policy's best fit is by memory.
    Cluster c;
    constexpr int kNodes = 2000, kFillersPerNode = 10;
    auto nodeName = [](int i) { return QStringLiteral("n%1").arg(i, 4, 10, QLatin1Char('0')).toStdString(); };
    for (int i = 0; i < kNodes; ++i)
        c.node(nodeName(i), "us-east-1a", 4000);
    c.pod("default", "web-0", "n0000", 100, "web");
    c.pod("default", "web-1", "n0000", 100, "web");
    c.pod("default", "web-2", "n0001", 100, "web");
    for (int i = 0; i < kNodes; ++i)
        for (int k = 0; k < kFillersPerNode; ++k)
            c.pod("batch", "fill-" + std::to_string(i) + "-" + std::to_string(k), nodeName(i), 10, "fill");
    c.budget("default", "web", { { "app", "web" } }, {}, count(1)); // maxUnavailable 1: one disruption
    c.finish();
    QVERIFY(c.store->podCount() >= 20000);
    PlanEngine engine(*c.store, *c.topology);
    const Ledger before = ledgerOf(engine.state());
    const NodeId n0 = c.store->findNode("n0000"), n1 = c.store->findNode("n0001"), n2 = c.store->findNode("n0002");
    for (int round = 0; round < 2; ++round) {
        // The move spends the budget's one disruption.
        QVERIFY(engine.apply(move("default", "web-2", "n0002")).holds);
        // The drain: both web pods are stopped by the spent budget; the fillers go by best fit,
        // n0002 first (5 GiB free after the move) until it is full, then n0001 (6 GiB free
        // like every other node, first by name, then the tightest), and n0000 stays.
        const AppliedAction& drain = engine.apply(onNode(ActionType::DrainNode, "n0000"));
        QVERIFY(!drain.holds);
        QCOMPARE(drain.unplaced.size(), std::size_t(2));
        for (const auto& [pod, reasons] : drain.unplaced)
            QVERIFY(hasCode(reasons, "disruption-budget:default/web"));
        QCOMPARE(drain.changes.size(), std::size_t(kFillersPerNode));
        for (std::size_t i = 0; i < drain.changes.size(); ++i) {
            QCOMPARE(drain.changes[i].from, n0);
            QCOMPARE(drain.changes[i].to, i < 5 ? n2 : n1);
        }
        QVERIFY(engine.state().nodePresent(n0));
        QVERIFY(engine.undo());
        QVERIFY(engine.undo());
        QCOMPARE(ledgerOf(engine.state()), before);
    }
}

QTEST_APPLESS_MAIN(TestPlan)
#include "tst_plan.moc"
