// SPDX-License-Identifier: Apache-2.0
// The "state" metric: Ready, NotReady, cordoned.
#include "model/metrics/builtinmetrics.h"

namespace fleet::model {

NodeState nodeState(const ClusterStore& store, NodeId n) noexcept
{
    if (store.nodeReadiness(n) != Readiness::True)
        return NodeState::NotReady;
    if (store.nodeUnschedulable(n))
        return NodeState::Cordoned;
    return NodeState::Ready;
}

std::string_view nodeStateName(NodeState s) noexcept
{
    switch (s) {
    case NodeState::Ready:
        return "Ready";
    case NodeState::NotReady:
        return "NotReady";
    case NodeState::Cordoned:
        return "Cordoned";
    }
    return "?";
}

namespace {
class NodeStateMetric final : public Metric {
public:
    std::string id() const override { return "state"; }
    std::string title() const override { return "Node state"; }
    std::string unit() const override { return ""; }
    std::string description() const override
    {
        return "NotReady: the Ready condition is False or Unknown; cordoned: Ready and spec.unschedulable";
    }
    ScaleKind scale() const override { return ScaleKind::Categorical; }
    double value(const MetricContext& context, NodeId n) const noexcept override
    {
        return static_cast<double>(nodeState(context.store(), n));
    }
    std::string categoryName(const MetricContext&, std::int64_t code) const override
    {
        if (code < 0 || code >= kNodeStateCount)
            return {};
        return std::string(nodeStateName(static_cast<NodeState>(code)));
    }
    int fixedCategoryCount() const noexcept override { return kNodeStateCount; }
};
} // namespace

std::unique_ptr<Metric> makeNodeStateMetric()
{
    return std::make_unique<NodeStateMetric>();
}

} // namespace fleet::model
