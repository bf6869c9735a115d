// SPDX-License-Identifier: Apache-2.0
#include "reportmaps.h"

#include "model/domainpath.h"
#include "model/figures.h"
#include "model/metrics/accelerators.h"
#include "model/metrics/metricregistry.h"
#include "model/nodeproblems.h"
#include "model/report/reportfigures.h"
#include "views/map/maplegend.h"
#include "views/map/mapmetric.h"
#include "model/metrics/planmetrics.h"
#include "views/map/fleetmapview.h"
#include "views/plan/planmarksbuilder.h"
#include "views/report/fleetreport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <functional>
#include <iterator>

namespace fleet::views {

namespace {
// The time of each map, for the benchmark's breakdown: QT_LOGGING_RULES="fleet.views.reportmaps.debug=true".
Q_LOGGING_CATEGORY(lcReportMaps, "fleet.views.reportmaps", QtInfoMsg)
} // namespace

QString differenceScaleText(const model::Metric& metric, const model::MetricColumn& column, std::int64_t nodesRemoved, std::int64_t nodesMoved)
{
    const MetricColorScale scale = MetricColorScale::forColumn(metric, column);
    if (scale.kind != model::ScaleKind::Diverging)
        return {};
    auto nodes = [](std::int64_t n) { return reportCounted(n, "node", "nodes"); };
    // A removed node has no value after the plan (not a difference of the metric), but it is a
    // change: an empty node drained changes no value and still goes. Pods moved that this metric
    // does not count (CPU-only pods on a GPU map) change no value either, and are still a change.
    if (scale.changed == 0 && nodesRemoved > 0 && nodesMoved == 0)
        return QStringLiteral("The plan removes %1 (crossed on the map) and changes no other node's value.").arg(nodes(nodesRemoved));
    if (scale.changed == 0 && nodesMoved > 0)
        return (nodesRemoved > 0 ? QStringLiteral("The plan removes %1 (crossed on the map) and moves pods to or from %2 (outlined)")
                                       .arg(nodes(nodesRemoved), nodes(nodesMoved))
                                 : QStringLiteral("The plan moves pods to or from %1 (outlined on the map)").arg(nodes(nodesMoved)))
            + QStringLiteral(", none of which changes a node's value of this metric.");
    if (scale.changed == 0)
        return QStringLiteral("No node changes.");
    const QString unit = QString::fromStdString(metric.unit());
    const bool percent = unit.startsWith(QLatin1Char('%'));
    auto value = [&](double v) { return percent ? legendSignedPercent(v) : QString::number(v); };
    const QString hi = value(scale.hi).mid(percent ? 1 : 0).chopped(percent ? 1 : 0);
    // The column's range spans the unchanged nodes' 0 too: a change is said by its sign, and
    // one node's change as that one value (not "from 0 % to +100 %").
    const bool up = column.maxValue > 0;
    const bool down = column.minValue < 0;
    if (scale.changed == 1)
        return QStringLiteral("Scale \u00b1%1 %2: one node changes, by %3.").arg(hi, unit, value(up ? column.maxValue : column.minValue));
    const QString range = up && down ? QStringLiteral("the changes range from %1 to %2").arg(value(column.minValue), value(column.maxValue))
        : up                         ? QStringLiteral("every change is an increase, of up to %1").arg(value(column.maxValue))
                                     : QStringLiteral("every change is a decrease, of up to %1").arg(value(column.minValue));
    const auto beyond = static_cast<std::int64_t>(scale.beyond);
    return QStringLiteral("Scale \u00b1%1 %2: the %3th percentile of |after - before| over the %4 nodes the plan changes, "
                          "rounded up; %5 beyond it %6 drawn at the ends (%7).")
        .arg(hi, unit)
        .arg(qRound(kDivergingCoverage * 100))
        .arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(scale.changed))),
            QString::fromStdString(model::formatCount(beyond)) + QStringLiteral(" of them"), beyond == 1 ? QStringLiteral("is") : QStringLiteral("are"),
            range);
}

QString reportDomainText(const model::Topology& topology, model::DomainId d)
{
    // The full path (key=value/key=value/...) of a 100,000-node fleet's leaf domain took six
    // lines of a table cell; the keys are the same on every row.
    QStringList parts;
    for (; d.isValid() && d != topology.root(); d = topology.domainParent(d))
        parts.prepend(QString::fromStdString(topology.domainName(d)));
    return parts.join(QStringLiteral(" > "));
}

