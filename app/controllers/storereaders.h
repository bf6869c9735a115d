// SPDX-License-Identifier: Apache-2.0
#pragma once
// Workers that read a window's store (the plan engine's build, the exploring analysis,
// consolidation, a report, a save) hold a StoreReadGuard on that store for as long as they run,
// so that a live batch is never applied under them: the LiveController that changes the store
// waits while storeReadersRunning(store) > 0. Readers are counted per store, so that one
// window's workers never hold another window's batches. Thread: any.

#include <memory>

namespace fleet::model {
class ClusterStore;
}

namespace fleet::app {

/// The running readers of `store` (0 when none). Thread: any.
[[nodiscard]] int storeReadersRunning(const model::ClusterStore& store);
/// The running readers of every store in the process: for a test or a benchmark that waits
/// until no worker reads. Thread: any.
[[nodiscard]] int storeReadersRunning();

/// Counts one running reader of a store from construction to destruction. Make it on the GUI
/// thread before the worker starts (make_shared, captured by the worker's lambda), so that no
/// batch slips in between the start and the worker's first read. It keeps the store alive while
/// it counts (no other store can take its address and inherit the count).
class StoreReadGuard {
public:
    /// `store` not null.
    explicit StoreReadGuard(std::shared_ptr<const model::ClusterStore> store);
    ~StoreReadGuard();
    StoreReadGuard(const StoreReadGuard&) = delete;
    StoreReadGuard& operator=(const StoreReadGuard&) = delete;

private:
    std::shared_ptr<const model::ClusterStore> m_store;
};

} // namespace fleet::app
