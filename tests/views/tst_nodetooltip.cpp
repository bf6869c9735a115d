// Tests of nodeToolTip: the hover text names the node and its figures.

#include "mapfixtures.h"
#include "model/topology.h"
#include "views/map/nodetooltip.h"

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
};

void TestNodeToolTip::figures_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("loaded GPU node") << "node-0000001"
                                     << QStringList { "node-0000001", "p5.48xlarge, 8 x H100", "16.0 / 64.0 cores (25%)",
                                            "32.0 / 256.0 GiB (13%)", "6.00 / 8.00 GPUs (75%)", "1 / 110",
                                            "<td>Ready</td><td>True</td>", "<td>Cordoned</td><td>no</td>", "GPU 75%" };
    QTest::newRow("cordoned, NotReady, idle") << "node-0000002"
                                              << QStringList { "0.0 / 64.0 cores (0%)", "0 / 110", "<td>Ready</td><td>False</td>",
                                                     "<td>Cordoned</td><td>yes</td>", "GPU 0%" };
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
    });
    testing::addPod(store, "p", "node-0000001", 16000, 32LL << 30, 6000);
    store.finalize();
    const QString text = views::nodeToolTip(store, store.findNode(node.toStdString()), views::MapMetric::GpuRequested);
    for (const QString& part : expected)
        QVERIFY2(text.contains(part), qPrintable(QStringLiteral("'%1' not in %2").arg(part, text)));
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
    QVERIFY2(text.contains("<td>Domain</td><td>region-0 / region-0a / nn-00001 / nn2-x / nn3-y</td>"), qPrintable(text));
    // Without a topology there is no path.
    QVERIFY(!views::nodeToolTip(store, n, views::MapMetric::GpuRequested).contains("Domain"));
}

// A MIG node (nvidia.com/gpu 0, MIG slices): the tooltip gives each MIG resource's slices
// and the map's share is that of the slices.
void TestNodeToolTip::migFigures()
{
    model::ClusterStore store;
    testing::addFleetNodes(store, { 1, 1, 1, 1, 1 }, [&store](model::NodeRecord& rec, std::size_t) {
        rec.allocatable.setCore(model::CoreResource::Gpu, 0);
        rec.allocatable.set(store.resources().keyFor("nvidia.com/mig-1g.10gb"), 56);
        rec.capacity = rec.allocatable;
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
    const QString text = views::nodeToolTip(store, model::NodeId(0), views::MapMetric::GpuRequested);
    for (const QString& part :
        { QStringLiteral("<td>nvidia.com/mig-1g.10gb</td><td>14 / 56 slices (25%)</td>"), QStringLiteral("MIG slices 25%") })
        QVERIFY2(text.contains(part), qPrintable(QStringLiteral("'%1' not in %2").arg(part, text)));
    QVERIFY2(!text.contains("GPUs"), qPrintable(text));
}

QTEST_GUILESS_MAIN(TestNodeToolTip)
#include "tst_nodetooltip.moc"
