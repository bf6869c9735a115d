// SPDX-License-Identifier: Apache-2.0
#include "storereaders.h"

#include <mutex>
#include <unordered_map>

namespace fleet::app {

namespace {

// Readers by store. A store is in the map only while some reader counts it (its guard keeps it
// alive, so its address is not reused meanwhile).
struct Readers {
    std::mutex mutex;
    std::unordered_map<const model::ClusterStore*, int> byStore;
    int total = 0;
};

Readers& readers() noexcept
{
    static Readers r;
    return r;
}

} // namespace

int storeReadersRunning(const model::ClusterStore& store)
{
    Readers& r = readers();
    const std::lock_guard lock(r.mutex);
    const auto it = r.byStore.find(&store);
    return it == r.byStore.end() ? 0 : it->second;
}

int storeReadersRunning()
{
    Readers& r = readers();
    const std::lock_guard lock(r.mutex);
    return r.total;
}

StoreReadGuard::StoreReadGuard(std::shared_ptr<const model::ClusterStore> store)
    : m_store(std::move(store))
{
    Readers& r = readers();
    const std::lock_guard lock(r.mutex);
    ++r.byStore[m_store.get()];
    ++r.total;
}

StoreReadGuard::~StoreReadGuard()
{
    Readers& r = readers();
    const std::lock_guard lock(r.mutex);
    if (const auto it = r.byStore.find(m_store.get()); it != r.byStore.end() && --it->second == 0)
        r.byStore.erase(it);
    --r.total;
}

} // namespace fleet::app
