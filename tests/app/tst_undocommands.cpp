// SPDX-License-Identifier: Apache-2.0
// Every undo command of the what-if (app/commands/: PlanActionCommand, PlanStepCommand,
// RemoveActionsCommand) through a QUndoStack, with every kind of step they carry (move, drain,
// fail, fail domain, add nodes, place workload, place pods, a consolidation): push (the first
// redo), undo, redo, and after each the ledger (every pod's node, every node's requests and
// presence, the plan's cordons and GPU shares, the totals) equals a fresh evaluation, a new
// PlanEngine that applies the engine's applied actions from scratch. A redo replays what an undo
// took back (PlanEngine::reapplyUndone) rather than planning it again: a replay that drifted
// from planning would show here. On a small hand-made fleet (tests/model/planfixture.h).

#include "app/commands/planactioncommand.h"
#include "app/commands/planstepcommand.h"
#include "app/commands/removeactionscommand.h"
#include "app/controllers/planenginehost.h"
#include "app/controllers/plansteprunner.h"
#include "app/controllers/storereaders.h"
#include "model/search/consolidation.h"

#include "model/planfixture.h"

#include <QProgressDialog>
#include <QPushButton>
#include <QUndoStack>
#include <QtTest>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace fleet;
using namespace planfixture;
using app::PlanEngineHost;
using app::PlanActionCommand;
using app::PlanStepCommand;
using app::PlanStepRunner;
using app::StoreReaders;
using app::RemoveActionsCommand;

namespace {
/// The host shares the store it hands to the engine; here the fixture owns it and outlives the host.
std::shared_ptr<const model::ClusterStore> borrowed(const model::ClusterStore& store)
{
    return std::shared_ptr<const model::ClusterStore>(&store, [](const model::ClusterStore*) {});
}
} // namespace

namespace {

const std::string kZoneA = "topology.kubernetes.io/zone=us-east-1a";
const std::string kZoneB = "topology.kubernetes.io/zone=us-east-1b";
const std::string kZoneC = "topology.kubernetes.io/zone=us-east-1c";

/// Zone a: n1, n2; zone b: n3, n5; zone c: n4 (4 cpu each, m5.xlarge). Deployment web: 3 pods
/// of 1 cpu on n1; Deployment batch: 2 pods of 1 cpu on n3; a DaemonSet pod on every node; n4
/// and n5 hold only that: a consolidation frees them.
Cluster smallFleet()
{
    Cluster c;
    c.node("n1", "us-east-1a", 4000);
    c.node("n2", "us-east-1a", 4000);
    c.node("n3", "us-east-1b", 4000);
    c.node("n4", "us-east-1c", 4000);
    c.node("n5", "us-east-1b", 4000);
    for (int i = 0; i < 3; ++i)
        c.pod("default", "web-" + std::to_string(i), "n1", 1000, "web");
    for (int i = 0; i < 2; ++i)
        c.pod("default", "batch-" + std::to_string(i), "n3", 1000, "batch");
    for (const char* n : { "n1", "n2", "n3", "n4", "n5" })
        c.pod("kube-system", std::string("agent-") + n, n, 100, "agent", PodFlagReady, 0, OwnerKind::DaemonSet);
    c.finish();
    return c;
}

/// The whole ledger of a state, added pods and nodes included.
struct FullLedger {
    PlanTotals totals;
    std::vector<NodeId> podNodes;
    std::vector<bool> podChanged;
    std::vector<std::string> nodeNames;
    std::vector<bool> nodePresent;
    std::vector<bool> nodeCordoned; // by the plan
    std::vector<ResourceVector> nodeRequested;
    std::vector<std::vector<std::int32_t>> nodeGpuShares;
    bool operator==(const FullLedger&) const = default;
};

FullLedger fullLedgerOf(const PlanLedger& s)
{
    FullLedger l;
    l.totals = s.totals();
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        l.podNodes.push_back(s.podNode(PodId(i)));
        l.podChanged.push_back(s.podChanged(PodId(i)));
    }
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const NodeId n(i);
        l.nodeNames.emplace_back(s.nodeName(n));
        l.nodePresent.push_back(s.nodePresent(n));
        l.nodeCordoned.push_back(s.nodeCordonedByPlan(n));
        l.nodeRequested.push_back(s.nodeRequested(n));
        const auto shares = s.nodeGpuShares(n);
        l.nodeGpuShares.emplace_back(shares.begin(), shares.end());
    }
    return l;
}

