// SPDX-License-Identifier: Apache-2.0
// The status bar's figures: written by model/figures.h (the rule is tested in
// tests/model/tst_figures.cpp; here that the status bar uses it), the shorter variants of
// the totals line (the most basic figures last to go), memory units, pods on unknown nodes,
// and its full details.

#include "app/window/clustertotals.h"
#include "importers/clusterloader.h"
#include "model/clusterstore.h"
#include "model/figures.h"

#include <QtTest>

using fleet::app::ClusterTotals;
using fleet::model::CoreResource;
Q_DECLARE_METATYPE(fleet::app::ClusterTotals)

class TestClusterTotals : public QObject {
    Q_OBJECT
private slots:
    void variants_data();
    void variants();
    void memory_data();
    void memory();
    void podsOnUnknownNodes();
    void details();
    void detailsWithUnknownNodes();
    void acceleratorsCountedOnce();
};

void TestClusterTotals::variants_data()
{
    QTest::addColumn<ClusterTotals>("totals");
    QTest::addColumn<QStringList>("variants");

    // The 100,000-node simulation of the user trial (figures rounded as the trial showed them).
    ClusterTotals big;
    big.nodes = 100000;
    big.nodesReady = 99000;
    big.nodesNotReady = 1000;
    big.nodesCordoned = 500;
    big.pods = 2000000;
    big.podsCounted = 1900000;
    big.podsPending = 1234;
    big.requested[CoreResource::Gpu] = 322'935'000;
    big.allocatable[CoreResource::Gpu] = 360'464'000;
    big.requested[CoreResource::Cpu] = 8'437'551'250;
    big.allocatable[CoreResource::Cpu] = 12'800'000'000;
    big.requested[CoreResource::Memory] = static_cast<std::int64_t>(69.9 * double(1LL << 50));
    big.allocatable[CoreResource::Memory] = 111LL << 50;
    const QString resources = QStringLiteral("GPUs 322,935 / 360,464 | CPU 8.44M / 12.8M cores | Memory 69.9 PiB / 111 PiB");
    // The user trial: at narrow widths nodes and pods went first; now they go last.
    QTest::newRow("100k nodes") << big
                                << QStringList {
                                       QStringLiteral(
                                           "Nodes 100,000 (99,000 ready, 1,000 NotReady, 500 cordoned) | Pods 2,000,000 "
                                           "(1,900,000 counted, 1,234 pending) | ")
                                           + resources,
                                       QStringLiteral("Nodes 100,000 | Pods 2,000,000 | ") + resources,
                                       QStringLiteral(
                                           "Nodes 100,000 | Pods 2,000,000 | GPUs 322,935 / 360,464 | CPU 8.44M / 12.8M cores"),
                                       QStringLiteral("Nodes 100,000 | Pods 2,000,000 | GPUs 322,935 / 360,464"),
                                       QStringLiteral("Nodes 100,000 | Pods 2,000,000"),
                                       QStringLiteral("Nodes 100,000"),
                                   };

    // tests/data/app/README.md: small-cluster.json.
    ClusterTotals small;
    small.nodes = 3;
    small.nodesReady = 3;
    small.pods = 5;
    small.podsCounted = 3;
    small.podsPending = 1;
    small.requested[CoreResource::Gpu] = 4000;
    small.allocatable[CoreResource::Gpu] = 8000;
    small.requested[CoreResource::Cpu] = 12000;
    small.allocatable[CoreResource::Cpu] = 76000;
    small.requested[CoreResource::Memory] = 40LL << 30;
    small.allocatable[CoreResource::Memory] = 304LL << 30;
    QTest::newRow("small-cluster") << small
                                   << QStringList {
                                          QStringLiteral(
                                              "Nodes 3 (3 ready, 0 NotReady, 0 cordoned) | Pods 5 (3 counted, 1 pending) | "
                                              "GPUs 4 / 8 | CPU 12 / 76 cores | Memory 40 GiB / 304 GiB"),
                                          QStringLiteral(
                                              "Nodes 3 | Pods 5 | GPUs 4 / 8 | CPU 12 / 76 cores | Memory 40 GiB / 304 GiB"),
                                          QStringLiteral("Nodes 3 | Pods 5 | GPUs 4 / 8 | CPU 12 / 76 cores"),
                                          QStringLiteral("Nodes 3 | Pods 5 | GPUs 4 / 8"),
                                          QStringLiteral("Nodes 3 | Pods 5"),
                                          QStringLiteral("Nodes 3"),
                                      };

    // TiB: 2,048 GiB allocatable; the requested half of a TiB in GiB.
    ClusterTotals tib;
    tib.requested[CoreResource::Memory] = 512LL << 30;
    tib.allocatable[CoreResource::Memory] = 2048LL << 30;
    QTest::newRow("TiB") << tib
                         << QStringList {
                                QStringLiteral("Nodes 0 (0 ready, 0 NotReady, 0 cordoned) | Pods 0 (0 counted, 0 pending) | "
                                               "GPUs 0 / 0 | CPU 0 / 0 cores | Memory 512 GiB / 2 TiB"),
                                QStringLiteral("Nodes 0 | Pods 0 | GPUs 0 / 0 | CPU 0 / 0 cores | Memory 512 GiB / 2 TiB"),
                                QStringLiteral("Nodes 0 | Pods 0 | GPUs 0 / 0 | CPU 0 / 0 cores"),
                                QStringLiteral("Nodes 0 | Pods 0 | GPUs 0 / 0"),
                                QStringLiteral("Nodes 0 | Pods 0"),
                                QStringLiteral("Nodes 0"),
                            };

    // The user trial: pods naming a node that is not in the input; the breakdown adds up.
    ClusterTotals unknown;
    unknown.nodes = 2;
    unknown.nodesReady = 2;
    unknown.pods = 11;
    unknown.podsCounted = 10;
    unknown.podsOnUnknownNodes = 1;
    QTest::newRow("pods on unknown nodes")
        << unknown
        << QStringList {
               QStringLiteral("Nodes 2 (2 ready, 0 NotReady, 0 cordoned) | Pods 11 (10 counted, 0 pending, 1 on unknown nodes) | "
                              "GPUs 0 / 0 | CPU 0 / 0 cores | Memory 0 B / 0 B"),
               QStringLiteral("Nodes 2 | Pods 11 | GPUs 0 / 0 | CPU 0 / 0 cores | Memory 0 B / 0 B"),
               QStringLiteral("Nodes 2 | Pods 11 | GPUs 0 / 0 | CPU 0 / 0 cores"),
               QStringLiteral("Nodes 2 | Pods 11 | GPUs 0 / 0"),
               QStringLiteral("Nodes 2 | Pods 11"),
               QStringLiteral("Nodes 2"),
           };
}

