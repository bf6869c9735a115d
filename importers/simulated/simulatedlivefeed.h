// SPDX-License-Identifier: Apache-2.0
#pragma once
// The simulated live feed (`fleetscope --simulate N --live [--rate EVENTS_PER_S]`): a
// live::LiveFeed whose thread generates the same simulated cluster the window shows (the same
// SimulationSpec gives the same store) and then, every batch interval, hands the sink the next
// SimulatedChanges batch: the same batches, through the same sink and transaction, as the
// Kubernetes watch.

#include "importers/live/livefeed.h"
#include "importers/simulated/simulatedcluster.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace fleet::importers {

class SimulatedLiveFeed final : public live::LiveFeed {
public:
    /// Default events per second of `--live` without `--rate`.
    static constexpr double kDefaultRate = 200;

    /// A feed over the cluster of `spec` at `eventsPerSecond` (> 0) events a second, flushed
    /// every `batchInterval` (each batch holds rate x interval events, so batch k is the same
    /// whatever the machine's speed: deterministic for a spec). `state`, when given, is the
    /// cluster to start from instead of generating `spec` again (it must equal the store the
    /// sink's consumer holds).
    SimulatedLiveFeed(SimulationSpec spec, double eventsPerSecond,
        std::chrono::milliseconds batchInterval = live::kDefaultBatchInterval, std::unique_ptr<model::ClusterStore> state = {});
    ~SimulatedLiveFeed() override;

    void start(live::LiveFeedSink& sink) override;
    void stop() override;

private:
    void run(live::LiveFeedSink& sink);

    SimulationSpec m_spec;
    double m_rate;
    std::chrono::milliseconds m_interval;
    std::unique_ptr<model::ClusterStore> m_initial;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
};

} // namespace fleet::importers
