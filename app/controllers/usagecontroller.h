// SPDX-License-Identifier: Apache-2.0
#pragma once
// The usage of a watched live cluster kept current: while it runs, the cluster's Prometheus is
// queried again every refreshInterval() ms, the queries on a worker, the join to the store by
// node and pod names on this thread, between live batches, so that the usage's ids are the
// store's now (a pod added live has an id the usage read at the import did not know).

#include "importers/prometheus/usagequery.h"
#include "model/usage.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

class QTimer;

namespace fleet::model {
class ClusterStore;
}

namespace fleet::app {

/// Owns the refresh timer, the query in flight and the count of refreshes. One query at a time:
/// a slow Prometheus skips ticks rather than piling queries up. stop() (a new cluster, the watch
/// ended) drops the answer of a query still running. Thread: GUI thread; the queries on
/// longWorkPool(), which reads only the source (nothing of the window or the store).
class UsageController : public QObject {
    Q_OBJECT
public:
    explicit UsageController(QObject* parent = nullptr);

    /// The default refresh interval: a minute (a Prometheus scrapes every 15 to 60 s).
    static constexpr int kDefaultRefreshMs = 60000;
    /// The interval between queries in ms (tests shorten it); takes effect at the next start().
    void setRefreshInterval(int ms) noexcept { m_refreshMs = ms; }
    [[nodiscard]] int refreshInterval() const noexcept { return m_refreshMs; }

    /// Refreshes the usage of `store` (not null: the shown store, which live batches change)
    /// from `source` every refreshInterval() ms, the first after one interval. Stops a running
    /// refresh first.
    void start(importers::prometheus::UsageSource source, std::shared_ptr<const model::ClusterStore> store);
    /// Stops the timer, drops a query running now and lets go of the store. Idempotent.
    void stop();
    [[nodiscard]] bool isRunning() const noexcept { return m_store != nullptr; }
    /// Usage refreshes joined since the controller was made.
    [[nodiscard]] std::uint64_t refreshes() const noexcept { return m_refreshes; }
    /// The timer's work, now: the queries on a worker, then the join here. No-op while a query
    /// runs or when not running.
    void refreshNow();

signals:
    /// A refresh's answer joined to the store (emitted before refreshed("")).
    void usageJoined(std::shared_ptr<const fleet::model::ClusterUsage> usage);
    /// A refresh ended: `error` empty after usageJoined(), else the server's message (the
    /// usage shown stays).
    void refreshed(const QString& error);

private:
    QTimer* m_timer = nullptr;
    int m_refreshMs = kDefaultRefreshMs;
    std::optional<importers::prometheus::UsageSource> m_source;
    std::shared_ptr<const model::ClusterStore> m_store;
    std::uint64_t m_generation = 0; // +1 per stop(): an answer of an older one is dropped
    bool m_fetching = false;
    std::uint64_t m_refreshes = 0;
};

} // namespace fleet::app
