// SPDX-License-Identifier: Apache-2.0
// The window's .fleet document (app/window/windowdocument.h), under xvfb-run on a small
// simulated cluster, with real files:
// - saved on a worker to a real .fleet: the file opens headless with the same cluster and the
//   shown plan's actions, the title names it and the modified mark follows the plan;
// - the document opened in the window shows its first plan, every action, clean;
// - the plans list: a new plan, a switch back (the left plan's actions kept, the document
//   modified although the shown plan's stack is clean), rename, duplicate, delete, import and
//   export of a plan file, and all of it as saved;
// - closing with a changed document asks "Unsaved Changes" and Save writes the document;
// - an empty new plan in an opened document changes nothing to save (no mark, no question);
// - File > Save and Save Plan while a large step is undone or redone in slices write the plan
//   before or after the step, never part of it, and the slices go on meanwhile;
// - a click or an arrow key in the Plans list shows the plan; a switch is no undo step; Ctrl+Z
//   while a plan opens is refused in a sentence the status bar shows whole, and the opened
//   plan's message says it was not done;
// - the save's Cancel (the progress dialog's button) leaves the file saved before byte for byte
//   as it was (its inode and modification time too), no temporary file, the document modified;
// - Save As and Export Report start in the folder a file was last chosen in;
// - an exported report (pdftotext) names the plan as the Plans list does ("doc.fleet:Plan 2").

#include "planwindowfixture.h"

#include "app/commands/planstepcommand.h"
#include "app/controllers/planopener.h"
#include "app/controllers/reportexporter.h"
#include "app/dialogs/filedialogs.h"
#include "app/controllers/plansteprunner.h"
#include "app/startup/surfaceformat.h"
#include "app/window/planautosave.h"
#include "app/window/statusfield.h"
#include "app/window/windowstatusbar.h"
#include "app/window/windowdocument.h"
#include "importers/document/fleetdocument.h"
#include "importers/output/outputfile.h"
#include "importers/plan/planfile.h"
#include "views/panels/searchfield.h"

#include "common/guitestmain.h"
#include "common/privateuserfolders.h"
#include "common/pdftext.h"

#include <QLineEdit>
#include <QListWidget>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QProgressDialog>
#include <QTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QUndoStack>

#include <sys/stat.h>
#include <sys/time.h>

using namespace fleet;
using namespace planwindow;

namespace {

/// Drains the first `count` nodes with pods whose drain holds, one command each.
int drainSome(app::PlanController* plan, int count, std::uint32_t from = 0)
{
    int drained = 0;
    const model::ClusterStore& store = *plan->store();
    for (std::uint32_t i = from; i < store.nodeCount() && drained < count; ++i) {
        const model::NodeId n(i);
        if (store.nodePods(n).empty() || !plan->drainNodes({ n }))
            continue;
        if (plan->engine()->applied().back().holds)
            ++drained;
        else
            plan->removeLastAction();
    }
    return drained;
}

std::size_t actionsIn(const importers::DocumentPlan& plan)
{
    return plan.planJson.empty() ? 0 : importers::parsePlanText(plan.planJson, plan.name).actions.size();
}

/// Drains, as one step, the nodes with pods (at most `count`).
std::size_t drainAsOneStep(app::PlanController* plan, std::size_t count)
{
    std::vector<model::NodeId> nodes;
    const model::ClusterStore& store = *plan->store();
    for (std::uint32_t i = 0; i < store.nodeCount() && nodes.size() < count; ++i)
        if (!store.nodePods(model::NodeId(i)).empty())
            nodes.push_back(model::NodeId(i));
    return plan->drainNodes(nodes) ? plan->engine()->applied().size() : 0;
}

std::size_t shownActions(const app::MainWindow& window)
{
    return window.planController()->engine() ? window.planController()->engine()->applied().size() : 0;
}

} // namespace

class TestWindowDocument : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void saveWritesTheClusterAndPlanAndReopens();
    void plansListSwitchRenameDuplicateDelete();
    void closeAsksAndSaveWritesTheDocument();
    void emptyNewPlanLeavesTheOpenedDocumentUnmodified();
    void restoredLayoutShowsTheConnectionDockOnlyWhenLive();
    void savesDuringASlicedStepWriteTheWholeStep();
    void duplicatedPlanIsEditedApart();
    void duplicateAndSwitchDuringASlicedStepKeepTheWholeStep();
    void editsWhileAPlanOpensAreRefused();
    void undoAndRedoSayWhatTheyDid();
    void savedPlansKeepTheirEvaluationAndRenameStampsThem();
    void recentLabelsTellSameNamedSourcesApart();
    void plansListClickAndArrowKeysShowThePlan();
    void switchingPlansIsNoUndoStep();
    void undoKeyWhileAPlanOpensIsSaidAndStaysSaid();
    void importFailedNamesTheDocumentAsSaved();
    void saveRefusesAWriteProtectedDocument();
    void cancelledSaveKeepsThePreviousFile();
    void fileDialogsStartInTheFolderLastUsed();
    void reportNamesThePlanAsThePlansListDoes();

private:
    fleet::testing::PrivateUserFolders m_folders;
};

void TestWindowDocument::initTestCase()
{
    // Open Recent writes to a settings folder of this run's own (another run of this test beside
    // it, in another checkout, read and wrote the same list under test mode's shared folder).
    QVERIFY(m_folders.activate());
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs); // Qt's own file dialog, found and read below
}

