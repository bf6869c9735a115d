// Tests of nodeToolTip: the hover text names the node and its figures.

#include "mapfixtures.h"
#include "views/map/nodetooltip.h"

#include <QTest>

using namespace fleet;

class TestNodeToolTip : public QObject {
    Q_OBJECT
private slots:
    void figures_data();
    void figures();
    void invalidNodeGivesEmptyText();
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

QTEST_GUILESS_MAIN(TestNodeToolTip)
#include "tst_nodetooltip.moc"
