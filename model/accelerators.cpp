// SPDX-License-Identifier: Apache-2.0
#include "accelerators.h"

#include <algorithm>
#include <vector>

namespace fleet::model {

bool isMigResourceName(std::string_view name) noexcept
{
    return name.starts_with("nvidia.com/mig-");
}

bool isNeuronDeviceResourceName(std::string_view name) noexcept
{
    return name == "aws.amazon.com/neuron" || name == "aws.amazon.com/neurondevice";
}

bool isNeuronCoreResourceName(std::string_view name) noexcept
{
    return name == "aws.amazon.com/neuroncore";
}

AcceleratorTotals acceleratorTotals(const ClusterStore& store)
{
    AcceleratorTotals t;
    // Classify each registered resource once, not once per node.
    enum class Kind : std::uint8_t { Other, Mig, NeuronDevice, NeuronCore };
    std::vector<Kind> kinds;
    auto kindOf = [&](ResourceKey key) {
        while (kinds.size() <= key) {
            const std::string& name = store.resources().name(static_cast<ResourceKey>(kinds.size()));
            kinds.push_back(isMigResourceName(name) ? Kind::Mig
                            : isNeuronDeviceResourceName(name) ? Kind::NeuronDevice
                            : isNeuronCoreResourceName(name)   ? Kind::NeuronCore
                                                               : Kind::Other);
        }
        return kinds[key];
    };
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const NodeId n(i);
        t.wholeGpuAllocatableMilli += store.nodeAllocatable(n)[CoreResource::Gpu];
        t.wholeGpuRequestedMilli += store.nodeRequested(n)[CoreResource::Gpu];
        bool hasMig = false;
        std::int64_t nodeSlices = 0;
        std::int64_t nodeSlicesRequested = 0;
        for (const auto& [key, amount] : store.nodeExtendedAllocatable(n)) {
            const std::int64_t requested = store.nodeExtendedRequested(n, key);
            switch (kindOf(key)) {
            case Kind::Mig:
                hasMig = hasMig || amount > 0;
                nodeSlices += amount;
                nodeSlicesRequested += requested;
                t.migSlicesAllocatable += amount;
                t.migSlicesRequested += requested;
                break;
            case Kind::NeuronDevice:
                t.neuronDevicesAllocatable += amount;
                t.neuronDevicesRequested += requested;
                break;
            case Kind::NeuronCore:
                t.neuronCoresAllocatable += amount;
                t.neuronCoresRequested += requested;
                break;
            case Kind::Other: break;
            }
        }
        if (hasMig && store.nodeCapacity(n)[CoreResource::Gpu] == 0) {
            const std::int64_t gpus = store.nodeGpuCount(n);
            t.migPartitionedGpus += gpus;
            if (nodeSlices > 0 && nodeSlicesRequested > 0)
                t.migPartitionedGpusRequested += std::min(gpus, (nodeSlicesRequested * gpus + nodeSlices - 1) / nodeSlices);
        }
    }
    return t;
}

} // namespace fleet::model
