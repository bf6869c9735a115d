// SPDX-License-Identifier: Apache-2.0
// bench_gui: the GUI thread's longest stalls while the real main window goes through the what-if
// flows on the simulated fleet (DESIGN.md "Threads": no event-loop turn over 50 ms at
// 100,000 nodes). A StallWatchdog (app/window/stallwatchdog.h) records every gap between event-loop
// turns, charged to the flow and action running when it ended. The flows, each through the
// window's own actions and controllers, each followed by the event loop running until the
// window is idle (the repaint it asked for included):
//   load            the simulated cluster read, laid out and shown, the what-if engine ready, the
//                   panels' analysis (problems, pending, search index) applied
//   compare         File > Compare With the next seed's fleet (worker), the Changes dock's
//                   removed nodes opened and scrolled, a row clicked, the map's difference on
//                   and off, Export Changes (JSON, CSV)
//   metric          Metric > CPU, then GPU requested
//   inspect         the node inspector on 20 nodes
//   consolidate     Plan > Consolidate (worker), its drains applied as one undo step
//   undo / redo     Edit > Undo and Redo of that step
//   click           a click on 20 nodes under the plan (the map's selection, the node inspector)
//   drag            a pod dragged across 20 nodes under the plan and dropped, then Undo
//   fail-domain     Plan > Fail Domain of a node's innermost domain under the plan, Undo, Redo, Undo
//   fail-zone       (before consolidate, no plan) Plan > Fail Domain of the largest zone (a worker
//                   from PlanController::failDomainOnWorkerPods() pods on), Undo, Redo, Undo
//   remove-last     the plan panel's Remove Last, then Undo
//   plan-dock       the Plan dock with the consolidation's actions: opened, scrolled to the end and
//                   back to the middle, a row clicked (real mouse events on its viewport), the
//                   dock's Remove Last button, then Undo
//   save-plan       File > Save Plan to a file
//   open-plan       File > Open Plan of that file (worker), one undo step
//   save-document   File > Save As of the .fleet document with the plan (worker), then File > Save
//                   again (the shown plan's JSON kept from the first save)
//   place-workload  Plan > Place Workload of 8 pods (worker)
//   how-many        (after inspect) Plan > Add Nodes of p5.48xlarge, How Many? for the pending pods
//                   (worker), Add placing them (worker), Undo
//   export-report   File > Export Report of the plan to a PDF (workers; the maps: see reportexporter.h)
//   new-after-undo  Edit > Undo of the consolidation, then Fail Node: the apply() right after it
// Software OpenGL (llvmpipe) under xvfb-run; say whether the machine was idle.
// Usage: xvfb-run -a -s "-screen 0 1600x1200x24" ./bench_gui [--nodes N] [--seed S] [--only FLOW,...] [--fail-domain-here]
//   [--free-undone-here]
//   --fail-domain-here: Fail Domain of any size on the GUI thread (PlanController's size rule off)
//   --free-undone-here: new-after-undo frees the undone actions' records on the GUI thread first
//   --only: the load and the flows named (compare, metric, inspect, how-many, plan: consolidate and
//           the flows after it, export-report included; or consolidate and some of those after it
//           by name: undo and redo run together, save-plan before open-plan)
// Output: on stderr one line per flow, every stall over 50 ms (and when it ended, CLOCK_MONOTONIC), then each action's longest stall and
// its map frames (VtkOpenGLWidget's aboutToRender to frameRendered: the render and the swap; the
// first frame after the action started and the longest); then one JSON object last on stdout:
// {"nodes": N, "flows": [{"flow", "ms", "max_stall_ms", "action", "max_frame_ms"}...],
//  "steps": [{"flow", "action", "max_stall_ms", "first_frame_ms", "max_frame_ms"}...] (every action),
//  "max_stall_ms", "stalls_over_50ms", "p99_stall_ms", "longest": {"flow", "action", "ms"},
//  "max_stall_after_load_ms", "longest_after_load": {...}, "load_average": "1.02 0.98 0.90"}
// (the load average from /proc/loadavg at the end: the machine is shared)

#include "app/controllers/comparecontroller.h"
#include "app/controllers/consolidatecontroller.h"
#include "app/dialogs/addnodesdialog.h"
#include "app/window/explorepanels.h"
#include "app/window/mainwindow.h"
#include "app/dialogs/placeworkloaddialog.h"
#include "app/controllers/plancontroller.h"
#include "app/controllers/planopener.h"
#include "app/window/stallwatchdog.h"
#include "app/window/windowdocument.h"
#include "app/controllers/reportexporter.h"
#include "app/startup/surfaceformat.h"
#include "views/inspectors/nodeinspector.h"
#include "views/itemmodels/changesmodel.h"
#include "views/map/fleetmapview.h"
#include "views/plan/planpanel.h"
#include "views/panels/changespanel.h"
#include "views/vtk/vtkopenglwidget.h"
#include "model/nodeboundpods.h"

