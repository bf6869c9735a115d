// SPDX-License-Identifier: Apache-2.0
// The autosave of the plans with unsaved work (app/window/planautosave.h), under xvfb-run on a small simulated
// cluster, with real files in the test-mode data folder:
// - written after a change within the interval, as a plan file with every action, removed once
//   the plan is empty again and by a clean close;
// - a leftover whose lock is free is offered ("Recover Plan"): Recover adds it to the
//   document's plans, shown, the document modified, and the leftover is removed; one whose lock
//   a running window holds is not offered; a declined one is removed.
// - never written while a large step is undone or redone in slices (part of it in the engine);
//   the step's end is.
// The real crash (kill -9 of the process) is tst_e2e_document's.

#include "planwindowfixture.h"

#include "app/commands/planstepcommand.h"
#include "app/controllers/plansteprunner.h"
#include "app/startup/surfaceformat.h"
#include "app/window/planautosave.h"
#include "app/window/windowdocument.h"
#include "importers/output/outputfile.h"
#include "importers/plan/planfile.h"

#include "common/guitestmain.h"
#include "common/privateuserfolders.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QUndoStack>

#include <algorithm>
#include <functional>
#include <memory>
#include <tuple>

using namespace fleet;
using namespace planwindow;

namespace {

int drainSome(app::PlanController* plan, int count)
{
    int drained = 0;
    const model::ClusterStore& store = *plan->store();
    for (std::uint32_t i = 0; i < store.nodeCount() && drained < count; ++i) {
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

/// The plan's name in an autosave's .about file; "" when there is none.
QString aboutPlan(const QString& path)
{
    QFile about(path);
    return about.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(about.readAll()).object().value(QStringLiteral("plan")).toString() : QString();
}

std::size_t actionsInFile(const QString& path)
{
    try {
        return importers::readPlanFile(path.toStdString()).actions.size();
    } catch (const std::exception&) {
        return 0;
    }
}

/// A plan file's text (importers::planJson()) of `drains` drains that hold, made in a window of
/// its own on the simulated fleet of 240 nodes (seed 3), as an autosave holds it; "" on failure.
std::string planMadeOnTheFleet(int drains)
{
    auto maker = openWindow(240, 3);
    if (!maker || drainSome(maker->planController(), drains) != drains)
        return {};
    importers::PlanDocument plan;
    plan.source = maker->planSource();
    for (const model::AppliedAction& a : maker->planController()->engine()->applied())
        plan.actions.push_back(a.action);
    maker->undoStack()->setClean();
    return importers::planJson(plan);
}

} // namespace

class TestPlanAutosave : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void writesTheChangedPlanAndRemovesItOnCleanClose();
    void offersALeftoverWhoseOwnerIsGone();
    void waitsForASlicedStep();
    void removesTheStaleLockOfAWindowThatNeverAutosaved();
    void keepsALeftoverOfAnotherClusterForLater();
    void aSavedDocumentLeavesNoAutosave();
    void everyPlanWithUnsavedWorkIsAutosavedAndOffered();
    void anUndoBackToTheSavedStateRemovesTheAutosave();
    void theFirstPlanRecoveredIsShown_data();
    void theFirstPlanRecoveredIsShown();

private:
    fleet::testing::PrivateUserFolders m_folders;
};

void TestPlanAutosave::initTestCase()
{
    // A data folder of this run's own: the autosave folder of another run of this test beside
    // it (another checkout's ctest) had its files removed here, and its leftovers offered.
    QVERIFY(m_folders.activate());
    QVERIFY(app::PlanAutosave::folder().startsWith(m_folders.path()));
}

void TestPlanAutosave::writesTheChangedPlanAndRemovesItOnCleanClose()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    auto* autosave = new app::PlanAutosave(window.get(), window->planController(), window->document());
    QSignalSpy written(autosave, &app::PlanAutosave::autosaved);
    autosave->start(100);
    QVERIFY(!written.wait(400)); // nothing changed: nothing written
    QVERIFY(!QFile::exists(autosave->filePath()));

