// SPDX-License-Identifier: Apache-2.0
#pragma once
// `diff --plan`'s outputs: a PlanOutcome (importers/document/planoutcome.h) as JSON and as
// terminal text. Pure; thread: any.

#include "importers/document/planoutcome.h"

#include <string>
#include <vector>

namespace fleet::importers {

/// The outcome as JSON: {"plan", "before", "after", "actions": [{"index", "type", "outcome",
/// "evidence", "reasons": [{"code", "message"}]}], "totals": {"actions", "carried_out",
/// "not_carried_out", "no_longer_possible"}, "savings": {"planned_dollars_per_hour",
/// "realised_dollars_per_hour", "then_dollars_per_hour", "now_dollars_per_hour",
/// "touched_nodes": [...]}}. `planLabel`, `beforeLabel`, `afterLabel` name the inputs.
[[nodiscard]] std::string planOutcomeJson(const PlanOutcome& outcome, const std::string& planLabel, const std::string& beforeLabel,
                                          const std::string& afterLabel);
/// The one rule naming a state in a plan outcome, for `diff --plan` and the window's Export Plan
/// Outcome alike (their JSON is byte-identical): the file names of the state's files, without
/// their folders, joined by " + " ("before.fleet", "nodes.json + pods.json"); a document is
/// named by its own file, not by the files it was saved from. Thread: any.
[[nodiscard]] std::string planOutcomeStateLabel(const std::vector<std::string>& paths);
/// The same rule for the plan: a plan file's name, or a document's file name, ':' and the
/// plan's name ("before.fleet:consolidate"). `document` empty for a plan file. Thread: any.
[[nodiscard]] std::string planOutcomePlanLabel(const std::string& document, const std::string& planNameOrFile);

/// The outcome as terminal text (names escaped, terminalLine()): a line per action, then the
/// totals and the savings.
[[nodiscard]] std::string planOutcomeText(const PlanOutcome& outcome, const std::string& planLabel, const std::string& afterLabel);

} // namespace fleet::importers
