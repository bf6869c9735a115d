// SPDX-License-Identifier: Apache-2.0
// The plan-aware metrics: requested shares under a plan, and after minus before.
#include "model/metrics/planmetrics.h"

#include "model/metrics/accelerators.h"

#include <cmath>
#include <limits>

namespace fleet::model {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

enum class Base : std::uint8_t { Gpu, Cpu, Memory };

double share(std::int64_t requested, std::int64_t allocatable) noexcept
{
    return allocatable > 0 ? static_cast<double>(requested) / static_cast<double>(allocatable) : kNaN;
}

class PlanMetric final : public Metric {
public:
    PlanMetric(std::shared_ptr<const PlanLedger> state, Base base, PlanMetricKind kind)
        : m_state(std::move(state))
        , m_base(base)
        , m_kind(kind)
    {
    }
    std::string id() const override
    {
        return std::string(m_kind == PlanMetricKind::After ? "plan-" : "plan-diff-") + baseName();
    }
    std::string title() const override
    {
        const char* what = m_base == Base::Gpu ? "GPU" : m_base == Base::Cpu ? "CPU" : "Memory";
        return m_kind == PlanMetricKind::After ? std::string(what) + " requested with the plan"
                                               : std::string(what) + " requested: plan minus now";
    }
    std::string unit() const override { return "% of allocatable"; }
    std::string description() const override
    {
        return m_kind == PlanMetricKind::After
            ? "requested / allocatable under the plan; drained and failed nodes not applicable"
            : "requested share under the plan minus now: red gains, blue loses";
    }
    ScaleKind scale() const override { return m_kind == PlanMetricKind::After ? ScaleKind::Share : ScaleKind::Diverging; }
    double value(const MetricContext& context, NodeId n) const noexcept override
    {
        const double before = shareBefore(context, n);
        if (!m_state->nodePresent(n))
            return m_kind == PlanMetricKind::After ? kNaN : (std::isnan(before) ? kNaN : -before);
        const double after = shareAfter(context, n);
        return m_kind == PlanMetricKind::After ? after : after - before;
    }

private:
    const char* baseName() const noexcept { return m_base == Base::Gpu ? "gpu" : m_base == Base::Cpu ? "cpu" : "memory"; }
    CoreResource coreOf(const MetricContext& context, NodeId n) const noexcept
    {
        if (m_base == Base::Cpu)
            return CoreResource::Cpu;
        if (m_base == Base::Memory)
            return CoreResource::Memory;
        const ClusterStore& store = context.store();
        return store.nodeAllocatable(n)[CoreResource::Gpu] > 0 || context.fleetHasAccelerators() ? CoreResource::Gpu
                                                                                               : CoreResource::Cpu;
    }
    double shareBefore(const MetricContext& context, NodeId n) const noexcept
    {
        const ClusterStore& store = context.store();
        if (m_base == Base::Gpu && store.nodeAllocatable(n)[CoreResource::Gpu] <= 0 && context.fleetHasAccelerators())
            return nodeAcceleratorShare(store, n, context.keys());
        return nodeCoreShare(store, n, coreOf(context, n));
    }
    double shareAfter(const MetricContext& context, NodeId n) const noexcept
    {
        const ClusterStore& store = context.store();
        if (m_base == Base::Gpu && store.nodeAllocatable(n)[CoreResource::Gpu] <= 0 && context.fleetHasAccelerators()) {
            // MIG slices or Neuron devices: the ledger's extended requests, scaled like the store's.
            const double before = nodeAcceleratorShare(store, n, context.keys());
            if (std::isnan(before) || context.keys().neuron < 0)
                return before;
            const auto key = static_cast<ResourceKey>(context.keys().neuron);
            const std::int64_t was = store.nodeExtendedRequested(n, key);
            const std::int64_t now = m_state->nodeExtendedRequested(n, key);
            return was > 0 ? before * static_cast<double>(now) / static_cast<double>(was) : before;
        }
        const CoreResource r = coreOf(context, n);
        return share(m_state->nodeRequested(n)[r], store.nodeAllocatable(n)[r]);
    }

    std::shared_ptr<const PlanLedger> m_state;
    Base m_base;
    PlanMetricKind m_kind;
};

} // namespace

std::shared_ptr<const Metric> makePlanMetric(std::shared_ptr<const PlanLedger> state, std::string_view baseId, PlanMetricKind kind)
{
    if (!state)
        return nullptr;
    if (baseId == "gpu")
        return std::make_shared<PlanMetric>(std::move(state), Base::Gpu, kind);
    if (baseId == "cpu")
        return std::make_shared<PlanMetric>(std::move(state), Base::Cpu, kind);
    if (baseId == "memory")
        return std::make_shared<PlanMetric>(std::move(state), Base::Memory, kind);
    return nullptr;
}

std::string_view planMetricBaseId(std::string_view id) noexcept
{
    for (std::string_view prefix : { std::string_view("plan-diff-"), std::string_view("plan-") })
        if (id.starts_with(prefix)) {
            const std::string_view base = id.substr(prefix.size());
            if (base == "gpu" || base == "cpu" || base == "memory")
                return base;
        }
    return {};
}

} // namespace fleet::model