/// The first difference of two ledgers, for a failure message ("" when equal).
QString firstDifference(const FullLedger& got, const FullLedger& want)
{
    if (!(got.totals == want.totals))
        return QStringLiteral("totals: nodes %1 vs %2, pods placed %3 vs %4, unplaced %5 vs %6, in use %7 vs %8")
            .arg(got.totals.nodes)
            .arg(want.totals.nodes)
            .arg(got.totals.podsPlaced)
            .arg(want.totals.podsPlaced)
            .arg(got.totals.podsUnplaced)
            .arg(want.totals.podsUnplaced)
            .arg(got.totals.nodesInUse)
            .arg(want.totals.nodesInUse);
    if (got.podNodes.size() != want.podNodes.size())
        return QStringLiteral("%1 pods vs %2").arg(got.podNodes.size()).arg(want.podNodes.size());
    for (std::size_t i = 0; i < got.podNodes.size(); ++i)
        if (got.podNodes[i] != want.podNodes[i] || got.podChanged[i] != want.podChanged[i])
            return QStringLiteral("pod %1: node %2 vs %3").arg(i).arg(got.podNodes[i].value).arg(want.podNodes[i].value);
    if (got.nodeNames != want.nodeNames)
        return QStringLiteral("%1 nodes vs %2 (or their names differ)").arg(got.nodeNames.size()).arg(want.nodeNames.size());
    for (std::size_t i = 0; i < got.nodeNames.size(); ++i) {
        const QString name = QString::fromStdString(got.nodeNames[i]);
        if (got.nodePresent[i] != want.nodePresent[i])
            return QStringLiteral("node %1: present %2 vs %3").arg(name).arg(got.nodePresent[i]).arg(want.nodePresent[i]);
        if (got.nodeCordoned[i] != want.nodeCordoned[i])
            return QStringLiteral("node %1: cordoned %2 vs %3").arg(name).arg(got.nodeCordoned[i]).arg(want.nodeCordoned[i]);
        if (!(got.nodeRequested[i] == want.nodeRequested[i]))
            return QStringLiteral("node %1: cpu requested %2 vs %3")
                .arg(name)
                .arg(got.nodeRequested[i][CoreResource::Cpu])
                .arg(want.nodeRequested[i][CoreResource::Cpu]);
        if (got.nodeGpuShares[i] != want.nodeGpuShares[i])
            return QStringLiteral("node %1: GPU shares differ").arg(name);
    }
    return {};
}

/// The ledger a new engine reaches applying `engine`'s applied actions in order; every one
/// must be applied again (a refusal here is a failure of the comparison).
FullLedger freshLedger(const Cluster& c, const PlanEngine& engine, bool& allApplied)
{
    PlanEngine fresh(*c.store, *c.topology);
    for (const AppliedAction& a : engine.applied())
        fresh.apply(a.action);
    allApplied = fresh.applied().size() == engine.applied().size();
    return fullLedgerOf(fresh.state());
}

/// Compares the engine's ledger with a fresh evaluation of its applied actions, and the number
/// of those with `count`.
#define COMPARE_WITH_FRESH(c, engine, count, when)                                                                               \
    do {                                                                                                                           \
        QCOMPARE((engine).applied().size(), std::size_t(count));                                                                   \
        bool allApplied_ = false;                                                                                                  \
        const FullLedger fresh_ = freshLedger((c), (engine), allApplied_);                                                         \
        QVERIFY2(allApplied_, when ": the fresh engine refused an action the engine holds");                                       \
        const FullLedger got_ = fullLedgerOf((engine).state());                                                                    \
        QVERIFY2(got_ == fresh_, qPrintable(QStringLiteral(when ": ") + firstDifference(got_, fresh_)));                           \
    } while (false)

PlanAction drainOf(const std::string& node) { return onNode(ActionType::DrainNode, node); }

/// `nodes` nodes n0.. of 4 cpu in one zone, one 1-cpu pod p<i> on each: room for every
/// pod to move to the next node.
Cluster ringFleet(int nodes)
{
    Cluster c;
    for (int i = 0; i < nodes; ++i)
        c.node("n" + std::to_string(i), "us-east-1a", 4000);
    for (int i = 0; i < nodes; ++i)
        c.pod("default", "p" + std::to_string(i), "n" + std::to_string(i), 1000, "ring");
    c.finish();
    return c;
}

