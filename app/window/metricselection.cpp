// SPDX-License-Identifier: Apache-2.0
#include "metricselection.h"

#include "app/cli/commandlinepath.h"
#include "app/controllers/importcontroller.h"
#include "app/controllers/plancontroller.h"
#include "app/window/metricmenu.h"

#include "importers/pricing/pricetableloader.h"
#include "model/metrics/metricregistry.h"
#include "model/metrics/usagemetrics.h"
#include "views/map/fleetmapview.h"

namespace fleet::app {

MetricSelection::MetricSelection(QWidget* window, QMenu* menu, views::FleetMapView* map, PlanController* plan,
                                 std::function<std::shared_ptr<const ImportedCluster>()> shownCluster)
    : QObject(window)
    , m_map(map)
    , m_plan(plan)
    , m_shownCluster(std::move(shownCluster))
{
    m_menu = new MetricMenu(window, menu, [this](const QString& id) { return setMetric(id); });
    m_menu->addRegistryMetrics();
    {
        QString error;
        setPriceOverrideFile(QString(), error);
    }
    setMetric(m_map->metric());

    m_menu->addPlanMetrics();
    m_menu->addUsageMetrics();
    updateUsageMenu();
}

void MetricSelection::setMetric(views::MapMetric metric)
{
    setMetric(QString::fromLatin1(views::mapMetricId(metric).data()));
}

bool MetricSelection::setMetric(const QString& id)
{
    const bool planMetric = !model::planMetricBaseId(id.toStdString()).empty();
    if (!planMetric && !usageMetricFor(id) && !model::MetricRegistry::builtin().find(id.toStdString()))
        return false;
    m_metricId = id;
    applyMetric();
    if (m_menu)
        m_menu->check(id);
    return true;
}

void MetricSelection::applyMetric()
{
    std::shared_ptr<const model::Metric> metric = m_plan ? m_plan->planMetricFor(m_metricId) : nullptr;
    if (!metric)
        metric = usageMetricFor(m_metricId);
    if (!metric) {
        // A plan metric without a plan engine shows its base metric.
        const std::string base(model::planMetricBaseId(m_metricId.toStdString()));
        metric = model::MetricRegistry::builtin().find(base.empty() ? m_metricId.toStdString() : base);
    }
    if (!metric)
        return;
    // A plan metric's values change with the plan (same id): always recompute.
    if (metric->id() == m_map->currentMetric().id())
        m_map->refreshMetric(metric);
    else
        m_map->setMetric(metric);
}

bool MetricSelection::setPriceOverrideFile(const QString& overrideFile, QString& error)
{
    try {
        m_prices = std::make_shared<const model::PriceTable>(importers::loadPriceTable(commandLinePath(overrideFile)));
        m_map->setPrices(m_prices);
        return true;
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
        return false;
    }
}

void MetricSelection::updateUsageMenu()
{
    const std::shared_ptr<const ImportedCluster> cluster = m_shownCluster();
    const bool has = cluster && cluster->usage;
    const QString tip = has ? tr("Usage from %1").arg(QString::fromStdString(cluster->usage->source))
                            : tr("No usage for this cluster: the simulated cluster has its own; files and live lists need a usage source");
    m_menu->setUsageAvailable(has, tip);
    model::UsageMetricKind kind;
    if (model::usageMetricKind(m_metricId.toStdString(), kind)) {
        if (has)
            applyMetric(); // the same id over the new cluster's usage
        else
            setMetric(QStringLiteral("gpu"));
    }
}

std::shared_ptr<const model::Metric> MetricSelection::usageMetricFor(const QString& id) const
{
    const std::shared_ptr<const ImportedCluster> cluster = m_shownCluster();
    model::UsageMetricKind kind;
    if (!cluster || !cluster->usage || !model::usageMetricKind(id.toStdString(), kind))
        return nullptr;
    return model::makeUsageMetric(cluster->usage, kind);
}

} // namespace fleet::app
