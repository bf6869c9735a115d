// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a voluntary eviction (a drain, a move of a running pod) must respect besides
// PodDisruptionBudgets (disruptionbudgets.h), and which pods form gangs.
//
// The rules follow `kubectl drain --ignore-daemonsets --delete-emptydir-data`
// (staging/src/k8s.io/kubectl/pkg/drain/filters.go: daemonSetFilter, mirrorPodFilter,
// localStorageFilter, unreplicatedFilter), then the autoscalers' annotations and gangs:
//   DaemonSet pods     stay on the node (--ignore-daemonsets), never evicted, never a blocker
//   mirror pods        stay (drain skips them: the kubelet owns them)
//   Succeeded / Failed pods use nothing and are deleted without a check
//   no-controller      a pod without a controller would not be recreated (drain refuses it
//                      without --force)
//   local-storage      an emptyDir's data is lost: allowed (--delete-emptydir-data) and noted
//   do-not-disrupt     karpenter.sh/do-not-disrupt: "true" or
//                      cluster-autoscaler.kubernetes.io/safe-to-evict: "false" (PodFlagDoNotDisrupt)
//   gang-member        one pod of a gang cannot be evicted alone
// A gang is the pods of a workload of kind JobSet, LeaderWorkerSet, TrainingJob or VolcanoJob,
// or the pods with PodFlagPodGroup of one workload (model/workloadname.h names the workload).
//
// Thread: any (pure functions of the store).

#include "model/clusterstore.h"
#include "model/scheduling/reasons.h"

#include <vector>

namespace fleet::model {

/// True when the pod belongs to a gang (rule above).
[[nodiscard]] bool isGangPod(const ClusterStore& store, PodId p) noexcept;

/// True for pods an eviction leaves where they are (DaemonSet and mirror pods).
[[nodiscard]] bool staysOnDrainedNode(const ClusterStore& store, PodId p) noexcept;

/// True for a pod that is leaving whatever a plan does: finished (Succeeded or Failed) or
/// terminating (PodFlagTerminating: metadata.deletionTimestamp is set; its controller has
/// made its replacement already, and kubectl drain waits for it rather than evicting it).
/// Such a pod is no demand a plan must place. Thread: any.
[[nodiscard]] bool podIsLeaving(const ClusterStore& store, PodId p) noexcept;

/// True for a pod that a drain or a failure of its node must re-place elsewhere: one that is
/// neither leaving (podIsLeaving) nor staying with the node (staysOnDrainedNode). The one rule
/// for drain-node, fail-node / fail-domain and consolidation's drains. Thread: any.
[[nodiscard]] bool movesWithDrain(const ClusterStore& store, PodId p) noexcept;

/// The eviction rules for one pod (without budgets): what refuses its eviction (`blockers`,
/// in reason order) and what is allowed but worth saying (`notes`: local-storage). Both name
/// the pod in their message. A DaemonSet, mirror or terminal pod gives neither.
struct EvictionCheck {
    std::vector<Reason> blockers;
    std::vector<Reason> notes;
};
[[nodiscard]] EvictionCheck checkEviction(const ClusterStore& store, PodId p);

/// "namespace/name" of a pod. Thread: any.
[[nodiscard]] std::string podKey(const ClusterStore& store, PodId p);

} // namespace fleet::model
