// SPDX-License-Identifier: Apache-2.0
// PlanEngine::reapplyUndone() (model/plan/plan.h: a redo replays what undo recorded, without
// planning the step again, so a large step's redo stays as quick as its undo): on the simulated
// fleet, drains and moves undone then put back from what undo recorded give the ledger, the GPUs' shares and the records that apply() gave, and the
// next action plans the same as on an engine that applied everything directly (disruption
// budgets and cordons included). Another order, an apply() since, or an action that added nodes
// is not replayed (null: apply() it again). The same undo and reapply in parts (beginUndo(),
// beginReapply(), continuePartial()) leave what the whole ones leave, and a part cancelled leaves
// the engine as before it began.

#include "planfixture.h"

#include "importers/clusterloader.h"
#include "model/domainpath.h"

#include <QtTest>

using namespace planfixture;

namespace {

/// The ledger plus every node's GPU shares.
struct FullLedger {
    Ledger ledger;
    std::vector<std::vector<std::int32_t>> gpuShares;
    bool operator==(const FullLedger&) const = default;
};

FullLedger fullLedgerOf(const PlanLedger& s)
{
    FullLedger l { ledgerOf(s), {} };
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const auto shares = s.nodeGpuShares(NodeId(i));
        l.gpuShares.emplace_back(shares.begin(), shares.end());
    }
    return l;
}

/// What differs between two ledgers, for a failure's message ("" when nothing does).
QString whatDiffers(const FullLedger& a, const FullLedger& b)
{
    QStringList out;
    if (!(a.ledger.totals == b.ledger.totals))
        out << QStringLiteral("totals");
    for (std::size_t i = 0; i < std::min(a.ledger.podNodes.size(), b.ledger.podNodes.size()); ++i)
        if (a.ledger.podNodes[i] != b.ledger.podNodes[i] || a.ledger.podChanged[i] != b.ledger.podChanged[i])
            out << QStringLiteral("pod %1").arg(i);
    for (std::size_t i = 0; i < std::min(a.ledger.nodePresent.size(), b.ledger.nodePresent.size()); ++i) {
        if (a.ledger.nodePresent[i] != b.ledger.nodePresent[i] || a.ledger.nodeCordoned[i] != b.ledger.nodeCordoned[i])
            out << QStringLiteral("node %1 present/cordoned").arg(i);
        if (!(a.ledger.nodeRequested[i] == b.ledger.nodeRequested[i]))
            out << QStringLiteral("node %1 requested").arg(i);
    }
    for (std::size_t i = 0; i < std::min(a.gpuShares.size(), b.gpuShares.size()); ++i)
        if (a.gpuShares[i] != b.gpuShares[i])
            out << QStringLiteral("node %1 GPU shares").arg(i);
    if (a.ledger.podNodes.size() != b.ledger.podNodes.size() || a.ledger.nodeCount != b.ledger.nodeCount)
        out << QStringLiteral("sizes");
    return out.mid(0, 8).join(QStringLiteral(", "));
}

bool sameRecord(const AppliedAction& a, const AppliedAction& b)
{
    if (!(a.action == b.action) || a.holds != b.holds || !(a.before == b.before) || !(a.after == b.after) || a.changes.size() != b.changes.size()
        || a.nodesRemoved != b.nodesRemoved || a.unplaced.size() != b.unplaced.size())
        return false;
    for (std::size_t i = 0; i < a.changes.size(); ++i)
        if (a.changes[i].pod != b.changes[i].pod || a.changes[i].from != b.changes[i].from || a.changes[i].to != b.changes[i].to)
            return false;
    return true;
}

/// Drains of the first `count` nodes whose drain moves pods, then a move of a pod to another node that can take it.
std::vector<PlanAction> someActions(const ClusterStore& store, const Topology& topology, std::size_t count)
{
    std::vector<PlanAction> actions;
    PlanEngine probe(store, topology);
    for (std::uint32_t i = 0; i < store.nodeCount() && actions.size() < count; ++i) {
        if (store.nodePods(NodeId(i)).empty())
            continue;
        const PlanAction drain = onNode(ActionType::DrainNode, std::string(store.nodeName(NodeId(i))));
        const std::size_t before = probe.applied().size();
        probe.apply(drain);
        if (probe.applied().size() == before)
            continue;
        if (probe.applied().back().changes.empty())
            probe.undo(); // nothing moved: not worth replaying
        else
            actions.push_back(drain);
    }
    const PlanLedger& state = probe.state();
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const PodId p(i);
        if (!state.podNode(p).isValid() || store.podOwnerKind(p) == OwnerKind::DaemonSet || store.podIsMirror(p))
            continue;
        for (std::uint32_t j = 0; j < store.nodeCount(); ++j)
            if (NodeId(j) != state.podNode(p) && state.nodePresent(NodeId(j)) && checkMove(state, p, NodeId(j)).feasible) {
                // The engine's own rules too (a gang member moves only with its gang).
                const PlanAction m = move(std::string(store.podNamespace(p)), std::string(store.podName(p)), std::string(store.nodeName(NodeId(j))));
                const std::size_t before = probe.applied().size();
                probe.apply(m);
                if (probe.applied().size() > before) {
                    actions.push_back(m);
                    return actions;
                }
                break;
            }
    }
    return actions;
}

} // namespace

