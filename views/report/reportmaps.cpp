// SPDX-License-Identifier: Apache-2.0
#include "reportmaps.h"

#include "model/metrics/metricregistry.h"
#include "model/metrics/planmetrics.h"
#include "views/map/fleetmapview.h"
#include "views/plan/planmarksbuilder.h"

#include <QCoreApplication>

namespace fleet::views {

ReportMaps renderReportMaps(const ReportMapInput& input, QSize logicalSize)
{
    ReportMaps out;
    if (!input.store || !input.topology)
        return out;
    FleetMapView view;
    view.setAttribute(Qt::WA_DontShowOnScreen, true);
    view.resize(logicalSize);
    view.setCluster(input.store, input.topology);
    view.setPrices(input.prices);
    std::shared_ptr<const model::Metric> before = model::MetricRegistry::builtin().find(input.metric);
    if (!before)
        before = model::MetricRegistry::builtin().find("gpu");
    view.setMetric(before);
    view.resetView();
    QCoreApplication::processEvents();
    out.metricTitle = QString::fromStdString(view.currentMetric().title());
    out.before = view.grabImage();
    if (!input.engine || input.engine->applied().empty())
        return out;
    const std::string base = input.metric == "cpu" || input.metric == "memory" ? input.metric : std::string("gpu");
    const std::shared_ptr<const model::PlacementState> state(input.engine, &input.engine->state());
    view.setPlanState(state);
    view.setMetric(model::makePlanMetric(state, base, model::PlanMetricKind::After));
    QCoreApplication::processEvents();
    out.after = view.grabImage();
    view.setPlanMarks(buildPlanMarks(*input.engine, input.topology.get()));
    view.setMetric(model::makePlanMetric(state, base, model::PlanMetricKind::Difference));
    QCoreApplication::processEvents();
    out.difference = view.grabImage();
    return out;
}

} // namespace fleet::views
