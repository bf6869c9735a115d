// SPDX-License-Identifier: Apache-2.0
// MainWindow's usage metrics: the Metric menu's usage section enabled for a cluster with usage,
// and the refresh of a watched live cluster's usage from its Prometheus.
#include "app/window/mainwindow.h"
#include "app/controllers/workerpool.h"

#include "app/window/applog.h"
#include "app/window/explorepanels.h"
#include "app/window/metricmenu.h"
#include "app/controllers/importcontroller.h"
#include "importers/prometheus/prometheusclient.h"
#include "model/metrics/usagemetrics.h"
#include "views/inspectors/nodeinspector.h"
#include "views/map/fleetmapview.h"

#include <QAction>
#include <QActionGroup>
#include <QFutureWatcher>
#include <QMenu>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <variant>

namespace fleet::app {

void MainWindow::updateUsageMenu()
{
    const bool has = m_cluster && m_cluster->usage;
    const QString tip = has ? tr("Usage from %1").arg(QString::fromStdString(m_cluster->usage->source))
                            : tr("No usage for this cluster: the simulated cluster has its own; files and live lists need a usage source");
    m_metricMenu->setUsageAvailable(has, tip);
    model::UsageMetricKind kind;
    if (model::usageMetricKind(m_metricId.toStdString(), kind)) {
        if (has)
            applyMetric(); // the same id over the new cluster's usage
        else
            setMetric(QStringLiteral("gpu"));
    }
}

void MainWindow::startUsageRefresh()
{
    stopUsageRefresh();
    if (!m_cluster || !m_cluster->usageSource)
        return;
    if (!m_usageTimer) {
        m_usageTimer = new QTimer(this);
        connect(m_usageTimer, &QTimer::timeout, this, &MainWindow::refreshUsage);
    }
    m_usageTimer->start(m_usageRefreshMs);
}

void MainWindow::stopUsageRefresh()
{
    if (m_usageTimer)
        m_usageTimer->stop();
    ++m_usageGeneration; // a fetch running now is of the cluster shown until now: dropped
    m_usageFetching = false;
}

void MainWindow::refreshUsage()
{
    if (m_usageFetching || !m_cluster || !m_cluster->usageSource)
        return; // one at a time: a slow Prometheus skips ticks rather than piling queries up
    m_usageFetching = true;
    const std::uint64_t generation = m_usageGeneration;
    importers::prometheus::UsageSource source = *m_cluster->usageSource;
    using Fetched = std::variant<importers::prometheus::UsageSeries, QString>;
    auto* watcher = new QFutureWatcher<Fetched>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, queries = source.queries] {
        const Fetched fetched = watcher->result();
        watcher->deleteLater();
        if (generation != m_usageGeneration || !m_cluster)
            return; // another cluster, or the watch ended, since it started
        m_usageFetching = false;
        if (const auto* error = std::get_if<QString>(&fetched)) {
            qCWarning(lcApp).noquote() << "usage refresh:" << *error;
            emit usageRefreshed(*error);
            return;
        }
        // Here, between batches: the names resolve to the ids the store has now.
        std::vector<std::string> warnings;
        showUsage(std::make_shared<const model::ClusterUsage>(
            importers::prometheus::joinUsageSeries(std::get<importers::prometheus::UsageSeries>(fetched), *m_cluster->store, queries, &warnings)));
        ++m_usageRefreshes;
        emit usageRefreshed(QString());
    });
    // The worker reads nothing of the window or the store: only the queries' answers.
    watcher->setFuture(QtConcurrent::run(longWorkPool(), [source]() -> Fetched {
        try {
            return importers::prometheus::fetchUsageSeries(source);
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    }));
}

void MainWindow::showUsage(std::shared_ptr<const model::ClusterUsage> usage)
{
    auto cluster = std::make_shared<ImportedCluster>(*m_cluster);
    cluster->usage = std::move(usage);
    m_cluster = std::move(cluster);
    m_explore->nodeInspector()->setUsage(m_cluster->usage);
    updateUsageMenu(); // recolours the map when a usage metric is shown
}

std::shared_ptr<const model::Metric> MainWindow::usageMetricFor(const QString& id) const
{
    model::UsageMetricKind kind;
    if (!m_cluster || !m_cluster->usage || !model::usageMetricKind(id.toStdString(), kind))
        return nullptr;
    return model::makeUsageMetric(m_cluster->usage, kind);
}

} // namespace fleet::app
