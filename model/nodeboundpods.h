// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pods bound to their node. A DaemonSet pod is created per node by its controller, and a mirror
// (static) pod is the API's image of a pod the kubelet runs from a file on that node: neither
// is ever moved by a plan, `kubectl drain --ignore-daemonsets` leaves both, and both go away
// with their node. Every rule that asks "can this pod move, and is it the node's work?" asks
// this one function.

#include "model/clusterstore.h"

namespace fleet::model {

/// True when pod `p` of `store` is a DaemonSet pod or a mirror pod. O(1); `p` must be a pod of
/// `store`. Thread: any reader of the store.
[[nodiscard]] inline bool isNodeBoundPod(const ClusterStore& store, PodId p) noexcept
{
    return store.podOwnerKind(p) == OwnerKind::DaemonSet || store.podIsMirror(p);
}

} // namespace fleet::model
