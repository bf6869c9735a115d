// SPDX-License-Identifier: Apache-2.0
#include "simulatedlivefeed.h"

#include "importers/simulated/simulatedchanges.h"

#include <cmath>
#include <deque>
#include <exception>
#include <utility>

namespace fleet::importers {

using Clock = std::chrono::steady_clock;

SimulatedLiveFeed::SimulatedLiveFeed(
    SimulationSpec spec, double eventsPerSecond, std::chrono::milliseconds batchInterval, std::unique_ptr<model::ClusterStore> state)
    : m_spec(spec)
    , m_rate(eventsPerSecond > 0 ? eventsPerSecond : kDefaultRate)
    , m_interval(batchInterval.count() > 0 ? batchInterval : live::kDefaultBatchInterval)
    , m_initial(std::move(state))
{
}

SimulatedLiveFeed::~SimulatedLiveFeed()
{
    stop();
}

void SimulatedLiveFeed::start(live::LiveFeedSink& sink)
{
    if (m_thread.joinable())
        return;
    m_thread = std::thread([this, &sink] { run(sink); });
}

void SimulatedLiveFeed::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void SimulatedLiveFeed::run(live::LiveFeedSink& sink)
{
    live::LiveFeedStatus status;
    status.server = "simulated";
    status.state = live::LiveFeedStatus::State::Listing;
    sink.statusChanged(status);
    std::unique_ptr<SimulatedChanges> changes;
    try {
        model::ClusterStore store;
        if (m_initial) {
            store = std::move(*m_initial);
            m_initial.reset();
        } else {
            ImportReport report;
            generateSimulatedCluster(m_spec, store, report);
            store.finalize();
        }
        changes = std::make_unique<SimulatedChanges>(std::move(store), m_spec.seed);
    } catch (const std::exception& e) {
        status.state = live::LiveFeedStatus::State::Failed;
        status.lastError = e.what();
        sink.statusChanged(status);
        return;
    }
    status.state = live::LiveFeedStatus::State::Watching;
    sink.statusChanged(status);

    // Events per batch: the rate times the interval, the fraction carried to the next batch.
    const double perBatch = m_rate * std::chrono::duration<double>(m_interval).count();
    double carry = 0;
    std::deque<std::pair<Clock::time_point, std::size_t>> recent; // (time, events), the last few seconds
    Clock::time_point lastEvent {}, lastStatus = Clock::now();
    Clock::time_point next = Clock::now() + m_interval;
    std::unique_lock lock(m_mutex);
    while (!m_stop) {
        if (m_wake.wait_until(lock, next, [this] { return m_stop; }))
            break;
        lock.unlock();
        next += m_interval;
        const auto now = Clock::now();
        if (next < now)
            next = now + m_interval; // fell behind (a slow machine): no burst to catch up
        carry += perBatch;
        const auto events = static_cast<std::size_t>(std::floor(carry));
        carry -= static_cast<double>(events);
        if (events > 0) {
            model::ClusterChangeBatch batch = changes->next(events);
            if (!batch.empty()) {
                status.events += batch.events;
                recent.emplace_back(now, batch.events);
                lastEvent = now;
                sink.batchReady(std::move(batch));
            }
        }
        while (!recent.empty() && now - recent.front().first > std::chrono::seconds(3))
            recent.pop_front();
        if (now - lastStatus >= std::chrono::seconds(1)) {
            std::size_t sum = 0;
            for (const auto& [t, n] : recent)
                sum += n;
            status.eventsPerSecond = static_cast<double>(sum) / 3.0;
            status.lastEventAgeSeconds = lastEvent == Clock::time_point {} ? -1 : std::chrono::duration<double>(now - lastEvent).count();
            sink.statusChanged(status);
            lastStatus = now;
        }
        lock.lock();
    }
    status.state = live::LiveFeedStatus::State::Stopped;
    sink.statusChanged(status);
}

} // namespace fleet::importers
