// SPDX-License-Identifier: Apache-2.0
// The GPU device rule (gpudevices.h).
#include "model/gpudevices.h"

#include <algorithm>
#include <bit>

namespace fleet::model {

int trackedGpuCount(const ClusterStore& store, NodeId n) noexcept
{
    const std::int32_t count = store.nodeGpuCount(n);
    const bool tracked = store.nodeAllocatable(n)[CoreResource::Gpu] > 0 && count > 0 && count <= kMaxTrackedGpus;
    return tracked ? count : 0;
}

std::uint64_t takeGpuDevices(std::span<std::int32_t> used, std::int64_t gpuMilli, std::int32_t share, std::uint64_t preferred) noexcept
{
    const int count = static_cast<int>(std::min<std::size_t>(used.size(), kMaxTrackedGpus));
    if (gpuMilli <= 0 || count == 0)
        return 0;
    if (share > 0) {
        int pick = -1;
        if (preferred != 0) {
            const int i = std::countr_zero(preferred);
            if (i < count && used[i] + share <= 1000)
                pick = i;
        }
        if (pick < 0) {
            int best = -1;
            for (int j = 0; j < count; ++j)
                if (used[j] + share <= 1000 && (best < 0 || used[j] > used[best]))
                    best = j;
            if (best < 0) {
                best = 0;
                for (int j = 1; j < count; ++j)
                    if (used[j] < used[best])
                        best = j;
            }
            pick = best;
        }
        used[pick] += share;
        return std::uint64_t { 1 } << pick;
    }
    const int want = static_cast<int>(std::min<std::int64_t>((gpuMilli + 999) / 1000, count));
    std::uint64_t mask = 0;
    if (preferred != 0 && std::popcount(preferred) == want) {
        bool free = true;
        for (int i = 0; i < count; ++i)
            if ((preferred >> i & 1) && used[i] != 0)
                free = false;
        if (free)
            mask = preferred;
    }
    for (int taken = std::popcount(mask); taken < want; ++taken) {
        int best = -1;
        for (int j = 0; j < count; ++j)
            if (!(mask >> j & 1) && (best < 0 || used[j] < used[best]))
                best = j;
        mask |= std::uint64_t { 1 } << best;
    }
    for (int i = 0; i < count; ++i)
        if (mask >> i & 1)
            used[i] += 1000;
    return mask;
}

int loadedGpuDeviceUse(const ClusterStore& store, NodeId n, std::span<std::int32_t, kMaxTrackedGpus> usedMilli) noexcept
{
    const int count = trackedGpuCount(store, n);
    if (count == 0)
        return 0;
    const std::span<std::int32_t> used = usedMilli.first(static_cast<std::size_t>(count));
    std::fill(used.begin(), used.end(), 0);
    for (PodId p : store.nodePods(n))
        takeGpuDevices(used, store.podRequest(p)[CoreResource::Gpu], store.podGpuShareMilli(p));
    return count;
}

} // namespace fleet::model
