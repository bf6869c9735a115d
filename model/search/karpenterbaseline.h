// SPDX-License-Identifier: Apache-2.0
#pragma once
// The baseline beside our consolidation: Karpenter's emptiness and multi-node consolidation as
// it documents and codes them (kubernetes-sigs/karpenter, pkg/controllers/disruption/
// emptiness.go, multinodeconsolidation.go, firstNConsolidationOption; docs "Disruption",
// Consolidation):
//  - first, Emptiness: every candidate with no reschedulable pod (DaemonSet and mirror pods are
//    not: they go with their node) is deleted in one command;
//  - candidates sorted by disruption cost, ascending (pkg/utils/disruption: per pod
//    clamp(1 + priority / 2^25 + deletion cost / 2^27, -10, 10), times the node's lifetime
//    remaining; the store has no pod-deletion-cost annotation and no expiry, so 0 and 1);
//  - at most 100 candidates per batch; a binary search over prefixes of the batch for the
//    longest one whose nodes can all be removed at once (its pods re-placed on other nodes);
//  - one command per disruption loop; the loop runs again on what is left, until no prefix of
//    two or more nodes can go (a candidate that can never go, at the head, stops it, as in
//    Karpenter; single-node consolidation is not part of the baseline).
// Differences, by necessity: deletion only. Karpenter can also replace a batch with one
// cheaper node it launches; Fleetscope cannot launch replacements, so the baseline only
// deletes. The batch's pods are re-placed with the what-if's filters, eviction rules and
// default policy (DrainNode node by node, in the batch's order: a pod placed on a later node
// of the batch is moved again when that node is drained), not Karpenter's scheduler simulation.
// Candidates, prepaid nodes and node-group minimums are consolidation.h's, so that both see the
// same input. Budgets of Karpenter's NodePools (disruption.budgets) are not modelled.
//
// Thread: any; `cancel` may be set from another thread.

#include "consolidation.h"

namespace fleet::model {

/// Karpenter's emptiness, then multi-node consolidation, deletion only (above). The result's `order` is
/// "karpenter-multi-node"; `kept` lists the nodes a failed batch found a reason for.
[[nodiscard]] ConsolidationResult karpenterMultiNodeConsolidation(const ClusterStore& store, const Topology& topology,
    const ConsolidationInput& input, const ConsolidationOptions& options = {});

} // namespace fleet::model
