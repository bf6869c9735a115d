// SPDX-License-Identifier: Apache-2.0
// The plan as the window keeps it, under xvfb-run on a small simulated cluster:
// - a consolidation's undo step refreshes the map and panel once, not once per drain, and the
//   map's plan marks are right after undo and redo (a drained node's cell);
// - the node inspector follows the plan after Plan > Place Workload (whose engine reads a copy of
//   the store): a drained node stays "gone under the plan" with no pods;
// - closing the window with a modified plan asks Save / Discard / Cancel (the undo stack's clean
//   state), and a saved plan closes without asking;
// - File > Open Plan re-evaluates a saved plan against the shown cluster: every action with
//   holds / does not hold in the Plan dock, one undo step, the stack's clean state; an action
//   naming a node the cluster lacks is listed as not applied; a plan file given to File > Open
//   is opened as a plan; a broken plan file says where, and the plan stays as it was; a plan of
//   many actions (its undo step and marks made on the opener's worker) shows each action with
//   the holds and text it had when made, the map's marks, and is undone and redone in slices.

#include "planwindowfixture.h"

#include "app/controllers/consolidatecontroller.h"
#include "app/dialogs/placeworkloaddialog.h"
#include "app/commands/planstepcommand.h"
#include "app/controllers/planopener.h"
#include "app/startup/surfaceformat.h"
#include "importers/plan/planfile.h"
#include "views/inspectors/nodeinspector.h"
#include "views/itemmodels/nodepodsmodel.h"
#include "views/plan/planactionsmodel.h"
#include "model/nodeboundpods.h"
#include "views/plan/planmarksbuilder.h"
#include "views/plan/planpanel.h"
#include "views/map/planmarks.h"
#include "app/window/explorepanels.h"

#include "common/mapviewprobe.h"

#include "views/panels/filterfield.h"

#include "common/guitestmain.h"

#include "common/eventloop.h"

#include <QAbstractItemModelTester>
#include <QAbstractItemView>
#include <QAction>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace fleet;
using namespace planwindow;

namespace {

/// Answers the next QMessageBox named `name` with `button` once it shows; `seen` says it did.
void answerBox(const QString& name, QMessageBox::StandardButton button, bool* seen)
{
    whenShown([name, button, seen](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        if (!box || box->objectName() != name)
            return;
        *seen = true;
        box->button(button)->click();
    });
}

/// Drains the first `count` nodes that a drain empties (holds), one command each.
std::vector<model::NodeId> drainSome(app::PlanController* plan, int count)
{
    std::vector<model::NodeId> drained;
    const model::ClusterStore& store = *plan->store();
    for (std::uint32_t i = 0; i < store.nodeCount() && static_cast<int>(drained.size()) < count; ++i) {
        const model::NodeId n(i);
        if (store.nodePods(n).empty() || !plan->drainNodes({ n }))
            continue;
        if (plan->engine()->applied().back().holds)
            drained.push_back(n);
        else
            plan->removeLastAction();
    }
    return drained;
}

/// The marks the map was given (PlanController::planMarks(), followed change by change) are
/// those built from the whole plan.
bool marksAreThePlans(app::PlanController* plan, const char* after)
{
    const auto built = views::buildPlanMarks(*plan->engine(), plan->topology().get());
    const auto shown = plan->planMarks();
    if (bool(built) != bool(shown)) {
        qWarning("after %s: marks %s, the plan's %s", after, shown ? "shown" : "none", built ? "some" : "none");
        return false;
    }
    if (built
        && !(shown->changed == built->changed && shown->emptied == built->emptied && shown->removed == built->removed
            && shown->violations == built->violations && shown->added == built->added)) {
        qWarning("after %s: changed %zu/%zu emptied %zu/%zu removed %zu/%zu violations %zu/%zu added %zu/%zu", after, shown->changed.size(),
            built->changed.size(), shown->emptied.size(), built->emptied.size(), shown->removed.size(), built->removed.size(),
            shown->violations.size(), built->violations.size(), shown->added.size(), built->added.size());
        return false;
    }
    return true;
}

} // namespace

