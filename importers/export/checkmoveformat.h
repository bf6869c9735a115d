// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope check-move`: whether a pod fits a node, in JSON (for scripts) or text.

#include "model/scheduling/filters.h"

#include <string>

namespace fleet::importers {

/// The verdict of moving pod `pod` ("NAMESPACE/NAME") to node `node`, as one JSON object and a
/// newline: {"pod": string, "to": string, "feasible": bool, "reasons": [reason]} with each reason
/// as writeReasonsJson() writes it (reasonsjson.h). Thread: any.
[[nodiscard]] std::string checkMoveJson(const std::string& pod, const std::string& node, const model::Verdict& verdict);

/// The same verdict for people: "POD -> NODE: feasible" (or "not feasible"), then one line
/// "  CODE: MESSAGE" per reason. Every line is escapedText() (quotedtext.h): a name from the
/// input never sends a control sequence to the terminal. Thread: any.
[[nodiscard]] std::string checkMoveText(const std::string& pod, const std::string& node, const model::Verdict& verdict);

} // namespace fleet::importers
