// SPDX-License-Identifier: Apache-2.0
// The report's steps (app/shared/reportbuilder.h) over a real cluster file and plan: once the
// replay and the kept worker have read the plan, its actions and record are released (a
// consolidation's plan at 100,000 nodes is about 150 MB of actions, and the report's resident
// set is largest at its end), while the replay keeps one record of each action: the engine's,
// unless an action could not be started (then the evaluation's list, which has it too).

#include "app/shared/reportbuilder.h"
#include "importers/clusterloader.h"
#include "importers/plan/planfile.h"
#include "model/pricing/pricetable.h"

#include <QtTest>

using namespace fleet;

class TestReportBuilder : public QObject {
    Q_OBJECT
private slots:
    void planIsReleasedOnceReadAndTheReplayKeepsIt();
    void anActionTheEngineRefusedKeepsTheEvaluationsList();
};

namespace {

app::ReportSubject subjectWith(const importers::LoadedCluster& c, std::vector<model::PlanAction> actions)
{
    app::ReportSubject subject;
    subject.store = c.store;
    subject.topology = c.topology;
    subject.prices = std::make_shared<model::PriceTable>();
    subject.plan.actions = std::move(actions);
    subject.plan.consolidation = importers::PlanKeptRecord {};
    subject.planName = "plan.json";
    subject.baseline = false;
    return subject;
}

model::PlanAction drainOf(const char* node)
{
    model::PlanAction drain;
    drain.type = model::ActionType::DrainNode;
    drain.node = node;
    return drain;
}

} // namespace

void TestReportBuilder::planIsReleasedOnceReadAndTheReplayKeepsIt()
{
    const importers::LoadedCluster c = importers::loadClusterFiles({ FLEET_TEST_DATA_DIR "/plan/cluster.json" });
    // A plan ending in a drain: the kept worker runs beside the replay.
    const std::unique_ptr<app::ReportJob> job = app::startReport(subjectWith(c, { drainOf("cpu-a1") }));
    QVERIFY(job->tail.valid());
    job->tail.wait();
    QVERIFY(job->subject.plan.actions.empty());
    QVERIFY(!job->subject.plan.consolidation.has_value());
    // One list of records: the engine's (the evaluation's copy released).
    QVERIFY(job->actionsInEngine);
    QVERIFY(job->evaluation.actions.empty());
    QCOMPARE(&job->actions(), &job->engine->applied());
    QCOMPARE(job->actions().size(), std::size_t(1));
    QCOMPARE(job->actions()[0].action.node, std::string("cpu-a1"));
    QVERIFY(job->actions()[0].holds);
}

void TestReportBuilder::anActionTheEngineRefusedKeepsTheEvaluationsList()
{
    const importers::LoadedCluster c = importers::loadClusterFiles({ FLEET_TEST_DATA_DIR "/plan/cluster.json" });
    // A node that does not exist: the engine refuses to start the drain and records nothing,
    // so only the evaluation has every action, in the plan's order.
    const std::unique_ptr<app::ReportJob> job = app::startReport(subjectWith(c, { drainOf("no-such-node"), drainOf("cpu-a1") }));
    job->tail.wait();
    QVERIFY(!job->actionsInEngine);
    QCOMPARE(job->engine->applied().size(), std::size_t(1));
    QCOMPARE(&job->actions(), &job->evaluation.actions);
    QCOMPARE(job->actions().size(), std::size_t(2));
    QCOMPARE(job->actions()[0].action.node, std::string("no-such-node"));
    QVERIFY(!job->actions()[0].holds);
    QCOMPARE(job->actions()[1].action.node, std::string("cpu-a1"));
    QVERIFY(job->actions()[1].holds);
}

QTEST_MAIN(TestReportBuilder)
#include "tst_reportbuilder.moc"
