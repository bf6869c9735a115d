// SPDX-License-Identifier: Apache-2.0
#pragma once
// The workload a pod belongs to: one rule, used by the store (ClusterStore::podWorkload), the
// map's colour by workload, and the what-if and placement, which move a workload as a whole.
//
// The rule, first match wins:
//  1. Gang labels, set by the operator on every pod of the gang (the pods' own controller is
//     a child Job or StatefulSet, which would split the gang):
//       jobset.sigs.k8s.io/jobset-name      -> JobSet          (JobSet, kubernetes-sigs/jobset)
//       training.kubeflow.org/job-name      -> TrainingJob     (Kubeflow training operator)
//       leaderworkerset.sigs.k8s.io/name    -> LeaderWorkerSet (kubernetes-sigs/lws)
//       volcano.sh/job-name                 -> VolcanoJob      (Volcano batch.volcano.sh Job)
//  2. The controller ownerReference (ownerReferences[] with controller: true), with two
//     steps up that the API leaves implicit:
//     - a ReplicaSet whose pods carry the label pod-template-hash=H and whose name ends in
//       "-H" belongs to the Deployment named without "-H" (the Deployment controller names
//       its ReplicaSets "<deployment>-<pod-template-hash>";
//       https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#pod-template-hash-label);
//     - a Job named "<cronjob>-<digits>" with at least 8 digits belongs to the CronJob
//       "<cronjob>": the CronJob controller names each Job it creates "<cronjob>-<scheduled
//       time in minutes since the Unix epoch>" (getJobName / getTimeHashInMinutes in
//       kubernetes pkg/controller/cronjob/utils.go), 8 digits for any time since 1989. A
//       heuristic: a pod does not name its Job's owner; the 8-digit floor keeps "train-1" a Job.
//  3. No controller: no workload (a bare pod).
// Labels read: the four gang labels above and pod-template-hash; nothing else.

#include "clusterstore.h"

#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace fleet::model {

/// A workload's kind and name (a view into the arguments of workloadOfPod()).
struct WorkloadName {
    OwnerKind kind = OwnerKind::None;
    std::string_view name;
    bool operator==(const WorkloadName&) const noexcept = default;
};

/// The gang label keys, in the order they are tried, with the kind each names.
struct GangLabel {
    std::string_view key;
    OwnerKind kind;
};
inline constexpr GangLabel kGangLabels[] = {
    {"jobset.sigs.k8s.io/jobset-name", OwnerKind::JobSet},
    {"training.kubeflow.org/job-name", OwnerKind::TrainingJob},
    {"leaderworkerset.sigs.k8s.io/name", OwnerKind::LeaderWorkerSet},
    {"volcano.sh/job-name", OwnerKind::VolcanoJob},
};
/// The label the Deployment controller puts on the pods of each of its ReplicaSets.
inline constexpr std::string_view kPodTemplateHashLabel = "pod-template-hash";

/// The workload of a pod whose controller ownerReference is (`controllerKind`,
/// `controllerName`) (None / "" when it has none) and whose metadata.labels are `labels`
/// (key, value). The rule is above. O(labels). Thread: any (pure).
[[nodiscard]] WorkloadName workloadOfPod(OwnerKind controllerKind, std::string_view controllerName,
                                         std::span<const std::pair<std::string, std::string>> labels) noexcept;

/// The CronJob that created a Job named `jobName` by the rule above, or "" when the name
/// does not end in "-" and at least 8 digits. Thread: any (pure).
[[nodiscard]] std::string_view cronJobOfJobName(std::string_view jobName) noexcept;

} // namespace fleet::model