void TestWindowDocument::saveWritesTheClusterAndPlanAndReopens()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::WindowDocument* doc = window->document();
    QCOMPARE(doc->path(), QString());
    QVERIFY(!doc->isModified());
    QVERIFY(window->windowTitle().endsWith(QStringLiteral("[*] \u2014 Fleetscope")));
    QVERIFY(!window->isWindowModified());
    QCOMPARE(drainSome(window->planController(), 3), 3);
    QVERIFY(doc->isModified());
    QVERIFY(window->isWindowModified());

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("state.fleet"));
    QSignalSpy saved(doc, &app::WindowDocument::saved);
    QVERIFY(doc->saveTo(path));
    QVERIFY(doc->isSaving());
    QVERIFY(!doc->saveTo(path)); // one save at a time
    QVERIFY(saved.wait(60000));
    QCOMPARE(saved.takeFirst().at(0).toString(), path);
    QCOMPARE(doc->path(), path);
    QVERIFY(!doc->isModified());
    QVERIFY(!window->isWindowModified());
    QCOMPARE(window->windowTitle(), QStringLiteral("state.fleet[*] \u2014 Fleetscope"));
    QVERIFY(!QFile::exists(path + QStringLiteral("-journal")) && !QFile::exists(path + QStringLiteral("-wal")));

    const importers::FleetDocument back = importers::openFleetDocument(path.toStdString());
    QCOMPARE(back.cluster.store->nodeCount(), window->cluster()->store->nodeCount());
    QCOMPARE(back.cluster.store->podCount(), window->cluster()->store->podCount());
    QCOMPARE(back.provenance.simulated, std::string("nodes=240 seed=3 regions=1"));
    QCOMPARE(back.plans.size(), std::size_t(1));
    QCOMPARE(back.plans[0].name, std::string("Plan 1"));
    QCOMPARE(actionsIn(back.plans[0]), std::size_t(3));

    // A change after the save marks the title again; an undo back to the saved state clears it.
    window->undoStack()->undo();
    QVERIFY(window->isWindowModified());
    window->undoStack()->redo();
    QVERIFY(!window->isWindowModified());

    // Opened in a window: its plan is shown, every action, nothing to save.
    auto reopened = std::make_unique<app::MainWindow>();
    reopened->show();
    QVERIFY(QTest::qWaitForWindowExposed(reopened.get()));
    QSignalSpy shown(reopened.get(), &app::MainWindow::clusterShown);
    reopened->openFiles({ path });
    QVERIFY(shown.wait(30000));
    QTRY_COMPARE_WITH_TIMEOUT(reopened->document()->currentPlan(), 0, 30000);
    QCOMPARE(shownActions(*reopened), std::size_t(3));
    QCOMPARE(reopened->document()->path(), path);
    QVERIFY(!reopened->document()->isModified());
    QCOMPARE(reopened->windowTitle(), QStringLiteral("state.fleet[*] \u2014 Fleetscope"));
    // A plan saved from a document names the state it was saved from, not the document file.
    QCOMPARE(reopened->planSource().simulated, std::string("nodes=240 seed=3 regions=1"));
    QVERIFY(app::WindowDocument::recentSources().contains(QStringList { QFileInfo(path).absoluteFilePath() }));

    // File > Open Plan into the document: the shown plan now has the file's actions, which the
    // document on disk does not keep, so the document is modified (its undo stack is clean).
    window->undoStack()->undo();
    const QString planPath = dir.filePath(QStringLiteral("two.json"));
    QCOMPARE(window->savePlanTo(planPath), QString());
    QSignalSpy opened(reopened->planOpener(), &app::PlanOpener::finished);
    QVERIFY(reopened->openPlanFile(planPath));
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.takeFirst().at(0).toBool(), true);
    QCOMPARE(shownActions(*reopened), std::size_t(2));
    QVERIFY(reopened->undoStack()->isClean());
    QVERIFY(reopened->document()->isModified());
    QVERIFY(reopened->isWindowModified());
    reopened->undoStack()->setClean();
    window->undoStack()->setClean();
}

void TestWindowDocument::plansListSwitchRenameDuplicateDelete()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::WindowDocument* doc = window->document();
    QCOMPARE(drainSome(window->planController(), 2), 2);

    // A new plan: the first one is kept in the list with its two actions, the new one is shown empty.
    QVERIFY(doc->newPlan());
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QCOMPARE(doc->plans().size(), std::size_t(2));
    QCOMPARE(doc->plans()[1].name, std::string("Plan 2"));
    QCOMPARE(shownActions(*window), std::size_t(0));
    QCOMPARE(actionsIn(doc->plans()[0]), std::size_t(2));
    QVERIFY(doc->isModified()); // the shown plan is clean, the list is not
    QVERIFY(window->undoStack()->isClean());
    QCOMPARE(drainSome(window->planController(), 1, 120), 1);

    // Back to the first: its two actions; the second keeps its one.
    QVERIFY(doc->switchToPlan(0));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 0, 30000);
    QCOMPARE(shownActions(*window), std::size_t(2));
    QCOMPARE(actionsIn(doc->plans()[1]), std::size_t(1));
    QVERIFY(!doc->switchToPlan(0)); // already shown

    QVERIFY(doc->renamePlan(0, QStringLiteral("  drain two  ")));
    QCOMPARE(doc->plans()[0].name, std::string("drain two"));
    QVERIFY(!doc->renamePlan(1, QStringLiteral("drain two"))); // names are unique
    QVERIFY(!doc->renamePlan(1, QStringLiteral("   ")));
    QVERIFY(doc->duplicatePlan(0));
    QCOMPARE(doc->plans()[2].name, std::string("drain two copy"));
    QCOMPARE(actionsIn(doc->plans()[2]), std::size_t(2));

    // Export the second plan, delete it, import it back: a plan named after its file, shown.
    QTemporaryDir dir;
    const QString exported = dir.filePath(QStringLiteral("one drain.json"));
    QCOMPARE(doc->exportPlan(1, exported), QString());
    QCOMPARE(importers::readPlanFile(exported.toStdString()).actions.size(), std::size_t(1));
    QVERIFY(doc->deletePlan(1));
    QCOMPARE(doc->plans().size(), std::size_t(2));
    QCOMPARE(doc->currentPlan(), 0);
    QCOMPARE(doc->importPlan(exported), QString());
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 2, 30000);
    QCOMPARE(doc->plans()[2].name, std::string("one drain"));
    QCOMPARE(shownActions(*window), std::size_t(1));
    const QString broken = dir.filePath(QStringLiteral("broken.json"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("{\"fleetscopePlan\": 1, \"actions\": [{\"type\": \"nope\"}]}") > 0);
    f.close();
    QVERIFY(!doc->importPlan(broken).isEmpty());
    QCOMPARE(doc->plans().size(), std::size_t(3));

    // Deleting the shown plan shows a neighbour.
    QVERIFY(doc->deletePlan(2));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QCOMPARE(shownActions(*window), std::size_t(2));

    const QString path = dir.filePath(QStringLiteral("plans.fleet"));
    QCOMPARE(doc->saveAndWait(path), QString());
    QVERIFY(!doc->isModified());
    const importers::FleetDocument back = importers::openFleetDocument(path.toStdString());
    QCOMPARE(back.plans.size(), std::size_t(2));
    QCOMPARE(back.plans[0].name, std::string("drain two"));
    QCOMPARE(back.plans[1].name, std::string("drain two copy"));
    QCOMPARE(actionsIn(back.plans[0]), std::size_t(2));
    QCOMPARE(actionsIn(back.plans[1]), std::size_t(2));
}

