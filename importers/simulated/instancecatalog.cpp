// SPDX-License-Identifier: Apache-2.0
// Node shapes of the simulated fleet's instance types: capacity, and allocatable after the
// EKS optimized AMI's kubelet reservations (see instancecatalog.h).

#include "instancecatalog.h"

namespace fleet::importers::simulated {

using model::CoreResource;

std::int64_t reservedCpuMilli(int vcpu)
{
    std::int64_t tenthsOfMilli = 0; // in 0.1 millicores, to keep the 0.25% exact
    for (int core = 1; core <= vcpu; ++core)
        tenthsOfMilli += core == 1 ? 600 : core == 2 ? 100 : core <= 4 ? 50 : 25;
    return (tenthsOfMilli + 9) / 10;
}

int maxPodsFor(const InstanceType& t)
{
    return t.vcpu < 30 ? 110 : 250;
}

NodeShape shapeFor(const InstanceType& t, int migProfile)
{
    NodeShape s;
    const int maxPods = maxPodsFor(t);
    // The kernel keeps part of the nominal memory: MemTotal is about 96.5% of it.
    const std::int64_t memCapacity = t.memoryGiB * kGiB / 1000 * 965 / 4096 * 4096;
    const std::int64_t rootBytes = t.rootVolumeGiB * kGiB;
    s.capacity.core[CoreResource::Cpu] = std::int64_t { t.vcpu } * 1000;
    s.capacity.core[CoreResource::Memory] = memCapacity;
    s.capacity.core[CoreResource::Pods] = maxPods;
    s.capacity.core[CoreResource::EphemeralStorage] = rootBytes;
    s.capacity.core[CoreResource::Gpu] = migProfile ? 0 : std::int64_t { t.gpus } * 1000;
    s.capacity.ext[kEfa] = t.efa;
    s.capacity.ext[kNeuron] = t.neuronDevices;
    s.capacity.ext[kNeuronCore] = std::int64_t { t.neuronDevices } * 8;
    s.capacity.ext[kMig1g] = migProfile == 1 ? std::int64_t { t.gpus } * 7 : 0;
    s.capacity.ext[kMig3g] = migProfile == 3 ? std::int64_t { t.gpus } * 2 : 0;
    s.allocatable = s.capacity;
    s.allocatable.core[CoreResource::Cpu] -= reservedCpuMilli(t.vcpu);
    // kube-reserved memory 255 MiB + 11 MiB per pod; eviction-hard memory.available 100Mi.
    s.allocatable.core[CoreResource::Memory] -= (255 + 11 * std::int64_t { maxPods }) * kMiB + 100 * kMiB;
    // kube-reserved ephemeral-storage 1Gi; eviction-hard nodefs.available 10%.
    s.allocatable.core[CoreResource::EphemeralStorage] -= kGiB + rootBytes / 10;
    return s;
}

} // namespace fleet::importers::simulated
