// SPDX-License-Identifier: Apache-2.0
#pragma once
// Usage metrics: what the map colours by when a usage source is loaded
// (model/usage.h). Like the plan metrics they hold their data, so they are not in the
// built-in registry: the app makes them for its usage and hands them to the map.
//
//   "cpu-used"     cpu in use / allocatable (Share)
//   "memory-used"  working set / allocatable memory (Share)
//   "gpu-used"     mean utilization of the node's measured GPUs (Share)
//   "gpu-idle"     allocated GPUs idle for the whole window (Amount, "GPUs")
//
// A node without a figure is not applicable ("no usage data"), never 0. Thread: as Metric.

#include "model/metrics/metric.h"
#include "model/usage.h"

#include <memory>
#include <string_view>

namespace fleet::model {

enum class UsageMetricKind : std::uint8_t { CpuUsed, MemoryUsed, GpuUsed, GpuIdle };

/// The usage metric of `kind` over `usage` (which must be for the context's store: same node
/// count, else every node is not applicable). Null for a null usage. Throws std::bad_alloc only.
[[nodiscard]] std::shared_ptr<const Metric> makeUsageMetric(std::shared_ptr<const ClusterUsage> usage, UsageMetricKind kind);

/// "cpu-used", "memory-used", "gpu-used", "gpu-idle".
[[nodiscard]] std::string_view usageMetricId(UsageMetricKind kind) noexcept;
/// The kind whose id is `id`; false for any other id.
[[nodiscard]] bool usageMetricKind(std::string_view id, UsageMetricKind& kind) noexcept;
inline constexpr UsageMetricKind kUsageMetricKinds[] = { UsageMetricKind::CpuUsed, UsageMetricKind::MemoryUsed,
    UsageMetricKind::GpuUsed, UsageMetricKind::GpuIdle };

/// The idle rule's window as people say it: 3600 s -> "1 h", 1800 s -> "30 min".
[[nodiscard]] std::string idleWindowText(const ClusterUsage& usage);
/// The idle rule's threshold: 0.05 -> "5%".
[[nodiscard]] std::string idleThresholdText(const ClusterUsage& usage);

/// "1,912 of 322,935 allocated GPUs idle for 1 h (below 5%)": the legend's and the summary's line.
[[nodiscard]] std::string idleGpuSentence(const ClusterUsage& usage);

} // namespace fleet::model