class TestPlanWindowState : public QObject {
    Q_OBJECT
private slots:
    void consolidationUndoRefreshesOnceWithRightMarks();
    void inspectorFollowsThePlanAfterPlaceWorkload();
    void closeAsksWhilePlanIsModified();
    void openPlanReevaluatesAgainstTheShownCluster();
    void saveAsksForAFileOnceThePlanLeftItsFile();
    void undoKeysReachThePlanFromAnEmptyField();
    void openPlanListsWhatCannotBeApplied();
    void openPlanFromFileOpenAndBrokenFile();
    void openPlanOfManyActionsShowsEachAsMade();
    void marksFollowEveryGesture();
    void planDockOpensWithRoomBesideProblems();
};

void TestPlanWindowState::consolidationUndoRefreshesOnceWithRightMarks()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    auto* consolidate = window->findChild<app::ConsolidateController*>();
    QSignalSpy finished(consolidate, &app::ConsolidateController::finished);
    plan->dock()->show(); // the dock narrows the map: open it before the first grab
    QVERIFY(testing::deliverPostedEvents()); // the main window's layout request: the map is narrowed
    views::FleetMapView* map = window->mapView();
    const QImage before = map->grabImage();

    QSignalSpy changed(plan, &app::PlanController::planChanged);
    QVERIFY(consolidate->start());
    QVERIFY(finished.wait(60000));
    const model::ConsolidationResult& r = consolidate->lastResult();
    QVERIFY2(r.drained.size() >= 3, "the simulated cluster has nodes to drain");
    const std::size_t actions = plan->engine()->applied().size();
    QCOMPARE(actions, r.pendingPlaced.size() + r.actions.size()); // a move per pod of each drained node, then its drain
    QCOMPARE(changed.count(), 1); // the whole step, one refresh
    const auto marks = views::buildPlanMarks(*plan->engine(), plan->topology().get());
    QVERIFY(marks && !marks->removed.empty());
    const model::NodeId gone = marks->removed.front();
    const QImage consolidated = map->grabImage();
    const QColor goneBefore = testing::swatchColor(*map, before, gone);
    const QColor goneAfter = testing::swatchColor(*map, consolidated, gone);
    QVERIFY2(!near(goneBefore, goneAfter, 8), "a drained node is darkened on the map");

    QUndoStack* stack = window->undoStack();
    QCOMPARE(stack->count(), 1);
    changed.clear();
    stack->undo();
    // A step this large is undone in slices of the event loop (PlanStepRunner): still one refresh.
    QTRY_VERIFY(!plan->isBusy());
    QCOMPARE(changed.count(), 1);
    QVERIFY(plan->engine()->applied().empty());
    QVERIFY(!views::buildPlanMarks(*plan->engine(), plan->topology().get()));
    QVERIFY(near(testing::swatchColor(*map, map->grabImage(), gone), goneBefore, 2));

    changed.clear();
    stack->redo();
    QTRY_VERIFY(!plan->isBusy());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(plan->engine()->applied().size(), actions);
    const auto again = views::buildPlanMarks(*plan->engine(), plan->topology().get());
    QVERIFY(again);
    QCOMPARE(again->removed, marks->removed);
    QCOMPARE(again->changed, marks->changed);
    QCOMPARE(again->emptied, marks->emptied);
    QVERIFY(near(testing::swatchColor(*map, map->grabImage(), gone), goneAfter, 2));
    QCOMPARE(plan->panel()->model()->rowCount(), static_cast<int>(actions));

    // Undo Back to Here from the first drain: the step straddles the row, one refresh.
    changed.clear();
    plan->undoBackTo(static_cast<int>(r.pendingPlaced.size()));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(plan->engine()->applied().size(), r.pendingPlaced.size());
}

