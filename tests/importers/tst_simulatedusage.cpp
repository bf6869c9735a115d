// SPDX-License-Identifier: Apache-2.0
// Tests of importers/simulated/simulatedusage.h: the simulated fleet's usage is there through
// loadSimulatedCluster, deterministic, within its documented ranges, and has idle allocated
// GPUs for the usage views to find (training jobs and inference Deployments holding GPUs idle);
// MIG nodes have usage per GPU instance, and a MIG device is idle only when all of it is.

#include "importers/clusterloader.h"
#include "importers/simulated/simulatedusage.h"
#include "model/accelerators.h"
#include "model/gpudevices.h"
#include "model/metrics/usagemetrics.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace fleet;
using model::CoreResource;

class TstSimulatedUsage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void deterministic();
    void withinRanges();
    void idleGpusAreHeld();
    void migDevicesAreIdleWhole();

private:
    importers::LoadedCluster m_cluster;
};

void TstSimulatedUsage::initTestCase()
{
    m_cluster = importers::loadSimulatedCluster({ 2000, 7 });
    QVERIFY(m_cluster.usage);
}

void TstSimulatedUsage::deterministic()
{
    const model::ClusterUsage again = importers::simulatedUsage(*m_cluster.store, 7, 0.0);
    QCOMPARE(again.cpuUsedMilli, m_cluster.usage->cpuUsedMilli);
    QCOMPARE(again.idleAllocatedGpus, m_cluster.usage->idleAllocatedGpus);
    const model::ClusterUsage other = importers::simulatedUsage(*m_cluster.store, 8, 0.0);
    QVERIFY(other.cpuUsedMilli != m_cluster.usage->cpuUsedMilli);
}

void TstSimulatedUsage::withinRanges()
{
    const model::ClusterStore& s = *m_cluster.store;
    const model::ClusterUsage& u = *m_cluster.usage;
    QCOMPARE(u.nodeCount(), s.nodeCount());
    QCOMPARE(u.source, std::string("simulated"));
    std::size_t gpuNodes = 0;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        const double req = static_cast<double>(s.nodeRequested(n)[CoreResource::Cpu]);
        QVERIFY(u.cpuUsedMilli[i] >= 0.3 * req - 1 && u.cpuUsedMilli[i] <= 1.1 * req + 1);
        const bool mig = s.nodeCapacity(n)[CoreResource::Gpu] == 0 && s.nodeGpuCount(n) > 0;
        // Devices: MIG-partitioned GPUs, or the whole GPUs the ledger tracks (an unhealthy one,
        // not allocatable, is still measured).
        const std::int64_t gpus = mig ? s.nodeGpuCount(n) : model::trackedGpuCount(s, n);
        if (gpus == 0) {
            QVERIFY(std::isnan(u.gpuUtilization[i]));
            QCOMPARE(u.idleAllocatedGpus[i], -1);
            continue;
        }
        ++gpuNodes;
        QVERIFY(u.gpuUtilization[i] >= 0 && u.gpuUtilization[i] <= 1);
        QVERIFY(u.idleAllocatedGpus[i] >= 0 && u.idleAllocatedGpus[i] <= gpus);
        QCOMPARE(u.gpusMeasured[i], static_cast<std::int32_t>(gpus));
    }
    QVERIFY(gpuNodes > 100);
}

