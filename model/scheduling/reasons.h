// SPDX-License-Identifier: Apache-2.0
#pragma once
// The registry of reason codes: every "no" that check-move, a drag, a drain, a failure,
// consolidation and placement can give has one stable code and one sentence, defined here and
// nowhere else. Codes are what plan files, `check-move --format json` and
// `plan check` carry; they never change once released (add new kinds, never rename).
//
// A code is a kind's stem plus, for parameterised kinds, a detail:
//   insufficient-<resource>       the Kubernetes resource name: insufficient-cpu, insufficient-nvidia.com/gpu
//   untolerated-taint:<key>[=<value>]:<effect>
//   host-port:<port>   pod-anti-affinity:<namespace>/<pod>   topology-spread:<topologyKey>
//   disruption-budget:<namespace>/<name>   unsupported:<feature>   not-found:<what>
//   topology-domain:<level key>
// The kinds are listed in the kube-scheduler's default plugin order (filters), then eviction
// kinds; Reason lists are sorted by that order (sortReasons()).
// Sources: the kube-scheduler's default plugin order, pkg/scheduler/apis/config/v1/default_plugins.go;
// each filter's rule: pkg/scheduler/framework/plugins/<plugin>/ (the filter's docstring in
// filters.h names the file).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::model {

/// Every kind of reason, in the order verdicts list them (the kube-scheduler's filter order
/// first: PrioritySort does not filter; NodeUnschedulable, NodeName, TaintToleration,
/// NodeAffinity, NodePorts, NodeResourcesFit, VolumeRestrictions, EBS/GCE/Azure limits,
/// VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity; Fleetscope's own checks
/// (readiness, GPU model, pods that never move) and the eviction kinds after).
enum class ReasonKind : std::uint8_t {
    // pods that never move (checked first: nothing else matters)
    DaemonSetPod,       // daemonset-pod
    MirrorPod,          // mirror-pod
    Unsupported,        // unsupported:<feature>
    // filters, in plugin order
    NodeUnschedulable,  // node-unschedulable (NodeUnschedulable)
    NodeNotReady,       // node-not-ready (the node lifecycle controller's NoSchedule taints)
    NodeGone,           // node-gone (the node was failed or removed by the plan)
    UntoleratedTaint,   // untolerated-taint:<key>[=<value>]:<effect> (TaintToleration)
    NodeSelectorMismatch, // node-selector-mismatch (NodeAffinity: spec.nodeSelector)
    NodeAffinityMismatch, // node-affinity-mismatch (NodeAffinity: required terms)
    GpuModelMismatch,   // gpu-model-mismatch (the trace's gpu_spec, a node-affinity term on the GPU model label)
    HostPortConflict,   // host-port:<port> (NodePorts)
    Insufficient,       // insufficient-<resource> (NodeResourcesFit)
    TooManyPods,        // too-many-pods (NodeResourcesFit, the pods resource)
    VolumeNodeAffinity, // volume-node-affinity (VolumeBinding: the PV's node affinity)
    VolumeZone,         // volume-zone (VolumeZone)
    TopologySpread,     // topology-spread:<topologyKey> (PodTopologySpread, DoNotSchedule)
    PodAffinityMismatch, // pod-affinity-mismatch (InterPodAffinity: required affinity)
    PodAntiAffinity,    // pod-anti-affinity:<namespace>/<pod> (InterPodAffinity: the pod's own
                        // anti-affinity, or an existing pod's against it)
    // evictions (drain, failure, consolidation)
    DisruptionBudget,   // disruption-budget:<namespace>/<name>
    NoController,       // no-controller (a bare pod would be lost)
    LocalStorage,       // local-storage (emptyDir data)
    DoNotDisrupt,       // do-not-disrupt
    GangMember,         // gang-member (one pod of a gang cannot move alone)
    NoFeasibleNode,     // no-feasible-node (placement: no node passes every filter)
    // consolidation: why a node is not drained although its pods could move
    PrepaidNode,        // prepaid-node (a capacity block or reservation: emptying it saves nothing)
    NodeGroupMinimum,   // node-group-minimum:<label>=<value> (the group keeps its minimum size)
    MoveLimit,          // move-limit (the plan reached its maximum number of pod moves)
    NoOtherNode,        // no-other-node (the node is the only one present under the plan: its pods
                        // have nowhere else to go)
    TopologyDomain,     // topology-domain:<level key> (placement, Kueue TAS: no domain of that
                        // level holds the pods, or their slices, whole)
    // plans re-checked against another state (plan check)
    NotFound,           // not-found:<what> (pod/<ns>/<name>, node/<name>, workload/<ns>/<name>,
                        // domain/<path>, instance-type/<type>: the plan names something the state lacks)
    PodReplaced,        // pod-replaced (the plan's pod uid differs from the state's: the pod was recreated)
    Count
};

/// A reason: its kind, the kind's parameter (resource name, taint, port, pod, key, budget,
/// feature; empty for kinds without one) and its sentence for people.
struct Reason {
    ReasonKind kind = ReasonKind::Count;
    std::string detail;
    std::string message;
    /// The stable code, e.g. "insufficient-nvidia.com/gpu" (reasonCode(kind, detail)).
    [[nodiscard]] std::string code() const;
    bool operator==(const Reason&) const = default;
};

/// Static facts of a kind: its code stem ("insufficient-", "node-unschedulable",
/// "untolerated-taint:"), whether it takes a detail, and the kube-scheduler plugin (or
/// "Eviction", "Fleetscope") whose rule it mirrors.
struct ReasonKindInfo {
    ReasonKind kind;
    std::string_view stem;
    bool hasDetail;
    std::string_view plugin;
    std::string_view summary; // one line: what it means, for the docs and tooltips
};

/// Every kind, in ReasonKind order. Thread: any.
[[nodiscard]] std::span<const ReasonKindInfo> reasonKinds() noexcept;
/// The info of one kind. Thread: any.
[[nodiscard]] const ReasonKindInfo& reasonKindInfo(ReasonKind kind) noexcept;
/// stem + detail. Thread: any.
[[nodiscard]] std::string reasonCode(ReasonKind kind, std::string_view detail);
/// The kind a code names (by its stem), or Count when no kind has that stem. Thread: any.
[[nodiscard]] ReasonKind reasonKindOfCode(std::string_view code) noexcept;
/// A reason with its message. Thread: any.
[[nodiscard]] Reason makeReason(ReasonKind kind, std::string detail, std::string message);
/// Sorts by kind order (stable: reasons of one kind keep their order). Thread: any.
void sortReasons(std::vector<Reason>& reasons);

} // namespace fleet::model
