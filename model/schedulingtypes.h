// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pod and cluster scheduling constraints beyond resources, taints and node affinity: what the
// kube-scheduler's InterPodAffinity, PodTopologySpread, NodePorts and VolumeZone / VolumeBinding
// plugins read, what an eviction (drain) must respect (PodDisruptionBudgets, annotations), and the
// per-GPU shares of the Alibaba trace. Interned values (StringId) live in the ClusterStore's
// string pool; the store keeps each pod's constraints as interned sets (the pods of one workload
// share them), see clusterstore.h.
//
// Sources (core/v1 and policy/v1 API types):
//   https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#inter-pod-affinity-and-anti-affinity
//   https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/
//   https://kubernetes.io/docs/concepts/workloads/pods/disruptions/
//   https://kubernetes.io/docs/reference/labels-annotations-taints/ (karpenter.sh/do-not-disrupt,
//   cluster-autoscaler.kubernetes.io/safe-to-evict)

#include "ids.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace fleet::model {

/// metav1.LabelSelectorOperator.
enum class MatchOperator : std::uint8_t { In, NotIn, Exists, DoesNotExist };

/// One matchExpressions entry (matchLabels k: v is stored as `k In (v)`).
struct MatchRequirement {
    StringId key;
    MatchOperator op = MatchOperator::In;
    std::vector<StringId> values; // sorted by StringId value, no duplicates
    bool operator==(const MatchRequirement&) const noexcept = default;
};

/// A metav1.LabelSelector, interned: requirements ANDed. As the API defines it, an empty
/// selector ({}) matches every object and an absent (null) selector matches none:
/// `null` tells them apart.
struct InternedSelector {
    std::vector<MatchRequirement> requirements;
    bool null = false;
    bool operator==(const InternedSelector&) const noexcept = default;
};

/// One required pod (anti-)affinity term (core/v1 PodAffinityTerm). The importer folds
/// `matchLabelKeys` / `mismatchLabelKeys` into `selector` with the pod's own label values
/// (`key In (v)` / `key NotIn (v)`), as the API server does (KEP-3633), so filters see one
/// selector. `namespaces` empty and no namespace selector: the pod's own namespace.
struct PodAffinityTerm {
    InternedSelector selector;
    std::vector<StringId> namespaces;   // sorted by StringId value
    bool hasNamespaceSelector = false;  // namespaceSelector given ({} = every namespace)
    InternedSelector namespaceSelector; // matched against namespace labels (kubectl get ns)
    StringId topologyKey;
    bool operator==(const PodAffinityTerm&) const noexcept = default;
};

/// core/v1 UnsatisfiableConstraintAction.
enum class WhenUnsatisfiable : std::uint8_t { DoNotSchedule, ScheduleAnyway };
/// core/v1 NodeInclusionPolicy.
enum class NodeInclusionPolicy : std::uint8_t { Honor, Ignore };

/// One topologySpreadConstraints entry. `matchLabelKeys` is folded into `selector` by the
/// importer (the scheduler does the same, KEP-3243). Defaults as the API sets them:
/// minDomains 1, nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore.
struct TopologySpreadConstraint {
    std::int32_t maxSkew = 1;
    StringId topologyKey;
    WhenUnsatisfiable whenUnsatisfiable = WhenUnsatisfiable::DoNotSchedule;
    InternedSelector selector;
    std::int32_t minDomains = 1;
    NodeInclusionPolicy nodeAffinityPolicy = NodeInclusionPolicy::Honor;
    NodeInclusionPolicy nodeTaintsPolicy = NodeInclusionPolicy::Ignore;
    bool operator==(const TopologySpreadConstraint&) const noexcept = default;
};

/// core/v1 Protocol of a container port.
enum class PortProtocol : std::uint8_t { TCP, UDP, SCTP };

/// A container port with hostPort set (NodePorts plugin). hostIP empty means 0.0.0.0.
struct HostPort {
    std::uint16_t port = 0;
    PortProtocol protocol = PortProtocol::TCP;
    StringId hostIP;
    bool operator==(const HostPort&) const noexcept = default;
};

// VolumeConstraint (a PersistentVolume's zone labels and node affinity) is in clusterstore.h,
// next to NodeSelectorTerm, which it uses.

/// Per-pod facts an eviction or a move must respect (bit flags, ClusterStore::podFlags()).
enum PodFlag : std::uint16_t {
    PodFlagNone = 0,
    /// karpenter.sh/do-not-disrupt: "true" or cluster-autoscaler.kubernetes.io/safe-to-evict: "false".
    PodFlagDoNotDisrupt = 1u << 0,
    /// An emptyDir volume (any medium): its data is lost on eviction (kubectl drain
    /// --delete-emptydir-data).
    PodFlagLocalStorage = 1u << 1,
    /// spec.resourceClaims (dynamic resource allocation), which Fleetscope does not model.
    PodFlagResourceClaims = 1u << 2,
    /// The pod is Ready (its Ready condition is True): PodDisruptionBudgets count it as healthy.
    PodFlagReady = 1u << 3,
    /// A Kueue / coscheduling pod group label (kueue.x-k8s.io/pod-group-name,
    /// scheduling.x-k8s.io/pod-group, pod-group.scheduling.sigs.k8s.io) makes it a gang member.
    PodFlagPodGroup = 1u << 4,
    /// metadata.deletionTimestamp is set: the pod is terminating. It still holds its node's
    /// resources and counts for every rule but PodTopologySpread, whose counts skip it
    /// (podtopologyspread/common.go, countPodsMatchSelector).
    PodFlagTerminating = 1u << 5,
    /// A plan's template pod (the pod a place-pods action copies, added to the store so that the
    /// filters can read its spec): never a pod of the cluster. It is not pending demand, never
    /// placed, moved or counted; only its copies are.
    PodFlagTemplate = 1u << 6,
};

/// How a PodDisruptionBudget's minAvailable / maxUnavailable is given.
struct IntOrPercent {
    bool set = false;
    bool percent = false;
    std::int32_t value = 0; // a count, or a percentage 0..100
    bool operator==(const IntOrPercent&) const noexcept = default;
};

/// A policy/v1 PodDisruptionBudget.
struct DisruptionBudget {
    StringId namespaceName;
    StringId name;
    InternedSelector selector; // matched against pods of the same namespace
    IntOrPercent minAvailable;
    IntOrPercent maxUnavailable;
    std::int32_t disruptionsAllowed = -1; // status.disruptionsAllowed; -1 when the input has no status
};

/// A PodDisruptionBudget as an importer hands it to ClusterStore::addDisruptionBudget().
struct DisruptionBudgetRecord {
    std::string namespaceName;
    std::string name;
    bool selectorNull = false;
    std::vector<std::pair<std::string, std::string>> matchLabels;
    std::vector<std::tuple<std::string, MatchOperator, std::vector<std::string>>> matchExpressions;
    IntOrPercent minAvailable;
    IntOrPercent maxUnavailable;
    std::int32_t disruptionsAllowed = -1;
};

} // namespace fleet::model
