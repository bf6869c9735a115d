// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which GPU of a node a pod holds: the one rule the ledger (scheduling/planledger.h), the
// map's GPU tiles and the GPU fragmentation metric share. Inputs never say which device a pod
// was given (the kubelet's device plugin decides; the Alibaba trace gives only a share of one
// GPU), so Fleetscope assigns devices as the FGD simulator's GPU-sharing allocator does
// (PROTOCOL.md section 3, "a pod asking for a share of one GPU lands on one GPU with that much
// free"): a share goes to the GPU it leaves with the least free; whole GPUs go to the least used.
//
// Thread: pure functions over a store that is not being mutated; any thread.

#include "model/clusterstore.h"

#include <array>
#include <cstdint>
#include <span>

namespace fleet::model {

/// Nodes with more GPUs than this are not tracked device by device (none exist today; a
/// GPU mask is 64 bits).
inline constexpr int kMaxTrackedGpus = 64;

/// The number of GPUs of node n tracked one by one: ClusterStore::nodeGpuCount() when the
/// node has nvidia.com/gpu allocatable and 1..kMaxTrackedGpus GPUs; else 0 (CPU nodes, MIG
/// nodes whose GPUs are slices, nodes with more GPUs). O(1).
[[nodiscard]] int trackedGpuCount(const ClusterStore& store, NodeId n) noexcept;

/// Takes devices of one node for a pod and adds its use to `usedMilli` (milli-GPU used per
/// device, 0..1000; over 1000 only for over-committed input). Returns the mask of devices
/// taken (bit i: device i), 0 when the pod asks for no GPU or the node has none.
///  - `shareMilli` > 0 (a share of one GPU, ClusterStore::podGpuShareMilli()): the device in
///    `preferred` when it is one device with room, else the device the share leaves with the
///    least free among those with room (ties: the lowest index), else (over-committed input)
///    the least used device.
///  - else ceil(gpuMilli / 1000) whole devices (at most the node's): `preferred` when it has
///    that many devices, all unused; else the least used devices one by one (ties: lowest index).
/// O(devices x devices taken).
std::uint64_t takeGpuDevices(std::span<std::int32_t> usedMilli, std::int64_t gpuMilli, std::int32_t shareMilli,
    std::uint64_t preferred = 0) noexcept;

/// The milli-GPU used on each tracked device of node n as loaded: the node's counted pods
/// (ClusterStore::nodePods(), in pod order, the order the ledger places them in) through
/// takeGpuDevices(). Writes trackedGpuCount() entries of `usedMilli` and returns that count
/// (0: untracked, nothing written). O(pods on the node x devices).
int loadedGpuDeviceUse(const ClusterStore& store, NodeId n, std::span<std::int32_t, kMaxTrackedGpus> usedMilli) noexcept;

} // namespace fleet::model
