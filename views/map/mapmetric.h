#pragma once
// The metric the fleet map colours nodes by, and how a node's share and state are read
// from the store's columns. Pure C++ over the model (no Qt, no VTK): the rasteriser,
// the tooltip and the tests share these functions, so they agree by construction.

#include "model/clusterstore.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace fleet::views {

/// What the colour of a node's cell shows.
enum class MapMetric {
    /// The accelerator share of a node, the first rule that applies:
    /// 1. nvidia.com/gpu allocatable > 0: requested / allocatable milli-GPU;
    /// 2. else MIG slices (the NVIDIA device plugin's mixed strategy advertises a MIG-partitioned
    ///    GPU as nvidia.com/mig-<profile> resources and nvidia.com/gpu 0): the requested slices
    ///    summed over all nvidia.com/mig-* resources / the allocatable slices summed over
    ///    them, every slice counted as one whatever its profile (source: NVIDIA GPU Operator
    ///    docs, "GPU Operator with MIG", mixed strategy; the views brief);
    /// 3. else aws.amazon.com/neuron allocatable > 0: requested / allocatable Neuron devices;
    /// 4. else the CPU share.
    /// A node with both whole GPUs and MIG slices is read by rule 1 (its slices are not shown).
    GpuRequested,
    /// Requested / allocatable CPU millicores.
    CpuRequested,
    /// Requested / allocatable memory bytes.
    MemoryRequested
};

/// Name of a metric as shown in the legend ("GPU requested", ...).
[[nodiscard]] std::string_view mapMetricLabel(MapMetric metric) noexcept;

/// The legend's title for `metric` on a fleet: mapMetricLabel(), except GpuRequested on a
/// fleet where no node has GPUs, MIG slices or Neuron devices (fleetHasAccelerators()
/// false), which shows the CPU share everywhere: "CPU requested (no GPU nodes)".
[[nodiscard]] std::string_view mapMetricTitle(MapMetric metric, bool fleetHasAccelerators) noexcept;

/// Marks that override the share colour of a node's cell.
/// NotReady: the Ready condition is False or Unknown (kubectl shows both as NotReady).
/// Cordoned: Ready but spec.unschedulable. NotReady wins when both hold.
enum class NodeMark : std::uint8_t { None, NotReady, Cordoned };
/// The mark of node n, read from the readiness and unschedulable columns. Thread: any.
[[nodiscard]] NodeMark nodeMark(const model::ClusterStore& store, model::NodeId n) noexcept;

/// Keys of the extended resources the metric needs, looked up once per store.
struct MetricKeys {
    int neuron = -1; // registry key of aws.amazon.com/neuron, or -1 when absent
    /// By registry key: 1 for the nvidia.com/mig-* resources, 0 otherwise (empty when the
    /// store has none).
    std::vector<std::uint8_t> mig;
    [[nodiscard]] bool isMig(model::ResourceKey key) const noexcept { return key < mig.size() && mig[key] != 0; }
    /// O(registered resources). Throws std::bad_alloc only.
    [[nodiscard]] static MetricKeys find(const model::ClusterStore& store);
};

/// Sums of node n's MIG slices over all nvidia.com/mig-* resources (each slice counts one).
struct MigSlices {
    std::int64_t requested = 0;
    std::int64_t allocatable = 0;
};
/// Node n's MIG slices: requested and allocatable summed over the nvidia.com/mig-* resources
/// it has allocatable > 0 of (counts of slices, whatever their profile); zeros when none.
/// O(extended resources of n) squared at worst. Thread: any.
[[nodiscard]] MigSlices nodeMigSlices(const model::ClusterStore& store, model::NodeId n, const MetricKeys& keys) noexcept;

/// True when some node of `store` has GPUs, MIG slices or Neuron devices allocatable
/// (so GpuRequested shows an accelerator share somewhere). O(nodes).
[[nodiscard]] bool fleetHasAccelerators(const model::ClusterStore& store, const MetricKeys& keys) noexcept;

/// The share of node n that `metric` shows: requested / allocatable, in [0, inf)
/// (over-commitment can exceed 1; colour clamps). NaN when the node has no allocatable
/// amount of the resource shown (no data). O(number of extended resources of n).
/// Source of the rule: DESIGN.md "Views" and the views brief (GPU, else MIG slices, else
/// Neuron, else CPU; see MapMetric::GpuRequested).
[[nodiscard]] double nodeShare(
    const model::ClusterStore& store, model::NodeId n, MapMetric metric, const MetricKeys& keys) noexcept;

/// Which resource nodeShare() read for node n under `metric` ("GPU", "MIG slices",
/// "aws.amazon.com/neuron", "CPU", "memory"), for the tooltip.
[[nodiscard]] std::string_view nodeShareResource(
    const model::ClusterStore& store, model::NodeId n, MapMetric metric, const MetricKeys& keys) noexcept;

} // namespace fleet::views
