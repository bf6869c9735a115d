// SPDX-License-Identifier: Apache-2.0
#include "reportcommand.h"

#include "clustersource.h"
#include "commandlinepath.h"
#include "commandplan.h"
#include "helptext.h"
#include "outputpath.h"
#include "subcommands.h"

#include "app/shared/importfailure.h"
#include "app/shared/reportbuilder.h"
#include "model/plan/planprices.h"
#include "app/startup/surfaceformat.h"
#include "app/xvfb/privatexserver.h"

#include "importers/terminaltext.h"
#include "importers/plan/planevaluation.h"
#include "importers/plan/plansource.h"
#include "importers/pricing/pricetableloader.h"
#include "model/metrics/metric.h"
#include "model/figures.h"
#include "model/report/reportfigures.h"
#include "model/search/karpenterbaseline.h"
#include "views/report/fleetreport.h"
#include "views/report/reportmaps.h"
#include "views/report/reportpages.h"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QDateTime>
#include <QFileInfo>
#include <QImage>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <exception>
#include <future>
#include <memory>
#include <optional>

namespace fleet::app {
namespace {

// The time of each step, for the benchmark's breakdown: QT_LOGGING_RULES="fleet.app.report.debug=true".
Q_LOGGING_CATEGORY(lcReport, "fleet.app.report", QtInfoMsg)

struct ReportOptions {
    ClusterSource source;
    QString output;
    importers::OutputFileOptions outputOptions;
    bool png = false;
    // A4 at 150 dpi (210 x 297 mm: 1240 x 1754 pixels), as --size's help says: not the
    // 595 x 842-point page's own aspect at 1240 wide (1755), which --size accepts too.
    int pngWidth = 1240;
    int pngHeight = 1754; // 0: the page's aspect
    QString title;
    QString planPath;
    QString pricesPath;
    QString metric = QStringLiteral("gpu");
    bool baseline = true; // the Karpenter baseline beside a consolidation
};

int fail(const QString& text, int code)
{
    importers::printTerminalf(stderr, "fleetscope report: %s\n", qPrintable(text));
    return code;
}

std::optional<int> parseOptions(int argc, char** argv, ReportOptions& options)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (args.size() > 1)
        args.removeAt(1); // "report"
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Writes a report for a change review: the cluster's figures before and after a plan, the maps, the plan in full with "
        "what holds and why, why nodes stay, what the plan risks, wasted GPUs by domain and pending demand. A PDF (text is "
        "text), or its first page as a PNG. Needs no display: starts a private Xvfb when none can be opened."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption({ QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("The report to write: REPORT.pdf, or REPORT.png (the first page as an image)."), QStringLiteral("REPORT.pdf")));
    parser.addOption(QCommandLineOption(QStringLiteral("plan"),
        QStringLiteral("A plan file (resources/schemas/plan-v1.md), or the name of a plan kept in the .fleet document given as "
                       "the state, re-evaluated against the cluster as `plan check` does."),
        QStringLiteral("PLAN.json|NAME")));
    parser.addOption(QCommandLineOption(QStringLiteral("title"), QStringLiteral("The report's title (default: \"Fleet report: SOURCE\", "
                                                                                "or \"Plan review: PLAN\" with --plan)."),
        QStringLiteral("TEXT")));
    parser.addOption(QCommandLineOption(QStringLiteral("prices"),
        QStringLiteral("A CSV of node prices (region,instance_type,capacity_type,usd_per_hour) whose rows replace the shipped "
                       "table's, for the costs."),
        QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("metric"),
        QStringLiteral("Colour the maps by gpu (default), cpu or memory requested."), QStringLiteral("gpu|cpu|memory"),
        QStringLiteral("gpu")));
    parser.addOption(QCommandLineOption(QStringLiteral("no-baseline"),
        QStringLiteral("Leave out the Karpenter multi-node baseline beside a consolidation (a search of its own: about 2.6 s of "
                       "CPU at 100,000 nodes, run beside the plan's replay).")));
    parser.addOption(QCommandLineOption(QStringLiteral("size"),
        QStringLiteral("With a .png output: the image's width and height in pixels, W from 300 to 8192 (default 1240x1754, A4 at "
                       "150 dpi). The page keeps A4's proportions: H within 1 % of W x 842 / 595 (2480x3508 is A4 at 300 dpi)."),
        QStringLiteral("WxH")));
    addClusterSourceOptions(parser, false);
    if (!parser.parse(args))
        return fail(parser.errorText(), 2);
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, subcommandUsage("report"))), stdout);
        return 0;
    }
    options.output = parser.value(QStringLiteral("output"));
    if (options.output.isEmpty())
        return fail(QStringLiteral("-o REPORT.pdf or -o REPORT.png is required"), 2);
    const QString suffix = QFileInfo(options.output).suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("png"))
        return fail(QStringLiteral("-o %1: name the report .pdf or .png").arg(options.output), 2);
    options.png = suffix == QLatin1String("png");
    options.outputOptions = commandOutputOptions(parser);
    if (const std::string problem = outputTargetProblem("-o", options.output.toStdString(), options.outputOptions); !problem.empty())
        return fail(QString::fromStdString(problem), 1);
    if (parser.isSet(QStringLiteral("size"))) {
        static const QRegularExpression sizeRe(QStringLiteral("^(\\d{1,5})x(\\d{1,5})$"));
        const auto m = sizeRe.match(parser.value(QStringLiteral("size")));
        if (!options.png)
            return fail(QStringLiteral("--size applies to a .png report (a PDF's pages are A4)"), 2);
        const QString given = parser.value(QStringLiteral("size"));
        if (!m.hasMatch())
            return fail(QStringLiteral("--size: expected WxH, the image's width and height in pixels (e.g. 1240x1754: A4 at 150 dpi), got \"%1\"")
                            .arg(given),
                2);
        const int width = m.captured(1).toInt();
        const int height = m.captured(2).toInt();
        if (width < 300 || width > 8192)
            return fail(QStringLiteral("--size %1: the width must be from 300 to 8192 pixels").arg(given), 2);
        // The page is A4 (595 x 842 points): a height within 1 % of the width's is drawn at
        // exactly that height (2480x3508, A4 at 300 dpi, is 2 pixels off the points' aspect);
        // another would distort the page.
        const auto a4Height = static_cast<int>(std::lround(width * views::ReportPages::kA4Height / views::ReportPages::kA4Width));
        const int slack = std::max(2, a4Height / 100);
        if (std::abs(height - a4Height) > slack)
            return fail(QStringLiteral("--size %1: a report page keeps A4's proportions: at %2 pixels wide give a height from %3 to %4 "
                                       "(%5 is the page's own)")
                            .arg(given)
                            .arg(width)
                            .arg(a4Height - slack)
                            .arg(a4Height + slack)
                            .arg(a4Height),
                2);
        options.pngWidth = width;
        options.pngHeight = height;
    }
    options.metric = parser.value(QStringLiteral("metric"));
    if (options.metric != QLatin1String("gpu") && options.metric != QLatin1String("cpu") && options.metric != QLatin1String("memory"))
        return fail(QStringLiteral("--metric: expected gpu, cpu or memory, got \"%1\"").arg(options.metric), 2);
    options.baseline = !parser.isSet(QStringLiteral("no-baseline"));
    options.planPath = parser.value(QStringLiteral("plan"));
    options.pricesPath = parser.value(QStringLiteral("prices"));
    options.title = parser.value(QStringLiteral("title"));
    QString error;
    if (!readClusterSource(parser, false, options.source, error))
        return fail(error, 2);
    return std::nullopt;
}

