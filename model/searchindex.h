// SPDX-License-Identifier: Apache-2.0
#pragma once
// Finding nodes and pods by name: sorted id vectors over the store's interned names, for
// prefix completion at 100,000 nodes and 1.7 million pods.
//
// Design note: no string copies. Nodes are sorted by name, pods by "namespace/name" and by
// name alone, each as a vector of 4-byte ids (about 14 MB at 1.7M pods). A pod's key
// "namespace/name" is ordered by the namespace's rank (its "namespace/" order, since '/'
// never occurs in a namespace) and then the name, so sorting compares interned namespace
// ids and one name, never builds the key. A prefix's matches are one contiguous range
// (lower_bound, O(log n)), so completion costs O(log n + limit) per keystroke. Building
// sorts 1.7M pods twice, on sort keys holding the namespace's rank and the name's first 16
// bytes (the rest of the name only breaks ties), the two sorts on two threads: seconds at 100k
// nodes (bench_explore prints the figure), so it runs on a worker.

#include "model/clusterstore.h"

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::model {

/// Prefix completion and lookup of node names and pod names. Immutable once built.
/// Thread: build() on any thread; const use from any thread.
class SearchIndex {
public:
    /// What a text names: a node, or a pod and the node it is bound to (invalid when it is
    /// pending or on an unknown node).
    struct Match {
        std::string text; // the node's name or the pod's "namespace/name"
        NodeId node;
        PodId pod; // invalid for a node
    };

    /// Sorts the ids of `store` (which the index keeps alive). O((N + P) log(N + P)).
    [[nodiscard]] static std::shared_ptr<const SearchIndex> build(std::shared_ptr<const ClusterStore> store);
    /// Sorts the ids of `sorted` and keeps `shown` (null: an empty index), whose names it reads
    /// from then on: for a copy of the shown store that a worker keeps up to date (the same
    /// batches, in the same order, so every id of `sorted` names the same node or pod in
    /// `shown`, which may have applied more since). `sorted` is read during the call only.
    [[nodiscard]] static std::shared_ptr<const SearchIndex> build(const ClusterStore& sorted, std::shared_ptr<const ClusterStore> shown);

    /// Up to `limit` completions of `prefix` (case-sensitive; Kubernetes names are lower
    /// case): node names first, then pods by "namespace/name", then pods by name alone, each
    /// in name order, without duplicates. O(log(N + P) + limit).
    [[nodiscard]] std::vector<Match> complete(std::string_view prefix, std::size_t limit) const;
    /// What `text` names: a node of that exact name, else a pod "namespace/name", else a pod
    /// of that name alone (the first in namespace order), else the first completion; a Match
    /// with invalid ids when nothing starts with it.
    [[nodiscard]] Match find(std::string_view text) const;
    /// Up to `limit` names that contain `text` anywhere (case-sensitive) but do not start with
    /// it (complete() gives those): node names first, then pods by "namespace/name", each in
    /// name order. A scan of every name, O(N + P) (tens of milliseconds at 1.7M pods): run it on
    /// a worker. `cancelled`, when given, is polled every 4,096 names; a scan it stops returns
    /// what it found so far.
    [[nodiscard]] std::vector<Match> containing(std::string_view text, std::size_t limit, const std::atomic<bool>* cancelled = nullptr) const;
    [[nodiscard]] const std::shared_ptr<const ClusterStore>& store() const noexcept { return m_store; }

private:
    [[nodiscard]] int comparePodKey(PodId p, std::string_view prefix) const noexcept;
    [[nodiscard]] Match nodeMatch(NodeId n) const;
    [[nodiscard]] Match podMatch(PodId p) const;

    std::shared_ptr<const ClusterStore> m_store;
    std::vector<NodeId> m_nodes; // by name
    std::vector<PodId> m_pods; // by namespace/name
    std::vector<PodId> m_podsByName; // by name, then namespace/name order
};

} // namespace fleet::model
