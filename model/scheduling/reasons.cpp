// SPDX-License-Identifier: Apache-2.0
#include "reasons.h"

#include <algorithm>
#include <array>

namespace fleet::model {

namespace {

using K = ReasonKind;

constexpr std::array<ReasonKindInfo, static_cast<std::size_t>(K::Count)> kKinds { {
    { K::DaemonSetPod, "daemonset-pod", false, "Fleetscope", "a DaemonSet pod runs on every node it selects and never moves" },
    { K::MirrorPod, "mirror-pod", false, "Fleetscope", "a static (mirror) pod belongs to its node's kubelet and never moves" },
    { K::Unsupported, "unsupported:", true, "Fleetscope", "the pod uses a feature Fleetscope does not model, so it cannot judge the move" },
    { K::NodeUnschedulable, "node-unschedulable", false, "NodeUnschedulable", "the node is cordoned (spec.unschedulable)" },
    { K::NodeNotReady, "node-not-ready", false, "TaintToleration", "the node is not Ready (node.kubernetes.io/not-ready or unreachable)" },
    { K::NodeGone, "node-gone", false, "Fleetscope", "the plan removed or failed this node" },
    { K::UntoleratedTaint, "untolerated-taint:", true, "TaintToleration", "the node has a NoSchedule or NoExecute taint the pod does not tolerate" },
    { K::NodeSelectorMismatch, "node-selector-mismatch", false, "NodeAffinity", "the node's labels do not match the pod's nodeSelector" },
    { K::NodeAffinityMismatch, "node-affinity-mismatch", false, "NodeAffinity", "the node matches none of the pod's required node affinity terms" },
    { K::GpuModelMismatch, "gpu-model-mismatch", false, "NodeAffinity", "the node's GPU model is not one the pod accepts" },
    { K::HostPortConflict, "host-port:", true, "NodePorts", "a pod on the node already uses this host port" },
    { K::Insufficient, "insufficient-", true, "NodeResourcesFit", "the node's allocatable minus what its pods request is less than the pod requests" },
    { K::TooManyPods, "too-many-pods", false, "NodeResourcesFit", "the node runs as many pods as its allocatable pods allows" },
    { K::VolumeNodeAffinity, "volume-node-affinity", false, "VolumeBinding", "a PersistentVolume of the pod cannot be reached from the node" },
    { K::VolumeZone, "volume-zone", false, "VolumeZone", "a PersistentVolume of the pod is in another zone or region" },
    { K::TopologySpread, "topology-spread:", true, "PodTopologySpread", "the move would make the spread of matching pods exceed maxSkew" },
    { K::PodAffinityMismatch, "pod-affinity-mismatch", false, "InterPodAffinity", "no pod the pod must run near is in the node's topology domain" },
    { K::PodAntiAffinity, "pod-anti-affinity:", true, "InterPodAffinity", "a pod in the node's topology domain and this pod must not run together" },
    { K::DisruptionBudget, "disruption-budget:", true, "Eviction", "the PodDisruptionBudget allows no more disruptions in this plan" },
    { K::NoController, "no-controller", false, "Eviction", "a pod without a controller would not be recreated" },
    { K::LocalStorage, "local-storage", false, "Eviction", "the pod's emptyDir data would be lost" },
    { K::DoNotDisrupt, "do-not-disrupt", false, "Eviction", "the pod asks not to be disrupted (karpenter.sh/do-not-disrupt or safe-to-evict: false)" },
    { K::GangMember, "gang-member", false, "Eviction", "the pod is one member of a gang, which moves as a whole or not at all" },
    { K::NoFeasibleNode, "no-feasible-node", false, "Placement", "no node passes every filter" },
    { K::PrepaidNode, "prepaid-node", false, "Consolidation", "the node is paid in advance (capacity block or reservation): emptying it saves nothing" },
    { K::NodeGroupMinimum, "node-group-minimum:", true, "Consolidation", "the node group is at its minimum size (settings file)" },
    { K::MoveLimit, "move-limit", false, "Consolidation", "draining the node would pass the plan's maximum number of pod moves" },
    { K::NoOtherNode, "no-other-node", false, "Consolidation", "the node is the only one left under the plan: its pods have no other node to go to" },
    { K::TopologyDomain, "topology-domain:", true, "Placement", "no topology domain of the level holds the pods (or each of their slices) whole (Kueue Topology Aware Scheduling, KEP-2724)" },
    { K::NotFound, "not-found:", true, "Plan", "the plan names a pod, node, workload, domain or instance type that the cluster state does not have" },
    { K::PodReplaced, "pod-replaced", false, "Plan", "the pod the plan names was recreated: the state has a pod of that namespace and name with another uid" },
} };

constexpr bool kindsInOrder()
{
    for (std::size_t i = 0; i < kKinds.size(); ++i)
        if (static_cast<std::size_t>(kKinds[i].kind) != i)
            return false;
    return true;
}
static_assert(kindsInOrder(), "kKinds must list every ReasonKind in enum order");

} // namespace

std::string Reason::code() const
{
    return reasonCode(kind, detail);
}

std::span<const ReasonKindInfo> reasonKinds() noexcept
{
    return kKinds;
}

const ReasonKindInfo& reasonKindInfo(ReasonKind kind) noexcept
{
    const auto i = std::min(static_cast<std::size_t>(kind), kKinds.size() - 1);
    return kKinds[i];
}

std::string reasonCode(ReasonKind kind, std::string_view detail)
{
    const ReasonKindInfo& info = reasonKindInfo(kind);
    std::string code(info.stem);
    if (info.hasDetail)
        code += detail;
    return code;
}

ReasonKind reasonKindOfCode(std::string_view code) noexcept
{
    for (const ReasonKindInfo& info : kKinds) {
        if (info.hasDetail ? code.starts_with(info.stem) && code.size() > info.stem.size() : code == info.stem)
            return info.kind;
    }
    return ReasonKind::Count;
}

Reason makeReason(ReasonKind kind, std::string detail, std::string message)
{
    Reason r;
    r.kind = kind;
    r.detail = std::move(detail);
    r.message = std::move(message);
    return r;
}

void sortReasons(std::vector<Reason>& reasons)
{
    std::stable_sort(reasons.begin(), reasons.end(), [](const Reason& a, const Reason& b) { return a.kind < b.kind; });
}

} // namespace fleet::model