class TestPlanReapply : public QObject {
    Q_OBJECT
private slots:
    void reappliedEqualsApplied();
    void notReplayedOutOfOrderOrAfterApply();
    void addedNodesAreAppliedAgain();
    void inPartsEqualsWhole();
    void partsCancelledPutItBack();
};

void TestPlanReapply::reappliedEqualsApplied()
{
    const auto c = fleet::importers::loadSimulatedCluster({ 600, 5 });
    const std::vector<PlanAction> actions = someActions(*c.store, *c.topology, 40);
    QVERIFY2(actions.size() > 40, qPrintable(QString::number(actions.size())));
    QCOMPARE(actions.back().type, ActionType::MovePod);
    PlanEngine engine(*c.store, *c.topology);
    std::vector<FullLedger> ledgers { fullLedgerOf(engine.state()) };
    std::size_t moved = 0;
    for (const PlanAction& a : actions) {
        const std::size_t before = engine.applied().size();
        const AppliedAction& r = engine.apply(a);
        QVERIFY2(engine.applied().size() == before + 1, r.reasons.empty() ? "refused" : r.reasons.front().message.c_str());
        moved += engine.applied().back().changes.size();
        ledgers.push_back(fullLedgerOf(engine.state()));
    }
    QVERIFY2(moved > 100, qPrintable(QStringLiteral("the drains moved %1 pods").arg(moved)));
    const std::vector<AppliedAction> records = engine.applied();
    for (int round = 0; round < 2; ++round) {
        for (std::size_t k = actions.size(); k > 0; --k) {
            QVERIFY(engine.undo());
            const FullLedger now = fullLedgerOf(engine.state());
            QVERIFY2(now == ledgers[k - 1], qPrintable(QStringLiteral("undo of action %1 (%2 %3): %4")
                                                          .arg(k - 1)
                                                          .arg(QString::fromUtf8(actionTypeName(actions[k - 1].type).data(), static_cast<qsizetype>(actionTypeName(actions[k - 1].type).size())))
                                                          .arg(QString::fromStdString(actions[k - 1].node))
                                                          .arg(whatDiffers(now, ledgers[k - 1]))));
        }
        for (std::size_t k = 0; k < actions.size(); ++k) {
            const AppliedAction* again = engine.reapplyUndone(actions[k]);
            QVERIFY(again);
            QVERIFY(sameRecord(*again, records[k]));
            QVERIFY2(fullLedgerOf(engine.state()) == ledgers[k + 1], qPrintable(QStringLiteral("after action %1").arg(k)));
        }
    }
    // The next action plans as on an engine that applied everything directly.
    PlanEngine direct(*c.store, *c.topology);
    for (const PlanAction& a : actions)
        direct.apply(a);
    PlanAction next;
    for (std::uint32_t i = c.store->nodeCount(); i > 0; --i)
        if (engine.state().nodePresent(NodeId(i - 1)) && !engine.state().nodePods(NodeId(i - 1)).empty()) {
            next = onNode(ActionType::DrainNode, std::string(c.store->nodeName(NodeId(i - 1))));
            break;
        }
    QVERIFY(!next.node.empty());
    QVERIFY(sameRecord(engine.apply(next), direct.apply(next)));
    QVERIFY(fullLedgerOf(engine.state()) == fullLedgerOf(direct.state()));
}

