// SPDX-License-Identifier: Apache-2.0
#pragma once
// A live feed a window test drives (tst_livewindow, tst_placelive): each push() hands a batch to
// the window's sink from a thread of its own, as a real feed's thread (a watch, the simulated
// feed) does, so the batch takes the window's one path: queued, held or applied on the GUI thread.

#include "importers/live/livefeed.h"
#include "model/clusterchange.h"

#include <thread>

namespace fleettest {

class ManualFeed final : public fleet::importers::live::LiveFeed {
public:
    void start(fleet::importers::live::LiveFeedSink& sink) override { m_sink = &sink; }
    void stop() override { m_sink = nullptr; }
    /// Hands `batch` to the sink from another thread; returns once the sink took it.
    void push(fleet::model::ClusterChangeBatch batch)
    {
        auto* sink = m_sink;
        std::thread([sink, &batch] { sink->batchReady(std::move(batch)); }).join();
    }

    /// Hands `status` to the sink from another thread, as a feed's thread does.
    void pushStatus(const fleet::importers::live::LiveFeedStatus& status)
    {
        auto* sink = m_sink;
        std::thread([sink, &status] { sink->statusChanged(status); }).join();
    }

private:
    fleet::importers::live::LiveFeedSink* m_sink = nullptr;
};

} // namespace fleettest