void TestPlanWindowState::inspectorFollowsThePlanAfterPlaceWorkload()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    const auto drained = drainSome(plan, 1);
    QCOMPARE(drained.size(), std::size_t(1));
    const model::NodeId node = drained.front();
    views::NodeInspector* inspector = window->explorePanels()->nodeInspector();
    inspector->setNode(window->cluster()->store, window->cluster()->topology, node);
    QVERIFY2(inspector->headerText().contains(QStringLiteral("gone under the plan")), qPrintable(inspector->headerText()));
    QCOMPARE(inspector->podsModel()->rowCount(), 0);

    auto* dialog = window->findChild<app::PlaceWorkloadDialog*>();
    QVERIFY(dialog);
    dialog->openFor();
    dialog->setPods(2);
    dialog->setShape(QStringLiteral("1"), QStringLiteral("1Gi"));
    dialog->setName(QStringLiteral("follow"));
    QVERIFY(dialog->setRequiredLevel({}));
    QVERIFY(dialog->setPreferredLevel({}));
    QSignalSpy placed(dialog, &app::PlaceWorkloadDialog::finished);
    QVERIFY(dialog->place());
    QVERIFY(placed.count() > 0 || placed.wait(60000));
    QVERIFY2(dialog->lastOutcome().placed, qPrintable(dialog->messageText()));
    QVERIFY2(&plan->engine()->state().store() != window->cluster()->store.get(), "the placement's engine reads a copy of the store");

    // Still the plan's node: gone, no pods; a node that got a placed pod lists it.
    QVERIFY2(inspector->headerText().contains(QStringLiteral("gone under the plan")), qPrintable(inspector->headerText()));
    QCOMPARE(inspector->podsModel()->rowCount(), 0);
    const model::AppliedAction& placement = plan->engine()->applied().back();
    const model::NodeId target = plan->engine()->state().podNode(placement.podsAdded.front());
    inspector->setNode(window->cluster()->store, window->cluster()->topology, target);
    QAbstractItemModelTester tester(inspector->podsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    bool listed = false;
    for (int row = 0; row < inspector->podsModel()->rowCount(); ++row)
        listed = listed || inspector->podsModel()->index(row, views::NodePodsModel::NameColumn).data().toString().contains(QStringLiteral("follow-"));
    QVERIFY2(listed, "the node that got a placed pod lists it");
    window->undoStack()->setClean();
}

void TestPlanWindowState::closeAsksWhilePlanIsModified()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    QVERIFY(!window->isPlanModified());
    QVERIFY(window->close()); // nothing to save: no question
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QCOMPARE(drainSome(window->planController(), 2).size(), std::size_t(2));
    QVERIFY(window->isPlanModified());

    bool asked = false;
    answerBox(QStringLiteral("unsavedPlanBox"), QMessageBox::Cancel, &asked);
    QVERIFY(!window->close());
    QVERIFY(asked);
    QVERIFY(window->isVisible());
    QCOMPARE(window->planController()->engine()->applied().size(), std::size_t(2));

    // Saved: clean, closes without asking; a change after the save asks again, and Save writes
    // to the same file without a file dialog.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plan.json"));
    QCOMPARE(window->savePlanTo(path), QString());
    QVERIFY(!window->isPlanModified());
    QVERIFY(window->close());
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    window->undoStack()->undo();
    QVERIFY(window->isPlanModified());
    asked = false;
    answerBox(QStringLiteral("unsavedPlanBox"), QMessageBox::Save, &asked);
    QVERIFY(window->close());
    QVERIFY(asked);
    QCOMPARE(importers::readPlanFile(path.toStdString()).actions.size(), std::size_t(1));
    QVERIFY(!window->isPlanModified());

    // Discard closes and leaves the file as it was.
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    window->undoStack()->undo();
    asked = false;
    answerBox(QStringLiteral("unsavedPlanBox"), QMessageBox::Discard, &asked);
    QVERIFY(window->close());
    QVERIFY(asked);
    QCOMPARE(importers::readPlanFile(path.toStdString()).actions.size(), std::size_t(1));
}

