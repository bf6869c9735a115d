// SPDX-License-Identifier: Apache-2.0
// Fail Domain from the map's context menu, under xvfb-run with real events: a right
// click on a domain label opens the menu, its Fail Domain action puts one FailDomain in the plan
// (one undo step), the domain's failure strands a gang as a whole (every pod of it without a node
// under the plan, also those on surviving nodes), and the plan panel says what the failure
// costs: the pods stranded and the GPUs lost, the figures worked out here from the store. A large
// domain fails on a worker as one undo step, whose one action Undo and Redo run in parts (the
// step runner, PlanEngine::beginUndo()): the plan after them is the one before, exactly, and
// Cancel in the middle of either puts it back as it was.

#include "planwindowfixture.h"

#include "app/controllers/importcontroller.h"
#include "app/controllers/plansteprunner.h"
#include "app/startup/surfaceformat.h"
#include "model/domainpath.h"
#include "model/figures.h"
#include "model/plan/evictionrules.h"
#include "views/plan/planactionsmodel.h"
#include "views/plan/planpanel.h"

#include "common/guitestmain.h"

#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QMenu>
#include <QSignalSpy>
#include <QStyle>
#include <QTableView>
#include <QUndoStack>

#include <array>
#include <set>

using namespace fleet;
using namespace planwindow;

namespace {

/// What an evaluation of the plan reads: the totals, where every pod is, every node's state, and
/// each applied action's record.
struct PlanPicture {
    model::PlanTotals totals;
    std::vector<model::NodeId> podNodes;
    std::vector<bool> podChanged;
    std::vector<std::uint64_t> podGpuMasks;
    std::vector<bool> nodePresent;
    std::vector<bool> nodeCordoned;
    std::vector<model::ResourceVector> nodeRequested;
    std::vector<model::PlanAction> actions;
    std::vector<std::vector<std::array<std::uint32_t, 3>>> changes;
    std::vector<std::vector<model::NodeId>> nodesRemoved;
    std::vector<std::size_t> unplaced;
    std::vector<model::PlanTotals> totalsAfter;
    bool operator==(const PlanPicture&) const = default;
};

PlanPicture pictureOf(const model::PlanEngine& engine)
{
    const model::PlanLedger& s = engine.state();
    PlanPicture p;
    p.totals = s.totals();
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        p.podNodes.push_back(s.podNode(model::PodId(i)));
        p.podChanged.push_back(s.podChanged(model::PodId(i)));
        p.podGpuMasks.push_back(s.podGpuMask(model::PodId(i)));
    }
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        p.nodePresent.push_back(s.nodePresent(model::NodeId(i)));
        p.nodeCordoned.push_back(s.nodeCordonedByPlan(model::NodeId(i)));
        p.nodeRequested.push_back(s.nodeRequested(model::NodeId(i)));
    }
    for (const model::AppliedAction& r : engine.applied()) {
        p.actions.push_back(r.action);
        auto& changes = p.changes.emplace_back();
        for (const model::AppliedAction::PodChange& c : r.changes)
            changes.push_back({ c.pod.index(), c.from.index(), c.to.index() });
        p.nodesRemoved.push_back(r.nodesRemoved);
        p.unplaced.push_back(r.unplaced.size());
        p.totalsAfter.push_back(r.after);
    }
    return p;
}

} // namespace

class TestPlanFailDomain : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void failDomainStrandsAGang();
    void largeDomainFailsOnAWorkerAsOneUndoStep();
    void largeDomainUndoneAndRedoneInParts();

private:
    /// A domain (not the root) whose failure strands a whole gang and loses GPUs (tried on a
    /// scratch engine); invalid when the fleet has none.
    model::DomainId gangDomain(model::WorkloadId& gang) const;
    views::FleetMapView* map() const { return m_window->mapView(); }
    std::unique_ptr<app::MainWindow> m_window;
};

