// SPDX-License-Identifier: Apache-2.0
#pragma once
// Workers that read the shown cluster's store (the plan engine's build, the exploring analysis,
// consolidation) hold a StoreReadGuard for as long as they run, so that a live batch is never
// applied under them (LiveController waits while storeReadersRunning() > 0). Thread: any.

#include <atomic>
#include <memory>

namespace fleet::app {

/// The process-wide count of running store readers.
inline std::atomic<int>& storeReadersRunning() noexcept
{
    static std::atomic<int> running { 0 };
    return running;
}

/// Counts one running reader from construction to destruction. Make it on the GUI thread
/// before the worker starts (make_shared, captured by the worker's lambda), so that no batch
/// slips in between the start and the worker's first read.
class StoreReadGuard {
public:
    StoreReadGuard() noexcept { storeReadersRunning().fetch_add(1, std::memory_order_acq_rel); }
    ~StoreReadGuard() { storeReadersRunning().fetch_sub(1, std::memory_order_acq_rel); }
    StoreReadGuard(const StoreReadGuard&) = delete;
    StoreReadGuard& operator=(const StoreReadGuard&) = delete;
};

} // namespace fleet::app
