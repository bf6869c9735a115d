// SPDX-License-Identifier: Apache-2.0
#include "clustertotals.h"

#include <map>

namespace fleet::model {

ClusterTotals computeClusterTotals(const ClusterStore& store)
{
    ClusterTotals t;
    static_cast<ClusterCounts&>(t) = store.counts();
    t.allocatable = store.totalAllocatable();
    t.requested = store.totalRequested();
    std::map<ResourceKey, std::int64_t> allocatable, requested, pending;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const NodeId n(i);
        for (const auto& [key, value] : store.nodeExtendedAllocatable(n)) {
            allocatable[key] += value;
            requested[key] += store.nodeExtendedRequested(n, key);
        }
    }
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const PodId p(i);
        if (!store.podIsPending(p))
            continue;
        t.pending += store.podRequest(p);
        for (const auto& [key, value] : store.podExtendedRequest(p))
            pending[key] += value;
    }
    t.extendedAllocatable.assign(allocatable.begin(), allocatable.end());
    t.extendedRequested.assign(requested.begin(), requested.end());
    t.extendedPending.assign(pending.begin(), pending.end());
    t.accelerators = acceleratorTotals(store);
    return t;
}

} // namespace fleet::model
