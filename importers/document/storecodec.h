// SPDX-License-Identifier: Apache-2.0
#pragma once
// A cluster store (and its usage) as the .fleet document's columns, and back.
//
// Design note (docs/document.md has the measurements): the document keeps a store as a few
// columns, each one zlib-compressed blob, rather than a row per node and pod:
//  - "strings": the store's whole string pool in id order, so that every StringId the store
//    holds (interned selectors, topology keys, volumes) stays valid in the store rebuilt from it;
//  - "resources": the extended resource names in key order, for the same reason;
//  - "nodes": one record per node (name, labels, taints, allocatable, capacity, extended,
//    readiness, cordon, GPUs, instance type, conditions);
//  - "pod_templates": what the pods of one workload share (namespace, owner, priority,
//    request, tolerations, node selector and affinity, labels, pod (anti-)affinity, spread,
//    host ports, volumes, flags, GPU share, scheduling gates and message), once per distinct
//    combination;
//  - "pods": per pod only its name, uid, spec.nodeName (string ids, delta-coded), phase and
//    template, one column after the other so that zlib sees runs of alike values;
//  - "namespaces", "budgets": namespace labels and PodDisruptionBudgets;
//  - "usage": the per-node usage figures, idle GPUs and the window, when the source had usage.
// A store is rebuilt through ClusterStore::addNodeInterned()/addPod()/addPodsLike()/finalize(),
// what the importers' addNode()/addPod() make of the same records (the node records and the
// pods after a template's first hold ids of the store's strings, interned first, in id order),
// so the opened store holds the same invariants as an imported one. Deleted (tombstone)
// rows of a live store are not saved.
//
// Thread: any; the functions keep no state.

#include "model/clusterstore.h"
#include "model/usage.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fleet::importers::document {

/// The column names encodeStore() writes, in order (the document's schema names them too).
[[nodiscard]] const std::vector<std::string>& storeColumnNames();

/// The zlib level a column is written at: 1, or 0 (stored, not compressed) for a column whose
/// bytes zlib cannot shrink ("pod_uids": random 128-bit uids, 16 bytes a pod, measured 6%
/// smaller at level 1 at a cost of 1 s at 1.6M pods). Level 0 still wraps the bytes in zlib's
/// format, so that its Adler-32 checksum catches a damaged uid as it does in every other column.
[[nodiscard]] int columnZlibLevel(const std::string& name);

/// The store's columns as (name, raw bytes) pairs, uncompressed, in storeColumnNames() order.
/// `usage` may be null. Throws std::bad_alloc only. Thread: any reader of the store.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> encodeStore(const model::ClusterStore& store,
                                                                           const model::ClusterUsage* usage);

/// Called as soon as a column is complete, with its name and bytes.
using ColumnDone = std::function<void(const std::string& name, const std::string& bytes)>;

/// encodeStore() into `out` (cleared first, then one pair appended per column), calling
/// `columnDone` on this thread for each column as soon as it is complete, so that a caller can
/// compress a column on another thread while the next ones are encoded: the bytes stay where
/// they are, unchanged, for as long as `out` lives (it is never reallocated), also when this
/// throws, so declare `out` before whatever still reads them. Throws std::bad_alloc, and what
/// `columnDone` throws. Thread: any reader of the store.
void encodeStoreInto(const model::ClusterStore& store, const model::ClusterUsage* usage,
                     std::vector<std::pair<std::string, std::string>>& out, const ColumnDone& columnDone);

/// A store rebuilt from its columns: finalized, with its usage (null when none was saved).
struct DecodedStore {
    std::shared_ptr<model::ClusterStore> store;
    std::shared_ptr<const model::ClusterUsage> usage;
    /// Pods naming a node the store does not hold (finalize()'s answer).
    std::size_t podsOnUnknownNodes = 0;
};

/// What a reader that overlaps its work with decodeStore() gives it (both optional).
struct DecodeHooks {
    /// When set, column("strings") is still being written (inflated on another thread,
    /// inflatingcolumn.h) and is interned as it comes: stringsReady(end) blocks until at least
    /// its first min(end, size) bytes are final and returns how many are; stringsReady(SIZE_MAX)
    /// returns once the whole column is, and checked. It throws what made the column fail,
    /// which decodeStore() reports before an error of its own in those bytes.
    std::function<std::size_t(std::size_t end)> stringsReady;
    /// When set, called on decodeStore()'s thread with the finalized store while the last
    /// check (no two pods share a namespace and name) runs on another thread: the caller's
    /// own work on the store (its topology) overlaps it. decodeStore() returns only once both
    /// are done and the check passed; what the callback throws is passed on.
    std::function<void(const model::ClusterStore&)> whileChecking;
};

/// Rebuilds the store from `column(name)`, the raw bytes of each storeColumnNames() column.
/// Every value is checked (string and resource ids, enums, counts, sorted selector values,
/// node references of the usage); throws DocumentFormatError naming the column, the byte and
/// what is wrong, or naming the node or pod the store refused. Never returns a partial store.
/// `column` is called from this thread and one other at a time (never for the same name).
/// Thread: any; uses one more thread while the nodes are added (the pod templates and pods'
/// columns are decoded there) and one while the store is finalized (findDuplicatePod() and the
/// scan of the strings for control characters).
[[nodiscard]] DecodedStore decodeStore(const std::function<std::string_view(const std::string&)>& column, const DecodeHooks& hooks = {});

} // namespace fleet::importers::document