void TestClusterTotals::variants()
{
    QFETCH(ClusterTotals, totals);
    QFETCH(QStringList, variants);
    QCOMPARE(fleet::app::clusterTotalsVariants(totals), variants);
    QCOMPARE(fleet::app::formatClusterTotals(totals), variants.front());
    QCOMPARE(fleet::app::formatTotals(totals), variants.front() + QStringLiteral(" | 0 warnings"));
}

void TestClusterTotals::memory_data()
{
    QTest::addColumn<qint64>("requested"); // bytes
    QTest::addColumn<qint64>("allocatable"); // bytes
    QTest::addColumn<QString>("text");
    // The user trial: summary said 200.0 MiB, the status bar "0.195 / 59.4 GiB".
    QTest::newRow("honeycomb-eks") << qint64(200LL << 20) << qint64(2 * 31127824LL * 1024) << "Memory 200 MiB / 59.4 GiB";
    QTest::newRow("nothing requested") << qint64(0) << qint64(2 * 31127824LL * 1024) << "Memory 0 B / 59.4 GiB";
    QTest::newRow("one unit") << qint64(1LL << 30) << qint64(59LL << 30) << "Memory 1 GiB / 59 GiB";
    QTest::newRow("same unit") << qint64(40LL << 30) << qint64(304LL << 30) << "Memory 40 GiB / 304 GiB";
    QTest::newRow("GiB of TiB") << qint64(512LL << 30) << qint64(2048LL << 30) << "Memory 512 GiB / 2 TiB";
    QTest::newRow("TiB of PiB") << qint64(3LL << 40) << qint64(111LL << 50) << "Memory 3 TiB / 111 PiB";
    QTest::newRow("KiB") << qint64(1536) << qint64(1LL << 30) << "Memory 1.5 KiB / 1 GiB";
    QTest::newRow("bytes") << qint64(100) << qint64(1LL << 30) << "Memory 100 B / 1 GiB";
    QTest::newRow("no allocatable") << qint64(0) << qint64(0) << "Memory 0 B / 0 B";
}

