// SPDX-License-Identifier: Apache-2.0
// Tests of nodeToolTip: the hover text names the node and its figures.

#include "common/mapfixtures.h"
#include "model/figures.h"
#include "model/metrics/metricregistry.h"
#include "model/scheduling/planledger.h"
#include "model/topology.h"
#include "views/map/nodetooltip.h"
#include "views/nodeview/plannodeview.h"

#include <QRegularExpression>

#include <QTest>

using namespace fleet;

class TestNodeToolTip : public QObject {
    Q_OBJECT
private slots:
    void figures_data();
    void figures();
    void invalidNodeGivesEmptyText();
    void domainPath();
    void migFigures();
    void currentMetric_data();
    void currentMetric();
    void neuronFigures();
};

namespace {
QString f(const std::string& s)
{
    return QString::fromStdString(s);
}
// The key cells of the tooltip's table.
QStringList keys(const QString& html)
{
    QStringList out;
    static const QRegularExpression cell(QStringLiteral("<tr><td nowrap>([^<]*)</td>"));
    for (auto it = cell.globalMatch(html); it.hasNext();)
        out << it.next().captured(1);
    return out;
}
} // namespace

void TestNodeToolTip::figures_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<QStringList>("expected");
    // Figures through model/figures.h, whatever its rule writes.
    QTest::newRow("loaded GPU node")
        << "node-0000001"
        << QStringList { "node-0000001", "p5.48xlarge, 8 x H100",
               f(model::formatCpuMillicores(16000)) + " / " + f(model::formatCpuMillicores(64000)) + " ("
                   + f(model::formatShare(0.25)) + ")",
               f(model::formatBytes(32LL << 30)) + " / " + f(model::formatBytes(256LL << 30)),
               f(model::formatGpuMilli(6000)) + " / " + f(model::formatGpuMilli(8000)) + " requested",
               "<td nowrap>Unallocated</td><td>2 of 8 GPUs</td>", "<td nowrap>State</td><td>Ready</td>",
               "<td nowrap>Map shows</td><td>GPU requested " + f(model::formatShare(0.75)) + "</td>" };
    QTest::newRow("cordoned, NotReady, idle: the map shows the state")
        << "node-0000002"
        << QStringList { "<td nowrap>State</td><td>NotReady (Ready False), cordoned</td>",
               "<td nowrap>Map shows</td><td>NotReady</td>",
               "<td nowrap>Metric</td><td>GPU requested " + f(model::formatShare(0.0)) + "</td>" };
    QTest::newRow("cordoned only") << "node-0000000"
                                   << QStringList { "<td nowrap>State</td><td>Cordoned</td>",
                                          "<td nowrap>Map shows</td><td>Cordoned</td>" };
}

void TestNodeToolTip::figures()
{
    QFETCH(QString, node);
    QFETCH(QStringList, expected);
    model::ClusterStore store;
    testing::addFleetNodes(store, { 1, 1, 1, 3, 1 }, [](model::NodeRecord& rec, std::size_t i) {
        if (i == 2) {
            rec.ready = model::Readiness::False;
            rec.unschedulable = true;
        }
        if (i == 0)
            rec.unschedulable = true;
    });
    testing::addPod(store, "p", "node-0000001", 16000, 32LL << 30, 6000);
    store.finalize();
    const QString text = views::nodeToolTip(store, store.findNode(node.toStdString()), views::MapMetric::GpuRequested);
    for (const QString& part : expected)
        QVERIFY2(text.contains(part), qPrintable(QStringLiteral("'%1' not in %2").arg(part, text)));
    QVERIFY2(!text.contains("CPU 0%"), qPrintable(text));
}

// The value of the current metric with its unit; a metric that does not apply says why.
void TestNodeToolTip::currentMetric_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("expected");
    QTest::newRow("cost") << "cost"
                          << "Cost " + f(model::formatDollarsPerHour(98.32));
    QTest::newRow("unallocated cost") << "cost-unallocated"
                                      << "Cost of unallocated capacity " + f(model::formatDollarsPerHour(98.32 * 0.25));
    QTest::newRow("unallocated GPUs") << "gpu-unallocated"
                                      << "Unallocated GPUs " + f(model::formatSignificant(2)) + " GPUs";
    QTest::newRow("state") << "state"
                           << "Node state Ready";
    QTest::newRow("label") << "label:topology.kubernetes.io/zone"
                           << "Label topology.kubernetes.io/zone region-0a";
    QTest::newRow("label not set") << "label:nope"
                                   << "Label nope: not applicable (no such label)";
}

