// SPDX-License-Identifier: Apache-2.0
// Typical pods and node fragmentation (typicalpods.h; PROTOCOL.md 4.1).
#include "typicalpods.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace fleet::model {

namespace {
constexpr std::string_view kGpuModelLabel = "alibabacloud.com/gpu-card-model";
}

std::vector<std::string> podGpuModels(const ClusterStore& store, PodId p)
{
    std::vector<std::string> models;
    const StringId key = store.strings().find(kGpuModelLabel);
    if (!key.isValid())
        return models;
    for (const NodeSelectorTerm& t : store.podRequiredAffinity(p))
        for (const NodeSelectorRequirement& r : t.requirements)
            if (!r.matchField && r.key == key && r.op == SelectorOperator::In)
                for (const StringId v : r.values)
                    models.emplace_back(store.str(v));
    return models;
}

std::vector<TypicalPod> typicalPods(const ClusterStore& store, std::span<const PodId> pods, const TypicalPodOptions& options)
{
    // Key: (cpu, m, k, spec); the map keeps one entry per key.
    std::map<std::tuple<std::int64_t, std::int32_t, std::int32_t, std::string>, TypicalPod> groups;
    std::size_t total = 0;
    for (const PodId p : pods) {
        if (!options.includeDaemonSets && store.podOwnerKind(p) == OwnerKind::DaemonSet)
            continue;
        PodShape s = podShape(store, p);
        if (!options.includeCpuOnly && s.gpuCount == 0)
            continue;
        s.memoryBytes = 0;
        std::vector<std::string> models = s.gpuCount == 0 ? std::vector<std::string> {} : podGpuModels(store, p);
        std::string spec;
        for (const std::string& m : models)
            spec += (spec.empty() ? "" : "|") + m;
        auto [it, added] = groups.try_emplace({ s.cpuMilli, s.gpuMilli, s.gpuCount, spec });
        if (added) {
            it->second.shape = s;
            it->second.spec = spec;
            it->second.models = std::move(models);
        }
        ++it->second.count;
        ++total;
    }
    std::vector<TypicalPod> sorted;
    sorted.reserve(groups.size());
    for (auto& [key, t] : groups)
        sorted.push_back(std::move(t));
    std::sort(sorted.begin(), sorted.end(), [](const TypicalPod& a, const TypicalPod& b) {
        return std::tie(a.count, a.shape.cpuMilli, a.shape.gpuMilli, a.shape.gpuCount, a.spec)
            > std::tie(b.count, b.shape.cpuMilli, b.shape.gpuMilli, b.shape.gpuCount, b.spec);
    });
    for (TypicalPod& t : sorted)
        t.probability = static_cast<double>(t.count) / static_cast<double>(total);
    return limitCoverage(std::move(sorted), options.coverage);
}

std::vector<TypicalPod> limitCoverage(std::vector<TypicalPod> sorted, double coverage)
{
    std::size_t total = 0;
    for (const TypicalPod& t : sorted)
        total += t.count;
    if (total == 0)
        return sorted;
    std::size_t kept = 0, keptCount = 0;
    while (kept < sorted.size() && static_cast<double>(keptCount) < coverage * static_cast<double>(total))
        keptCount += sorted[kept++].count;
    sorted.resize(kept);
    for (TypicalPod& t : sorted)
        t.probability = static_cast<double>(t.count) / static_cast<double>(keptCount);
    return sorted;
}

std::vector<std::uint8_t> typicalModelsAllowed(std::string_view nodeModel, const std::vector<TypicalPod>& typical)
{
    std::vector<std::uint8_t> allowed(typical.size(), 1);
    for (std::size_t t = 0; t < typical.size(); ++t)
        if (!typical[t].models.empty())
            allowed[t] = std::find(typical[t].models.begin(), typical[t].models.end(), nodeModel) != typical[t].models.end() ? 1 : 0;
    return allowed;
}

double nodeFragmentation(std::int64_t cpuFree, std::span<const std::int32_t> gpuFree, const std::vector<TypicalPod>& typical,
    std::span<const std::uint8_t> allowed) noexcept
{
    std::int64_t sigma = 0;
    for (const std::int32_t f : gpuFree)
        sigma += f;
    double frag = 0;
    for (std::size_t t = 0; t < typical.size(); ++t) {
        const PodShape& s = typical[t].shape;
        std::int64_t fragT = sigma;
        if (s.gpuMilli > 0 && allowed[t] && cpuFree >= s.cpuMilli) {
            int fitting = 0;
            std::int64_t below = 0;
            for (const std::int32_t f : gpuFree) {
                if (f >= s.gpuMilli)
                    ++fitting;
                else
                    below += f;
            }
            if (fitting >= s.gpuCount)
                fragT = below;
        }
        frag += typical[t].probability * static_cast<double>(fragT);
    }
    return frag;
}

} // namespace fleet::model