// The unsaved-plan question before another plan opens says so (not "before it is closed"),
// and its Save writes to the plan's file only while the plan still comes from that file: a
// plan made after undoing past the save (another plan) gets a file dialog, so the file is not
// overwritten with an unrelated plan.
void TestPlanWindowState::saveAsksForAFileOnceThePlanLeftItsFile()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    QCOMPARE(drainSome(plan, 2).size(), std::size_t(2));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("two.json"));
    QCOMPARE(window->savePlanTo(path), QString());
    while (window->undoStack()->canUndo())
        window->undoStack()->undo();
    QVERIFY(plan->engine()->applied().empty());
    // Another plan, made where the saved one was undone: one drain of a node the file does not drain.
    const auto savedActions = importers::readPlanFile(path.toStdString()).actions;
    const model::ClusterStore& store = *plan->store();
    bool drained = false;
    for (std::uint32_t i = store.nodeCount(); i-- > 0 && !drained;) {
        const model::NodeId n(i);
        const std::string name(store.nodeName(n));
        if (store.nodePods(n).empty() || std::any_of(savedActions.begin(), savedActions.end(), [&](const model::PlanAction& a) { return a.node == name; }))
            continue;
        drained = plan->drainNodes({ n });
    }
    QVERIFY(drained);
    QVERIFY(window->isPlanModified());

    // Open Plan asks first, in its own words; Cancel keeps this plan.
    QString informative;
    bool asked = false;
    whenShown([&](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        if (!box || box->objectName() != QStringLiteral("unsavedPlanBox"))
            return;
        asked = true;
        informative = box->informativeText();
        box->button(QMessageBox::Cancel)->click();
    });
    QVERIFY(!window->openPlanFile(path));
    QVERIFY(asked);
    QVERIFY2(informative.contains(QStringLiteral("before another is opened")), qPrintable(informative));

    // Quit, Save: a file dialog (cancelled here), the file as it was, the window open.
    asked = false;
    bool fileAsked = false;
    whenShown([&](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        if (!box || box->objectName() != QStringLiteral("unsavedPlanBox"))
            return;
        asked = true;
        whenShown([&](QWidget* d) {
            if (auto* dialog = qobject_cast<QFileDialog*>(d)) {
                fileAsked = true;
                dialog->reject();
            }
        });
        box->button(QMessageBox::Save)->click();
    });
    QVERIFY(!window->close());
    QVERIFY(asked);
    QVERIFY(fileAsked);
    QCOMPARE(importers::readPlanFile(path.toStdString()).actions, savedActions);
    window->undoStack()->setClean();
}

// Ctrl+Z in the filter field whose clear button was pressed (nothing typed left) undoes the
// plan, as Edit > Undo says, and Ctrl+Shift+Z redoes it; with typed text the field keeps its own
// undo (a trial's Ctrl+Z undid the field's clear, not the drain).
void TestPlanWindowState::undoKeysReachThePlanFromAnEmptyField()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
    app::PlanController* plan = window->planController();
    QCOMPARE(drainSome(plan, 1).size(), std::size_t(1));
    QUndoStack* stack = window->undoStack();
    const int index = stack->index();
    QLineEdit* field = window->explorePanels()->filterField()->lineEdit();
    field->setFocus(Qt::MouseFocusReason);
    QTRY_VERIFY(field->hasFocus());
    QTest::keyClicks(field, QStringLiteral("gpu"));
    field->clear(); // the clear button's slot
    QVERIFY(field->isUndoAvailable());
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY2(stack->index() == index - 1, "Ctrl+Z in the emptied field did not undo the plan");
    QVERIFY(field->text().isEmpty());
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(stack->index(), index);
    // Typed text: the field's own undo.
    QTest::keyClicks(field, QStringLiteral("zz"));
    QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(stack->index(), index);
    QVERIFY(field->text() != QStringLiteral("zz"));
    field->clear();
    window->undoStack()->setClean();
}

void TestPlanWindowState::openPlanReevaluatesAgainstTheShownCluster()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    const auto drained = drainSome(plan, 3);
    QCOMPARE(drained.size(), std::size_t(3));
    std::vector<model::PlanAction> saved;
    for (const model::AppliedAction& a : plan->engine()->applied())
        saved.push_back(a.action);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("drains.json"));
    QCOMPARE(window->savePlanTo(path), QString());
    window->undoStack()->undo();
    window->undoStack()->undo();
    QCOMPARE(plan->engine()->applied().size(), saved.size() - 2);

    // Opening asks about the modified plan first; Discard, then the file's plan is shown.
    bool asked = false;
    answerBox(QStringLiteral("unsavedPlanBox"), QMessageBox::Discard, &asked);
    app::PlanOpener* opener = window->planOpener();
    QSignalSpy opened(opener, &app::PlanOpener::finished);
    QVERIFY(window->openPlanFile(path));
    QVERIFY(asked);
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.takeFirst().at(0).toBool(), true);
    QVERIFY2(opener->lastMessage().startsWith(QStringLiteral("Opened plan drains.json: 3 actions, 3 hold, 0 do not hold.")),
        qPrintable(opener->lastMessage()));
    QCOMPARE(plan->engine()->applied().size(), saved.size());
    for (std::size_t i = 0; i < saved.size(); ++i)
        QCOMPARE(plan->engine()->applied()[i].action, saved[i]);
    views::PlanActionsModel* rows = plan->panel()->model();
    QAbstractItemModelTester tester(rows, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(rows->rowCount(), 3);
    for (int row = 0; row < 3; ++row)
        QCOMPARE(rows->index(row, views::PlanActionsModel::HoldsColumn).data().toString(), QStringLiteral("yes"));
    QVERIFY(plan->dock()->isVisible());
    QVERIFY(!window->isPlanModified());
    QCOMPARE(window->planPath(), path);
    QCOMPARE(window->undoStack()->count(), 1);
    // The inspector shows the opened plan: a drained node is gone.
    views::NodeInspector* inspector = window->explorePanels()->nodeInspector();
    inspector->setNode(window->cluster()->store, window->cluster()->topology, drained.front());
    QVERIFY2(inspector->headerText().contains(QStringLiteral("gone under the plan")), qPrintable(inspector->headerText()));
    // One undo step: Undo empties the plan, Redo brings it back.
    window->undoStack()->undo();
    QVERIFY(plan->engine()->applied().empty());
    QVERIFY(window->isPlanModified());
    window->undoStack()->redo();
    QCOMPARE(plan->engine()->applied().size(), saved.size());
    QVERIFY(!window->isPlanModified());
}

