// SPDX-License-Identifier: Apache-2.0
#pragma once
// Usage from the Kubernetes resource metrics API: metrics.k8s.io/v1beta1 as served by
// metrics-server, GET /apis/metrics.k8s.io/v1beta1/nodes: per node, the cpu and memory in use
// (NodeMetrics.usage, Quantities; cpu usually in nanocores "123456789n", memory in "Ki") over
// its `window`. Source: https://kubernetes.io/docs/reference/external-api/metrics-v1beta1/ and
// https://github.com/kubernetes-sigs/metrics-server (documented to about 5,000 nodes: at fleet
// scale Prometheus is the primary source, importers/prometheus/usagequery.h).
// GPU figures do not come from this API; they stay unknown.
//
// Thread: the client's (it blocks).

#include "importers/importreport.h"
#include "model/clusterstore.h"
#include "model/usage.h"

#include <optional>
#include <string_view>

namespace fleet::importers::kube {

class KubeApiClient;

/// Reads node usage for `store`'s nodes. Returns nothing when the cluster does not serve the API
/// (404: metrics-server is not installed; many clusters have none, so no warning), and nothing
/// with a warning when it is not ready (503) or refuses it (403); a node the answer names that is not in the store is counted in one warning; a node
/// it does not name stays unknown. Throws ImportError (the request as file, JSON path, what) for
/// an answer that is not a NodeMetricsList or holds an invalid quantity, KubeApiError for a
/// failed request.
[[nodiscard]] std::optional<model::ClusterUsage> queryMetricsServer(KubeApiClient& client, const model::ClusterStore& store,
                                                                    ImportReport& report);

/// Parses a NodeMetricsList answer (`body`) into usage for `store`; `source` names it in errors.
/// The part of queryMetricsServer() after the request (fuzzed and tested alone).
[[nodiscard]] model::ClusterUsage parseNodeMetrics(std::string_view body, const std::string& source, const model::ClusterStore& store,
                                                   ImportReport& report);

} // namespace fleet::importers::kube