void TestWindowDocument::closeAsksAndSaveWritesTheDocument()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::WindowDocument* doc = window->document();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("close.fleet"));
    QCOMPARE(doc->saveAndWait(path), QString());
    QVERIFY(window->close()); // nothing changed: no question
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QCOMPARE(drainSome(window->planController(), 1), 1);

    bool asked = false;
    whenShown([&asked](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        if (!box || box->objectName() != QStringLiteral("unsavedDocumentBox"))
            return;
        asked = true;
        box->button(QMessageBox::Cancel)->click();
    });
    QVERIFY(!window->close());
    QVERIFY(asked);

    asked = false;
    whenShown([&asked](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        if (!box || box->objectName() != QStringLiteral("unsavedDocumentBox"))
            return;
        asked = true;
        box->button(QMessageBox::Save)->click();
    });
    QVERIFY(window->close()); // Save writes the document to its file, then the window closes
    QVERIFY(asked);
    QVERIFY(!doc->isModified());
    const importers::FleetDocument back = importers::openFleetDocument(path.toStdString());
    QCOMPARE(back.plans.size(), std::size_t(1));
    QCOMPARE(actionsIn(back.plans[0]), std::size_t(1));
}

// A document opened in the window, then File > New Plan: the new plan has no actions, which
// the file does not keep, so the document is as saved: no modified mark, and closing asks
// nothing. A new plan left with unsaved changes in the plan before still counts.
void TestWindowDocument::emptyNewPlanLeavesTheOpenedDocumentUnmodified()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("opened.fleet"));
    {
        auto source = openWindow(240, 3);
        QVERIFY(source);
        QCOMPARE(drainSome(source->planController(), 2), 2);
        QCOMPARE(source->document()->saveAndWait(path), QString());
    }

    auto window = std::make_unique<app::MainWindow>();
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QSignalSpy shown(window.get(), &app::MainWindow::clusterShown);
    window->openFiles({ path });
    QVERIFY(shown.wait(30000));
    app::WindowDocument* doc = window->document();
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 0, 30000);
    QCOMPARE(shownActions(*window), std::size_t(2));
    QVERIFY(!doc->isModified());

    QVERIFY(doc->newPlan());
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QCOMPARE(doc->plans().size(), std::size_t(2));
    QCOMPARE(shownActions(*window), std::size_t(0));
    QVERIFY(window->undoStack()->isClean());
    QVERIFY(!doc->isModified());
    QVERIFY(!window->isWindowModified());
    QCOMPARE(window->windowTitle(), QStringLiteral("opened.fleet[*] \u2014 Fleetscope"));

    // Shared: the watch for a question goes on for a while after this test would return.
    auto asked = std::make_shared<bool>(false);
    whenShown([asked](QWidget* w) {
        if (auto* box = qobject_cast<QMessageBox*>(w)) {
            *asked = true;
            box->button(QMessageBox::Cancel)->click();
        }
    });
    QVERIFY(window->close()); // nothing to save: no question
    QVERIFY(!*asked);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));

    // The Plans list highlights the new plan (Plans > Rename and Delete act on it, not on the
    // plan shown before); renaming and deleting an empty plan change nothing saved.
    auto* plansList = window->findChild<QListWidget*>();
    QVERIFY(plansList);
    QCOMPARE(plansList->currentRow(), 1);
    QVERIFY(doc->renamePlan(1, QStringLiteral("scratch")));
    QVERIFY(!doc->isModified());
    QVERIFY(doc->newPlan());
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 2, 30000);
    QCOMPARE(plansList->currentRow(), 2);
    QVERIFY(doc->deletePlan(1));
    QTRY_COMPARE_WITH_TIMEOUT(doc->plans().size(), std::size_t(2), 30000);
    QVERIFY(!doc->isModified());
    QVERIFY(!window->isWindowModified());

    // An action in the new plan is a change; leaving that plan for another new one keeps it.
    QCOMPARE(drainSome(window->planController(), 1, 120), 1);
    QVERIFY(doc->isModified());
    QVERIFY(doc->newPlan());
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 2, 30000);
    QVERIFY(window->undoStack()->isClean());
    QVERIFY(doc->isModified());
    QVERIFY(window->isWindowModified());
    QCOMPARE(doc->saveAndWait(path), QString());
    QVERIFY(!doc->isModified());
}

// The dock layout saved at the close of a live run comes back in the next run, but the
// Connection dock only when that run is live too (a trial saw an empty Connection dock in a
// run on a file).
void TestWindowDocument::restoredLayoutShowsTheConnectionDockOnlyWhenLive()
{
    {
        app::MainWindow live;
        live.rememberSession();
        live.show();
        QVERIFY(QTest::qWaitForWindowExposed(&live));
        auto* connection = live.findChild<QDockWidget*>(QStringLiteral("connectionDock"));
        QVERIFY(connection);
        connection->show(); // as a live feed's start shows it
        QTRY_VERIFY(connection->isVisible());
        QVERIFY(live.close());
    }
    QVERIFY(!QSettings().value(QStringLiteral("window/state")).toByteArray().isEmpty());
    app::MainWindow next;
    next.rememberSession();
    next.show();
    QVERIFY(QTest::qWaitForWindowExposed(&next));
    auto* connection = next.findChild<QDockWidget*>(QStringLiteral("connectionDock"));
    QVERIFY(connection);
    QCoreApplication::processEvents();
    QVERIFY(!connection->isVisible());
    QVERIFY(next.close());
}

