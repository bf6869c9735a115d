// SPDX-License-Identifier: Apache-2.0
#include "livecontroller.h"
#include "app/controllers/workerpool.h"

#include "app/window/applog.h"
#include "app/controllers/storereaders.h"

#include <QElapsedTimer>
#include <QLocale>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <QTimer>

#include <algorithm>
#include <exception>

namespace fleet::app {

LiveController::LiveController(std::shared_ptr<StoreReaders> readers, QObject* parent)
    : QObject(parent)
    , m_readers(std::move(readers))
    , m_retry(new QTimer(this))
{
    m_retry->setSingleShot(true);
    m_retry->setInterval(50);
    connect(m_retry, &QTimer::timeout, this, &LiveController::applyQueued);
    m_yield = new QTimer(this);
    m_yield->setSingleShot(true);
    m_yield->setInterval(4);
    connect(m_yield, &QTimer::timeout, this, &LiveController::applyQueued);
}

LiveController::~LiveController()
{
    stop();
}

void LiveController::start(std::unique_ptr<importers::live::LiveFeed> feed, std::shared_ptr<model::ClusterStore> store)
{
    stop();
    if (!feed || !store)
        return;
    m_store = std::move(store);
    m_feed = std::move(feed);
    m_batchesApplied = m_eventsApplied = 0;
    m_readerWaits = 0;
    m_readerWaitMsTotal = m_readerWaitMsLongest = 0;
    m_readerWait.invalidate();
    m_status = {};
    buildPodNameIndex();
    m_feed->start(*this);
    emit liveStatusChanged();
}

void LiveController::buildPodNameIndex()
{
    // The first batch would build it on this thread (~0.5 s at 1.6M pods: a frozen frame). A
    // worker builds it instead, as a store reader (batches wait for it, as for any reader, so
    // the store it indexes is the store it is adopted into); the guard is released only after
    // the adoption, on this thread.
    if (m_store->hasPodNameIndex())
        return;
    QPointer<LiveController> self(this);
    std::shared_ptr<const model::ClusterStore> store = m_store;
    auto reading = std::make_shared<StoreReadGuard>(m_readers, store);
    (void)QtConcurrent::run(longWorkPool(), [self, store, reading] {
        auto index = std::make_shared<model::ClusterStore::PodNameIndex>(store->makePodNameIndex());
        QMetaObject::invokeMethod(
            self,
            [self, store, reading, index]() mutable {
                if (!self || self->m_store != store)
                    return;
                self->m_store->adoptPodNameIndex(std::move(*index));
                reading.reset();
                self->applyQueued();
            },
            Qt::QueuedConnection);
    });
}

void LiveController::stop()
{
    if (m_feed) {
        m_feed->stop(); // joins: no sink call after this
        m_feed.reset();
    }
    {
        const std::lock_guard lock(m_mutex);
        m_queue.clear();
        m_heldAnnounced = 0;
    }
    m_retry->stop();
    m_yield->stop();
    endReaderWait();
    if (m_status.state != importers::live::LiveFeedStatus::State::Stopped && m_store) {
        m_status.state = importers::live::LiveFeedStatus::State::Stopped;
        emit liveStatusChanged();
    }
    m_store.reset();
}

QString LiveController::batchesText(std::size_t batches)
{
    const QString n = QLocale().toString(static_cast<qulonglong>(batches));
    return batches == 1 ? tr("%1 batch").arg(n) : tr("%1 batches").arg(n);
}

std::size_t LiveController::batchesWaiting() const
{
    const std::lock_guard lock(m_mutex);
    return m_queue.size();
}

void LiveController::setHeld(bool held, const QString& why)
{
    m_held = held;
    m_heldReason = why;
    if (!held)
        applyQueued();
    else if (batchesWaiting() > 0)
        m_waitingReason = why; // the batches waiting say why now, not at the next one
    emit liveStatusChanged();
}

void LiveController::batchReady(model::ClusterChangeBatch batch)
{
    // Feed thread: queue it, and post one apply for however many batches arrive meanwhile.
    const std::lock_guard lock(m_mutex);
    m_queue.push_back(std::move(batch));
    if (m_applyPosted)
        return;
    m_applyPosted = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            {
                const std::lock_guard lock(m_mutex);
                m_applyPosted = false;
            }
            if (m_held)
                announceHeld();
            if (!m_yield->isActive()) // else the yield's timer applies them after the next frame
                applyQueued();
        },
        Qt::QueuedConnection);
}

