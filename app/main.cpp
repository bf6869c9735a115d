// SPDX-License-Identifier: Apache-2.0
// fleetscope: the desktop program and its headless subcommands. main() runs the subcommand
// named by argv[1] (the table in cli/subcommands.cpp; no display needed) and opens the window
// otherwise. The options are documented by each one's --help and in docs/cli.md.

#include "importers/simulated/simulatedlivefeed.h"
#include "cli/clustersource.h"
#include "cli/commandlinepath.h"
#include "cli/helptext.h"
#include "cli/subcommands.h"
#include "app/controllers/comparecontroller.h"
#include "app/window/mainwindow.h"
#include "app/window/planautosave.h"
#include "app/startup/runtimedir.h"
#include "app/startup/startupclock.h"
#include "app/startup/surfaceformat.h"
#include "xvfb/privatexserver.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>

#include <csignal>
#include <cstdio>
#include <exception>
#include <utility>

namespace {

using namespace fleet::app;

void setApplicationInfo()
{
    QCoreApplication::setApplicationName(QStringLiteral("fleetscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FLEET_VERSION));
    QCoreApplication::setOrganizationName(QStringLiteral("Fleetscope"));
}

// Prints the startup phases once the first frame of the cluster reached the screen.
struct StartupReport {
    double xserverMs = 0; // starting a private Xvfb (no display; not part of a desktop start)
    double applicationMs = 0; // since process start, QApplication constructed
    double windowShownMs = 0; // since process start, show() returned
    double firstFrameMs = -1; // since process start, the first frame of any content
    double clusterShownMs = 0; // since process start, setCluster() returned
    qint64 loadMs = 0;
    qint64 totalsMs = 0;
    qint64 setClusterMs = 0;
    QString label;

    void print(double clusterFrameMs) const
    {
        const double preMain = processStartToMainMs();
        std::printf("startup: %s\n", qPrintable(label));
        std::printf("  process start -> main()          %8.1f ms (kernel start time, 10 ms resolution)\n", preMain);
        if (xserverMs > 0)
            std::printf("  private Xvfb started (no display) %7.1f ms (included below)\n", xserverMs);
        std::printf("  main() -> QApplication ready     %8.1f ms\n", applicationMs - std::max(preMain, 0.0));
        std::printf("  -> window shown                  %8.1f ms\n", windowShownMs - applicationMs);
        std::printf("  first frame (empty map)          %8.1f ms after process start\n", firstFrameMs);
        std::printf("  import on worker (generate, finalize, topology, totals) %8lld ms\n", static_cast<long long>(loadMs));
        std::printf("    of which status-bar totals (ClusterTotals)            %8lld ms\n", static_cast<long long>(totalsMs));
        std::printf("  layout/raster (FleetMapView::setCluster, GUI thread)    %8lld ms\n", static_cast<long long>(setClusterMs));
        std::printf("  first render (setCluster returned -> frameRendered)     %8.1f ms\n", clusterFrameMs - clusterShownMs);
        std::printf("  total: process start -> first cluster frame on screen   %8.1f ms\n", clusterFrameMs);
        std::fflush(stdout);
    }
};

int runGui(int& argc, char** argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    // Parsed before QApplication exists, so --help and --version work without a display.
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Fleetscope: sees a whole cluster at once. Opens kubectl JSON or Alibaba GPU trace files, or a simulated "
                       "fleet when none is given.\n\n")
        + subcommandsHelp());
    parser.addHelpOption();
    parser.addVersionOption();
    addClusterSourceOptions(parser, true);
    parser.addOption(QCommandLineOption(QStringLiteral("prices"),
        QStringLiteral("A CSV of node prices (region,instance_type,capacity_type,usd_per_hour) whose rows replace the shipped ones."),
        QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("live"),
        QStringLiteral("With --simulate: the simulated cluster changes live (pods arrive and finish, nodes fail and "
                       "recover, gangs go back to Pending), through the same batches as a Kubernetes watch.")));
    parser.addOption(QCommandLineOption(QStringLiteral("rate"),
        QStringLiteral("With --live: events per second (default %1).").arg(fleet::importers::SimulatedLiveFeed::kDefaultRate),
        QStringLiteral("EVENTS_PER_S")));
    parser.addOption(QCommandLineOption(QStringLiteral("compare"),
        QStringLiteral("Once the cluster is shown, compare it with a later state (File > Compare With): a .fleet document or "
                       "a cluster file; repeat it for several files of one state."),
        QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("quit-after-first-frame"),
        QStringLiteral("Measure startup: print the time from process start to the first frame of "
                       "the cluster on screen, with its phases, and quit.")));
    // Qt's own options (-platform, -style, ...) are left to QApplication.
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "fleetscope: %s\nRun fleetscope --help for the options.\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, QStringLiteral("fleetscope [options] [FILE...]"))), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        std::printf("fleetscope %s\n", FLEET_VERSION);
        return 0;
    }
    ClusterSource source;
    QString error;
    if (!readClusterSource(parser, true, source, error)) {
        std::fprintf(stderr, "fleetscope: %s\n", error.toLocal8Bit().constData());
        return 2;
    }
    const bool measure = parser.isSet(QStringLiteral("quit-after-first-frame"));
    const bool live = parser.isSet(QStringLiteral("live"));
    double rate = fleet::importers::SimulatedLiveFeed::kDefaultRate;
    if (live && !source.simulate) {
        std::fprintf(stderr, "fleetscope: --live needs --simulate NODES (a Kubernetes cluster is watched with --kubeconfig).\n");
        return 2;
    }
    if (parser.isSet(QStringLiteral("rate"))) {
        bool ok = false;
        rate = parser.value(QStringLiteral("rate")).toDouble(&ok);
        if (!ok || !(rate > 0) || rate > 1e7 || !live) {
            std::fprintf(stderr, "fleetscope: --rate needs --live and a number of events per second above 0, got \"%s\".\n",
                qPrintable(parser.value(QStringLiteral("rate"))));
            return 2;
        }
    }

