// SPDX-License-Identifier: Apache-2.0
#include "reportmaps.h"

#include "model/metrics/metricregistry.h"
#include "model/metrics/planmetrics.h"
#include "views/map/fleetmapview.h"
#include "views/plan/planmarksbuilder.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLoggingCategory>

namespace fleet::views {

namespace {
// The time of each map, for the benchmark's breakdown: QT_LOGGING_RULES="fleet.views.reportmaps.debug=true".
Q_LOGGING_CATEGORY(lcReportMaps, "fleet.views.reportmaps", QtInfoMsg)
} // namespace

ReportMaps renderReportMaps(const ReportMapInput& input, QSize logicalSize)
{
    ReportMaps out;
    if (!input.store || !input.topology)
        return out;
    QElapsedTimer clock;
    clock.start();
    auto step = [&](const char* what) { qCDebug(lcReportMaps, "%s: %lld ms", what, static_cast<long long>(clock.restart())); };
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
    step("set cluster");
    out.before = view.grabImage();
    step("before");
    if (!input.engine || input.engine->applied().empty())
        return out;
    const std::string base = input.metric == "cpu" || input.metric == "memory" ? input.metric : std::string("gpu");
    const std::shared_ptr<const model::PlanLedger> state(input.engine, &input.engine->state());
    view.setPlanState(state);
    view.setMetric(model::makePlanMetric(state, base, model::PlanMetricKind::After));
    QCoreApplication::processEvents();
    step("after metric");
    out.after = view.grabImage();
    step("after");
    // Marks (outlines, crosses) are drawn at a minimum size each: above a few thousand nodes they
    // cover the whole fleet at this zoom, and the antialiased strokes took 10 s at 20,000
    // actions. There the difference's colours alone show the change (out.marked says which).
    std::shared_ptr<const PlanMarks> marks = buildPlanMarks(*input.engine, input.topology.get());
    out.marked = marks && marks->changed.size() + marks->emptied.size() + marks->removed.size() + marks->violations.size() <= kMaxMarkedNodes;
    if (out.marked)
        view.setPlanMarks(std::move(marks));
    view.setMetric(model::makePlanMetric(state, base, model::PlanMetricKind::Difference));
    QCoreApplication::processEvents();
    step("difference metric and marks");
    out.difference = view.grabImage();
    step("difference");
    return out;
}

} // namespace fleet::views
