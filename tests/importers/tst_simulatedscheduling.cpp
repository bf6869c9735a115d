// SPDX-License-Identifier: Apache-2.0
// Tests of the simulated fleet's what-if constraints (importers/simulated/): uids on every
// pod, hostname anti-affinity on some inference Deployments, zone spread constraints of both
// kinds, host ports on DaemonSet pods, PodDisruptionBudgets, do-not-disrupt and emptyDir
// pods; and that the fleet as placed satisfies its own constraints (no node holds two pods of
// an anti-affinity Deployment or two pods on one host port; every DoNotSchedule spread
// constraint has a single zone as its domain, so its skew is 0); and that the engine's filters
// (model/scheduling/filters.h) pass every bound pod on its node, but for the problems the fleet
// was given after its pods were placed, each named.

#include "importers/clusterloader.h"
#include "model/nodeboundpods.h"
#include "model/scheduling/filters.h"

#include <QTest>

#include <map>
#include <set>
#include <string>

using namespace fleet::importers;
using namespace fleet::model;

class TestSimulatedScheduling : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void uidsAreUniqueAndDeterministic();
    void antiAffinityHolds();
    void spreadConstraintsHold();
    void hostPortsDoNotCollide();
    void budgetsAndFlags();
    void everyBoundPodPassesTheFilters();

private:
    LoadedCluster m_cluster;
};

void TestSimulatedScheduling::initTestCase()
{
    m_cluster = loadSimulatedCluster({ 6000, 3 });
    QVERIFY(m_cluster.store->podCount() > 50000);
}

void TestSimulatedScheduling::uidsAreUniqueAndDeterministic()
{
    const ClusterStore& s = *m_cluster.store;
    std::set<std::string_view> uids;
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const std::string_view uid = s.podUid(PodId(i));
        QCOMPARE(uid.size(), std::size_t(36));
        QCOMPARE(uid[14], '4'); // version 4 shape
        QVERIFY(uids.insert(uid).second);
    }
    const LoadedCluster again = loadSimulatedCluster({ 6000, 3 });
    QCOMPARE(again.store->podUid(PodId(12345)), s.podUid(PodId(12345)));
    QCOMPARE(again.store->disruptionBudgets().size(), s.disruptionBudgets().size());
}

void TestSimulatedScheduling::antiAffinityHolds()
{
    const ClusterStore& s = *m_cluster.store;
    const StringId hostname = s.strings().find("kubernetes.io/hostname");
    std::size_t pods = 0;
    std::set<std::uint32_t> workloads;
    std::set<std::pair<std::uint32_t, std::uint32_t>> seen; // (workload, node)
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const PodId p(i);
        const auto anti = s.podAntiAffinity(p);
        if (anti.empty())
            continue;
        QCOMPARE(anti.size(), std::size_t(1));
        QCOMPARE(anti[0].topologyKey, hostname);
        QCOMPARE(s.podNamespace(p), std::string_view("inference"));
        ++pods;
        workloads.insert(s.podWorkload(p).value);
        if (s.podIsCounted(p))
            QVERIFY2(seen.insert({ s.podWorkload(p).value, s.podNode(p).value }).second, "two replicas on one node");
    }
    qInfo("%zu pods of %zu Deployments with hostname anti-affinity", pods, workloads.size());
    QVERIFY(workloads.size() > 20);
    QVERIFY(pods > 100);
    QVERIFY(s.hasPodAffinity());
}

void TestSimulatedScheduling::spreadConstraintsHold()
{
    const ClusterStore& s = *m_cluster.store;
    const StringId zoneKey = s.strings().find("topology.kubernetes.io/zone");
    std::size_t hard = 0, soft = 0;
    std::map<std::uint32_t, std::set<std::uint32_t>> zonesOfSelector; // selector set (first pod) -> zones of nodes matching it
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const PodId p(i);
        for (const TopologySpreadConstraint& c : s.podSpreadConstraints(p)) {
            QCOMPARE(c.topologyKey, zoneKey);
            QCOMPARE(c.maxSkew, 1);
            if (c.whenUnsatisfiable == WhenUnsatisfiable::ScheduleAnyway) {
                ++soft;
                continue;
            }
            ++hard;
            // The domains are the zones of the nodes matching the pod's nodeSelector: one.
            if (zonesOfSelector.count(s.podWorkload(p).value))
                continue;
            std::set<std::uint32_t>& zones = zonesOfSelector[s.podWorkload(p).value];
            for (std::uint32_t n = 0; n < s.nodeCount(); ++n) {
                bool match = true;
                for (const Label& l : s.podNodeSelector(p))
                    match = match && s.nodeLabel(NodeId(n), l.key) == l.value;
                if (match)
                    zones.insert(s.nodeLabel(NodeId(n), zoneKey).value);
            }
            QCOMPARE(zones.size(), std::size_t(1));
        }
    }
    qInfo("%zu DoNotSchedule and %zu ScheduleAnyway zone spread constraints", hard, soft);
    QVERIFY(hard > 100);
    QVERIFY(soft > hard);
}

void TestSimulatedScheduling::hostPortsDoNotCollide()
{
    const ClusterStore& s = *m_cluster.store;
    std::set<std::pair<std::uint32_t, std::uint16_t>> taken; // (node, port)
    std::size_t withPorts = 0;
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const PodId p(i);
        if (s.podHostPorts(p).empty())
            continue;
        QCOMPARE(s.podOwnerKind(p), OwnerKind::DaemonSet);
        ++withPorts;
        if (s.podIsCounted(p))
            for (const HostPort& hp : s.podHostPorts(p))
                QVERIFY(taken.insert({ s.podNode(p).value, hp.port }).second);
    }
    QVERIFY(withPorts >= 3 * s.nodeCount()); // aws-node, node exporter, fluent-bit on every node
}

