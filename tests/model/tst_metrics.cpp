// SPDX-License-Identifier: Apache-2.0
// Tests of model/metrics: each built-in metric's value for known nodes of a hand-built
// store, the registry, the computed column (counts, totals, categories).

#include "model/clusterstore.h"
#include "model/metrics/builtinmetrics.h"
#include "model/metrics/metricregistry.h"

#include "common/units.h"

#include <QTest>

#include <cmath>

using namespace fleet;
using model::CoreResource;

namespace {

using fleet::testing::kGi;

struct NodeSpec {
    std::string name;
    std::string instanceType;
    std::int64_t cpuMilli = 8000;
    std::int64_t memoryBytes = 32 * kGi;
    std::int64_t gpuMilli = 0;
    std::vector<std::pair<std::string, std::int64_t>> extended;
    std::vector<std::pair<std::string, std::string>> labels;
    model::Readiness ready = model::Readiness::True;
    bool unschedulable = false;
    std::int32_t gpuCount = 0;
};

void addNode(model::ClusterStore& store, const NodeSpec& spec)
{
    model::NodeRecord r;
    r.name = spec.name;
    r.instanceType = spec.instanceType;
    r.labels = spec.labels;
    r.labels.emplace_back("node.kubernetes.io/instance-type", spec.instanceType);
    r.allocatable.setCore(CoreResource::Cpu, spec.cpuMilli);
    r.allocatable.setCore(CoreResource::Memory, spec.memoryBytes);
    r.allocatable.setCore(CoreResource::Pods, 110);
    r.allocatable.setCore(CoreResource::Gpu, spec.gpuMilli);
    for (const auto& [name, amount] : spec.extended)
        r.allocatable.set(store.resources().keyFor(name), amount);
    r.capacity = r.allocatable;
    r.ready = spec.ready;
    r.unschedulable = spec.unschedulable;
    r.gpuCount = spec.gpuCount ? spec.gpuCount : static_cast<std::int32_t>(spec.gpuMilli / 1000);
    store.addNode(r);
}

void addPod(model::ClusterStore& store, const std::string& node, std::int64_t cpuMilli, std::int64_t memoryBytes,
    std::int64_t gpuMilli = 0, std::vector<std::pair<std::string, std::int64_t>> extended = {})
{
    static int serial = 0;
    model::PodRecord p;
    p.namespaceName = "default";
    p.name = "pod-" + std::to_string(++serial);
    p.nodeName = node;
    p.phase = model::PodPhase::Running;
    p.request.setCore(CoreResource::Cpu, cpuMilli);
    p.request.setCore(CoreResource::Memory, memoryBytes);
    p.request.setCore(CoreResource::Gpu, gpuMilli);
    for (const auto& [name, amount] : extended)
        p.request.set(store.resources().keyFor(name), amount);
    store.addPod(p);
}

const std::vector<std::pair<std::string, std::string>> kUsEast1OnDemand = { { "topology.kubernetes.io/region", "us-east-1" },
    { "eks.amazonaws.com/capacityType", "ON_DEMAND" }, { "eks.amazonaws.com/nodegroup", "train" } };

// The hand-built fleet: one node per case of the rules.
model::ClusterStore& fleetStore()
{
    static model::ClusterStore store = [] {
        model::ClusterStore s;
        addNode(s, { "gpu-quarter", "p5.48xlarge", 192000, 2048 * kGi, 8000, {}, kUsEast1OnDemand });
        addNode(s, { "gpu-shared", "g6e.48xlarge", 192000, 1536 * kGi, 8000, {}, kUsEast1OnDemand });
        addNode(s,
            { "cpu-only", "m7i.4xlarge", 16000, 64 * kGi, 0, {},
                { { "topology.kubernetes.io/region", "us-east-1" }, { "karpenter.sh/capacity-type", "spot" },
                    { "eks.amazonaws.com/nodegroup", "cpu" } } });
        addNode(s,
            { "mig", "p5.48xlarge", 192000, 2048 * kGi, 0, { { "nvidia.com/mig-1g.10gb", 56 } }, kUsEast1OnDemand,
                model::Readiness::True, false, 8 });
        addNode(s,
            { "trn", "trn2.48xlarge", 192000, 2048 * kGi, 0,
                { { "aws.amazon.com/neuron", 16 }, { "aws.amazon.com/neuroncore", 128 } },
                { { "topology.kubernetes.io/region", "us-east-1" }, { "eks.amazonaws.com/capacityType", "CAPACITY_BLOCK" },
                    { "eks.amazonaws.com/nodegroup", "train" } } });
        addNode(s, { "not-ready", "p5.48xlarge", 192000, 2048 * kGi, 8000, {}, kUsEast1OnDemand, model::Readiness::Unknown });
        addNode(s, { "cordoned", "unknown.type", 16000, 64 * kGi, 0, {}, {}, model::Readiness::True, true });
        addPod(s, "gpu-quarter", 48000, 512 * kGi, 2000);
        addPod(s, "gpu-shared", 1000, 1 * kGi, 2500);
        addPod(s, "cpu-only", 8000, 16 * kGi);
        addPod(s, "mig", 4000, 10 * kGi, 0, { { "nvidia.com/mig-1g.10gb", 14 } });
        addPod(s, "trn", 4000, 10 * kGi, 0, { { "aws.amazon.com/neuron", 4 }, { "aws.amazon.com/neuroncore", 32 } });
        s.finalize();
        return s;
    }();
    return store;
}

model::PriceTable& fleetPrices()
{
    static model::PriceTable prices = [] {
        model::PriceTable p;
        p.set("us-east-1", "p5.48xlarge", model::CapacityType::OnDemand, 100.0);
        p.set("us-east-1", "g6e.48xlarge", model::CapacityType::OnDemand, 30.0);
        p.set("us-east-1", "m7i.4xlarge", model::CapacityType::Spot, 0.3);
        p.set("*", "trn2.48xlarge", model::CapacityType::Reserved, 20.0);
        return p;
    }();
    return prices;
}

} // namespace

