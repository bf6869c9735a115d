// SPDX-License-Identifier: Apache-2.0
// The report's steps (app/shared/reportbuilder.h) over a real cluster file and plan: once the
// replay and the kept worker have read the plan, its actions and record are released (a
// consolidation's plan at 100,000 nodes is about 150 MB of actions, and the report's resident
// set is largest at its end), while the replay keeps a copy of each action.

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
};

void TestReportBuilder::planIsReleasedOnceReadAndTheReplayKeepsIt()
{
    const importers::LoadedCluster c = importers::loadClusterFiles({ FLEET_TEST_DATA_DIR "/plan/cluster.json" });
    app::ReportSubject subject;
    subject.store = c.store;
    subject.topology = c.topology;
    subject.prices = std::make_shared<model::PriceTable>();
    model::PlanAction drain; // a plan ending in a drain: the kept worker runs beside the replay
    drain.type = model::ActionType::DrainNode;
    drain.node = "cpu-a1";
    subject.plan.actions = { drain };
    subject.plan.consolidation = importers::PlanKeptRecord {};
    subject.planName = "plan.json";
    subject.baseline = false;
    const std::unique_ptr<app::ReportJob> job = app::startReport(std::move(subject));
    QVERIFY(job->tail.valid());
    job->tail.wait();
    QVERIFY(job->subject.plan.actions.empty());
    QVERIFY(!job->subject.plan.consolidation.has_value());
    QCOMPARE(job->evaluation.actions.size(), std::size_t(1));
    QCOMPARE(job->evaluation.actions[0].action.node, std::string("cpu-a1"));
    QVERIFY(job->evaluation.actions[0].holds);
}

QTEST_MAIN(TestReportBuilder)
#include "tst_reportbuilder.moc"
