// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope check-move`: whether a pod fits a node, in JSON (for scripts) or text.

#include "model/scheduling/filters.h"

#include <string>
#include <vector>

namespace fleet::importers {

/// The verdict of moving pod `pod` ("NAMESPACE/NAME") to node `node`, as one JSON object and a
/// newline: {"pod": string, "to": string, "feasible": bool, "reasons": [reason], "movesAlone":
/// bool, "evictionBlockers": [reason]}, each reason as writeReasonsJson() writes it
/// (reasonsjson.h). "feasible" and "reasons" are the scheduler's filters' verdict;
/// "evictionBlockers" are the eviction rules that keep a bound pod from moving alone whatever the
/// node (gang-member, no-controller, do-not-disrupt: model::checkEviction(), the rules the
/// window's drop and the plan's move-pod apply too); "movesAlone" is true when both allow it.
/// Thread: any.
[[nodiscard]] std::string checkMoveJson(
    const std::string& pod, const std::string& node, const model::Verdict& verdict, const std::vector<model::Reason>& evictionBlockers);

/// The same verdict for people: "POD -> NODE: feasible" (or "not feasible"), then one line
/// "  CODE: MESSAGE" per reason. With eviction blockers the first line says so ("feasible for
/// the scheduler, but the pod cannot move alone (gang-member)", "not feasible, and the pod
/// cannot move alone (...)") and their lines come first, as the window's refusal lists them.
/// Every line is escapedText() (quotedtext.h): a name from the input never sends a control
/// sequence to the terminal. Thread: any.
[[nodiscard]] std::string checkMoveText(
    const std::string& pod, const std::string& node, const model::Verdict& verdict, const std::vector<model::Reason>& evictionBlockers);

} // namespace fleet::importers