void TestWindowDocument::savesDuringASlicedStepWriteTheWholeStep()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    app::WindowDocument* doc = window->document();
    const std::size_t actions = drainAsOneStep(plan, 2 * app::PlanStepCommand::kSlicedChildren);
    QVERIFY2(actions >= std::size_t(app::PlanStepCommand::kSlicedChildren), "a step large enough to run in slices");
    QCOMPARE(window->undoStack()->count(), 1);
    plan->stepRunner()->setMaxChildrenPerSlice(1); // a slice per turn of the loop: the step spans many
    QSignalSpy progressed(plan->stepRunner(), &app::PlanStepRunner::progressed);
    QTemporaryDir dir;

    // File > Save during the undo: the document's plan is the undone one (no actions, so no plan
    // in the file), not the actions still applied when Save was asked for.
    window->undoStack()->undo();
    QVERIFY(plan->isBusy());
    const QString undone = dir.filePath(QStringLiteral("undone.fleet"));
    QSignalSpy saved(doc, &app::WindowDocument::saved);
    QVERIFY(doc->saveTo(undone));
    QVERIFY(!doc->saveTo(undone)); // one save at a time, the waiting one included
    QVERIFY(saved.wait(60000));
    QVERIFY(!plan->isBusy());
    QCOMPARE(shownActions(*window), std::size_t(0));
    QVERIFY(importers::openFleetDocument(undone.toStdString()).plans.empty());

    // During the redo: every action of the step.
    window->undoStack()->redo();
    QVERIFY(plan->isBusy());
    const QString redone = dir.filePath(QStringLiteral("redone.fleet"));
    QCOMPARE(doc->saveAndWait(redone), QString());
    QVERIFY(!plan->isBusy());
    const importers::FleetDocument back = importers::openFleetDocument(redone.toStdString());
    QCOMPARE(back.plans.size(), std::size_t(1));
    QCOMPARE(actionsIn(back.plans[0]), actions);
    QVERIFY(!doc->isModified());

    // File > Save Plan during the undo: the undone plan, written once the slices are done, and
    // they go on turn by turn while the save waits (the rest of the step at once held the GUI
    // thread for all of it).
    window->undoStack()->undo();
    QVERIFY(plan->isBusy());
    progressed.clear();
    const QString planPath = dir.filePath(QStringLiteral("undone.json"));
    QCOMPARE(window->savePlanTo(planPath), QString());
    QVERIFY(!plan->isBusy());
    QVERIFY2(progressed.count() > 1, "the undo went on in slices while the save waited");
    QCOMPARE(importers::readPlanFile(planPath.toStdString()).actions.size(), std::size_t(0));
    QCOMPARE(shownActions(*window), std::size_t(0));
    window->undoStack()->setClean();
}

// Plans > Duplicate Plan then an edit in the copy: the original keeps every action, in the list,
// on screen and in the saved file; the copy has its own undo history. The shown plan's unsaved
// edits are what is copied.
void TestWindowDocument::duplicatedPlanIsEditedApart()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::WindowDocument* doc = window->document();
    app::PlanController* plan = window->planController();
    QCOMPARE(drainSome(plan, 3), 3);
    QVERIFY(!window->undoStack()->isClean()); // unsaved edits: the copy has them
    QVERIFY(doc->duplicatePlan(0));
    QCOMPARE(actionsIn(doc->plans()[1]), std::size_t(3));

    QVERIFY(doc->switchToPlan(1));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QCOMPARE(shownActions(*window), std::size_t(3));
    QVERIFY(!window->undoStack()->canUndo() || window->undoStack()->count() == 1); // the copy's own history: its opening
    QVERIFY(plan->removeLastAction());
    QCOMPARE(shownActions(*window), std::size_t(2));
    QCOMPARE(actionsIn(doc->plans()[0]), std::size_t(3));

    QVERIFY(doc->switchToPlan(0));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 0, 30000);
    QCOMPARE(shownActions(*window), std::size_t(3));
    QCOMPARE(actionsIn(doc->plans()[1]), std::size_t(2));
    // An undo in the original cannot reach the copy's removal.
    QVERIFY(window->undoStack()->count() <= 1);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("copies.fleet"));
    QCOMPARE(doc->saveAndWait(path), QString());
    const importers::FleetDocument back = importers::openFleetDocument(path.toStdString());
    QCOMPARE(back.plans.size(), std::size_t(2));
    QCOMPARE(actionsIn(back.plans[0]), std::size_t(3));
    QCOMPARE(actionsIn(back.plans[1]), std::size_t(2));

    // Quickly: the copy shown, the removal, back, without waiting between the last two.
    QVERIFY(doc->switchToPlan(1));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QVERIFY(plan->removeLastAction());
    QVERIFY(doc->switchToPlan(0));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 0, 30000);
    QCOMPARE(shownActions(*window), std::size_t(3));
    QCOMPARE(actionsIn(doc->plans()[1]), std::size_t(1));
    QCOMPARE(doc->saveAndWait(path), QString());
    const importers::FleetDocument again = importers::openFleetDocument(path.toStdString());
    QCOMPARE(actionsIn(again.plans[0]), std::size_t(3));
    QCOMPARE(actionsIn(again.plans[1]), std::size_t(1));
}

