// SPDX-License-Identifier: Apache-2.0
#pragma once
// The catalogue the simulated fleet draws its nodes from: EC2 instance types with their
// published shapes, the node pool kinds (training, MIG, inference, CPU) and their shares of
// the fleet, the extended resources the simulation uses, and the node shape (capacity and
// allocatable under the EKS optimized AMI's kubelet reservations) of each instance type.
// Internal to importers/simulated/; the public entry point is simulatedcluster.h.

#include "model/resources.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace fleet::importers::simulated {

inline constexpr std::int64_t kMiB = 1024 * 1024;
inline constexpr std::int64_t kGiB = 1024 * kMiB;

// ---------------------------------------------------------------------------------------
// Instance types. Shapes from aws.amazon.com/ec2/instance-types (accelerated computing,
// general purpose, compute and memory optimized); EFA interface counts from the EC2 user
// guide ("Supported instance types" for EFA); Trainium2: 16 chips of 8 NeuronCores.

enum class Role : std::uint8_t { Training, Mig, Inference, Cpu };

struct InstanceType {
    const char* name;
    const char* shortName; // for node group names
    const char* gpuProduct; // nvidia.com/gpu.product
    std::int64_t memoryGiB;
    std::int64_t rootVolumeGiB;
    int vcpu;
    int gpus; // NVIDIA GPUs
    int gpuMemoryMiB; // nvidia.com/gpu.memory
    int neuronDevices; // Trainium chips
    int efa; // vpc.amazonaws.com/efa
};

inline constexpr InstanceType kTypes[] = {
    { "p5.48xlarge", "p5", "NVIDIA-H100-80GB-HBM3", 2048, 500, 192, 8, 81559, 0, 32 },
    { "p5e.48xlarge", "p5e", "NVIDIA-H200", 2048, 500, 192, 8, 143771, 0, 32 },
    { "p5en.48xlarge", "p5en", "NVIDIA-H200", 2048, 500, 192, 8, 143771, 0, 16 },
    { "p6-b200.48xlarge", "p6b200", "NVIDIA-B200", 2048, 500, 192, 8, 183359, 0, 8 },
    { "trn2.48xlarge", "trn2", nullptr, 2048, 500, 192, 0, 0, 16, 16 },
    { "g5.xlarge", "g5xl", "NVIDIA-A10G", 16, 200, 4, 1, 23028, 0, 0 },
    { "g5.2xlarge", "g52xl", "NVIDIA-A10G", 32, 200, 8, 1, 23028, 0, 0 },
    { "g5.12xlarge", "g512xl", "NVIDIA-A10G", 192, 200, 48, 4, 23028, 0, 0 },
    { "g5.48xlarge", "g548xl", "NVIDIA-A10G", 768, 200, 192, 8, 23028, 0, 1 },
    { "g6e.xlarge", "g6exl", "NVIDIA-L40S", 32, 200, 4, 1, 46068, 0, 0 },
    { "g6e.12xlarge", "g6e12xl", "NVIDIA-L40S", 384, 200, 48, 4, 46068, 0, 0 },
    { "g6e.48xlarge", "g6e48xl", "NVIDIA-L40S", 1536, 200, 192, 8, 46068, 0, 4 },
    { "m7i.4xlarge", "m7i4xl", nullptr, 64, 100, 16, 0, 0, 0, 0 },
    { "m7i.8xlarge", "m7i8xl", nullptr, 128, 100, 32, 0, 0, 0, 0 },
    { "m7i.24xlarge", "m7i24xl", nullptr, 384, 100, 96, 0, 0, 0, 0 },
    { "c7i.8xlarge", "c7i8xl", nullptr, 64, 100, 32, 0, 0, 0, 0 },
    { "c7i.16xlarge", "c7i16xl", nullptr, 128, 100, 64, 0, 0, 0, 0 },
    { "r7i.8xlarge", "r7i8xl", nullptr, 256, 100, 32, 0, 0, 0, 0 },
};
inline constexpr std::size_t kP5 = 0;

// A pool kind: its role, the instance types it draws from, group sizes (nodes) and its
// share of the fleet's nodes (per mille).
struct PoolKind {
    Role role;
    std::array<std::uint8_t, 4> types; // indices into kTypes; 255 = unused
    std::uint32_t minNodes;
    std::uint32_t maxNodes;
    std::uint32_t sharePerMille;
};

// Training pools: p5, p5e, p5en, p6-b200, trn2; MIG: p5; inference: g5, g6e; CPU: m7i, c7i/r7i.
inline constexpr PoolKind kPools[] = {
    { Role::Training, { 0, 255, 255, 255 }, 32, 384, 180 },
    { Role::Training, { 1, 255, 255, 255 }, 32, 256, 60 },
    { Role::Training, { 2, 255, 255, 255 }, 32, 384, 100 },
    { Role::Training, { 3, 255, 255, 255 }, 32, 256, 60 },
    { Role::Training, { 4, 255, 255, 255 }, 32, 384, 100 },
    { Role::Mig, { kP5, 255, 255, 255 }, 8, 32, 20 },
    { Role::Inference, { 5, 6, 7, 8 }, 8, 96, 80 },
    { Role::Inference, { 9, 10, 11, 255 }, 8, 96, 80 },
    { Role::Cpu, { 12, 13, 14, 255 }, 16, 200, 170 },
    { Role::Cpu, { 15, 16, 17, 255 }, 16, 200, 150 },
};

// ---------------------------------------------------------------------------------------
// Resources.

// Extended resources the simulation uses, in a fixed order.
enum Ext : std::uint8_t { kEfa, kNeuron, kNeuronCore, kMig1g, kMig3g, kExtCount };
inline constexpr const char* kExtNames[kExtCount] = { "vpc.amazonaws.com/efa", "aws.amazon.com/neuron",
    "aws.amazon.com/neuroncore", "nvidia.com/mig-1g.10gb", "nvidia.com/mig-3g.40gb" };

// Core and extended amounts in local units, for the generator's fit checks.
struct Amounts {
    model::ResourceVector core;
    std::array<std::int64_t, kExtCount> ext {};

    [[nodiscard]] bool fitsIn(const Amounts& free) const noexcept
    {
        for (std::size_t i = 0; i < model::kCoreResourceCount; ++i)
            if (core.amounts[i] > free.core.amounts[i])
                return false;
        for (std::size_t i = 0; i < kExtCount; ++i)
            if (ext[i] > free.ext[i])
                return false;
        return true;
    }
    void subtractFrom(Amounts& free) const noexcept
    {
        free.core -= core;
        for (std::size_t i = 0; i < kExtCount; ++i)
            free.ext[i] -= ext[i];
    }
};

// kube-reserved CPU of the EKS optimized AMI (amazon-eks-ami, bootstrap "get_cpu_millicores_to_reserve"):
// 6% of the first core, 1% of the second, 0.5% of the next two, 0.25% of every core above four.
[[nodiscard]] std::int64_t reservedCpuMilli(int vcpu);

// EKS "maximum Pods per node" with prefix delegation: 110 below 30 vCPUs, else 250.
[[nodiscard]] int maxPodsFor(const InstanceType& t);

struct NodeShape {
    Amounts capacity;
    Amounts allocatable;
};

// The capacity and allocatable of a node of type `t`; migProfile 0 none, 1 = all 1g.10gb,
// 3 = all 3g.40gb (MIG mixed strategy: slices replace nvidia.com/gpu).
[[nodiscard]] NodeShape shapeFor(const InstanceType& t, int migProfile);

} // namespace fleet::importers::simulated
