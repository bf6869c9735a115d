// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Kubernetes WATCH of a live cluster: after the first LIST (kube/kubelist.h), the
// nodes and pods are watched from the list's resourceVersions and every change reaches the
// window as model::ClusterChangeBatch, through the same path as the simulated feed.
//
// Rules (https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes,
// and client-go's reflector, tools/cache/reflector.go):
// - GET /api/v1/{nodes,pods}?watch=1&allowWatchBookmarks=true&resourceVersion=RV&timeoutSeconds=T;
//   each event moves RV on; a BOOKMARK only moves RV;
// - a watch the server ends (its timeout, or a closed stream) resumes at once from the last RV
//   seen, so nothing is lost or doubled;
// - 410 Gone, as the watch's HTTP status or as an ERROR event (the RV was compacted), relists:
//   a full LIST of nodes and pods into a batch with replacesAll, so what vanished meanwhile is
//   deleted; then both watches start again from the new list's resourceVersions;
// - 429 waits for Retry-After (1 s when absent, at most 30); a connection failure, a stream idle
//   past `idle`, or a malformed event reconnects after an exponential backoff with jitter (from
//   0.5 s, doubling, at most 30 s), counted in LiveFeedStatus::retries;
// - 401 and 403 end the feed (state Failed) with the server's message.
// Events are merged by object (namespace/name): a batch holds each object's last state, or its
// deletion, and is flushed every `batchInterval`. Upserted objects are decoded by the kubectl
// JSON importer (the same rules as files) into the batch's staging store; an object the importer
// refuses is left out and named in LiveFeedStatus::lastError.
// - a partial view: when the cluster-wide pods WATCH is refused (403: a user allowed some
//   namespaces only), the feed relists once, which lists pods namespace by namespace
//   (kube/kubelist.h), then watches /api/v1/namespaces/NS/pods of each namespace listed, each
//   from its own list's resourceVersion, on a thread and client of its own; LiveFeedStatus::
//   partialView says what is seen. A relist (410 on any watch) lists again and follows what it
//   finds (the cluster-wide watch again when the cluster-wide list is allowed). A cluster-wide
//   list that works while its watch is refused fails the feed with the server's message.
//   The view follows the namespaces through a WATCH of /api/v1/namespaces from the list's
//   resourceVersion (client-go's informers do the same per namespace): a namespace created later
//   gets its pods listed (one batch) and then watched from that list's resourceVersion, or is
//   named as not listed when refused; a namespace deleted, or whose pods' watch becomes refused
//   (403), leaves the view: its watch stops and one batch deletes the pods of it the window holds
//   (the feed keeps each watched namespace's pod names). A refused namespaces watch only says,
//   in partialView, that namespaces created later are not seen.
// Not yet: PDBs, PersistentVolumes and namespaces are listed once, not watched (in a whole view).
//
// Threads: the feed's own thread merges, decodes and hands batches to the sink; each watch (nodes,
// pods, or the pods of each namespace of a partial view) runs on a thread of its own with its own
// KubeApiClient (one Asio io_context each, since the client blocks). stop() interrupts every
// stream and joins every thread.

#include "importers/kube/kubeconfig.h"
#include "importers/kube/kubelist.h"
#include "importers/live/livefeed.h"

#include <chrono>
#include <memory>
#include <string>

namespace fleet::importers::live {

struct KubeWatchOptions {
    std::chrono::milliseconds batchInterval = kDefaultBatchInterval;
    int timeoutSeconds = 300;                ///< timeoutSeconds= of each WATCH request
    std::chrono::seconds idle { 330 };       ///< longest silence on a stream before it is reconnected
    double backoffStartSeconds = 0.5;        ///< first wait after a failure (then doubled, with jitter 0.5x to 1.5x)
    double backoffMaxSeconds = 30;
    kube::LiveListOptions list;              ///< for relists
};

/// A feed that watches `config`'s cluster from the given list resourceVersions. With either
/// resourceVersion empty it lists first (a relist batch with replacesAll). Throws
/// kube::KubeApiError for a configuration the client cannot use (see KubeApiClient).
[[nodiscard]] std::unique_ptr<LiveFeed> makeKubeWatchFeed(const kube::ResolvedKubeconfig& config, std::string nodesResourceVersion,
    std::string podsResourceVersion, KubeWatchOptions options = {});

} // namespace fleet::importers::live