// A large step undone in slices (part of it still in the engine): Duplicate Plan and a switch
// to another plan are refused meanwhile (they kept the plan with part of the step: a copy made
// after the first slice lacked one action); once the step is done, the copy is the whole plan.
void TestWindowDocument::duplicateAndSwitchDuringASlicedStepKeepTheWholeStep()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    app::WindowDocument* doc = window->document();
    QVERIFY(doc->newPlan());
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QVERIFY(doc->switchToPlan(0));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 0, 30000);
    const std::size_t actions = drainAsOneStep(plan, 2 * app::PlanStepCommand::kSlicedChildren);
    QVERIFY2(actions >= std::size_t(app::PlanStepCommand::kSlicedChildren), "a step large enough to run in slices");
    plan->stepRunner()->setMaxChildrenPerSlice(1);
    QCOMPARE(shownActions(*window), actions);

    window->undoStack()->undo();
    QVERIFY(plan->isBusy());
    const bool duplicated = doc->duplicatePlan(0);
    const std::size_t copied = duplicated ? actionsIn(doc->plans().back()) : 0;
    QVERIFY2(!duplicated || copied == 0 || copied == actions,
        qPrintable(QStringLiteral("the copy holds %1 of the step's %2 actions").arg(copied).arg(actions)));
    const bool switched = doc->switchToPlan(1);
    QTRY_VERIFY_WITH_TIMEOUT(!plan->isBusy() && doc->currentPlan() >= 0, 30000);
    const std::size_t left = actionsIn(doc->plans()[0]);
    QVERIFY2(!switched || left == 0 || left == actions,
        qPrintable(QStringLiteral("the plan left holds %1 of the step's %2 actions").arg(left).arg(actions)));
    QVERIFY(!duplicated && !switched); // refused, with a message: the step is short

    // The step done (undone, then redone), the copy is the whole plan.
    QCOMPARE(shownActions(*window), std::size_t(0));
    window->undoStack()->redo();
    QTRY_VERIFY_WITH_TIMEOUT(!plan->isBusy(), 30000);
    QVERIFY(doc->duplicatePlan(0));
    QCOMPARE(actionsIn(doc->plans().back()), actions);
    window->undoStack()->setClean();
}

// While a plan is being opened (a switch), the window still shows the plan left, which the opened
// one replaces in a moment: an edit then is refused with a message naming the plan being opened
// (it went to the plan left, and a user who had just picked the other plan saw the original lose
// an action), and both plans keep their actions.
void TestWindowDocument::editsWhileAPlanOpensAreRefused()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    app::WindowDocument* doc = window->document();
    QCOMPARE(drainSome(plan, 3), 3);
    QVERIFY(doc->duplicatePlan(0));
    QSignalSpy said(plan, &app::PlanController::messageShown);
    QVERIFY(doc->switchToPlan(1));
    QCOMPARE(doc->currentPlan(), -1);
    QVERIFY(plan->isOpeningPlan());
    QVERIFY(!doc->duplicatePlan(0));
    QVERIFY(!plan->removeLastAction());
    QVERIFY(!said.isEmpty());
    QVERIFY2(said.last().at(0).toString().contains(QStringLiteral("is being opened")), qPrintable(said.last().at(0).toString()));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QVERIFY(!plan->isOpeningPlan());
    QCOMPARE(shownActions(*window), std::size_t(3));
    QCOMPARE(actionsIn(doc->plans()[0]), std::size_t(3));
    QVERIFY(plan->removeLastAction()); // once shown, the copy is edited
    QCOMPARE(shownActions(*window), std::size_t(2));
    QVERIFY(doc->switchToPlan(0));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 0, 30000);
    QCOMPARE(shownActions(*window), std::size_t(3));
    QCOMPARE(actionsIn(doc->plans()[1]), std::size_t(2));
    window->undoStack()->setClean();
}

// The status bar said the undone gesture's sentence on after its undo ("Failed us-west-2d:
// ..."): an undo and a redo now say what they undid or redid; a new gesture says its own.
void TestWindowDocument::undoAndRedoSayWhatTheyDid()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    QCOMPARE(drainSome(plan, 2), 2);
    QUndoStack* stack = window->undoStack();
    const QString last = stack->text(stack->index() - 1);
    QSignalSpy said(plan, &app::PlanController::messageShown);
    stack->undo();
    QVERIFY(!said.isEmpty());
    QCOMPARE(said.last().at(0).toString(), QStringLiteral("Undone: %1.").arg(last));
    stack->redo();
    QCOMPARE(said.last().at(0).toString(), QStringLiteral("Redone: %1.").arg(last));
    stack->undo();
    said.clear();
    QCOMPARE(drainSome(plan, 1), 1); // a new gesture over the undone one: its own sentence
    QVERIFY(!said.isEmpty());
    for (const QList<QVariant>& m : said)
        QVERIFY2(!m.at(0).toString().startsWith(QStringLiteral("Redone")), qPrintable(m.at(0).toString()));
    stack->setClean();
}

// A plan saved from the window keeps the evaluation it had when saved (as `save --plan` keeps
// it), the copy too; a rename is a change of the plan as saved: its saved time is stamped again
// and its evaluation, which names it, made again.
void TestWindowDocument::savedPlansKeepTheirEvaluationAndRenameStampsThem()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::WindowDocument* doc = window->document();
    QCOMPARE(drainSome(window->planController(), 2), 2);
    QVERIFY(doc->duplicatePlan(0));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("evaluated.fleet"));
    QCOMPARE(doc->saveAndWait(path), QString());
    importers::FleetDocument back = importers::openFleetDocument(path.toStdString());
    QCOMPARE(back.plans.size(), std::size_t(2));
    for (const importers::DocumentPlan& p : back.plans) {
        QVERIFY2(!p.evaluationJson.empty(), p.name.c_str());
        const QJsonObject evaluation = QJsonDocument::fromJson(QByteArray::fromStdString(p.evaluationJson)).object();
        QCOMPARE(evaluation.value(QStringLiteral("plan")).toString(), QString::fromStdString(p.name));
    }

    // An old saved time (a document saved long ago), opened, one plan renamed, saved again.
    back.plans[0].savedAt = back.plans[1].savedAt = "2020-01-02T03:04:05Z";
    importers::OutputFileOptions options;
    options.replacesDocument = true;
    importers::saveFleetDocument(back, path.toStdString(), options);
    auto reopened = std::make_unique<app::MainWindow>();
    reopened->show();
    QVERIFY(QTest::qWaitForWindowExposed(reopened.get()));
    QSignalSpy shown(reopened.get(), &app::MainWindow::clusterShown);
    reopened->openFiles({ path });
    QVERIFY(shown.wait(30000));
    QTRY_COMPARE_WITH_TIMEOUT(reopened->document()->currentPlan(), 0, 30000);
    QVERIFY(reopened->document()->renamePlan(1, QStringLiteral("renamed")));
    QCOMPARE(reopened->document()->saveAndWait(path), QString());
    const importers::FleetDocument again = importers::openFleetDocument(path.toStdString());
    QCOMPARE(again.plans[0].savedAt, std::string("2020-01-02T03:04:05Z")); // unchanged: as it was
    QVERIFY2(again.plans[1].savedAt != "2020-01-02T03:04:05Z", again.plans[1].savedAt.c_str());
    QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(again.plans[1].evaluationJson)).object().value(QStringLiteral("plan")).toString(),
        QStringLiteral("renamed"));
    window->undoStack()->setClean();
}

