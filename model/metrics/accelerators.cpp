// SPDX-License-Identifier: Apache-2.0
#include "accelerators.h"

#include "model/scheduling/planledger.h"

#include <algorithm>
#include <limits>

namespace fleet::model {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

MetricKeys MetricKeys::find(const ClusterStore& store)
{
    MetricKeys keys;
    const ResourceRegistry& registry = store.resources();
    keys.neuron = registry.find("aws.amazon.com/neuron");
    keys.neuronCore = registry.find("aws.amazon.com/neuroncore");
    constexpr std::string_view kMigPrefix = "nvidia.com/mig-";
    for (std::size_t k = kFirstExtendedKey; k < registry.size(); ++k) {
        if (!std::string_view(registry.name(static_cast<ResourceKey>(k))).starts_with(kMigPrefix))
            continue;
        keys.mig.resize(registry.size(), 0);
        keys.mig[k] = 1;
    }
    return keys;
}

MigSlices nodeMigSlices(const ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept
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

std::int64_t nodeExtendedAllocatableOf(const ClusterStore& store, NodeId n, int key) noexcept
{
    if (key < 0)
        return 0;
    for (const auto& [k, amount] : store.nodeExtendedAllocatable(n))
        if (k == key)
            return amount;
    return 0;
}

AcceleratorKind nodeAcceleratorKind(const ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept
{
    if (store.nodeAllocatable(n)[CoreResource::Gpu] > 0)
        return AcceleratorKind::Gpu;
    // One pass over the node's extended resources (hot: every non-GPU node of every
    // raster): MIG slices win over Neuron devices.
    bool neuron = false;
    const std::uint8_t* mig = keys.mig.data();
    const std::size_t migSize = keys.mig.size();
    const int neuronKey = keys.neuron;
    for (const auto& [key, amount] : store.nodeExtendedAllocatable(n)) {
        if (amount <= 0)
            continue;
        if (key < migSize && mig[key] != 0)
            return AcceleratorKind::Mig;
        neuron = neuron || key == neuronKey;
    }
    return neuron ? AcceleratorKind::Neuron : AcceleratorKind::None;
}

bool fleetHasAccelerators(const ClusterStore& store, const MetricKeys& keys) noexcept
{
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
        if (nodeAcceleratorKind(store, NodeId(i), keys) != AcceleratorKind::None)
            return true;
    return false;
}

double nodeCoreShare(const ClusterStore& store, NodeId n, CoreResource r) noexcept
{
    const std::int64_t allocatable = store.nodeAllocatable(n)[r];
    if (allocatable <= 0)
        return kNaN;
    return static_cast<double>(store.nodeRequested(n)[r]) / static_cast<double>(allocatable);
}

double nodeAcceleratorShare(const ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept
{
    switch (nodeAcceleratorKind(store, n, keys)) {
    case AcceleratorKind::Gpu:
        return nodeCoreShare(store, n, CoreResource::Gpu);
    case AcceleratorKind::Mig: {
        const MigSlices slices = nodeMigSlices(store, n, keys);
        return static_cast<double>(slices.requested) / static_cast<double>(slices.allocatable);
    }
    case AcceleratorKind::Neuron: {
        const std::int64_t allocatable = nodeExtendedAllocatableOf(store, n, keys.neuron);
        const auto key = static_cast<ResourceKey>(keys.neuron);
        return static_cast<double>(store.nodeExtendedRequested(n, key)) / static_cast<double>(allocatable);
    }
    case AcceleratorKind::None:
        break;
    }
    return kNaN;
}

namespace {

// The rule of nodeAccelerators() over any source of requests: `gpuRequested` (milli-GPU) and
// `extendedRequested(key)`, the store's or a plan's.
template <typename ExtendedRequested>
NodeAccelerators acceleratorsOf(const ClusterStore& store, NodeId n, const MetricKeys& keys, std::int64_t gpuRequested,
    ExtendedRequested extendedRequested) noexcept
{
    NodeAccelerators a;
    a.kind = nodeAcceleratorKind(store, n, keys);
    switch (a.kind) {
    case AcceleratorKind::Gpu: {
        const std::int64_t allocatable = store.nodeAllocatable(n)[CoreResource::Gpu];
        a.devices = allocatable / 1000;
        a.unallocatedDevices = std::max<std::int64_t>(0, (allocatable - gpuRequested) / 1000);
        a.requestedDevices = static_cast<double>(gpuRequested) / 1000.0;
        break;
    }
    case AcceleratorKind::Mig: {
        for (const auto& [key, amount] : store.nodeExtendedAllocatable(n))
            if (keys.isMig(key) && amount > 0) {
                a.migSlices.allocatable += amount;
                a.migSlices.requested += extendedRequested(key);
            }
        a.devices = store.nodeGpuCount(n) > 0 ? store.nodeGpuCount(n) : a.migSlices.allocatable;
        const double slicesPerGpu = static_cast<double>(a.migSlices.allocatable) / static_cast<double>(a.devices);
        const std::int64_t freeSlices = std::max<std::int64_t>(0, a.migSlices.allocatable - a.migSlices.requested);
        a.unallocatedDevices
            = std::min(a.devices, static_cast<std::int64_t>(static_cast<double>(freeSlices) / slicesPerGpu + 1e-9));
        a.requestedDevices = static_cast<double>(a.migSlices.requested) / slicesPerGpu;
        break;
    }
    case AcceleratorKind::Neuron: {
        a.devices = nodeExtendedAllocatableOf(store, n, keys.neuron);
        const std::int64_t requested = extendedRequested(static_cast<ResourceKey>(keys.neuron));
        a.unallocatedDevices = std::max<std::int64_t>(0, a.devices - requested);
        a.requestedDevices = static_cast<double>(requested);
        if (keys.neuronCore >= 0) {
            a.neuronCores = nodeExtendedAllocatableOf(store, n, keys.neuronCore);
            a.neuronCoresRequested = extendedRequested(static_cast<ResourceKey>(keys.neuronCore));
        }
        break;
    }
    case AcceleratorKind::None:
        break;
    }
    return a;
}

} // namespace

NodeAccelerators nodeAccelerators(const ClusterStore& store, NodeId n, const MetricKeys& keys) noexcept
{
    return acceleratorsOf(store, n, keys, store.nodeRequested(n)[CoreResource::Gpu],
        [&](ResourceKey key) { return store.nodeExtendedRequested(n, key); });
}

NodeAccelerators nodeAccelerators(const ClusterStore& store, NodeId n, const MetricKeys& keys, const PlanLedger* plan) noexcept
{
    if (!plan)
        return nodeAccelerators(store, n, keys);
    if (!plan->nodePresent(n))
        return acceleratorsOf(store, n, keys, 0, [](ResourceKey) { return std::int64_t { 0 }; });
    return acceleratorsOf(store, n, keys, plan->nodeRequested(n)[CoreResource::Gpu],
        [&](ResourceKey key) { return plan->nodeExtendedRequested(n, key); });
}

} // namespace fleet::model