    QCOMPARE(drainSome(window->planController(), 2), 2);
    QVERIFY(written.wait(30000));
    QCOMPARE(written.takeLast().at(0).toInt(), 2);
    QCOMPARE(actionsInFile(autosave->filePath()), std::size_t(2));
    // Beside it, which plan of which document (none here) it is.
    {
        QFile about(autosave->aboutPath());
        QVERIFY(about.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(about.readAll()).object();
        QCOMPARE(o.value(QStringLiteral("plan")).toString(), QString::fromStdString(window->document()->plans()[0].name));
        QCOMPARE(o.value(QStringLiteral("document")).toString(), QString());
    }
    QVERIFY(QFile::exists(QDir(app::PlanAutosave::folder()).filePath(QStringLiteral("plan-%1.lock").arg(QCoreApplication::applicationPid()))));

    window->undoStack()->setIndex(0); // every drain undone (a drain that did not hold was removed by a command of its own)
    QCOMPARE(window->planController()->engine()->applied().size(), std::size_t(0));
    // A write of the two actions may still be on its way: the last one written is the empty plan.
    QTRY_VERIFY_WITH_TIMEOUT(!written.isEmpty() && written.last().at(0).toInt() == 0, 30000);
    QVERIFY(!QFile::exists(autosave->filePath()));

    QCOMPARE(drainSome(window->planController(), 1), 1);
    // Not the next write reported: a second removal, asked by the undo back to the clean state
    // while the first ran, may report after the drain, its file already gone.
    QTRY_COMPARE_WITH_TIMEOUT(actionsInFile(autosave->filePath()), std::size_t(1), 30000);
    autosave->closedCleanly();
    QVERIFY(!QFile::exists(autosave->filePath()));
    QCOMPARE(QDir(app::PlanAutosave::folder()).entryList(QDir::Files), QStringList());
    window->undoStack()->setClean();
}

void TestPlanAutosave::offersALeftoverWhoseOwnerIsGone()
{
    // Two leftovers: one whose window is gone (no lock held), one whose window "runs" (its lock
    // held here, as a running process holds it). A plan made on the same fleet, saved as a file.
    const QDir folder(app::PlanAutosave::folder());
    QVERIFY(folder.mkpath(QStringLiteral(".")));
    const std::string planText = planMadeOnTheFleet(3);
    QVERIFY(!planText.empty());
    const QString gone = folder.filePath(QStringLiteral("plan-999991.json"));
    const QString running = folder.filePath(QStringLiteral("plan-999992.json"));
    importers::writeOutputFile(gone.toStdString(), planText);
    importers::writeOutputFile(running.toStdString(), planText);
    // The running one says which plan of which document it is (its .about file), with a name
    // that must be shown as text, not interpreted.
    importers::writeOutputFile(folder.filePath(QStringLiteral("plan-999991.about")).toStdString(), R"({"plan": "Consolidation", "document": ""})");
    const QString runningAbout = folder.filePath(QStringLiteral("plan-999992.about"));
    importers::writeOutputFile(runningAbout.toStdString(),
        R"({"plan": "<b>Spot</b> consolidation", "document": "/srv/plans/fleet-east.fleet"})");
    QLockFile held(folder.filePath(QStringLiteral("plan-999992.lock")));
    QVERIFY(held.tryLock(0));

    int asked = 0;
    auto answerRecover = [&asked] {
        whenShown([&asked](QWidget* w) {
            auto* box = qobject_cast<QMessageBox*>(w);
            if (!box || box->objectName() != QStringLiteral("recoverPlanBox"))
                return;
            ++asked;
            QVERIFY2(box->text().contains(QStringLiteral("Recover the plan \u201cConsolidation\u201d from ")), qPrintable(box->text()));
            QVERIFY(box->text().contains(QStringLiteral("(3 actions)")));
            box->button(QMessageBox::Yes)->click();
        });
    };
    auto window = std::make_unique<app::MainWindow>();
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    auto* autosave = new app::PlanAutosave(window.get(), window->planController(), window->document());
    autosave->start(60000);
    answerRecover();
    QSignalSpy shown(window.get(), &app::MainWindow::clusterShown);
    window->openSimulated(240, 3);
    QVERIFY(shown.wait(30000));
    app::WindowDocument* doc = window->document();
    QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
    QCOMPARE(asked, 1); // the running window's plan is not offered
    QCOMPARE(doc->plans().size(), std::size_t(2));
    QVERIFY2(QString::fromStdString(doc->plans()[1].name).startsWith(QStringLiteral("Consolidation (recovered ")), doc->plans()[1].name.c_str());
    QCOMPARE(window->planController()->engine()->applied().size(), std::size_t(3));
    QVERIFY(doc->isModified()); // recovered, not saved anywhere
    QVERIFY(!QFile::exists(gone));
    QVERIFY(!QFile::exists(folder.filePath(QStringLiteral("plan-999991.lock"))));
    QVERIFY(!QFile::exists(folder.filePath(QStringLiteral("plan-999991.about"))));
    QVERIFY(QFile::exists(running));

    // The running one's window is gone now: the next window offers it; Discard removes it.
    held.unlock();
    auto next = std::make_unique<app::MainWindow>();
    next->show();
    QVERIFY(QTest::qWaitForWindowExposed(next.get()));
    auto* nextAutosave = new app::PlanAutosave(next.get(), next->planController(), next->document());
    nextAutosave->start(60000);
    bool declined = false;
    whenShown([&declined](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        if (!box || box->objectName() != QStringLiteral("recoverPlanBox"))
            return;
        declined = true;
        QCOMPARE(box->textFormat(), Qt::PlainText);
        QVERIFY2(box->text().contains(QStringLiteral("\u201c<b>Spot</b> consolidation\u201d of fleet-east.fleet from ")), qPrintable(box->text()));
        box->button(QMessageBox::No)->click();
    });
    QSignalSpy nextShown(next.get(), &app::MainWindow::clusterShown);
    next->openSimulated(240, 3);
    QVERIFY(nextShown.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(declined, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(running), 30000);
    QVERIFY(!QFile::exists(runningAbout));
    QCOMPARE(next->document()->plans().size(), std::size_t(1));
    QVERIFY(!next->document()->isModified());
    window->undoStack()->setClean();
}

void TestPlanAutosave::waitsForASlicedStep()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    app::PlanController* plan = window->planController();
    auto* autosave = new app::PlanAutosave(window.get(), plan, window->document());
    QSignalSpy written(autosave, &app::PlanAutosave::autosaved);
    autosave->start(app::PlanAutosave::kDefaultIntervalMs); // its writes asked for below
    std::vector<model::NodeId> nodes;
    for (std::uint32_t i = 0; i < plan->store()->nodeCount() && nodes.size() < 2 * app::PlanStepCommand::kSlicedChildren; ++i)
        if (!plan->store()->nodePods(model::NodeId(i)).empty())
            nodes.push_back(model::NodeId(i));
    QVERIFY(plan->drainNodes(nodes));
    const std::size_t actions = plan->engine()->applied().size();
    QVERIFY(actions >= std::size_t(app::PlanStepCommand::kSlicedChildren));
    autosave->saveIfChanged();
    QTRY_COMPARE_WITH_TIMEOUT(written.count(), 1, 30000);
    QCOMPARE(written.takeFirst().at(0).toInt(), static_cast<int>(actions));

    plan->stepRunner()->setMaxChildrenPerSlice(1); // a slice per turn of the loop: the step spans many
    window->undoStack()->undo();
    QVERIFY(plan->isBusy());
    QTRY_VERIFY(plan->engine()->applied().size() < actions); // part of the step undone
    autosave->saveIfChanged(); // the timer's work, in the middle of the step
    QTRY_VERIFY_WITH_TIMEOUT(!plan->isBusy(), 30000);
    // After the step, the plan it leaves (asked again while a write started above still runs:
    // saveIfChanged() waits for it); every write reported before it was of a whole plan.
    QTRY_VERIFY_WITH_TIMEOUT((autosave->saveIfChanged(), !written.isEmpty() && written.last().at(0).toInt() == 0), 30000);
    for (const QList<QVariant>& w : written)
        QVERIFY2(w.at(0).toInt() == 0, qPrintable(QStringLiteral("an autosave of %1 of the step's %2 actions").arg(w.at(0).toInt()).arg(actions)));
    autosave->closedCleanly();
    window->undoStack()->setClean();
}

// A window killed before its first autosave leaves its lock alone (no plan beside it): the next
// start removes it (its process is gone: QLockFile's own check), and keeps the lock of a window
// that runs. The stale lock is this process's own, its PID that of a process that has ended.
void TestPlanAutosave::removesTheStaleLockOfAWindowThatNeverAutosaved()
{
    const QDir folder(app::PlanAutosave::folder());
    QVERIFY(folder.mkpath(QStringLiteral(".")));
    QProcess ended;
    ended.start(QStringLiteral("true"), {});
    QVERIFY(ended.waitForStarted());
    const QString deadPid = QString::number(ended.processId());
    QVERIFY(ended.waitForFinished());
    QByteArray lockBytes;
    {
        QLockFile mine(folder.filePath(QStringLiteral("mine.lock")));
        QVERIFY(mine.tryLock(0));
        QFile f(folder.filePath(QStringLiteral("mine.lock")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        lockBytes = f.readAll();
        mine.unlock();
    }
    // QLockFile's format: the PID on the first line, then the application and the host.
    lockBytes = deadPid.toLatin1() + lockBytes.mid(lockBytes.indexOf('\n'));
    const QString stale = folder.filePath(QStringLiteral("plan-%1.lock").arg(deadPid));
    importers::writeOutputFile(stale.toStdString(), lockBytes.toStdString());
    const QString staleAbout = folder.filePath(QStringLiteral("plan-%1.about").arg(deadPid));
    importers::writeOutputFile(staleAbout.toStdString(), R"({"plan": "Plan 1", "document": ""})");
    QLockFile running(folder.filePath(QStringLiteral("plan-999993.lock")));
    QVERIFY(running.tryLock(0));

    auto window = std::make_unique<app::MainWindow>();
    auto* autosave = new app::PlanAutosave(window.get(), window->planController(), window->document());
    autosave->start(60000);
    QVERIFY(!QFile::exists(stale));
    QVERIFY(!QFile::exists(staleAbout));
    QVERIFY(QFile::exists(folder.filePath(QStringLiteral("plan-999993.lock"))));
    QVERIFY(QFile::exists(folder.filePath(QStringLiteral("plan-%1.lock").arg(QCoreApplication::applicationPid()))));
    autosave->closedCleanly();
    running.unlock();
}

void TestPlanAutosave::keepsALeftoverOfAnotherClusterForLater()
{
    // A leftover made on the simulated fleet of 240 nodes (seed 3), found while another fleet
    // (200 nodes) is shown: the question says so and offers Keep for Later, which leaves the
    // files; once the plan's own fleet is shown, it is offered again, as its own.
    const QDir folder(app::PlanAutosave::folder());
    QVERIFY(folder.mkpath(QStringLiteral(".")));
    const std::string planText = planMadeOnTheFleet(2);
    QVERIFY(!planText.empty());
    const QString leftover = folder.filePath(QStringLiteral("plan-999993.json"));
    importers::writeOutputFile(leftover.toStdString(), planText);

    QString informative;
    bool kept = false;
    whenShown([&](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        if (!box || box->objectName() != QStringLiteral("recoverPlanBox"))
            return;
        informative = box->informativeText();
        auto* later = box->findChild<QPushButton*>(QStringLiteral("recoverLater"));
        if (!later)
            return;
        kept = true;
        later->click();
    });
    auto window = std::make_unique<app::MainWindow>();
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    auto* autosave = new app::PlanAutosave(window.get(), window->planController(), window->document());
    autosave->start(60000);
    QSignalSpy shown(window.get(), &app::MainWindow::clusterShown);
    window->openSimulated(200, 3);
    QVERIFY(shown.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(!informative.isEmpty(), 30000);
    QVERIFY2(informative.contains(QStringLiteral("not the one it was made on")), qPrintable(informative));
    QVERIFY2(kept, qPrintable(informative));
    QVERIFY(QFile::exists(leftover));
    QCOMPARE(window->document()->plans().size(), std::size_t(1));

    // The plan's own fleet: offered again, as made on it.
    informative.clear();
    bool recovered = false;
    whenShown([&](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        if (!box || box->objectName() != QStringLiteral("recoverPlanBox"))
            return;
        informative = box->informativeText();
        if (box->findChild<QPushButton*>(QStringLiteral("recoverLater")))
            return; // still called another cluster: the check below fails
        recovered = true;
        box->button(QMessageBox::Yes)->click();
    });
    QSignalSpy shownAgain(window.get(), &app::MainWindow::clusterShown);
    window->openSimulated(240, 3);
    QVERIFY(shownAgain.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(!informative.isEmpty(), 30000);
    QVERIFY2(recovered, qPrintable(informative));
    QVERIFY2(informative.startsWith(QStringLiteral("It was made on simulated cluster nodes=240 seed=3")), qPrintable(informative));
    QTRY_COMPARE_WITH_TIMEOUT(window->planController()->engine()->applied().size(), std::size_t(2), 30000);
    QVERIFY(!QFile::exists(leftover));
    window->undoStack()->setClean();
}

// The autosave holds unsaved work only: once the document is saved, the file goes (a crash after
// the save offered the saved plan again, or one deleted from the document since); a change after
// the save is written again.
void TestPlanAutosave::aSavedDocumentLeavesNoAutosave()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    auto* autosave = new app::PlanAutosave(window.get(), window->planController(), window->document());
    QSignalSpy written(autosave, &app::PlanAutosave::autosaved);
    autosave->start(100);
    QCOMPARE(drainSome(window->planController(), 2), 2);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave->filePath()), 30000);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("saved.fleet"));
    QCOMPARE(window->document()->saveAndWait(path), QString());
    QVERIFY(!window->document()->isModified());
    // The worker removes the plan file, then its about file: wait for both.
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(autosave->filePath()) && !QFile::exists(autosave->aboutPath()), 30000);
    QCOMPARE(drainSome(window->planController(), 1), 1);
    QTRY_VERIFY_WITH_TIMEOUT(actionsInFile(autosave->filePath()) == 3, 30000);
    {
        QFile about(autosave->aboutPath());
        QVERIFY(about.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(about.readAll()).object().value(QStringLiteral("document")).toString(), QFileInfo(path).absoluteFilePath());
    }
    autosave->closedCleanly();
    window->undoStack()->setClean();
}

