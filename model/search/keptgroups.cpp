// SPDX-License-Identifier: Apache-2.0
#include "keptgroups.h"

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
    std::map<std::string, KeptGroup> groups;
    for (const KeptNode& k : kept) {
        KeptGroup& g = groups[keptGroupCode(k.reason)];
        g.kind = k.reason.kind;
        ++g.nodes;
    }
    std::vector<KeptGroup> out;
    out.reserve(groups.size());
    for (auto& [code, g] : groups) {
        g.code = code;
        out.push_back(std::move(g));
    }
    // The map gives code order; a stable sort by count keeps it among equal counts.
    std::stable_sort(out.begin(), out.end(), [](const KeptGroup& a, const KeptGroup& b) { return a.nodes > b.nodes; });
    return out;
}

} // namespace fleet::model
