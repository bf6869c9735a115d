#pragma once
// Usage: what nodes and pods use, beside what they request (issue 8, "Usage and idle GPUs").
// Filled by a usage source (importers/prometheus/usagequery.h from Prometheus; the simulated
// cluster's own) for one store, read by the usage metrics (model/metrics/usagemetrics.h).
// Where a source has no figure the value is unknown (NaN, or -1 for counts): never idle, never
// guessed.
//
// Thread: built on one thread, then read-only from any.

#include "model/ids.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace fleet::model {

/// One device a pod holds whose utilization stayed below the threshold at every sample of
/// the window: an allocated but idle GPU.
struct IdleGpu {
    NodeId node;
    PodId pod;                 ///< the pod holding it
    std::int32_t device = -1;  ///< the device index the source names (dcgm-exporter's `gpu`), -1 unknown
    double peakUtilization = 0; ///< the highest sample of the window over the whole device, 0..1
    /// Pods holding this device (MIG instances, time-slicing): each has an entry, the same
    /// device and peak; the device counts once in idleAllocatedGpus (issue 8: "a shared GPU is
    /// idle when its whole device is").
    std::int32_t sharedBy = 1;
};

class ClusterUsage {
public:
    static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

    /// Usage for a store of `nodes` nodes, everything unknown.
    explicit ClusterUsage(std::size_t nodes = 0)
        : cpuUsedMilli(nodes, kUnknown)
        , memoryUsedBytes(nodes, kUnknown)
        , gpuUtilization(nodes, kUnknown)
        , gpusMeasured(nodes, 0)
        , idleAllocatedGpus(nodes, -1)
    {
    }

    /// Per node (index = NodeId): cpu in use, millicores; memory in use (working set), bytes;
    /// the mean utilization of its measured GPUs, 0..1. NaN where unknown.
    std::vector<double> cpuUsedMilli, memoryUsedBytes, gpuUtilization;
    /// Per node: GPUs with a utilization figure.
    std::vector<std::int32_t> gpusMeasured;
    /// Per node: allocated GPUs idle for the whole window; -1 where the node's GPUs have no
    /// figures (unknown, not zero).
    std::vector<std::int32_t> idleAllocatedGpus;
    /// Every idle allocated GPU, by node then device (a shared one once per pod holding it).
    std::vector<IdleGpu> idleGpus;
    /// Allocated GPUs whose utilization the source gave for the whole window (the
    /// denominator of "N of M allocated GPUs idle").
    std::int64_t allocatedGpusMeasured = 0;

    /// The rule's parameters and the source, for the legend and reports.
    double windowSeconds = 3600;
    double idleThreshold = 0.05; ///< utilization below this at every sample is idle
    double time = 0;             ///< seconds since the epoch the figures are for
    std::string source;          ///< "Prometheus http://...", "simulated"

    [[nodiscard]] std::size_t nodeCount() const noexcept { return cpuUsedMilli.size(); }
    /// Sum of idleAllocatedGpus over nodes where known.
    [[nodiscard]] std::int64_t idleAllocatedGpuTotal() const noexcept
    {
        std::int64_t total = 0;
        for (const std::int32_t v : idleAllocatedGpus)
            total += v > 0 ? v : 0;
        return total;
    }
};

} // namespace fleet::model