void TestPlanWindowState::openPlanListsWhatCannotBeApplied()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    const std::string node = std::string(window->cluster()->store->nodeName(model::NodeId(0)));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("other.json"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(R"({"fleetscopePlan": 1, "source": {"simulated": "nodes=999 seed=9"}, "actions": [
            {"type": "drain-node", "node": "no-such-node"},
            {"type": "drain-node", "node": ")")
            + QByteArray::fromStdString(node) + R"("}]})");
    }
    QSignalSpy opened(window->planOpener(), &app::PlanOpener::finished);
    QVERIFY(window->openPlanFile(path));
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.takeFirst().at(0).toBool(), true);
    const QString message = window->planOpener()->lastMessage();
    QVERIFY2(message.contains(QStringLiteral("2 actions")) && message.contains(QStringLiteral("(1 could not be applied)")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("nodes=999 seed=9")), qPrintable(message)); // another state than the plan's, said
    QCOMPARE(plan->engine()->applied().size(), std::size_t(1));
    views::PlanActionsModel* rows = plan->panel()->model();
    QAbstractItemModelTester tester(rows, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(rows->rowCount(), 2);
    QCOMPARE(rows->notAppliedCount(), 1);
    QCOMPARE(rows->index(1, views::PlanActionsModel::HoldsColumn).data().toString(), QStringLiteral("no (not applied)"));
    const QString why = rows->index(1, views::PlanActionsModel::ReasonsColumn).data().toString();
    QVERIFY2(why.contains(QStringLiteral("not-found:node/no-such-node")), qPrintable(why));
    QVERIFY2(rows->index(1, views::PlanActionsModel::ActionColumn).data().toString().startsWith(QStringLiteral("File #1. ")),
        qPrintable(rows->index(1, views::PlanActionsModel::ActionColumn).data().toString()));
    // A new action goes before the not-applied row.
    QCOMPARE(drainSome(plan, 1).size(), std::size_t(1));
    QCOMPARE(rows->rowCount(), 3);
    QCOMPARE(rows->index(2, views::PlanActionsModel::HoldsColumn).data().toString(), QStringLiteral("no (not applied)"));
    window->undoStack()->setClean();
}

