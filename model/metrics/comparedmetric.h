// SPDX-License-Identifier: Apache-2.0
#pragma once
// The difference of a metric between the shown state and a later one (File > Compare With):
// for each node of the shown state, the metric's value on the node of the same name in the
// later state minus its value now, on the diverging scale the plan difference uses. A node the
// later state no longer has is minus its value now (it is gone, as a drained node under a
// plan); a node whose value does not apply on either side is not applicable. Nodes added later
// have no cell on the shown map (views/map/layers/comparednodelayer.h boxes them beside their
// domain). Thread: as Metric (immutable; both stores must outlive it and
// not change while a column is computed).

#include "model/metrics/metric.h"

#include <memory>
#include <string>
#include <vector>

namespace fleet::model {

/// What a compared metric reads of the later state: its context (prices included) and, per
/// node of the shown store (index = NodeId), the later store's node of the same name (invalid
/// when none). Build it on a worker: O(nodes) with a hash lookup per node.
struct LaterState {
    std::shared_ptr<const ClusterStore> after;
    std::shared_ptr<const PriceTable> prices;
    std::unique_ptr<MetricContext> afterContext;
    std::vector<NodeId> afterNode;
};

/// `before`'s nodes matched by name in `after` and after's context over `prices` (may be null).
/// Throws std::bad_alloc only.
[[nodiscard]] std::shared_ptr<const LaterState> makeLaterState(const ClusterStore& before,
    std::shared_ptr<const ClusterStore> after, std::shared_ptr<const PriceTable> prices);

/// "compare-diff-" + base's id: `base` (a Share or Amount metric) after minus before over
/// `state`; null for a categorical or diverging base or a null state.
[[nodiscard]] std::shared_ptr<const Metric> makeComparedMetric(std::shared_ptr<const Metric> base, std::shared_ptr<const LaterState> state);

/// The base id of a compared metric's id ("compare-diff-gpu" -> "gpu"), "" for other ids.
[[nodiscard]] std::string_view comparedMetricBaseId(std::string_view id) noexcept;

} // namespace fleet::model