// Every plan of the document with unsaved work is autosaved, not only the one on screen (a trial
// lost the edits of a plan left for another): the shown one in plan-PID.json, each other one in
// plan-PID-K.json, each with its .about. After a crash (the files left by a process that is
// gone) each is offered back; the ones recovered while the first opens join the list. A save
// of the document removes the files of the plans it wrote.
void TestPlanAutosave::everyPlanWithUnsavedWorkIsAutosavedAndOffered()
{
    const QDir folder(app::PlanAutosave::folder());
    const QString deadPid = QStringLiteral("999981");
    {
        auto window = openWindow(240, 3);
        QVERIFY(window);
        app::WindowDocument* doc = window->document();
        auto* autosave = new app::PlanAutosave(window.get(), window->planController(), doc);
        autosave->start(100);
        QCOMPARE(drainSome(window->planController(), 2), 2);
        QVERIFY(doc->newPlan());
        QTRY_COMPARE_WITH_TIMEOUT(doc->currentPlan(), 1, 30000);
        QVERIFY(doc->renamePlan(0, QStringLiteral("Drain two")));
        // The plan left, not shown, is written beside the shown one (empty: no file of its own).
        const QString pid = QString::number(QCoreApplication::applicationPid());
        const QString other = folder.filePath(QStringLiteral("plan-%1-1.json").arg(pid));
        // One write puts the other plan's file, then removes the shown plan's (written with the
        // two drains before the switch, when the timer came first); the rename reaches its
        // .about file at a later interval than the switch (a write of the plan as "Plan 1" may
        // come first): wait for all three.
        const QString otherAbout = folder.filePath(QStringLiteral("plan-%1-1.about").arg(pid));
        QTRY_VERIFY_WITH_TIMEOUT(actionsInFile(other) == 2 && !QFile::exists(autosave->filePath()) && aboutPlan(otherAbout) == QStringLiteral("Drain two"), 30000);
        QCOMPARE(drainSome(window->planController(), 1), 1);
        QTRY_VERIFY_WITH_TIMEOUT(actionsInFile(autosave->filePath()) == 1, 30000);
        QCOMPARE(actionsInFile(other), std::size_t(2));

        // As a crash leaves them: the files of a process that is gone.
        for (const QString& suffix : { QStringLiteral(".json"), QStringLiteral(".about"), QStringLiteral("-1.json"), QStringLiteral("-1.about") })
            QVERIFY(QFile::copy(folder.filePath(QStringLiteral("plan-%1%2").arg(pid, suffix)), folder.filePath(QStringLiteral("plan-%1%2").arg(deadPid, suffix))));

        // A saved document has no unsaved work: every file goes.
        QTemporaryDir dir;
        QCOMPARE(doc->saveAndWait(dir.filePath(QStringLiteral("both.fleet"))), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(autosave->filePath()) && !QFile::exists(other), 30000);
        autosave->closedCleanly();
    }

    auto window = std::make_unique<app::MainWindow>();
    window->resize(1400, 900);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    auto* autosave = new app::PlanAutosave(window.get(), window->planController(), window->document());
    autosave->start(60000);
    auto questions = std::make_shared<QStringList>();
    auto answer = std::make_shared<std::function<void()>>();
    *answer = [questions, weak = std::weak_ptr<std::function<void()>>(answer)] {
        whenShown([questions, weak](QWidget* w) {
            auto* box = qobject_cast<QMessageBox*>(w);
            if (!box || box->objectName() != QStringLiteral("recoverPlanBox"))
                return;
            *questions << box->text();
            box->button(QMessageBox::Yes)->click();
            if (auto again = weak.lock(); again && questions->size() < 2)
                (*again)();
        });
    };
    (*answer)();
    QSignalSpy shown(window.get(), &app::MainWindow::clusterShown);
    window->openSimulated(240, 3);
    QVERIFY(shown.wait(30000));
    app::WindowDocument* doc = window->document();
    QTRY_COMPARE_WITH_TIMEOUT(questions->size(), 2, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(doc->plans().size(), std::size_t(3), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(doc->currentPlan() >= 1 && !window->planController()->isOpeningPlan(), 30000);
    QVERIFY2(questions->join(QLatin1Char('\n')).contains(QStringLiteral("\u201cDrain two\u201d")), qPrintable(questions->join(QLatin1Char('\n'))));
    std::vector<std::size_t> counts;
    for (std::size_t i = 1; i < doc->plans().size(); ++i)
        counts.push_back(static_cast<int>(i) == doc->currentPlan() ? window->planController()->engine()->applied().size()
                                                                   : importers::parsePlanText(doc->plans()[i].planJson, "recovered").actions.size());
    std::sort(counts.begin(), counts.end());
    QCOMPARE(counts, (std::vector<std::size_t> { 1, 2 }));
    QVERIFY(doc->isModified());
    QCOMPARE(folder.entryList({ QStringLiteral("plan-%1*").arg(deadPid) }, QDir::Files), QStringList());
    autosave->closedCleanly();
    window->undoStack()->setClean();
}

// An undo back to the saved state leaves nothing unsaved: the autosave goes at once, not at the
// next interval (a kill before it offered the undone plan back at the next start). The interval
// here is ten minutes: the file can only go by the undo.
void TestPlanAutosave::anUndoBackToTheSavedStateRemovesTheAutosave()
{
    auto window = openWindow(240, 3);
    QVERIFY(window);
    auto* autosave = new app::PlanAutosave(window.get(), window->planController(), window->document());
    autosave->start(600000);
    QCOMPARE(drainSome(window->planController(), 2), 2);
    QTemporaryDir dir;
    QCOMPARE(window->document()->saveAndWait(dir.filePath(QStringLiteral("saved.fleet"))), QString());
    QVERIFY(!window->document()->isModified());
    const int savedIndex = window->undoStack()->index();
    QCOMPARE(drainSome(window->planController(), 1), 1);
    QVERIFY(window->document()->isModified());
    // The interval's write, asked until it is made: one asked while the removal after the save
    // still runs is left for the next interval (ten minutes here), as the timer would.
    QTRY_VERIFY_WITH_TIMEOUT((autosave->saveIfChanged(), actionsInFile(autosave->filePath()) == 3), 30000);
    window->undoStack()->setIndex(savedIndex);
    QVERIFY(!window->document()->isModified());
    // The worker removes the plan file, then its about file: wait for both.
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(autosave->filePath()) && !QFile::exists(autosave->aboutPath()), 30000);
    // Redone, it is unsaved work again: the next write has it.
    window->undoStack()->setIndex(window->undoStack()->count());
    QVERIFY(window->document()->isModified());
    // The removal's worker may still be returning (its files gone): asked until written.
    QTRY_VERIFY_WITH_TIMEOUT((autosave->saveIfChanged(), actionsInFile(autosave->filePath()) == 3), 30000);
    autosave->closedCleanly();
    window->undoStack()->setClean();
}

// After a crash with several plans left, the plan shown afterwards is the first one the user
// recovered, whenever the later questions are answered: at once, while the first is still being
// opened, or after it is shown (then the second was shown instead, and which one a user saw
// depended on how fast they answered).
void TestPlanAutosave::theFirstPlanRecoveredIsShown_data()
{
    QTest::addColumn<bool>("waitForTheFirst");
    QTest::addColumn<bool>("document");
    QTest::newRow("second answered at once") << false << false;
    QTest::newRow("second answered once the first is shown") << true << false;
    // A document's own plan is being opened as the questions start.
    QTest::newRow("a document's plan opening") << false << true;
}

void TestPlanAutosave::theFirstPlanRecoveredIsShown()
{
    QFETCH(bool, waitForTheFirst);
    QFETCH(bool, document);
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("one-plan.fleet"));
    if (document) {
        // The fleet with one plan of its own (one drain), saved as a document.
        auto maker = openWindow(240, 3);
        QVERIFY(maker);
        QCOMPARE(drainSome(maker->planController(), 1), 1);
        QCOMPARE(maker->document()->saveAndWait(saved), QString());
    }
    const QDir folder(app::PlanAutosave::folder());
    QVERIFY(folder.mkpath(QStringLiteral(".")));
    // Two leftovers of a process that is gone: "Alpha" (2 drains) newer, so asked first, and
    // "Beta" (1 drain).
    const std::string alpha = planMadeOnTheFleet(2);
    const std::string beta = planMadeOnTheFleet(1);
    QVERIFY(!alpha.empty() && !beta.empty());
    const QDateTime now = QDateTime::currentDateTime();
    for (const auto& [file, name, text, age] : { std::tuple { QStringLiteral("plan-999971"), QStringLiteral("Alpha"), alpha, 60 },
             std::tuple { QStringLiteral("plan-999971-1"), QStringLiteral("Beta"), beta, 120 } }) {
        const QString json = folder.filePath(file + QStringLiteral(".json"));
        importers::writeOutputFile(json.toStdString(), text);
        importers::writeOutputFile(folder.filePath(file + QStringLiteral(".about")).toStdString(),
            QStringLiteral(R"({"plan": "%1", "document": ""})").arg(name).toStdString());
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(now.addSecs(-age), QFileDevice::FileModificationTime));
    }

    auto window = std::make_unique<app::MainWindow>();
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    app::MainWindow* w = window.get();
    auto* autosave = new app::PlanAutosave(w, w->planController(), w->document());
    autosave->start(60000);
    auto questions = std::make_shared<QStringList>();
    auto answer = std::make_shared<std::function<void()>>();
    *answer = [questions, w, waitForTheFirst, weak = std::weak_ptr<std::function<void()>>(answer)] {
        whenShown([questions, w, waitForTheFirst, weak](QWidget* widget) {
            auto* box = qobject_cast<QMessageBox*>(widget);
            if (!box || box->objectName() != QStringLiteral("recoverPlanBox"))
                return;
            *questions << box->text();
            // The second question waits, if asked, until the first plan recovered is shown.
            if (questions->size() == 2 && waitForTheFirst)
                QVERIFY(QTest::qWaitFor([w] { return w->document()->currentPlan() == 1 && !w->planController()->isOpeningPlan(); }, 30000));
            box->button(QMessageBox::Yes)->click();
            if (auto again = weak.lock(); again && questions->size() < 2)
                (*again)();
        });
    };
    (*answer)();
    QSignalSpy shown(w, &app::MainWindow::clusterShown);
    if (document)
        w->openFiles({ saved });
    else
        w->openSimulated(240, 3);
    QVERIFY(shown.wait(30000));
    app::WindowDocument* doc = w->document();
    QTRY_COMPARE_WITH_TIMEOUT(questions->size(), 2, 30000);
    QVERIFY2(questions->at(0).contains(QStringLiteral("\u201cAlpha\u201d")), qPrintable(questions->join(QLatin1Char('\n'))));
    QTRY_COMPARE_WITH_TIMEOUT(doc->plans().size(), std::size_t(3), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(doc->currentPlan() >= 1 && !w->planController()->isOpeningPlan(), 30000);
    QCOMPARE(doc->currentPlan(), 1);
    QVERIFY2(QString::fromStdString(doc->plans()[1].name).startsWith(QStringLiteral("Alpha (recovered ")), doc->plans()[1].name.c_str());
    QCOMPARE(w->planController()->engine()->applied().size(), std::size_t(2));
    QVERIFY2(QString::fromStdString(doc->plans()[2].name).startsWith(QStringLiteral("Beta (recovered ")), doc->plans()[2].name.c_str());
    QCOMPARE(importers::parsePlanText(doc->plans()[2].planJson, "recovered").actions.size(), std::size_t(1));
    QVERIFY(doc->isModified());
    QCOMPARE(folder.entryList({ QStringLiteral("plan-999971*") }, QDir::Files), QStringList());
    autosave->closedCleanly();
    w->undoStack()->setClean();
}

int main(int argc, char** argv)
{
    return fleet::testing::runGuiTest<TestPlanAutosave>(argc, argv, &fleet::app::setDefaultSurfaceFormat, { .quitOnLastWindowClosed = false });
}
#include "tst_planautosave.moc"
