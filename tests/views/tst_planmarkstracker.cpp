// SPDX-License-Identifier: Apache-2.0
// The map's plan marks followed change by change (views/plan/planmarkstracker.h) equal the marks
// built from the whole plan (buildPlanMarks()) after every change: drains, failures of nodes and
// domains, moves applied as violations, added nodes, undone one by one, several at once, and
// undone then replaced by other actions before the tracker looks (what an undo step's slices and
// a drop after an undo do), on a simulated fleet.

#include "explorefixtures.h"
#include "model/domainpath.h"
#include "model/nodeboundpods.h"
#include "model/plan/plan.h"
#include "views/plan/planmarksbuilder.h"
#include "views/plan/planmarkstracker.h"

#include <QTest>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>

using namespace fleet;

namespace {

QString describe(const std::vector<model::NodeId>& a, const std::vector<model::NodeId>& b)
{
    return QStringLiteral("%1 vs %2 ids").arg(a.size()).arg(b.size());
}

// Null-equal, then every list equal.
void compareMarks(const std::shared_ptr<const views::PlanMarks>& tracked, const std::shared_ptr<const views::PlanMarks>& built, int step)
{
    QVERIFY2(bool(tracked) == bool(built), qPrintable(QStringLiteral("step %1: one of the marks is null").arg(step)));
    if (!built)
        return;
    QVERIFY2(tracked->changed == built->changed, qPrintable(QStringLiteral("step %1 changed: %2").arg(step).arg(describe(tracked->changed, built->changed))));
    QVERIFY2(tracked->emptied == built->emptied, qPrintable(QStringLiteral("step %1 emptied: %2").arg(step).arg(describe(tracked->emptied, built->emptied))));
    QVERIFY2(tracked->removed == built->removed, qPrintable(QStringLiteral("step %1 removed: %2").arg(step).arg(describe(tracked->removed, built->removed))));
    QVERIFY2(tracked->violations == built->violations,
        qPrintable(QStringLiteral("step %1 violations: %2").arg(step).arg(describe(tracked->violations, built->violations))));
    QVERIFY2(tracked->added == built->added, qPrintable(QStringLiteral("step %1: added nodes differ").arg(step)));
}

} // namespace

class TestPlanMarksTracker : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void followsEveryChange_data();
    void followsEveryChange();
    void undoneAndReplacedBeforeItLooks();
    void anotherStoreIsCountedAgain();

private:
    // A random action on the fleet: drain, fail a node, fail an innermost domain, move a pod as a
    // violation, add a node like one.
    [[nodiscard]] model::PlanAction randomAction(std::mt19937& rng) const;

    importers::LoadedCluster m_cluster;
};

void TestPlanMarksTracker::initTestCase()
{
    m_cluster = testing::loadSimulated(600);
    QVERIFY(m_cluster.store && m_cluster.topology);
}

model::PlanAction TestPlanMarksTracker::randomAction(std::mt19937& rng) const
{
    const model::ClusterStore& store = *m_cluster.store;
    std::uniform_int_distribution<std::uint32_t> anyNode(0, static_cast<std::uint32_t>(store.nodeCount() - 1));
    const model::NodeId node(anyNode(rng));
    model::PlanAction a;
    switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
    case 0:
    case 1:
    case 2:
        a.type = model::ActionType::DrainNode;
        a.node = std::string(store.nodeName(node));
        break;
    case 3:
        a.type = model::ActionType::FailNode;
        a.node = std::string(store.nodeName(node));
        break;
    case 4:
        a.type = model::ActionType::FailDomain;
        a.domain = model::domainPathText(*m_cluster.topology, m_cluster.topology->nodeDomain(node));
        break;
    case 5:
        a.type = model::ActionType::AddNode;
        a.instanceType = std::string(store.nodeInstanceType(node));
        a.domain = model::domainPathText(*m_cluster.topology, m_cluster.topology->nodeDomain(node));
        break;
    default: {
        // A pod that may move (not a DaemonSet's or a mirror pod) to another node, as a violation
        // when it does not fit.
        a.type = model::ActionType::MovePod;
        a.override = true;
        std::uniform_int_distribution<std::uint32_t> anyPod(0, static_cast<std::uint32_t>(store.podCount() - 1));
        for (int tries = 0; tries < 100; ++tries) {
            const model::PodId p(anyPod(rng));
            if (!model::isNodeBoundPod(store, p) && !store.podIsTerminal(p)) {
                a.pod = { std::string(store.podNamespace(p)), std::string(store.podName(p)), {} };
                break;
            }
        }
        a.node = std::string(store.nodeName(model::NodeId(anyNode(rng))));
        break;
    }
    }
    return a;
}

void TestPlanMarksTracker::followsEveryChange_data()
{
    QTest::addColumn<unsigned>("seed");
    for (unsigned seed : { 1u, 2u, 3u, 4u })
        QTest::addRow("seed %u", seed) << seed;
}

