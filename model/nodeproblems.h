// SPDX-License-Identifier: Apache-2.0
#pragma once
// What is wrong with the nodes of a cluster, as the map's markers and the Problems panel
// list it.

#include "model/clusterstore.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::model {

/// The kinds of problem, in the order the Problems panel sorts them.
enum class NodeProblemKind : std::uint8_t {
    NotReady,          // Ready condition False or Unknown
    Condition,         // a condition other than Ready whose status is True (MemoryPressure, ...)
    UnhealthyDevices,  // GPUs (or another extended device) in capacity but not in allocatable
    OverCommitted,     // requests of the counted pods above allocatable, for some resource
    Cordoned,          // spec.unschedulable
    PodOnUnknownNode,  // a pod whose spec.nodeName names a node not in the input
};
/// "NotReady", "Condition", "Unhealthy devices", "Over-committed", "Cordoned",
/// "Pod on unknown node". Thread: any.
[[nodiscard]] std::string_view nodeProblemKindName(NodeProblemKind kind) noexcept;

/// One problem. `node` is invalid for PodOnUnknownNode (then `pod` is set and `detail`
/// reads "namespace/name on missing-node"). A node has one problem per condition, per
/// resource with unhealthy devices and per over-committed resource.
struct NodeProblem {
    NodeProblemKind kind = NodeProblemKind::NotReady;
    NodeId node;
    PodId pod;
    /// What, in a sentence fragment, figures by figures.h: "Ready=False: kubelet stopped
    /// posting node status", "MemoryPressure=True: kubelet has insufficient memory available"
    /// (the condition's message, else its reason), "GPUs: 8 in capacity, 7 allocatable",
    /// "aws.amazon.com/neuron: 16 in capacity, 15 allocatable", "cpu: 9.5 of 8 cores
    /// requested", "spec.unschedulable".
    std::string detail;
    /// Since when, in Unix seconds, where the input says (a condition's
    /// lastTransitionTime); 0 when unknown.
    std::int64_t sinceUnixSeconds = 0;
};

/// Every problem of every node, and every pod on an unknown node, sorted by kind then node
/// order. Rules: NotReady = the Ready condition not True (nodeReadiness); Condition = any
/// other condition whose status is True (the node conditions of
/// https://kubernetes.io/docs/reference/node/node-status/#condition are all "bad when True",
/// NetworkUnavailable included; a condition a node problem detector adds reads the same way);
/// UnhealthyDevices = capacity above allocatable for GPUs or an extended resource other than
/// hugepages-* (the device plugin reports unhealthy devices by leaving them out of
/// allocatable); OverCommitted = the counted pods' requests above allocatable for a resource;
/// Cordoned = spec.unschedulable. O(nodes + pods). Thread: any reader of a finalized store.
[[nodiscard]] std::vector<NodeProblem> findNodeProblems(const ClusterStore& store);

/// The nodes of `problems` (valid ids only), sorted and each once: what the fleet map marks
/// (FleetMapView::setProblemNodes()), the same for the window, `screenshot` and a report's
/// maps, so that their legends count the same markers. O(problems log problems).
[[nodiscard]] std::vector<NodeId> problemNodes(const std::vector<NodeProblem>& problems);

} // namespace fleet::model
