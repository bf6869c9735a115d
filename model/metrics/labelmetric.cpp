// SPDX-License-Identifier: Apache-2.0
// The "label:KEY" metric: a node label's value as a category.
#include "model/metrics/builtinmetrics.h"

#include <limits>

namespace fleet::model {

namespace {
class LabelMetric final : public Metric {
public:
    explicit LabelMetric(std::string_view key)
        : m_key(key)
    {
    }
    std::string id() const override { return "label:" + m_key; }
    std::string title() const override
    {
        if (m_key == "eks.amazonaws.com/nodegroup")
            return "Node group";
        if (m_key == "eks.amazonaws.com/capacityType" || m_key == "karpenter.sh/capacity-type")
            return "Capacity type";
        if (m_key == "node.kubernetes.io/instance-type")
            return "Instance type";
        return "Label " + m_key;
    }
    std::string unit() const override { return ""; }
    std::string description() const override { return "the value of node label " + m_key; }
    ScaleKind scale() const override { return ScaleKind::Categorical; }
    std::string notApplicableReason() const override { return "no such label"; }
    double value(const MetricContext& context, NodeId n) const noexcept override
    {
        const ClusterStore& store = context.store();
        const StringId key = store.strings().find(m_key);
        const StringId value = key.isValid() ? store.nodeLabel(n, key) : StringId();
        if (!value.isValid())
            return std::numeric_limits<double>::quiet_NaN();
        return static_cast<double>(value.value);
    }
    std::string categoryName(const MetricContext& context, std::int64_t code) const override
    {
        if (code < 0 || static_cast<std::size_t>(code) >= context.store().strings().size())
            return {};
        return std::string(context.store().str(StringId(static_cast<std::uint32_t>(code))));
    }

private:
    std::string m_key;
};
} // namespace

std::unique_ptr<Metric> makeLabelMetric(std::string_view labelKey)
{
    return std::make_unique<LabelMetric>(labelKey);
}

} // namespace fleet::model