// A step of `n` moves on ringFleet(n) (pod i to node i + 1), run by `runner`, pushed on `stack`
// (push() runs its redo: the first slice at once, the rest from the event loop). `held`: the
// engine applies them first and the step holds them (PlanStepCommand::setAppliedActions(), as
// a worker's step is adopted), else one child command each.
void pushRingStep(PlanEngineHost& host, QUndoStack& stack, PlanStepRunner& runner, int n, std::function<void()> changed, bool held = false)
{
    auto* step = new PlanStepCommand(QStringLiteral("Move them all"), std::move(changed));
    step->setRunner([&runner](PlanStepCommand& s, bool undo) { return runner.start(s, undo); });
    std::vector<PlanAction> actions;
    for (int i = 0; i < n; ++i)
        actions.push_back(move("default", "p" + std::to_string(i), "n" + std::to_string((i + 1) % n)));
    if (held) {
        for (const PlanAction& a : actions)
            host.engine()->apply(a);
        step->setAppliedActions(host, std::move(actions));
    } else {
        for (const PlanAction& a : actions)
            new PlanActionCommand(host, a, QStringLiteral("move"), {}, step);
    }
    stack.push(step);
}

} // namespace

class TestUndoCommands : public QObject {
    Q_OBJECT
private slots:
    void planCommandRedoUndoRedo_data();
    void planCommandRedoUndoRedo();
    void planCommandAppliedAlready();
    void stepOfDrains();
    void stepOfAConsolidation();
    void heldStepOfAConsolidation();
    void heldStepUndoneBackToARow();
    void removeActions();
    void largeStepInSlices_data();
    void largeStepInSlices();
    void largeStepProgressCloses();
    void largeStepRefreshHasATurnOfItsOwn();
    void largeStepCancelled_data();
    void largeStepCancelled();
    void largeStepCancelledFromItsDialog();
    void planStateKeepsWhatItReads();
};

void TestUndoCommands::planCommandRedoUndoRedo_data()
{
    QTest::addColumn<int>("kind"); // index into the actions below
    QTest::newRow("move") << 0;
    QTest::newRow("drain") << 1;
    QTest::newRow("fail node") << 2;
    QTest::newRow("fail domain") << 3;
    QTest::newRow("add nodes") << 4;
    QTest::newRow("place workload") << 5;
    QTest::newRow("place pods") << 6;
}

// One PlanActionCommand of each kind on top of a move already in the plan (a prior command, so that the
// undo must leave the earlier action's effects as they were).
void TestUndoCommands::planCommandRedoUndoRedo()
{
    QFETCH(int, kind);
    const Cluster c = smallFleet();
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    const FullLedger empty = fullLedgerOf(engine->state());
    QUndoStack stack;
    int changes = 0;
    const auto changed = [&changes] { ++changes; };
    stack.push(new PlanActionCommand(host, move("default", "batch-0", "n5"), QStringLiteral("Move batch-0"), changed));
    COMPARE_WITH_FRESH(c, *engine, 1, "the prior move");

    PlanAction action;
    switch (kind) {
    case 0:
        action = move("default", "web-0", "n2");
        break;
    case 1:
        action = drainOf("n1");
        break;
    case 2:
        action = onNode(ActionType::FailNode, "n3");
        break;
    case 3:
        action = inDomain(ActionType::FailDomain, kZoneA);
        break;
    case 4:
        action = inDomain(ActionType::AddNode, kZoneC);
        action.instanceType = "m5.xlarge";
        action.count = 2;
        break;
    case 5:
        action = inDomain(ActionType::PlaceWorkload, kZoneC);
        action.workloadNamespace = "default";
        action.workloadName = "web";
        action.workloadKind = "Deployment";
        break;
    case 6:
        action.type = ActionType::PlacePods;
        action.pod = { "default", "web-0", "" };
        action.count = 2;
        action.requiredLevel = kZoneKey;
        break;
    default:
        QFAIL("no such kind");
    }
    auto* command = new PlanActionCommand(host, action, QStringLiteral("under test"), changed);
    stack.push(command);
    QVERIFY2(!command->wasRefused() && command->applied(), "the engine refused the action on the small fleet");
    QCOMPARE(stack.count(), 2);
    QCOMPARE(changes, 2);
    const FullLedger applied = fullLedgerOf(engine->state());
    QVERIFY(!(applied == empty));
    COMPARE_WITH_FRESH(c, *engine, 2, "pushed");

    stack.undo();
    QCOMPARE(changes, 3);
    QVERIFY(!command->applied());
    COMPARE_WITH_FRESH(c, *engine, 1, "undone");

    stack.redo();
    QCOMPARE(changes, 4);
    QVERIFY(command->applied());
    COMPARE_WITH_FRESH(c, *engine, 2, "redone");
    QVERIFY2(fullLedgerOf(engine->state()) == applied, "the redo left another ledger than the first apply");

    stack.undo();
    stack.undo();
    COMPARE_WITH_FRESH(c, *engine, 0, "both undone");
    QVERIFY(fullLedgerOf(engine->state()) == empty);
}

