#pragma once
// The metric the fleet map colours nodes by, and how a node's share and state are read
// from the store's columns. Pure C++ over the model (no Qt, no VTK): the rasteriser,
// the tooltip and the tests share these functions, so they agree by construction.

#include "model/clusterstore.h"

#include <cstdint>
#include <string_view>

namespace fleet::views {

/// What the colour of a node's cell shows.
enum class MapMetric {
    /// Requested share of GPU (requested / allocatable milli-GPU) where the node has GPUs;
    /// else the aws.amazon.com/neuron share where it has Neuron devices; else the CPU share.
    GpuRequested,
    /// Requested / allocatable CPU millicores.
    CpuRequested,
    /// Requested / allocatable memory bytes.
    MemoryRequested
};

/// Name of a metric as shown in the legend ("GPU requested", ...).
[[nodiscard]] std::string_view mapMetricLabel(MapMetric metric) noexcept;

/// Marks that override the share colour of a node's cell.
/// NotReady: the Ready condition is False or Unknown (kubectl shows both as NotReady).
/// Cordoned: Ready but spec.unschedulable. NotReady wins when both hold.
enum class NodeMark : std::uint8_t { None, NotReady, Cordoned };
[[nodiscard]] NodeMark nodeMark(const model::ClusterStore& store, model::NodeId n) noexcept;

/// Keys of the extended resources the metric needs, looked up once per store.
struct MetricKeys {
    int neuron = -1; // registry key of aws.amazon.com/neuron, or -1 when absent
    [[nodiscard]] static MetricKeys find(const model::ClusterStore& store) noexcept;
};

/// The share of node n that `metric` shows: requested / allocatable, in [0, inf)
/// (over-commitment can exceed 1; colour clamps). NaN when the node has no allocatable
/// amount of the resource shown (no data). O(number of extended resources of n).
/// Source of the rule: DESIGN.md "Views" and the views brief (GPU, else Neuron, else CPU).
[[nodiscard]] double nodeShare(
    const model::ClusterStore& store, model::NodeId n, MapMetric metric, const MetricKeys& keys) noexcept;

/// Which resource nodeShare() read for node n under `metric` ("gpu", "aws.amazon.com/neuron",
/// "cpu", "memory"), for the tooltip.
[[nodiscard]] std::string_view nodeShareResource(
    const model::ClusterStore& store, model::NodeId n, MapMetric metric, const MetricKeys& keys) noexcept;

} // namespace fleet::views