void TestPlanWindowState::openPlanFromFileOpenAndBrokenFile()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    QCOMPARE(drainSome(plan, 1).size(), std::size_t(1));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("one.json"));
    QCOMPARE(window->savePlanTo(path), QString());
    window->undoStack()->undo();
    window->undoStack()->setClean();

    // File > Open (Ctrl+O's path) with a plan file: opened as a plan, the cluster stays.
    QVERIFY(app::looksLikePlanFile(path));
    QVERIFY(!app::looksLikePlanFile(QStringLiteral(FLEET_TEST_DATA_DIR "/plan/cluster.json")));
    const auto store = window->cluster()->store;
    QSignalSpy opened(window->planOpener(), &app::PlanOpener::finished);
    QSignalSpy failed(window.get(), &app::MainWindow::importFailed);
    // The undone drain is on the stack after its clean state (setClean() above): Redo could
    // bring it back, so the plan replaced asks first (Discard).
    bool asked = false;
    answerBox(QStringLiteral("unsavedRedoBox"), QMessageBox::Discard, &asked);
    window->openFiles({ path });
    QVERIFY(opened.wait(30000));
    QVERIFY(asked);
    QCOMPARE(opened.takeFirst().at(0).toBool(), true);
    QCOMPARE(failed.count(), 0);
    QVERIFY(window->cluster()->store == store);
    QCOMPARE(plan->engine()->applied().size(), std::size_t(1));

    // A broken plan: an error naming the file and the place; the plan stays as it was.
    const QString broken = dir.filePath(QStringLiteral("broken.json"));
    {
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"fleetscopePlan": 1, "actions": [{"type": "drain-node"}]})");
    }
    QString shown;
    whenShown([&shown](QWidget* w) {
        if (auto* box = qobject_cast<QMessageBox*>(w); box && box->objectName() == QStringLiteral("openPlanError")) {
            shown = box->text();
            box->close();
        }
    });
    QVERIFY(window->openPlanFile(broken));
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.takeFirst().at(0).toBool(), false);
    QTRY_VERIFY(!shown.isEmpty());
    QVERIFY2(shown.contains(QStringLiteral("broken.json")) && shown.contains(QStringLiteral("$.actions[0]")), qPrintable(shown));
    QCOMPARE(plan->engine()->applied().size(), std::size_t(1));
    QCOMPARE(window->planPath(), path);
}

void TestPlanWindowState::openPlanOfManyActionsShowsEachAsMade()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    plan->dock()->show(); // the dock narrows the map: open it before the first grab
    QVERIFY(testing::deliverPostedEvents());
    views::FleetMapView* map = window->mapView();
    const QImage unplanned = map->grabImage();
    // 90 drains in one step, more than a step undone at once (PlanStepCommand::kSlicedChildren):
    // the later ones strand pods, so some hold and some do not.
    std::vector<model::NodeId> nodes;
    const model::ClusterStore& store = *plan->store();
    for (std::uint32_t i = 0; i < store.nodeCount() && nodes.size() < 90; ++i)
        if (!store.nodePods(model::NodeId(i)).empty())
            nodes.push_back(model::NodeId(i));
    QVERIFY(static_cast<int>(nodes.size()) > app::PlanStepCommand::kSlicedChildren);
    QVERIFY(plan->drainNodes(nodes));
    const std::size_t actions = plan->engine()->applied().size();
    QCOMPARE(actions, nodes.size());
    views::PlanActionsModel* rows = plan->panel()->model();
    QStringList holds, texts;
    for (int row = 0; row < rows->rowCount(); ++row) {
        holds << rows->index(row, views::PlanActionsModel::HoldsColumn).data().toString();
        texts << rows->index(row, views::PlanActionsModel::ActionColumn).data().toString();
    }
    QVERIFY2(holds.contains(QStringLiteral("yes")) && holds.contains(QStringLiteral("no")), qPrintable(holds.join(QLatin1Char(','))));
    const auto marks = views::buildPlanMarks(*plan->engine(), plan->topology().get());
    QVERIFY(marks && !marks->removed.empty());
    const model::NodeId gone = marks->removed.front();
    const QColor goneMade = testing::swatchColor(*map, map->grabImage(), gone);
    QVERIFY2(!near(testing::swatchColor(*map, unplanned, gone), goneMade, 8), "a drained node is darkened on the map");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("many.json"));
    QCOMPARE(window->savePlanTo(path), QString());
    window->undoStack()->undo();
    QTRY_VERIFY(!plan->isBusy());
    QVERIFY(plan->engine()->applied().empty());
    window->undoStack()->setClean();

    QSignalSpy changed(plan, &app::PlanController::planChanged);
    QSignalSpy opened(window->planOpener(), &app::PlanOpener::finished);
    bool asked = false; // the undone step, after the clean state, would go: asked first (Discard)
    answerBox(QStringLiteral("unsavedRedoBox"), QMessageBox::Discard, &asked);
    QVERIFY(window->openPlanFile(path));
    QVERIFY(asked);
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.takeFirst().at(0).toBool(), true);
    QCOMPARE(changed.count(), 1); // the whole plan, one refresh
    QCOMPARE(plan->engine()->applied().size(), actions);
    QCOMPARE(rows->rowCount(), static_cast<int>(actions));
    for (int row = 0; row < rows->rowCount(); ++row) {
        QCOMPARE(rows->index(row, views::PlanActionsModel::HoldsColumn).data().toString(), holds[row]);
        QCOMPARE(rows->index(row, views::PlanActionsModel::ActionColumn).data().toString(), texts[row]);
    }
    // One undo step named for the file that holds the actions as values: no command per action
    // (199,262 of them took a second to delete when the stack was cleared).
    QUndoStack* stack = window->undoStack();
    QCOMPARE(stack->count(), 1);
    QCOMPARE(stack->text(0), QStringLiteral("Open plan many.json"));
    const auto* step = dynamic_cast<const app::PlanStepCommand*>(stack->command(0));
    QVERIFY(step);
    QCOMPARE(step->childCount(), 0);
    QCOMPARE(step->actionCount(), static_cast<int>(actions));
    QCOMPARE(step->appliedChildren(), static_cast<int>(actions));
    QVERIFY(near(testing::swatchColor(*map, map->grabImage(), gone), goneMade, 2)); // the marks it came with
    QVERIFY(!window->isPlanModified());

    // Undone and redone in slices, one refresh each.
    changed.clear();
    stack->undo();
    QTRY_VERIFY(!plan->isBusy());
    QCOMPARE(changed.count(), 1);
    QVERIFY(plan->engine()->applied().empty());
    QVERIFY(near(testing::swatchColor(*map, map->grabImage(), gone), testing::swatchColor(*map, unplanned, gone), 2));
    changed.clear();
    stack->redo();
    QTRY_VERIFY(!plan->isBusy());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(plan->engine()->applied().size(), actions);
    for (int row = 0; row < rows->rowCount(); ++row)
        QCOMPARE(rows->index(row, views::PlanActionsModel::HoldsColumn).data().toString(), holds[row]);
    QVERIFY(near(testing::swatchColor(*map, map->grabImage(), gone), goneMade, 2));
    QVERIFY(!window->isPlanModified());
}

