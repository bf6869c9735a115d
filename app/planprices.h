// SPDX-License-Identifier: Apache-2.0
#pragma once
// The price of each node for a PlanEngine (its before/after cost per hour), from a price
// table: shared by the window's plan (PlanController) and `plan check` / `plan export`.

#include "model/clusterstore.h"
#include "model/pricing/pricetable.h"

#include <vector>

namespace fleet::app {

/// Each store node's price in $/h (indexed by NodeId) as the cost metric reads it
/// (model::MetricContext::nodeDollarsPerHour), 0 where the table has no row; empty when
/// `prices` is null. O(nodes). Thread: any.
[[nodiscard]] std::vector<double> planNodePrices(const model::ClusterStore& store, const model::PriceTable* prices);

} // namespace fleet::app
