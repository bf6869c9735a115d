// SPDX-License-Identifier: Apache-2.0
#pragma once
// evaluatePlan() on an engine the caller keeps: a report shows the plan's map and risks from the
// same ledger whose totals `plan check` prints, so both come from one replay.

#include "importers/plan/planfile.h"

#include <string>
#include <utility>
#include <vector>

namespace fleet::importers {

/// What evaluatePlanOn() keeps of each action's record.
enum class ActionRecords {
    /// PlanEvaluation::actions holds a copy of each record (the engine keeps its own).
    Copied,
    /// PlanEvaluation::actions stays empty when the engine recorded every action: then
    /// PlanEngine::applied() is the list, and no second copy is made (about 180 MB for a
    /// 100,000-node consolidation). When the engine refused to start some action (it names a
    /// pod, node or domain that does not exist), only the evaluation can record it, and
    /// `actions` holds every record as with Copied.
    InEngine,
};

/// Applies every action of `plan` in order to `engine` (which should be fresh: its totals
/// before any action are the evaluation's "before"), as evaluatePlan() does: an action that
/// names something missing or that the engine refuses does not hold, with its reason, and later
/// actions still run. The engine keeps the plan (PlanEngine::state()). Thread: the engine's.
[[nodiscard]] PlanEvaluation evaluatePlanOn(model::PlanEngine& engine, const PlanDocument& plan, ActionRecords records = ActionRecords::Copied);

/// What an action names, in a few words, as `plan check` writes it ("subject"): "ml/web-0 ->
/// node-b", a drained node's name, "2 x p5.48xlarge in us-east-1a". Thread: any.
[[nodiscard]] std::string planActionSubject(const model::PlanAction& action);

/// The names an evaluation's outputs give (the JSON and text here, the CSV and script of
/// importers/export/planexport.h): node n's name, a node the plan added by its added name; a
/// pod's namespace and name, a pod the plan added (place-pods) by its template's namespace and
/// its own name; "namespace/name"; the reasons' codes joined by spaces. Thread: any.
[[nodiscard]] std::string nodeNameOf(const model::ClusterStore& store, const PlanEvaluation& e, model::NodeId n);
[[nodiscard]] std::pair<std::string, std::string> podNamesOf(const model::ClusterStore& store, const PlanEvaluation& e, model::PodId p);
[[nodiscard]] std::string podNameOf(const model::ClusterStore& store, const PlanEvaluation& e, model::PodId p);
[[nodiscard]] std::string joinedCodes(const std::vector<model::Reason>& reasons);

} // namespace fleet::importers