void TestSimulatedScheduling::budgetsAndFlags()
{
    const ClusterStore& s = *m_cluster.store;
    const auto budgets = s.disruptionBudgets();
    std::size_t min = 0, maxPercent = 0;
    for (const DisruptionBudget& b : budgets) {
        QCOMPARE(b.disruptionsAllowed, -1); // computed by the planner
        QVERIFY(!b.selector.null);
        min += b.minAvailable.set && !b.minAvailable.percent;
        maxPercent += b.maxUnavailable.set && b.maxUnavailable.percent;
    }
    qInfo("%zu budgets: %zu minAvailable, %zu maxUnavailable %%", budgets.size(), min, maxPercent);
    QVERIFY(min > 50);
    QVERIFY(maxPercent > 50);

    std::size_t dnd = 0, local = 0, running = 0, ready = 0;
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const PodId p(i);
        const std::uint16_t f = s.podFlags(p);
        dnd += (f & PodFlagDoNotDisrupt) != 0;
        local += (f & PodFlagLocalStorage) != 0;
        running += s.podPhase(p) == PodPhase::Running;
        ready += (f & PodFlagReady) != 0;
        if ((f & PodFlagReady) != 0)
            QCOMPARE(s.podPhase(p), PodPhase::Running);
    }
    qInfo("%zu do-not-disrupt, %zu emptyDir, %zu Ready pods of %zu", dnd, local, ready, s.podCount());
    QCOMPARE(ready, running);
    QVERIFY(dnd > 20 && dnd < s.podCount() / 100);
    QVERIFY(local > 1000);
}

namespace {

/// Why a failing filter of a bound pod on its node `n` is allowed: the fleet's problems that
/// came after its pods were placed (a node failed, was cordoned, came under pressure, lost a
/// GPU under them). Empty when nothing allows it.
std::string allowedBecause(const ClusterStore& s, NodeId n, const Reason& r)
{
    auto taint = [&](std::string_view key) {
        return r.kind == ReasonKind::UntoleratedTaint && (r.detail.starts_with(std::string(key) + ":") || r.detail.starts_with(std::string(key) + "="));
    };
    const bool notReady = s.nodeReadiness(n) != Readiness::True;
    if (notReady && (r.kind == ReasonKind::NodeNotReady || taint("node.kubernetes.io/not-ready") || taint("node.kubernetes.io/unreachable")))
        return "the node failed (NotReady) under its pods";
    if (s.nodeUnschedulable(n) && (r.kind == ReasonKind::NodeUnschedulable || taint("node.kubernetes.io/unschedulable")))
        return "the node was cordoned under its pods";
    if (taint("node.kubernetes.io/memory-pressure") || taint("node.kubernetes.io/disk-pressure"))
        return "the node came under memory or disk pressure after its pods were placed";
    if (r.kind == ReasonKind::Insufficient && r.detail == "nvidia.com/gpu"
        && s.nodeAllocatable(n)[CoreResource::Gpu] < s.nodeCapacity(n)[CoreResource::Gpu])
        return "a GPU of the node went unhealthy under its pods (allocatable below capacity)";
    return {};
}

} // namespace

// Each bound pod is taken off its node and judged there by checkMove(), as the kube-scheduler
// would judge it now. DaemonSet and mirror pods are their controller's on their node (checkMove
// judges no filter for them) and are counted apart.
void TestSimulatedScheduling::everyBoundPodPassesTheFilters()
{
    const ClusterStore& s = *m_cluster.store;
    PlanLedger ledger(s);
    std::map<std::string, std::size_t> allowed;
    std::size_t judged = 0, pinned = 0, failing = 0;
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const PodId p(i);
        if (!s.podIsCounted(p))
            continue;
        if (isNodeBoundPod(s, p)) {
            ++pinned;
            continue;
        }
        const NodeId n = s.podNode(p);
        QVERIFY(ledger.evictPod(p));
        const Verdict v = checkMove(ledger, p, n);
        QVERIFY(ledger.restorePod(p));
        ++judged;
        if (v.feasible)
            continue;
        ++failing;
        for (const Reason& r : v.reasons) {
            const std::string why = allowedBecause(s, n, r);
            QVERIFY2(!why.empty(), qPrintable(QStringLiteral("%1/%2 on %3: %4 (%5)")
                                                   .arg(QString::fromUtf8(s.podNamespace(p).data(), qsizetype(s.podNamespace(p).size())))
                                                   .arg(QString::fromUtf8(s.podName(p).data(), qsizetype(s.podName(p).size())))
                                                   .arg(QString::fromUtf8(s.nodeName(n).data(), qsizetype(s.nodeName(n).size())))
                                                   .arg(QString::fromStdString(r.code()))
                                                   .arg(QString::fromStdString(r.message))));
            ++allowed[why];
        }
    }
    qInfo("%zu bound pods judged, %zu DaemonSet or mirror pods not, %zu failing only for reasons allowed:", judged, pinned, failing);
    for (const auto& [why, count] : allowed)
        qInfo("  %zu x %s", count, why.c_str());
    QVERIFY(judged > 40000);
    QVERIFY(failing < judged / 20);
}

QTEST_GUILESS_MAIN(TestSimulatedScheduling)
#include "tst_simulatedscheduling.moc"