void TestClusterTotals::memory()
{
    QFETCH(qint64, requested);
    QFETCH(qint64, allocatable);
    ClusterTotals t;
    t.requested[CoreResource::Memory] = requested;
    t.allocatable[CoreResource::Memory] = allocatable;
    QTEST(fleet::app::formatClusterTotals(t).section(QStringLiteral(" | "), -1), "text");
}

// computeTotals() on a store: a pod bound to a node that is not in the input is neither
// counted nor pending; a terminal one is none of the three.
void TestClusterTotals::podsOnUnknownNodes()
{
    fleet::model::ClusterStore store;
    fleet::model::NodeRecord node;
    node.name = "node-a";
    node.ready = fleet::model::Readiness::True;
    store.addNode(node);
    auto addPod = [&](const char* name, const char* nodeName, fleet::model::PodPhase phase) {
        fleet::model::PodRecord pod;
        pod.namespaceName = "default";
        pod.name = name;
        pod.nodeName = nodeName;
        pod.phase = phase;
        store.addPod(pod);
    };
    addPod("counted", "node-a", fleet::model::PodPhase::Running);
    addPod("pending", "", fleet::model::PodPhase::Pending);
    addPod("unknown-1", "gone-node", fleet::model::PodPhase::Running);
    addPod("unknown-2", "gone-node", fleet::model::PodPhase::Pending);
    addPod("unknown-done", "gone-node", fleet::model::PodPhase::Succeeded);
    addPod("done", "node-a", fleet::model::PodPhase::Failed);
    store.finalize();
    const ClusterTotals t = fleet::app::computeTotals(store, {});
    QCOMPARE(t.pods, std::size_t(6));
    QCOMPARE(t.podsCounted, std::size_t(1));
    QCOMPARE(t.podsPending, std::size_t(1));
    QCOMPARE(t.podsOnUnknownNodes, std::size_t(2));
    QVERIFY2(fleet::app::formatClusterTotals(t).contains(QStringLiteral("Pods 6 (1 counted, 1 pending, 2 on unknown nodes)")),
        qPrintable(fleet::app::formatClusterTotals(t)));
}

void TestClusterTotals::details()
{
    ClusterTotals t;
    t.nodes = 2;
    t.nodesReady = 2;
    t.pods = 11;
    t.podsCounted = 11;
    t.requested[CoreResource::Cpu] = 450;
    t.allocatable[CoreResource::Cpu] = 15820;
    t.requested[CoreResource::Memory] = 200LL << 20;
    t.allocatable[CoreResource::Memory] = 2 * 31127824LL * 1024;
    QCOMPARE(fleet::app::clusterTotalsDetails(t),
        QStringLiteral("Nodes 2: 2 ready, 0 NotReady, 0 cordoned\n"
                       "Pods 11: 11 counted, 0 pending\n"
                       "GPUs requested / allocatable: 0 / 0\n"
                       "CPU requested / allocatable: 0.45 / 15.82 cores\n"
                       "Memory requested / allocatable: 209,715,200 / 63,749,783,552 bytes"));
}

void TestClusterTotals::detailsWithUnknownNodes()
{
    ClusterTotals t;
    t.nodes = 2;
    t.nodesReady = 2;
    t.pods = 11;
    t.podsCounted = 10;
    t.podsOnUnknownNodes = 1;
    QVERIFY2(
        fleet::app::clusterTotalsDetails(t).contains(QStringLiteral("\nPods 11: 10 counted, 0 pending, 1 on unknown nodes\n")),
        qPrintable(fleet::app::clusterTotalsDetails(t)));
}