void TestNodeToolTip::currentMetric()
{
    QFETCH(QString, metric);
    QFETCH(QString, expected);
    model::ClusterStore store;
    testing::addFleetNodes(store, { 1, 1, 1, 2, 1 });
    testing::addPod(store, "p", "node-0000001", 16000, 32LL << 30, 6000);
    store.finalize();
    model::PriceTable prices;
    prices.set("*", std::string(store.nodeInstanceType(model::NodeId(1))), model::CapacityType::OnDemand, 98.32);
    const model::MetricContext context(store, &prices);
    const auto m = model::MetricRegistry::builtin().find(metric.toStdString());
    QVERIFY(m);
    QCOMPARE(views::mapShowsText(context, model::NodeId(1), *m), expected);
    QVERIFY(
        views::nodeToolTip(context, model::NodeId(1), *m).contains("<td nowrap>Map shows</td><td>" + expected.toHtmlEscaped()));
}

void TestNodeToolTip::invalidNodeGivesEmptyText()
{
    model::ClusterStore store;
    store.finalize();
    QVERIFY(views::nodeToolTip(store, model::NodeId(), views::MapMetric::CpuRequested).isEmpty());
    QVERIFY(views::nodeToolTip(store, model::NodeId(3), views::MapMetric::CpuRequested).isEmpty());
}

// The whole domain path, outermost first, names domains too small on screen for a label.
void TestNodeToolTip::domainPath()
{
    model::ClusterStore store;
    testing::addFleetNodes(store, { 1, 1, 2, 2, 1 }, [](model::NodeRecord& rec, std::size_t) {
        rec.labels.emplace_back("topology.k8s.aws/network-node-layer-2", "nn2-x");
        rec.labels.emplace_back("topology.k8s.aws/network-node-layer-3", "nn3-y");
    });
    store.finalize();
    const model::Topology topology = model::Topology::build(store);
    const model::NodeId n = store.findNode("node-0000003");
    const QString text = views::nodeToolTip(store, n, views::MapMetric::GpuRequested, &topology);
    QVERIFY2(text.contains("<td nowrap>Domain</td><td>region-0 / region-0a / nn-00001 / nn2-x / nn3-y</td>"), qPrintable(text));
    // Without a topology there is no path.
    QVERIFY(!views::nodeToolTip(store, n, views::MapMetric::GpuRequested).contains("Domain"));
}

// A MIG node (nvidia.com/gpu 0, MIG slices): the tooltip gives each MIG resource's slices
// and the map's share is that of the slices.
void TestNodeToolTip::migFigures()
{
    model::ClusterStore store;
    testing::addFleetNodes(store, { 1, 1, 1, 4, 1 }, [&store](model::NodeRecord& rec, std::size_t) {
        rec.allocatable.setCore(model::CoreResource::Gpu, 0);
        rec.allocatable.set(store.resources().keyFor("nvidia.com/mig-1g.10gb"), 56);
        rec.capacity = rec.allocatable;
        rec.gpuCount = 8;
    });
    model::PodRecord pod;
    pod.namespaceName = "ml";
    pod.name = "infer";
    pod.nodeName = "node-0000000";
    pod.phase = model::PodPhase::Running;
    pod.request.setCore(model::CoreResource::Cpu, 1000);
    pod.request.set(store.resources().keyFor("nvidia.com/mig-1g.10gb"), 14);
    store.addPod(pod);
    store.finalize();
    const model::Topology topology = model::Topology::build(store);
    const QString text = views::nodeToolTip(store, model::NodeId(0), views::MapMetric::GpuRequested, &topology);
    for (const QString& part : { QStringLiteral("<td nowrap>GPUs</td><td>8 MIG-partitioned</td>"),
             "<td nowrap>MIG slices</td><td>14 / 56 (" + f(model::formatShare(0.25)) + "): 1g.10gb 14 / 56</td>",
             QStringLiteral("<td nowrap>Unallocated</td><td>6 of 8 GPUs</td>"),
             "<td nowrap>Map shows</td><td>GPU requested " + f(model::formatShare(0.25)) + " (MIG slices)</td>" })
        QVERIFY2(text.contains(part), qPrintable(QStringLiteral("'%1' not in %2").arg(part, text)));
    // The layout stays narrow: no resource name in the key column, which made the domain
    // path wrap mid-word; every key a short word.
    for (const QString& key : keys(text))
        QVERIFY2(key.size() <= 11 && !key.contains('/'), qPrintable(key));
    QVERIFY(keys(text).contains("Domain"));
    // Under a plan that moved the pod to node 1: the slices follow it (they were the
    // loaded state's).
    model::PlanLedger plan(store);
    QVERIFY(plan.movePod(model::PodId(0), model::NodeId(1)));
    const model::MetricContext context(store);
    const auto metric = views::mapMetric(views::MapMetric::GpuRequested);
    const QString from = views::nodeToolTip(context, model::NodeId(0), *metric, &topology, &plan);
    const QString to = views::nodeToolTip(context, model::NodeId(1), *metric, &topology, &plan);
    QVERIFY2(from.contains("<td nowrap>MIG slices</td><td>0 / 56 (" + f(model::formatShare(0.0)) + "): 1g.10gb 0 / 56</td>"), qPrintable(from));
    QVERIFY2(from.contains(QStringLiteral("<td nowrap>Unallocated</td><td>8 of 8 GPUs</td>")), qPrintable(from));
    QVERIFY2(to.contains("<td nowrap>MIG slices</td><td>14 / 56 (" + f(model::formatShare(0.25)) + "): 1g.10gb 14 / 56</td>"), qPrintable(to));
}

