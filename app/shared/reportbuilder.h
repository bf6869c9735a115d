// SPDX-License-Identifier: Apache-2.0
#pragma once
// The steps of a report (views/report/fleetreport.h), one code path for `fleetscope report` and
// the window's File > Export Report:
// 1. startReport(): the plan replayed on a plan engine over the loaded state (as `plan check`
//    does), and on workers of their own what the plan risks and, beside a consolidation, the
//    Karpenter baseline (as `plan consolidate` runs it) and the search's reasons why nodes stay
//    (the plan file's record, importers/plan/plankept.h, or replayed: model/search/keptreplay.h),
//    and once the plan is replayed the figures the sections show (views::reportSectionFigures())
//    and the report's tail laid out (views::buildFleetReportTail()). Any thread, once the
//    QGuiApplication exists (the tail's fonts).
// 2. views::renderReportMaps(reportMapInput(job), ...): the maps, drawn by the fleet map's
//    off-screen path (`screenshot`'s). GUI thread only.
// 3. finishReport(): waits for the workers, lays the head (title block, figures, maps) out
//    before the tail's pages and paints the PDF (or the first
//    page as a PNG). Thread: any, once the QGuiApplication exists (QPainter on a QImage or a
//    QPdfWriter, and QFont, work off the GUI thread in Qt 6).
// The caller writes the bytes through importers/output/outputfile.h.

#include "importers/plan/planevaluation.h"
#include "importers/plan/planfile.h"
#include "model/clusterstore.h"
#include "model/metrics/metric.h"
#include "model/plan/plan.h"
#include "model/pricing/pricetable.h"
#include "model/report/reportfigures.h"
#include "model/search/consolidation.h"
#include "model/search/keptreplay.h"
#include "model/topology.h"
#include "model/usage.h"
#include "views/report/fleetreport.h"
#include "views/report/reportmaps.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <future>
#include <memory>
#include <string>
#include <vector>