// Plan > Place Workload applies on a worker, then pushes a command that only records the action
// (PlanActionCommand::AppliedAt): its later undo and redo work on the engine as any other's.
void TestUndoCommands::planCommandAppliedAlready()
{
    const Cluster c = smallFleet();
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    QUndoStack stack;
    PlanAction place;
    place.type = ActionType::PlacePods;
    place.pod = { "default", "batch-0", "" };
    place.count = 3;
    place.requiredLevel = kZoneKey;
    QVERIFY(engine->apply(place).holds);
    auto* command = new PlanActionCommand(host, engine->applied().back().action, QStringLiteral("Place"), {},
        PlanActionCommand::AppliedAt { engine->applied().size() - 1 });
    stack.push(command);
    QVERIFY(command->applied());
    COMPARE_WITH_FRESH(c, *engine, 1, "recorded");
    stack.undo();
    COMPARE_WITH_FRESH(c, *engine, 0, "undone");
    QCOMPARE(engine->state().podCount(), c.store->podCount());
    stack.redo();
    COMPARE_WITH_FRESH(c, *engine, 1, "redone");
    QCOMPARE(engine->state().podCount(), c.store->podCount() + 3);
}

// Plan > Drain of the filtered nodes: one step, its children refresh nothing themselves, the step
// refreshes once per redo and undo.
void TestUndoCommands::stepOfDrains()
{
    const Cluster c = smallFleet();
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    QUndoStack stack;
    int changes = 0;
    auto* step = new PlanStepCommand(QStringLiteral("Drain 2 nodes"), [&changes] { ++changes; });
    new PlanActionCommand(host, move("default", "batch-1", "n4"), QStringLiteral("Move batch-1"), {}, step);
    new PlanActionCommand(host, drainOf("n1"), QStringLiteral("Drain n1"), {}, step);
    new PlanActionCommand(host, drainOf("n3"), QStringLiteral("Drain n3"), {}, step);
    stack.push(step);
    QCOMPARE(stack.count(), 1);
    QCOMPARE(step->appliedChildren(), 3);
    QCOMPARE(changes, 1);
    COMPARE_WITH_FRESH(c, *engine, 3, "pushed");
    const FullLedger applied = fullLedgerOf(engine->state());
    stack.undo();
    QCOMPARE(changes, 2);
    QCOMPARE(step->appliedChildren(), 0);
    COMPARE_WITH_FRESH(c, *engine, 0, "undone");
    stack.redo();
    QCOMPARE(changes, 3);
    COMPARE_WITH_FRESH(c, *engine, 3, "redone");
    QVERIFY(fullLedgerOf(engine->state()) == applied);
}

// Plan > Consolidate: the search's actions (pending pods placed, then drains) applied on a
// worker, adopted as one step of commands that only record them (PlanActionCommand::AppliedAt).
void TestUndoCommands::stepOfAConsolidation()
{
    const Cluster c = smallFleet();
    const ConsolidationResult result = consolidate(*c.store, *c.topology, {});
    QVERIFY2(result.actions.size() >= 2, "the small fleet's consolidation drains n4 and n5 at least");
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    for (const PlanAction& a : result.pendingPlaced)
        engine->apply(a);
    for (const PlanAction& a : result.actions)
        engine->apply(a);
    const std::size_t actions = result.pendingPlaced.size() + result.actions.size();
    QCOMPARE(engine->applied().size(), actions);
    QCOMPARE(engine->state().totals(), result.after);
    QUndoStack stack;
    int changes = 0;
    auto* step = new PlanStepCommand(QStringLiteral("Consolidate"), [&changes] { ++changes; });
    for (std::size_t i = 0; i < actions; ++i)
        new PlanActionCommand(host, engine->applied()[i].action, QStringLiteral("action"), {}, PlanActionCommand::AppliedAt { i }, step);
    stack.push(step);
    QCOMPARE(step->appliedChildren(), static_cast<int>(actions));
    QCOMPARE(changes, 1);
    COMPARE_WITH_FRESH(c, *engine, actions, "adopted");
    const FullLedger consolidated = fullLedgerOf(engine->state());
    stack.undo();
    QCOMPARE(changes, 2);
    COMPARE_WITH_FRESH(c, *engine, 0, "undone");
    stack.redo();
    QCOMPARE(changes, 3);
    COMPARE_WITH_FRESH(c, *engine, actions, "redone");
    QVERIFY(fullLedgerOf(engine->state()) == consolidated);
    QCOMPARE(engine->state().totals(), result.after);
}

