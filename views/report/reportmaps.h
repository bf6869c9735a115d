// SPDX-License-Identifier: Apache-2.0
#pragma once
// The maps of a report: the fleet map of the loaded state, under a plan, and the plan's
// difference, drawn by the fleet map itself (FleetMapView::grabImage(), the off-screen path of
// `fleetscope screenshot`), each with its legend (colour scale and key) beside it.

#include "model/clusterstore.h"
#include "model/plan/plan.h"
#include "model/pricing/pricetable.h"
#include "model/topology.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <memory>
#include <string>

namespace fleet::views {

struct ReportMapInput {
    std::shared_ptr<const model::ClusterStore> store;
    std::shared_ptr<const model::Topology> topology;
    std::shared_ptr<const model::PriceTable> prices;  // may be null (cost metrics unknown)
    std::shared_ptr<const model::PlanEngine> engine;  // null: no plan (only the loaded map)
    /// The metric: a registry id for the loaded map; for a plan "gpu", "cpu" or "memory" (the
    /// plan-aware metrics exist for those, model/metrics/planmetrics.h; others fall back to gpu).
    std::string metric = "gpu";
};

struct ReportMaps {
    QImage before;     // the loaded state
    QImage after;      // under the plan (null without one)
    QImage difference; // after minus before, with the plan's marks (null without a plan)
    QString metricTitle; // the legend's title of `before`
    bool marked = false; // the difference map outlines the nodes the plan changes (<= kMaxMarkedNodes)
};

/// The difference map outlines the changed nodes up to this many (see renderReportMaps()).
inline constexpr std::size_t kMaxMarkedNodes = 2000;

/// Renders the maps at `logicalSize` (logical pixels of the view, legend included), at the
/// application's device pixel ratio (QT_SCALE_FACTOR gives print resolution). The whole fleet
/// is fitted into each. Needs a QApplication with OpenGL on an X display (a private Xvfb, as
/// `screenshot`). Returns null images when the map cannot be rendered. Thread: GUI thread.
[[nodiscard]] ReportMaps renderReportMaps(const ReportMapInput& input, QSize logicalSize);

} // namespace fleet::views