void TestPlanReapply::notReplayedOutOfOrderOrAfterApply()
{
    const auto c = fleet::importers::loadSimulatedCluster({ 200, 2 });
    const std::vector<PlanAction> actions = someActions(*c.store, *c.topology, 3);
    PlanEngine engine(*c.store, *c.topology);
    for (std::size_t k = 0; k < 3; ++k)
        engine.apply(actions[k]);
    QVERIFY(engine.undo());
    QVERIFY(engine.undo());
    // Not the last undone (actions[1]): nothing replayed, and the order is lost from then on.
    QVERIFY(!engine.reapplyUndone(actions[2]));
    QCOMPARE(engine.applied().size(), std::size_t(1));
    QVERIFY(!engine.reapplyUndone(actions[1]));
    engine.apply(actions[1]);
    QVERIFY(engine.undo());
    engine.apply(actions[2]); // the state moved on
    QVERIFY(!engine.reapplyUndone(actions[1]));
    QCOMPARE(engine.applied().size(), std::size_t(2));
}

void TestPlanReapply::addedNodesAreAppliedAgain()
{
    const auto c = fleet::importers::loadSimulatedCluster({ 200, 2 });
    PlanEngine engine(*c.store, *c.topology);
    PlanAction add;
    add.type = ActionType::AddNode;
    add.instanceType = std::string(c.store->nodeInstanceType(NodeId(0)));
    add.count = 2;
    QVERIFY(engine.apply(add).holds);
    const Ledger withNodes = ledgerOf(engine.state());
    QVERIFY(engine.undo());
    QVERIFY(!engine.reapplyUndone(add)); // ids and names are made anew: apply() it
    QVERIFY(engine.applied().empty());
    engine.apply(add);
    QVERIFY(ledgerOf(engine.state()) == withNodes);
}

namespace {

/// A few drains, then the failure of the zone with the most nodes (the last action).
std::vector<PlanAction> drainsThenZoneFailure(const ClusterStore& store, const Topology& topology)
{
    std::vector<PlanAction> actions = someActions(store, topology, 5);
    actions.pop_back(); // the move
    DomainId zone;
    for (const DomainId region : topology.domainChildren(topology.root()))
        for (const DomainId z : topology.domainChildren(region))
            if (!zone.isValid() || topology.domainNodes(z).size() > topology.domainNodes(zone).size())
                zone = z;
    actions.push_back(inDomain(ActionType::FailDomain, domainPathText(topology, zone)));
    return actions;
}

/// Runs the engine's partial undo or reapply to its end, `part` effects at a time; the parts run.
int runParts(PlanEngine& engine, std::size_t part)
{
    int parts = 1;
    while (!engine.continuePartial(part))
        ++parts;
    return parts;
}

} // namespace

void TestPlanReapply::inPartsEqualsWhole()
{
    const auto c = fleet::importers::loadSimulatedCluster({ 600, 5 });
    const std::vector<PlanAction> actions = drainsThenZoneFailure(*c.store, *c.topology);
    PlanEngine whole(*c.store, *c.topology);
    PlanEngine parts(*c.store, *c.topology);
    for (const PlanAction& a : actions) {
        whole.apply(a);
        parts.apply(a);
    }
    QCOMPARE(parts.applied().size(), actions.size());
    const AppliedAction failed = parts.applied().back();
    QCOMPARE(failed.action.type, ActionType::FailDomain);
    QVERIFY2(failed.changes.size() > 100, qPrintable(QString::number(failed.changes.size())));
    const FullLedger applied = fullLedgerOf(parts.state());

    QVERIFY(whole.undo());
    QVERIFY(parts.beginUndo());
    QVERIFY(parts.isPartial());
    QVERIFY(parts.partialTotal() > failed.changes.size()); // the moves, the nodes gone, ...
    QVERIFY(!parts.continuePartial(7));
    QCOMPARE(parts.partialDone(), std::size_t(7));
    QCOMPARE(parts.applied().size(), actions.size()); // listed until the undo completes
    QVERIFY_THROWS_EXCEPTION(std::logic_error, parts.apply(actions.front()));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, parts.undo());
    QVERIFY(runParts(parts, 7) > 10);
    QVERIFY(!parts.isPartial());
    QCOMPARE(parts.applied().size(), actions.size() - 1);
    const FullLedger undone = fullLedgerOf(parts.state());
    QVERIFY2(undone == fullLedgerOf(whole.state()), qPrintable(whatDiffers(undone, fullLedgerOf(whole.state()))));

    QVERIFY(whole.reapplyUndone(failed.action));
    QVERIFY(parts.beginReapply(failed.action));
    QCOMPARE(parts.applied().size(), actions.size() - 1); // listed once the reapply completes
    QVERIFY(runParts(parts, 11) > 10);
    QCOMPARE(parts.applied().size(), actions.size());
    QVERIFY(sameRecord(parts.applied().back(), failed));
    QVERIFY2(fullLedgerOf(parts.state()) == applied, qPrintable(whatDiffers(fullLedgerOf(parts.state()), applied)));

    // Undone again in parts, an undo of the drain before it whole, and the next action: each
    // plans as on the engine that did it whole (its capacity index and budgets the same).
    QVERIFY(whole.undo());
    QVERIFY(parts.beginUndo());
    runParts(parts, 13);
    QVERIFY(whole.undo());
    QVERIFY(parts.undo());
    QVERIFY(fullLedgerOf(parts.state()) == fullLedgerOf(whole.state()));
    PlanAction next;
    for (std::uint32_t i = c.store->nodeCount(); i > 0; --i)
        if (parts.state().nodePresent(NodeId(i - 1)) && !parts.state().nodePods(NodeId(i - 1)).empty()) {
            next = onNode(ActionType::DrainNode, std::string(c.store->nodeName(NodeId(i - 1))));
            break;
        }
    QVERIFY(!next.node.empty());
    QVERIFY(sameRecord(parts.apply(next), whole.apply(next)));
    QVERIFY(fullLedgerOf(parts.state()) == fullLedgerOf(whole.state()));
}

