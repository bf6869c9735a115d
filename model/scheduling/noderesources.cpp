// SPDX-License-Identifier: Apache-2.0
// NodePorts and NodeResourcesFit.
// Sources (kubernetes/kubernetes):
//   pkg/scheduler/framework/plugins/nodeports/node_ports.go: a wanted host port conflicts with
//     one in use on the node with the same protocol and port when either host IP is 0.0.0.0
//     or both are equal (HostPortInfo.CheckConflict, pkg/scheduler/framework/types.go).
//   pkg/scheduler/framework/plugins/noderesources/fit.go (fitsRequest): the pod count first
//     (pods on the node + 1 > allocatable pods: "Too many pods"); then, unless the pod requests
//     nothing, cpu, memory and ephemeral-storage, each only when the pod requests more than 0,
//     then each extended (scalar) resource the pod requests, skipping one requested at 0; each
//     fails when the pod's request > allocatable - requested on the node, so that a request
//     equal to what is free fits, and a request of 0 is never "insufficient", even on a node
//     whose requests already exceed its allocatable (GPUs that dropped out, a resized node).
// Per-GPU fit (the trace's GPU sharing, as the FGD paper's simulator places tasks): on a node
// whose GPUs the ledger tracks, a pod holding a share of one GPU needs one GPU with that much
// free, and a pod of whole GPUs needs that many GPUs with nothing on them; there the trace's
// alibabacloud.com/gpu-count (which a sharing pod requests as 1) is judged by that rule alone.
#include "filterplugins_p.h"
#include "gpuresourcename.h"

#include "model/figures.h"
#include "model/resourceamount.h"

#include <algorithm>