class TestMetrics : public QObject {
    Q_OBJECT
private slots:
    void values_data();
    void values();
    void cpuFallbackWithoutAccelerators();
    void registry_data();
    void registry();
    void column();
    void labelCategories();
    void capacityTypeFromLabels_data();
    void capacityTypeFromLabels();
    void priceTableWildcard();
};

void TestMetrics::values_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("node");
    QTest::addColumn<double>("expected"); // NaN: not applicable
    const double na = std::nan("");
    // gpu: accelerator share; a CPU-only node is not applicable, not its CPU share.
    QTest::newRow("gpu: whole GPUs") << "gpu"
                                     << "gpu-quarter" << 0.25;
    QTest::newRow("gpu: shared GPUs") << "gpu"
                                      << "gpu-shared" << 2.5 / 8;
    QTest::newRow("gpu: CPU-only node n/a") << "gpu"
                                            << "cpu-only" << na;
    QTest::newRow("gpu: MIG slices") << "gpu"
                                     << "mig" << 14.0 / 56;
    QTest::newRow("gpu: Neuron devices") << "gpu"
                                         << "trn" << 0.25;
    QTest::newRow("cpu") << "cpu"
                         << "gpu-quarter" << 0.25;
    QTest::newRow("cpu, cpu node") << "cpu"
                                   << "cpu-only" << 0.5;
    QTest::newRow("memory") << "memory"
                            << "cpu-only" << 0.25;
    // gpu-unallocated: physical devices with nothing requested.
    QTest::newRow("unallocated: 8 - 2") << "gpu-unallocated"
                                        << "gpu-quarter" << 6.0;
    QTest::newRow("unallocated: 2.5 GPUs shared leaves 5 whole") << "gpu-unallocated"
                                                                 << "gpu-shared" << 5.0;
    QTest::newRow("unallocated: MIG 14 of 56 slices, 7 a GPU") << "gpu-unallocated"
                                                               << "mig" << 6.0;
    QTest::newRow("unallocated: Neuron 16 - 4") << "gpu-unallocated"
                                                << "trn" << 12.0;
    QTest::newRow("unallocated: cpu node n/a") << "gpu-unallocated"
                                               << "cpu-only" << na;
    QTest::newRow("unallocated: NotReady node still counts") << "gpu-unallocated"
                                                             << "not-ready" << 8.0;
    // cost: the table's row for (region, type, capacity type).
    QTest::newRow("cost on-demand") << "cost"
                                    << "gpu-quarter" << 100.0;
    QTest::newRow("cost spot (karpenter label)") << "cost"
                                                 << "cpu-only" << 0.3;
    QTest::newRow("cost capacity block via * region") << "cost"
                                                      << "trn" << 20.0;
    QTest::newRow("cost unknown type") << "cost"
                                       << "cordoned" << na;
    // cost-unallocated = price x (1 - allocated share of the primary resource).
    QTest::newRow("unalloc cost: GPU node by GPUs") << "cost-unallocated"
                                                    << "gpu-quarter" << 75.0;
    QTest::newRow("unalloc cost: CPU node by max(cpu, memory)") << "cost-unallocated"
                                                                << "cpu-only" << 0.15;
    QTest::newRow("unalloc cost: Neuron, prepaid") << "cost-unallocated"
                                                   << "trn" << 15.0;
    QTest::newRow("unalloc cost: MIG by slices") << "cost-unallocated"
                                                 << "mig" << 75.0;
    QTest::newRow("unalloc cost: unknown price") << "cost-unallocated"
                                                 << "cordoned" << na;
    // state
    QTest::newRow("state Ready") << "state"
                                 << "gpu-quarter" << 0.0;
    QTest::newRow("state NotReady (Unknown)") << "state"
                                              << "not-ready" << 1.0;
    QTest::newRow("state cordoned") << "state"
                                    << "cordoned" << 2.0;
}

