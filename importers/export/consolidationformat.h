// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `fleetscope plan consolidate` prints: its summary as JSON (`--format json`) and as text,
// from the search's result, the Karpenter-style baseline's and the two lower bounds. The plan
// file itself is planfile.h's. Thread: any (reads only).

#include "model/search/consolidation.h"
#include "model/search/consolidationbound.h"
#include "model/search/packingrelaxation.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fleet::model {
class ClusterStore;
}

namespace fleet::importers {

/// The JSON summary (docs/cli.md, "plan consolidate"): {"ours": {figures}, "baseline": {figures},
/// "lowerBound": {"nodes", "ratio", "rows"}, "lpBound": {...}, "ratioToBetterBound",
/// "fallbackDrains", "unpricedNodes", the nodes that stay (keptnodesexport.h's members),
/// "cancelled", "timedOut"}, one object and a newline; figures are nodesFreed, podsMoved,
/// evictions, costPerHourSaved ($/h), unpricedNodesFreed, nodesAfter, pendingPlaced, pendingLeft,
/// seconds.
/// `nodePrices` is $/h by NodeId (0 or missing: unpriced); `unpricedNodes` the store's nodes
/// without a price.
[[nodiscard]] std::string consolidationSummaryJson(const model::ConsolidationResult& ours, const model::ConsolidationResult& base,
    const model::NodeCountBound& bound, const model::PackingBound& lp, const model::ClusterStore& store, std::int64_t unpricedNodes,
    const std::vector<double>& nodePrices);

/// The text summary: the plan's figures (pending pods placed, nodes freed, pods moved, cost per
/// hour with unpriced nodes named, both bounds and the ratio, the baseline), then the nodes that
/// stay grouped by reason code with their most common blocking filter, and the first 20.
/// `planPath` is where the plan was written; `unpricedNote` a line about unpriced nodes ("" none).
/// Names from the input pass through terminalLine().
[[nodiscard]] std::string consolidationSummaryText(const model::ConsolidationResult& ours, const model::ConsolidationResult& base,
    const model::NodeCountBound& bound, const model::PackingBound& lp, const model::ClusterStore& store, const std::string& planPath,
    const std::vector<double>& nodePrices, std::int64_t unpricedNodes, const std::string& unpricedNote);

} // namespace fleet::importers
