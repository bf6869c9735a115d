// Tests of importers/simulated/simulatedusage.h: the simulated fleet's usage is there through
// loadSimulatedCluster, deterministic, within its documented ranges, and has idle allocated
// GPUs for the usage views to find (training jobs and inference Deployments holding GPUs idle).

#include "importers/clusterloader.h"
#include "importers/simulated/simulatedusage.h"
#include "model/metrics/usagemetrics.h"

#include <QtTest>

#include <cmath>

using namespace fleet;
using model::CoreResource;

class TstSimulatedUsage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void deterministic();
    void withinRanges();
    void idleGpusAreHeld();

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
        const std::int64_t gpus = s.nodeAllocatable(n)[CoreResource::Gpu] / 1000;
        if (gpus == 0) {
            QVERIFY(std::isnan(u.gpuUtilization[i]));
            QCOMPARE(u.idleAllocatedGpus[i], -1);
            continue;
        }
        ++gpuNodes;
        QVERIFY(u.gpuUtilization[i] >= 0 && u.gpuUtilization[i] <= 1);
        QVERIFY(u.idleAllocatedGpus[i] >= 0 && u.idleAllocatedGpus[i] <= gpus);
    }
    QVERIFY(gpuNodes > 100);
}

void TstSimulatedUsage::idleGpusAreHeld()
{
    const model::ClusterStore& s = *m_cluster.store;
    const model::ClusterUsage& u = *m_cluster.usage;
    QVERIFY2(u.idleAllocatedGpuTotal() > 0, "no idle allocated GPU in 2,000 simulated nodes");
    QVERIFY(u.idleAllocatedGpuTotal() < u.allocatedGpusMeasured / 5); // some, not most
    QCOMPARE(static_cast<std::int64_t>(u.idleGpus.size()), u.idleAllocatedGpuTotal());
    for (const model::IdleGpu& g : u.idleGpus) {
        QCOMPARE(s.podNode(g.pod), g.node);
        QVERIFY(s.podRequest(g.pod)[CoreResource::Gpu] > 0);
        QVERIFY(g.peakUtilization < u.idleThreshold);
    }
    // Training GPUs not idle are busy: the mean over training nodes is high.
    const std::string sentence = model::idleGpuSentence(u);
    QVERIFY2(QString::fromStdString(sentence).contains(QLatin1String("allocated GPUs idle for 1 h (below 5%)")), sentence.c_str());
    const auto metric = model::makeUsageMetric(m_cluster.usage, model::UsageMetricKind::GpuIdle);
    const model::MetricContext context(s);
    const model::MetricColumn c = model::computeMetricColumn(*metric, context);
    QCOMPARE(std::llround(c.total), static_cast<long long>(u.idleAllocatedGpuTotal()));
}

QTEST_GUILESS_MAIN(TstSimulatedUsage)
#include "tst_simulatedusage.moc"
