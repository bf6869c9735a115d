// SPDX-License-Identifier: Apache-2.0
// Consolidation (model/search/consolidation.h) and its lower bound (consolidationbound.h)
// on small hand-made clusters with known answers: the disruption budgets a drain spends, and
// which pods ask for room (pending, terminating, deleted, a place-pods template).
#include "consolidationfixture.h"

#include "model/clusterchange.h"
#include "model/metrics/metric.h"
#include "model/report/reportfigures.h"
#include "model/search/consolidationbound.h"
#include "model/search/keptreplay.h"

#include <QtTest>

#include <optional>

using namespace planfixture;

class TestConsolidationRules : public QObject {
    Q_OBJECT
private slots:
    void budgetStopsADrain()
    {
        Cluster c;
        c.node("n1", "us-east-1a", 4000);
        c.node("n2", "us-east-1a", 4000);
        c.pod("default", "web-0", "n1", 1000, "web");
        c.pod("default", "web-1", "n1", 1000, "web");
        c.pod("default", "api-0", "n2", 2000, "api");
        c.budget("default", "web-pdb", { { "app", "web" } }, count(2)); // allows 0 disruptions
        c.finish();
        const ConsolidationInput in;
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        // n1's pods would fit on n2, but the budget refuses their eviction; n2's pod goes to n1.
        QCOMPARE(drainedNames(r, c), (std::vector<std::string> { "n2" }));
        const KeptNode* k = keptOf(r, c, "n1");
        QVERIFY(k);
        QCOMPARE(k->reason.code(), std::string("disruption-budget:default/web-pdb"));
        QVERIFY2(k->reason.message.starts_with("default/web-"), k->reason.message.c_str());
        checkNotWorseThanBaseline(c, in, r);
    }

