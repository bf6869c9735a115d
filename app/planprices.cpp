// SPDX-License-Identifier: Apache-2.0
#include "planprices.h"

#include "model/metrics/metric.h"

#include <cmath>

namespace fleet::app {

std::vector<double> planNodePrices(const model::ClusterStore& store, const model::PriceTable* prices)
{
    std::vector<double> out;
    if (!prices)
        return out;
    const model::MetricContext context(store, prices);
    out.resize(store.nodeCount());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const double p = context.nodeDollarsPerHour(model::NodeId(static_cast<std::uint32_t>(i)));
        out[i] = std::isnan(p) ? 0.0 : p;
    }
    return out;
}

} // namespace fleet::app
