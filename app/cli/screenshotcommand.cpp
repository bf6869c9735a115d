// SPDX-License-Identifier: Apache-2.0
#include "screenshotcommand.h"

#include "clustersource.h"
#include "commandlinepath.h"
#include "helptext.h"
#include "outputpath.h"
#include "subcommands.h"

#include "app/window/explorepanels.h"
#include "app/window/mainwindow.h"
#include "app/window/windowdocument.h"
#include "app/controllers/plancontroller.h"
#include "app/controllers/planopener.h"
#include "app/startup/surfaceformat.h"
#include "app/xvfb/privatexserver.h"
#include "model/metrics/metricregistry.h"
#include "model/metrics/planmetrics.h"
#include "model/metrics/usagemetrics.h"

#include "model/domainpath.h"
#include "importers/optionfile.h"
#include "model/labelselector.h"
#include "views/map/maplegend.h"
#include "views/panels/nodefilter.h"
#include "views/report/reportmaps.h"

#include "importers/terminaltext.h"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::app {
namespace {

// ", cpu-used, ..." for --metric's help and error: the usage metrics, where the cluster has usage.
QString usageIds()
{
    QString ids;
    for (const model::UsageMetricKind k : model::kUsageMetricKinds)
        ids += QStringLiteral(", ") + QString::fromLatin1(model::usageMetricId(k));
    return ids + QStringLiteral(" (usage, where the cluster has it)");
}

constexpr int kTimeoutMs = 300'000; // import plus first frame; a 100k-node simulation takes seconds
constexpr int kMaximumSize = 8192; // pixels, either side: the largest Xvfb screen we ask for

struct ScreenshotOptions {
    ClusterSource source;
    QString output;
    importers::OutputFileOptions outputOptions; // the command's inputs, which -o may not overwrite
    QSize size { 1280, 860 };
    QString metric = QStringLiteral("gpu"); // an id of model::MetricRegistry::builtin()
    QString pricesFile; // --prices: overrides the shipped price table
    QStringList printCells;
    bool printLegend = false;
    bool mapOnly = false;
    QByteArray imageFormat = "PNG"; // from the output's suffix (imageFormatForPath())
    QString selectorText; // --selector, checked for syntax before the import
    model::LabelSelector selector;
    QString focus; // --focus node/NAME or KEY=VALUE[/KEY=VALUE...]
    QString panel; // --panel problems|pending|heatmap: drawn below the window, in the same image
    QString planPath; // --plan: the map under this plan (re-checked against the cluster, as File > Open Plan)
    /// The window's size: the whole image, less the panel's band when there is one.
    [[nodiscard]] QSize windowSize() const { return QSize(size.width(), size.height() - panelHeight()); }
    /// The panel's band: 40% of the image, at least 120 px, at most 600 px (0 without --panel).
    [[nodiscard]] int panelHeight() const
    {
        return panel.isEmpty() ? 0 : std::clamp(size.height() * 2 / 5, std::min(120, size.height() / 2), 600);
    }
};

// The image formats `-o` writes, by file suffix (Qt's built-in writers, no plugin needed).
// A name without a suffix is written as PNG. Returns an empty array for any other suffix.
QByteArray imageFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix.isEmpty() || suffix == QLatin1String("png"))
        return "PNG";
    if (suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg"))
        return "JPEG";
    if (suffix == QLatin1String("bmp"))
        return "BMP";
    if (suffix == QLatin1String("ppm"))
        return "PPM";
    return {};
}

int fail(const QString& text, int code)
{
    importers::printTerminalf(stderr, "fleetscope screenshot: %s\n", qPrintable(text));
    return code;
}