QString reportDomainKeys(const model::Topology& topology)
{
    QStringList keys;
    for (int level = 1; level <= static_cast<int>(topology.levelKeys().size()); ++level)
        keys << QString::fromStdString(model::levelUserKey(topology, level));
    return keys.join(QStringLiteral(" > "));
}

QStringList legendMarkerKey(const MapLegend& legend)
{
    const QStringList entries = legend.entries();
    const qsizetype markers = entries.indexOf(QStringLiteral("Markers"));
    if (markers < 0)
        return {};
    const qsizetype plan = entries.indexOf(QStringLiteral("Plan"), markers + 1);
    return entries.mid(markers + 1, plan < 0 ? -1 : plan - markers - 1);
}

QStringList legendPlanKey(const MapLegend& legend)
{
    const QStringList entries = legend.entries();
    const qsizetype plan = entries.indexOf(QStringLiteral("Plan"));
    return plan < 0 ? QStringList() : entries.mid(plan + 1);
}

struct ReportMapRenderer::Private {
    ReportMapInput input;
    QSize logicalSize;
    double ratio = 0;
    ReportMaps out;
    std::unique_ptr<FleetMapView> view;
    std::vector<model::DomainChange> domains;
    std::shared_ptr<const model::PlanLedger> state;
    std::vector<model::NodeId> problems;        // the whole fleet's problem nodes (markers; findNodeProblems(), found on a worker)
    std::shared_ptr<const PlanMarks> marks;     // the whole plan's marks (null before the maps under the plan)
    std::string base; // the plan metrics' base: "gpu", "cpu" or "memory"
    std::vector<std::function<bool()>> steps; // each draws one map (or readies the next); false: stop, nothing more can be drawn
    std::size_t next = 0;
    QElapsedTimer clock;
    QFuture<void> painting; // the last map's layers, painted on a worker (grab())

    ~Private() { painting.waitForFinished(); } // the worker paints the view: it goes after

    // A zoomed map is printed kReportZoomedMapHeightPt high: drawn at the ratio that gives it
    // kReportPrintPpi there (2.5 where the whole fleet's is 3), not at more pixels than the page
    // shows. Six zoomed maps at the whole fleet's 3 cost about a second of PDF encoding and 60 MB
    // at 100,000 nodes; halved afterwards, as they were, they printed at 180 ppi.
    double zoomedRatio() const
    {
        const double print = kReportPrintPpi / 72.0 * kReportZoomedMapHeightPt / std::max(1, logicalSize.height());
        return ratio > 0 ? std::min(ratio, print) : ratio;
    }

    void log(const char* what) { qCDebug(lcReportMaps, "%s: %lld ms", what, static_cast<long long>(clock.restart())); }
    MapLegend* legend() const { return view->findChild<MapLegend*>(); }

    // The view as it is now, painted on a worker (FleetMapView::grabImageLater(): the legend is
    // rendered here); `keep` gets the image there. The next step waits for it.
    void grab(const char* what, std::function<void(QImage)> keep)
    {
        std::function<QImage()> paint = view->grabImageLater();
        log(what);
        painting = QtConcurrent::run([paint = std::move(paint), keep = std::move(keep), what] {
            QElapsedTimer worker;
            worker.start();
            keep(paint());
            qCDebug(lcReportMaps, "%s, painted on a worker: %lld ms", what, static_cast<long long>(worker.elapsed()));
        });
    }

    // What the maps show that is read from the cluster and the plan alone, found on a worker
    // (tens of milliseconds at 100,000 nodes): the problem markers' nodes and the domains the
    // plan changes most.
    bool find()
    {
        painting = QtConcurrent::run([this] {
            QElapsedTimer worker;
            worker.start();
            problems = model::problemNodes(model::findNodeProblems(*input.store));
            if (input.engine && !input.engine->applied().empty())
                domains = model::domainsChangedMost(*input.store, *input.topology, input.engine->applied(), input.zoomedDomains);
            qCDebug(lcReportMaps, "problems and domains, on a worker: %lld ms", static_cast<long long>(worker.elapsed()));
        });
        steps.push_back([this] { return setUp(); });
        return true;
    }

