// SPDX-License-Identifier: Apache-2.0
// File > Compare With as the main window wires it (app/controllers/comparecontroller.h), on the
// plan fixtures (tests/data/plan/README.md: both web pods moved to cpu-b1, cpu-a1 drained and
// removed, api-0 deleted): the Changes dock shows the diff, a node row selects the node on the
// map (one the shown state has), a cancelled comparison shows nothing, a new cluster clears the
// dock, an export refuses a .fleet document, and the map's difference follows the Metric menu.
// With the fixtures' plan open (plan.json), the dock's Plan Outcome tab says what of it the later
// state shows carried out (tests/data/plan/README.md: 0 and 1 carried out, 2 not, 3 no longer
// possible). A live cluster that cannot be read is a clear error, nothing shown.
// Under xvfb-run (the map is OpenGL).

#include "app/controllers/comparecontroller.h"
#include "app/window/windowdocument.h"
#include "fleetscoperun.h"
#include "app/startup/surfaceformat.h"
#include "app/window/mainwindow.h"
#include "importers/document/statediff.h"
#include "importers/export/statediffformat.h"
#include "views/itemmodels/changesmodel.h"
#include "views/itemmodels/planoutcomemodel.h"
#include "app/controllers/planopener.h"
#include "app/controllers/plancontroller.h"
#include "importers/document/planoutcome.h"
#include "views/map/fleetmapview.h"
#include "views/panels/changespanel.h"

#include "common/guitestmain.h"

#include <QAction>
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QMessageBox>
#include <QTimer>
#include <QUndoStack>
#include <QDockWidget>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>

using namespace fleet;
using app::CompareController;
using app::MainWindow;
using views::ChangesModel;

namespace {

const QString kData = QStringLiteral(FLEET_TEST_DATA_DIR);
constexpr int kWaitMs = 60000;

bool openAndWait(MainWindow& window, const QStringList& files)
{
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    window.openFiles(files);
    return shown.wait(kWaitMs) || shown.count() > 0;
}

// The totals' figures (then, now, difference) that the Changes tree does not show whole: a cell
// narrower than its text (and the margins QTreeView keeps), or partly out of the view; each
// with its width and place.
QStringList totalsFiguresCut(QTreeView* view, ChangesModel* model)
{
    const int margin = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
    const QModelIndex totals = model->groupIndex(ChangesModel::Totals);
    QStringList out;
    for (int row = 0; row < model->rowCount(totals); ++row)
        for (const int c : { int(ChangesModel::ThenColumn), int(ChangesModel::NowColumn), int(ChangesModel::DifferenceColumn) }) {
            const QModelIndex i = model->index(row, c, totals);
            const int needed = view->fontMetrics().horizontalAdvance(i.data().toString()) + margin;
            const QRect cell = view->visualRect(i);
            const QRect shown = cell.intersected(view->viewport()->rect());
            if (shown.width() < needed || shown != cell)
                out << QStringLiteral("%1 (%2 of %3 px, at x %4 to %5)").arg(i.data().toString()).arg(shown.width()).arg(needed).arg(cell.left()).arg(cell.right());
        }
    return out;
}

} // namespace

class TestCompareWindow : public QObject {
    Q_OBJECT
private slots:
    void compareSelectAndClear();
    void cancelShowsNothing();
    void planOutcomeBesideTheChanges();
    void exportedOutcomeIsDiffPlanJson();
    void statusCountsAgreeWithTheirNouns();
    void planOpenedDuringTheComparisonIsChecked();
    void outcomeCopiesThePlanInSlices();
    void unreadableLiveClusterIsSaid();
    void changesCellsAreWholeAtTheDefaultWidth();
    void largeFleetsTotalsStayWholeWithWorkloadsOpen();
};

