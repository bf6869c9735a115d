#pragma once
// A copy of a ClusterStore (whose copy constructor is deleted: copies of a 100,000-node store
// must be asked for), for work that extends a shown, immutable store without touching it: Plan
// > Place Workload adds its template pod to a copy on a worker (app/placeworkloaddialog.h).

#include "model/clusterstore.h"

#include <atomic>
#include <stdexcept>

namespace fleet::model {

/// A store with the same nodes, pods, workloads, namespaces' labels and disruption budgets as
/// `source`, under the same NodeId, PodId, WorkloadId, StringId and ResourceKey values (strings
/// and resource names are interned first, in the source's order, then every row through
/// nodeRecord() / podRecord()), so that a Topology or ids taken from the source hold for it.
/// Rows a live batch deleted stay tombstones (deleted again by one applyChanges() batch).
/// Not finalized when `finalize` is false (add more pods, then finalize()).
/// O(nodes + pods + strings); about the source's memory again. `cancel`, when set, is read
/// every 4,096 rows: once true, the copy stops and StoreCopyCancelled is thrown (no partial
/// copy is returned). Thread: any thread, while no thread mutates `source` (a GUI store: hold a
/// StoreReadGuard).
[[nodiscard]] ClusterStore copyStore(const ClusterStore& source, bool finalize = true, const std::atomic<bool>* cancel = nullptr);

/// copyStore() was cancelled.
class StoreCopyCancelled : public std::runtime_error {
public:
    StoreCopyCancelled()
        : std::runtime_error("the store's copy was cancelled")
    {
    }
};

/// Applies the tombstones copyStore(source, false) left live (a batch deleting them); call after
/// the copy's finalize(). No-op when the source has none.
void deleteCopiedTombstones(ClusterStore& copy, const ClusterStore& source);

} // namespace fleet::model
