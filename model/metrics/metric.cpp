// SPDX-License-Identifier: Apache-2.0
#include "metric.h"

#include "model/placement/typicalpods.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

namespace fleet::model {

MetricContext::MetricContext(const ClusterStore& store, const PriceTable* prices)
    : m_store(&store)
    , m_prices(prices)
    , m_keys(MetricKeys::find(store))
    , m_fleetHasAccelerators(model::fleetHasAccelerators(store, m_keys))
{
    if (prices == nullptr)
        return;
    const std::size_t count = store.nodeCount();
    m_nodePrice.resize(count);
    m_nodeCapacity.resize(count);
    // Nodes share few (region, instance type, capacity type) triples: look each up once.
    // The views point into the store's string pool, where each string is interned once, so
    // their addresses identify them.
    std::map<std::tuple<const char*, const char*, CapacityType>, double> cache;
    for (std::uint32_t i = 0; i < count; ++i) {
        const NodeId n(i);
        const CapacityType capacity = nodeCapacityType(store, n);
        const std::string_view region = nodeRegion(store, n);
        const std::string_view type = store.nodeInstanceType(n);
        m_nodeCapacity[i] = capacity;
        const auto key
            = std::make_tuple(region.empty() ? nullptr : region.data(), type.empty() ? nullptr : type.data(), capacity);
        auto it = cache.find(key);
        if (it == cache.end()) {
            const std::optional<double> price = type.empty() ? std::nullopt : prices->find(region, type, capacity);
            it = cache.emplace(key, price ? *price : std::numeric_limits<double>::quiet_NaN()).first;
        }
        m_nodePrice[i] = it->second;
    }
}

const std::vector<TypicalPod>& MetricContext::gpuTypicalPods() const
{
    std::call_once(m_typicalOnce, [this] {
        std::vector<PodId> pods;
        for (std::uint32_t i = 0; i < m_store->podCount(); ++i) {
            const PodId p(i);
            if ((m_store->podIsCounted(p) || m_store->podIsPending(p)) && !m_store->podIsMirror(p)
                && m_store->podRequest(p)[CoreResource::Gpu] > 0)
                pods.push_back(p);
        }
        TypicalPodOptions options;
        options.includeCpuOnly = false;
        options.includeDaemonSets = false;
        options.coverage = 0.95;
        m_typical = std::make_shared<const std::vector<TypicalPod>>(typicalPods(*m_store, pods, options));
    });
    return *m_typical;
}

std::uint8_t Metric::flags(const MetricContext&, NodeId) const noexcept
{
    return kMetricFlagNone;
}

std::string Metric::categoryName(const MetricContext&, std::int64_t) const
{
    return {};
}

MetricColumn computeMetricColumn(const Metric& metric, const MetricContext& context)
{
    MetricColumn column;
    const std::size_t count = context.store().nodeCount();
    column.values.resize(count);
    bool any = false;
    for (std::uint32_t i = 0; i < count; ++i) {
        const NodeId n(i);
        const double v = metric.value(context, n);
        column.values[i] = v;
        if (std::isnan(v)) {
            ++column.notApplicable;
            continue;
        }
        column.minValue = any ? std::min(column.minValue, v) : v;
        column.maxValue = any ? std::max(column.maxValue, v) : v;
        any = true;
        column.total += v;
        if (metric.flags(context, n) & kMetricFlagPrepaid)
            column.prepaidTotal += v;
    }
    if (metric.scale() != ScaleKind::Categorical)
        return column;

    std::unordered_map<std::int64_t, std::size_t> counts;
    const int fixed = metric.fixedCategoryCount();
    for (int c = 0; c < fixed; ++c)
        counts.emplace(c, 0);
    for (const double v : column.values)
        if (!std::isnan(v))
            ++counts[static_cast<std::int64_t>(v)];
    column.categories.reserve(counts.size());
    for (const auto& [code, nodes] : counts)
        column.categories.push_back({ code, metric.categoryName(context, code), nodes });
    std::sort(column.categories.begin(), column.categories.end(), [fixed](const MetricCategory& a, const MetricCategory& b) {
        if (fixed > 0)
            return a.code < b.code;
        if (a.nodes != b.nodes)
            return a.nodes > b.nodes;
        return a.name < b.name;
    });
    std::unordered_map<std::int64_t, std::int32_t> rank;
    for (std::size_t r = 0; r < column.categories.size(); ++r)
        rank.emplace(column.categories[r].code, static_cast<std::int32_t>(r));
    column.categoryRank.assign(count, -1);
    for (std::size_t i = 0; i < count; ++i)
        if (!std::isnan(column.values[i]))
            column.categoryRank[i] = rank[static_cast<std::int64_t>(column.values[i])];
    return column;
}

} // namespace fleet::model
