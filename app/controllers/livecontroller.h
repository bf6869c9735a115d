// SPDX-License-Identifier: Apache-2.0
#pragma once
// A live feed in the window: the sink that takes a feed's batches on the feed's
// thread, posts them to the GUI thread (queued), and applies each as one transaction
// (model::applyChanges) to the shown cluster's store.
//
// Threads and the store (DESIGN.md, "Threads"): the store is read by the GUI thread and, now
// and then, by workers over it (the plan engine's build, the exploring analysis, consolidation).
// A batch is never applied while such a worker runs: before each transaction the controller
// asks whether a reader holds a StoreReadGuard on its store (StoreReaders::running(store),
// controllers/storereaders.h; another window's readers do not count) and, while one does, keeps
// the batches queued in order and tries again on a 50 ms timer; the GUI thread never waits and
// the worker never sees the store change.
// Any LiveFeed fits: the simulated feed (`--simulate N --live`) and the Kubernetes watch.

#include "importers/live/livefeed.h"
#include "model/clusterchange.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <deque>
#include <functional>
#include <memory>
#include <mutex>

class QTimer;

namespace fleet::app {

class StoreReaders;

class LiveController : public QObject, private importers::live::LiveFeedSink {
    Q_OBJECT
public:
    /// `readers` (not null): the count of workers that read the store, which batches wait for;
    /// the controller's own worker (the pod name index) is counted there too.
    explicit LiveController(std::shared_ptr<StoreReaders> readers, QObject* parent = nullptr);
    ~LiveController() override; ///< stops the feed first

    /// Starts `feed` (not null) over `store`, which from now on changes only through this
    /// controller's transactions. A running feed is stopped first. The store's pod name index
    /// (ClusterStore::makePodNameIndex()) is built on a worker meanwhile, a store reader.
    void start(std::unique_ptr<importers::live::LiveFeed> feed, std::shared_ptr<model::ClusterStore> store);
    /// Stops the feed (joins its thread) and drops the batches not applied yet. Idempotent.
    void stop();
    [[nodiscard]] bool isRunning() const noexcept { return m_feed != nullptr; }
    /// While held, batches queue without being applied (the status says so); released: applied.
    void setHeld(bool held, const QString& why = {});

    /// The feed's last status (GUI thread copy).
    [[nodiscard]] const importers::live::LiveFeedStatus& status() const noexcept { return m_status; }
    /// Batches and events applied since start(), batches waiting, the last transaction's time.
    [[nodiscard]] std::uint64_t batchesApplied() const noexcept { return m_batchesApplied; }
    [[nodiscard]] std::uint64_t eventsApplied() const noexcept { return m_eventsApplied; }
    [[nodiscard]] std::size_t batchesWaiting() const;
    /// "1 batch", "125 batches": a count of batches as the Connection dock and the messages
    /// about waiting batches say it (the locale's digit grouping). Thread: any.
    [[nodiscard]] static QString batchesText(std::size_t batches);
    [[nodiscard]] double lastApplyMs() const noexcept { return m_lastApplyMs; }
    /// Why batches wait ("a worker reads the cluster", the setHeld() reason), or "".
    [[nodiscard]] QString waitingReason() const { return m_waitingReason; }
    /// Waits for store readers since start(): how many times queued batches found a reader on
    /// the store (one wait lasts from then until batches apply again, however many 50 ms
    /// retries it took), their summed and longest wall-clock time in milliseconds. A wait still
    /// running counts in the three. Holds (setHeld()) are not reader waits. GUI thread.
    [[nodiscard]] std::uint64_t readerWaits() const noexcept { return m_readerWaits; }
    [[nodiscard]] double readerWaitMsTotal() const;
    [[nodiscard]] double readerWaitMsLongest() const;

    /// Applies the queued batches if nothing holds them, for at most kTurnBudgetMs (the rest
    /// 4 ms later, on a timer, so that the frame the diffs asked for is painted first: Qt posts
    /// paint requests at low priority, behind every posted event). GUI thread.
    void applyQueued();
    static constexpr int kTurnBudgetMs = 12;
    /// The sink's own entry, for a batch built on the GUI thread (tests): queued like a feed's.
    void post(model::ClusterChangeBatch batch) { batchReady(std::move(batch)); }

signals:
    /// One transaction was applied (one batch): `diff` by id of the store; `batch` is the
    /// batch it came from (its names, for a plan's staleness check). Emitted on the GUI thread.
    void diffApplied(const fleet::model::ClusterDiff& diff, const fleet::model::ClusterChangeBatch& batch);
    /// A batch arrived while batches are held (setHeld): the plan can check it before it applies.
    void batchHeld(const fleet::model::ClusterChangeBatch& batch);
    /// The status or the queue changed (at least once a second while the feed runs).
    void liveStatusChanged();
    /// A batch the store refused (the store keeps what came before it; the feed goes on).
    void applyFailed(const QString& message);

private:
    void batchReady(model::ClusterChangeBatch batch) override;      // feed thread
    void statusChanged(const importers::live::LiveFeedStatus& status) override; // feed thread
    void onStatusPosted();
    void announceHeld();
    void buildPodNameIndex(); // on a worker, as a store reader; adopted on the GUI thread
    [[nodiscard]] bool storeBusy() const; // a worker holds a StoreReadGuard on m_store
    void beginReaderWait(); // queued batches found a reader: a wait starts unless one runs
    void endReaderWait();   // batches apply again: the running wait ends

    std::unique_ptr<importers::live::LiveFeed> m_feed;
    std::shared_ptr<model::ClusterStore> m_store;
    std::shared_ptr<StoreReaders> m_readers;
    QTimer* m_retry = nullptr;
    QTimer* m_yield = nullptr; // the next turn's batches, after the frame
    bool m_held = false;
    QString m_heldReason, m_waitingReason;

    mutable std::mutex m_mutex; // guards the fields below, shared with the feed's thread
    std::deque<model::ClusterChangeBatch> m_queue;
    importers::live::LiveFeedStatus m_postedStatus;
    bool m_applyPosted = false, m_statusPosted = false;
    std::size_t m_heldAnnounced = 0; // queued batches already announced by batchHeld()

    importers::live::LiveFeedStatus m_status;
    std::uint64_t m_batchesApplied = 0, m_eventsApplied = 0;
    double m_lastApplyMs = 0;
    std::uint64_t m_readerWaits = 0;
    double m_readerWaitMsTotal = 0, m_readerWaitMsLongest = 0; // of the waits that ended
    QElapsedTimer m_readerWait; // valid while a wait runs
};

} // namespace fleet::app
