// SPDX-License-Identifier: Apache-2.0
#pragma once
// `diff`'s outputs (what `fleetscope diff` prints and File > Export Changes writes): a StateDiff
// (importers/document/statediff.h) as JSON and as terminal text. Pure; thread: any.

#include "importers/document/statediff.h"

#include <cstddef>
#include <string>

namespace fleet::importers {

/// The diff as JSON ({"before", "after", "nodes": {"added", ...}, "pods": {"moved", ...,
/// "by_workload": [...]}}), names as they are (JSON-escaped).
[[nodiscard]] std::string stateDiffJson(const StateDiff& diff);
/// The diff as text for a terminal: totals, then at most `listed` names of each node list and
/// workloads (names escaped, escapedText()). Counts with thousands separators ("1,617,779
/// pods"), "1 node" in the singular (model/figures.h's rule).
[[nodiscard]] std::string stateDiffText(const StateDiff& diff, std::size_t listed = 20);

/// Dollars per hour to the cent with thousands separators, "$12,345.67/h", "-$0.25/h": the
/// form a comparison of two totals needs (model/figures.h rounds to three digits). Thread: any.
[[nodiscard]] std::string dollarsPerHourExact(double perHour);
/// The same without the unit: "$4,283.39", "-$0.25", "$0.00". The command line's text outputs
/// write every exact dollar figure with it (counts with model::formatCount()). Thread: any.
[[nodiscard]] std::string dollarsExact(double dollars);

} // namespace fleet::importers
