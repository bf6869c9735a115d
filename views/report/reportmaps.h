// SPDX-License-Identifier: Apache-2.0
#pragma once
// The maps of a report: the fleet map of the loaded state, under a plan, and the plan's
// difference, drawn by the fleet map itself (FleetMapView::grabImage(), the off-screen path of
// `fleetscope screenshot`), each with its legend (colour scale and key) beside it.

#include "model/clusterstore.h"
#include "model/metrics/metric.h"
#include "model/plan/plan.h"
#include "model/pricing/pricetable.h"
#include "model/topology.h"

#include <QFuture>
#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

namespace fleet::views {

/// A report's map (legend included) in logical pixels, and the device pixels per logical pixel
/// it is drawn at, whatever the screen: 720 logical pixels span the 515 points of an A4 page's
/// text width, at 3 device pixels each 2,160 pixels, about 300 dpi there. `fleetscope report`
/// and the window's File > Export Report both draw at these (renderReportMaps()).
inline constexpr QSize kReportMapLogicalSize(720, 500);
inline constexpr double kReportMapDevicePixelRatio = 3.0;
/// Print resolution: every map of a report is embedded at this many pixels per inch of the page
/// at least (the whole fleet's, 2,160 x 1,500 pixels printed 330 points high, at 327).
inline constexpr double kReportPrintPpi = 300.0;
/// A zoomed map is printed this many points high (its width follows its aspect: 432 points for
/// 720 x 500), smaller than the whole fleet's: drawn at the device pixel ratio that gives it
/// kReportPrintPpi there (2.5 for a map 500 logical pixels high: 1,800 x 1,250 pixels), no more.
inline constexpr double kReportZoomedMapHeightPt = 300.0;

struct ReportMapInput {
    std::shared_ptr<const model::ClusterStore> store;
    std::shared_ptr<const model::Topology> topology;
    std::shared_ptr<const model::PriceTable> prices;  // may be null (cost metrics unknown)
    std::shared_ptr<const model::PlanEngine> engine;  // null: no plan (only the loaded map)
    /// The metric: a registry id for the loaded map; for a plan "gpu", "cpu" or "memory" (the
    /// plan-aware metrics exist for those, model/metrics/planmetrics.h; others fall back to gpu).
    std::string metric = "gpu";
    /// With a plan: this many domains the plan changes most get maps zoomed to them.
    std::size_t zoomedDomains = 3;
};

/// The map zoomed to one domain the plan changes much, before and under the plan.
struct ZoomedMaps {
    QString domain;      // the domain's path
    std::int64_t nodes = 0, nodesFreed = 0, podsMoved = 0, pendingPlaced = 0, podsAdded = 0; // model::DomainChange's
    QImage before;
    QImage after;
    /// The zoomed after map's plan key with its counts ("Removed: 98", ...): the domain's
    /// nodes, as its legend counts them (legendPlanKey()).
    QStringList afterPlanKey;
};

struct ReportMaps {
    QImage before;     // the loaded state
    QImage after;      // under the plan (null without one)
    QImage difference; // after minus before, with the plan's marks (null without a plan)
    QString metricTitle; // the legend's title of `before`
    QString afterTitle;  // the legend's title of `after` ("" without a plan)
    /// The legend's marker key with its counts ("NotReady: 3", ...): MapLegend::entries() after
    /// "Markers", the lines `screenshot --print-legend` prints for the same cluster.
    QStringList markerKey;
    /// The difference map's scale in words (its legend's ticks give it too): the range, how it was
    /// chosen, the nodes changed and those beyond it ("" without a plan).
    QString differenceScale;
    /// The legend's plan key with its counts ("Removed: 22,944", ...): the marks the maps
    /// under the plan (after, zoomed after, difference) draw over their cells (PlanLayer).
    QStringList planKey;
    std::vector<ZoomedMaps> zoomed; // the domains the plan changes most (model::domainsChangedMost()), most first
};

/// The scale of a difference map in words, for a caption: "Scale ±80 % of allocatable: the 95th
/// percentile of |after - before| over the N nodes the plan changes, rounded up; M of them beyond
/// it are drawn at the ends (the changes range from -99.3% to +71.4%)."; "" for a metric that is
/// not a difference. `nodesRemoved`: the nodes the plan drains or fails, which have no value
/// after it; `nodesMoved`: the present nodes pods moved to or from (PlanMarks::changed). With no
/// value changed these are what the caption names ("The plan removes 1 node ...", "The plan
/// moves pods to or from 10 nodes ..."), never "No node changes.". Thread: any.
[[nodiscard]] QString differenceScaleText(const model::Metric& metric, const model::MetricColumn& column, std::int64_t nodesRemoved = 0,
    std::int64_t nodesMoved = 0);

/// A domain as the report names it: its label values, outermost first, joined by " > "
/// ("us-west-2 > us-west-2a > nn-5f9cf0de4ddbf6a2c"), as the map's breadcrumb shows it; the
/// level keys are given once (reportDomainKeys()). The root is "". Thread: any.
[[nodiscard]] QString reportDomainText(const model::Topology& topology, model::DomainId d);
/// The level keys in the same order and form ("topology.kubernetes.io/region > ..."): what
/// each part of reportDomainText() is. Thread: any.
[[nodiscard]] QString reportDomainKeys(const model::Topology& topology);

class MapLegend;
/// The plan key of `legend` with its counts: its entries() after the "Plan" line. Thread: GUI.
[[nodiscard]] QStringList legendPlanKey(const MapLegend& legend);
/// The marker key of `legend` with its counts: its entries() after the "Markers" line. Thread: GUI.
[[nodiscard]] QStringList legendMarkerKey(const MapLegend& legend);

/// The report's maps drawn one at a time, so that a caller on the GUI thread (the window's File >
/// Export Report) can give the event loop a turn between two maps and stop between them: each
/// step() readies one map (the whole fleet before, each zoomed domain before and after, the whole
/// fleet after, the difference) on the GUI thread (the view, its legend) and has a worker paint
/// its pixels, the part that grows with the fleet and the resolution
/// (FleetMapView::grabImageLater()): painting() is that worker's future. renderReportMaps()
/// draws them all so. Thread: GUI thread, as renderReportMaps().
class ReportMapRenderer {
public:
    /// Draws at `logicalSize` logical pixels times `devicePixelRatio` device pixels each (the
    /// print resolution, FleetMapView::setHiddenDevicePixelRatio(); 0: the screen's ratio).
    ReportMapRenderer(const ReportMapInput& input, QSize logicalSize = kReportMapLogicalSize,
        double devicePixelRatio = kReportMapDevicePixelRatio);
    ~ReportMapRenderer();
    ReportMapRenderer(const ReportMapRenderer&) = delete;
    ReportMapRenderer& operator=(const ReportMapRenderer&) = delete;
    /// Readies the next map and starts its painting on a worker (after waiting for the previous
    /// one: a caller that must not block waits for painting() first); false when none is left.
    bool step();
    /// The painting the last step() started (finished when it started none). Watch it with a
    /// QFutureWatcher to call step() or take() without blocking.
    [[nodiscard]] QFuture<void> painting() const;
    /// The maps drawn so far and the number of steps in all (for a progress bar; the count is an
    /// estimate until the first step found the domains the plan changes most).
    [[nodiscard]] std::size_t stepsDone() const noexcept;
    [[nodiscard]] std::size_t stepCount() const noexcept;
    /// The maps (moved out; call once, after the last step; waits for its painting). Null
    /// images where a map was not drawn (a null `before`: the map could not be rendered).
    [[nodiscard]] ReportMaps take();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

/// Renders the maps at `logicalSize` (logical pixels of the view, legend included), at
/// `devicePixelRatio` device pixels per logical pixel (0: the application's). The whole fleet
/// is fitted into each; the zoomed maps fit their domain. The metric is chosen as the window
/// chooses it: "gpu" on a fleet without accelerators colours by CPU (model::gpuMetricTitle()), and
/// so do the maps under the plan. The legends count the problem markers the window's map
/// draws (model::findNodeProblems(), model::problemNodes()), without the window-only keys. Needs a QApplication with OpenGL on an X display (a private Xvfb, as
/// `screenshot`). Returns null images when the map cannot be rendered. Thread: GUI thread.
[[nodiscard]] ReportMaps renderReportMaps(
    const ReportMapInput& input, QSize logicalSize = kReportMapLogicalSize, double devicePixelRatio = kReportMapDevicePixelRatio);

} // namespace fleet::views
