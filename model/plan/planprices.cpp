// SPDX-License-Identifier: Apache-2.0
#include "planprices.h"

#include "model/metrics/metric.h"

#include <cmath>

namespace fleet::model {

std::vector<double> planNodePrices(const ClusterStore& store, const PriceTable* prices)
{
    std::vector<double> out;
    if (!prices)
        return out;
    const MetricContext context(store, prices);
    out.resize(store.nodeCount());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const double p = context.nodeDollarsPerHour(NodeId(static_cast<std::uint32_t>(i)));
        out[i] = std::isnan(p) ? 0.0 : p;
    }
    return out;
}

} // namespace fleet::model