// The same consolidation adopted as a step that holds its actions as values
// (PlanStepCommand::setAppliedActions(): no child command per action, so a step of 200,000
// actions is one object to push and to delete): undo restores the ledger before the step
// exactly, redo the consolidated one, through undo, redo, undo, redo.
void TestUndoCommands::heldStepOfAConsolidation()
{
    const Cluster c = smallFleet();
    const ConsolidationResult result = consolidate(*c.store, *c.topology, {});
    QVERIFY2(result.actions.size() >= 2, "the small fleet's consolidation drains n4 and n5 at least");
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    QUndoStack stack;
    int changes = 0;
    const auto changed = [&changes] { ++changes; };
    stack.push(new PlanActionCommand(host, move("default", "web-0", "n2"), QStringLiteral("Move web-0"), changed)); // a prior action stays
    const FullLedger before = fullLedgerOf(engine->state());
    // As a worker does: the step's actions applied on the engine, then held by the step (what
    // the engine applied, a refusal left out).
    for (const PlanAction& a : result.pendingPlaced)
        engine->apply(a);
    for (const PlanAction& a : result.actions)
        engine->apply(a);
    std::vector<PlanAction> actions;
    for (std::size_t i = 1; i < engine->applied().size(); ++i)
        actions.push_back(engine->applied()[i].action);
    const std::size_t count = actions.size();
    QVERIFY(count >= 2);
    const FullLedger consolidated = fullLedgerOf(engine->state());
    QVERIFY(!(consolidated == before));

    auto* step = new PlanStepCommand(QStringLiteral("Consolidate"), changed);
    step->setAppliedActions(host, std::move(actions));
    changes = 0;
    stack.push(step);
    QCOMPARE(stack.count(), 2);
    QCOMPARE(step->childCount(), 0);
    QCOMPARE(step->actionCount(), static_cast<int>(count));
    QCOMPARE(step->appliedChildren(), static_cast<int>(count));
    QCOMPARE(changes, 1);
    QVERIFY2(fullLedgerOf(engine->state()) == consolidated, "push() only records what the worker applied");
    COMPARE_WITH_FRESH(c, *engine, count + 1, "adopted");
    for (int round = 0; round < 2; ++round) {
        stack.undo();
        QCOMPARE(step->appliedChildren(), 0);
        COMPARE_WITH_FRESH(c, *engine, 1, "undone");
        QVERIFY2(fullLedgerOf(engine->state()) == before, qPrintable(firstDifference(fullLedgerOf(engine->state()), before)));
        stack.redo();
        QCOMPARE(step->appliedChildren(), static_cast<int>(count));
        COMPARE_WITH_FRESH(c, *engine, count + 1, "redone");
        QVERIFY2(fullLedgerOf(engine->state()) == consolidated, qPrintable(firstDifference(fullLedgerOf(engine->state()), consolidated)));
    }
    QCOMPARE(changes, 5);
    stack.undo();
    stack.undo();
    COMPARE_WITH_FRESH(c, *engine, 0, "all undone");
    QVERIFY(engine->state().totals() == PlanEngine(*c.store, *c.topology).state().totals());
}

// A step that holds its actions is undone action by action by the runner like one of children,
// and the stack then drops it whole when another command is pushed over it.
void TestUndoCommands::heldStepUndoneBackToARow()
{
    const int n = PlanStepCommand::kSlicedChildren + 16;
    const Cluster c = ringFleet(n);
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    const FullLedger empty = fullLedgerOf(engine->state());
    QUndoStack stack;
    PlanStepRunner runner(&stack, nullptr);
    pushRingStep(host, stack, runner, n, {}, true);
    COMPARE_WITH_FRESH(c, *engine, n, "pushed");
    // Half undone by hand (as PlanController::undoBackTo() does through the runner), then the rest.
    auto* step = static_cast<PlanStepCommand*>(const_cast<QUndoCommand*>(stack.command(0)));
    for (int i = n - 1; i >= n / 2; --i)
        step->undoChild(i);
    QCOMPARE(step->appliedChildren(), n / 2);
    COMPARE_WITH_FRESH(c, *engine, n / 2, "half undone");
    for (int i = n / 2; i < n; ++i)
        step->redoChild(i);
    COMPARE_WITH_FRESH(c, *engine, n, "half redone");
    stack.undo();
    QTRY_VERIFY(!runner.isBusy());
    QVERIFY(fullLedgerOf(engine->state()) == empty);
    stack.push(new PlanActionCommand(host, move("default", "p0", "n2"), QStringLiteral("Move p0"), {}));
    QCOMPARE(stack.count(), 1); // the undone step deleted
    COMPARE_WITH_FRESH(c, *engine, 1, "another action over it");
}

