// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a report says, in order: the title block (the cluster's source and provenance, when,
// Fleetscope's version, the plan), the figures before -> after, the maps, the plan in full,
// why nodes stay, what the plan risks, wasted GPUs by domain and pending demand by shape.
// The figures come from model/report/reportfigures.h and the plan's records from the same
// evaluation `plan check` prints (importers/plan/planevaluation.h), so the numbers are theirs.
//
// Numbers are written exactly (counts and GPUs with thousands separators, "12,345.5"; dollars
// with two decimals, "$1,234.56"), not rounded to three digits as the window's status bar
// does, so that a reviewer can reconcile them with `plan check --format json`.

#include "importers/plan/planfile.h"
#include "model/metrics/metric.h"
#include "model/plan/plan.h"
#include "model/report/reportfigures.h"
#include "model/search/consolidation.h"
#include "model/search/consolidationbound.h"
#include "model/search/keptreplay.h"
#include "model/topology.h"
#include "model/usage.h"
#include "views/report/reportmaps.h"
#include "views/report/reportpages.h"

#include <QString>
#include <QStringList>

namespace fleet::views {

/// The model's figures that the figures and waste sections show, apart from the layout so that
/// a caller can compute them on a worker beside the maps (reportSectionFigures()).
struct ReportSectionFigures {
    model::FleetFigures before;                 // model::figuresBefore() of the engine's ledger
    model::FleetFigures after;                  // model::figuresAfter(), with a plan
    /// model::nodeCountLowerBound() with the pending pods the plan places first, beside a plan
    /// that drains nodes (a consolidation); nullopt otherwise.
    std::optional<model::NodeCountBound> bound;
    std::vector<model::DomainWaste> waste;      // model::gpuWasteByDomain(), the top ten leaf domains
};

struct FleetReportInput {
    QString title;            // the report's title (the first heading and the footer)
    QStringList provenance;   // the cluster's source, one line each ("file nodes.json, SHA-256 ...")
    QString created;          // when, as text (UTC)
    QString version;          // Fleetscope's version
    QString planName;         // the plan file ("" without a plan)
    QString planNote;         // why the cluster is not the plan's source ("" when it is)
    const model::ClusterStore* store = nullptr;
    const model::Topology* topology = nullptr;
    const model::MetricContext* context = nullptr; // over `store`, with the prices
    const model::ClusterUsage* usage = nullptr;    // may be null
    /// The plan engine over `store` with the prices: the plan applied (its replay is
    /// `evaluation`), or no action when there is no plan (the loaded state's totals). Not null.
    const model::PlanEngine* engine = nullptr;
    /// The plan's evaluation: its totals, state and notes (null: no plan). Its `actions` may have
    /// been released; the report reads the actions from `actions`.
    const importers::PlanEvaluation* evaluation = nullptr;
    /// Every action of the plan as replayed, with whether it holds and why: the evaluation's
    /// list, or the engine's applied() when that is the same list (every action applied through
    /// the engine) and the evaluation's copy was released (about 180 MB at 100,000 nodes). Not
    /// null when `evaluation` is not.
    const std::vector<model::AppliedAction>* actions = nullptr;
    /// Whether any node has a price (model::planNodePrices() above 0): without, every cost and
    /// saving is shown as unknown ("no prices known for these nodes"), never $0.00.
    bool hasPrices = false;
    std::int64_t pricedNodes = 0; // the store's nodes with a price (the others count $0 in the costs)
    /// Karpenter's multi-node consolidation over the loaded state (karpenterbaseline.h), shown
    /// beside a plan that drains nodes; null: not computed.
    const model::ConsolidationResult* baseline = nullptr;
    /// Why each node the consolidation keeps stays, as its search found it (keptreplay.h);
    /// null: the plan is no search's as it stands, and the report gives what holds the nodes now
    /// (model::whyNodesStay()) under another heading.
    const model::KeptReplay* kept = nullptr;
    bool keptRecorded = false; // `kept` was read from the plan file (the search recorded it), not replayed
    /// The LP bound the search that wrote the plan recorded (COIN-OR Clp over pod and node
    /// classes, model/search/packingrelaxation.h), nodes; -1: none (too slow to compute here at
    /// 100,000 nodes, so only a recorded one is shown).
    std::int64_t lpBoundNodes = -1;
    /// model::planRisks() of `evaluation`, when the caller computed it (on a worker, beside
    /// the maps); null: computed here.
    const model::PlanRisks* risks = nullptr;
    /// reportSectionFigures() of this input, when the caller computed it (on a worker, beside
    /// the maps); null: computed here.
    const ReportSectionFigures* figures = nullptr;
    ReportMaps maps;
    /// More actions than this: the plan section groups them by type and zone, and the full
    /// list goes to an appendix.
    std::size_t groupActionsAbove = 1000;
};

/// `text` from the input (a file name, a plan name, a source label) as the report shows it:
/// importers::escapedText() (control, invalid and invisible bytes as \xNN; at most 4,096
/// characters), so no name adds a line to the page or to the PDF's title. Pure; thread: any.
QString reportSafeText(const QString& text);

/// The section figures of `in` (its store, topology, context, usage, engine and evaluation;
/// the rest is not read): about 0.4 s of CPU at 100,000 nodes. Thread: any, while no thread
/// changes the store or the engine.
[[nodiscard]] ReportSectionFigures reportSectionFigures(const FleetReportInput& in);

/// Lays the report out on `pages` (which must be empty). Thread: any once the QGuiApplication
/// exists (fonts; the window lays it out on a worker).
void buildFleetReport(const FleetReportInput& input, ReportPages& pages);

/// buildFleetReport() in two parts, for a caller that lays the second out on a worker while the
/// maps are drawn: the head (the title block, the figures and the maps: `input.maps` is read
/// here only) and the tail (the plan, why nodes stay, the risks, waste and pending demand, the
/// appendix; `input.maps` is not read). The tail begins with a heading of level 1, which starts
/// a page of its own after the maps: laid out on empty pages and appended to the head's
/// (ReportPages::appendPages()), its pages are those buildFleetReport() lays out. Each computes
/// reportSectionFigures() when `input.figures` is null. Thread: as buildFleetReport(); the two
/// may run at once on two threads, each with its own ReportPages.
void buildFleetReportHead(const FleetReportInput& input, ReportPages& pages);
void buildFleetReportTail(const FleetReportInput& input, ReportPages& pages);

/// "12,345" for a count, "12,345.5" for milli-units (exact, trailing zeros dropped), "$1,234.56"
/// for dollars. Thread: any.
[[nodiscard]] QString reportCount(std::int64_t n);
/// "1 node", "2,000 nodes": reportCount() and the noun for that count. Thread: any.
[[nodiscard]] QString reportCounted(std::int64_t n, const char* one, const char* many);
[[nodiscard]] QString reportMilli(std::int64_t milli);
[[nodiscard]] QString reportDollars(double dollars);

} // namespace fleet::views