#include <QAction>
#include <QDockWidget>
#include <QScrollBar>
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QItemSelectionModel>
#include <QTableView>
#include <QTreeView>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <limits>

using namespace fleet;

namespace {

struct FlowFigure {
    QString flow;
    double ms = 0;
    double maxStallMs = 0;
    QString action;
    double maxFrameMs = 0;
};

// One action of a flow: its longest stall and the map's frames rendered while it was the context.
struct StepFigure {
    QString context; // "flow / action"
    double maxStallMs = 0;
    double firstFrameMs = -1; // -1: no frame
    double maxFrameMs = -1;
};

constexpr std::array<const char*, 14> kPlanFlows { "consolidate", "undo", "redo", "click", "drag", "fail-domain", "remove-last",
    "plan-dock", "save-plan", "open-plan", "save-document", "place-workload", "export-report", "new-after-undo" };

QString flowOf(const QString& context)
{
    return context.section(QStringLiteral(" / "), 0, 0);
}

QString jsonText(const QString& s)
{
    QString out = s;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

} // namespace

int main(int argc, char** argv)
{
    app::setDefaultSurfaceFormat();
    QApplication application(argc, argv);
    std::size_t nodes = 100000;
    std::uint64_t seed = 1;
    const QStringList args = application.arguments();
    if (const qsizetype i = args.indexOf(QStringLiteral("--nodes")); i >= 0 && i + 1 < args.size())
        nodes = args[i + 1].toULongLong();
    if (const qsizetype i = args.indexOf(QStringLiteral("--seed")); i >= 0 && i + 1 < args.size())
        seed = args[i + 1].toULongLong();
    // --only FLOW,FLOW: the load and these flows ("plan" for consolidate and the flows after it,
    // which work on its plan); every flow without it.
    QStringList only;
    if (const qsizetype i = args.indexOf(QStringLiteral("--only")); i >= 0 && i + 1 < args.size())
        only = args[i + 1].split(QLatin1Char(','));
    auto wanted = [&](const QString& flow) { return only.isEmpty() || only.contains(flow); };

    app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    app::PlanController* plan = window.planController();
    QUndoStack* stack = window.undoStack();
    app::StallWatchdog watchdog;
    std::vector<FlowFigure> flows;
    QElapsedTimer flowClock;
    auto beginFlow = [&](const QString& flow) {
        flows.push_back({ flow, 0, 0, {} });
        flowClock.start();
    };
    auto endFlow = [&] {
        flows.back().ms = static_cast<double>(flowClock.nsecsElapsed()) / 1e6;
        std::fprintf(stderr, "%-15s %9.0f ms\n", qPrintable(flows.back().flow), flows.back().ms);
    };
    std::vector<StepFigure> steps;
    // Each frame of the map, charged to the action running when it was rendered.
    // A frame's time is from aboutToRender to frameRendered: the VTK render, the overlay and the
    // swap (llvmpipe rasterises in the swap; lastRenderMs() leaves it out).
    QElapsedTimer frameClock;
    if (auto* gl = window.findChild<views::VtkOpenGLWidget*>()) {
        QObject::connect(gl, &views::VtkOpenGLWidget::aboutToRender, &window, [&frameClock] { frameClock.start(); });
        QObject::connect(gl, &views::VtkOpenGLWidget::frameRendered, &window, [&steps, &frameClock] {
            if (steps.empty() || !frameClock.isValid())
                return;
            StepFigure& step = steps.back();
            const double ms = static_cast<double>(frameClock.nsecsElapsed()) / 1e6;
            if (step.firstFrameMs < 0)
                step.firstFrameMs = ms;
            step.maxFrameMs = std::max(step.maxFrameMs, ms);
        });
    }
    // The action's context, then the action, then the event loop until the window is idle
    // (two turns of 100 ms without a stall over a frame, at most 5 s).
    auto act = [&](const QString& flow, const QString& action, const std::function<bool()>& run) {
        watchdog.setContext(flow + QStringLiteral(" / ") + action);
        steps.push_back({ flow + QStringLiteral(" / ") + action });
        const bool ok = run();
        for (int quiet = 0, turns = 0; quiet < 2 && turns < 50; ++turns) {
            const std::size_t before = watchdog.stalls().size();
            QTest::qWait(100);
            quiet = watchdog.stalls().size() == before ? quiet + 1 : 0;
        }
        if (!ok)
            std::fprintf(stderr, "bench_gui: %s / %s did not complete (%s)\n", qPrintable(flow), qPrintable(action),
                qPrintable(plan->lastMessage()));
        return ok;
    };
    auto waitFor = [](QSignalSpy& spy, int ms = 600000) { return spy.count() > 0 || spy.wait(ms); };
    // A large step's undo or redo runs in slices of the event loop (PlanStepRunner): until done.
    auto settle = [&] {
        QElapsedTimer clock;
        clock.start();
        while (plan->isBusy() && clock.elapsed() < 600000)
            QTest::qWait(5);
        return !plan->isBusy();
    };

    watchdog.start();
    // ---- load ----
    beginFlow(QStringLiteral("load"));
    bool ok = act(QStringLiteral("load"), QStringLiteral("open simulated cluster"), [&] {
        QSignalSpy shown(&window, &app::MainWindow::clusterShown);
        QSignalSpy ready(plan, &app::PlanController::engineReady);
        QSignalSpy analysed(window.explorePanels(), &app::ExplorePanels::analysisApplied);
        window.openSimulated(nodes, seed);
        // The panels' analysis (problems, pending shapes, the search index) is the load's too:
        // its result arriving later was charged to the next flow.
        return waitFor(shown) && (plan->engine() || waitFor(ready)) && waitFor(analysed);
    });
    endFlow();
    if (!ok)
        return 1;
    if (wanted(QStringLiteral("compare"))) {
        // ---- compare with a later state ----
        // The worst case for the Changes dock: the other seed's fleet, every node added and removed
        // and every pod created and deleted (the panel lists 2 x N node rows and every workload).
        beginFlow(QStringLiteral("compare"));
        auto* compare = window.findChild<app::CompareController*>();
        act(QStringLiteral("compare"), QStringLiteral("File > Compare With"), [&] {
            QSignalSpy finished(compare, &app::CompareController::compareFinished);
            return compare->compareWithSimulated(nodes, seed + 1) && waitFor(finished) && finished.first().first().toBool();
        });
        act(QStringLiteral("compare"), QStringLiteral("Changes: open and scroll the removed nodes"), [&] {
            QTreeView* view = compare->panel()->view();
            const QModelIndex removed = compare->panel()->model()->groupIndex(views::ChangesModel::NodesRemoved);
            view->expand(removed);
            view->scrollTo(compare->panel()->model()->index(compare->panel()->model()->rowCount(removed) - 1, 0, removed));
            return compare->panel()->model()->rowCount(removed) > 0;
        });
        act(QStringLiteral("compare"), QStringLiteral("Changes: a removed node's row clicked"), [&] {
            const QModelIndex removed = compare->panel()->model()->groupIndex(views::ChangesModel::NodesRemoved);
            emit compare->panel()->view()->clicked(compare->panel()->model()->index(0, 0, removed));
            return window.mapView()->selectedNode().isValid();
        });
        act(QStringLiteral("compare"), QStringLiteral("Metric > Difference to the Compared State"), [&] {
            window.findChild<QAction*>(QStringLiteral("actionCompareMetric"))->trigger();
            return compare->isShowingDifference();
        });
        act(QStringLiteral("compare"), QStringLiteral("Metric > Difference to the Compared State, off"), [&] {
            window.findChild<QAction*>(QStringLiteral("actionCompareMetric"))->trigger();
            return !compare->isShowingDifference();
        });
        QTemporaryDir changesDir;
        act(QStringLiteral("compare"), QStringLiteral("File > Export Changes (JSON)"), [&] {
            QSignalSpy written(compare, &app::CompareController::changesExported);
            return compare->exportTo(changesDir.filePath(QStringLiteral("changes.json"))) && waitFor(written) && written.first().first().toBool();
        });
        act(QStringLiteral("compare"), QStringLiteral("File > Export Changes (CSV)"), [&] {
            QSignalSpy written(compare, &app::CompareController::changesExported);
            return compare->exportTo(changesDir.filePath(QStringLiteral("changes.csv"))) && waitFor(written) && written.first().first().toBool();
        });
        endFlow();
    }
    // ---- metric ----
    if (wanted(QStringLiteral("metric"))) {
        beginFlow(QStringLiteral("metric"));
        act(QStringLiteral("metric"), QStringLiteral("cpu requested"), [&] { return window.setMetric(QStringLiteral("cpu")); });
        act(QStringLiteral("metric"), QStringLiteral("gpu requested"), [&] { return window.setMetric(QStringLiteral("gpu")); });
        endFlow();
    }
    // ---- inspect ----
    views::NodeInspector* inspector = window.explorePanels()->nodeInspector();
    const auto store = window.cluster()->store;
    if (wanted(QStringLiteral("inspect"))) {
        beginFlow(QStringLiteral("inspect"));
        for (std::uint32_t k = 0; k < 20; ++k)
            act(QStringLiteral("inspect"), QStringLiteral("node %1").arg(k), [&] {
                inspector->setNode(store, window.cluster()->topology, model::NodeId(static_cast<std::uint32_t>((k * 4999u) % store->nodeCount())));
                return true;
            });
        endFlow();
    }
    // ---- how many: Plan > Add Nodes, How Many? for the pending pods, Add placing them, Undo ----
    if (wanted(QStringLiteral("how-many"))) {
        beginFlow(QStringLiteral("how-many"));
        auto* addNodes = window.findChild<app::AddNodesDialog*>();
        act(QStringLiteral("how-many"), QStringLiteral("Plan > Add Nodes"), [&] {
            addNodes->openForCluster();
            return addNodes->isVisible() && addNodes->setInstanceType(QStringLiteral("p5.48xlarge"));
        });
        act(QStringLiteral("how-many"), QStringLiteral("How Many?"), [&] {
            QSignalSpy computed(addNodes, &app::AddNodesDialog::countComputed);
            const bool done = addNodes->computeCount() && waitFor(computed) && computed.first().first().toBool();
            std::fprintf(stderr, "how many: %d nodes, %d of %d pods placed, %d evaluations\n", addNodes->lastAnswer().nodes,
                addNodes->lastAnswer().podsPlaced, addNodes->lastAnswer().pods, addNodes->lastAnswer().evaluations);
            return done;
        });
        act(QStringLiteral("how-many"), QStringLiteral("Add, placing the pods"), [&] {
            QSignalSpy added(addNodes, &app::AddNodesDialog::nodesAdded);
            return addNodes->addNodes() && waitFor(added) && added.first().first().toBool();
        });
        act(QStringLiteral("how-many"), QStringLiteral("Edit > Undo of the add"), [&] {
            stack->undo();
            settle();
            return plan->engine()->applied().empty();
        });
        endFlow();
    }
    std::size_t actions = 0; // the consolidation's
    // The flows on the consolidation's plan: "plan" for all, or some by name (consolidate runs
    // for any; undo and redo together; save-plan for open-plan).
    // Plan > Fail Domain of a zone, with no plan yet (on a worker, one undo step), and the
    // flows of fail-domain below: a domain failure is planned when failDomain() returns or, for
    // a large one, once failDomainFinished() comes.
    auto failAndWait = [&](model::DomainId domain, std::size_t expected) {
        QSignalSpy finished(plan, &app::PlanController::failDomainFinished);
        if (!plan->failDomain(domain))
            return plan->engine()->applied().size() == expected;
        if (plan->isFailingDomain() && !waitFor(finished))
            return false;
        settle();
        return plan->engine()->applied().size() == expected;
    };
    // --fail-domain-here: every Fail Domain on the GUI thread, as before the size rule (the "before" figures).
    if (args.contains(QStringLiteral("--fail-domain-here")))
        plan->setFailDomainOnWorkerPods(std::numeric_limits<std::size_t>::max());
    if (wanted(QStringLiteral("fail-zone"))) {
        // ---- fail a whole zone (the domain below the first region with the most nodes) ----
        beginFlow(QStringLiteral("fail-zone"));
        const model::Topology& topology = *window.cluster()->topology;
        model::DomainId zone;
        for (const model::DomainId region : topology.domainChildren(topology.root()))
            for (const model::DomainId z : topology.domainChildren(region))
                if (!zone.isValid() || topology.domainNodes(z).size() > topology.domainNodes(zone).size())
                    zone = z;
        if (zone.isValid()) {
            std::fprintf(stderr, "bench_gui: fail-zone: %s, %zu nodes\n", topology.domainName(zone).c_str(), topology.domainNodes(zone).size());
            const std::size_t before = plan->engine()->applied().size();
            if (act(QStringLiteral("fail-zone"), QStringLiteral("Plan > Fail Domain of a zone"), [&] { return failAndWait(zone, before + 1); })) {
                act(QStringLiteral("fail-zone"), QStringLiteral("Edit > Undo of the failure"), [&] {
                    stack->undo();
                    settle();
                    return plan->engine()->applied().size() == before;
                });
                act(QStringLiteral("fail-zone"), QStringLiteral("Edit > Redo of the failure"), [&] {
                    stack->redo();
                    settle();
                    return plan->engine()->applied().size() == before + 1;
                });
                act(QStringLiteral("fail-zone"), QStringLiteral("Edit > Undo of the failure, again"), [&] {
                    stack->undo();
                    settle();
                    return plan->engine()->applied().size() == before;
                });
            }
        }
        endFlow();
    }
    auto planWanted = [&](const QString& flow) { return wanted(QStringLiteral("plan")) || wanted(flow); };
    if (!std::any_of(kPlanFlows.begin(), kPlanFlows.end(), [&](const char* f) { return planWanted(QLatin1String(f)); }))
        goto report;
    {
    // ---- consolidate ----
    beginFlow(QStringLiteral("consolidate"));
    auto* consolidate = window.findChild<app::ConsolidateController*>();
    act(QStringLiteral("consolidate"), QStringLiteral("Plan > Consolidate"), [&] {
        QSignalSpy finished(consolidate, &app::ConsolidateController::finished);
        window.findChild<QAction*>(QStringLiteral("actionConsolidate"))->trigger();
        if (!waitFor(finished, 1800000))
            return false;
        actions = plan->engine()->applied().size();
        return actions > 0;
    });
    endFlow();
    std::fprintf(stderr, "consolidation: %zu actions\n", actions);
    if (planWanted(QStringLiteral("undo")) || planWanted(QStringLiteral("redo"))) {
        // ---- undo / redo of the step ----
        beginFlow(QStringLiteral("undo"));
        act(QStringLiteral("undo"), QStringLiteral("Edit > Undo of the consolidation"), [&] {
            stack->undo();
            settle();
            return plan->engine()->applied().empty();
        });
        endFlow();
        beginFlow(QStringLiteral("redo"));
        act(QStringLiteral("redo"), QStringLiteral("Edit > Redo of the consolidation"), [&] {
            stack->redo();
            settle();
            return plan->engine()->applied().size() == actions;
        });
        endFlow();
    }
    // ---- a click on nodes under the plan ----
    views::FleetMapView* map = window.mapView();
    const std::size_t storeNodes = store->nodeCount();
    auto nodeAt = [&](std::uint32_t k) { return model::NodeId(static_cast<std::uint32_t>((k * 7919u + 13u) % storeNodes)); };
    if (planWanted(QStringLiteral("click"))) {
        beginFlow(QStringLiteral("click"));
        for (std::uint32_t k = 0; k < 20; ++k)
            act(QStringLiteral("click"), QStringLiteral("click node %1").arg(k), [&] {
                const model::NodeId n = nodeAt(k);
                map->setSelectedNode(n);
                emit map->nodeActivated(n);
                return true;
            });
        endFlow();
    }
    if (planWanted(QStringLiteral("drag"))) {
        // ---- a pod dragged under the plan ----
        beginFlow(QStringLiteral("drag"));
        model::PodId dragged;
        for (std::uint32_t k = 0; k < storeNodes && !dragged.isValid(); ++k) {
            const auto state = plan->planState();
            const model::NodeId n = nodeAt(k);
            if (!state || !state->nodePresent(n))
                continue;
            for (model::PodId p : state->nodePods(n))
                if (!model::isNodeBoundPod(*store, p) && store->podWorkload(p).isValid()) {
                    dragged = p;
                    break;
                }
        }
        const QPoint pointer = map->mapToGlobal(map->rect().center());
        act(QStringLiteral("drag"), QStringLiteral("drag start"), [&] {
            emit map->podDragStarted(dragged, Qt::NoModifier);
            return dragged.isValid();
        });
        // The last node dragged over is the drop's: one the plan keeps and has not cordoned (a
        // drop on a drained node is refused, even as a violation).
        auto openNodeFrom = [&](std::uint32_t k) {
            const auto state = plan->planState();
            for (std::uint32_t i = 0; i < storeNodes; ++i) {
                const model::NodeId n = nodeAt(k + i);
                if (!state || (state->nodePresent(n) && !state->nodeUnschedulable(n)))
                    return n;
            }
            return nodeAt(k);
        };
        model::NodeId dropOn;
        for (std::uint32_t k = 0; k < 20; ++k)
            act(QStringLiteral("drag"), QStringLiteral("drag over node %1").arg(k), [&] {
                dropOn = k + 1 < 20 ? nodeAt(k + 100) : openNodeFrom(k + 100);
                emit map->podDragMoved(dropOn, {}, pointer, Qt::NoModifier);
                return true;
            });
        const std::size_t beforeDrop = plan->engine()->applied().size();
        const bool dropped = act(QStringLiteral("drag"), QStringLiteral("drop (Shift: as a violation)"), [&] {
            emit map->podDropped(dropOn, {}, pointer, Qt::ShiftModifier);
            return plan->engine()->applied().size() == beforeDrop + 1;
        });
        if (dropped) // else the undo would take the consolidation back
            act(QStringLiteral("drag"), QStringLiteral("Edit > Undo of the drop"), [&] {
                stack->undo();
                settle();
                return plan->engine()->applied().size() == beforeDrop;
            });
        endFlow();
    }
    if (planWanted(QStringLiteral("fail-domain"))) {
        // ---- fail a domain under the plan ----
        beginFlow(QStringLiteral("fail-domain"));
        const model::DomainId failed = window.cluster()->topology->nodeDomain(nodeAt(3));
        const bool domainFailed = act(QStringLiteral("fail-domain"), QStringLiteral("Plan > Fail Domain"), [&] { return failAndWait(failed, actions + 1); });
        if (domainFailed) {
            act(QStringLiteral("fail-domain"), QStringLiteral("Edit > Undo of the failure"), [&] {
                stack->undo();
                settle();
                return plan->engine()->applied().size() == actions;
            });
            act(QStringLiteral("fail-domain"), QStringLiteral("Edit > Redo of the failure"), [&] {
                stack->redo();
                settle();
                return plan->engine()->applied().size() == actions + 1;
            });
            act(QStringLiteral("fail-domain"), QStringLiteral("Edit > Undo of the failure, again"), [&] {
                stack->undo();
                settle();
                return plan->engine()->applied().size() == actions;
            });
        }
        endFlow();
    }
    if (planWanted(QStringLiteral("remove-last"))) {
        // ---- remove last ----
        beginFlow(QStringLiteral("remove-last"));
        if (act(QStringLiteral("remove-last"), QStringLiteral("Remove Last"), [&] { return plan->removeLastAction(); }))
            act(QStringLiteral("remove-last"), QStringLiteral("Undo of Remove Last"), [&] {
                stack->undo();
                settle();
                return plan->engine()->applied().size() == actions;
            });
        endFlow();
    }
    if (planWanted(QStringLiteral("plan-dock"))) {
        // ---- the Plan dock with every action of the consolidation ----
        beginFlow(QStringLiteral("plan-dock"));
        QDockWidget* dock = plan->dock();
        QTableView* table = plan->panel()->table();
        dock->hide();
        QTest::qWait(200);
        act(QStringLiteral("plan-dock"), QStringLiteral("open the dock"), [&] {
            dock->show();
            dock->raise();
            return QTest::qWaitForWindowExposed(dock) && table->model()->rowCount() > 0;
        });
        act(QStringLiteral("plan-dock"), QStringLiteral("scroll to the last row"), [&] {
            table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum());
            return true;
        });
        act(QStringLiteral("plan-dock"), QStringLiteral("scroll to the middle"), [&] {
            table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum() / 2);
            return true;
        });
        act(QStringLiteral("plan-dock"), QStringLiteral("a row clicked"), [&] {
            const QPoint at(table->columnViewportPosition(0) + 20, table->viewport()->height() / 2);
            const int row = table->rowAt(at.y());
            QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, at);
            return row >= 0 && table->selectionModel()->isRowSelected(row, {});
        });
        act(QStringLiteral("plan-dock"), QStringLiteral("Remove Last (the dock's button)"), [&] {
            const std::size_t before = plan->engine()->applied().size();
            window.findChild<QAction*>(QStringLiteral("planPanelRemoveLast"))->trigger();
            return plan->engine()->applied().size() + 1 == before;
        });
        act(QStringLiteral("plan-dock"), QStringLiteral("Undo of Remove Last"), [&] {
            stack->undo();
            settle();
            return plan->engine()->applied().size() == actions;
        });
        endFlow();
    }
    // ---- save and open ----
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plan.json"));
    if (planWanted(QStringLiteral("save-plan")) || planWanted(QStringLiteral("open-plan"))) {
        beginFlow(QStringLiteral("save-plan"));
        act(QStringLiteral("save-plan"), QStringLiteral("File > Save Plan"), [&] { return window.savePlanTo(path).isEmpty(); });
        endFlow();
    }
    if (planWanted(QStringLiteral("open-plan"))) {
        beginFlow(QStringLiteral("open-plan"));
        act(QStringLiteral("open-plan"), QStringLiteral("File > Open Plan"), [&] {
            QSignalSpy opened(window.planOpener(), &app::PlanOpener::finished);
            return window.openPlanFile(path) && waitFor(opened) && plan->engine()->applied().size() == actions;
        });
        endFlow();
    }
    if (planWanted(QStringLiteral("save-document"))) {
        // ---- File > Save As, then File > Save, of the document ----
        beginFlow(QStringLiteral("save-document"));
        const QString document = dir.filePath(QStringLiteral("bench.fleet"));
        auto saveOnce = [&] {
            QSignalSpy saved(window.document(), &app::WindowDocument::saved);
            QSignalSpy failed(window.document(), &app::WindowDocument::saveFailed);
            if (!window.document()->saveTo(document))
                return false;
            QElapsedTimer clock;
            clock.start();
            while (saved.isEmpty() && failed.isEmpty() && clock.elapsed() < 600000)
                QTest::qWait(20);
            if (!failed.isEmpty())
                std::fprintf(stderr, "bench_gui: save failed: %s\n", qPrintable(failed.first().first().toString()));
            return !saved.isEmpty();
        };
        act(QStringLiteral("save-document"), QStringLiteral("File > Save As (a new document)"), saveOnce);
        act(QStringLiteral("save-document"), QStringLiteral("File > Save (over it)"), saveOnce);
        endFlow();
    }
    if (planWanted(QStringLiteral("place-workload"))) {
        // ---- place workload ----
        beginFlow(QStringLiteral("place-workload"));
        auto* dialog = window.findChild<app::PlaceWorkloadDialog*>();
        act(QStringLiteral("place-workload"), QStringLiteral("Plan > Place Workload (the dialog opens)"), [&] {
            dialog->openFor();
            return dialog->isVisible();
        });
        act(QStringLiteral("place-workload"), QStringLiteral("Place (worker), the result taken"), [&] {
            dialog->setPods(8);
            dialog->setShape(QStringLiteral("8"), QStringLiteral("64Gi"), 8);
            dialog->setName(QStringLiteral("bench"));
            QSignalSpy finished(dialog, &app::PlaceWorkloadDialog::finished);
            return dialog->place() && waitFor(finished) && dialog->lastOutcome().placed;
        });
        act(QStringLiteral("place-workload"), QStringLiteral("Edit > Undo of the placement"), [&] {
            stack->undo();
            settle();
            return true;
        });
        endFlow();
    }
    if (planWanted(QStringLiteral("export-report"))) {
        // ---- export report ----
        // File > Export Report of the consolidation: the replay, layout and painting run on
        // workers; what the GUI thread does for the maps is what this flow's longest stall shows.
        beginFlow(QStringLiteral("export-report"));
        act(QStringLiteral("export-report"), QStringLiteral("File > Export Report"), [&] {
            auto* exporter = window.findChild<app::ReportExporter*>();
            QSignalSpy done(exporter, &app::ReportExporter::finished);
            const bool ok = exporter && exporter->exportTo(dir.filePath(QStringLiteral("report.pdf"))) && waitFor(done)
                && done.first().first().toBool();
            if (exporter)
                std::fprintf(stderr, "bench_gui: %s\n", qPrintable(exporter->lastMessage()));
            return ok;
        });
        endFlow();
    }
    if (planWanted(QStringLiteral("new-after-undo"))) {
        // ---- a new action after the consolidation's undo ----
        // The undo keeps a record of each undone action for Redo (PlanEngine::reapplyUndone());
        // the next apply() drops them all. --free-undone-here frees them on this thread first, as
        // apply() did before they went to a worker (the "before" figure), then the new action.
        beginFlow(QStringLiteral("new-after-undo"));
        act(QStringLiteral("new-after-undo"), QStringLiteral("Edit > Undo back to the empty plan"), [&] {
            while (stack->canUndo()) { // the consolidation, and the flows' steps after it
                stack->undo();
                settle();
            }
            return plan->engine()->applied().empty();
        });
        if (args.contains(QStringLiteral("--free-undone-here")))
            act(QStringLiteral("new-after-undo"), QStringLiteral("the undone actions' records freed here"), [&] {
                // Bench only: the window's engine is const to all but its commands.
                QElapsedTimer clock;
                clock.start();
                std::const_pointer_cast<model::PlanEngine>(plan->engine())->takeUndone().reset();
                std::fprintf(stderr, "bench_gui: the undone records freed in %.1f ms\n", static_cast<double>(clock.nsecsElapsed()) / 1e6);
                return true;
            });
        act(QStringLiteral("new-after-undo"), QStringLiteral("Fail Node (a new action)"), [&] {
            return plan->failNode(nodeAt(3)) && plan->engine()->applied().size() == 1;
        });
        endFlow();
    }
    }
