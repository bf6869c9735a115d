// SPDX-License-Identifier: Apache-2.0
#pragma once
// Changes to a loaded cluster, applied as one transaction that ends in one diff (DESIGN.md,
// "The model": "Bulk changes are transactions that end in one diff (ids added, removed,
// changed), so that a view redraws once, not once per item").
//
// Every live source produces ClusterChangeBatch and nothing else: the Kubernetes WATCH
// (importers/live/kubewatchfeed.h) and the simulated live feed (`--simulate N --live`) build a
// batch on their own thread, and the GUI thread applies it to its store with applyChanges(), so
// both go through exactly the same path ("Simulated live feed").
//
// A batch carries final states, not a log: a source that sees a pod added, modified and deleted
// within one batch puts only the deletion in it. The upserted nodes and pods are decoded by the
// same importers as files into a staging store of the batch's own (its own strings), so that the
// feed thread never touches the GUI's store; applyChanges() copies them over, re-interning.
//
// Thread: a batch is built on one thread and then handed over (moved) whole.

#include "clusterstore.h"
#include "ids.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace fleet::model {

/// One batch of changes from a live source.
struct ClusterChangeBatch {
    /// Nodes and pods added or modified, as the source now has them (not finalized). A node or
    /// pod is matched to the applied store by name (pods: namespace/name; a pod whose uid
    /// differs from the stored one is a new pod of the same name: removed and added).
    ClusterStore upserted;
    /// Nodes deleted, by name; pods deleted, as (namespace, name).
    std::vector<std::string> deletedNodes;
    std::vector<std::pair<std::string, std::string>> deletedPods;
    /// A relist (after 410 Gone, or a restarted feed): `upserted` is the whole new state and
    /// every node and pod it does not hold is deleted.
    bool replacesAll = false;
    /// The resourceVersion the source has seen up to (a watch's last event or bookmark); empty
    /// for the simulated feed.
    std::string resourceVersion;
    /// Source events merged into this batch (bookmarks not counted).
    std::size_t events = 0;

    [[nodiscard]] bool empty() const noexcept
    {
        return !replacesAll && upserted.nodeCount() == 0 && upserted.podCount() == 0 && deletedNodes.empty() && deletedPods.empty();
    }
};

/// What one applied batch changed, by id of the applied store. Ids of removed entities stay
/// valid indices (their rows are kept as tombstones) so that a view can clear what it drew.
struct ClusterDiff {
    std::vector<NodeId> nodesAdded, nodesRemoved, nodesChanged;
    std::vector<PodId> podsAdded, podsRemoved, podsChanged;
    /// Nodes whose counted pods or summed requests changed (pods bound, unbound, resized).
    std::vector<NodeId> nodesLoadChanged;
    /// Nodes of nodesChanged whose labels changed (the topology may have: a view rebuilds it).
    std::vector<NodeId> nodesRelabelled;

    [[nodiscard]] bool empty() const noexcept
    {
        return nodesAdded.empty() && nodesRemoved.empty() && nodesChanged.empty() && podsAdded.empty() && podsRemoved.empty()
            && podsChanged.empty() && nodesLoadChanged.empty();
    }
};

/// Applies `batch` to `store` as one transaction and returns what changed (every vector sorted
/// by id, no duplicates). Rules:
/// - matching is by name (nodes) and namespace/name (pods); a pod whose uid differs from the
///   stored one (both non-empty) is removed and added again;
/// - a new node or pod is appended (ids stay stable); a deleted one stays as a tombstone row
///   (nodeIsDeleted(), podIsDeleted()): counts(), totals, nodePods() and podIsCounted /
///   podIsPending / podIsOnUnknownNode treat it as gone; a deleted node reads as one with no
///   allocatable, cordoned, readiness Unknown, and no longer findNode()s;
/// - an upserted node takes the batch's labels, taints, conditions, readiness, cordon,
///   allocatable, capacity, GPU model and count, instance type; an upserted pod its phase,
///   spec.nodeName, requests, labels, priority and scheduling constraints (strings, selectors
///   and resource names re-interned);
/// - a pod whose node is deleted stays, "on an unknown node" (podsChanged), until it is deleted
///   too; a relist (replacesAll) deletes every node and pod the batch does not hold;
/// - per-node requested sums, extended requested and nodePods() are exact afterwards.
/// Cost: O(batch + pods of the nodes it touches), amortised (a node's grown row, taints or
/// pods, moves to the end of its column; a rare compaction packs the column again); a batch
/// moving more than one pod in 16 rebuilds nodePods() by one O(pods) counting sort; when nodes
/// were added or deleted, one O(pods) scan of a 4-byte column.
/// Errors: std::invalid_argument for a batch row the store refuses (an empty name, a GPU share
/// out of range: nothing of that row is written, rows before it are), std::overflow_error
/// when a node's summed requests do not fit in int64.
/// Thread: the store's owner, while no other thread reads the store.
ClusterDiff applyChanges(ClusterStore& store, const ClusterChangeBatch& batch);

} // namespace fleet::model
