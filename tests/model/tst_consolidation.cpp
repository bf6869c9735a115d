// SPDX-License-Identifier: Apache-2.0
// Consolidation (model/search/consolidation.h), the Karpenter baseline
// (karpenterbaseline.h) and the lower bound (consolidationbound.h) on small hand-made
// clusters with known answers.
#include "planfixture.h"

#include "model/clusterchange.h"
#include "model/search/consolidation.h"
#include "model/search/consolidationbound.h"
#include "model/search/karpenterbaseline.h"
#include "model/search/keptgroups.h"
#include "model/search/keptreplay.h"
#include "model/plan/drainownmoves.h"
#include "model/plan/evictionrules.h"
#include "model/metrics/metric.h"
#include "model/report/reportfigures.h"
#include "model/search/blockingfilter.h"

#include <QtTest>

#include <algorithm>
#include <map>

using namespace planfixture;

namespace {

const KeptNode* keptOf(const ConsolidationResult& r, const Cluster& c, const std::string& node)
{
    for (const KeptNode& k : r.kept)
        if (c.store->nodeName(k.node) == node)
            return &k;
    return nullptr;
}

std::vector<std::string> drainedNames(const ConsolidationResult& r, const Cluster& c)
{
    std::vector<std::string> out;
    for (const NodeId n : r.drained)
        out.emplace_back(c.store->nodeName(n));
    std::sort(out.begin(), out.end());
    return out;
}

/// Every action of the plan, applied to a fresh engine, holds (the plan is what the what-if says).
bool replayHolds(const Cluster& c, const ConsolidationResult& r, const ConsolidationInput& in)
{
    PlanEngine engine(*c.store, *c.topology, in.nodePricePerHour);
    for (const PlanAction& a : r.pendingPlaced) // the pending pods placed first, then the drains
        if (!engine.apply(a).holds)
            return false;
    for (const PlanAction& a : r.actions)
        if (!engine.apply(a).holds)
            return false;
    return engine.state().totals().nodes == r.after.nodes;
}

void checkNotWorseThanBaseline(const Cluster& c, const ConsolidationInput& in, const ConsolidationResult& ours)
{
    const ConsolidationResult base = karpenterMultiNodeConsolidation(*c.store, *c.topology, in);
    QVERIFY2(ours.nodesFreed >= base.nodesFreed, qPrintable(QStringLiteral("ours %1, baseline %2").arg(ours.nodesFreed).arg(base.nodesFreed)));
    QVERIFY(ours.savedPerHour >= base.savedPerHour - 1e-9);
    QVERIFY(replayHolds(c, base, in));
}

/// The pod no consolidation moves, "default/keep-0" with karpenter.sh/do-not-disrupt, on `node`:
/// it keeps its node, which stays to take other nodes' pods.
void pinNode(Cluster& c, const std::string& node, std::int64_t cpuMilli)
{
    c.pod("default", "keep-0", node, cpuMilli, "keep", PodFlagReady | PodFlagDoNotDisrupt);
}

/// A DaemonSet pod ("kube-system/agent-NODE", 0.1 cpu) on each of `nodes`: never moved.
void daemonSetOn(Cluster& c, std::initializer_list<const char*> nodes)
{
    for (const char* n : nodes)
        c.pod("kube-system", std::string("agent-") + n, n, 100, "agent", PodFlagReady, 0, OwnerKind::DaemonSet);
}

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

/// a-big (4 cpu, a 2-cpu pod), b-small (2 cpu, a 1.5-cpu pod), with `twoSmall` c-small as b-small,
/// and d-pinned (4 cpu, a pinned 2-cpu pod: 2 cpu free), in that NodeId order; not finished.
Cluster bigSmallPinnedCluster(bool twoSmall)
{
    Cluster c;
    c.node("a-big", "us-east-1a", 4000);
    c.node("b-small", "us-east-1a", 2000);
    if (twoSmall)
        c.node("c-small", "us-east-1a", 2000);
    c.node("d-pinned", "us-east-1a", 4000);
    c.pod("default", "alpha-0", "a-big", 2000, "alpha");
    c.pod("default", "beta-0", "b-small", 1500, "beta");
    if (twoSmall)
        c.pod("default", "gamma-0", "c-small", 1500, "gamma");
    pinNode(c, "d-pinned", 2000);
    return c;
}

} // namespace

