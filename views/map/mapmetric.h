// SPDX-License-Identifier: Apache-2.0
#pragma once
// The map's view of metrics. The metrics themselves live in model/metrics/ (one interface,
// one file per metric, found by id in model::MetricRegistry); this header keeps the
// three share metrics' enum (MapMetric) for callers that name them, maps it to ids, and
// re-exports the accelerator rules under the view's namespace.

#include "model/clusterstore.h"
#include "model/metrics/accelerators.h"
#include "model/metrics/builtinmetrics.h"
#include "model/metrics/metric.h"

#include <cstdint>
#include <memory>
#include <string_view>

namespace fleet::views {

/// The three share metrics by name (ids "gpu", "cpu", "memory"). Every metric, these
/// included, is a model::Metric found with model::MetricRegistry::builtin().find(id).
enum class MapMetric {
    /// "gpu": the accelerator share (model::nodeAcceleratorShare(): GPU, else MIG slices,
    /// else Neuron devices); a node without accelerators is not applicable, except on a
    /// fleet with no accelerators at all, where the CPU share is shown.
    GpuRequested,
    /// "cpu": requested / allocatable CPU millicores.
    CpuRequested,
    /// "memory": requested / allocatable memory bytes.
    MemoryRequested
};

/// The registry id of a MapMetric: "gpu", "cpu", "memory".
[[nodiscard]] std::string_view mapMetricId(MapMetric metric) noexcept;
/// The built-in metric of a MapMetric (never null).
[[nodiscard]] std::shared_ptr<const model::Metric> mapMetric(MapMetric metric);

/// Name of a metric as shown in the legend ("GPU requested", ...).
[[nodiscard]] std::string_view mapMetricLabel(MapMetric metric) noexcept;
/// The legend's title for `metric` on a fleet: mapMetricLabel(), except GpuRequested on a
/// fleet with no accelerators: "CPU requested (no GPU nodes)".
[[nodiscard]] std::string_view mapMetricTitle(MapMetric metric, bool fleetHasAccelerators) noexcept;

/// Marks that override the colour of a node's cell (for every metric but categorical ones).
/// NotReady: the Ready condition is False or Unknown (kubectl shows both as NotReady).
/// Cordoned: Ready but spec.unschedulable. NotReady wins when both hold.
enum class NodeMark : std::uint8_t { None, NotReady, Cordoned };
/// The mark of node n (model::nodeState()). Thread: any.
[[nodiscard]] NodeMark nodeMark(const model::ClusterStore& store, model::NodeId n) noexcept;

using model::fleetHasAccelerators;
using model::MetricKeys;
using model::MigSlices;
using model::nodeMigSlices;

/// The share of node n that `metric` shows, in [0, inf); NaN when not applicable (no
/// allocatable of the resource; under GpuRequested, a node without accelerators; use a
/// model::MetricContext and the metric for the fleet-wide CPU fallback). Thread: any.
[[nodiscard]] double nodeShare(
    const model::ClusterStore& store, model::NodeId n, MapMetric metric, const MetricKeys& keys) noexcept;

/// Which resource a share metric reads on node n ("GPU", "MIG slices",
/// "aws.amazon.com/neuron", "CPU", "memory"; "" for a node without accelerators under
/// GpuRequested), for the tooltip.
[[nodiscard]] std::string_view nodeShareResource(
    const model::ClusterStore& store, model::NodeId n, MapMetric metric, const MetricKeys& keys) noexcept;

} // namespace fleet::views
