// SPDX-License-Identifier: Apache-2.0
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

#include "quantity.h"
#include "resources.h"

#include <array>
#include <string_view>
#include <utility>
#include <vector>

namespace fleet::model {

/// A resource list with exact amounts, as a container's requests and limits hold them: nanos
/// of the model unit (cpu: 10^-9 millicore; memory: 10^-9 byte; ...), so that a pod's request is
/// summed exactly and rounded once, as Kubernetes sums resource.Quantity values before taking
/// MilliValue() / Value() (k8s.io/component-helpers/resource PodRequests(), then the
/// scheduler's framework.Resource). Two containers of cpu "300u" request 1m, not 2m.
struct ExactResourceList {
    std::array<QuantityNanos, kCoreResourceCount> core {};
    std::uint8_t presentMask = 0;
    std::vector<std::pair<ResourceKey, QuantityNanos>> extended;

    void clear() noexcept
    {
        core = {};
        presentMask = 0;
        extended.clear();
    }
    [[nodiscard]] bool has(CoreResource r) const noexcept { return presentMask & (1u << static_cast<unsigned>(r)); }
    void setCore(CoreResource r, QuantityNanos v) noexcept
    {
        core[static_cast<std::size_t>(r)] = v;
        presentMask |= static_cast<std::uint8_t>(1u << static_cast<unsigned>(r));
    }
    /// Sets a value by registry key (core or extended), replacing an earlier one.
    void set(ResourceKey key, QuantityNanos v);
    /// Value by registry key, and whether it is present.
    [[nodiscard]] std::pair<QuantityNanos, bool> get(ResourceKey key) const noexcept;
    [[nodiscard]] bool empty() const noexcept { return presentMask == 0 && extended.empty(); }
};

/// The exact amount of quantity `text` in nanos of the model unit for a resource of `scale`:
/// Milli (cpu) x1000, Units as is, ThousandUnits (whole GPUs into milli-GPU) rounded to whole
/// units first (extended resources are whole numbers in Kubernetes) then x1000.
/// Throws QuantityError like parseQuantity(). Thread-safe.
[[nodiscard]] QuantityNanos exactQuantity(std::string_view text, QuantityScale scale);

/// Requests and limits of one container, exact.
struct ContainerResources {
    ExactResourceList requests;
    ExactResourceList limits;
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
    ExactResourceList podRequests; // spec.resources.requests
    ExactResourceList podLimits;   // spec.resources.limits
    ExactResourceList overhead;    // spec.overhead
    void clear() noexcept
    {
        containers.clear();
        initContainers.clear();
        podRequests.clear();
        podLimits.clear();
        overhead.clear();
    }
};

/// Returns the effective request of a pod (see the file comment), computed exactly and
/// rounded up once per resource to model units (an amount beyond int64 saturates, and the
/// store's finalize() then reports the overflow). `registry` tells which extended keys are
/// hugepages (pod-level resources apply to them). Pure; thread-safe.
[[nodiscard]] ResourceList effectivePodRequest(const PodResourceSpec& spec, const ResourceRegistry& registry);

} // namespace fleet::model
