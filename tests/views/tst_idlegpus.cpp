// SPDX-License-Identifier: Apache-2.0
// The node inspector's allocated-but-idle GPUs (views/itemmodels/idlegpusmodel.h): the
// pods holding them, grouped from the usage source's list, agreeing with the "gpu-idle" map
// metric node by node (the same rule, judged once by the source); a hand-made usage's known
// rows (GPUs held, devices, peak, how long); "unknown" where the node's GPUs have no figures.

#include "explorefixtures.h"
#include "model/figures.h"
#include "model/metrics/usagemetrics.h"
#include "views/inspectors/nodeinspector.h"
#include "views/itemmodels/idlegpusmodel.h"
#include "views/itemmodels/itemmodelroles.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include <map>

using namespace fleet;

class TestIdleGpus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        auto sim = testing::loadSimulated(1000);
        m_store = sim.store;
        m_topology = sim.topology;
        m_usage = sim.usage;
        QVERIFY(m_usage);
    }

    // Every node: the rows' GPUs sum to what the map metric shows; each pod's count is the
    // number of the source's idle entries naming it on the node.
    void agreesWithTheMapMetric()
    {
        const auto metric = model::makeUsageMetric(m_usage, model::UsageMetricKind::GpuIdle);
        const model::MetricContext context(*m_store);
        views::IdleGpusModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        int nodesWithIdle = 0;
        for (std::uint32_t i = 0; i < m_store->nodeCount(); ++i) {
            const model::NodeId n(i);
            model.setNode(m_store, m_usage, n);
            const double shown = metric->value(context, n);
            QCOMPARE(model.idleGpuCount(), std::isnan(shown) ? -1 : static_cast<std::int32_t>(shown));
            std::map<std::uint32_t, int> expected;
            for (const model::IdleGpu& g : m_usage->idleGpus)
                if (g.node == n)
                    ++expected[g.pod.value];
            QCOMPARE(model.rowCount(), static_cast<int>(expected.size()));
            int sum = 0;
            for (int row = 0; row < model.rowCount(); ++row) {
                const int gpus = model.data(model.index(row, views::IdleGpusModel::GpusColumn), views::kSortRole).toInt();
                QCOMPARE(gpus, expected[model.podAt(row).value]);
                QCOMPARE(model.data(model.index(row, views::IdleGpusModel::PodColumn)).toString().toStdString(),
                    std::string(m_store->podName(model.podAt(row))));
                QVERIFY(model.data(model.index(row, views::IdleGpusModel::PeakColumn), views::kSortRole).toDouble() < m_usage->idleThreshold);
                sum += gpus;
            }
            if (model.idleGpuCount() >= 0)
                QCOMPARE(sum, model.idleGpuCount());
            nodesWithIdle += sum > 0 ? 1 : 0;
        }
        QVERIFY2(nodesWithIdle > 0, "the simulated fleet holds some GPUs idle");
    }

    // A hand-made usage: the rows' values, the title's counts, and a node whose GPUs have no
    // figures shown as unknown, not as idle and not as "none".
    void knownRows()
    {
        model::NodeId n, cpuNode;
        for (std::uint32_t i = 0; i < m_store->nodeCount(); ++i) {
            const model::NodeId c(i);
            if (!n.isValid() && m_store->nodeGpuCount(c) >= 4 && m_store->nodePods(c).size() >= 2)
                n = c;
            if (!cpuNode.isValid() && m_store->nodeGpuCount(c) == 0 && m_store->nodeAllocatable(c)[model::CoreResource::Gpu] == 0)
                cpuNode = c;
        }
        QVERIFY(n.isValid() && cpuNode.isValid());
        const model::PodId p1 = m_store->nodePods(n)[0], p2 = m_store->nodePods(n)[1];
        auto usage = std::make_shared<model::ClusterUsage>(m_store->nodeCount());
        usage->time = 1796170000;
        usage->source = "test";
        usage->idleAllocatedGpus[n.index()] = 3;
        usage->idleGpus = { { n, p2, 1, 0.0 }, { n, p1, 3, 0.02 }, { n, p1, 0, 0.01 } };
        views::IdleGpusModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setNode(m_store, usage, n);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(views::IdleGpusModel::ColumnCount));
        const int r1 = model.podAt(0) == p1 ? 0 : 1;
        const auto cell = [&](int row, int column) { return model.data(model.index(row, column)).toString(); };
        QCOMPARE(model.podAt(r1), p1);
        QCOMPARE(cell(r1, views::IdleGpusModel::NamespaceColumn).toStdString(), std::string(m_store->podNamespace(p1)));
        QCOMPARE(cell(r1, views::IdleGpusModel::PodColumn).toStdString(), std::string(m_store->podName(p1)));
        QCOMPARE(cell(r1, views::IdleGpusModel::HeldColumn).toStdString(),
            model::formatGpus(m_store->podRequest(p1)[model::CoreResource::Gpu]));
        QCOMPARE(cell(r1, views::IdleGpusModel::GpusColumn), QStringLiteral("2"));
        QCOMPARE(cell(r1, views::IdleGpusModel::PeakColumn), QStringLiteral("2.0%"));
        QCOMPARE(cell(r1, views::IdleGpusModel::DevicesColumn), QStringLiteral("0, 3"));
        QCOMPARE(cell(r1, views::IdleGpusModel::IdleForColumn), QStringLiteral("1 h or more"));
        QCOMPARE(model.data(model.index(r1, views::IdleGpusModel::IdleForColumn), views::kSortRole).toDouble(), 3600.0);
        QCOMPARE(model.data(model.index(r1, views::IdleGpusModel::PodColumn), Qt::ToolTipRole).toString(),
            QStringLiteral("Every sample of these GPUs from 2026-12-01T23:06:40Z to 2026-12-02T00:06:40Z stayed below 5% utilization "
                           "(usage from test)"));
        QCOMPARE(cell(1 - r1, views::IdleGpusModel::GpusColumn), QStringLiteral("1"));
        QCOMPARE(cell(1 - r1, views::IdleGpusModel::PeakColumn), QStringLiteral("0.0%"));
        QCOMPARE(cell(1 - r1, views::IdleGpusModel::DevicesColumn), QStringLiteral("1"));
        QCOMPARE(model.headerData(views::IdleGpusModel::PeakColumn, Qt::Horizontal).toString(), QStringLiteral("Max utilization"));
        QCOMPARE(model.headerData(views::IdleGpusModel::HeldColumn, Qt::Horizontal).toString(), QStringLiteral("GPUs held"));
        QCOMPARE(model.idleGpusText(), QStringLiteral("3, held by 2 pods (below 5% for 1 h or more)"));

        // A usage of another node count, or none: no rows, unknown.
        model.setNode(m_store, std::make_shared<model::ClusterUsage>(3), n);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.idleGpuCount(), -1);
        QCOMPARE(model.idleGpusText(), QStringLiteral("unknown (no usage data for this node's GPUs)"));
        model.setNode(m_store, nullptr, n);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.idleGpusText(), QStringLiteral("unknown (no usage source)"));

        // The inspector: the section's title; a GPU node says unknown without usage.
        views::NodeInspector inspector;
        inspector.setNode(m_store, m_topology, n);
        QCOMPARE(inspector.idleGpusText(), QStringLiteral("Allocated but idle GPUs: unknown (no usage source)"));
        inspector.setUsage(usage);
        QAbstractItemModelTester t2(inspector.idleGpusModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(inspector.idleGpusText(), QStringLiteral("Allocated but idle GPUs: 3, held by 2 pods (below 5% for 1 h or more)"));
        QCOMPARE(inspector.idleGpusModel()->rowCount(), 2);
        // The same node with no figures in the usage: unknown, no rows (never "none", never idle).
        auto noFigures = std::make_shared<model::ClusterUsage>(*usage);
        noFigures->idleAllocatedGpus[n.index()] = -1;
        noFigures->idleGpus.clear();
        inspector.setUsage(noFigures);
        QCOMPARE(inspector.idleGpusText(), QStringLiteral("Allocated but idle GPUs: unknown (no usage data for this node's GPUs)"));
        QCOMPARE(inspector.idleGpusModel()->rowCount(), 0);
        QCOMPARE(inspector.idleGpusModel()->idleGpuCount(), -1);
        // Measured, nothing idle.
        usage->idleAllocatedGpus[n.index()] = 0;
        usage->idleGpus.clear();
        inspector.setUsage(usage);
        QCOMPARE(inspector.idleGpusText(), QStringLiteral("Allocated but idle GPUs: none (below 5% for 1 h)"));
        // A shared device (two MIG instances of GPU 5): counted once, a row for each pod.
        usage->idleAllocatedGpus[n.index()] = 1;
        usage->idleGpus = { { n, p1, 5, 0.01, 2 }, { n, p2, 5, 0.01, 2 } };
        inspector.setUsage(usage);
        QCOMPARE(inspector.idleGpusText(), QStringLiteral("Allocated but idle GPUs: 1, held by 2 pods (below 5% for 1 h or more)"));
        const views::IdleGpusModel* shared = inspector.idleGpusModel();
        QCOMPARE(shared->rowCount(), 2);
        for (int row = 0; row < 2; ++row) {
            QCOMPARE(shared->data(shared->index(row, views::IdleGpusModel::GpusColumn)).toString(), QStringLiteral("1 (1 shared)"));
            QCOMPARE(shared->data(shared->index(row, views::IdleGpusModel::DevicesColumn)).toString(), QStringLiteral("5"));
        }
        // A node without GPUs: no section.
        inspector.setNode(m_store, m_topology, cpuNode);
        QVERIFY(inspector.idleGpusText().isEmpty());
        inspector.setUsage(nullptr);
        inspector.setNode(m_store, m_topology, {});
        QVERIFY(inspector.idleGpusText().isEmpty());
    }

private:
    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::Topology> m_topology;
    std::shared_ptr<const model::ClusterUsage> m_usage;
};

QTEST_MAIN(TestIdleGpus)
#include "tst_idlegpus.moc"
