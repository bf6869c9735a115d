// SPDX-License-Identifier: Apache-2.0
#pragma once
// A live source of cluster changes: the Kubernetes WATCH or the simulated feed. A
// feed owns one thread (for the watch, one Asio io_context on it: DESIGN.md, "Threads"), builds
// model::ClusterChangeBatch values there and hands each to its sink, which posts it to the GUI
// thread where it is applied as one transaction (model/clusterchange.h).
//
// Batching: a feed flushes what it has gathered at most every `batchInterval` (and at once for
// a relist), so the map redraws once per batch, not once per event.
//
// Thread: start() and stop() from the owning (GUI) thread; every sink call comes from the
// feed's thread; after stop() returns no sink call is made.

#include "model/clusterchange.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace fleet::importers::live {

/// What a connection panel shows.
struct LiveFeedStatus {
    enum class State : std::uint8_t {
        Connecting, ///< opening the connection (or listing, for the first state)
        Listing,    ///< a LIST is running (first list, or a relist after 410 Gone)
        Watching,   ///< events are streaming
        Retrying,   ///< waiting before the next attempt (backoff or Retry-After)
        Failed,     ///< gave up (401/403, a bad setting); `lastError` says why
        Stopped,    ///< stop() was called
    };
    State state = State::Connecting;
    std::string server;                 ///< "https://host:port", or "simulated" for the simulated feed
    std::string resourceVersion;        ///< the last resourceVersion seen (empty for the simulated feed)
    double eventsPerSecond = 0;         ///< over the last few seconds
    double lastEventAgeSeconds = -1;    ///< seconds since the last event (-1: none yet)
    std::uint64_t events = 0;           ///< events received since start (bookmarks not counted)
    std::uint64_t retries = 0;          ///< reconnects and retried requests since start
    std::uint64_t relists = 0;          ///< relists after 410 Gone
    std::string lastError;              ///< the last error (the server's message, never a secret); empty when none
    /// What a request that takes long waits for (kube::RequestWait::describe(), e.g. "waiting for
    /// https://h:6443 /api/v1/pods?REDACTED: no answer yet, 5 s so far (gives up at 60 s,
    /// --request-timeout)"); empty when no request is slow.
    std::string slowRequest;
    /// "" when the feed sees the whole cluster; else what it sees, e.g. "pods of 1 of 2
    /// namespaces (not listed: cache), each watched on its own": a partial view.
    std::string partialView;
};

/// The partial view's words (the list's and the feed's): "pods of 3 of 5 namespaces (not
/// listed: cache, tmp)", the first five refused named, then "and N more". `listed` namespaces
/// had their pods listed, `refused` not. Thread: any.
[[nodiscard]] inline std::string partialViewWords(std::size_t listed, const std::vector<std::string>& refused)
{
    std::string text = "pods of " + std::to_string(listed) + " of " + std::to_string(listed + refused.size()) + " namespaces";
    if (!refused.empty()) {
        text += " (not listed: ";
        for (std::size_t i = 0; i < refused.size() && i < 5; ++i)
            text += (i ? ", " : "") + refused[i];
        if (refused.size() > 5)
            text += ", and " + std::to_string(refused.size() - 5) + " more";
        text += ")";
    }
    return text;
}

/// Receives a feed's batches and status. Implementations post to the GUI thread.
class LiveFeedSink {
public:
    virtual ~LiveFeedSink() = default;
    /// A batch ready to apply (never empty). Called on the feed's thread.
    virtual void batchReady(model::ClusterChangeBatch batch) = 0;
    /// The status changed (state, an error), or once a second while streaming. Feed's thread.
    virtual void statusChanged(const LiveFeedStatus& status) = 0;
};

class LiveFeed {
public:
    virtual ~LiveFeed() = default; ///< implementations stop() first
    /// Starts the feed's thread. Call once.
    virtual void start(LiveFeedSink& sink) = 0;
    /// Asks the feed's thread to end and joins it. Idempotent.
    virtual void stop() = 0;
};

/// Default flush interval of a feed's batches.
inline constexpr std::chrono::milliseconds kDefaultBatchInterval { 100 };

} // namespace fleet::importers::live
