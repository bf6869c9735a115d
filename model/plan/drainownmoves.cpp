// SPDX-License-Identifier: Apache-2.0
#include "model/plan/drainownmoves.h"

#include "model/plan/plan.h"

namespace fleet::model {

std::vector<bool> drainOwnMoves(std::span<const AppliedAction> actions)
{
    std::vector<bool> own(actions.size(), false);
    for (std::size_t i = 0; i < actions.size(); ++i) {
        const AppliedAction& drain = actions[i];
        if (drain.action.type != ActionType::DrainNode || !drain.holds || drain.nodesRemoved.empty())
            continue;
        const NodeId drained = drain.nodesRemoved.front();
        for (std::size_t j = i; j > 0; --j) {
            const AppliedAction& m = actions[j - 1];
            if (m.action.type != ActionType::MovePod || !m.holds || m.changes.size() != 1 || m.changes.front().from != drained)
                break;
            own[j - 1] = true;
        }
    }
    return own;
}

} // namespace fleet::model