// The plan panel's "remove the last actions": the last two of three actions, whatever command
// applied them (here two of a step's children), taken back as one step and put back by its undo.
void TestUndoCommands::removeActions()
{
    const Cluster c = smallFleet();
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    QUndoStack stack;
    int changes = 0;
    const auto changed = [&changes] { ++changes; };
    stack.push(new PlanActionCommand(host, move("default", "web-0", "n2"), QStringLiteral("Move web-0"), changed));
    auto* step = new PlanStepCommand(QStringLiteral("Fail and drain"), changed);
    new PlanActionCommand(host, onNode(ActionType::FailNode, "n3"), QStringLiteral("Fail n3"), {}, step);
    new PlanActionCommand(host, drainOf("n1"), QStringLiteral("Drain n1"), {}, step);
    stack.push(step);
    COMPARE_WITH_FRESH(c, *engine, 3, "three actions");
    const FullLedger three = fullLedgerOf(engine->state());
    const PlanAction first = engine->applied().front().action;

    auto* removal = new RemoveActionsCommand(host, 2, QStringLiteral("Remove 2"), changed);
    QCOMPARE(removal->count(), std::size_t(2));
    changes = 0;
    stack.push(removal);
    QCOMPARE(changes, 1);
    COMPARE_WITH_FRESH(c, *engine, 1, "removed");
    QVERIFY(engine->applied().front().action == first);
    stack.undo();
    QCOMPARE(changes, 2);
    COMPARE_WITH_FRESH(c, *engine, 3, "put back");
    QVERIFY(fullLedgerOf(engine->state()) == three);
    stack.redo();
    QCOMPARE(changes, 3);
    COMPARE_WITH_FRESH(c, *engine, 1, "removed again");
    // The commands below see their own actions as the engine's last once the removal is undone.
    stack.undo();
    stack.undo();
    COMPARE_WITH_FRESH(c, *engine, 1, "the step undone");
    stack.undo();
    COMPARE_WITH_FRESH(c, *engine, 0, "all undone");
}

// A step of PlanStepCommand::kSlicedChildren or more children with a runner: the stack's undo
// and redo return at once and the runner takes the children over later turns of the event
// loop; `changed` follows once, when the engine is there. A redo asked for while the undo
// runs finishes the undo first (last in, first out).
void TestUndoCommands::largeStepInSlices_data()
{
    QTest::addColumn<bool>("held"); // the step holds its actions (setAppliedActions()), else children
    QTest::newRow("children") << false;
    QTest::newRow("held actions") << true;
}

void TestUndoCommands::largeStepInSlices()
{
    QFETCH(bool, held);
    const int n = PlanStepCommand::kSlicedChildren + 16;
    const Cluster c = ringFleet(n);
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    QUndoStack stack;
    PlanStepRunner runner(&stack, nullptr);
    runner.setMaxChildrenPerSlice(8); // the first slice runs within the stack's call, the rest later
    int changes = 0;
    pushRingStep(host, stack, runner, n, [&changes] { ++changes; }, held); // push()'s redo runs here, at once
    QVERIFY(!runner.isBusy());
    QCOMPARE(changes, 1);
    COMPARE_WITH_FRESH(c, *engine, n, "pushed");
    const FullLedger moved = fullLedgerOf(engine->state());

    stack.undo();
    QVERIFY(runner.isBusy());
    QCOMPARE(engine->applied().size(), std::size_t(n - 8)); // one slice: the rest run from the event loop
    QCOMPARE(changes, 1);
    QTRY_VERIFY(!runner.isBusy());
    QCOMPARE(changes, 2);
    QCOMPARE(stack.index(), 0);
    COMPARE_WITH_FRESH(c, *engine, 0, "undone in slices");

    stack.redo();
    QVERIFY(runner.isBusy());
    QTRY_VERIFY(!runner.isBusy());
    QCOMPARE(changes, 3);
    COMPARE_WITH_FRESH(c, *engine, n, "redone in slices");
    QVERIFY(fullLedgerOf(engine->state()) == moved);

    // Undo then Redo at once: the redo waits for the undo to be complete.
    stack.undo();
    stack.redo();
    QCOMPARE(changes, 4); // the undo, finished by the redo's start
    QTRY_VERIFY(!runner.isBusy());
    QCOMPARE(changes, 5);
    QCOMPARE(stack.index(), 1);
    QVERIFY(fullLedgerOf(engine->state()) == moved);

    // A step done within one slice is synchronous: no event loop needed.
    runner.setMaxChildrenPerSlice(0);
    stack.undo();
    QVERIFY(!runner.isBusy());
    QCOMPARE(changes, 6);
    COMPARE_WITH_FRESH(c, *engine, 0, "undone within one slice");
}