void TestCompareWindow::compareSelectAndClear()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, { kData + QStringLiteral("/plan/cluster.json") }));
    auto* compare = window.findChild<CompareController*>();
    QVERIFY(compare);
    QVERIFY(!compare->dock()->isVisible());
    QSignalSpy finished(compare, &CompareController::compareFinished);
    QVERIFY(compare->compareWithFiles({ kData + QStringLiteral("/plan/cluster-after-plan.json") }));
    QVERIFY(finished.wait(kWaitMs));
    QVERIFY2(finished.first().first().toBool(), qPrintable(finished.first().at(1).toString()));
    QVERIFY(compare->dock()->isVisible());
    const auto diff = compare->diff();
    QVERIFY(diff);
    QCOMPARE(diff->podsMoved, std::size_t(2));
    QCOMPARE(diff->nodesRemoved, std::vector<std::string> { "cpu-a1" });
    ChangesModel* model = compare->panel()->model();
    QCOMPARE(model->diff(), diff);

    // At the dock's default width the Change column is as wide as its names (it was about 30
    // px: sized while the dock was hidden, and never grown back), or a third of the view.
    {
        QTreeView* view = compare->panel()->view();
        int content = 0;
        for (int row = 0; row < model->rowCount(); ++row)
            content = std::max(content, view->fontMetrics().horizontalAdvance(model->index(row, ChangesModel::ChangeColumn).data().toString()));
        content += view->indentation();
        QTRY_VERIFY2(view->header()->sectionSize(ChangesModel::ChangeColumn) >= std::min(content, view->viewport()->width() / 3),
            qPrintable(QStringLiteral("Change column %1 px, its names %2 px, the view %3 px")
                           .arg(view->header()->sectionSize(ChangesModel::ChangeColumn))
                           .arg(content)
                           .arg(view->viewport()->width())));
    }

    // In a narrow dock the totals' figures stay in sight: the Change column gives up its width.
    QTreeView* changes = compare->panel()->view();
    window.resizeDocks({ compare->dock() }, { 300 }, Qt::Horizontal);
    QTRY_VERIFY(changes->viewport()->width() <= 300);
    QTRY_VERIFY2(changes->header()->sectionViewportPosition(ChangesModel::DifferenceColumn)
                + changes->header()->sectionSizeHint(ChangesModel::DifferenceColumn) <= changes->viewport()->width(),
        qPrintable(QStringLiteral("Difference starts at %1 of %2 px")
                       .arg(changes->header()->sectionViewportPosition(ChangesModel::DifferenceColumn))
                       .arg(changes->viewport()->width())));

    // A removed node's row: the shown state has it, the map selects it.
    const QModelIndex removed = model->index(0, 0, model->groupIndex(ChangesModel::NodesRemoved));
    QCOMPARE(removed.data().toString(), QStringLiteral("cpu-a1"));
    emit compare->panel()->view()->clicked(removed);
    const model::NodeId cpuA1 = window.cluster()->store->findNode("cpu-a1");
    QVERIFY(cpuA1.isValid());
    QCOMPARE(window.mapView()->selectedNode(), cpuA1);

    // Export: a .fleet document is never overwritten; a JSON is `diff --format json`'s text.
    QTemporaryDir dir;
    QSignalSpy exported(compare, &CompareController::changesExported);
    QVERIFY(compare->exportTo(dir.filePath(QStringLiteral("changes.json"))));
    QVERIFY(exported.wait(kWaitMs));
    QVERIFY(exported.last().first().toBool());
    QFile json(dir.filePath(QStringLiteral("changes.json")));
    QVERIFY(json.open(QIODevice::ReadOnly));
    QCOMPARE(json.readAll(), QByteArray::fromStdString(importers::stateDiffJson(*diff)));
    const QString document = dir.filePath(QStringLiteral("state.fleet"));
    QFile::copy(kData + QStringLiteral("/document/plan-cluster-v1.fleet"), document);
    QFile::setPermissions(document, QFile::ReadOwner | QFile::WriteOwner);
    QVERIFY(!compare->exportTo(document));
    QVERIFY(!exported.last().first().toBool());

    // The map's difference: on from the Metric menu, off when another metric is chosen.
    auto* difference = window.findChild<QAction*>(QStringLiteral("actionCompareMetric"));
    QVERIFY(difference);
    window.setMetric(QStringLiteral("cpu"));
    difference->trigger();
    QVERIFY(compare->isShowingDifference());
    QCOMPARE(window.mapView()->currentMetric().id(), std::string("compare-diff-cpu"));
    window.findChild<QAction*>(QStringLiteral("actionMetricGpu"))->trigger();
    QVERIFY(!difference->isChecked());
    QCOMPARE(window.mapView()->currentMetric().id(), std::string("gpu"));
    // A categorical metric has no difference: the action stays off.
    window.setMetric(QStringLiteral("state"));
    difference->trigger();
    QVERIFY(!difference->isChecked());
    QVERIFY(!compare->isShowingDifference());

    // A new cluster: the comparison's "then" is gone, the dock empties.
    QVERIFY(openAndWait(window, { kData + QStringLiteral("/plan/cluster-changed.json") }));
    QVERIFY(!compare->diff());
    QCOMPARE(model->rowCount(), 0);
}