// Open Recent: two sources whose files have the same name (a user's cluster.json from two
// folders) read apart by their folders; a name met once stays short.
void TestWindowDocument::recentLabelsTellSameNamedSourcesApart()
{
    const QList<QStringList> sources { { QStringLiteral("/a/small-cluster.json") }, { QStringLiteral("/b/small-cluster.json") },
        { QStringLiteral("/c/other.json"), QStringLiteral("/c/pods.json") } };
    const QStringList labels = app::recentSourceLabels(sources);
    QCOMPARE(labels.size(), 3);
    QCOMPARE(labels.at(0), QStringLiteral("small-cluster.json (/a)"));
    QCOMPARE(labels.at(1), QStringLiteral("small-cluster.json (/b)"));
    QCOMPARE(labels.at(2), QStringLiteral("other.json + pods.json"));
}

// A click on a row of the Plans list shows that plan, as a list of documents or tabs does
// (a trial saw the row highlighted and the plan not shown); so do the arrow keys, and a row
// passed over while another plan opens gives way to the last one asked for. A right-click only
// picks the row its context menu acts on.
void TestWindowDocument::plansListClickAndArrowKeysShowThePlan()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::WindowDocument* doc = window->document();
    QCOMPARE(drainSome(window->planController(), 2), 2);
    QVERIFY(doc->newPlan());
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QVERIFY(doc->newPlan());
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 2, 30000);
    auto* dock = window->findChild<QDockWidget*>(QStringLiteral("plansDock"));
    auto* list = window->findChild<QListWidget*>(QStringLiteral("plansList"));
    QVERIFY(dock && list);
    dock->show();
    QTRY_VERIFY(list->isVisible());
    QCOMPARE(list->currentRow(), 2);

    const auto rowCentre = [list](int row) { return list->visualItemRect(list->item(row)).center(); };
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rowCentre(0));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 0, 30000);
    QCOMPARE(shownActions(*window), std::size_t(2));
    QCOMPARE(list->currentRow(), 0);
    QVERIFY(list->item(0)->font().bold());

    list->setFocus();
    QTest::keyClick(list, Qt::Key_Down);
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QCOMPARE(shownActions(*window), std::size_t(0));

    // Up, then Down twice at once: rows passed while another opens; the last one is shown.
    QTest::keyClick(list, Qt::Key_Up);
    QTest::keyClick(list, Qt::Key_Down);
    QTest::keyClick(list, Qt::Key_Down);
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 2, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(list->currentRow(), 2, 5000);
    QVERIFY(list->item(2)->font().bold());

    QTest::mousePress(list->viewport(), Qt::RightButton, {}, rowCentre(0));
    QTest::mouseRelease(list->viewport(), Qt::RightButton, {}, rowCentre(0));
    QCoreApplication::processEvents();
    QCOMPARE(doc->currentPlan(), 2);
    QVERIFY(!window->planController()->isOpeningPlan());
    window->undoStack()->setClean();
}

// Showing another plan of the document is not an edit: Undo after a switch does not empty the
// plan shown (a trial saw "Undone: Open plan Plan 1." empty the dock). The plan shown starts
// with an empty, clean history; its own edits are undone from there. File > Open Plan stays
// one undo step. The document stays modified while a plan left holds unsaved work.
void TestWindowDocument::switchingPlansIsNoUndoStep()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::WindowDocument* doc = window->document();
    QUndoStack* stack = window->undoStack();
    QCOMPARE(drainSome(window->planController(), 2), 2);
    QVERIFY(doc->newPlan());
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QVERIFY(doc->switchToPlan(0));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 0, 30000);
    QCOMPARE(shownActions(*window), std::size_t(2));
    QVERIFY2(!stack->canUndo(), qPrintable(stack->undoText()));
    QCOMPARE(stack->count(), 0);
    QVERIFY(stack->isClean());
    QVERIFY(doc->isModified()); // plan 1's two drains are saved nowhere
    QVERIFY(window->isWindowModified());

    QCOMPARE(drainSome(window->planController(), 1, 120), 1);
    QVERIFY(stack->canUndo());
    stack->setIndex(0); // every edit since the switch undone: the plan as it was shown
    QCOMPARE(shownActions(*window), std::size_t(2));
    QVERIFY(!stack->canUndo());

    // A plan file opened into the plan shown is one undo step (it replaces the plan's actions).
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("one.json"));
    QCOMPARE(doc->exportPlan(0, file), QString());
    QSignalSpy opened(window->planOpener(), &app::PlanOpener::finished);
    // The drain undone, which Redo could bring back and no file holds, would go with the plan
    // replaced: asked first, though the plan is at its clean state (Discard).
    bool asked = false;
    whenShown([&asked](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        if (!box || box->objectName() != QStringLiteral("unsavedRedoBox"))
            return;
        asked = true;
        box->button(QMessageBox::Discard)->click();
    });
    QVERIFY(window->openPlanFile(file));
    QVERIFY(asked);
    QVERIFY(opened.wait(30000));
    QVERIFY(opened.last().at(0).toBool());
    QCOMPARE(stack->count(), 1);
    QVERIFY2(stack->undoText().startsWith(QStringLiteral("Open plan")), qPrintable(stack->undoText()));
    stack->setClean();
}