void TestPlanFailDomain::initTestCase()
{
    // The four-region 240-node fleet: its many small zones leave a training node group with
    // idle nodes beside running gangs (a gang pod with a node to go to, a domain whose failure
    // strands a gang); the one-region fleet of this size keeps its few training groups busy.
    m_window = openWindow(240, 3, 4);
    QVERIFY(m_window);
}

void TestPlanFailDomain::cleanupTestCase() { m_window.reset(); }

model::DomainId TestPlanFailDomain::gangDomain(model::WorkloadId& gang) const
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    const model::Topology& topology = *m_window->cluster()->topology;
    for (std::uint32_t i = 0; i < topology.domainCount(); ++i) {
        const model::DomainId d(i);
        if (d == topology.root() || topology.domainNodes(d).size() > 40)
            continue;
        std::set<std::uint32_t> gangs;
        for (model::NodeId n : topology.domainNodes(d))
            for (model::PodId p : store.nodePods(n))
                if (store.podIsCounted(p) && model::isGangPod(store, p))
                    gangs.insert(store.podWorkload(p).index());
        if (gangs.empty())
            continue;
        model::PlanEngine probe(store, topology);
        model::PlanAction fail;
        fail.type = model::ActionType::FailDomain;
        fail.domain = model::domainPathText(topology, d);
        const model::AppliedAction& r = probe.apply(fail);
        if (r.holds || r.before.gpus <= r.after.gpus)
            continue;
        for (const auto& [pod, reasons] : r.unplaced)
            if (gangs.count(store.podWorkload(pod).index())) {
                gang = store.podWorkload(pod);
                return d;
            }
    }
    return {};
}

