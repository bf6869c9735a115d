// Plan > Consolidate in the window (app/consolidatecontroller.h) on a small simulated cluster,
// under xvfb: the action is in the Plan menu, the computation reports progress and lands as
// drain-node actions that one undo reverts and one redo re-applies, and the dialog lists the nodes that stay with their reasons.

#include "app/consolidatecontroller.h"
#include "app/mainwindow.h"
#include "app/plancontroller.h"

#include <QAction>
#include <QDialog>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

#include "planwindowfixture.h"

using namespace fleet;

class TestPlanConsolidate : public QObject {
    Q_OBJECT
private slots:
    void consolidatesAndUndoesAsOneStep()
    {
        auto window = planwindow::openWindow(240, 3);
        QVERIFY(window);
        auto* controller = window->findChild<app::ConsolidateController*>();
        QVERIFY(controller);
        QAction* action = window->findChild<QAction*>(QStringLiteral("actionConsolidate"));
        QVERIFY(action);
        QSignalSpy finished(controller, &app::ConsolidateController::finished);
        QSignalSpy progressed(controller, &app::ConsolidateController::progressed);
        action->trigger();
        QVERIFY(controller->isRunning());
        QVERIFY(!controller->start()); // one at a time
        QVERIFY(finished.wait(60000));
        QVERIFY(progressed.count() >= 1);
        const int drained = finished.takeFirst().at(0).toInt();
        const model::ConsolidationResult& r = controller->lastResult();
        QCOMPARE(drained, static_cast<int>(r.drained.size()));
        QVERIFY2(drained > 0, "the simulated cluster has nodes that can go");
        const auto engine = window->planController()->engine();
        QCOMPARE(engine->applied().size(), r.actions.size());
        for (const model::AppliedAction& a : engine->applied())
            QVERIFY(a.holds);
        QCOMPARE(engine->state().totals().nodes, r.after.nodes);
        // The dialog: the summary and the nodes that stay.
        QDialog* dialog = controller->resultDialog();
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("consolidateSummary"))->text().contains(QStringLiteral("Lower bound")));
        auto* kept = dialog->findChild<QListWidget*>(QStringLiteral("consolidateKept"));
        QCOMPARE(kept->count(), static_cast<int>(std::min<std::size_t>(r.kept.size(), 5000)));
        QVERIFY(kept->count() > 0);
        // One undo step for the whole consolidation, and back.
        QUndoStack* stack = window->undoStack();
        QVERIFY(stack);
        stack->undo();
        QCOMPARE(engine->applied().size(), std::size_t(0));
        stack->redo();
        QCOMPARE(engine->applied().size(), r.actions.size());
        // The plan panel's undo back to a row inside the consolidation undoes all of it (one step).
        window->planController()->undoBackTo(static_cast<int>(r.actions.size()) - 1);
        QCOMPARE(engine->applied().size(), std::size_t(0));
    }

    void cancelStopsWithThePlanSoFar()
    {
        auto window = planwindow::openWindow(240, 3);
        QVERIFY(window);
        auto* controller = window->findChild<app::ConsolidateController*>();
        QSignalSpy finished(controller, &app::ConsolidateController::finished);
        QVERIFY(controller->start());
        controller->cancel();
        QVERIFY(finished.wait(60000));
        const model::ConsolidationResult& r = controller->lastResult();
        QCOMPARE(window->planController()->engine()->applied().size(), r.actions.size());
        QVERIFY(!controller->isRunning());
    }
};

QTEST_MAIN(TestPlanConsolidate)
#include "tst_planconsolidate.moc"