void TestCompareWindow::cancelShowsNothing()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, { kData + QStringLiteral("/plan/cluster.json") }));
    auto* compare = window.findChild<CompareController*>();
    QSignalSpy finished(compare, &CompareController::compareFinished);
    QVERIFY(compare->compareWithSimulated(20000, 2)); // seconds of work: cancelled long before its end
    QVERIFY(compare->isRunning());
    compare->cancel();
    QVERIFY(!compare->isRunning());
    QCOMPARE(finished.count(), 1);
    QVERIFY(!finished.first().first().toBool());
    QCOMPARE(compare->lastMessage(), QStringLiteral("Comparison cancelled."));
    QVERIFY(!compare->diff());
    // The comparisons share one worker thread: the next one's result comes after the cancelled
    // one's ended, which was dropped (one more compareFinished, the fixtures' diff, not 20,000 nodes').
    QVERIFY(compare->compareWithFiles({ kData + QStringLiteral("/plan/cluster-after-plan.json") }));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() >= 2; }, kWaitMs));
    QCOMPARE(finished.count(), 2);
    QVERIFY(finished.last().first().toBool());
    QVERIFY(compare->diff());
    QCOMPARE(compare->diff()->after.nodes, std::size_t(3));
    QVERIFY(compare->dock()->isVisible());
}