// Each round applies or undoes one to four actions, telling the tracker where the plan may
// differ from what it counted (as PlanEngineHost::noteAppliedChangeAt() does), or nothing for a
// plain end change; the marks then equal buildPlanMarks()'s.
void TestPlanMarksTracker::followsEveryChange()
{
    QFETCH(unsigned, seed);
    std::mt19937 rng(seed);
    model::PlanEngine engine(*m_cluster.store, *m_cluster.topology);
    views::PlanMarksTracker tracker;
    tracker.rebuild(engine, m_cluster.topology.get());
    QVERIFY(!tracker.marks());
    std::size_t sawViolation = 0, sawEmptied = 0, sawRemoved = 0, sawAdded = 0;
    for (int round = 0; round < 120; ++round) {
        const int n = std::uniform_int_distribution<int>(1, 4)(rng);
        const bool undo = !engine.applied().empty() && std::uniform_int_distribution<int>(0, 2)(rng) == 0;
        std::size_t from = engine.applied().size();
        for (int k = 0; k < n; ++k) {
            if (undo) {
                if (engine.applied().empty())
                    break;
                from = engine.applied().size() - 1;
                engine.undo();
            } else {
                try {
                    (void)engine.apply(randomAction(rng));
                } catch (const std::exception&) {
                    // A name the state lacks (a failed domain's node again): not applied.
                }
            }
        }
        tracker.update(engine, m_cluster.topology.get(), round % 2 == 0 ? from : SIZE_MAX);
        QCOMPARE(tracker.countedActions(), engine.applied().size());
        const auto built = views::buildPlanMarks(engine, m_cluster.topology.get());
        compareMarks(tracker.marks(), built, round);
        if (QTest::currentTestFailed())
            return;
        if (built) {
            sawViolation += built->violations.size();
            sawEmptied += built->emptied.size();
            sawRemoved += built->removed.size();
            sawAdded += built->added.size();
        }
    }
    // The rounds went through every kind of mark (else the comparison above proves less).
    QVERIFY(sawViolation > 0);
    QVERIFY(sawEmptied > 0);
    QVERIFY(sawRemoved > 0);
    QVERIFY(sawAdded > 0);
}

// Actions undone and others applied in their place before the tracker looks: with the first
// changed index it takes back what it counted for the undone ones; told nothing (the count of
// actions is the same) it would keep the old marks, which is why the window's commands note it.
void TestPlanMarksTracker::undoneAndReplacedBeforeItLooks()
{
    model::PlanEngine engine(*m_cluster.store, *m_cluster.topology);
    views::PlanMarksTracker tracker;
    const model::ClusterStore& store = *m_cluster.store;
    for (std::uint32_t i = 0; i < 6; ++i) {
        model::PlanAction drain;
        drain.type = model::ActionType::DrainNode;
        drain.node = std::string(store.nodeName(model::NodeId(i * 50)));
        (void)engine.apply(drain);
    }
    tracker.rebuild(engine, m_cluster.topology.get());
    compareMarks(tracker.marks(), views::buildPlanMarks(engine, m_cluster.topology.get()), 0);
    const auto before = tracker.marks();
    // Two undone, two others applied: the same number of actions.
    engine.undo();
    engine.undo();
    for (std::uint32_t i = 0; i < 2; ++i) {
        model::PlanAction fail;
        fail.type = model::ActionType::FailNode;
        fail.node = std::string(store.nodeName(model::NodeId(7 + i * 50)));
        (void)engine.apply(fail);
    }
    const auto built = views::buildPlanMarks(engine, m_cluster.topology.get());
    QVERIFY(built && built->removed != before->removed);
    views::PlanMarksTracker blind = tracker;
    blind.update(engine, m_cluster.topology.get(), SIZE_MAX);
    QVERIFY(blind.marks()->removed != built->removed); // not told: the undone drains still counted
    tracker.update(engine, m_cluster.topology.get(), 4);
    compareMarks(tracker.marks(), built, 1);
    // All undone: no marks.
    while (engine.undo()) {
    }
    tracker.update(engine, m_cluster.topology.get(), 0);
    QVERIFY(!tracker.marks());
    QCOMPARE(tracker.countedActions(), std::size_t(0));
}

// A tracker handed an engine over another store counts it from scratch.
void TestPlanMarksTracker::anotherStoreIsCountedAgain()
{
    model::PlanEngine first(*m_cluster.store, *m_cluster.topology);
    model::PlanAction drain;
    drain.type = model::ActionType::DrainNode;
    drain.node = std::string(m_cluster.store->nodeName(model::NodeId(3)));
    (void)first.apply(drain);
    views::PlanMarksTracker tracker;
    tracker.rebuild(first, m_cluster.topology.get());
    QVERIFY(tracker.marks());

    const importers::LoadedCluster other = testing::loadSimulated(300);
    model::PlanEngine second(*other.store, *other.topology);
    drain.node = std::string(other.store->nodeName(model::NodeId(5)));
    (void)second.apply(drain);
    tracker.update(second, other.topology.get(), SIZE_MAX);
    compareMarks(tracker.marks(), views::buildPlanMarks(second, other.topology.get()), 0);
}

QTEST_GUILESS_MAIN(TestPlanMarksTracker)
#include "tst_planmarkstracker.moc"