// Parses without a QCoreApplication (the display must be settled before one exists).
// Returns the exit code when the run should stop (help, error), or nothing to go on.
std::optional<int> parseOptions(int argc, char** argv, ScreenshotOptions& options)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (args.size() > 1)
        args.removeAt(1); // "screenshot"

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Renders the fleet map of a cluster to a PNG file. Needs no display: "
                                                    "starts a private Xvfb when none can be opened."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(
        { QStringLiteral("o"), QStringLiteral("output") }, QStringLiteral("The image to write: PNG, or JPEG, BMP or PPM by its suffix (.jpg, .bmp, .ppm)."), QStringLiteral("out.png")));
    parser.addOption(QCommandLineOption(QStringLiteral("size"), QStringLiteral("Size of the image in pixels (default 1280x860)."),
        QStringLiteral("WxH"), QStringLiteral("1280x860")));
    parser.addOption(QCommandLineOption(QStringLiteral("metric"),
        QStringLiteral("Colour by a metric: %1 (default gpu); with --plan also plan-difference (plan-diff-gpu), plan-diff-cpu, "
                       "plan-diff-memory.")
            .arg(QString::fromStdString(model::MetricRegistry::builtin().validIds()) + usageIds()),
        QStringLiteral("NAME"), QStringLiteral("gpu")));
    parser.addOption(QCommandLineOption(QStringLiteral("prices"),
        QStringLiteral("A CSV of node prices (region,instance_type,capacity_type,usd_per_hour) whose rows replace the "
                       "shipped ones."),
        QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("plan"),
        QStringLiteral("Show the map under this plan (resources/schemas/plan-v1.md), re-checked against the cluster as File > "
                       "Open Plan does: gpu, cpu and memory are then their shares under the plan."),
        QStringLiteral("PLAN.json")));
    parser.addOption(QCommandLineOption(
        QStringLiteral("map-only"), QStringLiteral("Write only the map with its legend, not the whole window.")));
    parser.addOption(QCommandLineOption(QStringLiteral("selector"),
        QStringLiteral("Dim every node not selected by SEL, the map's filter: a label selector in kubectl's syntax "
                       "(key=value, key!=value, key in (a,b), key notin (a), key, !key; commas AND), or "
                       "workload:NAMESPACE/NAME or namespace:NAMESPACE (the nodes running their pods)."),
        QStringLiteral("SEL")));
    parser.addOption(QCommandLineOption(QStringLiteral("focus"),
        QStringLiteral("Zoom to node/NAME, or to a topology domain by its path of labels, e.g. "
                       "topology.kubernetes.io/zone=us-east-1a (levels may be skipped where the name is unique)."),
        QStringLiteral("node/NAME|KEY=VALUE[/KEY=VALUE...]")));
    parser.addOption(QCommandLineOption(QStringLiteral("panel"),
        QStringLiteral("Include a panel below the window (or the map, with --map-only), in the same --size: "
                       "problems, pending or heatmap."),
        QStringLiteral("problems|pending|heatmap")));
    parser.addOption(QCommandLineOption(QStringLiteral("print-legend"),
        QStringLiteral("Print the map legend's marker key with its counts, \"legend-marker TEXT\" per line (as a report's maps "
                       "list it), and for a difference its scale, \"legend-scale TEXT\" per line.")));
    parser.addOption(QCommandLineOption(QStringLiteral("print-cell"),
        QStringLiteral("Print \"cell NODE X Y\": the centre of NODE's cell in image pixels (repeatable)."),
        QStringLiteral("NODE")));
    addClusterSourceOptions(parser, true);
    if (!parser.parse(args))
        return fail(parser.errorText(), 2);
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, subcommandUsage("screenshot"))), stdout);
        return 0;
    }
    options.output = parser.value(QStringLiteral("output"));
    if (options.output.isEmpty())
        return fail(QStringLiteral("-o out.png is required"), 2);
    // Checked before the import, which can take seconds, and again before writing. A path that
    // cannot take the image is a failure to write it (1), as when writing fails later; 2 stays
    // for options that are malformed as typed.
    options.outputOptions = commandOutputOptions(parser);
    if (const std::string problem = outputTargetProblem("-o", options.output.toStdString(), options.outputOptions);
        !problem.empty())
        return fail(QString::fromStdString(problem), 1);
    // The file gets the format its name asks for (a ".jpg" once received PNG bytes).
    options.imageFormat = imageFormatForPath(options.output);
    if (options.imageFormat.isEmpty())
        return fail(QStringLiteral("-o %1: cannot write .%2 images; name the file .png, .jpg, .bmp or .ppm")
                        .arg(options.output, QFileInfo(options.output).suffix()),
            2);
    static const QRegularExpression sizeRe(QStringLiteral("^(\\d{1,5})x(\\d{1,5})$"));
    const QString sizeText = parser.value(QStringLiteral("size"));
    const auto m = sizeRe.match(sizeText);
    options.size = m.hasMatch() ? QSize(m.captured(1).toInt(), m.captured(2).toInt()) : QSize();
    const QSize& least = MainWindow::kMinimumSize;
    if (!m.hasMatch() || options.size.width() < least.width() || options.size.height() < least.height()
        || options.size.width() > kMaximumSize || options.size.height() > kMaximumSize)
        return fail(QStringLiteral("--size: expected WxH between %1x%2 and %3x%3, got \"%4\"")
                        .arg(least.width())
                        .arg(least.height())
                        .arg(kMaximumSize)
                        .arg(sizeText),
            2);
    options.metric = parser.value(QStringLiteral("metric"));
    options.planPath = parser.value(QStringLiteral("plan"));
    if (options.metric == QLatin1String("plan-difference"))
        options.metric = QStringLiteral("plan-diff-gpu");
    const bool planMetric = !model::planMetricBaseId(options.metric.toStdString()).empty();
    if (planMetric && options.planPath.isEmpty())
        return fail(QStringLiteral("--metric %1 needs --plan PLAN.json").arg(parser.value(QStringLiteral("metric"))), 2);
    if (!options.planPath.isEmpty()) {
        // The one bounded reader of option files says why a plan cannot be read (missing, a
        // folder, a FIFO, a symbolic link loop, too large), as every other command does.
        try {
            (void)importers::readOptionFile(commandLinePath(options.planPath), importers::OptionFileKind::Plan);
        } catch (const importers::OptionFileError& e) {
            // A missing bare name was perhaps a plan a document keeps, which only a file can be here.
            const bool bareName = !options.planPath.contains(QLatin1Char('/')) && !QFileInfo::exists(options.planPath);
            return fail(QStringLiteral("--plan: cannot read %1%2")
                            .arg(QString::fromStdString(e.what()),
                                bareName ? QStringLiteral(" (screenshot --plan takes a plan file, not the name of a plan a .fleet document "
                                                          "keeps: the window shows those from its Plans list, and `fleetscope report "
                                                          "DOC.fleet --plan NAME` draws their maps)")
                                         : QString()),
                2);
        }
    }
    model::UsageMetricKind usageKind;
    if (!planMetric && !model::MetricRegistry::builtin().find(options.metric.toStdString())
        && !model::usageMetricKind(options.metric.toStdString(), usageKind))
        return fail(QStringLiteral("--metric: expected one of %1, got \"%2\"")
                        .arg(QString::fromStdString(model::MetricRegistry::builtin().validIds()) + usageIds(), options.metric),
            2);
    options.pricesFile = parser.value(QStringLiteral("prices"));
    if (!options.pricesFile.isEmpty()) {
        // A file that cannot be read fails (1) before the import; a malformed one is refused
        // (2) when it is parsed, naming its line and column.
        try {
            (void)importers::readOptionFile(commandLinePath(options.pricesFile), importers::OptionFileKind::Prices);
        } catch (const importers::OptionFileError& e) {
            return fail(QStringLiteral("--prices: cannot read %1").arg(QString::fromStdString(e.what())), 1);
        }
    }
    options.mapOnly = parser.isSet(QStringLiteral("map-only"));
    if (parser.isSet(QStringLiteral("selector"))) {
        options.selectorText = parser.value(QStringLiteral("selector"));
        // Label selectors are checked before the import; the workload: and namespace: forms
        // need the cluster (evaluateNodeFilter below, the rule the window's filter uses).
        const QString trimmed = options.selectorText.trimmed();
        const bool clusterForm = trimmed.startsWith(QLatin1String("workload:")) || trimmed.startsWith(QLatin1String("namespace:"));
        try {
            if (!clusterForm)
                options.selector = model::parseLabelSelector(options.selectorText.toStdString());
        } catch (const model::LabelSelectorError& e) {
            // The selector, and a caret under the place where it went wrong (the message
            // itself starts with "at character N").
            const int column = static_cast<int>(e.position());
            return fail(QStringLiteral("--selector: %1\n  %2\n  %3^")
                            .arg(QString::fromStdString(e.what()), options.selectorText, QString(column, QLatin1Char(' '))),
                2);
        }
    }
    if (parser.isSet(QStringLiteral("panel"))) {
        options.panel = parser.value(QStringLiteral("panel"));
        if (!screenshotPanelNames().contains(options.panel))
            return fail(QStringLiteral("--panel: expected %1, got \"%2\"")
                            .arg(screenshotPanelNames().join(QStringLiteral(", ")), options.panel),
                2);
        if (options.size.height() - options.panelHeight() < MainWindow::kMinimumSize.height())
            return fail(QStringLiteral("--panel: --size %1x%2 leaves the window less than %3 px; give a taller image")
                            .arg(options.size.width())
                            .arg(options.size.height())
                            .arg(MainWindow::kMinimumSize.height()),
                2);
    }
    options.focus = parser.value(QStringLiteral("focus"));
    if (!options.focus.isEmpty() && !options.focus.startsWith(QLatin1String("node/"))) {
        try {
            (void)model::parseDomainPath(options.focus.toStdString()); // syntax now; the domain after the import
        } catch (const std::invalid_argument& e) {
            return fail(QStringLiteral("--focus: %1").arg(QString::fromStdString(e.what())), 2);
        }
    } else if (options.focus == QLatin1String("node/")) {
        return fail(QStringLiteral("--focus: expected node/NAME, got \"node/\""), 2);
    }
    options.printCells = parser.values(QStringLiteral("print-cell"));
    options.printLegend = parser.isSet(QStringLiteral("print-legend"));
    QString error;
    if (!readClusterSource(parser, true, options.source, error))
        return fail(error, 2);
    if (options.source.simulate && !options.source.files.isEmpty()) // the window's plan beside --simulate; here --plan says it
        return fail(QStringLiteral("--simulate cannot be combined with files (a plan to show: --plan FILE)"), 2);
    return std::nullopt;
}

