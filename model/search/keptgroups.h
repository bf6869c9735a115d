// SPDX-License-Identifier: Apache-2.0
#pragma once
// The nodes a consolidation keeps, grouped by why: one rule for the command line's summary
// (`plan consolidate`: text and the JSON's keptByCode) and the window's list of nodes that stay,
// so that both count the same groups.

#include "model/search/consolidation.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::model {

/// One group of kept nodes: its code, the kind of its reason and how many nodes it holds.
/// For the no-feasible-node group, also the blocking filter (KeptNode::blocking) its entries
/// name most often, how many entries name it, and the most nodes it rejects for one of them
/// (entries are judged under different states, so their node counts are not added up).
struct KeptGroup {
    std::string code; // a reason code ("insufficient-nvidia.com/gpu"), or a kind's stem then "*"
    ReasonKind kind = ReasonKind::Count;
    std::int64_t nodes = 0;
    std::string blockingCode;         // "" when no entry names one
    std::int64_t blockingEntries = 0; // entries naming blockingCode
    std::int64_t blockingNodes = 0;   // the largest BlockingFilter::nodes among them
    std::int64_t blockingOf = 0;      // that entry's BlockingFilter::of
};

/// "untolerated-taint:a=b:NoSchedule for 12 of 15 entries (rejects up to 8,000 of 9,999 other
/// nodes)"; "" when the group names no blocking filter. Thread: any.
[[nodiscard]] std::string keptGroupBlockingText(const KeptGroup& group);

/// The group code of one kept node's reason: its code, except for a kind whose detail names one
/// object (a budget, a pod, a node group, a port, what a plan lacks), grouped by its kind as
/// "disruption-budget:*": one group per budget would bury the figures. Thread: any.
[[nodiscard]] std::string keptGroupCode(const Reason& reason);

/// A group's description for people: the kind's one-line summary (reasonKindInfo), e.g. "no node
/// passes every filter". Thread: any.
[[nodiscard]] std::string_view keptGroupDescription(ReasonKind kind) noexcept;

/// The kept nodes by group code: the most nodes first, ties by code. The nodes of the groups add
/// up to kept.size(). The blocking filter of a group: the code most entries name, ties by the
/// code's text. O(kept log groups). Thread: any.
[[nodiscard]] std::vector<KeptGroup> keptByCode(std::span<const KeptNode> kept);

} // namespace fleet::model