// A Trainium node: Neuron devices counted once each, NeuronCores beside them.
void TestNodeToolTip::neuronFigures()
{
    model::ClusterStore store;
    testing::addFleetNodes(store, { 1, 1, 1, 4, 1 }, [&store](model::NodeRecord& rec, std::size_t) {
        rec.allocatable.setCore(model::CoreResource::Gpu, 0);
        rec.allocatable.set(store.resources().keyFor("aws.amazon.com/neuron"), 16);
        rec.allocatable.set(store.resources().keyFor("aws.amazon.com/neuroncore"), 128);
        rec.capacity = rec.allocatable;
        rec.gpuModel.clear();
        rec.gpuCount = 0;
    });
    model::PodRecord pod;
    pod.namespaceName = "ml";
    pod.name = "train";
    pod.nodeName = "node-0000000";
    pod.phase = model::PodPhase::Running;
    pod.request.set(store.resources().keyFor("aws.amazon.com/neuron"), 4);
    pod.request.set(store.resources().keyFor("aws.amazon.com/neuroncore"), 32);
    store.addPod(pod);
    store.finalize();
    const QString text = views::nodeToolTip(store, model::NodeId(0), views::MapMetric::GpuRequested);
    for (const QString& part : { "<td nowrap>Neuron</td><td>4 / 16 devices (" + f(model::formatShare(0.25)) + ")</td>",
             "<td nowrap>NeuronCores</td><td>32 / 128 (" + f(model::formatShare(0.25)) + ")</td>",
             QStringLiteral("<td nowrap>Unallocated</td><td>12 of 16 devices</td>") })
        QVERIFY2(text.contains(part), qPrintable(QStringLiteral("'%1' not in %2").arg(part, text)));
    // Under a plan that moved the pod away, node 0's devices and cores are free.
    model::PlanLedger plan(store);
    QVERIFY(plan.movePod(model::PodId(0), model::NodeId(2)));
    const model::MetricContext context(store);
    const QString moved = views::nodeToolTip(context, model::NodeId(0), *views::mapMetric(views::MapMetric::GpuRequested), nullptr, &plan);
    for (const QString& part : { "<td nowrap>Neuron</td><td>0 / 16 devices (" + f(model::formatShare(0.0)) + ")</td>",
             "<td nowrap>NeuronCores</td><td>0 / 128 (" + f(model::formatShare(0.0)) + ")</td>",
             QStringLiteral("<td nowrap>Unallocated</td><td>16 of 16 devices</td>") })
        QVERIFY2(moved.contains(part), qPrintable(QStringLiteral("'%1' not in %2").arg(part, moved)));
    // The node views' taints (the inspector's list): the loaded state's, plus the cordon's
    // taint when the plan cordoned the node (a drain), and not without a plan.
    const views::PlanNodeView loaded { &store, nullptr }, planned { &store, &plan };
    QVERIFY(plan.setNodeCordoned(model::NodeId(1), true));
    QCOMPARE(loaded.taints(model::NodeId(1)).size(), store.nodeTaints(model::NodeId(1)).size());
    const auto taints = planned.taints(model::NodeId(1));
    QCOMPARE(taints.size(), store.nodeTaints(model::NodeId(1)).size() + 1);
    QCOMPARE(taints.back().first, QStringLiteral("node.kubernetes.io/unschedulable"));
    QVERIFY(taints.back().second.startsWith(QStringLiteral(":NoSchedule")));
    QCOMPARE(planned.taints(model::NodeId(3)).size(), store.nodeTaints(model::NodeId(3)).size());
}

QTEST_GUILESS_MAIN(TestNodeToolTip)
#include "tst_nodetooltip.moc"
