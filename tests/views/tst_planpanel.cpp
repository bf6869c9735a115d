// SPDX-License-Identifier: Apache-2.0
// The plan panel follows the plan change by change: refresh(unchangedBefore) counts the summary's
// failure costs and the placed pods again only from the first action that changed (undo and
// apply change the plan at its end), and its summary and placed pods then equal those of a panel
// that reads the whole plan (setPlan()). On a small hand-made fleet (tests/model/planfixture.h).

#include "model/planfixture.h"

#include "views/plan/placedpodsmodel.h"
#include "views/plan/planpanel.h"

#include <QAbstractItemModelTester>
#include <QTableView>
#include <QtTest>

using namespace planfixture;
namespace views = fleet::views;

namespace {

/// The placed pods' rows, each as its pod and its action's row.
std::vector<std::pair<std::uint32_t, QString>> placedRows(const views::PlacedPodsModel& model)
{
    std::vector<std::pair<std::uint32_t, QString>> rows;
    for (int row = 0; row < model.rowCount(); ++row)
        rows.emplace_back(model.podAt(row).value, model.index(row, views::PlacedPodsModel::ActionColumn).data().toString());
    return rows;
}

} // namespace

class TestPlanPanel : public QObject {
    Q_OBJECT
private slots:
    void followsChangesAtTheEnd();
    void showsTheActionAdded();
};

void TestPlanPanel::followsChangesAtTheEnd()
{
    Cluster c;
    for (int i = 1; i <= 6; ++i)
        c.node("n" + std::to_string(i), i <= 3 ? "us-east-1a" : "us-east-1b", 8000);
    for (int i = 1; i <= 6; ++i)
        c.pod("default", "web-" + std::to_string(i), "n" + std::to_string(i), 1000, "web");
    c.pod("batch", "tmpl", "", 500, "tmpl", PodFlagNone, 0, OwnerKind::Job);
    c.finish();
    auto store = std::shared_ptr<const ClusterStore>(c.store.get(), [](const ClusterStore*) {});
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    auto place = [](int count) {
        PlanAction a;
        a.type = ActionType::PlacePods;
        a.pod = { "batch", "tmpl", "" };
        a.count = count;
        a.preferredLevel = kZoneKey;
        return a;
    };
    QVERIFY(engine->apply(place(2)).holds);
    engine->apply(onNode(ActionType::FailNode, "n1"));
    QCOMPARE(engine->applied().size(), std::size_t(2));

    views::PlanPanel panel;
    QAbstractItemModelTester tester(panel.placedPods(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.setPlan(store, engine);
    QVERIFY2(panel.summaryText().contains(QStringLiteral("failures cost")), qPrintable(panel.summaryText()));

    // Each change: the engine changed from `from` on; the panel told so, compared with a panel
    // that reads every action.
    auto check = [&](std::size_t from, const char* when) {
        panel.refresh(from);
        views::PlanPanel whole;
        whole.setPlan(store, engine);
        QVERIFY2(panel.summaryText() == whole.summaryText(), qPrintable(QStringLiteral("%1: %2 vs %3").arg(QLatin1String(when), panel.summaryText(), whole.summaryText())));
        QVERIFY2(placedRows(*panel.placedPods()) == placedRows(*whole.placedPods()), when);
    };
    engine->undo(); // the failure
    check(1, "the failure undone");
    QVERIFY(!panel.summaryText().contains(QStringLiteral("failures cost")));
    QVERIFY(engine->apply(place(1)).holds);
    engine->apply(onNode(ActionType::FailNode, "n4"));
    check(1, "another placement and failure");
    QCOMPARE(panel.placedPods()->rowCount(), 3);
    QVERIFY(panel.summaryText().contains(QStringLiteral("failures cost")));
    engine->apply(onNode(ActionType::FailNode, "n2"));
    check(3, "a second failure");
    engine->undo();
    engine->undo();
    engine->undo();
    check(SIZE_MAX, "three undone, none noted: the plan shrank below what the panel read");
    engine->apply(onNode(ActionType::FailNode, "n5"));
    check(1, "a failure in place of the rest");
    QCOMPARE(panel.placedPods()->rowCount(), 2);
    engine->undo();
    engine->undo();
    check(0, "all undone");
    QCOMPARE(panel.placedPods()->rowCount(), 0);
}

// An action added below the rows in view is scrolled to (the dock showed the first rows and the
// new one out of sight); an undo leaves the scroll where the user put it.
void TestPlanPanel::showsTheActionAdded()
{
    Cluster c;
    for (int i = 1; i <= 6; ++i)
        c.node("n" + std::to_string(i), "us-east-1a", 64000);
    c.pod("batch", "tmpl", "", 100, "tmpl", PodFlagNone, 0, OwnerKind::Job);
    c.finish();
    auto store = std::shared_ptr<const ClusterStore>(c.store.get(), [](const ClusterStore*) {});
    auto engine = std::make_shared<PlanEngine>(*c.store, *c.topology);
    auto placeOne = [&] {
        PlanAction a;
        a.type = ActionType::PlacePods;
        a.pod = { "batch", "tmpl", "" };
        a.count = 1;
        return engine->apply(a).holds;
    };
    for (int i = 0; i < 60; ++i)
        QVERIFY(placeOne());

    views::PlanPanel panel;
    panel.resize(700, 260);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setPlan(store, engine);
    QTableView* table = panel.table();
    auto inView = [table](int row) {
        const QRect r = table->visualRect(table->model()->index(row, 0));
        return r.isValid() && table->viewport()->rect().contains(r);
    };
    table->scrollToTop();
    QVERIFY(inView(0));
    QVERIFY(!inView(59)); // the table holds fewer rows than the plan

    QVERIFY(placeOne());
    panel.refresh(60);
    QVERIFY2(inView(60), "the action just added is out of sight");

    // An undo keeps the rows the user scrolled to.
    table->scrollToTop();
    engine->undo();
    panel.refresh(60);
    QVERIFY(inView(0));
}

QTEST_MAIN(TestPlanPanel)
#include "tst_planpanel.moc"
