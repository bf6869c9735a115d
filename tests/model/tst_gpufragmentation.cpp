// SPDX-License-Identifier: Apache-2.0
// Tests of the "gpu-fragmentation" metric (model/metrics/builtinmetrics.h) and the one GPU
// device rule it shares with the ledger (model/gpudevices.h): values worked out by hand from
// FGD's definition (PROTOCOL.md 4.1) on a small store, the typical-pod distribution without
// CPU-only and DaemonSet pods, and loadedGpuDeviceUse() equal to the ledger's devices.

#include "model/clusterstore.h"
#include "model/gpudevices.h"
#include "model/metrics/builtinmetrics.h"
#include "model/metrics/metricregistry.h"
#include "model/placement/typicalpods.h"
#include "model/scheduling/planledger.h"

#include <QTest>

#include <cmath>

using namespace fleet;
using model::CoreResource;

namespace {

void addNode(model::ClusterStore& s, const std::string& name, std::int64_t cpuMilli, int gpus)
{
    model::NodeRecord r;
    r.name = name;
    r.allocatable.setCore(CoreResource::Cpu, cpuMilli);
    r.allocatable.setCore(CoreResource::Memory, 64LL << 30);
    r.allocatable.setCore(CoreResource::Pods, 110);
    r.allocatable.setCore(CoreResource::Gpu, gpus * 1000);
    r.capacity = r.allocatable;
    r.ready = model::Readiness::True;
    r.gpuCount = gpus;
    s.addNode(r);
}

void addPod(model::ClusterStore& s, const std::string& node, std::int64_t cpuMilli, std::int64_t gpuMilli, bool shared,
    model::OwnerKind owner = model::OwnerKind::Job)
{
    static int serial = 0;
    model::PodRecord p;
    p.namespaceName = "ml";
    p.name = "pod-" + std::to_string(++serial);
    p.nodeName = node;
    p.phase = node.empty() ? model::PodPhase::Pending : model::PodPhase::Running;
    p.ownerKind = owner;
    p.ownerName = "owner";
    p.request.setCore(CoreResource::Cpu, cpuMilli);
    p.request.setCore(CoreResource::Memory, 1LL << 30);
    p.request.setCore(CoreResource::Gpu, gpuMilli);
    p.gpuShareMilli = shared ? static_cast<std::int32_t>(gpuMilli) : 0;
    s.addPod(p);
}

// n1: 4 GPUs; shares of 500, 500 (one GPU full) and 300 (a second GPU): free 0, 700, 1000, 1000.
// n2: 8 GPUs; a 2-GPU pod and a DaemonSet's 1-GPU pod: free 0, 0, 0, 1000 x 5.
// n3: 2 GPUs, 2 cpu; a 500 share with 1.5 cpu: 0.5 cpu left, less than any typical pod asks.
// cpu: no GPUs, one CPU-only pod. One pending pod asking for a 500 share.
model::ClusterStore& store()
{
    static model::ClusterStore s = [] {
        model::ClusterStore st;
        addNode(st, "n1", 32000, 4);
        addNode(st, "n2", 32000, 8);
        addNode(st, "n3", 2000, 2);
        addNode(st, "cpu", 16000, 0);
        addPod(st, "n1", 1000, 500, true);
        addPod(st, "n1", 1000, 500, true);
        addPod(st, "n1", 1000, 300, true);
        addPod(st, "n2", 4000, 2000, false);
        addPod(st, "n2", 100, 1000, false, model::OwnerKind::DaemonSet);
        addPod(st, "n3", 1500, 500, true);
        addPod(st, "cpu", 8000, 0, false);
        addPod(st, "", 1000, 500, true);
        st.finalize();
        return st;
    }();
    return s;
}

} // namespace

class TestGpuFragmentation : public QObject {
    Q_OBJECT
private slots:
    void devicesAsTheLedgerTakesThem();
    void typicalPodsLeaveCpuOnlyAndDaemonSetsOut();
    void values_data();
    void values();
    void column();
    void noGpuPodsMeansNotApplicable();
};

