// SPDX-License-Identifier: Apache-2.0
// A metric's later value minus its value now, node by node matched by name.
#include "model/metrics/comparedmetric.h"

#include <cmath>
#include <limits>

namespace fleet::model {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::string_view kPrefix = "compare-diff-";

class ComparedMetric final : public Metric {
public:
    ComparedMetric(std::shared_ptr<const Metric> base, std::shared_ptr<const LaterState> state)
        : m_base(std::move(base))
        , m_state(std::move(state))
    {
    }
    std::string id() const override { return std::string(kPrefix) + m_base->id(); }
    std::string title() const override { return m_base->title() + ": compared state minus now"; }
    std::string unit() const override { return m_base->unit(); }
    std::string description() const override
    {
        return "the compared (later) state's value minus now: red gains, blue loses; nodes gone later lose all";
    }
    ScaleKind scale() const override { return ScaleKind::Diverging; }
    double value(const MetricContext& context, NodeId n) const noexcept override
    {
        const double before = m_base->value(context, n);
        const NodeId a = n.index() < m_state->afterNode.size() ? m_state->afterNode[n.index()] : NodeId();
        if (!a.isValid())
            return std::isnan(before) ? kNaN : -before;
        const double after = m_base->value(*m_state->afterContext, a);
        if (std::isnan(before) && std::isnan(after))
            return kNaN;
        return (std::isnan(after) ? 0.0 : after) - (std::isnan(before) ? 0.0 : before);
    }
    std::string notApplicableReason() const override { return m_base->notApplicableReason(); }

private:
    std::shared_ptr<const Metric> m_base;
    std::shared_ptr<const LaterState> m_state;
};

} // namespace

std::shared_ptr<const LaterState> makeLaterState(const ClusterStore& before, std::shared_ptr<const ClusterStore> after,
    std::shared_ptr<const PriceTable> prices)
{
    auto state = std::make_shared<LaterState>();
    state->afterNode.assign(before.nodeCount(), NodeId());
    for (std::uint32_t i = 0; i < before.nodeCount(); ++i)
        if (!before.nodeIsDeleted(NodeId(i)))
            state->afterNode[i] = after->findNode(before.nodeName(NodeId(i)));
    state->afterContext = std::make_unique<MetricContext>(*after, prices.get());
    state->after = std::move(after);
    state->prices = std::move(prices);
    return state;
}

std::shared_ptr<const Metric> makeComparedMetric(std::shared_ptr<const Metric> base, std::shared_ptr<const LaterState> state)
{
    if (!base || !state || base->scale() == ScaleKind::Categorical || base->scale() == ScaleKind::Diverging)
        return nullptr;
    return std::make_shared<ComparedMetric>(std::move(base), std::move(state));
}

std::string_view comparedMetricBaseId(std::string_view id) noexcept
{
    return id.substr(0, kPrefix.size()) == kPrefix ? id.substr(kPrefix.size()) : std::string_view();
}

} // namespace fleet::model
