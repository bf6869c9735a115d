// SPDX-License-Identifier: Apache-2.0
#pragma once
// A lower bound on the node count a consolidation can reach, from the linear relaxation of the
// packing that knows which pods may go where (the LP bound; consolidationbound.h is the cheap
// volume bound it is shown beside).
//
// Classes, so that the program stays small at 100,000 nodes:
//  - a node class: present nodes with the same allocatable (core and extended resources), GPU
//    model, taints, unschedulable flag, readiness and values of every label key a pod's
//    nodeSelector, required node affinity or volume (zone labels, node affinity) names (and
//    the keep-within key). A class has `count` nodes, `pinned` of which must stay: prepaid
//    nodes (consolidation.h never drains them) and nodes holding a pod whose eviction is
//    refused (checkEviction() blockers) or that no filter would place elsewhere.
//  - a pod class: movable pods (not DaemonSet, mirror or finished; no eviction blocker) with
//    the same requests, tolerations, nodeSelector, required node affinity and volumes, of
//    whatever workload; its eligible node classes are those whose first node passes the filters that do
//    not depend on where other pods are (NodeUnschedulable, TaintToleration, NodeAffinity, the
//    GPU model, VolumeBinding's node affinity, VolumeZone: checkMove() on the loaded state,
//    with its resource, port, spread and inter-pod reasons ignored), plus the class of the node
//    each pod is on (staying is always allowed), and, with a keep-within key, only the classes
//    with the pod's own node's value of that label.
//
// The program (y_c: nodes of class c that stay; x_kc: pods of class k on class c):
//   minimise sum_c y_c
//   sum_c x_kc = pods of k                                   (every movable pod is placed)
//   sum_k request_kr x_kc + stuck_cr <= capacity_cr y_c      (per class and resource r: cpu,
//        memory, GPU, ephemeral storage, the pod count and every extended resource requested)
//   pinned_c <= y_c <= count_c,  x_kc >= 0
// where stuck_cr is what the pods that cannot move request on the pinned nodes, and
// capacity_cr is the class's allocatable less the least its nodes' DaemonSet and mirror pods
// request (they stay on every node that stays), raised to the most any of its nodes holds
// today (so the loaded state is always a solution). Every plan the consolidation can make is
// a solution, so ceil(optimum) bounds it from below. Relaxed (so the bound may be loose):
// whole pods (a pod split across nodes), per-node fit, spread, inter-pod affinity and
// anti-affinity, disruption budgets and node-group minimums. With `integer`, y and x are
// integers (still per class, not per node: a bound, tighter, and only for small fleets).
//
// Thread: any, while no thread mutates `store`. The build is O(pods + nodes + pod classes x
// node classes checkMove()s); the solve is the solver's.

#include "model/clusterstore.h"
#include "model/search/linearprogram.h"

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace fleet::model {

struct PackingRelaxationOptions {
    /// Pods keep this label's value (their node's) wherever they go; "" for no such rule.
    std::string keepWithinLabel;
    /// Solve with integer y and x (Cbc's branch and bound) rather than the linear relaxation.
    bool integer = false;
    /// The solver's time limit in seconds (0: none). At the limit, an LP gives no bound; an
    /// integer solve gives the best bound branch and bound proved.
    double timeLimitSeconds = 0;
};

struct PackingBound {
    bool valid = false;             // false: no bound (solver failed or stopped without one)
    std::int64_t nodes = 0;         // ceil of the proven lower bound (0 when !valid)
    double objective = 0;           // the solver's proven lower bound on sum y
    std::size_t nodeClasses = 0, podClasses = 0, pinnedNodes = 0, movablePods = 0;
    std::size_t columns = 0, rows = 0;
    double buildSeconds = 0;        // classes and program
    double solveSeconds = 0;        // the solver's own time
    std::string status;             // "optimal", "time-limit", "infeasible", "failed: ..."
};

/// The program (rules above) for the loaded state of `store` with `placedFirst` (pending pods
/// and the nodes a consolidation placed them on first, ConsolidationResult::pendingPods)
/// counted as bound there. `counts` (optional) receives the class and pod counts.
[[nodiscard]] LinearProgram packingRelaxation(const ClusterStore& store, std::span<const std::pair<PodId, NodeId>> placedFirst,
    const PackingRelaxationOptions& options, PackingBound* counts = nullptr);

/// Builds the program and solves it with `solve` (importers/solver/coinsolver.h solveWithCoin).
[[nodiscard]] PackingBound packingLowerBound(const ClusterStore& store, std::span<const std::pair<PodId, NodeId>> placedFirst,
    const PackingRelaxationOptions& options, const LinearProgramSolver& solve);

} // namespace fleet::model