void TestMetrics::values()
{
    QFETCH(QString, metric);
    QFETCH(QString, node);
    QFETCH(double, expected);
    const model::ClusterStore& store = fleetStore();
    const model::MetricContext context(store, &fleetPrices());
    const auto m = model::MetricRegistry::builtin().find(metric.toStdString());
    QVERIFY(m);
    const model::NodeId n = store.findNode(node.toStdString());
    QVERIFY(n.isValid());
    const double got = m->value(context, n);
    if (std::isnan(expected))
        QVERIFY2(std::isnan(got), qPrintable(QString::number(got)));
    else
        QVERIFY2(std::abs(got - expected) < 1e-9, qPrintable(QStringLiteral("%1, expected %2").arg(got).arg(expected)));
}

// A fleet without any accelerator: "gpu" shows the CPU share, titled so.
void TestMetrics::cpuFallbackWithoutAccelerators()
{
    model::ClusterStore store;
    addNode(store, { "a", "m7i.4xlarge" });
    addPod(store, "a", 2000, kGi);
    store.finalize();
    const model::MetricContext context(store);
    QVERIFY(!context.fleetHasAccelerators());
    const auto gpu = model::makeGpuRequestedMetric();
    QCOMPARE(gpu->value(context, model::NodeId(0)), 0.25);
    QCOMPARE(model::gpuMetricTitle(false), std::string_view("CPU requested (no GPU nodes)"));
    QCOMPARE(model::gpuMetricTitle(true), std::string_view("GPU requested"));
}

void TestMetrics::registry_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("found");
    QTest::addColumn<int>("scale");
    QTest::addColumn<QString>("unit");
    using model::ScaleKind;
    QTest::newRow("gpu") << "gpu" << true << int(ScaleKind::Share) << "% of allocatable";
    QTest::newRow("cpu") << "cpu" << true << int(ScaleKind::Share) << "% of allocatable";
    QTest::newRow("memory") << "memory" << true << int(ScaleKind::Share) << "% of allocatable";
    QTest::newRow("gpu-unallocated") << "gpu-unallocated" << true << int(ScaleKind::Amount) << "GPUs";
    QTest::newRow("cost") << "cost" << true << int(ScaleKind::Amount) << "$/h";
    QTest::newRow("cost-unallocated") << "cost-unallocated" << true << int(ScaleKind::Amount) << "$/h";
    QTest::newRow("state") << "state" << true << int(ScaleKind::Categorical) << "";
    QTest::newRow("label") << "label:eks.amazonaws.com/nodegroup" << true << int(ScaleKind::Categorical) << "";
    QTest::newRow("label without key") << "label:" << false << 0 << "";
    QTest::newRow("unknown") << "gpus" << false << 0 << "";
    QTest::newRow("empty") << "" << false << 0 << "";
}

void TestMetrics::registry()
{
    QFETCH(QString, id);
    QFETCH(bool, found);
    QFETCH(int, scale);
    QFETCH(QString, unit);
    const auto m = model::MetricRegistry::builtin().find(id.toStdString());
    QCOMPARE(m != nullptr, found);
    if (!m)
        return;
    QCOMPARE(QString::fromStdString(m->id()), id);
    QCOMPARE(int(m->scale()), scale);
    QCOMPARE(QString::fromStdString(m->unit()), unit);
    QVERIFY(!m->title().empty());
    QVERIFY(!m->description().empty());
}

