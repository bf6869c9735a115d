// SPDX-License-Identifier: Apache-2.0
#pragma once
// `diff --plan`'s outputs: a PlanOutcome (importers/document/planoutcome.h) as JSON and as
// terminal text. Pure; thread: any.

#include "importers/document/planoutcome.h"

#include <string>

namespace fleet::importers {

/// The outcome as JSON: {"plan", "before", "after", "actions": [{"index", "type", "outcome",
/// "evidence", "reasons": [{"code", "message"}]}], "totals": {"actions", "carried_out",
/// "not_carried_out", "no_longer_possible"}, "savings": {"planned_dollars_per_hour",
/// "realised_dollars_per_hour", "then_dollars_per_hour", "now_dollars_per_hour",
/// "touched_nodes": [...]}}. `planLabel`, `beforeLabel`, `afterLabel` name the inputs.
[[nodiscard]] std::string planOutcomeJson(const PlanOutcome& outcome, const std::string& planLabel, const std::string& beforeLabel,
                                          const std::string& afterLabel);
/// The outcome as terminal text (names escaped, terminalLine()): a line per action, then the
/// totals and the savings.
[[nodiscard]] std::string planOutcomeText(const PlanOutcome& outcome, const std::string& planLabel, const std::string& afterLabel);

} // namespace fleet::importers