    void scarceBudgetGoesToTheDearerDrain()
    {
        // web-pdb allows one disruption of its three pods, and a-cheap and b-dear each hold one.
        // By saving per load a-cheap comes first (1.0 / 0.26 against 2.5 / 0.76): its pod spends
        // the budget and b-dear, worth 2.5 times more, can no longer be drained. The first order
        // (saving per share of the scarce budgets) spends it on b-dear; every other order starts
        // with a-cheap, so the plan that wins saves 2.5, not 1.
        Cluster c;
        c.node("a-cheap", "us-east-1a", 4000);
        c.node("b-dear", "us-east-1a", 4000);
        c.node("c-kept", "us-east-1a", 8000);
        c.pod("default", "web-0", "a-cheap", 1000, "web");
        c.pod("default", "web-1", "b-dear", 3000, "web");
        c.pod("default", "web-2", "c-kept", 1000, "web");
        pinNode(c, "c-kept", 1000);
        c.budget("default", "web-pdb", { { "app", "web" } }, count(2)); // 3 Ready pods: allows 1
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 1.0, 2.5, 1.0 };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QCOMPARE(drainedNames(r, c), (std::vector<std::string> { "b-dear" }));
        QCOMPARE(r.savedPerHour, 2.5);
        QCOMPARE(r.order, std::string("saving-per-budget"));
        const KeptNode* k = keptOf(r, c, "a-cheap");
        QVERIFY(k);
        QCOMPARE(k->reason.code(), std::string("disruption-budget:default/web-pdb"));
        QVERIFY(replayHolds(c, r, in));
        checkNotWorseThanBaseline(c, in, r);
    }

    void budgetRefusalLeavesTheWorkloadsOtherNodes()
    {
        // web-pdb allows one disruption. a-two holds two web pods, so the budget refuses its drain
        // (the second eviction); b-one holds one, so its drain holds. A workload whose pod found
        // no room once is not tried again (free capacity only shrinks), but a budget's refusal
        // depends on how many of the workload's pods the node holds: b-one still goes after a-two
        // is refused. One order, no promotion pass: the first order alone (a-two first: 10 $/h).
        Cluster c;
        c.node("a-two", "us-east-1a", 4000);
        c.node("b-one", "us-east-1a", 4000);
        c.node("c-kept", "us-east-1a", 8000);
        c.pod("default", "web-0", "a-two", 1000, "web");
        c.pod("default", "web-1", "a-two", 1000, "web");
        c.pod("default", "web-2", "b-one", 1000, "web");
        c.pod("default", "web-3", "c-kept", 1000, "web");
        pinNode(c, "c-kept", 1000);
        c.budget("default", "web-pdb", { { "app", "web" } }, count(3)); // 4 Ready pods: allows 1
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 10.0, 1.0, 1.0 };
        ConsolidationOptions one;
        one.bestOfOrders = false;
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in, one);
        QCOMPARE(drainedNames(r, c), (std::vector<std::string> { "b-one" }));
        const KeptNode* k = keptOf(r, c, "a-two");
        QVERIFY(k);
        QCOMPARE(k->reason.code(), std::string("disruption-budget:default/web-pdb"));
        QVERIFY(replayHolds(c, r, in));
    }

    void promotedBudgetKeptNodeFreesOneMore()
    {
        // web-pdb allows two disruptions, for web-p on a-small and web-q on b-mid. Every order
        // drains a-small first (the smaller, dearer node, first by name): best fit puts web-p on
        // b-mid (1 cpu free: none left), and b-mid then holds two web pods with one disruption
        // left, so the budget keeps it. Drained first, b-mid's web-q goes to z-pinned (a-small has
        // 0.5 cpu free), and a-small's web-p follows it there: both go, each spending one
        // disruption. The promotion pass (a node a budget kept, moved to the front of the best
        // order) finds that plan.
        Cluster c;
        c.node("a-small", "us-east-1a", 1500);
        c.node("b-mid", "us-east-1a", 2000);
        c.node("z-pinned", "us-east-1a", 4000);
        c.pod("default", "web-p", "a-small", 1000, "web");
        c.pod("default", "web-q", "b-mid", 1000, "web");
        pinNode(c, "z-pinned", 1800);
        c.budget("default", "web-pdb", { { "app", "web" } }, count(0)); // 2 Ready pods: allows 2
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 2.0, 1.0, 1.0 };
        ConsolidationOptions one;
        one.bestOfOrders = false;
        const ConsolidationResult greedy = consolidate(*c.store, *c.topology, in, one);
        QCOMPARE(drainedNames(greedy, c), (std::vector<std::string> { "a-small" }));
        const KeptNode* k = keptOf(greedy, c, "b-mid");
        QVERIFY(k);
        QCOMPARE(k->reason.code(), std::string("disruption-budget:default/web-pdb"));
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QCOMPARE(drainedNames(r, c), (std::vector<std::string> { "a-small", "b-mid" }));
        QCOMPARE(c.store->nodeName(r.drained.front()), std::string_view("b-mid"));
        QCOMPARE(r.savedPerHour, 3.0);
        QVERIFY(replayHolds(c, r, in));
        checkNotWorseThanBaseline(c, in, r);
        // The same input gives the same plan, and the report's replay of the search finds it.
        const ConsolidationResult again = consolidate(*c.store, *c.topology, in);
        QCOMPARE(again.actions, r.actions);
        std::vector<PlanAction> plan = r.pendingPlaced;
        plan.insert(plan.end(), r.actions.begin(), r.actions.end());
        const std::optional<KeptReplay> replay = replayConsolidationKept(*c.store, *c.topology, in, plan);
        QVERIFY(replay);
        QCOMPARE(replay->order, r.order);
        QCOMPARE(replay->kept.size(), r.kept.size());
    }

    void terminatingPodsAreNotMoved()
    {
        // n1 holds web-0 and two terminating pods (metadata.deletionTimestamp set), one of them
        // without a controller. They are leaving: the drain moves web-0 alone (kubectl drain
        // waits for the others), and nothing they are refuses the drain.
        Cluster c;
        c.node("n1", "us-east-1a", 4000);
        c.node("n2", "us-east-1a", 4000);
        pinNode(c, "n2", 1000);
        c.pod("default", "web-0", "n1", 1000, "web");
        c.pod("default", "web-old", "n1", 1000, "web", PodFlagReady | PodFlagTerminating);
        c.pod("default", "bare-old", "n1", 500, "", PodFlagReady | PodFlagTerminating);
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 1.0, 1.0 };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QCOMPARE(drainedNames(r, c), std::vector<std::string> { "n1" });
        QCOMPARE(r.podsMoved, 1);
        QCOMPARE(r.evictions, 1);
        for (const PlanAction& a : r.actions)
            QVERIFY2(a.type != ActionType::MovePod || a.pod.name == "web-0", a.pod.name.c_str());
        QVERIFY(replayHolds(c, r, in));
        QCOMPARE(r.after.podsUnplaced, 0);
        // The what-if's drain alone: the same.
        PlanEngine engine(*c.store, *c.topology, in.nodePricePerHour);
        PlanAction drain;
        drain.type = ActionType::DrainNode;
        drain.node = "n1";
        const AppliedAction& a = engine.apply(drain);
        QVERIFY(a.holds);
        QCOMPARE(a.changes.size(), std::size_t(1));
        QCOMPARE(a.changes.front().pod, c.podNamed("web-0"));
        QCOMPARE(engine.state().totals().podsUnplaced, 0);
        // The failure what-if follows the same rule: web-0 is re-placed, the terminating pods
        // go with the failed node (n2 would have room for web-old too, so placing it would hold).
        PlanEngine failing(*c.store, *c.topology, in.nodePricePerHour);
        PlanAction fail;
        fail.type = ActionType::FailNode;
        fail.node = "n1";
        const AppliedAction& f = failing.apply(fail);
        QVERIFY(f.holds);
        QCOMPARE(f.changes.size(), std::size_t(1));
        QCOMPARE(f.changes.front().pod, c.podNamed("web-0"));
        QCOMPARE(f.changes.front().to, c.store->findNode("n2"));
        QVERIFY(f.unplaced.empty());
        // Not re-placed: they stay with n1, which the plan no longer has.
        QCOMPARE(failing.state().podNode(c.podNamed("web-old")), c.store->findNode("n1"));
        QCOMPARE(failing.state().podNode(c.podNamed("bare-old")), c.store->findNode("n1"));
        QVERIFY(!failing.state().nodePresent(c.store->findNode("n1")));
        // They went with n1: among the pods removed with their nodes, and said to be terminating.
        QCOMPARE(failing.state().totals().podsRemovedWithNodes, std::int64_t(2));
        QCOMPARE(terminatingPodsRemovedWithNodes(*c.store, failing.state()), std::int64_t(2));
        const MetricContext context(*c.store);
        QCOMPARE(figuresAfter(failing.state(), context, nullptr).terminatingRemovedWithNodes, std::int64_t(2));
        QCOMPARE(terminatingPodsRemovedWithNodes(*c.store, engine.state()), std::int64_t(2)); // the drain's too
    }

    void terminatingPodsAreNoDemandOfTheBound()
    {
        // 8 cpu of web pods over 4-cpu nodes, and 8 cpu of terminating pods that ask for no room.
        Cluster c = terminatingPodCluster();
        c.finish();
        const NodeCountBound b = nodeCountLowerBound(*c.store);
        QCOMPARE(b.nodes, 2);
        for (const NodeCountBound::Row& r : b.rows)
            if (r.resource == "cpu")
                QCOMPARE(r.requested, std::int64_t(8000));
    }

    void lowerBound()
    {
        Cluster c;
        c.node("n1", "us-east-1a", 4000);
        c.node("n2", "us-east-1a", 4000);
        c.node("n3", "us-east-1a", 4000);
        c.node("g1", "us-east-1a", 8000, 8, "p4d.24xlarge");
        c.node("g2", "us-east-1a", 8000, 8, "p4d.24xlarge");
        c.pod("default", "a-0", "n1", 3000, "a");
        c.pod("default", "a-1", "n2", 3000, "a");
        c.pod("default", "bare", "n3", 100, ""); // no controller: n3 cannot go
        c.pod("ml", "t-0", "g1", 1000, "t", PodFlagReady, 6);
        c.pod("ml", "t-1", "g2", 1000, "t", PodFlagReady, 6);
        daemonSetOn(c, { "n1", "n2", "n3", "g1", "g2" });
        c.finish();
        const NodeCountBound b = nodeCountLowerBound(*c.store);
        // cpu: 8.1 cores over 8 -> 2; GPUs: 12 over 8 -> 2, plus the pinned CPU-only node n3 -> 3.
        QCOMPARE(b.nodes, 3);
        bool gpuRow = false;
        for (const NodeCountBound::Row& r : b.rows)
            if (r.gpuModel == "A100") {
                gpuRow = true;
                QCOMPARE(r.byRequests, 2);
                QCOMPARE(r.requested, 12000);
            }
        QVERIFY(gpuRow);
        const ConsolidationResult r = consolidate(*c.store, *c.topology, {});
        QVERIFY(r.after.nodes >= b.nodes);
    }

    // A live cluster's deleted pod stays as a tombstone row without a node: it is no pending pod.
    // Consolidation placed them first (5,524 "pending" pods on a live 2,000-node fleet showing 309).
    void deletedPodsAreNotPending()
    {
        Cluster c = webCluster();
        PodRecord r;
        r.namespaceName = "batch";
        r.name = "gone-0";
        r.uid = "uid-gone-0";
        r.phase = PodPhase::Pending;
        r.ownerKind = OwnerKind::Job;
        r.ownerName = "gone";
        r.request.setCore(CoreResource::Cpu, 500);
        r.request.setCore(CoreResource::Memory, kGi);
        c.store->addPod(r);
        c.finish();
        ClusterChangeBatch batch;
        batch.deletedPods.emplace_back("batch", "gone-0");
        batch.events = 1;
        (void)applyChanges(*c.store, batch);
        const PodId gone = c.store->findPod("batch", "gone-0");
        QVERIFY(!gone.isValid() || c.store->podIsDeleted(gone));
        ConsolidationInput in;
        in.nodePricePerHour = { 1.0, 1.0, 1.0 };
        const ConsolidationResult res = consolidate(*c.store, *c.topology, in);
        for (const PlanAction& a : res.pendingPlaced)
            QVERIFY2(a.pod.name != "gone-0", "a deleted pod was placed as pending");
        QCOMPARE(res.pendingLeft, 0);
        QVERIFY(replayHolds(c, res, in));
    }

    void pendingPodsKeepTheirRoom()
    {
        Cluster c = webCluster(); // web x3 (1 cpu) on n1 (1 cpu free); n2 and n3 hold only DaemonSet pods
        auto pending = [&](const std::string& name, std::int64_t cpu, OwnerKind kind, const std::string& owner, std::vector<std::string> gates = {}) {
            PodRecord r;
            r.namespaceName = "batch";
            r.name = name;
            r.uid = "uid-" + name;
            r.phase = PodPhase::Pending;
            r.ownerKind = kind;
            r.ownerName = owner;
            r.labels = { { "app", owner } };
            r.request.setCore(CoreResource::Cpu, cpu);
            r.request.setCore(CoreResource::Memory, kGi);
            r.schedulingGates = std::move(gates);
            c.store->addPod(r);
        };
        pending("solo-0", 3000, OwnerKind::Job, "solo");                     // fits n2 (best fit, ties by name)
        pending("train-0", 3000, OwnerKind::JobSet, "train");                // a gang of two: after solo-0 only
        pending("train-1", 3000, OwnerKind::JobSet, "train");                // n3 has 3 cpu free, so neither goes
        pending("gated-0", 500, OwnerKind::Job, "gated", { "example.com/quota" }); // gated: not schedulable
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 1.0, 1.0, 1.0 };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QCOMPARE(r.pendingPlaced.size(), std::size_t(1));
        QCOMPARE(r.pendingPlaced[0].type, ActionType::MovePod);
        QCOMPARE(r.pendingPlaced[0].pod.name, std::string("solo-0"));
        QCOMPARE(r.pendingPlaced[0].node, std::string("n2"));
        QCOMPARE(r.pendingLeft, 3); // the gang whole, and the gated pod
        // The bound counts solo-0 where it was placed: 3 + 3 cpu over 4 -> 2 nodes (1 without it).
        QCOMPARE(nodeCountLowerBound(*c.store).nodes, 1);
        QCOMPARE(nodeCountLowerBound(*c.store, r.pendingPods).nodes, 2);
        // n2 keeps solo-0's room (nothing else has 3 cpu free), n3 goes; n1's pods have nowhere to go.
        QCOMPARE(drainedNames(r, c), (std::vector<std::string> { "n3" }));
        const KeptNode* k2 = keptOf(r, c, "n2");
        QVERIFY(k2);
        // Judged where the plan has solo-0 (n2), not where the store has it (nowhere): n1 has 0.9 free.
        QVERIFY2(k2->reason.message.starts_with("batch/solo-0 needs cpu 3; no other node has 3 free (the most is 0.9)"), k2->reason.message.c_str());
        QVERIFY(replayHolds(c, r, in));
        checkNotWorseThanBaseline(c, in, r);
        // Without the rule both idle nodes go and the pending pods lose their room.
        ConsolidationOptions off;
        off.placePendingFirst = false;
        const ConsolidationResult ignoring = consolidate(*c.store, *c.topology, in, off);
        QVERIFY(ignoring.pendingPlaced.empty());
        QCOMPARE(drainedNames(ignoring, c), (std::vector<std::string> { "n2", "n3" }));
    }

    void templatePodIsNoPendingPod()
    {
        // A place-pods action's template pod sits in the store without a node (addTemplatePod
        // marks it PodFlagTemplate): no pod of the cluster, so never placed as a pending pod,
        // never counted as one. It would fit n2 or n3.
        Cluster c = webCluster();
        PodRecord t;
        t.namespaceName = "default";
        t.name = "placed";
        t.phase = PodPhase::Pending;
        t.flags = PodFlagTemplate;
        t.request.setCore(CoreResource::Cpu, 1000);
        t.request.setCore(CoreResource::Memory, kGi);
        const PodId id = c.store->addPod(t);
        c.finish();
        QVERIFY(!c.store->podIsPending(id));
        QCOMPARE(c.store->counts().podsPending, std::size_t(0));
        ConsolidationInput in;
        in.nodePricePerHour = { 1.0, 1.0, 1.0 };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QVERIFY(r.pendingPlaced.empty());
        QCOMPARE(r.pendingLeft, 0);
        QCOMPARE(drainedNames(r, c), (std::vector<std::string> { "n2", "n3" }));
    }
};

QTEST_GUILESS_MAIN(TestConsolidationRules)
#include "tst_consolidation_rules.moc"