// The map's plan marks follow each gesture on the plan (views::PlanMarksTracker): after a
// consolidation taken from its worker, a drop as a violation, Fail Domain, Add a Node Like It,
// undo and redo (the large step in slices), Remove Last, Undo Back to Here, and a gesture after
// an undo (the undone actions' marks taken back), they equal the marks of the whole plan.
void TestPlanWindowState::marksFollowEveryGesture()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    QUndoStack* stack = window->undoStack();
    auto* consolidate = window->findChild<app::ConsolidateController*>();
    QSignalSpy finished(consolidate, &app::ConsolidateController::finished);
    QVERIFY(consolidate->start());
    QVERIFY(finished.wait(60000));
    QVERIFY(plan->hasPlan());
    QVERIFY(marksAreThePlans(plan, "the consolidation"));
    const std::size_t consolidated = plan->engine()->applied().size();

    // A pod still on its node under the plan, dropped on another node the plan keeps, as a violation.
    const auto state = plan->planState();
    const model::ClusterStore& store = *plan->store();
    model::PodId pod;
    model::NodeId target;
    for (std::uint32_t i = 0; i < store.nodeCount() && !(pod.isValid() && target.isValid()); ++i) {
        const model::NodeId n(i);
        if (!state->nodePresent(n) || state->nodeUnschedulable(n))
            continue;
        if (!pod.isValid()) {
            for (model::PodId p : state->nodePods(n))
                if (p.index() < store.podCount() && !model::isNodeBoundPod(store, p) && !store.podIsTerminal(p)) {
                    pod = p;
                    break;
                }
            if (pod.isValid())
                continue;
        }
        if (pod.isValid() && state->podNode(pod) != n)
            target = n;
    }
    QVERIFY(pod.isValid() && target.isValid());
    QVERIFY(plan->movePod(pod, target, true));
    QVERIFY(marksAreThePlans(plan, "the drop"));
    QVERIFY(!plan->planMarks()->violations.empty());
    stack->undo();
    QTRY_VERIFY(!plan->isBusy());
    QVERIFY(marksAreThePlans(plan, "the drop's undo"));

    const model::DomainId domain = plan->topology()->nodeDomain(target);
    QVERIFY(plan->failDomain(domain));
    QVERIFY(marksAreThePlans(plan, "Fail Domain"));
    stack->undo();
    QTRY_VERIFY(!plan->isBusy());
    QVERIFY(marksAreThePlans(plan, "Fail Domain's undo"));
    // A gesture after an undo: the command undone is dropped from the stack.
    QVERIFY(plan->addNodeLike(target));
    QVERIFY(marksAreThePlans(plan, "Add a Node Like It"));
    QVERIFY(!plan->planMarks()->added.empty());
    stack->undo();
    QTRY_VERIFY(!plan->isBusy());
    stack->redo();
    QTRY_VERIFY(!plan->isBusy());
    QVERIFY(marksAreThePlans(plan, "Add a Node Like It's redo"));
    QVERIFY(plan->removeLastAction());
    QVERIFY(marksAreThePlans(plan, "Remove Last"));
    QCOMPARE(plan->engine()->applied().size(), consolidated);
    stack->undo(); // the removal
    QVERIFY(marksAreThePlans(plan, "Remove Last's undo"));
    plan->undoBackTo(static_cast<int>(consolidated / 2));
    QTRY_VERIFY(!plan->isBusy());
    QVERIFY(marksAreThePlans(plan, "Undo Back to Here"));
    while (stack->canUndo()) {
        stack->undo();
        QTRY_VERIFY(!plan->isBusy());
        QVERIFY(marksAreThePlans(plan, "an undo"));
    }
    QVERIFY(!plan->planMarks());
    while (stack->canRedo()) {
        stack->redo();
        QTRY_VERIFY(!plan->isBusy());
        QVERIFY(marksAreThePlans(plan, "a redo"));
    }
    QVERIFY(plan->hasPlan());
    stack->setClean();
}