void TestCompareWindow::planOutcomeBesideTheChanges()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, { kData + QStringLiteral("/plan/cluster.json") }));
    auto* compare = window.findChild<CompareController*>();
    QSignalSpy finished(compare, &CompareController::compareFinished);
    // Without a plan: no outcome, no tab.
    QVERIFY(compare->compareWithFiles({ kData + QStringLiteral("/plan/cluster-after-plan.json") }));
    QVERIFY(finished.wait(kWaitMs));
    QVERIFY(!compare->planOutcome());
    QCOMPARE(compare->panel()->tabs()->count(), 1);

    QSignalSpy opened(window.planOpener(), &app::PlanOpener::finished);
    QVERIFY(window.openPlanFile(kData + QStringLiteral("/plan/plan.json")));
    QVERIFY(opened.wait(kWaitMs));
    QVERIFY(opened.first().first().toBool());
    QVERIFY(compare->compareWithFiles({ kData + QStringLiteral("/plan/cluster-after-plan.json") }));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() >= 2; }, kWaitMs));
    QVERIFY2(finished.last().first().toBool(), qPrintable(finished.last().at(1).toString()));
    const auto outcome = compare->planOutcome();
    QVERIFY(outcome);
    QCOMPARE(outcome->actions.size(), std::size_t(4));
    using importers::ActionOutcomeKind;
    const ActionOutcomeKind expected[] = { ActionOutcomeKind::CarriedOut, ActionOutcomeKind::CarriedOut, ActionOutcomeKind::NotCarriedOut,
        ActionOutcomeKind::NoLongerPossible };
    for (std::size_t i = 0; i < 4; ++i)
        QCOMPARE(outcome->actions[i].outcome, expected[i]);
    QCOMPARE(outcome->carriedOut, std::size_t(2));
    QCOMPARE(outcome->noLongerPossible, std::size_t(1));
    // The tab is there and in front; its rows and line say the same.
    QTabWidget* tabs = compare->panel()->tabs();
    QCOMPARE(tabs->count(), 2);
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Plan Outcome"));
    views::PlanOutcomeModel* rows = compare->panel()->outcomeModel();
    QAbstractItemModelTester tester(rows, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(rows->rowCount(), 4);
    QCOMPARE(rows->index(3, views::PlanOutcomeModel::OutcomeColumn).data().toString(), QStringLiteral("No longer possible"));
    QCOMPARE(rows->index(0, views::PlanOutcomeModel::ActionColumn).data().toString().left(9), QStringLiteral("move-pod "));
    // Numbered from 1, as the exported text ("#1") and the Plan panel ("1.") number them.
    QCOMPARE(rows->index(0, views::PlanOutcomeModel::IndexColumn).data().toInt(), 1);
    QCOMPARE(rows->index(3, views::PlanOutcomeModel::IndexColumn).data().toInt(), 4);
    QVERIFY2(compare->panel()->outcomeSummaryText().startsWith(
                 QStringLiteral("plan.json (4 actions): 2 carried out, 1 not carried out, 1 no longer possible. Savings planned")),
        qPrintable(compare->panel()->outcomeSummaryText()));
    QVERIFY2(compare->lastMessage().contains(QStringLiteral("The plan: 2 of 4 actions carried out, 1 no longer possible.")),
        qPrintable(compare->lastMessage()));
    // The outcome follows the plan shown: undone (the opened plan is one step), no plan and no
    // tab; redone, checked again.
    QSignalSpy checked(compare, &CompareController::outcomeChecked);
    window.undoStack()->undo();
    QVERIFY(QTest::qWaitFor([&] { return tabs->count() == 1; }, kWaitMs));
    QVERIFY(!compare->planOutcome());
    window.undoStack()->redo();
    QVERIFY(checked.wait(kWaitMs));
    QVERIFY(checked.last().first().toBool());
    QCOMPARE(tabs->count(), 2);
    QVERIFY(compare->planOutcome());
    QCOMPARE(compare->planOutcome()->carriedOut, std::size_t(2));
    // A row naming a node selects it on the map (the move's destination, cpu-b1).
    emit compare->panel()->outcomeView()->clicked(rows->index(0, 0));
    QCOMPARE(window.mapView()->selectedNode(), window.cluster()->store->findNode("cpu-b1"));

    // Exported as `diff --plan` writes it.
    QTemporaryDir dir;
    QSignalSpy exported(compare, &CompareController::changesExported);
    QVERIFY(compare->exportOutcomeTo(dir.filePath(QStringLiteral("outcome.txt"))));
    QVERIFY(exported.wait(kWaitMs));
    QVERIFY2(exported.last().first().toBool(), qPrintable(exported.last().at(1).toString()));
    QFile text(dir.filePath(QStringLiteral("outcome.txt")));
    QVERIFY(text.open(QIODevice::ReadOnly));
    const QByteArray written = text.readAll();
    QVERIFY2(written.startsWith("plan plan.json against "), written.constData());
    QVERIFY2(written.contains("#4 move-pod") && written.contains("no-longer-possible"), written.constData());

    // A new cluster: the outcome goes with the comparison.
    QVERIFY(openAndWait(window, { kData + QStringLiteral("/plan/cluster-changed.json") }));
    QVERIFY(!compare->planOutcome());
    QCOMPARE(tabs->count(), 1);
    QVERIFY(!compare->exportOutcomeTo(dir.filePath(QStringLiteral("again.json"))));
}

