// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope plan add-nodes`: the nodes added and, with --fit-pending, what they place, in
// JSON (for scripts) or text.

#include "model/clusterstore.h"
#include "model/plan/plan.h"
#include "model/search/nodesneeded.h"

#include <string>
#include <vector>

namespace fleet::importers {

/// What `plan add-nodes` did: the add-node `action` (its instanceType and count, the count
/// the search chose with --fit-pending), the node the first copy copies, and with `fitPending`
/// the copies per node group and the search's answer (model/search/nodesneeded.h).
struct AddNodesOutcome {
    const model::ClusterStore& store; ///< the loaded state: names of nodes and pods
    const model::PlanAction& action;
    std::string templateNode;
    bool fitPending = false;
    std::vector<model::TemplateCopies> copies; ///< with fitPending: each template and its copies
    model::NodesNeededAnswer answer; ///< with fitPending
    double costPerHourAdded = 0; ///< $/h the plan adds (after - before)
};

/// As one JSON object and a newline: {"instanceType", "templateNode", "templates": [{"node",
/// "nodeGroup", "nodes"}] (fitPending), "nodes": int, "costPerHour": number, and with fitPending
/// "pods", "placed": int, "limitReached": bool, "unplaced": [{"pod", "reasons": [reason]}]}
/// (reasons as writeReasonsJson(), reasonsjson.h). Thread: any.
[[nodiscard]] std::string addNodesJson(const AddNodesOutcome& outcome);

/// The same for people, one terminalLineOf() line each (terminaltext.h); the last line says
/// where the plan went (`planPath`) or that no node would help. Thread: any.
[[nodiscard]] std::string addNodesText(const AddNodesOutcome& outcome, const std::string& planPath);

} // namespace fleet::importers