report:
    watchdog.stop();
    stack->setClean(); // the window closes without asking

    // Every stall over the budget, in order, with the action it ended in.
    for (const app::StallWatchdog::Stall& s : watchdog.stalls())
        if (s.ms > app::StallWatchdog::kBudgetMs)
            std::fprintf(stderr, "stall %8.1f ms  %s (ended at %.3f s monotonic)\n", s.ms, qPrintable(s.context),
                static_cast<double>(s.endedAtMs) / 1e3);
    // Per flow: its longest stall and the action it ended in.
    for (const app::StallWatchdog::Stall& s : watchdog.stalls())
        for (FlowFigure& f : flows)
            if (f.flow == flowOf(s.context) && s.ms > f.maxStallMs) {
                f.maxStallMs = s.ms;
                f.action = s.context.section(QStringLiteral(" / "), 1);
            }
    // Per action: its longest stall; per flow: its longest frame.
    for (const app::StallWatchdog::Stall& s : watchdog.stalls())
        for (StepFigure& step : steps)
            if (step.context == s.context)
                step.maxStallMs = std::max(step.maxStallMs, s.ms);
    for (const StepFigure& step : steps)
        for (FlowFigure& f : flows)
            if (f.flow == flowOf(step.context))
                f.maxFrameMs = std::max(f.maxFrameMs, step.maxFrameMs);
    QString stepsJson;
    for (const StepFigure& step : steps) {
        std::fprintf(stderr, "step %-60s longest stall %7.1f ms, first frame %6.1f ms, longest frame %6.1f ms\n", qPrintable(step.context),
            step.maxStallMs, step.firstFrameMs, step.maxFrameMs);
        if (!stepsJson.isEmpty())
            stepsJson += QStringLiteral(", ");
        stepsJson += QStringLiteral("{\"flow\": %1, \"action\": %2, \"max_stall_ms\": %3, \"first_frame_ms\": %4, \"max_frame_ms\": %5}")
                         .arg(jsonText(flowOf(step.context)), jsonText(step.context.section(QStringLiteral(" / "), 1)))
                         .arg(step.maxStallMs, 0, 'f', 1)
                         .arg(step.firstFrameMs, 0, 'f', 1)
                         .arg(step.maxFrameMs, 0, 'f', 1);
    }
    QString loadAverage;
    if (QFile f(QStringLiteral("/proc/loadavg")); f.open(QIODevice::ReadOnly))
        loadAverage = QString::fromLatin1(f.readAll()).section(QLatin1Char(' '), 0, 2);
    double afterLoad = 0;
    QString afterLoadContext;
    for (const app::StallWatchdog::Stall& s : watchdog.stalls())
        if (flowOf(s.context) != QStringLiteral("load") && s.ms > afterLoad) {
            afterLoad = s.ms;
            afterLoadContext = s.context;
        }
    QString flowsJson;
    for (const FlowFigure& f : flows) {
        if (!flowsJson.isEmpty())
            flowsJson += QStringLiteral(", ");
        flowsJson += QStringLiteral("{\"flow\": %1, \"ms\": %2, \"max_stall_ms\": %3, \"action\": %4, \"max_frame_ms\": %5}")
                         .arg(jsonText(f.flow))
                         .arg(f.ms, 0, 'f', 0)
                         .arg(f.maxStallMs, 0, 'f', 1)
                         .arg(jsonText(f.action))
                         .arg(f.maxFrameMs, 0, 'f', 1);
        std::fprintf(stderr, "%-15s longest stall %8.1f ms (%s), longest frame %6.1f ms\n", qPrintable(f.flow), f.maxStallMs,
            qPrintable(f.action), f.maxFrameMs);
    }
    const QString longest = watchdog.maxStallContext();
    std::printf("{\"nodes\": %zu, \"actions\": %zu, \"flows\": [%s], \"steps\": [%s], \"max_stall_ms\": %.1f, \"stalls_over_50ms\": %d, "
                "\"p99_stall_ms\": %.1f, \"longest\": {\"flow\": %s, \"action\": %s}, \"max_stall_after_load_ms\": %.1f, "
                "\"longest_after_load\": {\"flow\": %s, \"action\": %s}, \"load_average\": %s}\n",
        nodes, actions, qPrintable(flowsJson), qPrintable(stepsJson), watchdog.maxStallMs(), watchdog.stallsOver(), watchdog.quantileMs(0.99),
        qPrintable(jsonText(flowOf(longest))), qPrintable(jsonText(longest.section(QStringLiteral(" / "), 1))), afterLoad,
        qPrintable(jsonText(flowOf(afterLoadContext))), qPrintable(jsonText(afterLoadContext.section(QStringLiteral(" / "), 1))),
        qPrintable(jsonText(loadAverage)));
    return 0;
}
