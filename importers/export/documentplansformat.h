// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope plans`: the named plans a .fleet document keeps, in JSON (for scripts) or text.

#include "importers/document/fleetdocument.h"

#include <cstddef>
#include <string>
#include <vector>

namespace fleet::importers {

/// The plans of document `path`, as one JSON object and a newline:
///   {"document": path, "plans": [{"name", "actions": int, "saved_at": ISO 8601 UTC,
///    "evaluation_kept": bool, "notes": string}]}
/// `actionCounts[i]` is the number of actions of `plans[i]` (same length). Thread: any.
[[nodiscard]] std::string documentPlansJson(const std::string& path, const std::vector<DocumentPlan>& plans,
                                            const std::vector<std::size_t>& actionCounts);

/// The same for people: "PATH: N plans", a line "  NAME: N actions, saved AT[, notes: NOTES]" per
/// plan and, when there is one, how to use it. Every line goes through terminalLineOf()
/// (terminaltext.h). Thread: any.
[[nodiscard]] std::string documentPlansText(const std::string& path, const std::vector<DocumentPlan>& plans,
                                            const std::vector<std::size_t>& actionCounts);

} // namespace fleet::importers
