// SPDX-License-Identifier: Apache-2.0
#pragma once
// One LIST of a live cluster: nodes and pods, and the PersistentVolumes,
// PodDisruptionBudgets and Namespaces the what-if reads, page by page, into a store, through
// the same kubectl JSON importer as files (each page is a NodeList/PodList document).
//
// Rules (the API's "Retrieving large results sets in chunks", and client-go's pager):
// - each resource is listed with limit=N (500 by default, as kubectl does) and followed with
//   continue= until a page comes without one;
// - 410 Gone on a continue (the token expired) restarts the whole list into a new store, at most
//   3 times; the report says so;
// - 429 Too Many Requests is retried after Retry-After seconds (1 when absent, at most 30);
// - a connection failure is retried with exponential backoff and jitter (0.5 s doubling, 5
//   attempts);
// - 401 and 403 on nodes or pods are errors with the server's message; on the optional lists
//   (PersistentVolumes, PodDisruptionBudgets, Namespaces) 403 and 404 are warnings naming what
//   the what-if then lacks.
// - a user refused the cluster-wide pod list (403) gets the pods of every namespace they may list
//   (/api/v1/namespaces/NS/pods), and a "partial view" warning naming the namespaces left out.
// The WATCH that follows a LIST is importers/live/kubewatchfeed.h.
//
// Thread: any one thread (it blocks); the store is that thread's until it returns. Inside, a page
// whose list head (kind, apiVersion, metadata, written before items) names the next page's
// continue token is imported on a second thread the call owns while the next page is fetched;
// `progress` is only called on the caller's thread (cancel is checked between pages).

#include "importers/importreport.h"
#include "model/clusterstore.h"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fleet::importers::kube {

class KubeApiClient;

struct LiveListOptions {
    std::size_t pageLimit = 500; ///< limit= of each page
    int maxRestarts = 3;         ///< relists after 410 Gone
    int maxAttempts = 5;         ///< per request, for connection failures and 429
};

/// What one LIST saw.
struct LiveListResult {
    std::string resourceVersion;      ///< the pod list's resourceVersion (where the pods' WATCH starts)
    std::string nodesResourceVersion; ///< the node list's resourceVersion (where the nodes' WATCH starts)
    std::size_t pages = 0;       ///< requests that returned a page
    std::size_t restarts = 0;    ///< relists after 410 Gone
    bool partialView = false;    ///< pods were listed namespace by namespace, and some were refused
    /// Pods listed namespace by namespace (the cluster-wide list was refused): each namespace
    /// whose pods were listed, with its list's resourceVersion (where that namespace's WATCH
    /// starts), in the order listed. Empty when the pods were listed cluster-wide.
    std::vector<std::pair<std::string, std::string>> podNamespaces;
    /// With podNamespaces: the namespaces whose pods could not be listed (the partial view's rest).
    std::vector<std::string> podNamespacesRefused;
    /// With podNamespaces: the resourceVersion of the namespace list that named them (where a
    /// watch of /api/v1/namespaces starts, to follow namespaces created or deleted later).
    std::string namespacesResourceVersion;
};

/// Lists the cluster into `store` (not finalized). Throws KubeApiError for a failure it does not
/// retry, ImportError for a page the importer refuses (named "SERVER/api/v1/pods page 3"),
/// ImportCancelled when `progress` asks. After a restart `store` is replaced by a new one.
LiveListResult listCluster(KubeApiClient& client, model::ClusterStore& store, ImportReport& report, ImportProgress* progress = nullptr,
                           const LiveListOptions& options = {});

/// Lists the pods of one namespace (/api/v1/namespaces/NS/pods, paged and retried as above; an
/// expired continue restarts that namespace's list into a new `store`) into `store`: a partial
/// view's namespace created after the LIST. Returns the list's resourceVersion (where that
/// namespace's WATCH starts), or nullopt when the server refuses (403) or does not know (404)
/// the namespace. Throws as listCluster(). Thread: any one thread (it blocks).
std::optional<std::string> listNamespacePods(KubeApiClient& client, const std::string& namespaceName, model::ClusterStore& store,
                                             ImportReport& report, ImportProgress* progress = nullptr, const LiveListOptions& options = {});

} // namespace fleet::importers::kube