    // Without a display Qt's xcb plugin aborts with a core dump; say what to do instead.
    // The startup measurement needs no one to look: it gets a private Xvfb like `screenshot`.
    StartupReport report;
    PrivateXServer xserver; // outlives the QApplication below
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    const bool usesX11 = (platform.isEmpty() && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) || platform == "xcb";
    if (usesX11 && !canOpenXDisplay(qEnvironmentVariable("DISPLAY").toStdString())) {
        if (!measure) {
            std::fprintf(stderr,
                "fleetscope: cannot open the X display \"%s\". Run it on a desktop (or under xvfb-run); without a display use "
                "`fleetscope summary` or `fleetscope screenshot`.\n",
                qgetenv("DISPLAY").constData());
            return 1;
        }
        const double before = msSinceProcessStart();
        try {
            ensureXDisplay(xserver, 1600, 1200);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "fleetscope: %s\n", e.what());
            return 1;
        }
        report.xserverMs = msSinceProcessStart() - before;
    }

    setDefaultSurfaceFormat(); // before QApplication (DESIGN.md, "Views")
    QApplication app(argc, argv);
    report.applicationMs = msSinceProcessStart();

    MainWindow window;
    if (QString priceError; parser.isSet(QStringLiteral("prices"))
        && !window.setPriceOverrideFile(parser.value(QStringLiteral("prices")), priceError)) {
        std::fprintf(stderr, "fleetscope: --prices: %s\n", qPrintable(priceError));
        return 2;
    }
    bool clusterShown = false;
    if (measure) {
        QObject::connect(&window, &MainWindow::clusterShown, &window, [&] {
            report.clusterShownMs = msSinceProcessStart();
            report.loadMs = window.cluster()->loadMs;
            report.totalsMs = window.cluster()->totalsMs;
            report.setClusterMs = window.lastSetClusterMs();
            report.label = window.cluster()->sourceLabel;
            clusterShown = true;
        });
        QObject::connect(window.mapView(), &fleet::views::FleetMapView::frameRendered, &window, [&] {
            const double now = msSinceProcessStart();
            if (report.firstFrameMs < 0)
                report.firstFrameMs = now;
            if (clusterShown) {
                report.print(now);
                QCoreApplication::exit(0);
            }
        });
        // MainWindow logs the error itself (category fleet.app, on stderr).
        QObject::connect(&window, &MainWindow::importFailed, &window, [] { QCoreApplication::exit(1); });
    }
    if (live) {
        // Once the simulated cluster is shown, its live feed starts (it generates the same cluster
        // on its own thread, then streams changes).
        auto started = std::make_shared<bool>(false);
        QObject::connect(&window, &MainWindow::clusterShown, &window, [&window, source, rate, started] {
            if (*started)
                return;
            *started = true;
            window.startLiveFeed(std::make_unique<fleet::importers::SimulatedLiveFeed>(
                fleet::importers::SimulationSpec { source.simulatedNodes, source.seed, source.simulatedRegions }, rate));
        });
    }
    if (!measure) {
        // The window's geometry and docks as they were left; the shown plan autosaved every
        // minute (FLEET_AUTOSAVE_MS: another interval, for tests) and offered back after a crash.
        window.rememberSession();
        const int autosaveMs = qEnvironmentVariableIntValue("FLEET_AUTOSAVE_MS");
        window.startAutosave(autosaveMs > 0 ? autosaveMs : fleet::app::PlanAutosave::kDefaultIntervalMs);
    }
    if (const QStringList compare = parser.values(QStringLiteral("compare")); !compare.isEmpty()) {
        auto started = std::make_shared<bool>(false);
        QObject::connect(&window, &MainWindow::clusterShown, &window, [&window, compare, started] {
            if (std::exchange(*started, true))
                return;
            if (auto* controller = window.findChild<fleet::app::CompareController*>())
                controller->compareWithFiles(compare);
        });
    }
    // Start the import first: it runs on a worker while the window appears.
    window.openSource(source);
    window.show();
    report.windowShownMs = msSinceProcessStart();
    return app.exec();
}

} // namespace

int main(int argc, char** argv)
{
    markMainEntered();
    // A file-size limit (ulimit -f) then fails the write with EFBIG, which the output writer
    // reports ("file too large") after removing its temporary file, instead of killing the
    // process mid-write with SIGXFSZ and leaving the temporary file behind.
    std::signal(SIGXFSZ, SIG_IGN);
    rememberCommandLine(argc, argv);
    // Before any Q*Application: Qt reads XDG_RUNTIME_DIR when the platform starts.
    const PrivateRuntimeDir runtimeDir;
    setApplicationInfo();
    if (const Subcommand* verb = argc > 1 ? findSubcommand(argv[1]) : nullptr) {
        if (verb->runOwnApplication)
            return verb->runOwnApplication(argc, argv);
        QCoreApplication app(argc, argv); // no GUI: works without a display
        setApplicationInfo();
        return verb->run(QCoreApplication::arguments());
    }
    return runGui(argc, argv);
}
