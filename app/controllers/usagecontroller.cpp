// SPDX-License-Identifier: Apache-2.0
#include "usagecontroller.h"

#include "app/controllers/workerpool.h"
#include "app/window/applog.h"

#include "importers/prometheus/prometheusclient.h"
#include "model/clusterstore.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <variant>

namespace fleet::app {

UsageController::UsageController(QObject* parent)
    : QObject(parent)
{
}

void UsageController::start(importers::prometheus::UsageSource source, std::shared_ptr<const model::ClusterStore> store)
{
    stop();
    if (!store)
        return;
    m_source = std::move(source);
    m_store = std::move(store);
    if (!m_timer) {
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, &UsageController::refreshNow);
    }
    m_timer->start(m_refreshMs);
}

void UsageController::stop()
{
    if (m_timer)
        m_timer->stop();
    ++m_generation; // a fetch running now is of the cluster refreshed until now: dropped
    m_fetching = false;
    m_source.reset();
    m_store.reset();
}

void UsageController::refreshNow()
{
    if (m_fetching || !m_store || !m_source)
        return; // one at a time: a slow Prometheus skips ticks rather than piling queries up
    m_fetching = true;
    const std::uint64_t generation = m_generation;
    importers::prometheus::UsageSource source = *m_source;
    using Fetched = std::variant<importers::prometheus::UsageSeries, QString>;
    auto* watcher = new QFutureWatcher<Fetched>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, queries = source.queries] {
        const Fetched fetched = watcher->result();
        watcher->deleteLater();
        if (generation != m_generation || !m_store)
            return; // another cluster, or the watch ended, since it started
        m_fetching = false;
        if (const auto* error = std::get_if<QString>(&fetched)) {
            qCWarning(lcApp).noquote() << "usage refresh:" << *error;
            emit refreshed(*error);
            return;
        }
        // Here, between batches: the names resolve to the ids the store has now.
        std::vector<std::string> warnings;
        emit usageJoined(std::make_shared<const model::ClusterUsage>(
            importers::prometheus::joinUsageSeries(std::get<importers::prometheus::UsageSeries>(fetched), *m_store, queries, &warnings)));
        ++m_refreshes;
        emit refreshed(QString());
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

} // namespace fleet::app
