// SPDX-License-Identifier: Apache-2.0
#pragma once
// A plan's JSON checked without keeping it: for readers that only need to know that a plan
// reads (the .fleet document checks each plan it holds when it opens; the plan itself is read
// again when it is opened in the window or given to a command).

#include <string>
#include <string_view>

namespace fleet::importers {

/// Validates plan JSON `text` exactly as parsePlanText() (planfile.h) does, with the same
/// errors, without keeping the actions it reads (each is checked and dropped: memory for one
/// action, not the plan's; 200,000 actions are about 140 MB). Throws PlanFileError. Thread: any.
void checkPlanText(std::string_view text, const std::string& fileName);

} // namespace fleet::importers
