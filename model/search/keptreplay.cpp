// SPDX-License-Identifier: Apache-2.0
#include "keptreplay.h"

#include "consolidation_p.h"

#include <exception>

namespace fleet::model {

using consolidation_detail::DrainRunner;

std::optional<KeptReplay> replayConsolidationKept(
    const ClusterStore& store, const Topology& topology, const ConsolidationInput& input, const std::vector<PlanAction>& plan)
{
    std::size_t first = plan.size();
    while (first > 0 && plan[first - 1].type == ActionType::DrainNode)
        --first;
    if (first == plan.size())
        return std::nullopt;
    ConsolidationOptions options;
    options.startFrom.assign(plan.begin(), plan.begin() + static_cast<std::ptrdiff_t>(first));
    options.placePendingFirst = false; // the plan's own moves, in options.startFrom
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
        if (plan[i].policy != options.policy || plan[i].domain.empty() != domain.empty())
            return std::nullopt;
        const NodeId n = store.findNode(plan[i].node);
        if (!n.isValid())
            return std::nullopt;
        drains.push_back(n);
    }
    try {
        DrainRunner runner(store, topology, input, options);
        // The orders are run as consolidate() runs them, each to its end, until one gives the
        // plan's drains: the blocking-filter tallies in the kept messages are judged once per pod
        // class for the whole search (consolidation_p.h), at the first refusal in any order, so
        // the orders before the plan's must have run for its messages to be the search's.
        bool used = false;
        for (const consolidation_detail::DrainOrder& order : consolidation_detail::drainOrders(runner)) {
            if (used)
                runner.reset();
            used = true;
            std::size_t next = 0;
            bool same = true;
            for (const NodeId n : order.nodes) {
                const bool drained = next < drains.size() && drains[next] == n;
                if (runner.tryDrain(n) != drained)
                    same = false;
                next += drained ? 1 : 0;
            }
            if (same && next == drains.size())
                return KeptReplay { runner.finish(order.name).kept, order.name };
        }
    } catch (const std::exception&) { // an action the state lacks, a keep-within level it does not have
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace fleet::model