namespace fleet::model::scheduling {

namespace {

constexpr std::string_view kTraceGpuCount = kTraceGpuCountResource;

std::string gpuResourceName(const Ctx& c, NodeId n)
{
    return model::gpuResourceName(*c.state, n);
}

void insufficient(const Ctx& c, NodeId n, Reasons out, const std::string& resource, const std::string& need,
    const std::string& free, const std::string& allocatable)
{
    out->push_back(makeReason(ReasonKind::Insufficient, resource,
        "needs " + need + " " + resource + ", " + std::string(c.state->nodeName(n)) + " has " + free + " free of " + allocatable));
}

} // namespace

void prepareResources(Ctx& c)
{
    c.request = c.store->podRequest(c.pod);
    c.requestsNothing = c.request[CoreResource::Cpu] == 0 && c.request[CoreResource::Memory] == 0
        && c.request[CoreResource::EphemeralStorage] == 0 && c.request[CoreResource::Gpu] == 0
        && c.store->podExtendedRequest(c.pod).empty();
    c.gpuShare = c.store->podGpuShareMilli(c.pod);
    c.wholeGpus = c.gpuShare > 0 ? 0 : static_cast<std::int32_t>((c.request[CoreResource::Gpu] + 999) / 1000);
}

bool checkPorts(const Ctx& c, NodeId n, Reasons out)
{
    bool ok = true;
    for (const HostPort& hp : c.store->podHostPorts(c.pod)) {
        if (hp.port == 0 || !c.state->nodeHostPortInUse(n, hp))
            continue;
        ok = false;
        if (!out)
            return false;
        const char* proto = hp.protocol == PortProtocol::UDP ? "UDP" : hp.protocol == PortProtocol::SCTP ? "SCTP" : "TCP";
        out->push_back(makeReason(ReasonKind::HostPortConflict, std::to_string(hp.port),
            "a pod on " + std::string(c.state->nodeName(n)) + " already uses host port " + std::to_string(hp.port) + "/" + proto));
    }
    return ok;
}

bool checkResources(const Ctx& c, NodeId n, Reasons out)
{
    const ResourceVector& alloc = c.state->nodeAllocatable(n);
    const ResourceVector& used = c.state->nodeRequested(n);
    bool ok = true;
    if (used[CoreResource::Pods] + 1 > alloc[CoreResource::Pods]) {
        ok = false;
        if (!out)
            return false;
        out->push_back(makeReason(ReasonKind::TooManyPods, {},
            std::string(c.state->nodeName(n)) + " runs " + formatCount(used[CoreResource::Pods]) + " pods, as many as its allocatable pods ("
                + formatCount(alloc[CoreResource::Pods]) + ") allows"));
    }
    if (c.requestsNothing)
        return ok;
    for (CoreResource r : { CoreResource::Cpu, CoreResource::Memory, CoreResource::EphemeralStorage }) {
        if (c.request[r] <= 0 || alloc[r] >= c.request[r] + used[r])
            continue;
        ok = false;
        if (!out)
            return false;
        insufficient(c, n, out, std::string(coreResourceName(r)), formatAmount(r, c.request[r]),
            formatAmount(r, std::max<std::int64_t>(0, alloc[r] - used[r])), formatAmount(r, alloc[r]));
    }
    // Scalar resources: the GPU (a scalar in Kubernetes, checked only when requested), then
    // each extended resource the pod requests.
    const std::int64_t gpu = c.request[CoreResource::Gpu];
    if (gpu > 0) {
        if (alloc[CoreResource::Gpu] < gpu + used[CoreResource::Gpu]) {
            ok = false;
            if (!out)
                return false;
            insufficient(c, n, out, gpuResourceName(c, n), formatGpus(gpu),
                formatGpus(std::max<std::int64_t>(0, alloc[CoreResource::Gpu] - used[CoreResource::Gpu])), formatGpus(alloc[CoreResource::Gpu]));
        } else if (const auto gpus = c.state->nodeGpuShares(n); !gpus.empty()) {
            std::int32_t mostFree = 0, idle = 0;
            for (std::int32_t u : gpus) {
                mostFree = std::max(mostFree, 1000 - u);
                idle += u == 0 ? 1 : 0;
            }
            const bool fits = c.gpuShare > 0 ? mostFree >= c.gpuShare : idle >= c.wholeGpus;
            if (!fits) {
                ok = false;
                if (!out)
                    return false;
                const std::string name = gpuResourceName(c, n);
                if (c.gpuShare > 0)
                    out->push_back(makeReason(ReasonKind::Insufficient, name,
                        "needs " + formatGpus(c.gpuShare) + " of one GPU, no GPU of " + std::string(c.state->nodeName(n)) + " has that free (the most free: "
                            + formatGpus(mostFree) + " of " + std::to_string(gpus.size()) + " GPUs)"));
                else
                    out->push_back(makeReason(ReasonKind::Insufficient, name,
                        "needs " + std::to_string(c.wholeGpus) + " whole GPUs, " + std::string(c.state->nodeName(n)) + " has " + std::to_string(idle)
                            + " of " + std::to_string(gpus.size()) + " GPUs unshared"));
            }
        }
    }
    const NodeId t = c.state->nodeTemplate(n);
    const auto nodeExt = c.store->nodeExtendedAllocatable(t);
    const bool gpusTracked = !c.state->nodeGpuShares(n).empty();
    for (const auto& [key, amount] : c.store->podExtendedRequest(c.pod)) {
        // The trace's GPU count is judged per GPU above where the GPUs are tracked: a pod
        // sharing one GPU asks for "1" of it without holding a whole one.
        if (amount <= 0 || (gpusTracked && c.store->resources().name(key) == kTraceGpuCount))
            continue;
        std::int64_t allocatable = 0;
        for (const auto& [k, a] : nodeExt)
            if (k == key)
                allocatable = a;
        const std::int64_t usedExt = c.state->nodeExtendedRequested(n, key);
        if (allocatable >= amount + usedExt)
            continue;
        ok = false;
        if (!out)
            return false;
        insufficient(c, n, out, c.store->resources().name(key), formatCount(amount), formatCount(std::max<std::int64_t>(0, allocatable - usedExt)),
            formatCount(allocatable));
    }
    return ok;
}

std::int64_t resourceCopies(const Ctx& c, NodeId n, std::int64_t limit)
{
    // fitsRequest for k copies: each resource's free amount over the pod's request, the pod
    // count first, the per-GPU rule where GPUs are tracked (a share per GPU, whole GPUs idle).
    const ResourceVector& alloc = c.state->nodeAllocatable(n);
    const ResourceVector& used = c.state->nodeRequested(n);
    std::int64_t k = std::min(limit, alloc[CoreResource::Pods] - used[CoreResource::Pods]);
    auto bound = [&](std::int64_t free, std::int64_t need) {
        if (need > 0)
            k = std::min(k, free < 0 ? 0 : free / need);
    };
    if (!c.store->podHostPorts(c.pod).empty())
        k = std::min<std::int64_t>(k, 1); // NodePorts: the copies would share their host ports
    if (k <= 0)
        return 0;
    if (c.requestsNothing)
        return k;
    for (CoreResource r : { CoreResource::Cpu, CoreResource::Memory, CoreResource::EphemeralStorage, CoreResource::Gpu })
        bound(alloc[r] - used[r], c.request[r]);
    if (c.request[CoreResource::Gpu] > 0)
        if (const auto gpus = c.state->nodeGpuShares(n); !gpus.empty()) {
            std::int64_t copies = 0, idle = 0;
            for (std::int32_t u : gpus) {
                copies += c.gpuShare > 0 ? (1000 - u) / c.gpuShare : 0;
                idle += u == 0 ? 1 : 0;
            }
            k = std::min(k, c.gpuShare > 0 ? copies : c.wholeGpus > 0 ? idle / c.wholeGpus : k);
        }
    const auto nodeExt = c.store->nodeExtendedAllocatable(c.state->nodeTemplate(n));
    const bool gpusTracked = !c.state->nodeGpuShares(n).empty();
    for (const auto& [key, amount] : c.store->podExtendedRequest(c.pod)) {
        if (gpusTracked && c.store->resources().name(key) == kTraceGpuCount)
            continue;
        std::int64_t allocatable = 0;
        for (const auto& [kk, a] : nodeExt)
            if (kk == key)
                allocatable = a;
        bound(allocatable - c.state->nodeExtendedRequested(n, key), amount);
    }
    return std::max<std::int64_t>(k, 0);
}

} // namespace fleet::model::scheduling

namespace fleet::model {

std::string gpuResourceName(const PlanLedger& state, NodeId n)
{
    const NodeId t = state.nodeTemplate(n);
    for (const auto& [key, amount] : state.store().nodeExtendedAllocatable(t))
        if (state.store().resources().name(key) == "alibabacloud.com/gpu-count")
            return "alibabacloud.com/gpu-milli";
    for (const Label& l : state.nodeLabels(n))
        if (state.str(l.key).starts_with("amd.com/"))
            return "amd.com/gpu";
    return "nvidia.com/gpu";
}

} // namespace fleet::model
