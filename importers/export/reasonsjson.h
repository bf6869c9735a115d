// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one way Fleetscope writes a verdict's reasons in JSON: an array of {"code", "message"}
// (model/scheduling/reasons.h's code, e.g. "insufficient-nvidia.com/gpu", and its message), as
// `plan check`, `check-move`, `plan add-nodes`, `plan place` and `diff --plan` give them.

#include "importers/plan/jsontext.h"
#include "model/scheduling/reasons.h"

#include <vector>

namespace fleet::importers {

/// Writes `reasons` as a JSON array at `w`'s position (after a key or in an array), in order.
/// Names are as they are (JsonWriter escapes them). Pure but for `w`; thread: any.
void writeReasonsJson(JsonWriter& w, const std::vector<model::Reason>& reasons);

} // namespace fleet::importers
