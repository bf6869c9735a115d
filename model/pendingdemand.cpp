// SPDX-License-Identifier: Apache-2.0
#include "pendingdemand.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

namespace fleet::model {

namespace {

// A shape: the pod's core request, its extended requests and the GPU model it requires.
struct ShapeKey {
    ResourceVector request;
    std::vector<std::pair<ResourceKey, std::int64_t>> extended;
    std::string gpuModel;
    bool operator==(const ShapeKey&) const = default;
};

struct ShapeKeyHash {
    std::size_t operator()(const ShapeKey& k) const noexcept
    {
        std::size_t h = std::hash<std::string>{}(k.gpuModel);
        auto mix = [&](std::uint64_t v) { h ^= std::hash<std::uint64_t>{}(v) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
        for (const auto a : k.request.amounts)
            mix(static_cast<std::uint64_t>(a));
        for (const auto& [key, v] : k.extended) {
            mix(key);
            mix(static_cast<std::uint64_t>(v));
        }
        return h;
    }
};

struct Group {
    PendingShape shape;
    std::map<std::string_view, std::size_t> reasons;
};

} // namespace

std::string requiredGpuModel(const ClusterStore& store, PodId pod)
{
    auto isGpuModelKey = [&](StringId key) {
        const std::string_view k = store.str(key);
        return std::find(std::begin(kGpuModelLabelKeys), std::end(kGpuModelLabelKeys), k) != std::end(kGpuModelLabelKeys);
    };
    for (const Label& l : store.podNodeSelector(pod))
        if (isGpuModelKey(l.key))
            return std::string(store.str(l.value));
    // Required node affinity: the values of every In requirement on a GPU model key, over all
    // terms (ORed), in order of first appearance.
    std::vector<std::string_view> models;
    for (const NodeSelectorTerm& term : store.podRequiredAffinity(pod))
        for (const NodeSelectorRequirement& r : term.requirements)
            if (!r.matchField && r.op == SelectorOperator::In && isGpuModelKey(r.key))
                for (const StringId v : r.values)
                    if (std::find(models.begin(), models.end(), store.str(v)) == models.end())
                        models.push_back(store.str(v));
    std::string out;
    for (const std::string_view m : models) {
        if (!out.empty())
            out += ", ";
        out += m;
    }
    return out;
}

std::vector<PendingShape> groupPendingPods(const ClusterStore& store)
{
    std::unordered_map<ShapeKey, std::size_t, ShapeKeyHash> index;
    std::vector<Group> groups;
    ShapeKey key;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const PodId p(i);
        if (!store.podIsPending(p))
            continue;
        key.request = store.podRequest(p);
        key.extended.assign(store.podExtendedRequest(p).begin(), store.podExtendedRequest(p).end());
        key.gpuModel = requiredGpuModel(store, p);
        auto [it, inserted] = index.try_emplace(key, groups.size());
        if (inserted) {
            Group g;
            g.shape.request = key.request;
            g.shape.gpuModel = key.gpuModel;
            groups.push_back(std::move(g));
        }
        Group& g = groups[it->second];
        ++g.shape.podCount;
        g.shape.total += key.request;
        g.shape.pods.push_back(p);
        if (!store.podSchedulingGates(p).empty())
            ++g.shape.gatedPods;
        if (const std::string_view message = store.podSchedulingMessage(p); !message.empty())
            ++g.reasons[message];
    }
    std::vector<PendingShape> out;
    out.reserve(groups.size());
    for (Group& g : groups) {
        std::size_t best = 0;
        for (const auto& [message, count] : g.reasons)
            if (count > best) {
                best = count;
                g.shape.reason.assign(message);
            }
        out.push_back(std::move(g.shape));
    }
    std::stable_sort(out.begin(), out.end(), [](const PendingShape& a, const PendingShape& b) {
        if (a.podCount != b.podCount)
            return a.podCount > b.podCount;
        return a.request[CoreResource::Gpu] > b.request[CoreResource::Gpu];
    });
    return out;
}

} // namespace fleet::model
