// SPDX-License-Identifier: Apache-2.0
#include "keptgroups.h"

#include "model/figures.h"

#include <algorithm>
#include <map>

namespace fleet::model {

std::string keptGroupCode(const Reason& reason)
{
    using K = ReasonKind;
    const K kind = reason.kind;
    const bool perObject = kind == K::DisruptionBudget || kind == K::PodAntiAffinity || kind == K::NodeGroupMinimum
        || kind == K::HostPortConflict || kind == K::NotFound;
    return perObject ? std::string(reasonKindInfo(kind).stem) + "*" : reason.code();
}

std::string_view keptGroupDescription(ReasonKind kind) noexcept
{
    return kind == ReasonKind::Count ? std::string_view() : reasonKindInfo(kind).summary;
}

std::vector<KeptGroup> keptByCode(std::span<const KeptNode> kept)
{
    struct Blocking {
        std::int64_t entries = 0, nodes = 0, of = 0;
    };
    std::map<std::string, KeptGroup> groups;
    std::map<std::string, std::map<std::string, Blocking>> blocking; // group -> blocking code -> figures
    for (const KeptNode& k : kept) {
        const std::string code = keptGroupCode(k.reason);
        KeptGroup& g = groups[code];
        g.kind = k.reason.kind;
        ++g.nodes;
        if (k.blocking.code.empty())
            continue;
        Blocking& b = blocking[code][k.blocking.code];
        ++b.entries;
        if (k.blocking.nodes > b.nodes || b.entries == 1) {
            b.nodes = k.blocking.nodes;
            b.of = k.blocking.of;
        }
    }
    std::vector<KeptGroup> out;
    out.reserve(groups.size());
    for (auto& [code, g] : groups) {
        g.code = code;
        if (auto it = blocking.find(code); it != blocking.end())
            for (const auto& [blockingCode, b] : it->second) // code order: the first of equal counts wins
                if (b.entries > g.blockingEntries) {
                    g.blockingCode = blockingCode;
                    g.blockingEntries = b.entries;
                    g.blockingNodes = b.nodes;
                    g.blockingOf = b.of;
                }
        out.push_back(std::move(g));
    }
    // The map gives code order; a stable sort by count keeps it among equal counts.
    std::stable_sort(out.begin(), out.end(), [](const KeptGroup& a, const KeptGroup& b) { return a.nodes > b.nodes; });
    return out;
}

std::string keptGroupBlockingText(const KeptGroup& group)
{
    if (group.blockingCode.empty())
        return {};
    return group.blockingCode + " for " + formatCount(group.blockingEntries) + " of " + formatCount(group.nodes)
        + (group.nodes == 1 ? " entry" : " entries") + " (rejects up to " + formatCount(group.blockingNodes) + " of "
        + formatCount(group.blockingOf) + (group.blockingOf == 1 ? " other node)" : " other nodes)");
}

} // namespace fleet::model