// The user trial: Neuron devices and MIG slices were left out of the GPU totals. Physical
// GPUs count a MIG-partitioned GPU once; MIG slices and Neuron devices / cores stand beside.
void TestClusterTotals::acceleratorsCountedOnce()
{
    ClusterTotals t;
    t.requested[CoreResource::Gpu] = 300'000'000;
    t.allocatable[CoreResource::Gpu] = 350'000'000;
    t.accelerators.wholeGpuRequestedMilli = 300'000'000;
    t.accelerators.wholeGpuAllocatableMilli = 350'000'000;
    t.accelerators.migPartitionedGpus = 10'986;
    t.accelerators.migPartitionedGpusRequested = 9'000;
    t.accelerators.migSlicesAllocatable = 76'904;
    t.accelerators.migSlicesRequested = 61'000;
    t.accelerators.neuronDevicesAllocatable = 219'344;
    t.accelerators.neuronDevicesRequested = 200'000;
    t.accelerators.neuronCoresAllocatable = 1'754'752;
    t.accelerators.neuronCoresRequested = 1'600'000;
    const QString line = fleet::app::formatClusterTotals(t);
    QVERIFY2(line.contains(QStringLiteral("| GPUs 309,000 / 360,986 (MIG slices 61,000 / 76,904), Neuron 200,000 / 219,344 devices "
                                          "(1,600,000 / 1,754,752 cores) | CPU")),
        qPrintable(line));
    // On a real store: the simulated fleet has MIG nodes and Trainium nodes.
    const auto c = fleet::importers::loadSimulatedCluster({ 2000, 1 });
    const ClusterTotals real = fleet::app::computeTotals(*c.store, c.report);
    QVERIFY(real.accelerators.migSlicesAllocatable > 0);
    QVERIFY(real.accelerators.neuronDevicesAllocatable > 0);
    QVERIFY(real.accelerators.physicalGpusMilli() > real.allocatable[CoreResource::Gpu]);
    const QString simulated = fleet::app::formatClusterTotals(real);
    QVERIFY2(simulated.contains(QStringLiteral("(MIG slices ")) && simulated.contains(QStringLiteral(" devices (")), qPrintable(simulated));
    // The shorter variants keep the physical GPU count; the tooltip lists slices and devices.
    const QStringList variants = fleet::app::clusterTotalsVariants(real);
    QVERIFY2(variants[1].contains(QStringLiteral(" | GPUs ")) && !variants[1].contains(QStringLiteral("MIG")), qPrintable(variants[1]));
    const QString details = fleet::app::clusterTotalsDetails(real);
    // The bar's physical GPUs and the nvidia.com/gpu figure (diff's "GPUs allocated") differ by the
    // MIG-partitioned GPUs; the tooltip names both.
    QVERIFY2(details.contains(QStringLiteral("Physical GPUs in use / on the nodes: %1 / ")
                                  .arg(QString::fromStdString(fleet::model::formatGpus(real.accelerators.physicalGpusRequestedMilli())))),
        qPrintable(details));
    // How many GPUs the MIG partitioning puts apart, and which figure the report and plan check give.
    QVERIFY2(details.contains(QStringLiteral("; %1 GPUs are partitioned into MIG slices")
                                  .arg(QString::fromStdString(fleet::model::formatCount(real.accelerators.migPartitionedGpus)))),
        qPrintable(details));
    QVERIFY2(details.contains(QStringLiteral("the GPUs of reports, plan check and diff")), qPrintable(details));
    QVERIFY2(details.contains(QStringLiteral("\nMIG slices requested / allocatable: ")), qPrintable(details));
    QVERIFY2(details.contains(QStringLiteral("\nNeuron devices requested / allocatable: ")), qPrintable(details));
}

QTEST_APPLESS_MAIN(TestClusterTotals)
#include "tst_clustertotals.moc"
