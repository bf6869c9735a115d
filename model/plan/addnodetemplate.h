// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which instance type an operator adding nodes for the pending pods most likely wants: the
// default of Plan > Add Nodes when no node is selected (a CPU-only type first in the list
// answered "no node would help" for pods that wait for GPUs).

#include "model/clusterstore.h"

#include <span>
#include <string>

namespace fleet::model {

/// The instance type (node.kubernetes.io/instance-type) whose copies would serve the most
/// pending demand: for each type, its healthy nodes of each node group and capacity type (as
/// templateNodeFor() picks them, plan.h) are the candidate templates; a pending pod is served by
/// a type when one of them takes it by the rules a copy keeps (nodeSelector, required node
/// affinity, NoSchedule / NoExecute taints) and holds its cpu, memory and GPU request. Types
/// rank by GPUs requested by the pods served (milli-GPU), then by pods served, then by name. One
/// pod of each workload stands for the workload's pending pods (they share the rules), so the
/// cost is O(nodes + pending pods + types x node groups x pending workloads). "" when no type
/// serves any pending pod. Thread: any, while no thread mutates `store`.
[[nodiscard]] std::string instanceTypeForPending(const ClusterStore& store, std::span<const PodId> pendingPods);

} // namespace fleet::model