namespace fleet::app {

/// What a report is of: the loaded state, its source, the plan and how to show it.
struct ReportSubject {
    std::shared_ptr<const model::ClusterStore> store;   // not null
    std::shared_ptr<const model::Topology> topology;    // not null, over `store`
    std::shared_ptr<const model::ClusterUsage> usage;   // may be null (no usage figures)
    std::shared_ptr<const model::PriceTable> prices;    // not null (the shipped table at least)
    importers::PlanDocument plan;      // its actions are replayed on the loaded state
    std::string planName;              // the plan's file or name; "" without a plan
    importers::PlanSource current;     // the loaded state's source (files and digests, simulation, server)
    QStringList provenance;            // the title block's source lines (reportProvenanceLines())
    QString title;                     // the report's title (reportDefaultTitle())
    std::string metric = "gpu";        // the maps' metric (views::ReportMapInput::metric)
    bool baseline = true;              // the Karpenter baseline beside a consolidation
};

/// Why each node a consolidation plan keeps stays, as its search found it.
struct KeptReasons {
    /// The plan file's record (importers/plan/plankept.h) when it is usable, else replayed
    /// (model/search/keptreplay.h); nullopt when no search wrote the plan as it stands.
    std::optional<model::KeptReplay> kept;
    bool recorded = false; // `kept` is the plan file's record, not a replay
    std::int64_t lpBoundNodes = -1; // the record's LP bound (RecordedKept::lpBoundNodes), -1: none
    /// Why the plan's recorded reasons are not used (importers::RecordedKept::problem, then
    /// "; the search is replayed instead"): "" when they are, or when the plan has none.
    std::string note;
};

/// The report's tail (views::buildFleetReportTail(): the plan, why nodes stay, the risks, waste
/// and pending demand, the appendix) laid out on a worker, with what it waited for.
struct ReportTail {
    std::optional<model::PlanRisks> risks; // with a plan
    std::optional<KeptReasons> kept;       // beside a plan ending in drains
    views::ReportSectionFigures figures;
    std::unique_ptr<views::ReportPages> pages; // the tail's pages, to append to the head's
};

/// A report under way: the replay done, the risks and the baseline on their workers.
struct ReportJob {
    /// Whatever the caller keeps alive as long as the job, its workers joined first (the
    /// window's store read guard): the first member, destroyed last.
    std::shared_ptr<const void> hold;
    /// What the report is of. subject.plan's actions and consolidation record are read by
    /// the replay and the kept worker only, and released (empty) once both are done (the
    /// tail's worker does it: each action's record is in actions()).
    ReportSubject subject;
    std::shared_ptr<model::PlanEngine> engine;
    /// The metric context over the store and prices that the workers and the layout share
    /// (model::MetricContext is safe from any thread); outlives the workers (declared before them).
    std::shared_ptr<const model::MetricContext> context;
    /// The replay's totals and notes. Its `actions` are released when every action was applied
    /// through the engine (then the engine's applied() is the same list): read actions().
    importers::PlanEvaluation evaluation;
    bool actionsInEngine = false; // evaluation.actions released: the engine holds the records
    /// The plan's actions as replayed, with whether each holds and why.
    [[nodiscard]] const std::vector<model::AppliedAction>& actions() const { return actionsInEngine ? engine->applied() : evaluation.actions; }
    std::string sourceNote; // why the state is not the plan's source ("" when it is)
    std::future<model::PlanRisks> risks;
    std::future<model::ConsolidationResult> baseline;
    /// Beside a plan ending in drains: why each node stays, as the consolidation that wrote the
    /// plan found it (KeptReasons), on a worker.
    std::future<KeptReasons> kept;
    /// The figures and waste sections' model figures (views::reportSectionFigures()), on a
    /// worker once the plan is replayed.
    std::future<views::ReportSectionFigures> figures;
    /// The tail laid out on a worker once the risks, the kept reasons and the figures are in
    /// (it takes them: finishReport() reads them from here), while the maps are drawn.
    std::future<ReportTail> tail;
    [[nodiscard]] bool hasPlan() const { return !subject.planName.empty(); }
};

/// The lines of the title block naming the state's source: the simulation and its seed, each
/// file with its SHA-256, or the live server and resourceVersion; `label` when none. Thread: any.
[[nodiscard]] QStringList reportProvenanceLines(const importers::PlanSource& source, const QString& label);

/// "Plan review: PLAN" (the plan's file name) with a plan, else "Fleet report: SOURCE". Thread: any.
[[nodiscard]] QString reportDefaultTitle(const std::string& planName, const QString& sourceLabel);

/// Step 1: replays subject.plan on a new plan engine over the state and starts the workers.
/// The job's address must not change until finishReport() returned (the risks read its
/// evaluation): it is held by pointer. Thread: any.
[[nodiscard]] std::unique_ptr<ReportJob> startReport(ReportSubject subject);

/// The maps' input of `job` (step 2). Thread: any.
[[nodiscard]] views::ReportMapInput reportMapInput(const ReportJob& job);

/// What finishReport() made.
struct FinishedReport {
    QByteArray bytes;  // empty on failure: `error` says why
    QString error;
    int pages = 0;
    std::string keptNote; // KeptReasons::note: why the plan's recorded reasons were not used ("" when they were, or none)
    /// Characters of the report's text (its title, names from the input) that no installed font
    /// draws, painted as U+FFFD (views::ReportPages::undrawableCharacters()); empty: none.
    std::vector<char32_t> undrawable;
};

/// A sentence on what `undrawable` (FinishedReport::undrawable, not empty) lost: "2 characters of
/// the report's text are in no installed font and are drawn as \uFFFD: U+6771 東, U+4EAC 京.
/// A font that has them (fonts-noto-cjk for Chinese, Japanese and Korean) draws them." Thread: any.
[[nodiscard]] QString undrawableCharactersText(const std::vector<char32_t>& undrawable);

/// Step 3: the pages with `maps`, as a PDF (A4 pages, text as text), or with `png` its first
/// page as a PNG `pngWidth` pixels wide and `pngHeight` high (0: A4's aspect; see
/// views::ReportPages::pageImage()). Waits for the job's workers. Thread: see the header.
[[nodiscard]] FinishedReport finishReport(ReportJob& job, views::ReportMaps maps, bool png, int pngWidth = 1240, int pngHeight = 0);

} // namespace fleet::app
