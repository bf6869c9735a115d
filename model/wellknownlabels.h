// SPDX-License-Identifier: Apache-2.0
#pragma once
// Well-known node label keys that Fleetscope reads meaning from, in order of preference.

#include <span>
#include <string_view>

namespace fleet::model {

/// The label keys that name a node's GPU model, which a pod's nodeSelector or required node
/// affinity may ask for, in the order a node's model is read: NVIDIA GPU feature discovery
/// (`nvidia.com/gpu.product`), the Alibaba trace and ACK (`alibabacloud.com/gpu-card-model`; a
/// trace pod's gpu_spec becomes a required affinity on it), EKS (`k8s.amazonaws.com/accelerator`),
/// GKE (`cloud.google.com/gke-accelerator`).
inline constexpr std::string_view kGpuModelLabelKeys[] = {
    "nvidia.com/gpu.product",
    "alibabacloud.com/gpu-card-model",
    "k8s.amazonaws.com/accelerator",
    "cloud.google.com/gke-accelerator",
};

/// The label keys that name a node's instance type: the kubernetes.io well-known label, then its
/// deprecated beta form.
inline constexpr std::string_view kInstanceTypeLabelKeys[] = {
    "node.kubernetes.io/instance-type",
    "beta.kubernetes.io/instance-type",
};

} // namespace fleet::model
