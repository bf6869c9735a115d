// SPDX-License-Identifier: Apache-2.0
#include "storereaders.h"

namespace fleet::app {

int StoreReaders::running(const model::ClusterStore& store) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_byStore.find(&store);
    return it == m_byStore.end() ? 0 : it->second;
}

int StoreReaders::running() const
{
    const std::lock_guard lock(m_mutex);
    return m_total;
}

void StoreReaders::add(const model::ClusterStore* store)
{
    const std::lock_guard lock(m_mutex);
    ++m_byStore[store];
    ++m_total;
}

void StoreReaders::remove(const model::ClusterStore* store)
{
    const std::lock_guard lock(m_mutex);
    if (const auto it = m_byStore.find(store); it != m_byStore.end() && --it->second == 0)
        m_byStore.erase(it);
    --m_total;
}

StoreReadGuard::StoreReadGuard(std::shared_ptr<StoreReaders> readers, std::shared_ptr<const model::ClusterStore> store)
    : m_readers(std::move(readers))
    , m_store(std::move(store))
{
    m_readers->add(m_store.get());
}

StoreReadGuard::~StoreReadGuard()
{
    m_readers->remove(m_store.get());
}

} // namespace fleet::app
