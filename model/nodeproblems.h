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
/// names the missing node).
struct NodeProblem {
    NodeProblemKind kind = NodeProblemKind::NotReady;
    NodeId node;
    PodId pod;
    /// What, in a sentence fragment: "MemoryPressure: kubelet has insufficient memory",
    /// "nvidia.com/gpu: 8 in capacity, 7 allocatable", "cpu: 9.5 of 8 cores requested".
    std::string detail;
    /// Since when, in Unix seconds, where the input says (a condition's
    /// lastTransitionTime); 0 when unknown.
    std::int64_t sinceUnixSeconds = 0;
};

/// Every problem of every node, and every pod on an unknown node, sorted by kind then node
/// order. O(nodes + pods). Thread: any reader of a finalized store.
[[nodiscard]] std::vector<NodeProblem> findNodeProblems(const ClusterStore& store);

} // namespace fleet::model