// The Plan dock opens in the bottom area beside the Problems dock (the toolbar's toggle opened
// it first): it takes half the row and the height of its summary and a few action rows. It had
// the width Problems left over (a trial saw 195 px, its summary cut and one action row shown).
void TestPlanWindowState::planDockOpensWithRoomBesideProblems()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    auto* problems = window->findChild<QDockWidget*>(QStringLiteral("problemsDock"));
    QVERIFY(problems);
    problems->toggleViewAction()->trigger();
    QTRY_VERIFY(problems->isVisible() && problems->width() > 1000);
    app::PlanController* plan = window->planController();
    QVERIFY(!plan->dock()->isVisible());
    const auto engine = plan->engine();
    const model::ClusterStore& store = engine->state().store();
    model::NodeId node;
    for (std::uint32_t i = 0; i < store.nodeCount() && !node.isValid(); ++i)
        if (!store.nodePods(model::NodeId(i)).empty())
            node = model::NodeId(i);
    QVERIFY(node.isValid());
    QVERIFY(plan->drainNodes({ node }));
    QDockWidget* dock = plan->dock();
    QTRY_VERIFY(dock->isVisible());
    QVERIFY(testing::deliverPostedEvents());
    const auto sizes = [&] {
        return QStringLiteral("Plan dock %1x%2 at (%3,%4), Problems %5x%6 at (%7,%8)")
            .arg(dock->width()).arg(dock->height()).arg(dock->x()).arg(dock->y())
            .arg(problems->width()).arg(problems->height()).arg(problems->x()).arg(problems->y());
    };
    QTRY_VERIFY2(dock->width() >= 0.4 * (dock->width() + problems->width()), qPrintable(sizes()));
    QVERIFY2(std::abs(dock->y() - problems->y()) <= 4, qPrintable(sizes())); // side by side
    QTRY_VERIFY2(dock->height() >= std::min(300, static_cast<int>(window->height() * 0.4)), qPrintable(sizes()));
    // Its summary and at least three action rows' worth of table show.
    auto* table = dock->findChild<QAbstractItemView*>(QStringLiteral("planActions"));
    QVERIFY(table);
    QVERIFY2(table->viewport()->height() >= 3 * table->fontMetrics().height(), qPrintable(sizes()));
}

int main(int argc, char** argv)
{
    // the tests close and show the window again
    return fleet::testing::runGuiTest<TestPlanWindowState>(argc, argv, &fleet::app::setDefaultSurfaceFormat, { .quitOnLastWindowClosed = false });
}
#include "tst_planwindowstate.moc"
