// SPDX-License-Identifier: Apache-2.0
#pragma once
// evaluatePlan() on an engine the caller keeps: a report shows the plan's map and risks from the
// same ledger whose totals `plan check` prints, so both come from one replay.

#include "importers/plan/planfile.h"

namespace fleet::importers {

/// Applies every action of `plan` in order to `engine` (which should be fresh: its totals
/// before any action are the evaluation's "before"), as evaluatePlan() does: an action that
/// names something missing or that the engine refuses does not hold, with its reason, and later
/// actions still run. The engine keeps the plan (PlanEngine::state()). Thread: the engine's.
[[nodiscard]] PlanEvaluation evaluatePlanOn(model::PlanEngine& engine, const PlanDocument& plan);

/// What an action names, in a few words, as `plan check` writes it ("subject"): "ml/web-0 ->
/// node-b", a drained node's name, "2 x p5.48xlarge in us-east-1a". Thread: any.
[[nodiscard]] std::string planActionSubject(const model::PlanAction& action);

} // namespace fleet::importers