void TestGpuFragmentation::devicesAsTheLedgerTakesThem()
{
    const model::ClusterStore& s = store();
    const model::PlanLedger ledger(s);
    const std::vector<std::vector<std::int32_t>> expected = { { 1000, 300, 0, 0 }, { 1000, 1000, 1000, 0, 0, 0, 0, 0 }, { 500, 0 }, {} };
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        std::array<std::int32_t, model::kMaxTrackedGpus> used {};
        const int count = model::loadedGpuDeviceUse(s, n, used);
        const std::vector<std::int32_t> got(used.begin(), used.begin() + count);
        QCOMPARE(got, expected[i]);
        const auto shares = ledger.nodeGpuShares(n);
        QCOMPARE(std::vector<std::int32_t>(shares.begin(), shares.end()), got);
    }
}

void TestGpuFragmentation::typicalPodsLeaveCpuOnlyAndDaemonSetsOut()
{
    const model::MetricContext context(store());
    const auto& typical = context.gpuTypicalPods();
    // (cpu, m, k): (1000, 500, 1) x 3 (two running, one pending), then count ties by cpu
    // descending: (4000, 1000, 2), (1500, 500, 1), (1000, 300, 1); 6 pods, all kept at 95%.
    QCOMPARE(typical.size(), std::size_t(4));
    QCOMPARE(typical[0].shape.cpuMilli, 1000);
    QCOMPARE(typical[0].shape.gpuMilli, 500);
    QCOMPARE(typical[0].probability, 0.5);
    QCOMPARE(typical[1].shape.gpuCount, 2);
    QCOMPARE(typical[2].shape.cpuMilli, 1500);
    QCOMPARE(typical[3].shape.gpuMilli, 300);
    for (const auto& t : typical)
        QVERIFY(t.shape.gpuMilli > 0);
}

void TestGpuFragmentation::values_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<double>("expected"); // GPUs; NaN: not applicable
    // n1, free 0/700/1000/1000: only the 2-GPU pod (p = 1/6) leaves a fragment, the 700.
    QTest::newRow("n1: 700 milli for the 2-GPU pod") << "n1" << 0.7 / 6;
    // n2: every typical pod fits on whole free GPUs; the full ones have nothing free.
    QTest::newRow("n2: none") << "n2" << 0.0;
    // n3: no typical pod fits the 0.5 cpu left: all 1,500 free milli-GPU are fragments.
    QTest::newRow("n3: cpu starved") << "n3" << 1.5;
    QTest::newRow("cpu node n/a") << "cpu" << std::nan("");
}

void TestGpuFragmentation::values()
{
    QFETCH(QString, node);
    QFETCH(double, expected);
    const model::ClusterStore& s = store();
    const model::MetricContext context(s);
    const auto metric = model::MetricRegistry::builtin().find("gpu-fragmentation");
    QVERIFY(metric);
    const model::NodeId n = s.findNode(node.toStdString());
    const double v = metric->value(context, n);
    if (std::isnan(expected))
        QVERIFY2(std::isnan(v), qPrintable(QString::number(v)));
    else
        QVERIFY2(std::abs(v - expected) < 1e-9, qPrintable(QStringLiteral("%1 != %2").arg(v).arg(expected)));
}

void TestGpuFragmentation::column()
{
    const model::MetricContext context(store());
    const auto metric = model::MetricRegistry::builtin().find("gpu-fragmentation");
    const model::MetricColumn c = model::computeMetricColumn(*metric, context);
    QCOMPARE(c.notApplicable, std::size_t(1));
    QVERIFY(std::abs(c.total - (0.7 / 6 + 1.5)) < 1e-9);
    QCOMPARE(metric->unit(), std::string("GPUs"));
    QCOMPARE(metric->scale(), model::ScaleKind::Amount);
    QVERIFY(!metric->notApplicableReason().empty());
}

void TestGpuFragmentation::noGpuPodsMeansNotApplicable()
{
    model::ClusterStore s;
    addNode(s, "idle", 32000, 8);
    addPod(s, "idle", 1000, 0, false);
    s.finalize();
    const model::MetricContext context(s);
    QVERIFY(context.gpuTypicalPods().empty());
    QVERIFY(std::isnan(model::gpuFragmentation(context, model::NodeId(0))));
}

QTEST_APPLESS_MAIN(TestGpuFragmentation)
#include "tst_gpufragmentation.moc"