// Ctrl+Z while another plan opens is refused, and said: the refusal is short enough to be read
// whole in the status bar (it was cut in its middle), and the message that the plan opened,
// which may follow within a frame, says the undo was not done instead of replacing it unsaid.
void TestWindowDocument::undoKeyWhileAPlanOpensIsSaidAndStaysSaid()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    app::WindowDocument* doc = window->document();
    QCOMPARE(drainSome(plan, 3), 3);
    QVERIFY(doc->duplicatePlan(0));
    QVERIFY(doc->renamePlan(1, QStringLiteral("Spot consolidation east")));
    const int undoIndex = window->undoStack()->index();
    QSignalSpy said(plan, &app::PlanController::messageShown);
    QVERIFY(doc->switchToPlan(1));
    QVERIFY(plan->isOpeningPlan());
    window->mapView()->setFocus();
    QTest::keyClick(window->mapView(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(!said.isEmpty());
    const QString refusal = said.last().at(0).toString();
    QCOMPARE(refusal, QStringLiteral("Undo not done: the plan Spot consolidation east is being opened."));
    QCOMPARE(window->undoStack()->index(), undoIndex);
    auto* field = window->findChild<app::StatusField*>(QStringLiteral("planStatus"));
    QVERIFY(field);
    QCOMPARE(field->text(), refusal);
    // Whole in the room the status bar gives it (40 % of the bar, at the window's width), not
    // cut in its middle; the plan may open before the bar is laid out again, hence the widths.
    QCOMPARE(app::StatusField::fitText(app::planMessageVariants(refusal), field->fontMetrics(), field->maximumWidth()), refusal);
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    const QString opened = said.last().at(0).toString();
    QVERIFY2(opened.startsWith(QStringLiteral("Opened plan")), qPrintable(opened));
    QVERIFY2(opened.endsWith(QStringLiteral("Undo asked for while it opened was not done.")), qPrintable(opened));
    QCOMPARE(window->planStatusText(), opened);

    // The next open, with nothing refused meanwhile, says only that it opened.
    QVERIFY(doc->switchToPlan(0));
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 0, 30000);
    QVERIFY2(!said.last().at(0).toString().contains(QStringLiteral("not done")), qPrintable(said.last().at(0).toString()));
    window->undoStack()->setClean();
}

// An open that fails keeps the document shown, and the banner names it as it is now: after a
// Save As, by its new file ("west.fleet (simulated ...)"), not the name it was opened under.
// A window that never showed a cluster (its first open failed) says its search has nothing to
// search, not "Indexing names…" for an index that never comes.
void TestWindowDocument::importFailedNamesTheDocumentAsSaved()
{
    QTemporaryDir dir;
    const QString east = dir.filePath(QStringLiteral("east.fleet"));
    {
        auto source = openWindow(240, 3);
        QVERIFY(source);
        QCOMPARE(source->document()->saveAndWait(east), QString());
    }
    const QString bad = dir.filePath(QStringLiteral("bad.fleet"));
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("hello world, not a fleet\n") > 0);
    }
    auto window = std::make_unique<app::MainWindow>();
    window->setLogImportErrors(false);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    auto* search = window->findChild<views::SearchField*>();
    QVERIFY(search);
    QLineEdit* field = search->findChild<QLineEdit*>();
    QVERIFY(field);
    QSignalSpy failed(window.get(), &app::MainWindow::importFailed);
    window->openFiles({ bad });
    QVERIFY(failed.wait(30000));
    QCOMPARE(field->placeholderText(), QStringLiteral("No cluster to search"));
    QVERIFY(!field->isEnabled());

    QSignalSpy shown(window.get(), &app::MainWindow::clusterShown);
    window->openFiles({ east });
    QVERIFY(shown.wait(30000));
    const QString west = dir.filePath(QStringLiteral("west.fleet"));
    QCOMPARE(window->document()->saveAndWait(west), QString());
    window->openFiles({ bad });
    QVERIFY(failed.wait(30000));
    QVERIFY2(window->errorText().contains(QStringLiteral("The previous cluster (west.fleet (")), qPrintable(window->errorText()));
    QVERIFY2(!window->errorText().contains(QStringLiteral("east.fleet")), qPrintable(window->errorText()));
}

// The window's Save writes through the same writer as `save -o`: a document the user
// write-protected is not replaced, and the error says so; the document stays unsaved.
void TestWindowDocument::saveRefusesAWriteProtectedDocument()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("protected.fleet"));
    QCOMPARE(window->document()->saveAndWait(path), QString());
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0444) == 0);
    QFile before(path);
    QVERIFY(before.open(QIODevice::ReadOnly));
    const QByteArray previous = before.readAll();
    before.close();
    QCOMPARE(drainSome(window->planController(), 1), 1);
    const QString error = window->document()->saveAndWait(path);
    QVERIFY2(error.contains(QStringLiteral("it is write-protected (mode 0444)")) && error.contains(QStringLiteral("the previous file is unchanged")),
        qPrintable(error));
    QVERIFY(window->document()->isModified());
    QFile after(path);
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), previous);
    window->undoStack()->setClean();
}

void TestWindowDocument::cancelledSaveKeepsThePreviousFile()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::WindowDocument* doc = window->document();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("kept.fleet"));
    QCOMPARE(drainSome(window->planController(), 2), 2);
    QCOMPARE(doc->saveAndWait(path), QString());
    const QByteArray previous = [&] {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }();
    QVERIFY(!previous.isEmpty());
    const timeval past[2] { { 1000000000, 0 }, { 1000000000, 0 } };
    QVERIFY(::utimes(QFile::encodeName(path).constData(), past) == 0);
    struct stat before { };
    QVERIFY(::stat(QFile::encodeName(path).constData(), &before) == 0);

    QCOMPARE(drainSome(window->planController(), 1, 60), 1);
    QVERIFY(doc->isModified());
    auto cancelWith = [&](const QString& target) {
        QSignalSpy saved(doc, &app::WindowDocument::saved);
        QSignalSpy failed(doc, &app::WindowDocument::saveFailed);
        if (!doc->saveTo(target))
            return QStringLiteral("not started");
        // The progress dialog's own Cancel button, as the user presses it.
        auto* progress = window->findChild<QProgressDialog*>(QStringLiteral("saveDocumentProgress"));
        QPushButton* cancel = progress ? progress->findChild<QPushButton*>() : nullptr;
        if (!cancel || cancel->text() != QStringLiteral("Cancel"))
            return QStringLiteral("no Cancel button");
        cancel->click();
        if (!failed.wait(60000) || !saved.isEmpty())
            return QStringLiteral("not cancelled");
        return failed.first().first().toString();
    };
    const QString error = cancelWith(path);
    QVERIFY2(error.contains(QStringLiteral("cancelled")), qPrintable(error));
    QVERIFY(!doc->isSaving());
    QVERIFY(doc->isModified());
    QVERIFY(window->isWindowModified());
    QCOMPARE(doc->path(), path);
    QFile after(path);
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), previous);
    struct stat now { };
    QVERIFY(::stat(QFile::encodeName(path).constData(), &now) == 0);
    QCOMPARE(now.st_ino, before.st_ino);
    QCOMPARE(now.st_mtim.tv_sec, before.st_mtim.tv_sec);
    QCOMPARE(now.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    // Save As to a new file, cancelled: no file, and the document is still the first one.
    const QString other = dir.filePath(QStringLiteral("other.fleet"));
    QVERIFY(cancelWith(other).contains(QStringLiteral("cancelled")));
    QCOMPARE(doc->path(), path);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList { QStringLiteral("kept.fleet") });
    // The next save goes through.
    QCOMPARE(doc->saveAndWait(path), QString());
    QVERIFY(!doc->isModified());
    QCOMPARE(actionsIn(importers::openFleetDocument(path.toStdString()).plans.at(0)), std::size_t(3));
}

