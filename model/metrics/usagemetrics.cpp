// SPDX-License-Identifier: Apache-2.0
// Usage metrics (usagemetrics.h).
#include "model/metrics/usagemetrics.h"

#include "model/figures.h"

#include <cmath>

namespace fleet::model {

namespace {

class UsageMetric final : public Metric {
public:
    UsageMetric(std::shared_ptr<const ClusterUsage> usage, UsageMetricKind kind)
        : m_usage(std::move(usage))
        , m_kind(kind)
    {
    }
    std::string id() const override { return std::string(usageMetricId(m_kind)); }
    std::string title() const override
    {
        switch (m_kind) {
        case UsageMetricKind::CpuUsed: return "CPU used";
        case UsageMetricKind::MemoryUsed: return "Memory used";
        case UsageMetricKind::GpuUsed: return "GPU utilization";
        case UsageMetricKind::GpuIdle: return "Allocated but idle GPUs";
        }
        return {};
    }
    std::string unit() const override { return m_kind == UsageMetricKind::GpuIdle ? "GPUs" : "% of allocatable"; }
    std::string description() const override
    {
        const std::string from = m_usage->source.empty() ? std::string() : " (" + m_usage->source + ")";
        switch (m_kind) {
        case UsageMetricKind::CpuUsed: return "cpu in use over allocatable" + from;
        case UsageMetricKind::MemoryUsed: return "memory working set over allocatable" + from;
        case UsageMetricKind::GpuUsed: return "mean utilization of the node's GPUs" + from;
        case UsageMetricKind::GpuIdle: return idleGpuSentence(*m_usage) + from;
        }
        return {};
    }
    ScaleKind scale() const override { return m_kind == UsageMetricKind::GpuIdle ? ScaleKind::Amount : ScaleKind::Share; }
    std::string notApplicableReason() const override
    {
        // The GPU metrics have no value on a node without GPUs either.
        return m_kind == UsageMetricKind::GpuUsed || m_kind == UsageMetricKind::GpuIdle ? "no GPUs or no usage data" : "no usage data";
    }
    double value(const MetricContext& context, NodeId n) const noexcept override
    {
        const ClusterUsage& u = *m_usage;
        const std::size_t i = n.index();
        if (u.nodeCount() != context.store().nodeCount() || i >= u.nodeCount())
            return ClusterUsage::kUnknown;
        const ResourceVector& alloc = context.store().nodeAllocatable(n);
        switch (m_kind) {
        case UsageMetricKind::CpuUsed:
            return alloc[CoreResource::Cpu] > 0 ? u.cpuUsedMilli[i] / static_cast<double>(alloc[CoreResource::Cpu]) : ClusterUsage::kUnknown;
        case UsageMetricKind::MemoryUsed:
            return alloc[CoreResource::Memory] > 0 ? u.memoryUsedBytes[i] / static_cast<double>(alloc[CoreResource::Memory])
                                                   : ClusterUsage::kUnknown;
        case UsageMetricKind::GpuUsed: return u.gpuUtilization[i];
        case UsageMetricKind::GpuIdle:
            return u.idleAllocatedGpus[i] < 0 ? ClusterUsage::kUnknown : static_cast<double>(u.idleAllocatedGpus[i]);
        }
        return ClusterUsage::kUnknown;
    }

private:
    std::shared_ptr<const ClusterUsage> m_usage;
    UsageMetricKind m_kind;
};

} // namespace

std::shared_ptr<const Metric> makeUsageMetric(std::shared_ptr<const ClusterUsage> usage, UsageMetricKind kind)
{
    if (!usage)
        return nullptr;
    return std::make_shared<UsageMetric>(std::move(usage), kind);
}

std::string_view usageMetricId(UsageMetricKind kind) noexcept
{
    switch (kind) {
    case UsageMetricKind::CpuUsed: return "cpu-used";
    case UsageMetricKind::MemoryUsed: return "memory-used";
    case UsageMetricKind::GpuUsed: return "gpu-used";
    case UsageMetricKind::GpuIdle: return "gpu-idle";
    }
    return {};
}

bool usageMetricKind(std::string_view id, UsageMetricKind& kind) noexcept
{
    for (const UsageMetricKind k : kUsageMetricKinds)
        if (usageMetricId(k) == id) {
            kind = k;
            return true;
        }
    return false;
}

std::string idleWindowText(const ClusterUsage& usage)
{
    const double hours = usage.windowSeconds / 3600.0;
    return hours >= 1 && std::abs(hours - std::round(hours)) < 1e-9 ? formatCount(std::llround(hours)) + " h"
                                                                    : formatCount(std::llround(usage.windowSeconds / 60.0)) + " min";
}

std::string idleThresholdText(const ClusterUsage& usage)
{
    return formatCount(std::llround(usage.idleThreshold * 100)) + "%";
}

std::string idleGpuSentence(const ClusterUsage& usage)
{
    return formatCount(usage.idleAllocatedGpuTotal()) + " of " + formatCount(usage.allocatedGpusMeasured) + " allocated GPUs idle for "
        + idleWindowText(usage) + " (below " + idleThresholdText(usage) + ")";
}

} // namespace fleet::model
