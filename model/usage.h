// SPDX-License-Identifier: Apache-2.0
#pragma once
// Usage: what nodes and pods use, beside what they request ("Usage and idle GPUs").
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
#include <string_view>
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
    /// device and peak; the device counts once in idleAllocatedGpus ("a shared GPU is
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

/// The compute slices of a MIG profile, its weight in its device's utilization: "3g.40gb" ->
/// 3, "1g.10gb+me" -> 1; 1 for anything else (no profile: a whole GPU). Source: NVIDIA's MIG
/// user guide (profile names "<compute slices>g.<memory>gb"). Thread: any.
[[nodiscard]] double migComputeSlices(std::string_view profile) noexcept;

/// One GPU device as a usage source measured it: a whole GPU (one instance), its MIG
/// instances, or the pods time-slicing it (one instance each).
struct GpuDeviceSamples {
    std::int32_t device = -1; ///< the device index the source names, -1 unknown
    double weightedNow = 0;   ///< over instances with a figure at the usage's time: utilization x weight
    double weight = 0;        ///< the sum of those instances' weights
    double peak = 0;          ///< the highest sample of any instance over the window, 0..1
    std::vector<PodId> pods;  ///< pods holding an instance for the whole window (sorted, unique)
    /// One instance: `now` its utilization (0..1) at the usage's time (NaN: no recent sample),
    /// `weight` its compute slices (migComputeSlices(); 1 for a whole GPU or a time-slice),
    /// `peak` its highest sample over the window (0..1), `pod` the pod holding it for the whole
    /// window (invalid: free, or held for less).
    void addInstance(double now, double weight, double peak, PodId pod);
};

/// The one rule that turns GPU devices into a node's GPU figures and the allocated-but-idle
/// GPUs, for every usage source (importers/prometheus/usagequery.h, importers/simulated/
/// simulatedusage.h):
///  - a device with a figure now (weight > 0) is measured; its utilization is the weighted
///    mean of its instances' (MIG: by compute slices), and the node's is the mean over its
///    measured devices;
///  - a device is allocated when a pod held one of its instances for the whole window;
///  - an allocated device is idle when the peak of every instance over the window stayed below
///    ClusterUsage::idleThreshold: "a shared GPU is idle when its whole device is";
///    it then counts once in idleAllocatedGpus, with an IdleGpu for each pod holding it
///    (IdleGpu::sharedBy = the pods).
/// Thread: the thread that builds the usage.
class GpuUsageBuilder {
public:
    /// Fills `usage` (sized for the store, its threshold set); it must outlive the builder.
    explicit GpuUsageBuilder(ClusterUsage& usage);
    /// Adds device `d` of node `n`.
    void addDevice(NodeId n, const GpuDeviceSamples& d);
    /// Devices measured on node `n` so far.
    [[nodiscard]] std::int32_t measured(NodeId n) const noexcept { return m_usage.gpusMeasured[n.index()]; }
    /// Node `n`'s accelerators measured another way (NeuronCores: `count` of them whose
    /// utilizations sum to `sum`), in place of devices; no allocated-but-idle figure.
    void setMeasured(NodeId n, double sum, std::int32_t count);
    /// Sets each node's mean utilization and sorts idleGpus by node, device, pod. Call once, last.
    void finish();

private:
    ClusterUsage& m_usage;
    std::vector<double> m_sum; // per node: the sum of its measured devices' utilizations
};

} // namespace fleet::model
