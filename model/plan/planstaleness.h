#pragma once
// A plan over a live cluster (issue 8): "an open plan re-checks its actions on each diff and
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

} // namespace fleet::model
