// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a plan changed, as the map's plan layer draws it: the nodes a plan touched,
// those it emptied and those it took away. Built by the app from the PlanEngine's applied
// actions (views/plan/planmarksbuilder.h); a value the map shares, never edits.

#include "model/ids.h"

#include <utility>
#include <vector>

namespace fleet::views {

struct PlanMarks {
    /// Nodes a pod moved to or from, still present under the plan (outlined).
    std::vector<model::NodeId> changed;
    /// Present nodes that held pods (other than DaemonSet and mirror pods) before the plan
    /// and hold none after: removable (marked with a white cross).
    std::vector<model::NodeId> emptied;
    /// Nodes the plan drained or failed: gone under the plan (darkened, a red cross).
    std::vector<model::NodeId> removed;
    /// Destinations of moves applied as an override although infeasible (a red outline).
    std::vector<model::NodeId> violations;
    /// Nodes the plan added (AddNode) and present, each with the domain it was added in (the
    /// root when the action named none), in id order: not in the store, drawn by
    /// AddedNodeLayer beside their domain.
    std::vector<std::pair<model::NodeId, model::DomainId>> added;

    [[nodiscard]] bool empty() const noexcept
    {
        return changed.empty() && emptied.empty() && removed.empty() && violations.empty() && added.empty();
    }
};

} // namespace fleet::views
