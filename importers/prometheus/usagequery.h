// SPDX-License-Identifier: Apache-2.0
#pragma once
// Usage of a loaded cluster from Prometheus ("Usage and idle GPUs"): cpu and memory
// from cAdvisor, GPU utilization from NVIDIA's dcgm-exporter, and the allocated-but-idle GPUs,
// into a model::ClusterUsage for the store.
//
// Sources of the rules:
//  - cAdvisor (kubelet /metrics/cadvisor): container_cpu_usage_seconds_total (a counter: its
//    rate over 5 m is cores) and container_memory_working_set_bytes; rows with container=""
//    are the pod's cgroup (a sum of its containers) and are left out, else every pod would
//    count twice.
//  - dcgm-exporter (github.com/NVIDIA/dcgm-exporter, default-counters.csv):
//    DCGM_FI_PROF_GR_ENGINE_ACTIVE, a 0-1 ratio, one series per GPU or per MIG instance
//    (GPU_I_ID); when it has no series, DCGM_FI_DEV_GPU_UTIL, 0-100, per GPU (none for MIG).
//    The node is the series' `Hostname` (the exporter pod's name unless the exporter sets it
//    to the node's: configurable); the pod holding the device is exported_namespace /
//    exported_pod, or namespace / pod, whichever the scrape produced (honorLabels).
//    MIG: the device is (node, `gpu`); its instances (GPU_I_ID) are weighted by the slices of
//    their profile (GPU_I_PROFILE "3g.40gb": 3; 1 when absent) in the device's utilization.
//  - AWS Neuron (neuron-monitor-prometheus.py of the Neuron SDK): neuroncore_utilization_ratio,
//    0-1, one series per NeuronCore (`neuroncore`), joined to nodes by a label the scrape adds
//    (default `node`; the exporter itself labels only the EC2 instance). It has no pod label, so
//    Neuron nodes get a utilization but no allocated-but-idle figure (unknown, never 0). Read for
//    nodes no dcgm-exporter series names.
//  - Idle: a device a pod holds whose utilization stayed below the threshold at every sample of
//    the window (range query, one sample a step) and whose samples cover the whole window (so
//    the pod has run at least that long: the store has no pod start times). A shared device
//    (MIG instances, or time-slicing: several series of one `gpu`) is idle only when every
//    series of it is; it then counts as one idle GPU, with an entry for each pod holding it
//    for the whole window (model::IdleGpu::sharedBy).
//
// Thread: blocking (never on the GUI thread).

#include "importers/prometheus/prometheusclient.h"
#include "model/clusterstore.h"
#include "model/usage.h"

#include <memory>
#include <string>
#include <vector>

namespace fleet::importers::prometheus {

/// Prometheus answers a range query with at most this many points per series (its HTTP API
/// refuses more: "exceeded maximum resolution of 11,000 points per timeseries").
inline constexpr double kMaxRangePoints = 11000;
/// The longest idle window or step accepted, in seconds (365 days).
inline constexpr double kMaxUsageWindowSeconds = 365.0 * 86400;

/// The PromQL of each figure and the idle rule's parameters (defaults as above). The window
/// and step are seconds, finite, 0 < step <= window <= kMaxUsageWindowSeconds and
/// window / step < kMaxRangePoints; queryClusterUsage() throws PrometheusError otherwise.
struct UsageQueries {
    std::string cpu = R"(sum by (node) (rate(container_cpu_usage_seconds_total{container!=""}[5m])))";
    std::string memory = R"(sum by (node) (container_memory_working_set_bytes{container!=""}))";
    std::string cadvisorNodeLabel = "node";
    std::string gpuRatio = "DCGM_FI_PROF_GR_ENGINE_ACTIVE";
    std::string gpuPercent = "DCGM_FI_DEV_GPU_UTIL";
    std::string gpuNodeLabel = "Hostname";
    std::string neuron = "neuroncore_utilization_ratio"; ///< empty: Neuron not read
    std::string neuronNodeLabel = "node";
    double windowSeconds = 3600;
    double idleThreshold = 0.05;
    double stepSeconds = 60;
};

/// What the usage queries answered, before it is joined to a store: fetched on a worker, joined
/// where the store may be read (the window: on the GUI thread, between live batches).
struct UsageSeries {
    PromResult cpu, memory;  ///< instant vectors of UsageQueries::cpu and ::memory
    PromResult gpu;          ///< range matrix over the window of gpuQuery
    std::string gpuQuery;    ///< UsageQueries::gpuRatio, or ::gpuPercent when the ratio had no series
    double gpuScale = 1.0;   ///< to a 0..1 ratio: 1 for the ratio, 0.01 for the percentage
    PromResult neuron;       ///< instant vector of UsageQueries::neuron (empty when off)
    double time = 0;         ///< the evaluation time, seconds since the epoch
    std::string source;      ///< "Prometheus BASEURL"
};

/// The queries of `q` at `time`, nothing joined. Throws PrometheusError when a query fails.
/// Thread: blocking.
[[nodiscard]] UsageSeries fetchUsageSeries(PrometheusClient& client, const UsageQueries& q, double time);

/// Joins `series` to `store`'s nodes and pods by name (the rules above). Series naming a node
/// or pod the store lacks are counted in `warnings`, never guessed. Thread: any; pure.
[[nodiscard]] model::ClusterUsage joinUsageSeries(const UsageSeries& series, const model::ClusterStore& store, const UsageQueries& q,
    std::vector<std::string>* warnings = nullptr);

/// fetchUsageSeries() and joinUsageSeries(): queries `client` at `time` (seconds since the
/// epoch) and fills usage for `store`'s nodes and pods. Series naming a node or pod the store lacks are counted in `warnings`
/// ("12 dcgm-exporter series name nodes that are not in the cluster, e.g. \"ip-...\""), never
/// guessed. Throws PrometheusError when a query fails (the server's message) or when the
/// window and step break UsageQueries' bounds (before any query is sent).
[[nodiscard]] model::ClusterUsage queryClusterUsage(PrometheusClient& client, const model::ClusterStore& store,
    const UsageQueries& queries, double time, std::vector<std::string>* warnings = nullptr);

/// Where a loaded cluster's usage comes from, and when.
struct UsageSource {
    PrometheusSettings server;
    UsageQueries queries;
    double time = 0; ///< seconds since the epoch; 0: the current time
};

/// fetchUsageSeries() from `source`'s server at its time (0: now). Throws PrometheusError (a
/// base URL refused, no answer, a query refused). Thread: blocking.
[[nodiscard]] UsageSeries fetchUsageSeries(const UsageSource& source);

/// queryClusterUsage() for a loaded cluster, whose import must not fail for want of usage: a
/// Prometheus that cannot be reached or refuses a query gives null and one warning in
/// `report` ("usage: http://...: /api/v1/query: ...; the usage metrics have no data");
/// unmatched series are warnings too. Thread: blocking.
[[nodiscard]] std::shared_ptr<const model::ClusterUsage> loadClusterUsage(
    const UsageSource& source, const model::ClusterStore& store, ImportReport& report);

} // namespace fleet::importers::prometheus