void TestWindowDocument::fileDialogsStartInTheFolderLastUsed()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    QTemporaryDir dir;
    const QString folder = QFileInfo(dir.path()).canonicalFilePath();
    QSettings().remove(QLatin1String(app::kLastFileFolderKey));
    QCOMPARE(app::lastFileFolder(), QString());
    // Whatever dialog opens next: its folder and file name, then `path` chosen ("" to cancel).
    QString shownFolder, shownFile;
    auto answerDialog = [&](const QString& path) {
        QTimer::singleShot(0, this, [&shownFolder, &shownFile, path] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!dialog) {
                shownFolder = QStringLiteral("no file dialog");
                return;
            }
            shownFolder = QFileInfo(dialog->directory().absolutePath()).canonicalFilePath();
            shownFile = dialog->selectedFiles().value(0);
            if (path.isEmpty()) {
                dialog->reject();
                return;
            }
            dialog->selectFile(path);
            static_cast<QDialog*>(dialog)->accept();
        });
    };
    // Save Document: the first choice, from the working folder, remembers the folder chosen.
    QCOMPARE(drainSome(window->planController(), 1), 1);
    const QString document = QDir(folder).filePath(QStringLiteral("first.fleet"));
    answerDialog(document);
    QVERIFY(window->document()->saveAs(true));
    QCOMPARE(window->document()->path(), document);
    QCOMPARE(QFileInfo(app::lastFileFolder()).canonicalFilePath(), folder);
    // Export Report starts there, with its own file name.
    answerDialog({});
    window->findChild<QAction*>(QStringLiteral("actionExportReport"))->trigger();
    QCOMPARE(shownFolder, folder);
    QCOMPARE(QFileInfo(shownFile).fileName(), QStringLiteral("report.pdf"));
    // A new cluster (no document): Save As starts in the folder last used, not the working one.
    auto second = openWindow(240, 4);
    QVERIFY(second);
    QCOMPARE(drainSome(second->planController(), 1), 1);
    shownFolder.clear();
    answerDialog({});
    QVERIFY(!second->document()->saveAs(true));
    QCOMPARE(shownFolder, folder);
    QCOMPARE(QFileInfo(shownFile).fileName(), QStringLiteral("cluster.fleet"));
    // A folder removed since: the dialog starts where Qt's does.
    QSettings().setValue(QLatin1String(app::kLastFileFolderKey), QDir(folder).filePath(QStringLiteral("gone")));
    QCOMPARE(app::lastFileFolder(), QString());
    QCOMPARE(app::fileDialogStart(QStringLiteral("plan.json")), QStringLiteral("plan.json"));
    QSettings().remove(QLatin1String(app::kLastFileFolderKey));
    window->undoStack()->setClean();
    second->undoStack()->setClean();
}

void TestWindowDocument::reportNamesThePlanAsThePlansListDoes()
{
    const QString missing = fleet::tests::missingPopplerTools({ "pdftotext" });
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::WindowDocument* doc = window->document();
    QSignalSpy opened(window->planOpener(), &app::PlanOpener::finished);
    QVERIFY(doc->newPlan());
    QVERIFY(opened.wait(30000));
    QCOMPARE(doc->plans().at(static_cast<std::size_t>(doc->currentPlan())).name, std::string("Plan 2"));
    QCOMPARE(drainSome(window->planController(), 2), 2);
    auto* exporter = window->findChild<app::ReportExporter*>();
    QTemporaryDir dir;
    auto reportText = [&](const QString& name) {
        const QString pdf = dir.filePath(name);
        QSignalSpy finished(exporter, &app::ReportExporter::finished);
        if (!exporter->exportTo(pdf) || !finished.wait(120000) || !finished.first().first().toBool())
            return QStringLiteral("not exported: ") + exporter->lastMessage();
        return fleet::tests::pdfText(pdf);
    };
    // No document file: the plan's name in the Plans list.
    QString text = reportText(QStringLiteral("unsaved.pdf"));
    QVERIFY2(text.contains(QStringLiteral("Plan review: Plan 2")), qPrintable(text.left(1500)));
    QVERIFY2(!text.contains(QStringLiteral("the window's plan")), qPrintable(text.left(1500)));
    // Saved as a document: as `fleetscope report doc.fleet --plan "Plan 2"` names it.
    const QString path = dir.filePath(QStringLiteral("doc.fleet"));
    QCOMPARE(doc->saveAndWait(path), QString());
    text = reportText(QStringLiteral("saved.pdf"));
    QVERIFY2(text.contains(QStringLiteral("Plan review: doc.fleet:Plan 2")), qPrintable(text.left(1500)));
    QVERIFY(!text.contains(QStringLiteral("the window's plan")));
}

int main(int argc, char** argv)
{
    // the tests close and show the window again
    return fleet::testing::runGuiTest<TestWindowDocument>(argc, argv, &fleet::app::setDefaultSurfaceFormat, { .quitOnLastWindowClosed = false });
}

#include "tst_windowdocument.moc"
