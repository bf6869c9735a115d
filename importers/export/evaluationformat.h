// SPDX-License-Identifier: Apache-2.0
#pragma once
// `plan check`'s outputs (what `plan check`, `save` and the window's plan exports write): the
// evaluation of a plan as JSON (resources/schemas/plan-v1.md, "Evaluation") and as terminal
// text, and the actions that do not hold in one line. The evaluation itself: evaluatePlan()
// (importers/plan/planfile.h). Pure; thread: any.

#include "importers/plan/planfile.h"

#include <cstddef>
#include <string>

namespace fleet::importers {

/// The evaluation as JSON: {"plan", "holds", "state", "sourceNote"?, "actions": [{"index", "type",
/// "subject", "holds", "reasons", "changes", "nodesAdded"?, "nodesRemoved"?, "unplaced"?}],
/// "before", "after"}, names as they are (JSON-escaped), with a final newline.
[[nodiscard]] std::string evaluationJson(const std::string& planName, const PlanEvaluation& evaluation, const model::ClusterStore& store);
/// The evaluation as terminal text: a line per action with its reasons, then the totals before
/// and after; every name escaped (terminalLine()).
[[nodiscard]] std::string evaluationText(const std::string& planName, const PlanEvaluation& evaluation, const model::ClusterStore& store);
/// The actions of `evaluation` that do not hold, for a message: "[0] move-pod default/web ->
/// cpu-b1 (not-found:node/cpu-b1); [1] drain-node cpu-a1 (no-feasible-node)", at most
/// `listed` of them, then "and N more". Names are escaped (terminalLine()). Empty when every
/// action holds. Pure; thread: any.
[[nodiscard]] std::string notHoldingText(const PlanEvaluation& evaluation, std::size_t listed = 5);

} // namespace fleet::importers
