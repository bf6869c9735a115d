// SPDX-License-Identifier: Apache-2.0
#pragma once
// `plan check`'s outputs (what `plan check`, `save` and the window's plan exports write): the
// evaluation of a plan as JSON (resources/schemas/plan-v1.md, "Evaluation") and as terminal
// text, and the actions that do not hold in one line. The evaluation itself: evaluatePlan()
// (importers/plan/planfile.h). Pure; thread: any.

#include "importers/plan/planfile.h"
#include "model/report/reportfigures.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace fleet::importers {

/// The figures of the fleet before and after the plan beside the ledger's totals, as the report
/// shows them (model/report/reportfigures.h: figuresBefore(), figuresAfter()).
struct EvaluationFigures {
    model::FleetFigures before;
    model::FleetFigures after;
};

/// An action's number in text, counted from 1 in the order the actions apply, as the window's
/// Plan panel and the report number them: "#1" for the plan file's first action (its JSON
/// `index` 0, the `$.actions[0]` of its errors). Pure; thread: any.
[[nodiscard]] std::string actionNumber(std::size_t index);

/// The evaluation as JSON: {"plan", "holds", "state", "sourceNote"?, "actions": [{"index" (the
/// action's 0-based position in the plan file's "actions"), "type", "subject", "holds", "reasons",
/// "changes", "nodesAdded"?, "nodesRemoved"?, "unplaced"?}], "before", "after", "unpricedNodes"?}, names as they
/// are (JSON-escaped), with a final newline. "before" and "after" give "podsRemovedWithNodes"
/// and its parts, "daemonSetPodsRemovedWithNodes" (DaemonSet and mirror pods) and
/// "terminatingPodsRemovedWithNodes" (terminatingPodsRemovedWithNodes()). With `figures`, "before" and "after" also hold
/// "pendingPods" (pending pods without a node), "fragmentedGpus" (FGD, whole GPUs exact to
/// 1/1000, or null without a GPU workload) and, "before" only and where usage was measured,
/// "idleAllocatedGpus" (whole GPUs: measured, not planned). "unpricedNodes" (the nodes without a
/// price, whose cost the totals leave out) is written when `unpricedNodes` >= 0.
[[nodiscard]] std::string evaluationJson(const std::string& planName, const PlanEvaluation& evaluation, const model::ClusterStore& store,
    const EvaluationFigures* figures = nullptr, std::int64_t unpricedNodes = -1);
/// The terminating pods (PodFlagTerminating, counted) that go with the store nodes the plan
/// removed (drained or failed): still on that node after the plan's changes, as
/// model::terminatingPodsRemovedWithNodes() counts them on the ledger. They are among
/// PlanTotals::podsRemovedWithNodes, whose other pods are the DaemonSet and mirror pods of those
/// nodes; the JSON and text below give the two apart. O(pods + changes). Pure; thread: any.
[[nodiscard]] std::int64_t terminatingPodsRemovedWithNodes(const PlanEvaluation& evaluation, const model::ClusterStore& store);
/// The evaluation as terminal text: a line per action ("#1 drain-node cpu-a1: holds") with its
/// reasons, then the totals before and after; every name escaped (terminalLine()). With
/// `nodePrices` (the prices the evaluation used, by NodeId; 0 for a node without one), a cost
/// over nodes of which some have no price says how many it leaves out ("cost 12.34/h and 3
/// unpriced nodes"), and one over no priced node is "cost unknown"; without, the cost is shown as
/// summed.
[[nodiscard]] std::string evaluationText(const std::string& planName, const PlanEvaluation& evaluation, const model::ClusterStore& store,
    const std::vector<double>* nodePrices = nullptr);
/// The actions of `evaluation` that do not hold, for a message: "#1 move-pod default/web ->
/// cpu-b1 (not-found:node/cpu-b1); #2 drain-node cpu-a1 (no-feasible-node)", at most
/// `listed` of them, then "and N more". Names are escaped (terminalLine()). Empty when every
/// action holds. Pure; thread: any.
[[nodiscard]] std::string notHoldingText(const PlanEvaluation& evaluation, std::size_t listed = 5);

/// What the state after the plan keeps of an action that does not hold, the figures after it
/// being those of that state (`plan check`'s "after", the report's figures): refused, it changed
/// nothing (NotApplied: a move that does not fit, a name the state lacks, a gang that does not
/// fit); a failure is applied whole, its nodes gone and the pods that found no other node
/// stranded (Stranding); anything else did what it could (Partial: a drain that leaves pods on
/// its cordoned node, a move applied over its violations by override, a placement of part of its
/// pods). Meaningless for an action that holds. Pure; thread: any.
enum class NotHoldingEffect { NotApplied, Stranding, Partial };
[[nodiscard]] NotHoldingEffect notHoldingEffect(const model::AppliedAction& action);
/// notHoldingEffect() in words, with its counts: "not applied: it changes nothing", "applied: 333
/// nodes fail, 245 pods left without a node", "applied in part: 3 pods moved, 1 pod stays on the
/// cordoned node", "applied although it does not fit (override)"; "" for an action that holds.
[[nodiscard]] std::string notHoldingEffectText(const model::AppliedAction& action);

} // namespace fleet::importers