void LiveController::announceHeld()
{
    // Each held batch is announced once, so that the plan checks what would change under it.
    // Only this (GUI) thread pops the queue, and a deque's push_back keeps references to its
    // elements valid: the reference outlives the lock.
    for (;;) {
        const model::ClusterChangeBatch* batch = nullptr;
        {
            const std::lock_guard lock(m_mutex);
            if (m_heldAnnounced >= m_queue.size())
                return;
            batch = &m_queue[m_heldAnnounced++];
        }
        emit batchHeld(*batch);
    }
}

void LiveController::statusChanged(const importers::live::LiveFeedStatus& status)
{
    const std::lock_guard lock(m_mutex);
    m_postedStatus = status;
    if (m_statusPosted)
        return;
    m_statusPosted = true;
    QMetaObject::invokeMethod(this, &LiveController::onStatusPosted, Qt::QueuedConnection);
}

void LiveController::onStatusPosted()
{
    {
        const std::lock_guard lock(m_mutex);
        m_statusPosted = false;
        if (!m_feed)
            return;
        m_status = m_postedStatus;
    }
    emit liveStatusChanged();
}

bool LiveController::storeBusy() const
{
    return m_store && m_readers->running(*m_store) > 0;
}

void LiveController::beginReaderWait()
{
    if (m_readerWait.isValid() || batchesWaiting() == 0)
        return;
    m_readerWait.start();
    ++m_readerWaits;
}

void LiveController::endReaderWait()
{
    if (!m_readerWait.isValid())
        return;
    const double ms = static_cast<double>(m_readerWait.nsecsElapsed()) / 1e6;
    m_readerWaitMsTotal += ms;
    m_readerWaitMsLongest = std::max(m_readerWaitMsLongest, ms);
    m_readerWait.invalidate();
}

double LiveController::readerWaitMsTotal() const
{
    return m_readerWaitMsTotal + (m_readerWait.isValid() ? static_cast<double>(m_readerWait.nsecsElapsed()) / 1e6 : 0.0);
}

double LiveController::readerWaitMsLongest() const
{
    return std::max(m_readerWaitMsLongest, m_readerWait.isValid() ? static_cast<double>(m_readerWait.nsecsElapsed()) / 1e6 : 0.0);
}

void LiveController::applyQueued()
{
    if (!m_store)
        return;
    if (m_held) {
        endReaderWait(); // a hold is not a reader's wait
        m_waitingReason = m_heldReason;
        emit liveStatusChanged();
        return;
    }
    if (storeBusy()) {
        m_waitingReason = tr("a worker reads the cluster");
        beginReaderWait();
        m_retry->start();
        emit liveStatusChanged();
        return;
    }
    endReaderWait();
    m_waitingReason.clear();
    // A turn of the event loop applies batches for at most kTurnBudgetMs, then yields: the
    // rest is posted after the paint events queued meanwhile, so frames go on while a feed
    // delivers faster than the window applies (posted events run in order).
    QElapsedTimer turn;
    turn.start();
    for (;;) {
        if (turn.elapsed() >= kTurnBudgetMs) {
            m_yield->start(); // a timer, not a posted event: paint (a low-priority event) runs first
            break;
        }
        model::ClusterChangeBatch batch;
        {
            const std::lock_guard lock(m_mutex);
            if (m_queue.empty())
                break;
            batch = std::move(m_queue.front());
            m_queue.pop_front();
            m_heldAnnounced = m_heldAnnounced > 0 ? m_heldAnnounced - 1 : 0;
        }
        QElapsedTimer clock;
        clock.start();
        try {
            const model::ClusterDiff diff = model::applyChanges(*m_store, batch);
            m_lastApplyMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
            ++m_batchesApplied;
            m_eventsApplied += batch.events;
            emit diffApplied(diff, batch);
        } catch (const std::exception& e) {
            qCWarning(lcApp, "live batch refused: %s", e.what());
            emit applyFailed(QString::fromUtf8(e.what()));
        }
        // A worker started by a handler of the last diff: the rest waits for it.
        if (storeBusy()) {
            m_waitingReason = tr("a worker reads the cluster");
            beginReaderWait();
            m_retry->start();
            break;
        }
    }
    emit liveStatusChanged();
}

} // namespace fleet::app
