// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the consolidation tests (tst_consolidation_*.cpp) share: the plan's drained and kept
// nodes by name, the plan replayed on a fresh engine, the Karpenter baseline as the floor of
// what the search frees, and the pinned and DaemonSet pods their clusters hold.

#include "planfixture.h"

#include "model/search/consolidation.h"
#include "model/search/karpenterbaseline.h"

#include <QtTest>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

namespace planfixture {

inline const KeptNode* keptOf(const ConsolidationResult& r, const Cluster& c, const std::string& node)
{
    for (const KeptNode& k : r.kept)
        if (c.store->nodeName(k.node) == node)
            return &k;
    return nullptr;
}

inline std::vector<std::string> drainedNames(const ConsolidationResult& r, const Cluster& c)
{
    std::vector<std::string> out;
    for (const NodeId n : r.drained)
        out.emplace_back(c.store->nodeName(n));
    std::sort(out.begin(), out.end());
    return out;
}

/// Every action of the plan, applied to a fresh engine, holds (the plan is what the what-if says).
inline bool replayHolds(const Cluster& c, const ConsolidationResult& r, const ConsolidationInput& in)
{
    PlanEngine engine(*c.store, *c.topology, in.nodePricePerHour);
    for (const PlanAction& a : r.pendingPlaced) // the pending pods placed first, then the drains
        if (!engine.apply(a).holds)
            return false;
    for (const PlanAction& a : r.actions)
        if (!engine.apply(a).holds)
            return false;
    return engine.state().totals().nodes == r.after.nodes;
}

inline void checkNotWorseThanBaseline(const Cluster& c, const ConsolidationInput& in, const ConsolidationResult& ours)
{
    const ConsolidationResult base = karpenterMultiNodeConsolidation(*c.store, *c.topology, in);
    QVERIFY2(ours.nodesFreed >= base.nodesFreed, qPrintable(QStringLiteral("ours %1, baseline %2").arg(ours.nodesFreed).arg(base.nodesFreed)));
    QVERIFY(ours.savedPerHour >= base.savedPerHour - 1e-9);
    QVERIFY(replayHolds(c, base, in));
}

/// The pod no consolidation moves, "default/keep-0" with karpenter.sh/do-not-disrupt, on `node`:
/// it keeps its node, which stays to take other nodes' pods.
inline void pinNode(Cluster& c, const std::string& node, std::int64_t cpuMilli)
{
    c.pod("default", "keep-0", node, cpuMilli, "keep", PodFlagReady | PodFlagDoNotDisrupt);
}

/// A DaemonSet pod ("kube-system/agent-NODE", 0.1 cpu) on each of `nodes`: never moved.
inline void daemonSetOn(Cluster& c, std::initializer_list<const char*> nodes)
{
    for (const char* n : nodes)
        c.pod("kube-system", std::string("agent-") + n, n, 100, "agent", PodFlagReady, 0, OwnerKind::DaemonSet);
}

} // namespace planfixture