void TestPlanFailDomain::failDomainStrandsAGang()
{
    const auto engine = m_window->planController()->engine();
    const model::ClusterStore& store = engine->state().store();
    model::WorkloadId gang;
    const model::DomainId d = gangDomain(gang);
    QVERIFY2(d.isValid(), "no domain of the simulated fleet strands a gang");
    const model::Topology& topology = *m_window->cluster()->topology;

    // Right-click the domain's label, where the map draws it once zoomed to the domain.
    QVERIFY(triggerLabelMenuAction(map(), d, QStringLiteral("actionFailDomain")));

    QCOMPARE(engine->applied().size(), std::size_t(1));
    const model::AppliedAction& applied = engine->applied()[0];
    QCOMPARE(applied.action.type, model::ActionType::FailDomain);
    QCOMPARE(m_window->undoStack()->count(), 1);
    QVERIFY(!applied.holds);
    // Every node of the domain is gone; every pod of the gang is without a node.
    std::int64_t gpusLost = 0;
    for (model::NodeId n : topology.domainNodes(d)) {
        QVERIFY(!engine->state().nodePresent(n));
        gpusLost += store.nodeAllocatable(n)[model::CoreResource::Gpu] / 1000;
    }
    QVERIFY(gpusLost > 0);
    int gangPods = 0;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        if (store.podWorkload(p) != gang || !store.podIsCounted(p))
            continue;
        ++gangPods;
        QVERIFY2(!engine->state().podNode(p).isValid(), "a pod of the stranded gang kept a node");
    }
    QVERIFY(gangPods >= 2);

    // The panel: the action's row and the summary say what the failure costs.
    const views::FailureCost cost = views::failureCost(store, applied);
    QCOMPARE(cost.gpusLost, gpusLost);
    QCOMPARE(cost.podsStranded, static_cast<std::int64_t>(applied.unplaced.size()));
    QVERIFY(cost.podsStranded >= gangPods);
    const QString costText = views::failureCostText(cost);
    QVERIFY2(costText.startsWith(QStringLiteral("%1 pods stranded, %2 GPUs lost").arg(cost.podsStranded).arg(gpusLost)), qPrintable(costText));
    views::PlanPanel* panel = m_window->planController()->panel();
    const QString row = panel->model()->index(0, views::PlanActionsModel::ActionColumn).data().toString();
    QVERIFY2(row.endsWith(costText), qPrintable(row));
    // The row names the domain by its value ("us-west-2a", "nn-6bfb5fbcd3cb4c16f"), readable at
    // the dock's default width where the Action column elides the sentence in its middle; its
    // tooltip gives the whole path.
    const QString value = QString::fromStdString(topology.domainName(d));
    QVERIFY2(row.startsWith(QStringLiteral("1. Fail %1 (").arg(value)), qPrintable(row));
    QTableView* table = panel->table();
    const QString shown = table->fontMetrics().elidedText(row, table->textElideMode(),
        table->columnWidth(views::PlanActionsModel::ActionColumn) - 2 * table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) - 8);
    QVERIFY2(shown.contains(value), qPrintable(shown));
    const QString tip = panel->model()->index(0, views::PlanActionsModel::ActionColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QString::fromStdString(model::domainPathText(topology, d))), qPrintable(tip));
    QVERIFY2(panel->summaryText().contains(QStringLiteral("failures cost ") + costText), qPrintable(panel->summaryText()));
    QVERIFY2(panel->summaryText().startsWith(QStringLiteral("1 action. ")), qPrintable(panel->summaryText()));
    // The GPU total behind the share is named and given (plan check's allocatable
    // nvidia.com/gpu, not the status bar's physical devices); the pods that went with the
    // failed nodes are DaemonSet and mirror pods here (no pod of the fleet is terminating).
    const model::PlanTotals& before = engine->state().totalsBefore();
    const model::PlanTotals& after = engine->state().totals();
    QVERIFY2(panel->summaryText().contains(QStringLiteral("GPUs allocated %1 of %2 nvidia.com/gpu (")
                                               .arg(QString::fromStdString(model::formatGpus(before.gpuMilliAllocated)),
                                                   QString::fromStdString(model::formatCount(before.gpus)))),
        qPrintable(panel->summaryText()));
    QVERIFY(after.podsRemovedWithNodes > 0);
    QVERIFY2(panel->summaryText().contains(QStringLiteral("DaemonSet pods removed with their nodes %1")
                                               .arg(QString::fromStdString(model::formatCount(after.podsRemovedWithNodes)))),
        qPrintable(panel->summaryText()));
    QVERIFY2(!panel->summaryText().contains(QStringLiteral("terminating")), qPrintable(panel->summaryText()));
    // Every before -> after cell is shown whole: its column is wider than its text.
    for (const int c : { views::PlanActionsModel::NodesInUseColumn, views::PlanActionsModel::EmptyNodesColumn,
             views::PlanActionsModel::GpusColumn, views::PlanActionsModel::CostColumn }) {
        const QString text = panel->model()->index(0, c).data().toString();
        QVERIFY2(text.contains(QStringLiteral("\u2192")), qPrintable(text));
        QVERIFY2(panel->table()->columnWidth(c) > panel->table()->fontMetrics().horizontalAdvance(text) + 6,
            qPrintable(QStringLiteral("column %1: %2 px for \"%3\"").arg(c).arg(panel->table()->columnWidth(c)).arg(text)));
    }
    // The status bar counts as plan check does: re-placed are the pods that went to another
    // node, the others are left without one; a pod is counted once, in one of the two.
    std::set<std::uint32_t> replaced;
    for (const model::AppliedAction::PodChange& c : applied.changes)
        if (engine->state().podNode(c.pod).isValid())
            replaced.insert(c.pod.index());
    const QString message = m_window->planController()->lastMessage();
    QVERIFY2(message.endsWith(QStringLiteral("%1 %2 re-placed on other nodes, %3 left without a node.")
                                  .arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(replaced.size()))),
                                      replaced.size() == 1 ? QStringLiteral("pod") : QStringLiteral("pods"),
                                      QString::fromStdString(model::formatCount(static_cast<std::int64_t>(applied.unplaced.size()))))),
        qPrintable(message));
    saveScreenshot(m_window.get(), QStringLiteral("fail-domain"));

    m_window->undoStack()->undo();
    QVERIFY(engine->applied().empty());
    for (model::NodeId n : topology.domainNodes(d))
        QVERIFY(engine->state().nodePresent(n));
}