// File > Export Plan Outcome (.json) of a document's plan is `diff BEFORE AFTER --plan NAME
// --format json` byte for byte, its labels included (one rule, planOutcomeStateLabel(): a
// document by its own file name, not "before.fleet (cluster.json)"), whatever folder the CLI
// was given the files with.
void TestCompareWindow::exportedOutcomeIsDiffPlanJson()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, { kData + QStringLiteral("/plan/cluster.json") }));
    QVERIFY(QTest::qWaitFor([&] { return window.planController()->engine() != nullptr; }, kWaitMs)); // a plan opens on the what-if
    QSignalSpy opened(window.planOpener(), &app::PlanOpener::finished);
    QVERIFY(window.openPlanFile(kData + QStringLiteral("/plan/plan.json")));
    QVERIFY(opened.wait(kWaitMs));
    QVERIFY(opened.first().first().toBool());
    QTemporaryDir dir;
    const QString before = dir.filePath(QStringLiteral("before.fleet"));
    QCOMPARE(window.document()->saveAndWait(before), QString());
    const QString planName = QString::fromStdString(window.document()->plans().at(window.document()->currentPlan()).name);
    auto* compare = window.findChild<CompareController*>();
    QSignalSpy finished(compare, &CompareController::compareFinished);
    const QString after = kData + QStringLiteral("/plan/cluster-after-plan.json");
    QVERIFY(compare->compareWithFiles({ after }));
    QVERIFY(finished.wait(kWaitMs));
    QVERIFY(QTest::qWaitFor([&] { return compare->planOutcome() != nullptr; }, kWaitMs));
    QSignalSpy exported(compare, &CompareController::changesExported);
    const QString path = dir.filePath(QStringLiteral("outcome.json"));
    QVERIFY(compare->exportOutcomeTo(path));
    QVERIFY(exported.wait(kWaitMs));
    QVERIFY2(exported.last().first().toBool(), qPrintable(exported.last().at(1).toString()));
    QFile json(path);
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QByteArray written = json.readAll();
    const auto cli = fleet::tests::runFleetscope(
        { QStringLiteral("diff"), before, after, QStringLiteral("--plan"), planName, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(cli.exitCode == 0, cli.err.constData());
    QCOMPARE(written, cli.out);
    QVERIFY2(written.contains(QStringLiteral("\"before\": \"before.fleet\"").toUtf8()), written.left(300).constData());
    QVERIFY2(written.contains("\"after\": \"cluster-after-plan.json\""), written.left(300).constData());
    window.undoStack()->setClean();
}

// The status line's nouns agree with their counts: cluster-changed.json (cpu-b1 gone) compared
// with cluster.json has one node added ("1 node added", not "1 nodes added").
void TestCompareWindow::statusCountsAgreeWithTheirNouns()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, { kData + QStringLiteral("/plan/cluster-changed.json") }));
    auto* compare = window.findChild<CompareController*>();
    QSignalSpy finished(compare, &CompareController::compareFinished);
    QVERIFY(compare->compareWithFiles({ kData + QStringLiteral("/plan/cluster.json") }));
    QVERIFY(finished.wait(kWaitMs));
    QVERIFY2(compare->lastMessage().contains(QStringLiteral(": 1 node added, 0 removed; 0 pods moved, ")), qPrintable(compare->lastMessage()));
}

void TestCompareWindow::planOpenedDuringTheComparisonIsChecked()
{
    // As `fleetscope CLUSTER PLAN --compare LATER` starts: the comparison runs while the plan
    // opens; the outcome of the plan follows once both are done.
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, { kData + QStringLiteral("/plan/cluster.json") }));
    auto* compare = window.findChild<CompareController*>();
    // A plan opens once the what-if is ready (as the command line's plan file does).
    QVERIFY(QTest::qWaitFor([&] { return window.planController()->engine() != nullptr; }, kWaitMs));
    QSignalSpy finished(compare, &CompareController::compareFinished);
    QVERIFY(compare->compareWithFiles({ kData + QStringLiteral("/plan/cluster-after-plan.json") }));
    QVERIFY(window.openPlanFile(kData + QStringLiteral("/plan/plan.json")));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() > 0 && compare->planOutcome(); }, kWaitMs));
    QCOMPARE(compare->planOutcome()->actions.size(), std::size_t(4));
    QCOMPARE(compare->panel()->tabs()->count(), 2);
}