// The progress dialog of a long undo (shown after its delay) closes when the undo is done: it
// stayed up, empty, after the undo of a 100,000-node consolidation.
void TestUndoCommands::largeStepProgressCloses()
{
    const int n = PlanStepCommand::kSlicedChildren + 16;
    const Cluster c = ringFleet(n);
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    QUndoStack stack;
    QWidget parent;
    PlanStepRunner runner(&stack, &parent);
    runner.setMaxChildrenPerSlice(8);
    pushRingStep(host, stack, runner, n, {});
    for (const bool undo : { true, false }) {
        undo ? stack.undo() : stack.redo();
        QVERIFY(runner.isBusy());
        auto* progress = parent.findChild<QProgressDialog*>(QStringLiteral("planStepProgress"));
        QVERIFY(progress);
        progress->show(); // as after its delay, on a step that takes long
        QTRY_VERIFY(!runner.isBusy());
        QVERIFY2(!progress->isVisible(), undo ? "after the undo" : "after the redo");
    }
}

// The refresh after a large step's children (the map's marks and metric, the panels) runs in a
// turn of the event loop where no child ran: the slice that runs the last children reports them
// all done (progressed) and returns to the loop before `changed` is called. Together, the last
// slice and the refresh held the GUI thread over 50 ms at 100,000 nodes.
void TestUndoCommands::largeStepRefreshHasATurnOfItsOwn()
{
    const int n = PlanStepCommand::kSlicedChildren + 16;
    const Cluster c = ringFleet(n);
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    QUndoStack stack;
    PlanStepRunner runner(&stack, nullptr);
    runner.setMaxChildrenPerSlice(8);
    int lastDone = -1;
    connect(&runner, &PlanStepRunner::progressed, &runner, [&](int done, int) { lastDone = done; });
    std::vector<int> doneAtRefresh;
    pushRingStep(host, stack, runner, n, [&] { doneAtRefresh.push_back(lastDone); });
    doneAtRefresh.clear(); // push()'s redo records what was applied: no slices
    lastDone = -1;
    for (const bool undo : { true, false }) {
        undo ? stack.undo() : stack.redo();
        QVERIFY(runner.isBusy());
        QTRY_VERIFY(!runner.isBusy());
        QCOMPARE(doneAtRefresh.size(), std::size_t(1));
        QVERIFY2(doneAtRefresh.back() == n,
            qPrintable(QStringLiteral("%1: %2 of %3 children reported before the refresh").arg(QLatin1String(undo ? "undo" : "redo")).arg(doneAtRefresh.back()).arg(n)));
        doneAtRefresh.clear();
        lastDone = -1;
    }
    COMPARE_WITH_FRESH(c, *engine, n, "undone and redone");
}

void TestUndoCommands::largeStepCancelled_data()
{
    QTest::addColumn<bool>("undo");
    QTest::addColumn<int>("cancelAfter"); // children run before the cancel (0: before the first slice)
    QTest::addColumn<bool>("held");
    for (const bool held : { false, true }) {
        const char* kind = held ? ", held actions" : "";
        QTest::addRow("undo, at once%s", kind) << true << 0 << held;
        QTest::addRow("undo, half way%s", kind) << true << 40 << held;
        QTest::addRow("redo, at once%s", kind) << false << 0 << held;
        QTest::addRow("redo, half way%s", kind) << false << 40 << held;
    }
}

// A cancelled undo (redo) leaves the plan and the stack as they were before it.
void TestUndoCommands::largeStepCancelled()
{
    QFETCH(bool, undo);
    QFETCH(int, cancelAfter);
    QFETCH(bool, held);
    const int n = PlanStepCommand::kSlicedChildren + 16;
    const Cluster c = ringFleet(n);
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    QUndoStack stack;
    PlanStepRunner runner(&stack, nullptr);
    runner.setMaxChildrenPerSlice(8);
    pushRingStep(host, stack, runner, n, {}, held);
    if (!undo) {
        stack.undo();
        QTRY_VERIFY(!runner.isBusy());
    }
    const FullLedger before = fullLedgerOf(engine->state());
    const int indexBefore = stack.index();
    const std::size_t appliedBefore = engine->applied().size();
    int mostDone = -1;
    bool cancelled = false;
    bool armed = true; // one cancel: the undo and redo below run to their end
    connect(&runner, &PlanStepRunner::progressed, &runner, [&](int done, int) {
        if (!armed)
            return;
        mostDone = std::max(mostDone, done);
        if (done >= cancelAfter)
            runner.cancel();
    });
    connect(&runner, &PlanStepRunner::finished, &runner, [&](bool c) { cancelled = c; });
    if (undo)
        stack.undo();
    else
        stack.redo();
    if (cancelAfter == 0)
        runner.cancel();
    QTRY_VERIFY(!runner.isBusy());
    armed = false;
    QVERIFY(cancelled);
    if (cancelAfter > 0)
        QVERIFY2(mostDone >= cancelAfter && mostDone < n, "the cancel came half way, after some children ran");
    QCOMPARE(stack.index(), indexBefore);
    QCOMPARE(engine->applied().size(), appliedBefore);
    QVERIFY2(fullLedgerOf(engine->state()) == before, "the plan is as before the cancelled command");
    COMPARE_WITH_FRESH(c, *engine, appliedBefore, "after the cancel");
    // The stack still works both ways.
    stack.undo();
    QTRY_VERIFY(!runner.isBusy());
    stack.redo();
    QTRY_VERIFY(!runner.isBusy());
    COMPARE_WITH_FRESH(c, *engine, n, "undone and redone after");
}

