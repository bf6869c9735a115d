// SPDX-License-Identifier: Apache-2.0
#pragma once
// The list of metrics and the lookup by id: the one place the map, its legend, the Metric
// menu, the heatmaps and `screenshot --metric` find metrics. The plan's metrics are not in it:
// they read one plan's ledger and are made for it (makePlanMetric(), planmetrics.h).

#include "model/metrics/metric.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::model {

/// Metrics by id. Thread: builtin() is built once (thread-safe static); find() and
/// metrics() are safe from any thread; add() only before other threads read.
class MetricRegistry {
public:
    /// An empty registry.
    MetricRegistry() = default;
    /// The built-in metrics in menu order: gpu, cpu, memory, gpu-unallocated,
    /// gpu-fragmentation, cost, cost-unallocated, state.
    [[nodiscard]] static MetricRegistry& builtin();
    /// The prefix of label metrics: "label:" followed by a node label key.
    static constexpr std::string_view kLabelPrefix = "label:";

    /// Registers `metric` (its id must be new; a later add with the same id replaces it).
    void add(std::shared_ptr<const Metric> metric);
    /// The registered metrics, in the order added.
    [[nodiscard]] const std::vector<std::shared_ptr<const Metric>>& metrics() const noexcept { return m_metrics; }
    /// The metric with `id`: a registered one, or for "label:KEY" (KEY not empty) a new label
    /// metric; null for any other id.
    [[nodiscard]] std::shared_ptr<const Metric> find(std::string_view id) const;
    /// The valid ids for an error message: "gpu, cpu, ..., state, label:KEY".
    [[nodiscard]] std::string validIds() const;

private:
    std::vector<std::shared_ptr<const Metric>> m_metrics;
};

} // namespace fleet::model