void TstSimulatedUsage::idleGpusAreHeld()
{
    const model::ClusterStore& s = *m_cluster.store;
    const model::ClusterUsage& u = *m_cluster.usage;
    QVERIFY2(u.idleAllocatedGpuTotal() > 0, "no idle allocated GPU in 2,000 simulated nodes");
    QVERIFY(u.idleAllocatedGpuTotal() < u.allocatedGpusMeasured / 5); // some, not most
    // One entry per pod holding an idle device: a shared (MIG) device has several, counted once.
    std::set<std::pair<std::uint32_t, std::int32_t>> devices;
    for (const model::IdleGpu& g : u.idleGpus) {
        QCOMPARE(s.podNode(g.pod), g.node);
        bool holdsGpu = s.podRequest(g.pod)[CoreResource::Gpu] > 0;
        for (const auto& [key, amount] : s.podExtendedRequest(g.pod))
            holdsGpu = holdsGpu || (amount > 0 && model::isMigResourceName(s.resources().name(key)));
        QVERIFY(holdsGpu);
        QVERIFY(g.peakUtilization < u.idleThreshold);
        QVERIFY(g.device >= 0);
        devices.emplace(g.node.value, g.device);
    }
    QCOMPARE(static_cast<std::int64_t>(devices.size()), u.idleAllocatedGpuTotal());
    // Training GPUs not idle are busy: the mean over training nodes is high.
    const std::string sentence = model::idleGpuSentence(u);
    QVERIFY2(QString::fromStdString(sentence).contains(QLatin1String("allocated GPUs idle for 1 h (below 5%)")), sentence.c_str());
    const auto metric = model::makeUsageMetric(m_cluster.usage, model::UsageMetricKind::GpuIdle);
    const model::MetricContext context(s);
    const model::MetricColumn c = model::computeMetricColumn(*metric, context);
    QCOMPARE(std::llround(c.total), static_cast<long long>(u.idleAllocatedGpuTotal()));
}

// MIG nodes: every device measured per GPU instance; an idle device is one whose every held
// instance is idle (below the threshold), counted once with an entry for each of its pods; and
// a device shared by an idle pod and a busy one is not idle (the one rule, model/usage.h).
void TstSimulatedUsage::migDevicesAreIdleWhole()
{
    const model::ClusterStore& s = *m_cluster.store;
    const model::ClusterUsage& u = *m_cluster.usage;
    std::size_t migNodes = 0, migIdle = 0;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        if (s.nodeCapacity(n)[CoreResource::Gpu] > 0 || s.nodeGpuCount(n) == 0)
            continue;
        ++migNodes;
        QVERIFY2(!std::isnan(u.gpuUtilization[i]), s.nodeName(n).data());
        QCOMPARE(u.gpusMeasured[i], s.nodeGpuCount(n));
        QVERIFY(u.idleAllocatedGpus[i] >= 0);
    }
    QVERIFY2(migNodes > 10, "the simulated fleet has MIG nodes");
    std::map<std::pair<std::uint32_t, std::int32_t>, std::vector<model::IdleGpu>> byDevice;
    for (const model::IdleGpu& g : u.idleGpus)
        byDevice[{ g.node.value, g.device }].push_back(g);
    for (const auto& [device, entries] : byDevice) {
        QCOMPARE(static_cast<std::int32_t>(entries.size()), entries.front().sharedBy);
        const model::NodeId n(device.first);
        migIdle += s.nodeCapacity(n)[CoreResource::Gpu] == 0 ? 1 : 0;
    }
    qInfo("%zu MIG nodes, %zu idle MIG devices", migNodes, migIdle);

    // The rule itself: a device of 7 1g instances, one pod idle (1%), one busy (60%), the rest
    // free: not idle; the busy pod gone: idle, once, for the one pod.
    model::ClusterUsage one(1);
    model::GpuUsageBuilder rule(one);
    model::GpuDeviceSamples shared, alone;
    shared.device = alone.device = 0;
    shared.addInstance(0.01, 1, 0.01, model::PodId(1));
    shared.addInstance(0.60, 1, 0.60, model::PodId(2));
    alone.addInstance(0.01, 1, 0.01, model::PodId(1));
    for (int k = 0; k < 5; ++k) {
        shared.addInstance(0.0, 1, 0.0, {});
        alone.addInstance(0.0, 1, 0.0, {});
    }
    rule.addDevice(model::NodeId(0), shared);
    rule.finish();
    QCOMPARE(one.idleAllocatedGpus[0], 0);
    QCOMPARE(one.allocatedGpusMeasured, std::int64_t(1));
    QCOMPARE(one.gpuUtilization[0], 0.61 / 7);
    model::ClusterUsage other(1);
    model::GpuUsageBuilder rule2(other);
    alone.addInstance(0.0, 1, 0.0, {});
    rule2.addDevice(model::NodeId(0), alone);
    rule2.finish();
    QCOMPARE(other.idleAllocatedGpus[0], 1);
    QCOMPARE(other.idleGpus.size(), std::size_t(1));
    QCOMPARE(other.idleGpus[0].sharedBy, 1);
}

QTEST_GUILESS_MAIN(TstSimulatedUsage)
#include "tst_simulatedusage.moc"