class TestConsolidation : public QObject {
    Q_OBJECT
private slots:
    void daemonSetOnlyNodesAreEmptied()
    {
        Cluster c = webCluster(); // web x3 (1 cpu) on n1; a DaemonSet pod on n1, n2, n3
        c.finish();
        const ConsolidationInput in;
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        // n2 and n3 hold only DaemonSet pods: empty, so both go with no moves; n1's pods then
        // have nowhere to go.
        QCOMPARE(drainedNames(r, c), (std::vector<std::string> { "n2", "n3" }));
        QCOMPARE(r.nodesFreed, 2);
        QCOMPARE(r.podsMoved, 0);
        const KeptNode* k = keptOf(r, c, "n1");
        QVERIFY(k);
        // n2 and n3 are gone under the plan: no other node, rather than "no other node has 1
        // free (the most is 0)", and a code that says so rather than insufficient-cpu.
        QCOMPARE(k->reason.code(), std::string("no-other-node"));
        QCOMPARE(k->reason.message, std::string("default/web-0 needs cpu 1; there is no other node (n1 is the only node under the plan)"));
        QVERIFY(replayHolds(c, r, in));
        checkNotWorseThanBaseline(c, in, r);
    }

    void eachPodMovesOnceStraightToANodeThatStays()
    {
        // Every order drains a node onto one it drains later: "big" (the lightest load) first,
        // its pod to "a" (best fit, ties by name), then "a", both pods to "b"; or "a" onto "b",
        // then "b" onto "big". The plan keeps the nodes the search drains, but moves each pod once,
        // straight to where it ends: a move-pod per pod, then the node's drain, which moves none.
        Cluster c;
        c.node("a", "us-east-1a", 4000);
        c.node("b", "us-east-1a", 4000);
        c.node("big", "us-east-1a", 8000);
        c.pod("default", "pa", "a", 1000, "pa");
        c.pod("default", "pb", "b", 1000, "pb");
        c.pod("default", "pbig", "big", 1000, "pbig");
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 1.0, 1.0, 1.0 };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QCOMPARE(r.nodesFreed, 2);
        QCOMPARE(r.podsMoved, 2);
        QCOMPARE(r.evictions, 2);
        QCOMPARE(r.fallbackDrains, 0);
        QVERIFY(replayHolds(c, r, in));
        // Applied as plan check applies it: no pod moves twice, none onto a node drained later.
        PlanEngine engine(*c.store, *c.topology, in.nodePricePerHour);
        std::map<std::uint32_t, int> moves;
        std::vector<NodeId> destinations;
        std::size_t drains = 0;
        for (const PlanAction& a : r.actions) {
            const AppliedAction& applied = engine.apply(a);
            QVERIFY(applied.holds);
            for (const AppliedAction::PodChange& m : applied.changes) {
                QVERIFY2(++moves[m.pod.value] == 1, c.store->podName(m.pod).data());
                destinations.push_back(m.to);
            }
            if (a.type == ActionType::DrainNode) {
                QVERIFY(applied.changes.empty()); // its pods moved already, each to its node
                QCOMPARE(c.store->nodeName(r.drained[drains++]), std::string_view(a.node));
            }
        }
        QCOMPARE(drains, r.drained.size());
        for (const NodeId to : destinations)
            QVERIFY2(engine.state().nodePresent(to), c.store->nodeName(to).data());
        QCOMPARE(moves.size(), std::size_t(2));
        // Every move is its drain's own: the report and the kubectl script show it with the drain.
        const std::vector<bool> own = drainOwnMoves(engine.applied());
        for (std::size_t i = 0; i < own.size(); ++i)
            QCOMPARE(bool(own[i]), engine.applied()[i].action.type == ActionType::MovePod);
        // A move of another pod before a drain is not the drain's own.
        std::vector<AppliedAction> mixed(engine.applied().begin(), engine.applied().end());
        const std::size_t firstDrain = static_cast<std::size_t>(std::find_if(mixed.begin(), mixed.end(), [](const AppliedAction& a) {
            return a.action.type == ActionType::DrainNode;
        }) - mixed.begin());
        QVERIFY(firstDrain > 0 && firstDrain < mixed.size());
        mixed[firstDrain - 1].changes.front().from = NodeId(mixed[firstDrain].nodesRemoved.front().value ^ 1u);
        QVERIFY(!drainOwnMoves(mixed)[firstDrain - 1]);
    }

    void podWithNoOtherFittingNodeKeepsItsNode()
    {
        Cluster c;
        c.node("g1", "us-east-1a", 64000, 8, "p4d.24xlarge");
        c.node("g2", "us-east-1a", 64000, 8, "p4d.24xlarge");
        c.node("g3", "us-east-1a", 64000, 8, "p4d.24xlarge");
        c.pod("ml", "trainer-7", "g1", 8000, "trainer", PodFlagReady, 8);
        c.pod("ml", "infer-0", "g2", 4000, "infer", PodFlagReady, 2);
        c.pod("ml", "infer-1", "g3", 4000, "infer", PodFlagReady, 3);
        c.finish();
        const ConsolidationInput in;
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QCOMPARE(r.nodesFreed, 1); // g2 onto g3 or g3 onto g2
        QCOMPARE(r.podsMoved, 1);
        const KeptNode* k = keptOf(r, c, "g1");
        QVERIFY(k);
        QCOMPARE(std::string(c.store->podName(k->pod)), std::string("trainer-7"));
        QCOMPARE(k->reason.code(), std::string("insufficient-nvidia.com/gpu"));
        QVERIFY2(k->reason.message.starts_with("ml/trainer-7 needs nvidia.com/gpu 8; no other node has 8 free"), k->reason.message.c_str());
        QVERIFY(replayHolds(c, r, in));
        checkNotWorseThanBaseline(c, in, r);
    }

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

    void prepaidNodeSavesNothing()
    {
        Cluster c;
        c.node("block", "us-east-1a", 4000, 0, "m5.xlarge", { { "eks.amazonaws.com/capacityType", "CAPACITY_BLOCK" } });
        c.node("od", "us-east-1a", 4000, 0, "m5.xlarge", { { "eks.amazonaws.com/capacityType", "ON_DEMAND" } });
        c.pod("default", "a-0", "block", 1000, "a");
        c.pod("default", "b-0", "od", 1000, "b");
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 10.0, 5.0 };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        // Draining the block would save nothing; the on-demand node goes, onto the block.
        QCOMPARE(drainedNames(r, c), (std::vector<std::string> { "od" }));
        QCOMPARE(r.savedPerHour, 5.0);
        const KeptNode* k = keptOf(r, c, "block");
        QVERIFY(k);
        QCOMPARE(k->reason.code(), std::string("prepaid-node"));
        QVERIFY(replayHolds(c, r, in));
        checkNotWorseThanBaseline(c, in, r);
    }

    void nodeGroupMinimumIsKept()
    {
        Cluster c;
        for (const char* n : { "c1", "c2", "c3" })
            c.node(n, "us-east-1a", 8000, 0, "m5.2xlarge", { { "eks.amazonaws.com/nodegroup", "cpu" } });
        for (const char* n : { "c1", "c2", "c3" })
            c.pod("default", std::string("w-") + n, n, 1000, "w");
        c.finish();
        ConsolidationInput in;
        in.groupMinimums = { { "eks.amazonaws.com/nodegroup", "cpu", 2 } };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QCOMPARE(r.nodesFreed, 1);
        QCOMPARE(r.after.nodes, 2);
        bool minimumSaid = false;
        for (const KeptNode& k : r.kept)
            minimumSaid |= k.reason.code() == "node-group-minimum:eks.amazonaws.com/nodegroup=cpu";
        QVERIFY(minimumSaid);
        // Without the minimum two of the three go.
        const ConsolidationResult free = consolidate(*c.store, *c.topology, {});
        QCOMPARE(free.nodesFreed, 2);
        checkNotWorseThanBaseline(c, in, r);
    }

    void doNotDisruptAndMaxMovesAndCancel()
    {
        Cluster c;
        c.node("n1", "us-east-1a", 4000);
        c.node("n2", "us-east-1a", 4000);
        c.node("n3", "us-east-1a", 4000);
        pinNode(c, "n1", 500);
        c.pod("default", "web-0", "n2", 500, "web");
        c.pod("default", "web-1", "n3", 500, "web");
        c.finish();
        const ConsolidationResult r = consolidate(*c.store, *c.topology, {});
        QCOMPARE(r.nodesFreed, 2); // n2 and n3 onto n1 (or one onto the other, then onto n1)
        const KeptNode* k = keptOf(r, c, "n1");
        QVERIFY(k);
        QCOMPARE(k->reason.code(), std::string("do-not-disrupt"));
        ConsolidationOptions limited;
        limited.maxMoves = 1;
        const ConsolidationResult one = consolidate(*c.store, *c.topology, {}, limited);
        QCOMPARE(one.podsMoved, 1);
        QCOMPARE(one.nodesFreed, 1);
        std::atomic<bool> stop { true };
        ConsolidationOptions cancelled;
        cancelled.cancel = &stop;
        const ConsolidationResult none = consolidate(*c.store, *c.topology, {}, cancelled);
        QVERIFY(none.cancelled);
        QCOMPARE(none.nodesFreed, 0);
        // A time limit already passed when the first candidate comes (building the engine takes
        // far longer than a nanosecond): nothing is drained, and the result says why.
        ConsolidationOptions late;
        late.timeLimitSeconds = 1e-9;
        const ConsolidationResult stopped = consolidate(*c.store, *c.topology, {}, late);
        QVERIFY(stopped.timedOut);
        QVERIFY(!stopped.cancelled);
        QCOMPARE(stopped.nodesFreed, 0);
    }

    void baselineDeletesALoneEmptyNode()
    {
        // Karpenter's Emptiness deletes a node without a reschedulable pod on its own, before
        // multi-node consolidation (which takes two or more at once): "spare" holds only a
        // DaemonSet pod and goes although no second node can go with it ("full"'s 3.5 cpu fits
        // nowhere else).
        Cluster c;
        c.node("full", "us-east-1a", 4000);
        c.node("spare", "us-east-1a", 2000);
        c.pod("default", "big-0", "full", 3500, "big");
        daemonSetOn(c, { "full", "spare" });
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 2.0, 1.0 };
        const ConsolidationResult base = karpenterMultiNodeConsolidation(*c.store, *c.topology, in);
        QCOMPARE(base.nodesFreed, 1);
        QCOMPARE(drainedNames(base, c), std::vector<std::string> { "spare" });
        QCOMPARE(base.savedPerHour, 1.0);
        QVERIFY(replayHolds(c, base, in));
        checkNotWorseThanBaseline(c, in, consolidate(*c.store, *c.topology, in));
    }

    void oursAtLeastBaselineWhereTheHeadBlocks()
    {
        // The lightest candidate (one pod) cannot go; Karpenter's prefixes all start with it.
        Cluster c;
        c.node("big", "us-east-1a", 4000);
        c.node("n1", "us-east-1a", 4000);
        c.node("n2", "us-east-1a", 4000);
        c.node("n3", "us-east-1a", 4000);
        c.pod("default", "wide-0", "big", 3500, "wide");
        for (const char* n : { "n1", "n2", "n3" }) {
            c.pod("default", std::string("a-") + n, n, 1000, "a");
            c.pod("default", std::string("b-") + n, n, 1000, "b");
        }
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 1.0, 2.0, 2.0, 2.0 };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        const ConsolidationResult base = karpenterMultiNodeConsolidation(*c.store, *c.topology, in);
        QCOMPARE(base.nodesFreed, 0);
        QCOMPARE(r.nodesFreed, 1); // n1: its 2 cpu onto n2 and n3
        QCOMPARE(r.savedPerHour, 2.0);
        const KeptNode* k = keptOf(r, c, "big");
        QVERIFY(k);
        QVERIFY2(k->reason.message.starts_with("default/wide-0 needs cpu 3.5; no other node has 3.5 free"), k->reason.message.c_str());
        QVERIFY(replayHolds(c, r, in));
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

    void moreNodesForAlmostTheSameSaving_data()
    {
        QTest::addColumn<double>("bigPrice");
        QTest::addColumn<int>("freed");
        QTest::newRow("0.5% more saving: the two nodes") << 2.01 << 2;
        QTest::newRow("4.8% more saving: the one node") << 2.10 << 1;
    }
    void moreNodesForAlmostTheSameSaving()
    {
        // Draining a-big first (the most saving per load, and first by name) puts its 2 cpu on
        // d-pinned's 2 free, after which neither small node's 1.5 cpu fits anywhere: one node
        // freed. Small nodes first puts their pods on a-big and d-pinned: two nodes freed, for
        // a saving 0.5% below the first plan's, within betterPlan()'s 2%.
        QFETCH(double, bigPrice);
        QFETCH(int, freed);
        Cluster c = bigSmallPinnedCluster(true);
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { bigPrice, 1.0, 1.0, 1.0 };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QCOMPARE(r.nodesFreed, freed);
        if (freed == 2) {
            QCOMPARE(drainedNames(r, c), (std::vector<std::string> { "b-small", "c-small" }));
            QCOMPARE(r.savedPerHour, 2.0);
        } else {
            QCOMPARE(drainedNames(r, c), (std::vector<std::string> { "a-big" }));
            QCOMPARE(r.savedPerHour, bigPrice);
        }
        QVERIFY(replayHolds(c, r, in));
        checkNotWorseThanBaseline(c, in, r);
    }

    void unpricedNodeIsNoFreeNode()
    {
        // Either a-big (4 cpu, no price) or b-small (2 cpu, $1/h) can go, not both: d-pinned has
        // room for one node's pods. The priced nodes cost $0.50 per cpu core an hour, so a-big's
        // capacity is worth about $2/h: the plan frees a-big, and its saving is not counted as
        // known ($0 saved, $2 estimated), where ranking it at $0 freed b-small.
        Cluster c = bigSmallPinnedCluster(false);
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 0.0, 1.0, 2.0 };
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in);
        QCOMPARE(drainedNames(r, c), std::vector<std::string> { "a-big" });
        QCOMPARE(r.savedPerHour, 0.0);
        QCOMPARE(r.unpricedEstimatePerHour, 2.0);
        QVERIFY(replayHolds(c, r, in));
        // No node priced: nothing to estimate from, every node ranks at $0.
        in.nodePricePerHour = {};
        const ConsolidationResult none = consolidate(*c.store, *c.topology, in);
        QCOMPARE(none.nodesFreed, 1);
        QCOMPARE(none.unpricedEstimatePerHour, 0.0);
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
        // Four 4-cpu nodes; two 2-cpu web pods on each of n1 and n2 (8 cpu: 2 nodes), and on n3
        // and n4 four 2-cpu pods that are terminating: they are leaving, so they ask for no room.
        Cluster c;
        for (const char* n : { "n1", "n2", "n3", "n4" })
            c.node(n, "us-east-1a", 4000);
        const char* live[] = { "n1", "n1", "n2", "n2" };
        for (int i = 0; i < 4; ++i)
            c.pod("default", "web-" + std::to_string(i), live[i], 2000, "web");
        const char* leaving[] = { "n3", "n3", "n4", "n4" };
        for (int i = 0; i < 4; ++i)
            c.pod("default", "old-" + std::to_string(i), leaving[i], 2000, "web", PodFlagReady | PodFlagTerminating);
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

    void keepWithinZone_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::newRow("default policy") << QString();
        QTest::newRow("MostAllocated") << QStringLiteral("MostAllocated");
    }
    void keepWithinZone()
    {
        // Zone a: a1 and a2 with 1 cpu each used of 4; zone b: b1 with 2 cpu used. Without the
        // rule two nodes go (everything fits on one); keeping pods in their zone, only one of
        // zone a goes, and no pod changes zone.
        QFETCH(QString, policy);
        Cluster c;
        c.node("a1", "us-east-1a", 4000);
        c.node("a2", "us-east-1a", 4000);
        c.node("b1", "us-east-1b", 4000);
        c.pod("default", "w-0", "a1", 1000, "w");
        c.pod("default", "w-1", "a2", 1000, "w");
        c.pod("default", "w-2", "b1", 2000, "w");
        c.finish();
        ConsolidationInput in;
        in.nodePricePerHour = { 1.0, 1.0, 1.0 };
        ConsolidationOptions options;
        options.policy = policy.toStdString();
        QCOMPARE(consolidate(*c.store, *c.topology, in, options).nodesFreed, 2);
        options.keepWithinLabel = kZoneKey;
        const ConsolidationResult r = consolidate(*c.store, *c.topology, in, options);
        QCOMPARE(r.nodesFreed, 1);
        QVERIFY(replayHolds(c, r, in));
        PlanEngine engine(*c.store, *c.topology, in.nodePricePerHour);
        for (const PlanAction& a : r.actions) {
            if (a.type == ActionType::DrainNode) // a move-pod names its destination, in the zone
                QCOMPARE(a.domain, std::string("topology.kubernetes.io/region=us-east-1/topology.kubernetes.io/zone=us-east-1a"));
            for (const AppliedAction::PodChange& m : engine.apply(a).changes) {
                QVERIFY(m.to.isValid());
                QCOMPARE(c.store->nodeLabel(m.to, c.store->strings().find(kZoneKey)), c.store->nodeLabel(m.from, c.store->strings().find(kZoneKey)));
            }
        }
        const KeptNode* k = keptOf(r, c, "b1");
        QVERIFY(k);
        QVERIFY2(k->reason.message.find("us-east-1b") != std::string::npos, k->reason.message.c_str());
        options.keepWithinLabel = "example.com/rack";
        try {
            (void)consolidate(*c.store, *c.topology, in, options);
            QFAIL("a key that is not a topology level was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("topology.kubernetes.io/zone") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestConsolidation)
#include "tst_consolidation.moc"
