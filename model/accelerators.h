// SPDX-License-Identifier: Apache-2.0
#pragma once
// Physical accelerators of a cluster, counted once each however they are offered: a GPU
// offered whole (nvidia.com/gpu, amd.com/gpu, the trace's GPUs) or cut into MIG slices
// (nvidia.com/mig-<profile>, MIG "mixed" strategy) is one GPU; an AWS Neuron device (a
// Trainium or Inferentia chip, aws.amazon.com/neuron or .../neurondevice) is one device
// whatever its NeuronCores (aws.amazon.com/neuroncore). The status bar and `summary` show
// these, with MIG slices and NeuronCores beside them.
// Sources: NVIDIA GPU Operator, "MIG support in Kubernetes" (mixed strategy resource names);
// AWS Neuron device plugin (resource names).

#include "clusterstore.h"

#include <cstdint>

namespace fleet::model {

/// Allocatable and requested accelerators over the whole cluster. Units: whole devices,
/// except gpu*Milli (milli-GPU, as the store's Gpu resource).
struct AcceleratorTotals {
    /// GPUs offered whole: the store's Gpu resource (requested may be shared, milli-GPU).
    std::int64_t wholeGpuAllocatableMilli = 0;
    std::int64_t wholeGpuRequestedMilli = 0;
    /// Physical GPUs behind MIG slices: per node, nodeGpuCount() (nvidia.com/gpu.count or the
    /// GPU capacity it reported) on nodes that offer MIG slices and no whole GPUs.
    std::int64_t migPartitionedGpus = 0;
    /// Of those, the GPUs that hold requested slices, at least: per node, the requested
    /// slices packed onto the fewest GPUs (ceil(requested x GPUs / allocatable slices)); a
    /// pod does not say which GPU its slice is on.
    std::int64_t migPartitionedGpusRequested = 0;
    /// MIG slices of every profile, allocatable and requested.
    std::int64_t migSlicesAllocatable = 0;
    std::int64_t migSlicesRequested = 0;
    /// Neuron devices and NeuronCores, allocatable and requested.
    std::int64_t neuronDevicesAllocatable = 0;
    std::int64_t neuronDevicesRequested = 0;
    std::int64_t neuronCoresAllocatable = 0;
    std::int64_t neuronCoresRequested = 0;

    /// Physical GPUs: whole ones plus MIG-partitioned ones (each once), in milli-GPU.
    [[nodiscard]] std::int64_t physicalGpusMilli() const noexcept { return wholeGpuAllocatableMilli + migPartitionedGpus * 1000; }
    /// Requested GPUs counted the same way: whole GPUs requested plus MIG-partitioned GPUs
    /// holding requested slices, in milli-GPU.
    [[nodiscard]] std::int64_t physicalGpusRequestedMilli() const noexcept
    {
        return wholeGpuRequestedMilli + migPartitionedGpusRequested * 1000;
    }
};

/// True for a MIG slice resource name ("nvidia.com/mig-1g.10gb"). Thread: any.
[[nodiscard]] bool isMigResourceName(std::string_view name) noexcept;
/// True for a Neuron device resource name ("aws.amazon.com/neuron", "aws.amazon.com/neurondevice").
[[nodiscard]] bool isNeuronDeviceResourceName(std::string_view name) noexcept;
/// True for "aws.amazon.com/neuroncore".
[[nodiscard]] bool isNeuronCoreResourceName(std::string_view name) noexcept;

/// The totals of a finalized store. O(nodes x extended resources per node). Thread: any
/// reader of the store.
[[nodiscard]] AcceleratorTotals acceleratorTotals(const ClusterStore& store);

} // namespace fleet::model