    // The map of the loaded state: set up, laid out and drawn in three steps (the first map's
    // time, split).
    bool setUp()
    {
        view = std::make_unique<FleetMapView>();
        view->setAttribute(Qt::WA_DontShowOnScreen, true);
        view->resize(logicalSize);
        view->setHiddenDevicePixelRatio(ratio);
        view->setCluster(input.store, input.topology);
        view->setPrices(input.prices);
        // The markers and their counts the window's map shows (no drag key: nothing is dragged here).
        view->setProblemNodes(problems); // kept: the zoomed maps count theirs, the fleet's again after
        std::shared_ptr<const model::Metric> before = model::MetricRegistry::builtin().find(input.metric);
        if (!before)
            before = model::MetricRegistry::builtin().find("gpu");
        view->setMetric(before);
        view->resetView();
        QCoreApplication::processEvents();
        out.metricTitle = QString::fromStdString(view->currentMetric().title());
        if (const MapLegend* l = legend()) {
            out.metricTitle = l->title(); // "CPU requested (no GPU nodes)" where the gpu metric falls back
            out.markerKey = legendMarkerKey(*l);
        }
        log("set cluster");
        steps.push_back([this] {
            view->layOutHidden();
            log("lay out");
            return true;
        });
        steps.push_back([this] { return drawWholeBefore(); });
        return true;
    }

    bool drawWholeBefore()
    {
        grab("before", [this](QImage image) { out.before = std::move(image); });
        if (!input.engine || input.engine->applied().empty())
            return false;
        for (const model::DomainChange& c : domains) {
            ZoomedMaps z;
            z.domain = reportDomainText(*input.topology, c.domain);
            z.nodes = c.nodes;
            z.nodesFreed = c.nodesFreed;
            z.podsMoved = c.podsMoved;
            z.pendingPlaced = c.pendingPlaced;
            z.podsAdded = c.podsAdded;
            out.zoomed.push_back(std::move(z));
        }
        // The steps under the plan, one map each: the zoomed maps before, then after, the whole
        // fleet after, the difference.
        for (std::size_t i = 0; i < domains.size(); ++i)
            steps.push_back([this, i] {
                frame(domains[i].domain);
                view->setHiddenDevicePixelRatio(zoomedRatio());
                grab("zoomed before", [this, i](QImage image) { out.zoomed[i].before = std::move(image); });
                return true;
            });
        steps.push_back([this] {
            showAfter();
            return true;
        });
        for (std::size_t i = 0; i < domains.size(); ++i)
            steps.push_back([this, i] {
                frame(domains[i].domain);
                if (const MapLegend* l = legend())
                    out.zoomed[i].afterPlanKey = legendPlanKey(*l);
                view->setHiddenDevicePixelRatio(zoomedRatio());
                grab("zoomed after", [this, i](QImage image) { out.zoomed[i].after = std::move(image); });
                return true;
            });
        steps.push_back([this] {
            showWholeFleet();
            grab("after", [this](QImage image) { out.after = std::move(image); });
            return true;
        });
        steps.push_back([this] {
            showDifference();
            return true;
        });
        steps.push_back([this] {
            grab("difference", [this](QImage image) { out.difference = std::move(image); });
            return true;
        });
        return true;
    }

    // A zoomed map shows its domain whole and centred, named by the breadcrumb; the nodes of
    // other domains that the view's shape leaves in sight are dimmed (with their markers and
    // marks). Its legend counts the domain's nodes, what the map is of, not the fleet's.
    void frame(model::DomainId domain)
    {
        auto mask = std::make_shared<std::vector<std::uint8_t>>(input.store->nodeCount(), 0);
        for (const model::NodeId n : input.topology->domainNodes(domain))
            (*mask)[n.index()] = 1;
        auto inside = [&](model::NodeId n) { return n.index() < mask->size() && (*mask)[n.index()] != 0; };
        view->setNodeMask(mask);
        view->frameDomain(domain);
        if (MapLegend* l = legend()) {
            l->setCountedNodes(mask);
            // The marker layer's kinds (MarkerLayer: NotReady, else cordoned, else another problem).
            std::vector<std::uint8_t> problem(input.store->nodeCount(), 0);
            for (const model::NodeId n : problems)
                if (inside(n))
                    problem[n.index()] = 1;
            std::size_t notReady = 0, cordoned = 0, other = 0;
            for (const model::NodeId n : input.topology->domainNodes(domain))
                switch (nodeMark(*input.store, n)) {
                case NodeMark::NotReady:
                    ++notReady;
                    break;
                case NodeMark::Cordoned:
                    ++cordoned;
                    break;
                case NodeMark::None:
                    other += problem[n.index()];
                    break;
                }
            l->setMarkerCounts(notReady, cordoned, other);
            if (marks) {
                auto in = [&](const std::vector<model::NodeId>& nodes) {
                    return static_cast<std::size_t>(std::count_if(nodes.begin(), nodes.end(), inside));
                };
                l->setPlanMarkCounts({ in(marks->changed), in(marks->violations), in(marks->emptied), in(marks->removed) });
            }
        }
    }