// The Plan Outcome's copy of the plan for its worker runs a slice of the event loop at a time
// (at once, 200,000 actions held the GUI thread for hundreds of ms after every gesture); a change
// of the plan during the copy starts it again, so the outcome is of the plan as it is last.
void TestCompareWindow::outcomeCopiesThePlanInSlices()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy shown(&window, &MainWindow::clusterShown);
    window.openSimulated(240, 3);
    QVERIFY(shown.wait(kWaitMs));
    app::PlanController* plan = window.planController();
    QSignalSpy ready(plan, &app::PlanController::engineReady);
    QVERIFY(plan->engine() || ready.wait(kWaitMs));
    auto* compare = window.findChild<CompareController*>();
    QSignalSpy finished(compare, &CompareController::compareFinished);
    QVERIFY(compare->compareWithSimulated(240, 3));
    QVERIFY(finished.wait(kWaitMs));
    QVERIFY(finished.first().first().toBool());

    constexpr int kPerSlice = 8;
    compare->setMaxOutcomeActionsPerSlice(kPerSlice);
    QSignalSpy copied(compare, &CompareController::outcomeCopyProgressed);
    QSignalSpy checked(compare, &CompareController::outcomeChecked);
    std::vector<model::NodeId> nodes;
    for (std::uint32_t i = 0; i < plan->store()->nodeCount() && nodes.size() < 40; ++i)
        if (!plan->store()->nodePods(model::NodeId(i)).empty())
            nodes.push_back(model::NodeId(i));
    QVERIFY(plan->drainNodes(nodes));
    const int actions = static_cast<int>(plan->engine()->applied().size());
    QVERIFY(actions > 2 * kPerSlice);
    QVERIFY(checked.wait(kWaitMs));
    QVERIFY(checked.last().first().toBool());
    QCOMPARE(compare->planOutcome()->actions.size(), std::size_t(actions));
    // One slice per turn of the loop, each at most kPerSlice actions, up to the whole plan.
    QVERIFY2(copied.count() >= actions / kPerSlice, qPrintable(QString::number(copied.count())));
    int before = 0;
    for (const QList<QVariant>& c : copied) {
        QVERIFY(c.at(0).toInt() - before <= kPerSlice);
        before = c.at(0).toInt();
    }
    QCOMPARE(before, actions);

    // The plan changed during the copy: the outcome checked is of the plan after the change.
    copied.clear();
    checked.clear();
    plan->undoBackTo(actions / 2);
    QVERIFY(copied.wait(kWaitMs)); // the copy of the shorter plan has begun
    QVERIFY(copied.last().at(1).toInt() == actions / 2);
    QVERIFY(plan->removeLastAction());
    QVERIFY(checked.wait(kWaitMs));
    QCOMPARE(compare->planOutcome()->actions.size(), std::size_t(actions / 2 - 1));
    QCOMPARE(checked.count(), 1); // the copy dropped by the change was never checked
    window.undoStack()->setClean();
}

void TestCompareWindow::unreadableLiveClusterIsSaid()
{
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, { kData + QStringLiteral("/plan/cluster.json") }));
    auto* compare = window.findChild<CompareController*>();
    QVERIFY(window.findChild<QAction*>(QStringLiteral("actionCompareWithLive")));
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("no-such-kubeconfig"));
    QSignalSpy finished(compare, &CompareController::compareFinished);
    // The warning box is answered as a person would: it names the file.
    QTimer closer;
    QString boxText;
    connect(&closer, &QTimer::timeout, [&] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
                boxText = box->text();
                box->accept();
            }
    });
    closer.start(50);
    QVERIFY(compare->compareWithLive(missing, QString()));
    QVERIFY(finished.wait(kWaitMs));
    QVERIFY(!finished.first().first().toBool());
    const QString message = finished.first().at(1).toString();
    QVERIFY2(message.contains(missing), qPrintable(message));
    // In the dialog's words: its Kubeconfig field, not the command line's --kubeconfig.
    QVERIFY2(message.contains(QLatin1String("(given in the Kubeconfig field)")) && !message.contains(QLatin1String("--kubeconfig")),
             qPrintable(message));
    QVERIFY(!compare->diff());
    QVERIFY(QTest::qWaitFor([&] { return !boxText.isEmpty(); }, 5000));
    QVERIFY2(boxText.contains(missing), qPrintable(boxText));
}

