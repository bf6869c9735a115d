// SPDX-License-Identifier: Apache-2.0
// Tests of the exploring item models: QAbstractItemModelTester on each (bare and behind a
// sorting proxy), and values read back against the store on the EKS fixture, a small
// simulated fleet and hand-made problem / pending-shape vectors.

#include "explorefixtures.h"
#include "importers/kube/kubejson.h"
#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/nodepodsmodel.h"
#include "views/itemmodels/noderesourcesmodel.h"
#include "views/itemmodels/nodetablemodel.h"
#include "views/itemmodels/pendingshapesmodel.h"
#include "views/itemmodels/problemsmodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include <cmath>

using namespace fleet;
using views::kSortRole;

namespace {

qint64 sortValue(const QAbstractItemModel& m, int row, int column)
{
    return m.data(m.index(row, column), kSortRole).toLongLong();
}

int findRow(const QAbstractItemModel& m, int column, const QString& text)
{
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.data(m.index(r, column)).toString() == text)
            return r;
    return -1;
}

// Runs the tester over `model` and over a proxy sorting it by every column both ways.
void testModel(QAbstractItemModel* model)
{
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSortFilterProxyModel proxy;
    proxy.setSortRole(kSortRole);
    proxy.setSourceModel(model);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (int c = 0; c < model->columnCount(); ++c) {
        proxy.sort(c, Qt::AscendingOrder);
        proxy.sort(c, Qt::DescendingOrder);
    }
    proxy.setFilterKeyColumn(-1);
    proxy.setFilterFixedString(QStringLiteral("a"));
}

} // namespace

class TestItemModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        auto eks = testing::loadEksFixture();
        m_eks = eks.store;
        m_eksTopology = eks.topology;
        auto sim = testing::loadSimulated(300);
        m_sim = sim.store;
        m_simTopology = sim.topology;
    }

    void nodePods_eks_data()
    {
        QTest::addColumn<QString>("pod");
        QTest::addColumn<qint64>("cpuMillicores");
        QTest::addColumn<qint64>("memoryBytes");
        QTest::addColumn<qint64>("priority");
        QTest::addColumn<QString>("phase");
        QTest::newRow("speaker") << "speaker-cpxhz" << qint64(100) << qint64(100) * 1024 * 1024 << qint64(0) << "Running";
        QTest::newRow("calico") << "calico-node-h2bjp" << qint64(250) << qint64(0) << qint64(2000001000) << "Running";
        QTest::newRow("no requests") << "kuard-6b65d9d8b5-44bbs" << qint64(0) << qint64(0) << qint64(0) << "Running";
    }
    void nodePods_eks()
    {
        QFETCH(QString, pod);
        QFETCH(qint64, cpuMillicores);
        QFETCH(qint64, memoryBytes);
        QFETCH(qint64, priority);
        QFETCH(QString, phase);
        views::NodePodsModel model;
        const model::NodeId node = m_eks->findNode("duckboat-01");
        QVERIFY(node.isValid());
        model.setNode(m_eks, node);
        testModel(&model);
        QCOMPARE(model.rowCount(), static_cast<int>(m_eks->nodePods(node).size()));
        QVERIFY(model.rowCount() > 0);
        const int row = findRow(model, views::NodePodsModel::NameColumn, pod);
        QVERIFY2(row >= 0, qPrintable(pod));
        QCOMPARE(sortValue(model, row, views::NodePodsModel::CpuColumn), cpuMillicores);
        QCOMPARE(sortValue(model, row, views::NodePodsModel::MemoryColumn), memoryBytes);
        QCOMPARE(sortValue(model, row, model.priorityColumn()), priority);
        QCOMPARE(model.data(model.index(row, views::NodePodsModel::PhaseColumn)).toString(), phase);
        QCOMPARE(model.podAt(row).isValid(), true);
        QCOMPARE(QString::fromUtf8(m_eks->podName(model.podAt(row))), pod);
    }

    // A pod with metadata.deletionTimestamp, read by the kubectl importer, shows as kubectl
    // shows it: "Terminating", its phase in the tooltip.
    void nodePods_terminating()
    {
        auto store = std::make_shared<model::ClusterStore>();
        importers::ImportReport report;
        importers::importKubectlJsonText(R"({"kind": "List", "items": [
{"kind": "Node", "metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}},
{"kind": "Pod", "metadata": {"name": "web-0", "namespace": "shop", "deletionTimestamp": "2026-12-06T04:00:00Z"},
 "spec": {"nodeName": "n1", "containers": [{"name": "c"}]}, "status": {"phase": "Running"}},
{"kind": "Pod", "metadata": {"name": "web-1", "namespace": "shop", "deletionTimestamp": null},
 "spec": {"nodeName": "n1", "containers": [{"name": "c"}]}, "status": {"phase": "Running"}}]})",
            "terminating.json", *store, report);
        store->finalize();
        views::NodePodsModel model;
        model.setNode(store, store->findNode("n1"));
        testModel(&model);
        const int terminating = findRow(model, views::NodePodsModel::NameColumn, QStringLiteral("web-0"));
        const int running = findRow(model, views::NodePodsModel::NameColumn, QStringLiteral("web-1"));
        QVERIFY(terminating >= 0 && running >= 0);
        QCOMPARE(model.data(model.index(terminating, views::NodePodsModel::PhaseColumn)).toString(), QStringLiteral("Terminating"));
        QVERIFY(model.data(model.index(terminating, views::NodePodsModel::PhaseColumn), Qt::ToolTipRole).toString().contains("Running"));
        QCOMPARE(model.data(model.index(running, views::NodePodsModel::PhaseColumn)).toString(), QStringLiteral("Running"));
    }

    // Under a plan over a copy of the store (Plan > Place Workload), the model reads the copy and
    // keeps it: the plan it was given stays alive after its caller lets go of it.
    void nodePods_keepsThePlanItReads()
    {
        struct PlanOverCopy {
            explicit PlanOverCopy(const model::ClusterStore& loaded)
                : copy(loaded.clone())
                , ledger(copy)
            {
            }
            model::ClusterStore copy;
            model::PlanLedger ledger;
        };
        views::NodePodsModel model;
        const model::NodeId node = m_eks->findNode("duckboat-01");
        std::weak_ptr<const model::PlanLedger> watched;
        {
            auto owner = std::make_shared<PlanOverCopy>(*m_eks);
            const std::shared_ptr<const model::PlanLedger> plan(owner, &owner->ledger);
            watched = plan;
            model.setNode(m_eks, node, plan);
        }
        QVERIFY(!watched.expired());
        QCOMPARE(model.rowCount(), static_cast<int>(m_eks->nodePods(node).size()));
        testModel(&model);
        const int row = findRow(model, views::NodePodsModel::NameColumn, QStringLiteral("speaker-cpxhz"));
        QVERIFY(row >= 0);
        QCOMPARE(
            model.data(model.index(row, views::NodePodsModel::WorkloadColumn)).toString(), QStringLiteral("DaemonSet/speaker"));
        model.setNode(m_eks, node); // another plan (none): the old one goes
        QVERIFY(watched.expired());
    }

    void nodePods_workload()
    {
        views::NodePodsModel model;
        model.setNode(m_eks, m_eks->findNode("duckboat-01"));
        const int row = findRow(model, views::NodePodsModel::NameColumn, QStringLiteral("speaker-cpxhz"));
        QVERIFY(row >= 0);
        QCOMPARE(
            model.data(model.index(row, views::NodePodsModel::WorkloadColumn)).toString(), QStringLiteral("DaemonSet/speaker"));
    }

    void nodePods_sortsNumerically()
    {
        views::NodePodsModel model;
        model.setNode(m_eks, m_eks->findNode("duckboat-01"));
        QSortFilterProxyModel proxy;
        proxy.setSortRole(kSortRole);
        proxy.setSourceModel(&model);
        proxy.sort(views::NodePodsModel::CpuColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, views::NodePodsModel::NameColumn)).toString(), QStringLiteral("calico-node-h2bjp"));
        for (int r = 1; r < proxy.rowCount(); ++r)
            QVERIFY(
                sortValue(proxy, r - 1, views::NodePodsModel::CpuColumn) >= sortValue(proxy, r, views::NodePodsModel::CpuColumn));
    }

    // Every node of the simulated fleet: the pods' requests sum to the node's requested, for
    // core and extended resources (MIG slices, Neuron devices, EFA).
    void nodePods_simulatedSums()
    {
        views::NodePodsModel model;
        testModel(&model);
        int extendedSeen = 0;
        for (std::size_t i = 0; i < m_sim->nodeCount(); i += 7) {
            const model::NodeId n(static_cast<std::uint32_t>(i));
            model.setNode(m_sim, n);
            qint64 cpu = 0, gpu = 0;
            for (int r = 0; r < model.rowCount(); ++r) {
                cpu += sortValue(model, r, views::NodePodsModel::CpuColumn);
                gpu += sortValue(model, r, views::NodePodsModel::GpuColumn);
            }
            QCOMPARE(cpu, m_sim->nodeRequested(n)[model::CoreResource::Cpu]);
            QCOMPARE(gpu, m_sim->nodeRequested(n)[model::CoreResource::Gpu]);
            for (std::size_t e = 0; e < model.extendedKeys().size(); ++e) {
                ++extendedSeen;
                const int column = views::NodePodsModel::FirstExtendedColumn + static_cast<int>(e);
                qint64 sum = 0;
                for (int r = 0; r < model.rowCount(); ++r)
                    sum += sortValue(model, r, column);
                QCOMPARE(sum, m_sim->nodeExtendedRequested(n, model.extendedKeys()[e]));
                QCOMPARE(model.headerData(column, Qt::Horizontal).toString(),
                    QString::fromStdString(m_sim->resources().name(model.extendedKeys()[e])));
            }
        }
        QVERIFY(extendedSeen > 0);
    }

    void nodeResources_eks_data()
    {
        QTest::addColumn<QString>("resource");
        QTest::addColumn<qint64>("allocatable");
        QTest::addColumn<qint64>("capacity");
        QTest::addColumn<qint64>("requested");
        QTest::newRow("cpu") << "cpu" << qint64(7910) << qint64(8000) << qint64(450);
        QTest::newRow("memory") << "memory" << qint64(31127824) * 1024 << qint64(32144656) * 1024 << qint64(200) * 1024 * 1024;
        QTest::newRow("pods") << "pods" << qint64(58) << qint64(58) << qint64(11);
        QTest::newRow("extended") << "attachable-volumes-aws-ebs" << qint64(39) << qint64(39) << qint64(0);
    }
    void nodeResources_eks()
    {
        QFETCH(QString, resource);
        QFETCH(qint64, allocatable);
        QFETCH(qint64, capacity);
        QFETCH(qint64, requested);
        views::NodeResourcesModel model;
        model.setNode(m_eks, m_eks->findNode("duckboat-01"));
        testModel(&model);
        QCOMPARE(model.rowOf(QStringLiteral("gpu")), -1); // a CPU node has no GPU row
        const int row = model.rowOf(resource);
        QVERIFY2(row >= 0, qPrintable(resource));
        QCOMPARE(sortValue(model, row, views::NodeResourcesModel::AllocatableColumn), allocatable);
        QCOMPARE(sortValue(model, row, views::NodeResourcesModel::CapacityColumn), capacity);
        QCOMPARE(sortValue(model, row, views::NodeResourcesModel::RequestedColumn), requested);
        const double share = model.data(model.index(row, views::NodeResourcesModel::ShareColumn), kSortRole).toDouble();
        QCOMPARE(share, static_cast<double>(requested) / static_cast<double>(allocatable));
    }

    void nodeResources_simulatedGpuNode()
    {
        // The first node with GPUs: its gpu row reads the store's milli-GPU.
        model::NodeId gpuNode;
        for (std::size_t i = 0; i < m_sim->nodeCount() && !gpuNode.isValid(); ++i)
            if (m_sim->nodeAllocatable(model::NodeId(static_cast<std::uint32_t>(i)))[model::CoreResource::Gpu] > 0)
                gpuNode = model::NodeId(static_cast<std::uint32_t>(i));
        QVERIFY(gpuNode.isValid());
        views::NodeResourcesModel model;
        model.setNode(m_sim, gpuNode);
        testModel(&model);
        const int row = model.rowOf(QStringLiteral("gpu"));
        QVERIFY(row >= 0);
        QCOMPARE(sortValue(model, row, views::NodeResourcesModel::AllocatableColumn),
            m_sim->nodeAllocatable(gpuNode)[model::CoreResource::Gpu]);
        QCOMPARE(sortValue(model, row, views::NodeResourcesModel::RequestedColumn),
            m_sim->nodeRequested(gpuNode)[model::CoreResource::Gpu]);
        QCOMPARE(model.rowCount(), 5 + static_cast<int>(m_sim->nodeExtendedAllocatable(gpuNode).size()));
    }

    void nodeTable_domain()
    {
        views::NodeTableModel model;
        model.setNodes(m_sim, m_simTopology->domainNodes(m_simTopology->root()));
        testModel(&model);
        QCOMPARE(model.rowCount(), static_cast<int>(m_sim->nodeCount()));
        for (int r = 0; r < model.rowCount(); r += 13) {
            const model::NodeId n = model.nodeAt(r);
            QCOMPARE(
                model.data(model.index(r, views::NodeTableModel::NameColumn)).toString(), QString::fromUtf8(m_sim->nodeName(n)));
            const double cpu = model.data(model.index(r, views::NodeTableModel::CpuShareColumn), kSortRole).toDouble();
            QCOMPARE(cpu,
                static_cast<double>(m_sim->nodeRequested(n)[model::CoreResource::Cpu])
                    / static_cast<double>(m_sim->nodeAllocatable(n)[model::CoreResource::Cpu]));
            QCOMPARE(sortValue(model, r, views::NodeTableModel::PodsColumn), static_cast<qint64>(m_sim->nodePods(n).size()));
            QCOMPARE(sortValue(model, r, views::NodeTableModel::GpusColumn), static_cast<qint64>(m_sim->nodeGpuCount(n)));
            QCOMPARE(sortValue(model, r, views::NodeTableModel::CordonedColumn), qint64(m_sim->nodeUnschedulable(n)));
        }
    }

    void nodeTable_eksCpuNodeHasNoGpuShare()
    {
        views::NodeTableModel model;
        const model::NodeId n = m_eks->findNode("duckboat-01");
        model.setNodes(m_eks, std::span(&n, 1));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.data(model.index(0, views::NodeTableModel::GpuShareColumn), kSortRole).toDouble(), -1.0);
        QCOMPARE(model.data(model.index(0, views::NodeTableModel::ReadyColumn)).toString(), QStringLiteral("True"));
    }

    void problems_handMade()
    {
        std::vector<model::NodeProblem> problems(3);
        problems[0].kind = model::NodeProblemKind::NotReady;
        problems[0].node = model::NodeId(0);
        problems[0].detail = "KubeletNotReady";
        problems[0].sinceUnixSeconds = 1764597600; // 2025-12-01T14:00:00Z
        problems[1].kind = model::NodeProblemKind::Cordoned;
        problems[1].node = model::NodeId(5);
        problems[1].node = model::NodeId(0); // the same node twice: marked once
        problems[2].kind = model::NodeProblemKind::PodOnUnknownNode;
        problems[2].pod = model::PodId(0);
        problems[2].detail = "node-gone";
        views::ProblemsModel model;
        model.setProblems(m_sim, m_simTopology, problems);
        testModel(&model);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.data(model.index(0, views::ProblemsModel::NodeColumn)).toString(),
            QString::fromUtf8(m_sim->nodeName(model::NodeId(0))));
        QCOMPARE(
            model.data(model.index(0, views::ProblemsModel::SinceColumn)).toString(), QStringLiteral("2025-12-01T14:00:00Z"));
        QCOMPARE(model.data(model.index(1, views::ProblemsModel::SinceColumn)).toString(), QString());
        QCOMPARE(model.data(model.index(0, views::ProblemsModel::ProblemColumn), kSortRole).toInt(),
            int(model::NodeProblemKind::NotReady));
        const QString domain = model.data(model.index(0, views::ProblemsModel::DomainColumn)).toString();
        QVERIFY2(domain.contains(QStringLiteral(" > ")), qPrintable(domain));
        model::DomainId region = m_simTopology->nodeDomain(model::NodeId(0));
        while (m_simTopology->domainLevel(region) > 1)
            region = m_simTopology->domainParent(region);
        QVERIFY(domain.startsWith(QString::fromStdString(m_simTopology->domainName(region)) + QStringLiteral(" > ")));
        const QString podDetail = model.data(model.index(2, views::ProblemsModel::DetailColumn)).toString();
        QCOMPARE(podDetail,
            QString::fromUtf8(m_sim->podNamespace(model::PodId(0))) + QLatin1Char('/')
                + QString::fromUtf8(m_sim->podName(model::PodId(0))) + QStringLiteral(": node-gone"));
        QCOMPARE(model.nodeAt(2).isValid(), false);
        QCOMPARE(model.problemNodes().size(), std::size_t(1));
    }

    void isoTime_data()
    {
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("unknown") << qint64(0) << QString();
        QTest::newRow("epoch+1") << qint64(1) << "1970-01-01T00:00:01Z";
        QTest::newRow("2026") << qint64(1796133600) << "2026-12-01T14:00:00Z";
    }
    void isoTime()
    {
        QFETCH(qint64, seconds);
        QFETCH(QString, text);
        QCOMPARE(views::isoTimeText(seconds), text);
    }

    void pending_handMade()
    {
        std::vector<model::PendingShape> shapes(2);
        shapes[0].request[model::CoreResource::Cpu] = 4000;
        shapes[0].request[model::CoreResource::Memory] = 8LL << 30;
        shapes[0].request[model::CoreResource::Gpu] = 500;
        shapes[0].gpuModel = "A10";
        shapes[0].podCount = 10;
        shapes[0].total = shapes[0].request;
        for (auto& a : shapes[0].total.amounts)
            a *= 10;
        shapes[0].gatedPods = 2;
        shapes[0].reason = "0/12 nodes are available: 12 Insufficient nvidia.com/gpu.";
        shapes[1].request[model::CoreResource::Cpu] = 1000;
        shapes[1].podCount = 3;
        shapes[1].total[model::CoreResource::Cpu] = 3000;
        views::PendingShapesModel model;
        model.setShapes(m_sim, shapes);
        testModel(&model);
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.isTotalsRow(2));
        QCOMPARE(model.pendingPodCount(), std::size_t(13));
        QCOMPARE(sortValue(model, 0, views::PendingShapesModel::GpuColumn), qint64(500));
        QCOMPARE(model.data(model.index(0, views::PendingShapesModel::GpuModelColumn)).toString(), QStringLiteral("A10"));
        QCOMPARE(model.data(model.index(0, views::PendingShapesModel::ReasonColumn)).toString(),
            QStringLiteral("0/12 nodes are available: 12 Insufficient nvidia.com/gpu."));
        QCOMPARE(sortValue(model, 2, views::PendingShapesModel::PodsColumn), qint64(13));
        QCOMPARE(sortValue(model, 2, views::PendingShapesModel::TotalCpuColumn), qint64(43000));
        QCOMPARE(sortValue(model, 2, views::PendingShapesModel::TotalGpuColumn), qint64(5000));
        QCOMPARE(sortValue(model, 2, views::PendingShapesModel::GatedColumn), qint64(2));
        QCOMPARE(model.data(model.index(1, views::PendingShapesModel::GpuColumn)).toString(), QString()); // no GPU: blank
        // A shape without a scheduler message (a trace's unbound pods) still says why it waits.
        const QString unbound = model.data(model.index(1, views::PendingShapesModel::ReasonColumn)).toString();
        QVERIFY2(unbound.contains(QStringLiteral("no node in the input")) && unbound.contains(QStringLiteral("Plan > Consolidate")),
            qPrintable(unbound));
        // The totals row stays last when sorting by a per-pod column, ascending.
        QSortFilterProxyModel proxy;
        proxy.setSortRole(kSortRole);
        proxy.setSourceModel(&model);
        proxy.sort(views::PendingShapesModel::CpuColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.mapToSource(proxy.index(2, 0)).row(), 2);

        shapes[1].gatedPods = 3; // every pod of the shape gated, no message
        model.setShapes(m_sim, shapes);
        QVERIFY2(model.data(model.index(1, views::PendingShapesModel::ReasonColumn)).toString().contains(QStringLiteral("scheduling gates")),
            qPrintable(model.data(model.index(1, views::PendingShapesModel::ReasonColumn)).toString()));

        model.setShapes(m_sim, {});
        QCOMPARE(model.rowCount(), 0); // no totals row over nothing
    }

private:
    std::shared_ptr<model::ClusterStore> m_eks;
    std::shared_ptr<model::Topology> m_eksTopology;
    std::shared_ptr<model::ClusterStore> m_sim;
    std::shared_ptr<model::Topology> m_simTopology;
};

QTEST_MAIN(TestItemModels)
#include "tst_itemmodels.moc"
