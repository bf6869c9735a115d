// SPDX-License-Identifier: Apache-2.0
// Plan > Consolidate in the window (app/controllers/consolidatecontroller.h) on a small simulated cluster,
// under xvfb: the action is in the Plan menu, the computation reports progress and lands as
// drain-node actions that one undo reverts and one redo re-applies, that the plan panel's Remove
// Last (and Undo Back to Here) takes back one action at a time from the last, and the dialog lists
// the nodes that stay, grouped by their reasons.

#include "app/controllers/consolidatecontroller.h"
#include "app/window/mainwindow.h"
#include "app/controllers/plancontroller.h"
#include "app/controllers/plansteprunner.h"
#include "app/commands/planstepcommand.h"
#include "model/figures.h"
#include "views/plan/planpanel.h"
#include "views/panels/pendingpanel.h"
#include "app/window/explorepanels.h"
#include "views/map/fleetmapview.h"
#include "model/search/keptgroups.h"
#include "model/search/consolidationbound.h"
#include "model/search/packingrelaxation.h"
#include "importers/solver/coinsolver.h"
#include "importers/plan/plankept.h"
#include "importers/plan/planfile.h"

#include <QAction>
#include <QDialog>
#include <QLabel>
#include <QTreeView>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <algorithm>

#include <cmath>

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
        // The pending pods that fit are placed first (consolidation.h), then the drains.
        const std::size_t pending = r.pendingPlaced.size();
        QVERIFY2(pending > 0, "the simulated cluster has pending pods that fit");
        QCOMPARE(engine->applied().size(), pending + r.actions.size());
        for (std::size_t i = 0; i < engine->applied().size(); ++i)
            QCOMPARE(engine->applied()[i].action, i < pending ? r.pendingPlaced[i] : r.actions[i - pending]);
        for (const model::AppliedAction& a : engine->applied())
            QVERIFY(a.holds);
        QCOMPARE(engine->state().totals().nodes, r.after.nodes);
        // The dialog: the summary and the nodes that stay.
        QDialog* dialog = controller->resultDialog();
        QVERIFY(dialog && dialog->isVisible());
        const QString summary = dialog->findChild<QLabel*>(QStringLiteral("consolidateSummary"))->text();
        QVERIFY(summary.contains(QStringLiteral("Lower bound")));
        QVERIFY2(summary.contains(QStringLiteral("Pending pods: %1 placed first").arg(pending)), qPrintable(summary));
        // The LP bound comes later, from a worker: beside the volume bound, with its own time
        // and the plan's ratio to the better of the two.
        QSignalSpy lpShown(controller, &app::ConsolidateController::lpBoundShown);
        auto* lpLabel = dialog->findChild<QLabel*>(QStringLiteral("consolidateLpBound"));
        QVERIFY(lpLabel);
        QVERIFY(lpShown.count() == 1 || lpShown.wait(120000));
        const model::PackingBound lp = model::packingLowerBound(*window->cluster()->store, r.pendingPods, {}, importers::solveWithCoin);
        QVERIFY(lp.valid);
        QCOMPARE(lpShown.at(0).at(0).toLongLong(), lp.nodes);
        const std::int64_t volume = model::nodeCountLowerBound(*window->cluster()->store, r.pendingPods).nodes;
        const double better = static_cast<double>(std::max(volume, lp.nodes));
        QVERIFY2(lpLabel->text().contains(QStringLiteral("LP bound (COIN-OR Clp")), qPrintable(lpLabel->text()));
        QVERIFY2(lpLabel->text().contains(QStringLiteral(": %1 nodes, in ").arg(lp.nodes)), qPrintable(lpLabel->text()));
        QVERIFY2(lpLabel->text().contains(QStringLiteral(" = %1.").arg(static_cast<double>(r.after.nodes) / better, 0, 'f', 3)),
            qPrintable(lpLabel->text()));
        QCOMPARE(controller->lpBoundText(), lpLabel->text());
        // "Nodes freed" counts nodes that were empty before; the Plan dock's "nodes in use" does
        // not: the summary says how many, and they make up the difference.
        const model::ClusterStore& loaded = *window->cluster()->store;
        std::int64_t alreadyEmpty = 0;
        for (const model::NodeId n : r.drained) {
            const auto pods = loaded.nodePods(n);
            alreadyEmpty += std::none_of(pods.begin(), pods.end(), [&](model::PodId p) {
                return !loaded.podIsTerminal(p) && loaded.podOwnerKind(p) != model::OwnerKind::DaemonSet && !loaded.podIsMirror(p);
            });
        }
        QVERIFY2(alreadyEmpty > 0, "the simulated cluster has empty nodes the plan removes");
        QVERIFY2(summary.contains(QStringLiteral(" (%1 of them held no pods to move").arg(alreadyEmpty)), qPrintable(summary));
        // The nodes that stay, grouped by reason code: every one of them, the groups' counts add
        // up, and their codes are those of `plan consolidate` (model::keptByCode).
        auto* kept = dialog->findChild<QTreeView*>(QStringLiteral("consolidateKept"));
        QVERIFY(kept);
        QAbstractItemModel* keptModel = kept->model();
        const std::vector<model::KeptGroup> groups = model::keptByCode(r.kept);
        QVERIFY(!groups.empty());
        QTRY_COMPARE_WITH_TIMEOUT(keptModel->rowCount(), static_cast<int>(groups.size()), 30000); // grouped on a worker
        int listed = 0;
        for (int g = 0; g < keptModel->rowCount(); ++g) {
            const QModelIndex group = keptModel->index(g, 0);
            QCOMPARE(group.data().toString(), QString::fromStdString(groups[static_cast<std::size_t>(g)].code));
            QCOMPARE(keptModel->rowCount(group), static_cast<int>(groups[static_cast<std::size_t>(g)].nodes));
            listed += keptModel->rowCount(group);
        }
        QCOMPARE(listed, static_cast<int>(r.kept.size()));
        // A click on a node's row selects that node on the map; a group's row selects none.
        const QModelIndex firstGroup = keptModel->index(0, 0);
        const QModelIndex nodeRow = keptModel->index(0, 2, firstGroup);
        const QString nodeName = keptModel->index(0, 0, firstGroup).data().toString();
        emit kept->clicked(nodeRow);
        QCOMPARE(window->mapView()->selectedNode(), window->planController()->store()->findNode(nodeName.toStdString()));
        QVERIFY(window->mapView()->selectedNode().isValid());
        // One undo step for the whole consolidation, and back.
        QUndoStack* stack = window->undoStack();
        QVERIFY(stack);
        stack->undo();
        QCOMPARE(engine->applied().size(), std::size_t(0));
        stack->redo();
        QCOMPARE(engine->applied().size(), pending + r.actions.size());
        // File > Save Plan records why the nodes stay (plan-v1.md, "consolidation"), which a
        // report of the file reads rather than searching again, while the plan's actions are the
        // search's; once they are not (the last drain undone), the record is left out.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString saved = dir.filePath(QStringLiteral("consolidated.json"));
        QCOMPARE(window->planController()->savePlan(saved, window->planSource()), QString());
        const importers::PlanDocument doc = importers::readPlanFile(saved.toStdString());
        QVERIFY(doc.consolidation.has_value());
        QCOMPARE(doc.consolidation->kept.size(), r.kept.size());
        QCOMPARE(doc.consolidation->order, r.order);
        const importers::RecordedKept recorded = importers::recordedKept(*window->cluster()->store, doc, window->planSource());
        QVERIFY2(recorded.kept.has_value(), recorded.problem.c_str());
        QCOMPARE(recorded.kept->kept.size(), r.kept.size());
        for (std::size_t i = 0; i < r.kept.size(); ++i) {
            QCOMPARE(recorded.kept->kept[i].node, r.kept[i].node);
            QCOMPARE(recorded.kept->kept[i].reason, r.kept[i].reason);
        }
        window->planController()->removeLastAction();
        QVERIFY(window->planController()->engine()->applied().size() == pending + r.actions.size() - 1);
        const QString edited = dir.filePath(QStringLiteral("edited.json"));
        QCOMPARE(window->planController()->savePlan(edited, window->planSource()), QString());
        QVERIFY(!importers::readPlanFile(edited.toStdString()).consolidation.has_value());
    }

    void removesActionsOneAtATimeFromTheLast()
    {
        auto window = planwindow::openWindow(240, 3);
        QVERIFY(window);
        auto* controller = window->findChild<app::ConsolidateController*>();
        QSignalSpy finished(controller, &app::ConsolidateController::finished);
        QVERIFY(controller->start());
        QVERIFY(finished.wait(60000));
        const model::ConsolidationResult r = controller->lastResult();
        const std::size_t n = r.actions.size(), pending = r.pendingPlaced.size();
        const std::size_t k = pending + n; // the pending pods placed first, then per node its moves and its drain
        QVERIFY2(r.drained.size() >= 3, "the simulated cluster has nodes that can go");
        QCOMPARE(r.actions.back().type, model::ActionType::DrainNode);
        app::PlanController* plan = window->planController();
        const auto engine = plan->engine();
        QUndoStack* stack = window->undoStack();
        QCOMPARE(stack->count(), 1); // the consolidation: one undo step
        auto present = [&](model::NodeId n) { return engine->state().nodePresent(n); };
        // With the first `applied` actions of the plan applied, exactly the nodes of the drains among
        // them are gone (a move-pod leaves its node present).
        auto drainsHold = [&](std::size_t applied) {
            std::size_t drains = 0;
            for (std::size_t i = 0; i < n; ++i) {
                if (r.actions[i].type != model::ActionType::DrainNode)
                    continue;
                if (present(r.drained[drains]) != (pending + i >= applied))
                    return false;
                ++drains;
            }
            return engine->state().totals().nodes == r.before.nodes - static_cast<std::int64_t>(std::count_if(r.actions.begin(),
                       r.actions.begin() + static_cast<std::ptrdiff_t>(applied - pending),
                       [](const model::PlanAction& a) { return a.type == model::ActionType::DrainNode; }));
        };
        // The panel's Remove Last takes back the last action only (the last drain: its node is
        // back, the others stay drained; then the last move of its pods).
        QAction* removeLast = window->findChild<QAction*>(QStringLiteral("planPanelRemoveLast"));
        QVERIFY(removeLast && removeLast->isEnabled());
        removeLast->trigger();
        QCOMPARE(engine->applied().size(), k - 1);
        QVERIFY(present(r.drained.back()));
        QVERIFY(!present(r.drained[r.drained.size() - 2]));
        QCOMPARE(engine->state().totals().nodes, r.after.nodes + 1);
        QVERIFY(plan->removeLastAction());
        QCOMPARE(engine->applied().size(), k - 2);
        QVERIFY(drainsHold(k - 2));
        QVERIFY(!present(r.drained[0]));
        for (std::size_t i = 0; i < k - 2; ++i)
            QCOMPARE(engine->applied()[i].action, i < pending ? r.pendingPlaced[i] : r.actions[i - pending]);
        // Undo puts the removed actions back, one removal at a time, with the same effects.
        stack->undo();
        QCOMPARE(engine->applied().size(), k - 1);
        QVERIFY(drainsHold(k - 1));
        stack->undo();
        QCOMPARE(engine->applied().size(), k);
        QCOMPARE(engine->state().totals().nodes, r.after.nodes);
        QVERIFY(std::abs(engine->state().totals().costPerHour - r.after.costPerHour) < 1e-6);
        for (const model::AppliedAction& a : engine->applied())
            QVERIFY(a.holds);
        // Then the whole consolidation is one undo step again.
        stack->undo();
        QCOMPARE(engine->applied().size(), std::size_t(0));
        QCOMPARE(engine->state().totals().nodes, r.before.nodes);
        QVERIFY(!removeLast->isEnabled());
        QVERIFY(!plan->removeLastAction());
        stack->redo();
        QCOMPARE(engine->applied().size(), k);
        // Undo Back to Here on a row inside the consolidation removes exactly the rows from it on.
        plan->undoBackTo(static_cast<int>(k) - 2);
        QCOMPARE(engine->applied().size(), k - 2);
        QVERIFY(drainsHold(k - 2));
        stack->undo();
        QCOMPARE(engine->applied().size(), k);
        plan->undoBackTo(0);
        QCOMPARE(engine->applied().size(), std::size_t(0));
    }

    // Cancel leaves the plan as it was, as How Many? and an undo's Cancel do: applying the plan
    // found so far took seconds after Cancel at 100,000 nodes and opened its dialog over what
    // the user did meanwhile.
    // A consolidation of more than PlanStepCommand::kSlicedChildren actions is undone and
    // redone in slices (PlanStepRunner): each redo brings back exactly the actions the step
    // applied, with the same effects and the same totals, however often it is undone and redone;
    // the Plan dock's summary never shows a count that the step has not reached.
    void slicedUndoRedoRestoresTheSameActions()
    {
        auto window = planwindow::openWindow(600, 3);
        QVERIFY(window);
        auto* controller = window->findChild<app::ConsolidateController*>();
        QSignalSpy finished(controller, &app::ConsolidateController::finished);
        QVERIFY(controller->start());
        QVERIFY(finished.wait(120000));
        app::PlanController* plan = window->planController();
        const auto engine = plan->engine();
        const std::size_t count = engine->applied().size();
        QVERIFY2(count >= static_cast<std::size_t>(app::PlanStepCommand::kSlicedChildren), "enough actions to go in slices");
        struct Effects {
            model::PlanAction action;
            bool holds;
            std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> changes;
            std::vector<std::uint32_t> removed;
            std::vector<std::uint32_t> unplaced;
            model::PlanTotals before, after;
            bool operator==(const Effects&) const = default;
        };
        auto effects = [&] {
            std::vector<Effects> out;
            for (const model::AppliedAction& a : plan->engine()->applied()) {
                Effects e { a.action, a.holds, {}, {}, {}, a.before, a.after };
                for (const auto& c : a.changes)
                    e.changes.emplace_back(c.pod.value, c.from.value, c.to.value);
                for (const model::NodeId n : a.nodesRemoved)
                    e.removed.push_back(n.value);
                for (const auto& [p, reasons] : a.unplaced)
                    e.unplaced.push_back(p.value);
                out.push_back(std::move(e));
            }
            return out;
        };
        auto nodesOf = [&] {
            std::vector<std::uint32_t> out;
            const model::PlanLedger& state = plan->engine()->state();
            for (std::uint32_t i = 0; i < state.podCount(); ++i)
                out.push_back(state.podNode(model::PodId(i)).value);
            return out;
        };
        const std::vector<Effects> applied = effects();
        const std::vector<std::uint32_t> placement = nodesOf();
        const model::PlanTotals totals = engine->state().totals();
        const QString summary = plan->panel()->summaryText();
        // The Pending dock follows the step through its sliced undo and redo (the pending pods
        // it placed first).
        views::PendingPanel* pending = window->explorePanels()->pendingPanel();
        QTRY_VERIFY_WITH_TIMEOUT(pending->pendingPodCount() > 0, 30000);
        const std::size_t placedPending = pending->placedByPlan();
        QCOMPARE(placedPending, controller->lastResult().pendingPlaced.size());
        QVERIFY(placedPending > 0);
        const QString countText = QStringLiteral("%1 actions. ").arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(count))));
        QVERIFY2(summary.startsWith(countText), qPrintable(summary));

        app::PlanStepRunner* runner = plan->stepRunner();
        runner->setMaxChildrenPerSlice(7); // many slices, as a 100,000-node step has
        QUndoStack* stack = window->undoStack();
        QStringList seen; // the summary at each slice of the redo
        connect(runner, &app::PlanStepRunner::progressed, this, [&] { seen << plan->panel()->summaryText(); });
        for (int round = 0; round < 3; ++round) {
            QSignalSpy done(runner, &app::PlanStepRunner::finished);
            stack->undo();
            QVERIFY(runner->isBusy());
            QVERIFY(done.wait(60000));
            QVERIFY(plan->engine()->applied().empty());
            QCOMPARE(pending->placedByPlan(), std::size_t(0));
            seen.clear();
            stack->redo();
            QVERIFY(runner->isBusy());
            QVERIFY(done.wait(60000));
            QCOMPARE(done.count(), 2);
            QCOMPARE(done.at(1).at(0).toBool(), false);
            QCOMPARE(plan->engine()->applied().size(), count);
            QVERIFY2(effects() == applied, qPrintable(QStringLiteral("round %1: other effects").arg(round)));
            QVERIFY(nodesOf() == placement);
            QVERIFY(plan->engine()->state().totals() == totals);
            QCOMPARE(plan->panel()->summaryText(), summary);
            QCOMPARE(pending->placedByPlan(), placedPending);
            QVERIFY(seen.size() > 2);
            for (const QString& text : seen)
                QVERIFY2(text == summary || text.contains(QStringLiteral("Redoing")) || !text.contains(QStringLiteral(" actions. ")),
                    qPrintable(QStringLiteral("mid-step summary: ") + text));
        }
    }

    void cancelLeavesThePlanAsItWas()
    {
        auto window = planwindow::openWindow(240, 3);
        QVERIFY(window);
        auto* controller = window->findChild<app::ConsolidateController*>();
        QSignalSpy finished(controller, &app::ConsolidateController::finished);
        QVERIFY(controller->start());
        controller->cancel();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toInt(), -1);
        QVERIFY(!controller->isRunning());
        QVERIFY(window->planController()->engine()->applied().empty());
        QVERIFY(!controller->resultDialog() || !controller->resultDialog()->isVisible());
        QVERIFY2(window->planStatusText().contains(QStringLiteral("cancelled")), qPrintable(window->planStatusText()));
    }
};

QTEST_MAIN(TestPlanConsolidate)
#include "tst_planconsolidate.moc"