void TestPlanReapply::partsCancelledPutItBack()
{
    const auto c = fleet::importers::loadSimulatedCluster({ 600, 5 });
    const std::vector<PlanAction> actions = drainsThenZoneFailure(*c.store, *c.topology);
    PlanEngine engine(*c.store, *c.topology);
    PlanEngine direct(*c.store, *c.topology);
    for (const PlanAction& a : actions) {
        engine.apply(a);
        direct.apply(a);
    }
    const AppliedAction failed = engine.applied().back();
    const FullLedger applied = fullLedgerOf(engine.state());

    // An undo cancelled half way: the failure applied as before, and undone and replayed as before.
    QVERIFY(engine.beginUndo());
    QVERIFY(!engine.continuePartial(engine.partialTotal() / 2));
    QVERIFY(!(fullLedgerOf(engine.state()) == applied));
    const std::size_t done = engine.partialDone();
    QVERIFY(!engine.cancelPartial(5)); // in parts too, last first
    QCOMPARE(engine.partialDone(), done - 5);
    QVERIFY(!engine.continuePartial(5)); // goes on cancelling
    QCOMPARE(engine.partialDone(), done - 10);
    int parts = 0;
    while (!engine.cancelPartial(9))
        ++parts;
    QVERIFY(parts > 10);
    QVERIFY(!engine.isPartial());
    QCOMPARE(engine.applied().size(), actions.size());
    QVERIFY(sameRecord(engine.applied().back(), failed));
    QVERIFY2(fullLedgerOf(engine.state()) == applied, qPrintable(whatDiffers(fullLedgerOf(engine.state()), applied)));
    QVERIFY(engine.undo());
    QVERIFY(direct.undo());
    const FullLedger undone = fullLedgerOf(engine.state());
    QVERIFY(undone == fullLedgerOf(direct.state()));

    // A reapply cancelled half way: undone as before, and the reapply still there to run.
    QVERIFY(engine.beginReapply(failed.action));
    QVERIFY(!engine.continuePartial(engine.partialTotal() / 3));
    QVERIFY(engine.cancelPartial()); // at once
    QCOMPARE(engine.applied().size(), actions.size() - 1);
    QVERIFY2(fullLedgerOf(engine.state()) == undone, qPrintable(whatDiffers(fullLedgerOf(engine.state()), undone)));
    QVERIFY(engine.reapplyUndone(failed.action));
    QVERIFY(fullLedgerOf(engine.state()) == applied);

    // An action that added nodes is undone whole (no partial begins), and what undo() kept can be
    // taken out, after which nothing is replayed.
    PlanAction add;
    add.type = ActionType::AddNode;
    add.instanceType = std::string(c.store->nodeInstanceType(NodeId(0)));
    QVERIFY(engine.apply(add).holds);
    QVERIFY(!engine.beginUndo());
    QVERIFY(!engine.isPartial());
    QVERIFY(engine.undo());
    QVERIFY(engine.undo()); // the failure
    QVERIFY(engine.takeUndone());
    QVERIFY(!engine.takeUndone());
    QVERIFY(!engine.beginReapply(failed.action));
    QVERIFY(!engine.reapplyUndone(failed.action));
}

QTEST_GUILESS_MAIN(TestPlanReapply)
#include "tst_planreapply.moc"
