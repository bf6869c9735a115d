#pragma once
// The effective resource request of a pod, as the kube-scheduler computes it.
//
// Source: k8s.io/component-helpers/resource PodRequests() and the Kubernetes docs
// "Resource Management for Pods and Containers", "Sidecar Containers" (KEP-753),
// "Pod Overhead" (KEP-688) and "Pod-level resources" (KEP-2837):
//   effective = max( sum(app containers) + sum(restartable init containers),
//                    max over init containers i of (request(i) + sum(sidecars started before i)) )
//   then pod-level spec.resources (cpu, memory, hugepages-*) replace the container
//   aggregate where set, then spec.overhead is added.
// A container's request for a resource defaults to its limit when only the limit is set
// (API defaulting). The result does not include the pod's own "pods: 1".

#include "resources.h"

#include <vector>

namespace fleet::model {

/// Requests and limits of one container (already parsed into model units).
struct ContainerResources {
    ResourceList requests;
    ResourceList limits;
    /// An init container with restartPolicy: Always (a sidecar).
    bool restartable = false;
    void clear() noexcept
    {
        requests.clear();
        limits.clear();
        restartable = false;
    }
};

/// The resource-relevant parts of a pod spec.
struct PodResourceSpec {
    std::vector<ContainerResources> containers;
    std::vector<ContainerResources> initContainers;
    ResourceList podRequests; // spec.resources.requests
    ResourceList podLimits;   // spec.resources.limits
    ResourceList overhead;    // spec.overhead
    void clear() noexcept
    {
        containers.clear();
        initContainers.clear();
        podRequests.clear();
        podLimits.clear();
        overhead.clear();
    }
};

/// Returns the effective request of a pod (see the file comment). `registry` tells which
/// extended keys are hugepages (pod-level resources apply to them). Pure; thread-safe.
[[nodiscard]] ResourceList effectivePodRequest(const PodResourceSpec& spec, const ResourceRegistry& registry);

} // namespace fleet::model
