// SPDX-License-Identifier: Apache-2.0
#include "nodeproblems.h"

#include "figures.h"
#include "resourceamount.h"

#include <algorithm>

namespace fleet::model {

std::string_view nodeProblemKindName(NodeProblemKind kind) noexcept
{
    switch (kind) {
    case NodeProblemKind::NotReady: return "NotReady";
    case NodeProblemKind::Condition: return "Condition";
    case NodeProblemKind::UnhealthyDevices: return "Unhealthy devices";
    case NodeProblemKind::OverCommitted: return "Over-committed";
    case NodeProblemKind::Cordoned: return "Cordoned";
    case NodeProblemKind::PodOnUnknownNode: return "Pod on unknown node";
    }
    return "";
}

namespace {

// The unit after formatAmount()'s number for cpu and GPUs, so that "9.5 of 8 cores" reads
// once with the unit.
std::string unitText(CoreResource r)
{
    switch (r) {
    case CoreResource::Cpu: return " cores";
    case CoreResource::Gpu: return " GPUs";
    default: return "";
    }
}

// "MemoryPressure: kubelet has insufficient memory available" (the message, else the reason).
std::string conditionText(const ClusterStore& store, const NodeCondition& c)
{
    std::string s(store.str(c.type));
    s += '=';
    s += readinessName(c.status);
    const std::string_view message = store.str(c.message);
    const std::string_view reason = store.str(c.reason);
    if (!reason.empty() || !message.empty()) {
        s += ": ";
        s += message.empty() ? reason : message;
    }
    return s;
}

// hugepages-<size> is memory the kubelet sets aside, not a device that can turn unhealthy.
bool isDevice(std::string_view resourceName) noexcept
{
    return !resourceName.starts_with("hugepages-");
}

} // namespace

std::vector<NodeProblem> findNodeProblems(const ClusterStore& store)
{
    std::vector<NodeProblem> out;
    const std::string_view readyType = "Ready";
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const NodeId n(i);
        if (store.nodeIsDeleted(n)) // a live batch deleted it: no node, no problem
            continue;
        const std::span<const NodeCondition> conditions = store.nodeConditions(n);
        if (store.nodeReadiness(n) != Readiness::True) {
            NodeProblem p{NodeProblemKind::NotReady, n, {}, "Ready=" + std::string(readinessName(store.nodeReadiness(n))), 0};
            for (const NodeCondition& c : conditions)
                if (store.str(c.type) == readyType) {
                    p.detail = conditionText(store, c);
                    p.sinceUnixSeconds = c.lastTransitionUnixSeconds;
                }
            out.push_back(std::move(p));
        }
        for (const NodeCondition& c : conditions)
            if (c.status == Readiness::True && store.str(c.type) != readyType)
                out.push_back({NodeProblemKind::Condition, n, {}, conditionText(store, c), c.lastTransitionUnixSeconds});

        const ResourceVector& allocatable = store.nodeAllocatable(n);
        const ResourceVector& capacity = store.nodeCapacity(n);
        if (capacity[CoreResource::Gpu] > allocatable[CoreResource::Gpu])
            out.push_back({NodeProblemKind::UnhealthyDevices, n, {},
                           "GPUs: " + formatGpus(capacity[CoreResource::Gpu]) + " in capacity, " + formatGpus(allocatable[CoreResource::Gpu])
                               + " allocatable",
                           0});
        const auto extAllocatable = store.nodeExtendedAllocatable(n);
        const auto extCapacity = store.nodeExtendedCapacity(n);
        for (std::size_t e = 0; e < extAllocatable.size(); ++e) {
            const std::string& name = store.resources().name(extAllocatable[e].first);
            if (extCapacity[e].second > extAllocatable[e].second && isDevice(name))
                out.push_back({NodeProblemKind::UnhealthyDevices, n, {},
                               name + ": " + formatCount(extCapacity[e].second) + " in capacity, " + formatCount(extAllocatable[e].second)
                                   + " allocatable",
                               0});
        }

        const ResourceVector& requested = store.nodeRequested(n);
        for (std::size_t r = 0; r < kCoreResourceCount; ++r) {
            const auto res = static_cast<CoreResource>(r);
            if (requested[res] > allocatable[res])
                out.push_back({NodeProblemKind::OverCommitted, n, {},
                               std::string(coreResourceName(res)) + ": " + formatAmount(res, requested[res]) + " of " + formatAmount(res, allocatable[res])
                                   + unitText(res) + " requested",
                               0});
        }
        for (const auto& [key, amount] : extAllocatable) {
            const std::int64_t req = store.nodeExtendedRequested(n, key);
            if (req > amount)
                out.push_back({NodeProblemKind::OverCommitted, n, {},
                               store.resources().name(key) + ": " + formatCount(req) + " of " + formatCount(amount) + " requested", 0});
        }
        if (store.nodeUnschedulable(n))
            out.push_back({NodeProblemKind::Cordoned, n, {}, "spec.unschedulable", 0});
    }
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const PodId p(i);
        if (store.podIsOnUnknownNode(p))
            out.push_back({NodeProblemKind::PodOnUnknownNode, {}, p,
                           std::string(store.podNamespace(p)) + "/" + std::string(store.podName(p)) + " on " + std::string(store.podNodeName(p)), 0});
    }
    // Kind first, then node (pods: pod) order; the loops above already keep node order.
    std::stable_sort(out.begin(), out.end(), [](const NodeProblem& a, const NodeProblem& b) { return a.kind < b.kind; });
    return out;
}

std::vector<NodeId> problemNodes(const std::vector<NodeProblem>& problems)
{
    std::vector<NodeId> nodes;
    nodes.reserve(problems.size());
    for (const NodeProblem& p : problems)
        if (p.node.isValid())
            nodes.push_back(p.node);
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

} // namespace fleet::model
