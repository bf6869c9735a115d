#pragma once
// The map's plan marks (views/map/planmarks.h) from a PlanEngine's applied actions.

#include "model/plan/plan.h"
#include "views/map/planmarks.h"

#include <memory>

namespace fleet::views {

/// Changed, emptied, removed and violating nodes of the plan, store nodes only (added nodes
/// are not on the map), each list sorted and without duplicates; null when the plan has no
/// actions. O(changes + pods of the changed nodes). Thread: the engine's thread.
[[nodiscard]] std::shared_ptr<const PlanMarks> buildPlanMarks(const model::PlanEngine& engine);

} // namespace fleet::views