// At the Changes dock's default width the totals are whole: their names ("GPUs allocated", cut
// to "GPUs allocat…" in a trial) and their figures then, now and the difference, and the
// headers. A cell the width cannot hold (a group's "2 moved, 0 created, 2 deleted" beside the
// figures) is cut in its middle, both ends kept, and its tooltip gives it whole.
void TestCompareWindow::changesCellsAreWholeAtTheDefaultWidth()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, { kData + QStringLiteral("/plan/cluster.json") }));
    auto* compare = window.findChild<CompareController*>();
    QVERIFY(compare);
    QSignalSpy finished(compare, &CompareController::compareFinished);
    QVERIFY(compare->compareWithFiles({ kData + QStringLiteral("/plan/cluster-after-plan.json") }));
    QVERIFY(finished.wait(kWaitMs));
    QVERIFY(compare->dock()->isVisible());
    QTreeView* view = compare->panel()->view();
    ChangesModel* model = compare->panel()->model();
    const QModelIndex totals = model->groupIndex(ChangesModel::Totals);
    QTRY_VERIFY(view->isExpanded(totals));
    const int margin = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
    const auto cut = [&]() {
        QStringList out;
        for (const QModelIndex& parent : { QModelIndex(), totals })
            for (int row = 0; row < model->rowCount(parent); ++row)
                for (int c = 0; c < ChangesModel::ColumnCount; ++c) {
                    const QModelIndex i = model->index(row, c, parent);
                    const QString text = i.data().toString();
                    const int needed = view->fontMetrics().horizontalAdvance(text) + margin;
                    const QRect shown = view->visualRect(i).intersected(view->viewport()->rect());
                    if (text.isEmpty() || shown.width() >= needed)
                        continue;
                    if (parent.isValid() || view->textElideMode() != Qt::ElideMiddle || i.data(Qt::ToolTipRole).toString() != text)
                        out << QStringLiteral("%1 (%2 of %3 px)").arg(text).arg(shown.width()).arg(needed);
                }
        QHeaderView* header = view->header();
        for (int c = 0; c < ChangesModel::ColumnCount; ++c)
            if (header->sectionSize(c) < header->sectionSizeHint(c))
                out << QStringLiteral("header %1 (%2 of %3 px)").arg(model->headerData(c, Qt::Horizontal).toString()).arg(header->sectionSize(c)).arg(header->sectionSizeHint(c));
        return out;
    };
    QTRY_VERIFY2(cut().isEmpty(), qPrintable(QStringLiteral("cut at a view of %1 px: ").arg(view->viewport()->width()) + cut().join(QStringLiteral(", "))));
    // With the workloads open at that width, the totals' figures are still whole: the Change
    // column, grown to the workloads' long names, gives its width back to them (kept at a third
    // of the view, it cut the right-aligned figures' last characters).
    const QModelIndex workloads = model->groupIndex(ChangesModel::Workloads);
    QVERIFY(model->rowCount(workloads) > 0);
    view->expand(workloads);
    QTRY_VERIFY(view->isExpanded(workloads));
    QCoreApplication::processEvents();
    QVERIFY2(totalsFiguresCut(view, model).isEmpty(),
        qPrintable(QStringLiteral("workloads open, a view of %1 px: ").arg(view->viewport()->width()) + totalsFiguresCut(view, model).join(QStringLiteral(", "))));
    view->collapse(workloads);
    QCoreApplication::processEvents();
    // Opening the workloads (their "N moved, N created, N deleted" texts in the difference
    // column) does not widen the last column: sized to those texts, it pushed the totals'
    // right-aligned figures out of the view (a trial saw an empty difference column).
    window.resizeDocks({ compare->dock() }, { 300 }, Qt::Horizontal);
    QTRY_VERIFY(view->viewport()->width() <= 300);
    QCoreApplication::processEvents();
    const int differenceWidth = view->header()->sectionSize(ChangesModel::DifferenceColumn);
    view->expand(model->groupIndex(ChangesModel::Workloads));
    QTRY_VERIFY(view->isExpanded(model->groupIndex(ChangesModel::Workloads)));
    QCoreApplication::processEvents();
    QVERIFY2(view->header()->sectionSize(ChangesModel::DifferenceColumn) <= differenceWidth,
        qPrintable(QStringLiteral("the difference column grew from %1 to %2 px")
                       .arg(differenceWidth)
                       .arg(view->header()->sectionSize(ChangesModel::DifferenceColumn))));
    // And the totals' difference cells lie inside the view, at a dock of 380 px.
    window.resizeDocks({ compare->dock() }, { 380 }, Qt::Horizontal);
    QTRY_VERIFY(view->viewport()->width() > 300);
    const auto figuresOutOfSight = [&]() {
        QStringList out;
        for (int row = 0; row < model->rowCount(totals); ++row) {
            const QRect cell = view->visualRect(model->index(row, ChangesModel::DifferenceColumn, totals));
            if (cell.left() < 0 || cell.right() > view->viewport()->width())
                out << QStringLiteral("row %1 at x %2 to %3").arg(row).arg(cell.left()).arg(cell.right());
        }
        return out;
    };
    QTRY_VERIFY2(figuresOutOfSight().isEmpty(),
        qPrintable(QStringLiteral("a view of %1 px: ").arg(view->viewport()->width()) + figuresOutOfSight().join(QStringLiteral(", "))));
}

