// SPDX-License-Identifier: Apache-2.0
#pragma once
// The price of each node for a PlanEngine (its before/after cost per hour), from a price
// table: shared by the window's plan (PlanController) and the `plan` subcommands.

#include "model/clusterstore.h"
#include "model/pricing/pricetable.h"

#include <vector>

namespace fleet::model {

/// Each store node's price in $/h (indexed by NodeId) as the cost metric reads it
/// (MetricContext::nodeDollarsPerHour), 0 where the table has no row; empty when
/// `prices` is null. O(nodes). Thread: any.
[[nodiscard]] std::vector<double> planNodePrices(const ClusterStore& store, const PriceTable* prices);

} // namespace fleet::model
