// SPDX-License-Identifier: Apache-2.0
#pragma once
// A small cluster built by hand for the plan engine's tests (tst_plan*.cpp), and a snapshot of
// the ledger to check that undo restores it exactly.

#include "common/records.h"
#include "common/units.h"
#include "model/clusterstore.h"
#include "model/plan/plan.h"
#include "model/topology.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace planfixture {

using namespace fleet::model;

using fleet::testing::kGi;
inline const std::string kZoneKey = "topology.kubernetes.io/zone";

struct Cluster {
    std::unique_ptr<ClusterStore> store = std::make_unique<ClusterStore>();
    std::unique_ptr<Topology> topology;

    void node(const std::string& name, const std::string& zone, std::int64_t cpuMilli, std::int64_t gpus = 0,
        const std::string& instanceType = "m5.xlarge", std::vector<std::pair<std::string, std::string>> extraLabels = {})
    {
        NodeRecord r = fleet::testing::nodeRecord(name, cpuMilli, 16 * kGi);
        r.labels = { { "topology.kubernetes.io/region", "us-east-1" }, { kZoneKey, zone }, { "kubernetes.io/hostname", name },
            { "node.kubernetes.io/instance-type", instanceType } };
        r.labels.insert(r.labels.end(), extraLabels.begin(), extraLabels.end());
        if (gpus > 0) {
            r.allocatable.setCore(CoreResource::Gpu, gpus * 1000);
            r.gpuCount = static_cast<std::int32_t>(gpus);
            r.gpuModel = "A100";
        }
        r.capacity = r.allocatable;
        r.instanceType = instanceType;
        store->addNode(r);
    }
    /// A pod of ReplicaSet "<workload>-5d4f" (Deployment <workload>), or of `kind` / `owner`.
    PodId pod(const std::string& ns, const std::string& name, const std::string& node, std::int64_t cpuMilli,
        const std::string& workload, std::uint16_t flags = PodFlagReady, std::int64_t gpus = 0, OwnerKind kind = OwnerKind::ReplicaSet,
        std::vector<std::pair<std::string, std::string>> labels = {})
    {
        PodRecord r = fleet::testing::podRecord(ns, name, node, cpuMilli, kGi, PodPhase::Running);
        r.uid = "uid-" + name;
        if (!workload.empty()) {
            r.ownerKind = kind;
            r.ownerName = kind == OwnerKind::ReplicaSet ? workload + "-5d4f" : workload;
            if (kind == OwnerKind::ReplicaSet)
                labels.emplace_back("pod-template-hash", "5d4f");
        }
        if (labels.empty() || std::none_of(labels.begin(), labels.end(), [](const auto& l) { return l.first == "app"; }))
            labels.emplace_back("app", workload.empty() ? name : workload);
        r.labels = labels;
        if (gpus > 0)
            r.request.setCore(CoreResource::Gpu, gpus * 1000);
        r.flags = flags;
        return store->addPod(r);
    }
    void budget(const std::string& ns, const std::string& name, std::vector<std::pair<std::string, std::string>> matchLabels,
        IntOrPercent minAvailable, IntOrPercent maxUnavailable = {}, std::int32_t disruptionsAllowed = -1)
    {
        DisruptionBudgetRecord r;
        r.namespaceName = ns;
        r.name = name;
        r.matchLabels = std::move(matchLabels);
        r.minAvailable = minAvailable;
        r.maxUnavailable = maxUnavailable;
        r.disruptionsAllowed = disruptionsAllowed;
        store->addDisruptionBudget(r);
    }
    void finish()
    {
        store->finalize();
        topology = std::make_unique<Topology>(Topology::build(*store));
    }
    PodId podNamed(const std::string& name) const
    {
        for (std::uint32_t i = 0; i < store->podCount(); ++i)
            if (store->podName(PodId(i)) == name)
                return PodId(i);
        return {};
    }
};

// Zone a: n1, n2 (4 cpu each); zone b: n3 (4 cpu). Deployment web: 3 pods of 1 cpu on n1,
// a DaemonSet pod on every node.
inline Cluster webCluster()
{
    Cluster c;
    c.node("n1", "us-east-1a", 4000);
    c.node("n2", "us-east-1a", 4000);
    c.node("n3", "us-east-1b", 4000);
    for (int i = 0; i < 3; ++i)
        c.pod("default", "web-" + std::to_string(i), "n1", 1000, "web");
    for (const char* n : { "n1", "n2", "n3" })
        c.pod("kube-system", std::string("agent-") + n, n, 100, "agent", PodFlagReady, 0, OwnerKind::DaemonSet);
    return c;
}

// Four 4-cpu nodes (n1 to n4, zone a); two 2-cpu web pods on each of n1 and n2 (8 cpu: 2 nodes),
// and on n3 and n4 four 2-cpu pods that are terminating (metadata.deletionTimestamp set): they
// are leaving, so they ask for no room. Not finished.
inline Cluster terminatingPodCluster()
{
    Cluster c;
    for (const char* n : { "n1", "n2", "n3", "n4" })
        c.node(n, "us-east-1a", 4000);
    const char* live[] = { "n1", "n1", "n2", "n2" };
    for (int i = 0; i < 4; ++i)
        c.pod("default", "web-" + std::to_string(i), live[i], 2000, "web");
    const char* leaving[] = { "n3", "n3", "n4", "n4" };
    for (int i = 0; i < 4; ++i)
        c.pod("default", "old-" + std::to_string(i), leaving[i], 2000, "web", PodFlagReady | PodFlagTerminating);
    return c;
}

inline IntOrPercent count(std::int32_t v) { return { true, false, v }; }
inline IntOrPercent percent(std::int32_t v) { return { true, true, v }; }

/// Everything undo must restore: totals, every pod's node and changed flag, every node's
/// presence, plan cordon and requests, the node count.
struct Ledger {
    PlanTotals totals;
    std::vector<NodeId> podNodes;
    std::vector<bool> podChanged;
    std::vector<bool> nodePresent;
    std::vector<bool> nodeCordoned; // by the plan
    std::vector<ResourceVector> nodeRequested;
    std::size_t nodeCount = 0;
    bool operator==(const Ledger&) const = default;
};

inline Ledger ledgerOf(const PlanLedger& s)
{
    Ledger l;
    l.totals = s.totals();
    l.nodeCount = s.nodeCount();
    for (std::uint32_t i = 0; i < s.store().podCount(); ++i) {
        l.podNodes.push_back(s.podNode(PodId(i)));
        l.podChanged.push_back(s.podChanged(PodId(i)));
    }
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        l.nodePresent.push_back(s.nodePresent(NodeId(i)));
        l.nodeCordoned.push_back(s.nodeCordonedByPlan(NodeId(i)));
        l.nodeRequested.push_back(s.nodeRequested(NodeId(i)));
    }
    return l;
}

inline PlanAction move(const std::string& ns, const std::string& pod, const std::string& node, bool override = false)
{
    PlanAction a;
    a.type = ActionType::MovePod;
    a.pod = { ns, pod, "" };
    a.node = node;
    a.override = override;
    return a;
}
inline PlanAction onNode(ActionType type, const std::string& node)
{
    PlanAction a;
    a.type = type;
    a.node = node;
    return a;
}
inline PlanAction inDomain(ActionType type, const std::string& domain)
{
    PlanAction a;
    a.type = type;
    a.domain = domain;
    return a;
}

inline bool hasCode(const std::vector<Reason>& reasons, const std::string& code)
{
    for (const Reason& r : reasons)
        if (r.code() == code)
            return true;
    return false;
}

} // namespace planfixture