// Two simulated fleets (2,000 and 2,010 nodes: their figures are long, "$80,399.96/h", and so
// are their workloads' names and pod counts): at the dock's default width, with the workloads
// open, the totals' figures are whole. The Change column, grown to the workloads' names, kept a
// third of the view and cut the right-aligned figures' last characters.
void TestCompareWindow::largeFleetsTotalsStayWholeWithWorkloadsOpen()
{
    QTemporaryDir dir;
    const QString before = dir.filePath(QStringLiteral("sim.fleet")), after = dir.filePath(QStringLiteral("sim2010.fleet"));
    for (const auto& [nodes, path] : { std::pair { QStringLiteral("2000"), before }, std::pair { QStringLiteral("2010"), after } }) {
        const fleet::tests::FleetscopeRun r = fleet::tests::runFleetscope({ QStringLiteral("save"), QStringLiteral("--simulate"), nodes, QStringLiteral("-o"), path });
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, { before }));
    auto* compare = window.findChild<CompareController*>();
    QVERIFY(compare);
    QSignalSpy finished(compare, &CompareController::compareFinished);
    QVERIFY(compare->compareWithFiles({ after }));
    QVERIFY(finished.wait(kWaitMs));
    QVERIFY(compare->dock()->isVisible());
    QTreeView* view = compare->panel()->view();
    ChangesModel* model = compare->panel()->model();
    QTRY_VERIFY(view->isExpanded(model->groupIndex(ChangesModel::Totals)));
    QTRY_VERIFY2(totalsFiguresCut(view, model).isEmpty(),
        qPrintable(QStringLiteral("a view of %1 px: ").arg(view->viewport()->width()) + totalsFiguresCut(view, model).join(QStringLiteral(", "))));
    const QModelIndex workloads = model->groupIndex(ChangesModel::Workloads);
    QVERIFY(model->rowCount(workloads) > 0);
    view->expand(workloads);
    QTRY_VERIFY(view->isExpanded(workloads));
    QCoreApplication::processEvents();
    QVERIFY2(totalsFiguresCut(view, model).isEmpty(),
        qPrintable(QStringLiteral("workloads open, a view of %1 px (Change column %2 px): ").arg(view->viewport()->width())
                       .arg(view->header()->sectionSize(ChangesModel::ChangeColumn))
            + totalsFiguresCut(view, model).join(QStringLiteral(", "))));
}

FLEET_GUI_TEST_MAIN(TestCompareWindow, fleet::app::setDefaultSurfaceFormat)

#include "tst_comparewindow.moc"
