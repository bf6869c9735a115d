// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope plan place`: where a place-pods action put its pods, in JSON (for scripts) or text.

#include "model/plan/plan.h"
#include "model/topology.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace fleet::importers {

/// The pods a place-pods action put in one deepest topology domain, and on how many nodes.
struct DomainPlacement {
    std::int64_t pods = 0;
    std::set<std::uint32_t> nodes; ///< NodeId values
};

/// The placements of `applied` per deepest topology domain (its path, model::domainPathText();
/// "(added nodes)" for a node the plan added), in path order. Thread: any.
[[nodiscard]] std::map<std::string, DomainPlacement> placementsPerDomain(const model::Topology& topology,
                                                                          const model::AppliedAction& applied);

/// The outcome of placing `pods` pods (`applied`: the place-pods action applied), as one JSON
/// object and a newline: {"pods": int, "placed": int, "holds": bool, "level": string,
/// "domains": [path], "placements": [{"domain": path, "pods": int, "nodes": int}],
/// "reasons": [reason]} (reasons as writeReasonsJson(), reasonsjson.h). Thread: any.
[[nodiscard]] std::string placementJson(int pods, const model::Topology& topology, const model::AppliedAction& applied);

/// The same for people: "placed N of M pods like NS/NAME at level L in DOMAIN", a line per
/// domain and reason, then "plan written to `planPath`"; or, when nothing was placed, "the M pods
/// like NS/NAME do not fit" and the reasons. Every line goes through terminalLineOf()
/// (terminaltext.h): names from the input never reach the terminal raw. Thread: any.
[[nodiscard]] std::string placementText(int pods, const model::PlanAction& action, const model::Topology& topology,
                                        const model::AppliedAction& applied, const std::string& planPath);

} // namespace fleet::importers