// What the report is made of, read before the window system is needed: the plan, the prices
// and the cluster (the import can take seconds: it runs while the private X server starts).
struct Prepared {
    int failCode = 0; // non-zero: `error` says why, and this is the exit status
    QString error;
    importers::PlanDocument plan;
    std::string planPath;
    std::shared_ptr<model::PriceTable> prices;
    importers::LoadedCluster loaded;
    importers::PlanSource current;
    double importMs = 0;
    std::chrono::steady_clock::time_point started; // when the command began (the import)
};

Prepared prepare(const ReportOptions& options)
{
    const auto started = std::chrono::steady_clock::now();
    Prepared p;
    p.started = started;
    // The plan file is read and checked on a worker beside the import (a consolidation's plan
    // at 100,000 nodes is 35 MB of JSON: about 0.2 s); its error, if any, is reported first,
    // as when it was read before the import.
    // A plan file, or the name of a plan kept in the .fleet document given as the state.
    std::future<CommandPlan> chosenPlan;
    if (!options.planPath.isEmpty())
        chosenPlan = std::async(std::launch::async, [&options] { return readCommandPlan(options.planPath, options.source.files); });
    auto takePlan = [&]() -> bool {
        if (!chosenPlan.valid())
            return true;
        try {
            CommandPlan chosen = chosenPlan.get();
            if (!chosen.note.empty())
                importers::printTerminalf(stderr, "fleetscope report: note: %s\n", chosen.note.c_str());
            p.plan = std::move(chosen.plan);
            p.planPath = chosen.label;
            return true;
        } catch (const std::exception& e) {
            p.failCode = 2;
            p.error = QString::fromStdString(e.what());
            return false;
        }
    };
    p.prices = std::make_shared<model::PriceTable>();
    try {
        *p.prices = importers::loadPriceTable(options.pricesPath.isEmpty() ? std::string() : commandLinePath(options.pricesPath));
    } catch (const std::exception& e) {
        if (takePlan()) {
            p.failCode = 2;
            p.error = QStringLiteral("--prices: %1").arg(QString::fromStdString(e.what()));
        }
        return p;
    }
    const QString label = clusterSourceLabel(options.source);
    try {
        p.loaded = loadClusterSource(options.source);
        p.current = clusterPlanSource(options.source, p.loaded);
    } catch (const std::exception& e) {
        if (takePlan()) {
            p.failCode = 1;
            p.error = importFailureMessage(e, label);
        }
        return p;
    }
    if (!takePlan())
        return p;
    try {
        if (!p.planPath.empty()) // place-pods actions bring their template pod when the state lacks it
            importers::addPlanTemplatePods(*p.loaded.store, p.plan, p.planPath);
    } catch (const std::exception& e) {
        p.failCode = 1;
        p.error = importFailureMessage(e, label);
    }
    p.importMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    return p;
}

