// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a node's accelerators are read from the store's columns: whole NVIDIA GPUs, MIG
// slices, AWS Neuron devices. The share rules of the "gpu" metric, the unallocated-GPU
// count and the tooltip's accelerator lines all read these functions, so they agree.
// Pure C++ over the model. Thread: every function is safe from any thread while no thread
// mutates the store.

#include "model/clusterstore.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace fleet::model {

class PlanLedger;

/// Keys of the extended resources the accelerator rules need, looked up once per store.
struct MetricKeys {
    int neuron = -1; // registry key of aws.amazon.com/neuron (devices), or -1 when absent
    int neuronCore = -1; // registry key of aws.amazon.com/neuroncore, or -1 when absent
    /// By registry key: 1 for the nvidia.com/mig-* resources, 0 otherwise (empty when the
    /// store has none).
    std::vector<std::uint8_t> mig;
    [[nodiscard]] bool isMig(ResourceKey key) const noexcept { return key < mig.size() && mig[key] != 0; }
    /// O(registered resources). Throws std::bad_alloc only.
    [[nodiscard]] static MetricKeys find(const ClusterStore& store);
};

/// Sums of node n's MIG slices over all nvidia.com/mig-* resources (each slice counts one).
struct MigSlices {
    std::int64_t requested = 0;
    std::int64_t allocatable = 0;
};
/// Node n's MIG slices: requested and allocatable summed over the nvidia.com/mig-* resources
/// it has allocatable > 0 of (counts of slices, whatever their profile); zeros when none.
[[nodiscard]] MigSlices nodeMigSlices(const ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept;

/// Allocatable amount of extended resource `key` (whole units) on node n; 0 when absent or key < 0.
[[nodiscard]] std::int64_t nodeExtendedAllocatableOf(const ClusterStore& store, NodeId n, int key) noexcept;

/// Which accelerator the "gpu" metric reads on a node, the first that applies:
/// Gpu (nvidia.com/gpu allocatable > 0), Mig (some nvidia.com/mig-* allocatable > 0),
/// Neuron (aws.amazon.com/neuron allocatable > 0), else None.
enum class AcceleratorKind : std::uint8_t { None, Gpu, Mig, Neuron };
/// The AcceleratorKind of node n. One pass over its extended resources. Thread: any.
[[nodiscard]] AcceleratorKind nodeAcceleratorKind(const ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept;

/// True when some node has GPUs, MIG slices or Neuron devices allocatable. O(nodes).
[[nodiscard]] bool fleetHasAccelerators(const ClusterStore& store, const MetricKeys& keys) noexcept;

/// The accelerator share of node n: requested / allocatable of its AcceleratorKind
/// (milli-GPU; slices summed over every nvidia.com/mig-* resource, each slice one, source:
/// NVIDIA GPU Operator docs, "GPU Operator with MIG", mixed strategy; Neuron devices).
/// In [0, inf) (over-commitment exceeds 1); NaN for AcceleratorKind::None.
[[nodiscard]] double nodeAcceleratorShare(const ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept;

/// Requested / allocatable of core resource r on node n, in [0, inf); NaN when allocatable is 0.
[[nodiscard]] double nodeCoreShare(const ClusterStore& store, NodeId n, CoreResource r) noexcept;

/// Node n's physical accelerators, counted as the hardware has them.
struct NodeAccelerators {
    AcceleratorKind kind = AcceleratorKind::None;
    /// Physical devices: whole NVIDIA GPUs (allocatable milli-GPU / 1000), a MIG-partitioned
    /// GPU once (the node's GPU count column, e.g. nvidia.com/gpu.count; when 0, the slice
    /// count), a Neuron device (Trainium / Inferentia chip) once.
    std::int64_t devices = 0;
    /// Physical devices with nothing requested on them (see nodeUnallocatedAccelerators()).
    std::int64_t unallocatedDevices = 0;
    /// MIG slices allocatable / requested (Mig only).
    MigSlices migSlices;
    /// aws.amazon.com/neuroncore allocatable / requested (Neuron only; 0 when absent).
    std::int64_t neuronCores = 0;
    std::int64_t neuronCoresRequested = 0;
    /// Requested devices (whole GPUs as milli / 1000.0, Neuron devices); for Mig, the
    /// requested slices over slices per GPU.
    double requestedDevices = 0;
};
/// Node n's accelerators. Unallocated devices: Gpu floor((allocatable - requested milli-GPU)
/// / 1000) (whole GPUs free; a GPU shared by fractional requests is not free); Mig
/// floor(free slices / (allocatable slices / devices)) (the store does not say which GPU a
/// slice is on, so this assumes requested slices are packed onto as few GPUs as possible);
/// Neuron allocatable - requested devices. Never negative. Thread: any.
[[nodiscard]] NodeAccelerators nodeAccelerators(const ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept;
/// The same under a plan: the requests are `plan`'s (PlanLedger over `store`; a
/// node the plan drained or failed has none), the devices the store's. `plan` null: the loaded
/// state. Store nodes only (n < store.nodeCount()). Thread: any reader of both.
[[nodiscard]] NodeAccelerators nodeAccelerators(const ClusterStore& store, NodeId n, const MetricKeys& keys, const PlanLedger* plan) noexcept;

} // namespace fleet::model