void TestMetrics::column()
{
    const model::ClusterStore& store = fleetStore();
    const model::MetricContext context(store, &fleetPrices());
    const model::MetricColumn cost = model::computeMetricColumn(*model::makeCostMetric(), context);
    QCOMPARE(cost.values.size(), store.nodeCount());
    QCOMPARE(cost.notApplicable, std::size_t(1)); // the unknown type
    // p5 x3 (gpu-quarter, mig, not-ready) 300 + g6e 30 + spot 0.3 + capacity block 20.
    QVERIFY(std::abs(cost.total - 350.3) < 1e-9);
    QCOMPARE(cost.prepaidTotal, 20.0);
    QCOMPARE(cost.maxValue, 100.0);
    QCOMPARE(cost.minValue, 0.3);

    const model::MetricColumn state = model::computeMetricColumn(*model::makeNodeStateMetric(), context);
    QCOMPARE(state.categories.size(), std::size_t(3));
    QCOMPARE(state.categories[0].name, std::string("Ready"));
    QCOMPARE(state.categories[0].nodes, std::size_t(5));
    QCOMPARE(state.categories[1].name, std::string("NotReady"));
    QCOMPARE(state.categories[1].nodes, std::size_t(1));
    QCOMPARE(state.categories[2].nodes, std::size_t(1));
}

void TestMetrics::labelCategories()
{
    const model::ClusterStore& store = fleetStore();
    const model::MetricContext context(store);
    const auto m = model::MetricRegistry::builtin().find("label:eks.amazonaws.com/nodegroup");
    QCOMPARE(m->title(), std::string("Node group"));
    const model::MetricColumn c = model::computeMetricColumn(*m, context);
    // train: 5 (gpu-quarter, gpu-shared, mig, trn, not-ready); cpu: 1; cordoned has no label.
    QCOMPARE(c.categories.size(), std::size_t(2));
    QCOMPARE(c.categories[0].name, std::string("train"));
    QCOMPARE(c.categories[0].nodes, std::size_t(5));
    QCOMPARE(c.categories[1].name, std::string("cpu"));
    QCOMPARE(c.notApplicable, std::size_t(1));
    QCOMPARE(c.categoryRank[store.findNode("cpu-only").index()], 1);
    QCOMPARE(c.categoryRank[store.findNode("cordoned").index()], -1);
    QCOMPARE(model::MetricRegistry::builtin().find("label:x")->title(), std::string("Label x"));
}

void TestMetrics::capacityTypeFromLabels_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<int>("expected");
    using model::CapacityType;
    QTest::newRow("EKS ON_DEMAND") << "eks.amazonaws.com/capacityType"
                                   << "ON_DEMAND" << int(CapacityType::OnDemand);
    QTest::newRow("EKS SPOT") << "eks.amazonaws.com/capacityType"
                              << "SPOT" << int(CapacityType::Spot);
    QTest::newRow("EKS CAPACITY_BLOCK") << "eks.amazonaws.com/capacityType"
                                        << "CAPACITY_BLOCK" << int(CapacityType::Reserved);
    QTest::newRow("Karpenter on-demand") << "karpenter.sh/capacity-type"
                                         << "on-demand" << int(CapacityType::OnDemand);
    QTest::newRow("Karpenter spot") << "karpenter.sh/capacity-type"
                                    << "spot" << int(CapacityType::Spot);
    QTest::newRow("Karpenter reserved") << "karpenter.sh/capacity-type"
                                        << "reserved" << int(CapacityType::Reserved);
    QTest::newRow("no label: on-demand") << "other"
                                         << "x" << int(CapacityType::OnDemand);
}

void TestMetrics::capacityTypeFromLabels()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(int, expected);
    model::ClusterStore store;
    addNode(store, { "n", "m7i.4xlarge", 8000, kGi, 0, {}, { { key.toStdString(), value.toStdString() } } });
    store.finalize();
    QCOMPARE(int(model::nodeCapacityType(store, model::NodeId(0))), expected);
    QCOMPARE(model::isPrepaid(static_cast<model::CapacityType>(expected)), expected == int(model::CapacityType::Reserved));
}

void TestMetrics::priceTableWildcard()
{
    model::PriceTable t;
    t.set("*", "m7i.4xlarge", model::CapacityType::OnDemand, 1.0);
    t.set("eu-west-1", "m7i.4xlarge", model::CapacityType::OnDemand, 1.2);
    QCOMPARE(*t.find("eu-west-1", "m7i.4xlarge", model::CapacityType::OnDemand), 1.2);
    QCOMPARE(*t.find("us-east-1", "m7i.4xlarge", model::CapacityType::OnDemand), 1.0);
    QVERIFY(!t.find("us-east-1", "m7i.4xlarge", model::CapacityType::Spot));
    QVERIFY(!t.find("us-east-1", "m7i.8xlarge", model::CapacityType::OnDemand));
}

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
