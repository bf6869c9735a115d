// SPDX-License-Identifier: Apache-2.0
// bench_placewindow: Plan > Place Workload in the window at scale, software OpenGL
// under xvfb-run. The main window shows the simulated fleet; the dialog places a gang of 8-GPU
// pods inside one network-node-layer-1 domain (a worker: the store's copy with the template pod,
// the engine over it, the placement), then the same gang again (the template reused: no copy).
// Figures: the worker's time and its store copy, the GUI thread's time to apply the result
// (PlanController::adoptPlacement() and the map / panel refresh it runs), the longest the GUI
// thread did not turn its event loop while the worker ran (a 5 ms timer's largest gap), and the
// next map frame. One JSON object last.
// Usage: xvfb-run -a -s "-screen 0 1600x1200x24" ./bench_placewindow [--nodes N] [--pods N]

#include "app/window/mainwindow.h"
#include "app/dialogs/placeworkloaddialog.h"
#include "app/controllers/plancontroller.h"
#include "app/startup/surfaceformat.h"
#include "views/map/fleetmapview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <cstdio>

using namespace fleet;

int main(int argc, char** argv)
{
    app::setDefaultSurfaceFormat();
    QApplication application(argc, argv);
    std::size_t nodes = 100000;
    int pods = 16;
    const QStringList args = application.arguments();
    if (const qsizetype i = args.indexOf(QStringLiteral("--nodes")); i >= 0 && i + 1 < args.size())
        nodes = args[i + 1].toULongLong();
    if (const qsizetype i = args.indexOf(QStringLiteral("--pods")); i >= 0 && i + 1 < args.size())
        pods = args[i + 1].toInt();
    app::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    QSignalSpy shown(&window, &app::MainWindow::clusterShown);
    window.openSimulated(nodes, 1);
    if (!shown.wait(600000))
        return 1;
    QSignalSpy ready(window.planController(), &app::PlanController::engineReady);
    if (!window.planController()->engine() && !ready.wait(600000))
        return 1;
    auto* dialog = window.findChild<app::PlaceWorkloadDialog*>();
    dialog->openFor();
    dialog->setPods(pods);
    dialog->setShape(QStringLiteral("8"), QStringLiteral("64Gi"), 8);
    dialog->setName(QStringLiteral("bench"));
    dialog->setRequiredLevel(QStringLiteral("topology.k8s.aws/network-node-layer-1"));
    window.mapView()->grabImage();

    struct Run {
        app::PlaceWorkloadOutcome outcome;
        double stallMs = 0, frameMs = 0;
        int stallStage = 0; // the progress bar's stage (app::PlaceStage) when the longest stall ended
    };
    auto run = [&]() {
        Run r;
        QElapsedTimer gap;
        gap.start();
        QTimer tick;
        tick.setInterval(5);
        QObject::connect(&tick, &QTimer::timeout, [&] {
            const double ms = static_cast<double>(gap.nsecsElapsed()) / 1e6;
            if (ms > r.stallMs) {
                r.stallMs = ms;
                r.stallStage = dialog->progressValue();
            }
            gap.restart();
        });
        QSignalSpy finished(dialog, &app::PlaceWorkloadDialog::finished);
        tick.start();
        if (!dialog->place() || !finished.wait(600000))
            return r;
        tick.stop();
        r.outcome = dialog->lastOutcome();
        QElapsedTimer frame;
        frame.start();
        window.mapView()->grabImage();
        r.frameMs = static_cast<double>(frame.nsecsElapsed()) / 1e6;
        return r;
    };
    const Run first = run();
    const Run again = run();
    std::fprintf(stderr, "%s\n", qPrintable(dialog->messageText()));
    std::printf("{\"nodes\": %zu, \"pods\": %d, \"placed\": %d, \"worker_ms\": %.0f, \"copy_ms\": %.0f, \"gui_apply_ms\": %.1f, "
                "\"gui_longest_stall_ms\": %.1f, \"stall_stage\": %d, \"frame_after_ms\": %.0f, \"again_worker_ms\": %.0f, \"again_copy_ms\": %.0f, "
                "\"again_gui_apply_ms\": %.1f}\n",
        nodes, pods, first.outcome.podsPlaced, first.outcome.workerMs, first.outcome.copyMs, first.outcome.guiApplyMs, first.stallMs,
        first.stallStage, first.frameMs, again.outcome.workerMs, again.outcome.copyMs, again.outcome.guiApplyMs);
    return first.outcome.placed ? 0 : 1;
}
