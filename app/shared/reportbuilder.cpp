// SPDX-License-Identifier: Apache-2.0
#include "reportbuilder.h"

#include "importers/plan/plankept.h"
#include "importers/plan/plansource.h"
#include "model/metrics/metric.h"
#include "model/plan/planprices.h"
#include "model/search/karpenterbaseline.h"
#include "views/report/fleetreport.h"
#include "views/report/reportpages.h"

#include <QBuffer>
#include <QDateTime>
#include <QFileInfo>
#include <QImage>
#include <QLoggingCategory>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <malloc.h>

namespace fleet::app {

namespace {

// Each worker's wall and CPU time, for the benchmark's breakdown (the machine is shared: CPU
// time says what a step costs, wall time what it adds): QT_LOGGING_RULES="fleet.*.debug=true".
Q_LOGGING_CATEGORY(lcReportWorkers, "fleet.app.report.workers", QtInfoMsg)

// Hands the memory that a finished step freed back to the system. glibc keeps what a thread
// frees in that thread's arena for its later allocations; a step's transient memory (the
// Karpenter baseline's search, the replay's drain planning, the plan's actions once read:
// about 300 MB at 100,000 nodes) would otherwise stay resident to the end of the report, when
// its resident set is largest (the state, the replay, the maps and the pages all held then).
// malloc_trim() gives back the free pages of every arena (up to about 0.1 s). Thread: any.
void releaseFreedMemory()
{
    const auto t0 = std::chrono::steady_clock::now();
    malloc_trim(0);
    qCDebug(lcReportWorkers, "freed memory handed back: %.0f ms", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
}

// Runs `work` and logs its wall and thread CPU milliseconds as `what`.
template<typename Work>
auto timed(const char* what, Work&& work)
{
    timespec cpu0 { };
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
    const auto t0 = std::chrono::steady_clock::now();
    auto result = work();
    timespec cpu1 { };
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
    const double cpuMs = static_cast<double>(cpu1.tv_sec - cpu0.tv_sec) * 1e3 + static_cast<double>(cpu1.tv_nsec - cpu0.tv_nsec) / 1e6;
    qCDebug(lcReportWorkers, "%s: %.0f ms wall, %.0f ms CPU", what,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(), cpuMs);
    return result;
}

// The layout's input of `job`, for its head or its tail: all but the creation time, the
// version, the maps and the baseline (the head's own). Pointers into `job` and `tail`.
views::FleetReportInput reportInput(const ReportJob& job, const ReportTail& tail)
{
    const ReportSubject& s = job.subject;
    views::FleetReportInput input;
    // Text from the input is shown escaped wherever the report repeats it (the page header,
    // the PDF's title, the plan section's summary line): views::reportSafeText().
    input.title = views::reportSafeText(s.title);
    for (const QString& line : s.provenance)
        input.provenance.push_back(views::reportSafeText(line));
    input.planName = views::reportSafeText(QString::fromStdString(s.planName));
    input.planNote = views::reportSafeText(QString::fromStdString(job.sourceNote));
    input.store = s.store.get();
    input.topology = s.topology.get();
    input.context = job.context.get();
    input.usage = s.usage.get();
    input.engine = job.engine.get();
    input.evaluation = job.hasPlan() ? &job.evaluation : nullptr;
    input.actions = job.hasPlan() ? &job.actions() : nullptr;
    // Prices are known when the table prices some node: a trace without instance types or
    // regions prices none, and its costs are unknown, not $0.00.
    const std::vector<double> prices = model::planNodePrices(*s.store, s.prices.get());
    input.pricedNodes = std::count_if(prices.begin(), prices.end(), [](double p) { return p > 0; });
    input.hasPrices = input.pricedNodes > 0;
    input.risks = tail.risks ? &*tail.risks : nullptr;
    if (tail.kept) {
        if (tail.kept->kept)
            input.kept = &*tail.kept->kept;
        input.keptRecorded = tail.kept->recorded;
        input.lpBoundNodes = tail.kept->lpBoundNodes;
    }
    input.figures = &tail.figures;
    return input;
}

} // namespace

QStringList reportProvenanceLines(const importers::PlanSource& source, const QString& label)
{
    QStringList lines;
    if (!source.simulated.empty())
        lines << QStringLiteral("simulated cluster, %1 (deterministic: the same seed gives the same cluster)").arg(QString::fromStdString(source.simulated));
    for (const auto& f : source.files)
        lines << QStringLiteral("file %1, SHA-256 %2").arg(QString::fromStdString(f.name), QString::fromStdString(f.sha256));
    if (!source.server.empty())
        lines << QStringLiteral("live cluster %1, resourceVersion %2").arg(QString::fromStdString(source.server), QString::fromStdString(source.resourceVersion));
    if (lines.isEmpty())
        lines << label;
    return lines;
}

QString reportDefaultTitle(const std::string& planName, const QString& sourceLabel)
{
    const QString plan = planName.empty() ? QString() : QFileInfo(QString::fromStdString(planName)).fileName();
    return plan.isEmpty() ? QStringLiteral("Fleet report: %1").arg(sourceLabel) : QStringLiteral("Plan review: %1").arg(plan);
}

std::unique_ptr<ReportJob> startReport(ReportSubject subject)
{
    auto job = std::make_unique<ReportJob>();
    job->subject = std::move(subject);
    const ReportSubject& s = job->subject;
    const std::shared_ptr<const model::ClusterStore> store = s.store;
    const std::shared_ptr<const model::Topology> topology = s.topology;
    // The engine gives the loaded state's totals too (no plan: no action applied).
    std::vector<double> nodePrices = model::planNodePrices(*store, s.prices.get());
    // Beside a consolidation, the Karpenter baseline over the same loaded state and prices, as
    // `plan consolidate` runs it: a search of its own, on a worker while the plan is replayed.
    const bool consolidation = std::any_of(s.plan.actions.begin(), s.plan.actions.end(),
        [](const model::PlanAction& a) { return a.type == model::ActionType::DrainNode; });
    if (consolidation && s.baseline)
        job->baseline = std::async(std::launch::async, [store, topology, nodePrices] {
            return timed("Karpenter baseline (worker)", [&] {
                model::ConsolidationInput input;
                input.nodePricePerHour = nodePrices;
                model::ConsolidationResult r = model::karpenterMultiNodeConsolidation(*store, *topology, input);
                // The report shows its figures only: its lists (a kept entry with a message for
                // most nodes) are freed here, not held through the maps and the layout.
                r.kept = {};
                r.actions = {};
                r.drained = {};
                r.pendingPlaced = {};
                r.pendingPods = {};
                releaseFreedMemory();
                return r;
            });
        });
    // Why the nodes the consolidation keeps stay, as its search found them: read from the plan
    // file where the search recorded it for this state and these actions (checked entry by
    // entry, plankept.h), else its search's pass replayed on a worker while the plan is
    // replayed (old plans, plans edited or made on another state).
    if (consolidation && job->hasPlan())
        // The subject is not changed while this worker runs, and the job's address is stable:
        // the worker reads the plan (its record is tens of MB at 100,000 nodes) where it is.
        job->kept = std::async(std::launch::async, [store, topology, nodePrices, held = job.get()] {
            const importers::PlanDocument& plan = held->subject.plan;
            const importers::PlanSource& current = held->subject.current;
            KeptReasons out;
            importers::RecordedKept recorded = timed("recorded kept reasons (worker)", [&] { return importers::recordedKept(*store, plan, current); });
            out.note = std::move(recorded.problem);
            if (recorded.kept) {
                out.kept = std::move(recorded.kept);
                out.recorded = true;
                out.lpBoundNodes = recorded.lpBoundNodes;
                return out;
            }
            if (!out.note.empty())
                out.note += "; the search is replayed instead";
            out.kept = timed("kept replay (worker)", [&] {
                model::ConsolidationInput input;
                input.nodePricePerHour = nodePrices;
                return model::replayConsolidationKept(*store, *topology, input, plan.actions);
            });
            return out;
        });
    job->engine = std::make_shared<model::PlanEngine>(*store, *topology, std::move(nodePrices));
    if (job->hasPlan()) {
        // One list of records: the engine's, unless it refused to start some action (then the
        // evaluation's, which has that one too). Not a copy released later: the copies sat
        // between the engine's records in the heap, and their pages stayed resident.
        job->evaluation = timed("plan replay", [&] { return importers::evaluatePlanOn(*job->engine, s.plan, importers::ActionRecords::InEngine); });
        job->actionsInEngine = job->evaluation.actions.empty();
        releaseFreedMemory();
        job->evaluation.state = s.current;
        job->sourceNote = importers::sourceDifference(s.plan.source, s.current);
        job->evaluation.sourceNote = job->sourceNote;
        // What the plan risks (about 1.4 s at 100,000 nodes: every pod's budgets), on a worker
        // while the maps are drawn; it reads the store and the replay, which no one changes now.
        ReportJob* held = job.get();
        job->risks = std::async(std::launch::async, [held] {
            return timed("plan risks (worker)", [held] { return model::planRisks(*held->subject.store, held->actions()); });
        });
    }
    job->context = std::make_shared<const model::MetricContext>(*s.store, s.prices.get());
    // The figures the figures and waste sections show (about 0.4 s of CPU at 100,000 nodes), on
    // a worker while the maps are drawn: they read the store and the engine, which no one
    // changes now.
    job->figures = std::async(std::launch::async, [held = job.get()] {
        return timed("section figures (worker)", [held] {
            views::FleetReportInput in;
            in.store = held->subject.store.get();
            in.topology = held->subject.topology.get();
            in.context = held->context.get();
            in.usage = held->subject.usage.get();
            in.engine = held->engine.get();
            in.evaluation = held->hasPlan() ? &held->evaluation : nullptr;
            in.actions = held->hasPlan() ? &held->actions() : nullptr;
            return views::reportSectionFigures(in);
        });
    });
    // The tail of the report (the plan in full and its appendix: most of the pages) laid out on
    // a worker once what it shows is in, while the maps are drawn; it takes the workers' results.
    job->tail = std::async(std::launch::async, [held = job.get()] {
        ReportTail tail;
        if (held->risks.valid())
            tail.risks = held->risks.get();
        if (held->kept.valid())
            tail.kept = held->kept.get();
        // The replay (done before this worker started) and the kept worker were the only
        // readers of the plan's actions and record: their memory (about 150 MB at 100,000
        // nodes) is handed back before the layout, whose pages are held to the end.
        held->subject.plan.actions = {};
        held->subject.plan.consolidation.reset();
        releaseFreedMemory();
        tail.figures = held->figures.get();
        return timed("tail layout (worker)", [&] {
            const views::FleetReportInput input = reportInput(*held, tail);
            tail.pages = std::make_unique<views::ReportPages>(input.title);
            views::buildFleetReportTail(input, *tail.pages);
            return std::move(tail);
        });
    });
    return job;
}

views::ReportMapInput reportMapInput(const ReportJob& job)
{
    views::ReportMapInput input;
    input.store = job.subject.store;
    input.topology = job.subject.topology;
    input.prices = job.subject.prices;
    input.engine = job.hasPlan() ? job.engine : nullptr;
    input.metric = job.subject.metric;
    return input;
}

QString undrawableCharactersText(const std::vector<char32_t>& undrawable)
{
    return QStringLiteral("%1 of the report's text %2 in no installed font and %3 drawn as \uFFFD: %4. A font that has %5 "
                          "(fonts-noto-cjk for Chinese, Japanese and Korean) draws %6.")
        .arg(undrawable.size() == 1 ? QStringLiteral("1 character") : QStringLiteral("%1 characters").arg(undrawable.size()),
            undrawable.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"), undrawable.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"),
            views::ReportPages::characterList(undrawable), undrawable.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"),
            undrawable.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
}

FinishedReport finishReport(ReportJob& job, views::ReportMaps maps, bool png, int pngWidth, int pngHeight)
{
    FinishedReport out;
    const ReportTail tail = job.tail.get();
    views::FleetReportInput input = reportInput(job, tail);
    input.created = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    input.version = QStringLiteral(FLEET_VERSION);
    input.maps = std::move(maps);
    model::ConsolidationResult baselineResult;
    if (job.baseline.valid()) {
        baselineResult = job.baseline.get();
        input.baseline = &baselineResult;
    }
    if (tail.kept)
        out.keptNote = tail.kept->note;
    views::ReportPages pages(input.title);
    views::buildFleetReportHead(input, pages);
    pages.appendPages(*tail.pages);
    out.pages = pages.pageCount();
    out.undrawable = pages.undrawableCharacters();
    if (png) {
        const QImage image = pages.pageImage(0, pngWidth, pngHeight);
        QBuffer buffer(&out.bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!image.save(&buffer, "PNG")) {
            out.bytes.clear();
            out.error = QStringLiteral("cannot encode the PNG image");
        }
    } else {
        out.bytes = pages.pdf(input.title, QStringLiteral("Fleetscope %1").arg(QStringLiteral(FLEET_VERSION)));
        if (out.bytes.isEmpty())
            out.error = QStringLiteral("cannot paint the PDF");
    }
    return out;
}

} // namespace fleet::app
