// SPDX-License-Identifier: Apache-2.0
#pragma once
// Workers that read a window's store (the plan engine's build, the exploring analysis,
// consolidation, a report, a save) hold a StoreReadGuard on that store for as long as they run,
// so that a live batch is never applied under them: the LiveController that changes the store
// waits while its StoreReaders::running(store) > 0.
//
// The count is an object, not process state: the window (MainWindow, the GUI's composition
// root) makes one and hands it to every part that starts a reader or waits for them (the plan,
// the exploring panels, the live controller, the document, the exporters); a test makes its
// own. Readers are counted per store, so that one window's workers never hold another window's
// batches even when windows share one StoreReaders. Thread: any.

#include <memory>
#include <mutex>
#include <unordered_map>

namespace fleet::model {
class ClusterStore;
}

namespace fleet::app {

class StoreReaders {
public:
    StoreReaders() = default;
    StoreReaders(const StoreReaders&) = delete;
    StoreReaders& operator=(const StoreReaders&) = delete;

    /// The running readers of `store` (0 when none). Thread: any.
    [[nodiscard]] int running(const model::ClusterStore& store) const;
    /// The running readers of every store counted here: for a test or a benchmark that waits
    /// until no worker reads. Thread: any.
    [[nodiscard]] int running() const;

private:
    friend class StoreReadGuard;
    void add(const model::ClusterStore* store);
    void remove(const model::ClusterStore* store);

    // A store is in the map only while some reader counts it (its guard keeps it alive, so its
    // address is not reused meanwhile).
    mutable std::mutex m_mutex;
    std::unordered_map<const model::ClusterStore*, int> m_byStore;
    int m_total = 0;
};

/// Counts one running reader of a store in a StoreReaders from construction to destruction.
/// Make it on the GUI thread before the worker starts (make_shared, captured by the worker's
/// lambda), so that no batch slips in between the start and the worker's first read. It keeps
/// the store alive while it counts (no other store can take its address and inherit the
/// count), and the StoreReaders too (a worker may outlive the window that started it).
class StoreReadGuard {
public:
    /// `readers` and `store` not null.
    StoreReadGuard(std::shared_ptr<StoreReaders> readers, std::shared_ptr<const model::ClusterStore> store);
    ~StoreReadGuard();
    StoreReadGuard(const StoreReadGuard&) = delete;
    StoreReadGuard& operator=(const StoreReadGuard&) = delete;

private:
    std::shared_ptr<StoreReaders> m_readers;
    std::shared_ptr<const model::ClusterStore> m_store;
};

} // namespace fleet::app
