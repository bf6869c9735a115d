// SPDX-License-Identifier: Apache-2.0
#pragma once
// A plan over a live cluster: "an open plan re-checks its actions on each diff and
// marks each action whose pod or node changed or vanished as stale, with why".
//
// A plan is made over one state and names pods and nodes by name (PodRef, node names, as its
// file does: importers/plan/planfile.h). When a live batch changes or deletes one of the pods
// or nodes an applied action names or changed (its pod, its node, the pods it moved or evicted
// and the nodes it used), the action no longer describes what would happen: it is stale. The
// plan is not re-placed automatically; `plan check` (importers/plan/planevaluation) evaluates
// it again over the new state.

#include "model/clusterchange.h"
#include "model/plan/plan.h"

#include <string>
#include <vector>

namespace fleet::model {

/// One stale action: its index in the plan and why, for people ("pod default/web-1 was
/// deleted", "node ip-10-0-0-1 is now NotReady").
struct StaleAction {
    std::size_t index = 0;
    std::string why;
};

/// The actions of `applied` (a PlanEngine's, over `store`) that `batch` makes stale, each with
/// the first reason found (an action's own pod and node first, then its effects), in plan
/// order. `batch` is matched by name against `store` (before or after it is applied: a pod
/// whose phase, node, requests or uid the batch gives differently from `store` counts as
/// changed only before); a relist (replacesAll) makes every named pod or node it does not
/// hold vanished. Pods and nodes the plan itself added are not the cluster's and never stale.
/// O(batch + actions' effects). Thread: any reader of the store.
[[nodiscard]] std::vector<StaleAction> findStaleActions(
    const std::vector<AppliedAction>& applied, const ClusterStore& store, const ClusterChangeBatch& batch);

/// findStaleActions() over `state` (the PlanEngine's ledger of `applied`; its store is the one
/// matched) that also re-checks the pods place-pods actions added, before the action's other
/// reasons: each store node a placed pod is on is judged as the batch leaves it, and the action
/// is stale, naming the placed pod, when the node
///  - was deleted (or a relist lacks it), is now NotReady, or was cordoned;
///  - got a NoSchedule or NoExecute taint the placed pod's template does not tolerate
///    (scheduling::toleratesTaint, the TaintToleration filter's rule; taints matched by text);
///  - lost the room the placed pods need: NodeResourcesFit's rule (fit.go: allocatable <
///    requested fails) on each core resource (cpu, memory, GPUs, pods, ephemeral-storage) the
///    placed pods request, with the node's requests under the plan changed by the batch (its
///    pods bound to the node, resized or deleted; pods the plan moved keep their planned node)
///    against the batch's allocatable. A relist's pods that vanished are not subtracted (the
///    node is judged as if they stayed: never a false "room" when there is some).
/// Another change of such a node (a label, a taint the pods tolerate) does not make the
/// placement stale. Nodes the plan added are not the cluster's and never stale.
/// O(batch + actions' effects). Thread: any reader of the state.
[[nodiscard]] std::vector<StaleAction> findStaleActions(
    const std::vector<AppliedAction>& applied, const PlanLedger& state, const ClusterChangeBatch& batch);

} // namespace fleet::model
