#include "mapmetric.h"

#include <limits>

namespace fleet::views {

using model::CoreResource;
using model::NodeId;

std::string_view mapMetricLabel(MapMetric metric) noexcept
{
    switch (metric) {
    case MapMetric::GpuRequested:
        return "GPU requested";
    case MapMetric::CpuRequested:
        return "CPU requested";
    case MapMetric::MemoryRequested:
        return "Memory requested";
    }
    return "?";
}

NodeMark nodeMark(const model::ClusterStore& store, NodeId n) noexcept
{
    if (store.nodeReadiness(n) != model::Readiness::True)
        return NodeMark::NotReady;
    if (store.nodeUnschedulable(n))
        return NodeMark::Cordoned;
    return NodeMark::None;
}

MetricKeys MetricKeys::find(const model::ClusterStore& store) noexcept
{
    MetricKeys keys;
    keys.neuron = store.resources().find("aws.amazon.com/neuron");
    return keys;
}

namespace {

constexpr double kNoData = std::numeric_limits<double>::quiet_NaN();

double coreShare(const model::ClusterStore& store, NodeId n, CoreResource r) noexcept
{
    const std::int64_t allocatable = store.nodeAllocatable(n)[r];
    if (allocatable <= 0)
        return kNoData;
    return static_cast<double>(store.nodeRequested(n)[r]) / static_cast<double>(allocatable);
}

std::int64_t extendedAllocatable(const model::ClusterStore& store, NodeId n, int key) noexcept
{
    if (key < 0)
        return 0;
    for (const auto& [k, amount] : store.nodeExtendedAllocatable(n))
        if (k == key)
            return amount;
    return 0;
}

enum class Source { Gpu, Neuron, Cpu, Memory };

Source shareSource(const model::ClusterStore& store, NodeId n, MapMetric metric, const MetricKeys& keys) noexcept
{
    switch (metric) {
    case MapMetric::CpuRequested:
        return Source::Cpu;
    case MapMetric::MemoryRequested:
        return Source::Memory;
    case MapMetric::GpuRequested:
        if (store.nodeAllocatable(n)[CoreResource::Gpu] > 0)
            return Source::Gpu;
        if (extendedAllocatable(store, n, keys.neuron) > 0)
            return Source::Neuron;
        return Source::Cpu;
    }
    return Source::Cpu;
}

} // namespace

double nodeShare(const model::ClusterStore& store, NodeId n, MapMetric metric, const MetricKeys& keys) noexcept
{
    switch (shareSource(store, n, metric, keys)) {
    case Source::Gpu:
        return coreShare(store, n, CoreResource::Gpu);
    case Source::Neuron: {
        const std::int64_t allocatable = extendedAllocatable(store, n, keys.neuron);
        const auto key = static_cast<model::ResourceKey>(keys.neuron);
        return static_cast<double>(store.nodeExtendedRequested(n, key)) / static_cast<double>(allocatable);
    }
    case Source::Cpu:
        return coreShare(store, n, CoreResource::Cpu);
    case Source::Memory:
        return coreShare(store, n, CoreResource::Memory);
    }
    return kNoData;
}

std::string_view nodeShareResource(const model::ClusterStore& store, NodeId n, MapMetric metric, const MetricKeys& keys) noexcept
{
    switch (shareSource(store, n, metric, keys)) {
    case Source::Gpu:
        return "GPU";
    case Source::Neuron:
        return "aws.amazon.com/neuron";
    case Source::Cpu:
        return "CPU";
    case Source::Memory:
        return "memory";
    }
    return "";
}

} // namespace fleet::views
