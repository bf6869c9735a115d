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

std::string_view mapMetricTitle(MapMetric metric, bool fleetHasAccelerators) noexcept
{
    if (metric == MapMetric::GpuRequested && !fleetHasAccelerators)
        return "CPU requested (no GPU nodes)";
    return mapMetricLabel(metric);
}

NodeMark nodeMark(const model::ClusterStore& store, NodeId n) noexcept
{
    if (store.nodeReadiness(n) != model::Readiness::True)
        return NodeMark::NotReady;
    if (store.nodeUnschedulable(n))
        return NodeMark::Cordoned;
    return NodeMark::None;
}

MetricKeys MetricKeys::find(const model::ClusterStore& store)
{
    MetricKeys keys;
    const model::ResourceRegistry& registry = store.resources();
    keys.neuron = registry.find("aws.amazon.com/neuron");
    constexpr std::string_view kMigPrefix = "nvidia.com/mig-";
    for (std::size_t k = model::kFirstExtendedKey; k < registry.size(); ++k) {
        if (!registry.name(static_cast<model::ResourceKey>(k)).starts_with(kMigPrefix))
            continue;
        keys.mig.resize(registry.size(), 0);
        keys.mig[k] = 1;
    }
    return keys;
}

MigSlices nodeMigSlices(const model::ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept
{
    MigSlices slices;
    if (keys.mig.empty())
        return slices;
    for (const auto& [key, amount] : store.nodeExtendedAllocatable(n))
        if (keys.isMig(key) && amount > 0) {
            slices.allocatable += amount;
            slices.requested += store.nodeExtendedRequested(n, key);
        }
    return slices;
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

enum class Source { Gpu, Mig, Neuron, Cpu, Memory };

bool hasMigSlices(const model::ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept
{
    if (keys.mig.empty())
        return false;
    for (const auto& [key, amount] : store.nodeExtendedAllocatable(n))
        if (amount > 0 && keys.isMig(key))
            return true;
    return false;
}

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
        {
            // One pass over the node's extended resources (hot: every non-GPU node, every
            // raster): MIG slices win over Neuron devices.
            bool neuron = false;
            const std::uint8_t* mig = keys.mig.data();
            const std::size_t migSize = keys.mig.size();
            const int neuronKey = keys.neuron;
            for (const auto& [key, amount] : store.nodeExtendedAllocatable(n)) {
                if (amount <= 0)
                    continue;
                if (key < migSize && mig[key] != 0)
                    return Source::Mig;
                neuron = neuron || key == neuronKey;
            }
            return neuron ? Source::Neuron : Source::Cpu;
        }
    }
    return Source::Cpu;
}

// The GpuRequested share of a node without nvidia.com/gpu: MIG slices, else Neuron
// devices, else CPU (rules 2 to 4 of MapMetric::GpuRequested).
[[gnu::noinline]] double nonGpuShare(const model::ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept
{
    switch (shareSource(store, n, MapMetric::GpuRequested, keys)) {
    case Source::Mig: {
        const MigSlices slices = nodeMigSlices(store, n, keys);
        return static_cast<double>(slices.requested) / static_cast<double>(slices.allocatable);
    }
    case Source::Neuron: {
        const std::int64_t allocatable = extendedAllocatable(store, n, keys.neuron);
        const auto key = static_cast<model::ResourceKey>(keys.neuron);
        return static_cast<double>(store.nodeExtendedRequested(n, key)) / static_cast<double>(allocatable);
    }
    case Source::Gpu:
        return coreShare(store, n, CoreResource::Gpu);
    case Source::Cpu:
    case Source::Memory:
        break;
    }
    return coreShare(store, n, CoreResource::Cpu);
}

} // namespace

bool fleetHasAccelerators(const model::ClusterStore& store, const MetricKeys& keys) noexcept
{
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const NodeId n(i);
        if (store.nodeAllocatable(n)[CoreResource::Gpu] > 0 || hasMigSlices(store, n, keys)
            || extendedAllocatable(store, n, keys.neuron) > 0)
            return true;
    }
    return false;
}

double nodeShare(const model::ClusterStore& store, NodeId n, MapMetric metric, const MetricKeys& keys) noexcept
{
    // Hot (every node of every raster): the core-resource cases first, inline; the rarer
    // extended-resource cases in a call of their own.
    switch (metric) {
    case MapMetric::CpuRequested:
        return coreShare(store, n, CoreResource::Cpu);
    case MapMetric::MemoryRequested:
        return coreShare(store, n, CoreResource::Memory);
    case MapMetric::GpuRequested:
        if (store.nodeAllocatable(n)[CoreResource::Gpu] > 0)
            return coreShare(store, n, CoreResource::Gpu);
        return nonGpuShare(store, n, keys);
    }
    return kNoData;
}

std::string_view nodeShareResource(const model::ClusterStore& store, NodeId n, MapMetric metric, const MetricKeys& keys) noexcept
{
    switch (shareSource(store, n, metric, keys)) {
    case Source::Gpu:
        return "GPU";
    case Source::Mig:
        return "MIG slices";
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
