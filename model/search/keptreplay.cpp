// SPDX-License-Identifier: Apache-2.0
#include "keptreplay.h"

#include "consolidation_p.h"

#include <exception>

namespace fleet::model {

using consolidation_detail::DrainRunner;

std::optional<KeptReplay> replayConsolidationKept(
    const ClusterStore& store, const Topology& topology, const ConsolidationInput& input, const std::vector<PlanAction>& plan)
{
    // The search's part: the trailing run of drain-node and move-pod actions (one move per pod,
    // consolidation.h: a drained node's moves, then its drain) from its first drain-node, with the
    // moves right before that drain whose pods are on its node then (the drain's own moves).
    std::size_t first = plan.size();
    for (std::size_t i = plan.size(); i > 0 && (plan[i - 1].type == ActionType::DrainNode || plan[i - 1].type == ActionType::MovePod); --i)
        if (plan[i - 1].type == ActionType::DrainNode)
            first = i - 1;
    if (first == plan.size())
        return std::nullopt;
    // Whether pod `pod` is on node `node` before action j: where the last move-pod of it before j
    // put it, else where the store has it.
    auto onNodeBefore = [&](std::size_t j, const PodRef& pod, const std::string& node) {
        for (std::size_t i = j; i > 0; --i)
            if (plan[i - 1].type == ActionType::MovePod && plan[i - 1].pod == pod)
                return plan[i - 1].node == node;
        const PodId p = store.findPod(pod.namespaceName, pod.name);
        return p.isValid() && store.podNode(p).isValid() && store.nodeName(store.podNode(p)) == node;
    };
    std::size_t start = first;
    while (start > 0 && plan[start - 1].type == ActionType::MovePod && onNodeBefore(start - 1, plan[start - 1].pod, plan[first].node))
        --start;
    // The pending pods placed first name the node each ends on (consolidation.h, "One move per
    // pod"), not where the search put them before its drains: the moves of pods the store has
    // pending right before the search's part are left to the runner, which places them as the
    // search did (a plan written before that rule placed them there too).
    std::size_t searchFrom = start;
    auto pendingInStore = [&](const PodRef& pod) {
        const PodId p = store.findPod(pod.namespaceName, pod.name);
        return p.isValid() && !store.podNode(p).isValid();
    };
    while (searchFrom > 0 && plan[searchFrom - 1].type == ActionType::MovePod && pendingInStore(plan[searchFrom - 1].pod))
        --searchFrom;
    ConsolidationOptions options;
    options.startFrom.assign(plan.begin(), plan.begin() + static_cast<std::ptrdiff_t>(searchFrom));
    options.placePendingFirst = searchFrom < start;
    options.policy = plan[first].policy;
    // A drain's domain is its node's domain of the keep-within level: the path's last step names the level.
    const std::string& domain = plan[first].domain;
    if (!domain.empty()) {
        const std::size_t slash = domain.rfind('/');
        const std::string step = domain.substr(slash == std::string::npos ? 0 : slash + 1);
        const std::size_t eq = step.find('=');
        if (eq == std::string::npos)
            return std::nullopt;
        options.keepWithinLabel = step.substr(0, eq);
    }
    std::vector<NodeId> drains;
    for (std::size_t i = first; i < plan.size(); ++i) {
        if (plan[i].type == ActionType::MovePod)
            continue;
        if (plan[i].policy != options.policy || plan[i].domain.empty() != domain.empty())
            return std::nullopt;
        const NodeId n = store.findNode(plan[i].node);
        if (!n.isValid())
            return std::nullopt;
        drains.push_back(n);
    }
    try {
        DrainRunner runner(store, topology, input, options);
        // The search is run as consolidate() runs it (searchDrains(): the orders, then the
        // promotion passes), until a pass gives the plan's drains: the blocking-filter tallies in
        // the kept messages are judged once per pod class for the whole search
        // (consolidation_p.h), at the first refusal in any pass, so the passes before the plan's
        // must have run for its messages to be the search's.
        std::optional<KeptReplay> found;
        (void)consolidation_detail::searchDrains(runner, true, std::nullopt, [&](const ConsolidationResult& r) {
            if (r.drained != drains)
                return false;
            found = KeptReplay { r.kept, r.order };
            return true;
        });
        return found;
    } catch (const std::exception&) { // an action the state lacks, a keep-within level it does not have
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace fleet::model