void TestPlanFailDomain::largeDomainFailsOnAWorkerAsOneUndoStep()
{
    app::PlanController* plan = m_window->planController();
    QUndoStack* stack = m_window->undoStack();
    QVERIFY(!plan->hasPlan());
    const model::Topology& topology = *m_window->cluster()->topology;
    // The largest domain below the root (a zone): at 100,000 nodes its failure re-plans 238,846 pods.
    model::DomainId zone;
    for (const model::DomainId d : topology.domainChildren(topology.root()))
        if (!zone.isValid() || topology.domainNodes(d).size() > topology.domainNodes(zone).size())
            zone = d;
    QVERIFY(zone.isValid());
    const model::ClusterStore& store = *plan->store();
    std::size_t pods = 0;
    for (const model::NodeId n : topology.domainNodes(zone))
        pods += store.nodePods(n).size();
    QVERIFY(pods > 0);
    // This fleet's zones are small: the size rule is lowered to make this one large.
    const std::size_t rule = plan->failDomainOnWorkerPods();
    plan->setFailDomainOnWorkerPods(pods);
    const int indexBefore = stack->index();
    QSignalSpy finished(plan, &app::PlanController::failDomainFinished);
    QVERIFY(plan->failDomain(zone));
    // Planned on a worker: nothing is applied on this thread when the call returns.
    QVERIFY(plan->isFailingDomain());
    QVERIFY(!plan->hasPlan());
    QCOMPARE(stack->index(), indexBefore);
    // A second gesture meanwhile is refused, with a message.
    QVERIFY(!plan->failDomain(zone));
    QVERIFY2(plan->lastMessage().contains(QStringLiteral("being planned")), qPrintable(plan->lastMessage()));
    QVERIFY(finished.count() > 0 || finished.wait(60000));
    QCOMPARE(finished.takeFirst().at(0).toBool(), true);
    QVERIFY(!plan->isFailingDomain());
    // One undo step holding the one FailDomain, which the window's engine applied.
    QCOMPARE(stack->index(), indexBefore + 1);
    QCOMPARE(stack->count(), indexBefore + 1);
    const auto engine = plan->engine();
    QCOMPARE(engine->applied().size(), std::size_t(1));
    QCOMPARE(engine->applied()[0].action.type, model::ActionType::FailDomain);
    QCOMPARE(engine->applied()[0].action.domain, model::domainPathText(topology, zone));
    for (const model::NodeId n : topology.domainNodes(zone))
        QVERIFY(!engine->state().nodePresent(n));
    QVERIFY2(plan->lastMessage().startsWith(QStringLiteral("Failed ")), qPrintable(plan->lastMessage()));
    QVERIFY(plan->planMarks());
    // Undo and Redo act on it as one step.
    stack->undo();
    QTRY_VERIFY(!plan->isBusy());
    QVERIFY(!plan->hasPlan());
    for (const model::NodeId n : topology.domainNodes(zone))
        QVERIFY(plan->engine()->state().nodePresent(n));
    stack->redo();
    QTRY_VERIFY(!plan->isBusy());
    QCOMPARE(plan->engine()->applied().size(), std::size_t(1));
    QCOMPARE(plan->engine()->applied()[0].action.type, model::ActionType::FailDomain);
    stack->undo();
    QTRY_VERIFY(!plan->isBusy());
    QVERIFY(!plan->hasPlan());
    plan->setFailDomainOnWorkerPods(rule);
}

