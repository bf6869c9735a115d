// SPDX-License-Identifier: Apache-2.0
#pragma once
// GpuMasks: the ledger's GPU devices (scheduling/planledger.h). For each node, the milli-GPU
// used on each of its tracked devices; for each pod that holds devices, which ones (a mask,
// bit i: device i), under the plan and as loaded. Which device a pod takes is the one rule in
// model/gpudevices.h; this class only keeps the books, so that moving a pod back home gives it
// the devices it had.
//
// Design note: the devices of every node are one flat vector with a start offset per node
// (size nodes + 1), since most nodes have none or eight; added nodes append their range, and
// removing the last added node drops it. Masks are kept only for pods that hold a device.
// Internal to model/scheduling. Thread: one writer, or many readers.

#include "model/ids.h"

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace fleet::model {

class ClusterStore;

namespace scheduling {

class GpuMasks {
public:
    /// One range per store node, trackedGpuCount() devices long, all unused; no masks. O(nodes).
    void reset(const ClusterStore& store);

    /// The milli-GPU used on each tracked device of node n (0..1000; more only for
    /// over-committed input); empty when the node's GPUs are not tracked. O(1).
    [[nodiscard]] std::span<const std::int32_t> used(NodeId n) const noexcept
    {
        return { m_used.data() + m_begin[n.index()], m_used.data() + m_begin[n.index() + 1] };
    }

    /// Takes devices of node n for pod p (takeGpuDevices(): `gpuMilli` requested, `shareMilli`
    /// > 0 for a share of one GPU, `preferred` the devices to take when they have room) and
    /// records the mask under the plan. Returns it; 0 (nothing recorded) when the pod asks for
    /// no GPU or the node's GPUs are not tracked.
    std::uint64_t take(PodId p, NodeId n, std::int64_t gpuMilli, std::int32_t shareMilli, std::uint64_t preferred);

    /// Gives back the devices pod p holds on node n under the plan: `shareMilli` from each when
    /// it is a share, else a whole GPU (1000) each; forgets its mask. No-op when it holds none.
    void release(PodId p, NodeId n, std::int32_t shareMilli);

    /// The devices pod p holds under the plan (0: none). O(1).
    [[nodiscard]] std::uint64_t held(PodId p) const noexcept { return find(m_held, p); }
    /// The devices pod p held as loaded (0: none, or not yet marked). O(1).
    [[nodiscard]] std::uint64_t heldAsLoaded(PodId p) const noexcept { return find(m_loaded, p); }
    /// Records the masks held now as the loaded state (after the store's pods are placed).
    void markLoaded() { m_loaded = m_held; }

    /// Appends a node with as many devices as `templateNode`, all unused.
    void addNodeLike(NodeId templateNode);
    /// Drops the last node's range (its devices must be unused).
    void popNode();

private:
    using Masks = std::unordered_map<std::uint32_t, std::uint64_t>; // PodId value -> mask
    [[nodiscard]] static std::uint64_t find(const Masks& masks, PodId p) noexcept
    {
        const auto it = masks.find(p.value);
        return it == masks.end() ? 0 : it->second;
    }

    std::vector<std::uint32_t> m_begin; // into m_used, size nodes + 1; empty range: not tracked
    std::vector<std::int32_t> m_used;
    Masks m_held;   // GPUs held under the plan
    Masks m_loaded; // GPUs held in the loaded state
};

} // namespace scheduling

} // namespace fleet::model