// The progress dialog of a long undo is window modal (the window takes no input while the plan
// is half undone) and its Cancel button, clicked, takes the undo back: the plan and the stack are
// as before it.
void TestUndoCommands::largeStepCancelledFromItsDialog()
{
    const int n = 2000;
    const Cluster c = ringFleet(n);
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(borrowed(*c.store), engine);
    QUndoStack stack;
    QWidget parent;
    parent.resize(400, 300);
    parent.show();
    QVERIFY(QTest::qWaitForWindowExposed(&parent));
    PlanStepRunner runner(&stack, &parent);
    runner.setMaxChildrenPerSlice(1); // n turns of the event loop: the click comes half way
    pushRingStep(host, stack, runner, n, {}, true);
    const FullLedger before = fullLedgerOf(engine->state());
    const int indexBefore = stack.index();
    int mostDone = 0;
    bool cancelled = false;
    connect(&runner, &PlanStepRunner::progressed, &runner, [&](int done, int) { mostDone = std::max(mostDone, done); });
    connect(&runner, &PlanStepRunner::finished, &runner, [&](bool was) { cancelled = was; });
    stack.undo();
    QVERIFY(runner.isBusy());
    auto* progress = parent.findChild<QProgressDialog*>(QStringLiteral("planStepProgress"));
    QVERIFY(progress);
    QCOMPARE(progress->windowModality(), Qt::WindowModal);
    QTRY_VERIFY_WITH_TIMEOUT(progress->isVisible(), 10000); // after its delay
    QVERIFY(runner.isBusy());
    auto* cancel = progress->findChild<QPushButton*>();
    QVERIFY(cancel && cancel->isVisible() && cancel->isEnabled());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_VERIFY(!runner.isBusy());
    QVERIFY(cancelled);
    QVERIFY2(mostDone > 0 && mostDone < n, qPrintable(QStringLiteral("%1 of %2 undone before the click").arg(mostDone).arg(n)));
    QVERIFY(!progress->isVisible());
    QCOMPARE(stack.index(), indexBefore);
    QVERIFY2(fullLedgerOf(engine->state()) == before, "the plan is as before the cancelled undo");
}

QTEST_MAIN(TestUndoCommands) // widgets: the runner's progress dialog (offscreen)
void TestUndoCommands::planStateKeepsWhatItReads()
{
    // A placement runs its engine on a copy of the store; a panel may still hold the plan's
    // ledger after another engine replaced that one: the ledger keeps the engine and the copy.
    const Cluster c = smallFleet();
    auto copy = std::make_shared<const model::ClusterStore>(c.store->clone());
    const std::weak_ptr<const model::ClusterStore> copyAlive = copy;
    auto engine = std::make_shared<PlanEngine>(*copy, *c.topology);
    const std::weak_ptr<PlanEngine> engineAlive = engine;
    PlanEngineHost host(std::make_shared<StoreReaders>());
    (void)host.replaceEngine(std::move(copy), engine);
    QVERIFY(engine->apply(move("default", "batch-0", "n5")).holds);
    engine.reset();
    std::shared_ptr<const model::PlanLedger> ledger = host.planState();
    QVERIFY(ledger);
    (void)host.replaceEngine(borrowed(*c.store), std::make_shared<PlanEngine>(*c.store, *c.topology));
    QVERIFY(!engineAlive.expired());
    QVERIFY2(!copyAlive.expired(), "the ledger's store was freed under it");
    QCOMPARE(ledger->podNode(c.store->findPod("default", "batch-0")), c.store->findNode("n5"));
    ledger.reset();
    QVERIFY(engineAlive.expired());
    QVERIFY(copyAlive.expired());
}

#include "tst_undocommands.moc"