// Runs the event loop until `done` is true or the timeout passes. Returns `done`.
bool waitFor(const bool& done, int timeoutMs)
{
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done)
            loop.quit();
    });
    poll.start(10);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    if (!done)
        loop.exec();
    return done;
}

int render(const ScreenshotOptions& options)
{
    MainWindow window;
    window.setWatchLiveClusters(false); // one LIST, no watch
    window.setLogImportErrors(false); // reported below, once, with the subcommand's name
    window.document()->setRemembersRecent(false); // an image made, not a source the user opened
    window.setMetric(options.metric);
    if (QString error; !options.pricesFile.isEmpty() && !window.setPriceOverrideFile(options.pricesFile, error))
        return fail(QStringLiteral("--prices: %1").arg(error), 2);
    window.resize(options.windowSize());

    bool finished = false;
    bool rendered = false; // a frame reached the screen after the cluster was set
    QString importError;
    QObject::connect(&window, &MainWindow::clusterShown, &window, [&] { finished = true; });
    QObject::connect(window.mapView(), &views::FleetMapView::frameRendered, &window, [&] { rendered = finished; });
    QObject::connect(&window, &MainWindow::importFailed, &window, [&](const QString& message) {
        importError = message;
        finished = true;
    });
    QObject::connect(window.importController(), &ImportController::importCancelled, &window, [&] { finished = true; });
    window.openSource(options.source);
    window.show();
    // --map-only: --size is the image's size, the map's area, so the window grows by what its
    // menus, toolbar, status bar and any warning banner take (user trial: the height was the
    // window's, not the map's). Done again once the import is shown: its warning banner (a slow
    // live LIST ends after the first fit) takes height from the map.
    const auto fitMapToSize = [&] {
        if (!options.mapOnly)
            return;
        QCoreApplication::processEvents();
        const QSize chrome = window.size() - window.mapView()->size();
        window.resize(options.windowSize() + chrome.expandedTo(QSize(0, 0)));
        QCoreApplication::processEvents();
    };
    fitMapToSize();

    if (!waitFor(finished, kTimeoutMs))
        return fail(QStringLiteral("timed out after %1 s waiting for the import").arg(kTimeoutMs / 1000), 1);
    if (!importError.isEmpty())
        return fail(importError, 1);
    if (!window.cluster())
        return fail(QStringLiteral("the import was cancelled"), 1);
    // A usage metric exists once a cluster with usage is shown.
    if (model::UsageMetricKind kind; model::usageMetricKind(options.metric.toStdString(), kind) && !window.setMetric(options.metric))
        return fail(QStringLiteral("--metric %1: %2 has no usage data (the simulated cluster has its own)")
                        .arg(options.metric, window.cluster()->sourceLabel),
            1);

    // The first frame of the cluster on screen (setCluster() asked for it).
    if (!waitFor(rendered, 60'000))
        return fail(QStringLiteral("timed out waiting for the first frame of the map"), 1);
    QCoreApplication::processEvents();

    // The problems, pending counts and search index of the toolbar come from a worker: wait
    // for them, so the image shows their counts and the problem markers, as the window
    // settles to (without, the toolbar read "Indexing names..." and "Problems (...)").
    if (ExplorePanels* explore = window.explorePanels()) {
        bool analysed = !explore->isIndexing();
        QObject::connect(explore, &ExplorePanels::analysisApplied, &window, [&] { analysed = true; });
        if (!waitFor(analysed, kTimeoutMs))
            return fail(QStringLiteral("timed out waiting for the problems and the search index"), 1);
        QCoreApplication::processEvents();
    }
    fitMapToSize();

    // --plan: opened as File > Open Plan opens it (re-checked on a worker), then the metric
    // again, so that gpu, cpu and memory are their shares under the plan.
    if (!options.planPath.isEmpty()) {
        if (!window.planController()->engine())
            window.planController()->buildEngineNow();
        if (!window.planController()->engine())
            return fail(QStringLiteral("--plan: no plan can be checked against %1").arg(window.cluster()->sourceLabel), 1);
        // A .fleet document that keeps plans opens its first one, re-checked on a worker, as
        // soon as the engine is ready (buildEngineNow() above, or earlier on its own): the
        // opener takes one plan at a time, so --plan waits for that one to be shown and then
        // replaces it. Opened at once, it was refused whenever that re-check was still running.
        if (window.planOpener()->isRunning()) {
            bool documentPlanDone = false;
            const auto waiting = QObject::connect(
                window.planOpener(), &PlanOpener::finished, &window, [&documentPlanDone] { documentPlanDone = true; });
            const bool done = waitFor(documentPlanDone, kTimeoutMs);
            QObject::disconnect(waiting);
            if (!done)
                return fail(QStringLiteral("timed out re-checking the document's own plan before --plan %1").arg(options.planPath), 1);
            QCoreApplication::processEvents();
        }
        bool planDone = false;
        bool planOpened = false;
        QObject::connect(window.planOpener(), &PlanOpener::finished, &window, [&](bool opened) {
            planOpened = opened;
            planDone = true;
        });
        if (!window.openPlanFile(QString::fromStdString(commandLinePath(options.planPath))))
            return fail(window.planOpener()->isRunning()
                    ? QStringLiteral("--plan %1: another plan was still being opened").arg(options.planPath)
                    : QStringLiteral("--plan %1: the shown plan has changes that would be lost").arg(options.planPath),
                1);
        if (!waitFor(planDone, kTimeoutMs))
            return fail(QStringLiteral("timed out re-checking the plan %1").arg(options.planPath), 1);
        if (!planOpened)
            return fail(QStringLiteral("--plan: %1").arg(window.planOpener()->lastMessage()), 1);
        window.setMetric(options.metric);
        QCoreApplication::processEvents();
        fitMapToSize(); // the Plan dock that opened with the plan took room from the map
    }

    // The view state the window would have: the filter, then the focus.
    const ImportedCluster& cluster = *window.cluster();
    if (!options.selectorText.isEmpty()) {
        const views::NodeFilterResult filter = views::evaluateNodeFilter(*cluster.store, options.selectorText);
        if (!filter.error.isEmpty())
            return fail(QStringLiteral("--selector: %1 in %2").arg(filter.error, cluster.sourceLabel), 1);
        auto mask = filter.mask;
        // Every node dimmed with no word of why looked like a broken map (user trial).
        if (filter.matching == 0)
            importers::printTerminalf(stderr, "fleetscope screenshot: warning: --selector %s matches none of the %zu nodes\n",
                qPrintable(options.selectorText), cluster.store->nodeCount());
        window.mapView()->setNodeMask(std::move(mask));
    }
    if (options.focus.startsWith(QLatin1String("node/"))) {
        const QString name = options.focus.mid(5);
        const model::NodeId node = cluster.store->findNode(name.toStdString());
        if (!node.isValid())
            return fail(QStringLiteral("--focus: no node named \"%1\" in %2").arg(name, cluster.sourceLabel), 1);
        window.mapView()->setSelectedNode(node);
        window.mapView()->zoomToNode(node);
    } else if (!options.focus.isEmpty()) {
        try {
            const model::DomainId domain
                = model::findDomainByPath(*cluster.topology, model::parseDomainPath(options.focus.toStdString()));
            window.mapView()->zoomToDomain(domain);
        } catch (const std::invalid_argument& e) {
            return fail(QStringLiteral("--focus: %1").arg(QString::fromStdString(e.what())), 1);
        }
    }
    QCoreApplication::processEvents();

    views::FleetMapView* map = window.mapView();
    const QImage mapImage = map->grabImage();
    if (mapImage.isNull())
        return fail(QStringLiteral("the map could not be rendered (no OpenGL?)"), 1);
    QImage image;
    QPoint mapOffset;
    if (options.mapOnly) {
        image = mapImage;
    } else {
        // The window with its menus and status bar; the map is painted over its own place
        // from grabImage(), which renders the OpenGL frame as it reached the screen.
        image = window.grab().toImage().convertToFormat(QImage::Format_RGB32);
        mapOffset = map->mapTo(&window, QPoint(0, 0)) * image.devicePixelRatio();
        QPainter painter(&image);
        painter.drawImage(QRect(mapOffset, mapImage.size() / mapImage.devicePixelRatio() * image.devicePixelRatio()), mapImage);
    }

    if (image.size() != options.windowSize() * image.devicePixelRatio())
        return fail(QStringLiteral("the %5 is %1x%2, not the %3x%4 asked for")
                        .arg(image.width())
                        .arg(image.height())
                        .arg(options.windowSize().width())
                        .arg(options.windowSize().height())
                        .arg(options.mapOnly ? QStringLiteral("map") : QStringLiteral("window")),
            1);
    if (!options.panel.isEmpty()) {
        // The panel, filled from the same cluster, in a band below: one image of --size
        // (of the map's width with --map-only).
        const qreal dpr = image.devicePixelRatio();
        const int width = qRound(image.width() / dpr);
        const QSize bandSize(width, options.panelHeight());
        std::unique_ptr<QWidget> panel
            = createScreenshotPanel(options.panel, window.cluster()->store, window.cluster()->topology, bandSize);
        if (!panel)
            return fail(QStringLiteral("--panel: cannot draw the %1 panel").arg(options.panel), 1);
        QImage combined(QSize(width, qRound(image.height() / dpr) + bandSize.height()) * dpr, QImage::Format_RGB32);
        combined.setDevicePixelRatio(dpr);
        combined.fill(Qt::white);
        QPainter painter(&combined);
        painter.drawImage(QPoint(0, 0), image);
        panel->render(&painter, QPoint(0, qRound(image.height() / dpr)));
        painter.end();
        image = combined;
    }

    const model::ClusterStore& store = *window.cluster()->store;
    // An unknown node is an error, found before anything is printed or written.
    for (const QString& name : options.printCells)
        if (!store.findNode(name.toStdString()).isValid())
            return fail(QStringLiteral("--print-cell: no node named \"%1\" in %2").arg(name, window.cluster()->sourceLabel), 1);
    for (const QString& name : options.printCells) {
        const model::NodeId node = store.findNode(name.toStdString());
        const QPoint centre = map->cellCenter(node);
        if (centre.isNull())
            importers::printTerminalf(stdout, "cell %s hidden\n", qPrintable(name));
        else {
            const QPoint p = mapOffset + centre * mapImage.devicePixelRatio();
            importers::printTerminalf(stdout, "cell %s %d %d\n", qPrintable(name), p.x(), p.y());
        }
    }

    if (options.printLegend)
        if (const auto* legend = map->findChild<views::MapLegend*>()) {
            for (const QString& line : views::legendMarkerKey(*legend))
                importers::printTerminalf(stdout, "legend-marker %s\n", qPrintable(line));
            const views::MetricColorScale scale = views::MetricColorScale::forColumn(legend->currentMetric(), legend->column());
            for (const QString& line : views::legendScaleRange(legend->currentMetric(), scale))
                importers::printTerminalf(stdout, "legend-scale %s\n", qPrintable(line));
        }

    // Encoded in memory first, then written as a whole (importers/output/outputfile.h), so that
    // a full disk or a target changed while we rendered leaves the previous image as it was.
    QByteArray encoded;
    {
        QBuffer buffer(&encoded);
        buffer.open(QIODevice::WriteOnly);
        if (!image.save(&buffer, options.imageFormat.constData(), options.imageFormat == "JPEG" ? 95 : -1))
            return fail(
                QStringLiteral("cannot encode the %1 image for %2").arg(QString::fromLatin1(options.imageFormat), options.output),
                1);
    }
    try {
        importers::writeOutputFile(options.output.toStdString(),
            std::string_view(encoded.constData(), static_cast<std::size_t>(encoded.size())), options.outputOptions);
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()), 1);
    }
    importers::printTerminalf(stdout, "wrote %s (%dx%d)\n", qPrintable(QFileInfo(options.output).absoluteFilePath()), image.width(), image.height());
    std::fflush(stdout);
    return 0;
}

} // namespace

int runScreenshot(int& argc, char** argv)
{
    ScreenshotOptions options;
    if (const auto stop = parseOptions(argc, argv, options))
        return *stop;

    // Declared before the QApplication, so destroyed after it: Qt's X connection closes
    // before the server goes away, on every exit path (returns and exceptions alike).
    PrivateXServer xserver;
    try {
        // The screen is a little larger than the window, so the window manager-less placement
        // never clips it.
        ensureXDisplay(xserver, options.size.width() + 256, options.size.height() + 256); // room for --map-only's chrome
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()), 1);
    }
    setDefaultSurfaceFormat();
    try {
        QApplication app(argc, argv);
        QApplication::setApplicationName(QStringLiteral("fleetscope"));
        return render(options);
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()), 1);
    }
}

} // namespace fleet::app