void TestPlanFailDomain::largeDomainUndoneAndRedoneInParts()
{
    app::PlanController* plan = m_window->planController();
    app::PlanStepRunner* runner = plan->stepRunner();
    QUndoStack* stack = m_window->undoStack();
    QVERIFY(!plan->hasPlan());
    const model::Topology& topology = *m_window->cluster()->topology;
    model::DomainId zone;
    for (const model::DomainId d : topology.domainChildren(topology.root()))
        if (!zone.isValid() || topology.domainNodes(d).size() > topology.domainNodes(zone).size())
            zone = d;
    const PlanPicture before = pictureOf(*plan->engine());
    const std::size_t rule = plan->failDomainOnWorkerPods();
    plan->setFailDomainOnWorkerPods(1);
    QSignalSpy finished(plan, &app::PlanController::failDomainFinished);
    QVERIFY(plan->failDomain(zone));
    QVERIFY(finished.count() > 0 || finished.wait(60000));
    QCOMPARE(finished.takeFirst().at(0).toBool(), true);
    plan->setFailDomainOnWorkerPods(rule);
    const PlanPicture failed = pictureOf(*plan->engine());
    QCOMPARE(failed.actions.size(), std::size_t(1));
    const std::size_t effects = failed.changes[0].size() + failed.nodesRemoved[0].size();
    QVERIFY2(effects > 40, qPrintable(QString::number(effects)));
    const int failedAt = stack->index();

    // The runner takes this one action's step (its threshold lowered to this small fleet), a few
    // effects per part and one part per slice: the undo and the redo take many turns.
    runner->setSlicedEffects(effects);
    runner->setEffectsPerPart(4);
    runner->setMaxChildrenPerSlice(1);
    auto wait = [&] {
        QElapsedTimer clock;
        clock.start();
        while (plan->isBusy() && clock.elapsed() < 60000)
            QTest::qWait(5);
        return !plan->isBusy();
    };
    auto compareWith = [&](const PlanPicture& want, const char* when) {
        if (pictureOf(*plan->engine()) == want)
            return true;
        qWarning("%s: the plan differs", when);
        return false;
    };

    stack->undo();
    QVERIFY(plan->isBusy());
    QVERIFY(plan->engine()->isPartial());
    QVERIFY(!plan->failDomain(zone)); // refused meanwhile
    QVERIFY(wait());
    QVERIFY(!plan->engine()->isPartial());
    QCOMPARE(stack->index(), failedAt - 1);
    QVERIFY(compareWith(before, "after the undo in parts: the plan before the failure"));

    stack->redo();
    QVERIFY(plan->isBusy());
    QVERIFY(wait());
    QCOMPARE(stack->index(), failedAt);
    QVERIFY(compareWith(failed, "after the redo in parts: the failure's plan"));

    // Cancel half way through the undo: the failure as it was, the step still on the stack.
    QSignalSpy ended(runner, &app::PlanStepRunner::finished);
    stack->undo();
    QTRY_VERIFY(plan->engine()->partialDone() > plan->engine()->partialTotal() / 2);
    runner->cancel();
    QVERIFY(wait());
    QCOMPARE(ended.count(), 1);
    QCOMPARE(ended.takeFirst().at(0).toBool(), true);
    QCOMPARE(stack->index(), failedAt);
    QVERIFY(compareWith(failed, "after a cancelled undo: the failure's plan"));

    // Undone whole (the runner's threshold back), then a redo cancelled half way.
    runner->setSlicedEffects(app::PlanStepRunner::kSlicedEffects);
    stack->undo();
    QVERIFY(!plan->isBusy());
    QVERIFY(compareWith(before, "after the undo at once"));
    runner->setSlicedEffects(effects);
    stack->redo();
    QTRY_VERIFY(plan->engine()->partialDone() > plan->engine()->partialTotal() / 2);
    runner->cancel();
    QVERIFY(wait());
    QCOMPARE(stack->index(), failedAt - 1);
    QVERIFY(compareWith(before, "after a cancelled redo: the plan before the failure"));
    stack->redo();
    QVERIFY(wait());
    QVERIFY(compareWith(failed, "redone after the cancel"));
    QVERIFY(plan->planMarks());

    runner->setSlicedEffects(app::PlanStepRunner::kSlicedEffects);
    runner->setEffectsPerPart(app::PlanStepRunner::kEffectsPerPart);
    runner->setMaxChildrenPerSlice(0);
    stack->undo();
    QVERIFY(wait());
    QVERIFY(compareWith(before, "undone at the end"));
}

FLEET_GUI_TEST_MAIN(TestPlanFailDomain, fleet::app::setDefaultSurfaceFormat)
#include "tst_planfaildomain.moc"