    // The whole fleet after the zoomed maps: every marker and mark again, no domain named.
    void showWholeFleet()
    {
        view->setHiddenDevicePixelRatio(ratio); // the whole fleet's, after the zoomed maps'
        view->setNodeMask(nullptr);
        if (MapLegend* l = legend())
            l->setCountedNodes(nullptr);
        view->setProblemNodes(problems); // the legend's marker counts again the fleet's
        if (marks)
            view->setPlanMarks(marks);   // and its plan counts
        view->resetView();
    }

    void showAfter()
    {
        showWholeFleet();
        // Under the plan, the base the loaded map shows: gpu on a fleet without accelerators is
        // CPU there (the window's gpu metric falls back to CPU requested), so it is CPU here too.
        base = input.metric == "cpu" || input.metric == "memory" ? input.metric : std::string("gpu");
        if (base == "gpu" && !model::fleetHasAccelerators(*input.store, model::MetricKeys::find(*input.store)))
            base = "cpu";
        state = std::shared_ptr<const model::PlanLedger>(input.engine, &input.engine->state());
        view->setPlanState(state);
        // The plan's marks on every map under it, as the window shows them: drawn inside the cells
        // (or as pixels of the cells where tens of thousands are marked), they leave the colours
        // under the plan readable, and tell a drained node from one the metric does not apply to.
        marks = buildPlanMarks(*input.engine, input.topology.get());
        view->setPlanMarks(marks);
        view->setMetric(model::makePlanMetric(state, base, model::PlanMetricKind::After));
        QCoreApplication::processEvents();
        out.afterTitle = QString::fromStdString(view->currentMetric().title());
        if (const MapLegend* l = legend())
            out.planKey = legendPlanKey(*l);
        log("after metric");
    }

    void showDifference()
    {
        view->setMetric(model::makePlanMetric(state, base, model::PlanMetricKind::Difference));
        QCoreApplication::processEvents();
        if (const MapLegend* l = legend())
        {
            std::int64_t removed = 0;
            for (const model::AppliedAction& a : input.engine->applied())
                removed += static_cast<std::int64_t>(a.nodesRemoved.size());
            out.differenceScale = differenceScaleText(l->currentMetric(), l->column(), removed, marks ? static_cast<std::int64_t>(marks->changed.size()) : 0);
        }
        log("difference metric and marks");
    }
};

ReportMapRenderer::ReportMapRenderer(const ReportMapInput& input, QSize logicalSize, double devicePixelRatio)
    : d(std::make_unique<Private>())
{
    d->input = input;
    d->logicalSize = logicalSize;
    d->ratio = devicePixelRatio;
    d->clock.start();
    if (input.store && input.topology)
        d->steps.push_back([p = d.get()] { return p->find(); });
}

ReportMapRenderer::~ReportMapRenderer() = default;

bool ReportMapRenderer::step()
{
    d->painting.waitForFinished(); // the view stays as the worker paints it
    if (d->next >= d->steps.size())
        return false;
    if (!d->steps[d->next++]()) // nothing more can be drawn: the steps after it are dropped
        d->steps.resize(d->next);
    return d->next < d->steps.size();
}

QFuture<void> ReportMapRenderer::painting() const
{
    return d->painting;
}

std::size_t ReportMapRenderer::stepsDone() const noexcept
{
    return d->next;
}

std::size_t ReportMapRenderer::stepCount() const noexcept
{
    // Before the fourth step (the map before) the plan's steps are not known yet: its metrics
    // after and difference, the zoomed maps and the two whole-fleet maps are 4 + 2 x zoomedDomains more.
    if (d->next <= 3 && d->input.engine && !d->input.engine->applied().empty())
        return 8 + 2 * d->input.zoomedDomains;
    return d->steps.size();
}

ReportMaps ReportMapRenderer::take()
{
    d->painting.waitForFinished();
    d->view.reset();
    return std::move(d->out);
}

ReportMaps renderReportMaps(const ReportMapInput& input, QSize logicalSize, double devicePixelRatio)
{
    ReportMapRenderer renderer(input, logicalSize, devicePixelRatio);
    while (renderer.step()) {
    }
    return renderer.take();
}

} // namespace fleet::views