int run(const ReportOptions& options, Prepared prepared)
{
    const auto started = prepared.started;
    auto step = [&, last = started](const char* what) mutable {
        const auto now = std::chrono::steady_clock::now();
        qCDebug(lcReport, "%s: %.0f ms", what, std::chrono::duration<double, std::milli>(now - last).count());
        last = now;
    };
    if (prepared.failCode != 0)
        return fail(prepared.error, prepared.failCode);
    qCDebug(lcReport, "import (beside the X server's start): %.0f ms", prepared.importMs);
    const QString label = clusterSourceLabel(options.source);
    step("wait for the import");
    ReportSubject subject;
    subject.store = prepared.loaded.store;
    subject.topology = prepared.loaded.topology;
    subject.usage = prepared.loaded.usage;
    subject.prices = prepared.prices;
    subject.plan = std::move(prepared.plan);
    subject.planName = prepared.planPath;
    subject.current = prepared.current;
    subject.provenance = reportProvenanceLines(prepared.current, label);
    subject.title = !options.title.isEmpty() ? options.title
                                             : reportDefaultTitle(prepared.planPath, QString::fromStdString(prepared.loaded.sourceLabel));
    subject.metric = options.metric.toStdString();
    subject.baseline = options.baseline;
    std::unique_ptr<ReportJob> job = startReport(std::move(subject));
    if (!job->sourceNote.empty())
        importers::printTerminalf(stderr, "fleetscope report: note: %s\n", job->sourceNote.c_str());
    step("plan replay");
    // At print resolution (views::kReportMapDevicePixelRatio), as the window's Export Report draws them.
    views::ReportMaps maps = views::renderReportMaps(reportMapInput(*job), views::kReportMapLogicalSize, views::kReportMapDevicePixelRatio);
    if (maps.before.isNull())
        return fail(QStringLiteral("the map could not be rendered (no OpenGL?)"), 1);
    step("maps");
    const FinishedReport report = finishReport(*job, std::move(maps), options.png, options.pngWidth, options.pngHeight);
    if (!report.keptNote.empty())
        importers::printTerminalf(stderr, "fleetscope report: note: %s\n", report.keptNote.c_str());
    // Never dropped silently: each character the fonts lack is named, and shown as U+FFFD.
    if (!report.undrawable.empty())
        importers::printTerminalf(stderr, "fleetscope report: warning: %s\n", qPrintable(undrawableCharactersText(report.undrawable)));
    if (report.bytes.isEmpty())
        return fail(QStringLiteral("%1 for %2").arg(report.error, options.output), 1);
    step("risks, baseline, figures, layout and paint");
    const QByteArray& bytes = report.bytes;
    // Written as a whole (importers/output/outputfile.h): a failure keeps the previous file.
    try {
        importers::writeOutputFile(options.output.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
            options.outputOptions);
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()), 1);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("wrote %s (%s pages%s, %s bytes, %.1f s)\n", qPrintable(QFileInfo(options.output).absoluteFilePath()),
        model::formatCount(report.pages).c_str(), options.png ? ", the first as an image" : "",
        model::formatCount(static_cast<std::int64_t>(bytes.size())).c_str(), seconds);
    std::fflush(stdout);
    // The job (the state, the plan engine and its indexes: over a million allocations at
    // 100,000 nodes) is left for the end of the process, which hands its memory back at once:
    // freeing it piece by piece took about half a second of the report's time. Its workers
    // have all been waited for (finishReport()). Held by a static pointer, so that a leak
    // checker (FLEET_SANITIZE) sees it reachable.
    static const ReportJob* leftToProcessExit = nullptr;
    const ReportJob& done = *job;
    leftToProcessExit = job.release();
    (void)leftToProcessExit;
    const auto& actions = done.actions();
    // As `plan check` exits: 1 when some action does not hold (the report is written all the
    // same, with a banner on its first page saying so).
    const auto broken = std::count_if(actions.begin(), actions.end(), [](const model::AppliedAction& a) { return !a.holds; });
    if (done.hasPlan() && broken > 0) {
        importers::printTerminalf(stderr, "fleetscope report: %s of %s %s on this cluster state%s (exit status 1, as plan check)\n",
            model::formatCount(static_cast<std::int64_t>(broken)).c_str(), model::formatCount(static_cast<std::int64_t>(actions.size())).c_str(),
            actions.size() == 1 ? "action does not hold" : broken == 1 ? "actions does not hold" : "actions do not hold",
            done.sourceNote.empty() ? "" : ": the plan was made on another cluster state");
        return 1;
    }
    return 0;
}

} // namespace

int runReport(int& argc, char** argv)
{
    ReportOptions options;
    if (const auto stop = parseOptions(argc, argv, options))
        return *stop;
    // The import runs while the private X server and the application start.
    std::future<Prepared> prepared = std::async(std::launch::async, [&options] { return prepare(options); });
    PrivateXServer xserver; // destroyed after the QApplication below
    try {
        ensureXDisplay(xserver, 1280, 1024);
    } catch (const std::exception& e) {
        prepared.wait();
        return fail(QString::fromStdString(e.what()), 1);
    }
    setDefaultSurfaceFormat();
    try {
        QApplication app(argc, argv);
        QApplication::setApplicationName(QStringLiteral("fleetscope"));
        return run(options, prepared.get());
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()), 1);
    }
}

} // namespace fleet::app
