// SPDX-License-Identifier: Apache-2.0
// Tests of the exploring widgets: the node inspector shows a fixture node's known values,
// the domain inspector's aggregates, and the heatmap's and histogram's colours (pixels of
// the widget rendered into an image: plain widgets, QT_QPA_PLATFORM=offscreen).

#include "model/accelerators.h"
#include "explorefixtures.h"
#include "views/heatmaps/domainaggregates.h"
#include "views/heatmaps/domainheatmap.h"
#include "views/heatmaps/heatmappanel.h"
#include "views/heatmaps/utilizationhistogram.h"
#include "views/inspectors/domaininspector.h"
#include "views/inspectors/nodeinspector.h"
#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/nodepodsmodel.h"
#include "views/itemmodels/noderesourcesmodel.h"
#include "views/itemmodels/nodetablemodel.h"
#include "views/map/colormap.h"
#include "views/map/maplegend.h"
#include "views/panels/pendingpanel.h"
#include "views/plan/planactionsmodel.h"
#include "views/plan/planpanel.h"
#include "model/pendingdemand.h"
#include "model/scheduling/planledger.h"
#include "model/domainpath.h"
#include "model/figures.h"
#include "model/metrics/builtinmetrics.h"
#include "model/metrics/metric.h"
#include "model/metrics/metricregistry.h"
#include "model/metrics/planmetrics.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

#include <cmath>
#include <optional>

using namespace fleet;

namespace {

QImage renderWidget(QWidget& w)
{
    QImage image(w.size(), QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    w.render(&image);
    return image;
}

QString childText(QTreeWidgetItem* section, const QString& key)
{
    for (int i = 0; i < section->childCount(); ++i)
        if (section->child(i)->text(0) == key)
            return section->child(i)->text(1);
    return QStringLiteral("<missing>");
}

} // namespace

class TestExploreViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        auto eks = testing::loadEksFixture();
        m_eks = eks.store;
        m_eksTopology = eks.topology;
        auto sim = testing::loadSimulated(400);
        m_sim = sim.store;
        m_simTopology = sim.topology;
    }

    void nodeInspector_eksNode()
    {
        views::NodeInspector inspector;
        const model::NodeId node = m_eks->findNode("duckboat-01");
        inspector.setNode(m_eks, m_eksTopology, node);
        QAbstractItemModelTester t1(inspector.podsProxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(inspector.node(), node);
        QVERIFY(inspector.headerText().startsWith(QStringLiteral("duckboat-01\n")));
        QCOMPARE(inspector.gpuText(), QStringLiteral("No GPUs"));
        // Resources: the node's figures, read from the inspector's own model.
        views::NodeResourcesModel* resources = inspector.resourcesModel();
        const int cpu = resources->rowOf(QStringLiteral("cpu"));
        QCOMPARE(
            resources->data(resources->index(cpu, views::NodeResourcesModel::AllocatableColumn), views::kSortRole).toLongLong(),
            7910);
        QCOMPARE(
            resources->data(resources->index(cpu, views::NodeResourcesModel::RequestedColumn), views::kSortRole).toLongLong(),
            450);
        // Labels: a known label of the fixture node.
        QTreeWidget* tree = inspector.detailsTree();
        QCOMPARE(tree->topLevelItemCount(), 3);
        QTreeWidgetItem* labels = tree->topLevelItem(0);
        QCOMPARE(childText(labels, QStringLiteral("kubernetes.io/hostname")), QStringLiteral("duckboat-01"));
        QCOMPARE(labels->childCount(), static_cast<int>(m_eks->nodeLabels(node).size()));
        QCOMPARE(tree->topLevelItem(1)->childCount(), static_cast<int>(m_eks->nodeTaints(node).size()));
        // Pods: all of them, then filtered by the line edit.
        QCOMPARE(inspector.podsProxy()->rowCount(), static_cast<int>(m_eks->nodePods(node).size()));
        inspector.podFilter()->setText(QStringLiteral("METALLB"));
        QCOMPARE(inspector.podsProxy()->rowCount(), 2); // speaker and controller, case-insensitive
        inspector.podFilter()->setText(QStringLiteral("calico"));
        QCOMPARE(inspector.podsProxy()->rowCount(), 1);
        QCOMPARE(inspector.podsProxy()
                     ->data(inspector.podsProxy()->index(0, views::NodePodsModel::CpuColumn), views::kSortRole)
                     .toLongLong(),
            250);
        // Search asks for a pod hidden by the filter line: its row is shown and selected.
        const model::PodId speaker = [&] {
            for (const model::PodId p : m_eks->nodePods(node))
                if (m_eks->podName(p).starts_with("speaker"))
                    return p;
            return model::PodId();
        }();
        QVERIFY(speaker.isValid());
        QVERIFY(inspector.selectPod(speaker));
        QCOMPARE(inspector.selectedPod(), speaker);
        QVERIFY(inspector.podFilter()->text().isEmpty());
    }

    // A double-click on the node's name selects all of it, not the word between two dashes.
    void nodeInspector_doubleClickSelectsTheWholeName()
    {
        views::NodeInspector inspector;
        inspector.resize(600, 800);
        inspector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&inspector));
        inspector.setNode(m_eks, m_eksTopology, m_eks->findNode("duckboat-01"));
        auto* title = inspector.findChild<QLabel*>(QStringLiteral("nodeInspectorTitle"));
        QVERIFY(title);
        const QPoint onName(title->fontMetrics().horizontalAdvance(QStringLiteral("duckboat-0")) + title->contentsRect().left(), title->height() / 2);
        QTest::mouseDClick(title, Qt::LeftButton, {}, onName);
        QCOMPARE(inspector.selectedTitleText(), QStringLiteral("duckboat-01"));
    }

    void nodeInspector_gpuNode()
    {
        model::NodeId gpuNode;
        for (std::size_t i = 0; i < m_sim->nodeCount() && !gpuNode.isValid(); ++i) {
            const model::NodeId n(static_cast<std::uint32_t>(i));
            if (m_sim->nodeGpuCount(n) == 8 && m_sim->nodeAllocatable(n)[model::CoreResource::Gpu] == 8000)
                gpuNode = n;
        }
        QVERIFY(gpuNode.isValid());
        views::NodeInspector inspector;
        inspector.setNode(m_sim, m_simTopology, gpuNode);
        QVERIFY2(inspector.gpuText().startsWith(
                     QStringLiteral("8 GPUs (") + QString::fromUtf8(m_sim->nodeGpuModel(gpuNode)) + QLatin1Char(')')),
            qPrintable(inspector.gpuText()));
        QVERIFY(inspector.resourcesModel()->rowOf(QStringLiteral("gpu")) >= 0);
        QCOMPARE(inspector.detailsTree()->topLevelItem(1)->childCount(), static_cast<int>(m_sim->nodeTaints(gpuNode).size()));
        inspector.setNode(m_sim, m_simTopology, {});
        QCOMPARE(inspector.podsModel()->rowCount(), 0);
        QVERIFY(inspector.headerText().startsWith(QStringLiteral("No node selected")));
    }

    void nodeInspector_headerNamesTheCapacityType()
    {
        // Two nodes of one type at two prices side by side: the header says how each is bought,
        // as its label spells it, next to its type and price. A fleet with a capacity block:
        // the 400-node one-region fleet's few training groups have none (the four-region one's
        // many small zones drew more groups).
        const auto fleet = testing::loadSimulated(2000);
        const std::shared_ptr<model::ClusterStore> sim = fleet.store;
        const std::shared_ptr<model::Topology> topology = fleet.topology;
        const auto capacityType = [&](model::NodeId n) {
            for (const model::Label& l : sim->nodeLabels(n))
                if (sim->str(l.key) == "eks.amazonaws.com/capacityType")
                    return sim->str(l.value);
            return std::string_view();
        };
        model::NodeId block, onDemand;
        for (std::uint32_t i = 0; i < sim->nodeCount() && !block.isValid(); ++i)
            if (capacityType(model::NodeId(i)) == "CAPACITY_BLOCK")
                block = model::NodeId(i);
        QVERIFY(block.isValid());
        for (std::uint32_t i = 0; i < sim->nodeCount() && !onDemand.isValid(); ++i)
            if (capacityType(model::NodeId(i)) == "ON_DEMAND" && sim->nodeInstanceType(model::NodeId(i)) == sim->nodeInstanceType(block))
                onDemand = model::NodeId(i);
        QVERIFY(onDemand.isValid());
        views::NodeInspector inspector;
        std::vector<double> prices(sim->nodeCount(), 0.0);
        prices[block.index()] = 44.24;
        prices[onDemand.index()] = 98.32;
        inspector.setPrices(prices);
        inspector.setNode(sim, topology, block);
        const QString type = QString::fromUtf8(sim->nodeInstanceType(block));
        QVERIFY2(inspector.headerText().contains(type + QStringLiteral(" - CAPACITY_BLOCK - $44.24/h")), qPrintable(inspector.headerText()));
        inspector.setNode(sim, topology, onDemand);
        QVERIFY2(inspector.headerText().contains(QStringLiteral(" - ON_DEMAND - $98.32/h")), qPrintable(inspector.headerText()));
    }

    void domainInspector_aggregates()
    {
        const model::DomainId zone = views::domainsAtLevel(*m_simTopology, 2).front();
        views::DomainInspector inspector;
        inspector.setDomain(m_sim, m_simTopology, zone);
        const auto nodes = m_simTopology->domainNodes(zone);
        QCOMPARE(inspector.aggregates().nodes, nodes.size());
        std::int64_t cpu = 0;
        std::size_t ready = 0;
        for (model::NodeId n : nodes) {
            cpu += m_sim->nodeRequested(n)[model::CoreResource::Cpu];
            ready += m_sim->nodeReadiness(n) == model::Readiness::True;
        }
        QCOMPARE(inspector.aggregates().requested[model::CoreResource::Cpu], cpu);
        QCOMPARE(inspector.aggregates().ready, ready);
        QCOMPARE(inspector.nodesModel()->rowCount(), static_cast<int>(nodes.size()));
        std::size_t binned = inspector.histogram()->bins().notApplicable;
        for (std::size_t c : inspector.histogram()->bins().counts)
            binned += c;
        QCOMPARE(binned, nodes.size());
        QVERIFY(inspector.titleText().contains(QString::fromStdString(m_simTopology->domainName(zone))));
        QAbstractItemModelTester tester(inspector.nodesProxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    // Under an open plan the domain inspector shows the domain as the plan leaves it, as the
    // node inspector does (a trial saw a drained zone's loaded figures): a node the plan takes
    // out is gone, a pod the plan moves in counts on its new node.
    void domainInspector_followsThePlan()
    {
        const auto zones = views::domainsAtLevel(*m_simTopology, 2);
        QVERIFY(zones.size() >= 2);
        const model::DomainId zone = zones.front();
        views::DomainInspector inspector;
        inspector.setDomain(m_sim, m_simTopology, zone);
        const views::DomainAggregates loaded = inspector.aggregates();
        const QString loadedText = inspector.aggregatesText();
        auto plan = std::make_shared<model::PlanLedger>(*m_sim);
        // The zone's first node taken out (its pods evicted), a pod of another zone moved in.
        const auto nodes = m_simTopology->domainNodes(zone);
        const model::NodeId gone = nodes.front();
        for (const model::PodId p : plan->nodePods(gone))
            QVERIFY(plan->evictPod(p));
        QVERIFY(plan->setNodePresent(gone, false));
        std::optional<std::pair<model::PodId, model::NodeId>> moved;
        for (const model::NodeId other : m_simTopology->domainNodes(zones.back())) {
            for (const model::PodId p : plan->nodePods(other))
                for (std::size_t i = 1; i < nodes.size() && !moved; ++i)
                    if (m_sim->podRequest(p)[model::CoreResource::Gpu] == 0 && plan->movePod(p, nodes[i]))
                        moved.emplace(p, nodes[i]);
            if (moved)
                break;
        }
        QVERIFY(moved);
        inspector.setPlanState(plan);
        const views::DomainAggregates& under = inspector.aggregates();
        QCOMPARE(under.nodes, loaded.nodes - 1);
        std::int64_t cpu = 0;
        for (const model::NodeId n : nodes)
            if (n != gone)
                cpu += plan->nodeRequested(n)[model::CoreResource::Cpu];
        QCOMPARE(under.requested[model::CoreResource::Cpu], cpu);
        QVERIFY(under.requested[model::CoreResource::Cpu] != loaded.requested[model::CoreResource::Cpu]);
        QVERIFY2(inspector.findChild<QLabel*>(QStringLiteral("domainInspectorFigures"))->text().startsWith(QStringLiteral("Under the plan")),
            qPrintable(inspector.aggregatesText()));
        QVERIFY(inspector.aggregatesText() != loadedText);
        // The plan closed: the loaded state again.
        inspector.setPlanState(nullptr);
        QCOMPARE(inspector.aggregates().nodes, loaded.nodes);
        QCOMPARE(inspector.aggregatesText(), loadedText);
    }

    // The root domain's accelerators are the cluster totals that the status bar and `summary`
    // show (model::acceleratorTotals): a user trial found three different GPU totals.
    void domainAggregates_acceleratorsAgreeWithTotals()
    {
        const auto sim = testing::loadSimulated(5000); // large enough for MIG and Neuron nodes
        const auto root = views::DomainAggregates::compute(*sim.store, *sim.topology, sim.topology->root());
        const model::AcceleratorTotals totals = model::acceleratorTotals(*sim.store);
        QVERIFY2(totals.migPartitionedGpus > 0 && totals.neuronDevicesAllocatable > 0,
            qPrintable(QStringLiteral("MIG GPUs %1, Neuron devices %2").arg(totals.migPartitionedGpus).arg(totals.neuronDevicesAllocatable)));
        QCOMPARE(root.gpus * 1000, totals.physicalGpusMilli());
        QCOMPARE(root.neuronDevices, totals.neuronDevicesAllocatable);
    }

    void bins_data()
    {
        QTest::addColumn<double>("share");
        QTest::addColumn<int>("bin");
        QTest::newRow("0") << 0.0 << 0;
        QTest::newRow("9.9%") << 0.099 << 0;
        QTest::newRow("10%") << 0.1 << 1;
        QTest::newRow("95%") << 0.95 << 9;
        QTest::newRow("100%") << 1.0 << 9;
        QTest::newRow("over") << 1.7 << 9;
        QTest::newRow("negative") << -0.2 << 0;
        QTest::newRow("n/a") << std::nan("") << -1;
    }
    void bins()
    {
        QFETCH(double, share);
        QFETCH(int, bin);
        QCOMPARE(views::UtilizationBins::binOf(share), bin);
    }

    void histogram_barColours()
    {
        const std::vector<double> shares { 0.02, 0.03, 0.55, 0.97, 0.97, 0.97 };
        views::UtilizationHistogram histogram;
        histogram.resize(400, 200);
        histogram.setBins(views::UtilizationBins::fromShares(shares), QStringLiteral("test"));
        const QImage image = renderWidget(histogram);
        for (int bin : { 0, 5, 9 }) {
            const QRect bar = histogram.barRect(bin);
            QVERIFY(!bar.isEmpty());
            const QRgb pixel = image.pixel(bar.center().x(), bar.bottom() - 1);
            QCOMPARE(pixel, views::shareColor((bin + 0.5) / 10.0).rgb());
        }
        QVERIFY(histogram.barRect(1).isEmpty());
        QVERIFY(histogram.barRect(9).height() > histogram.barRect(5).height()); // 3 nodes against 1
    }

    // Counts of thousands over bins narrower than them (the 100k fleet in a dock): each count
    // is written whole, inside the widget, over its own bar, and no two overlap (a trial read
    // "1,224" over "4,973", and ",07" for 1,076 at the right edge).
    void histogram_countsWholeAndApart()
    {
        views::UtilizationBins bins;
        bins.counts = { 4973, 1224, 3130, 2017, 77, 27, 42, 14, 23, 10760 };
        views::UtilizationHistogram histogram;
        histogram.resize(180, 200);
        histogram.setBins(bins, QStringLiteral("test"));
        const QFontMetrics fm(histogram.font());
        std::vector<QRect> written;
        for (int b = 0; b < views::UtilizationBins::kBinCount; ++b) {
            const QRect r = histogram.countRect(b);
            if (r.isEmpty())
                continue;
            const QString text = QString::fromStdString(model::formatCount(static_cast<std::int64_t>(bins.counts[static_cast<std::size_t>(b)])));
            QVERIFY2(r.width() >= fm.horizontalAdvance(text), qPrintable(text));
            QVERIFY2(r.left() >= 0 && r.right() < histogram.width() && r.top() >= 0, qPrintable(text));
            QVERIFY2(r.bottom() < histogram.barRect(b).top(), qPrintable(text));
            for (const QRect& other : written)
                QVERIFY2(!r.intersects(other), qPrintable(text));
            written.push_back(r);
        }
        // At this width every count finds a place.
        QCOMPARE(written.size(), std::size_t(views::UtilizationBins::kBinCount));
    }

    void heatmap_cellColours()
    {
        views::DomainHeatmap heatmap;
        heatmap.setCluster(m_sim, m_simTopology, 2); // zones
        QVERIFY(heatmap.rowCount() > 1);
        QCOMPARE(static_cast<std::size_t>(heatmap.rowCount()), views::domainsAtLevel(*m_simTopology, 2).size());
        heatmap.resize(heatmap.sizeHint());
        const QImage image = renderWidget(heatmap);
        for (int row = 0; row < heatmap.rowCount(); ++row)
            for (int column = 0; column < views::DomainHeatmap::kColumnCount; ++column) {
                const auto a = views::DomainAggregates::compute(*m_sim, *m_simTopology, heatmap.domainAt(row));
                const model::CoreResource r[]
                    = { model::CoreResource::Cpu, model::CoreResource::Memory, model::CoreResource::Gpu };
                const double share = a.share(r[column]);
                QCOMPARE(heatmap.cellShare(row, column), share);
                const QRect cell = heatmap.cellRect(row, column);
                const QColor expected = std::isnan(share) ? views::noDataColor() : views::shareColor(share);
                // A corner of the cell: the text is centred, the corner is pure fill.
                QCOMPARE(image.pixel(cell.left() + 2, cell.top() + 2), expected.rgb());
            }
    }

    void heatmap_clickEmitsDomain()
    {
        views::DomainHeatmap heatmap;
        heatmap.setCluster(m_sim, m_simTopology, 2);
        heatmap.resize(heatmap.sizeHint());
        QSignalSpy spy(&heatmap, &views::DomainHeatmap::domainActivated);
        QTest::mouseClick(&heatmap, Qt::LeftButton, {}, heatmap.cellRect(1, 2).center());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<model::DomainId>(), heatmap.domainAt(1));
        QTest::mouseClick(&heatmap, Qt::LeftButton, {}, QPoint(2, 2)); // the header: nothing
        QCOMPARE(spy.count(), 1);
    }

    // New values of the chosen metric over the same fleet (a plan change) give the table that
    // choosing the metric again gives: its own column summed again, the rows in the same order,
    // the same widths, the store's columns untouched.
    void heatmap_chosenValuesAsChoosingAgain()
    {
        class ShareMetric final : public model::Metric {
        public:
            std::string id() const override { return "test-share"; }
            std::string title() const override { return "Test share"; }
            std::string unit() const override { return "%"; }
            std::string description() const override { return {}; }
            model::ScaleKind scale() const override { return model::ScaleKind::Share; }
            double value(const model::MetricContext&, model::NodeId) const noexcept override { return 0; }
        } metric;
        auto columnOf = [&](unsigned seed) {
            model::MetricColumn c;
            c.values.resize(m_sim->nodeCount());
            for (std::size_t i = 0; i < c.values.size(); ++i)
                c.values[i] = static_cast<double>((i * 2654435761u + seed * 40503u) % 1000) / 1000.0;
            return c;
        };
        auto context = std::make_shared<const model::MetricContext>(*m_sim);
        views::DomainHeatmap followed, chosen;
        for (views::DomainHeatmap* h : { &followed, &chosen }) {
            h->setCluster(m_sim, m_simTopology, 2);
            h->setMetricContext(context);
            h->setChosenMetric(metric, columnOf(1));
        }
        const int own = followed.chosenColumn();
        QCOMPARE(own, followed.columnCount() - 1); // a column of its own
        followed.setChosenValues(metric, columnOf(2));
        chosen.setChosenMetric(metric, columnOf(2));
        QCOMPARE(followed.rowCount(), chosen.rowCount());
        QCOMPARE(followed.columnCount(), chosen.columnCount());
        QCOMPARE(followed.chosenColumn(), chosen.chosenColumn());
        QCOMPARE(followed.sortColumn(), chosen.sortColumn());
        QCOMPARE(followed.sizeHint(), chosen.sizeHint());
        bool moved = false;
        for (int row = 0; row < chosen.rowCount(); ++row) {
            QCOMPARE(followed.domainAt(row), chosen.domainAt(row));
            for (int column = 0; column < chosen.columnCount(); ++column)
                QCOMPARE(followed.cellValue(row, column), chosen.cellValue(row, column));
            moved = moved || followed.cellValue(row, own) != 0;
        }
        QVERIFY(moved);
        // The new values are the ones shown (not those of the first choice).
        views::DomainHeatmap first;
        first.setCluster(m_sim, m_simTopology, 2);
        first.setMetricContext(context);
        first.setChosenMetric(metric, columnOf(1));
        bool differs = false;
        for (int row = 0; row < first.rowCount() && !differs; ++row)
            differs = first.domainAt(row) != followed.domainAt(row) || first.cellValue(row, own) != followed.cellValue(row, own);
        QVERIFY(differs);
    }

    void heatmapPanel_followsTheChosenMetric()
    {
        // The map's legend over the fleet, coloured by fragmented GPUs.
        views::MapLegend legend;
        legend.setMetric(model::MetricRegistry::builtin().find("gpu-fragmentation"));
        auto context = std::make_shared<const model::MetricContext>(*m_sim);
        legend.setContext(context);
        views::HeatmapPanel panel;
        panel.setCluster(m_sim, m_simTopology);
        panel.followLegend(&legend);
        panel.setLevel(2); // zones, under their regions
        views::DomainHeatmap* heatmap = panel.heatmap();
        QVERIFY(heatmap->rowCount() > 1);
        // A column for every ranking figure, the chosen one marked and the rows sorted by it.
        const int unallocated = heatmap->columnOf(QStringLiteral("gpu-unallocated"));
        const int fragmented = heatmap->columnOf(QStringLiteral("gpu-fragmentation"));
        const int cost = heatmap->columnOf(QStringLiteral("cost"));
        QVERIFY(unallocated >= 3 && fragmented >= 3 && cost >= 3);
        QCOMPARE(heatmap->columnTitle(fragmented), QStringLiteral("Fragmented GPUs"));
        QCOMPARE(heatmap->chosenColumn(), fragmented);
        QCOMPARE(heatmap->sortColumn(), fragmented);
        for (int row = 0; row < heatmap->rowCount(); ++row) {
            double sum = 0;
            for (const model::NodeId n : m_simTopology->domainNodes(heatmap->domainAt(row)))
                if (const double v = model::gpuFragmentation(*context, n); !std::isnan(v))
                    sum += v;
            QVERIFY2(std::abs(heatmap->cellValue(row, fragmented) - sum) < 1e-6 || (sum == 0 && std::isnan(heatmap->cellValue(row, fragmented))),
                qPrintable(QStringLiteral("row %1: %2 against %3").arg(row).arg(heatmap->cellValue(row, fragmented)).arg(sum)));
            if (row > 0 && !std::isnan(heatmap->cellValue(row, fragmented)))
                QVERIFY(heatmap->cellValue(row - 1, fragmented) >= heatmap->cellValue(row, fragmented));
        }
        // Another metric: its own column when it is none of those, chosen and sorted by.
        legend.setMetric(model::MetricRegistry::builtin().find("cost-unallocated"));
        QVERIFY(heatmap->chosenColumn() >= 6);
        QCOMPARE(heatmap->chosenColumn(), heatmap->columnOf(QStringLiteral("cost-unallocated")));
        QCOMPARE(heatmap->sortColumn(), heatmap->chosenColumn());
        // A click on a header sorts by it, highest first; again, lowest first.
        heatmap->resize(heatmap->sizeHint());
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->headerRect(unallocated).center());
        QCOMPARE(heatmap->sortColumn(), unallocated);
        QCOMPARE(heatmap->sortOrder(), Qt::DescendingOrder);
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->headerRect(unallocated).center());
        QCOMPARE(heatmap->sortOrder(), Qt::AscendingOrder);
        for (int row = 1; row < heatmap->rowCount(); ++row)
            if (!std::isnan(heatmap->cellValue(row, unallocated)))
                QVERIFY(heatmap->cellValue(row - 1, unallocated) <= heatmap->cellValue(row, unallocated));
        // Zones named with their parent path, the tooltip with the label=value path.
        const model::DomainId zone = heatmap->domainAt(0);
        const QString parent = QString::fromStdString(m_simTopology->domainName(m_simTopology->domainParent(zone)));
        QCOMPARE(heatmap->rowLabel(0), parent + QStringLiteral(" / ") + QString::fromStdString(m_simTopology->domainName(zone)));
        QVERIFY2(heatmap->rowToolTip(0).startsWith(QString::fromStdString(model::domainPathText(*m_simTopology, zone))),
            qPrintable(heatmap->rowToolTip(0)));
    }

    // The Heatmap's unallocated GPUs of a zone are the zone inspector's: one definition (a
    // user trial read 269 in the Heatmap and could not find it in the inspector).
    void heatmapUnallocatedGpusAreTheInspectors()
    {
        views::HeatmapPanel panel;
        panel.setCluster(m_sim, m_simTopology);
        views::MapLegend legend;
        legend.setMetric(model::MetricRegistry::builtin().find("gpu-unallocated"));
        legend.setContext(std::make_shared<const model::MetricContext>(*m_sim));
        panel.followLegend(&legend);
        panel.setLevel(2);
        views::DomainHeatmap* heatmap = panel.heatmap();
        const int unallocated = heatmap->columnOf(QStringLiteral("gpu-unallocated"));
        QVERIFY(unallocated >= 0);
        int checked = 0;
        for (int row = 0; row < heatmap->rowCount(); ++row) {
            const double value = heatmap->cellValue(row, unallocated);
            if (std::isnan(value))
                continue;
            views::DomainInspector inspector;
            inspector.setDomain(m_sim, m_simTopology, heatmap->domainAt(row));
            QCOMPARE(static_cast<double>(inspector.aggregates().unallocatedDevices), value);
            QVERIFY2(inspector.aggregatesText().contains(QStringLiteral("Unallocated GPUs: ")
                         + QString::fromStdString(model::formatCount(static_cast<std::int64_t>(value))) + QStringLiteral(" (")),
                qPrintable(inspector.aggregatesText()));
            ++checked;
        }
        QVERIFY(checked > 0);
    }

    // The Heatmap's "GPU requested with the plan" of every domain is the domain inspector's
    // figure under the same plan: requested over allocatable of the nodes the plan leaves, not
    // the mean of the nodes' shares (a trial read 57.9% for a zone the plan never touched whose
    // GPU column and inspector both said 71.9%). A domain the plan does not touch keeps its
    // GPU column's figure.
    void heatmapPlanColumnIsTheInspectorsUnderThePlan()
    {
        const auto zones = views::domainsAtLevel(*m_simTopology, 2);
        QVERIFY(zones.size() >= 2);
        auto plan = std::make_shared<model::PlanLedger>(*m_sim);
        // One drain in the first zone: a node with GPUs requested taken out, its pods evicted.
        std::optional<model::NodeId> drained;
        for (const model::NodeId n : m_simTopology->domainNodes(zones.front()))
            if (m_sim->nodeRequested(n)[model::CoreResource::Gpu] > 0) {
                drained = n;
                break;
            }
        QVERIFY(drained);
        for (const model::PodId p : plan->nodePods(*drained))
            QVERIFY(plan->evictPod(p));
        QVERIFY(plan->setNodePresent(*drained, false));
        views::MapLegend legend;
        legend.setContext(std::make_shared<const model::MetricContext>(*m_sim));
        legend.setMetric(model::makePlanMetric(plan, "gpu", model::PlanMetricKind::After));
        views::HeatmapPanel panel;
        panel.setCluster(m_sim, m_simTopology);
        panel.followLegend(&legend);
        panel.setLevel(2);
        views::DomainHeatmap* heatmap = panel.heatmap();
        const int withPlan = heatmap->columnOf(QStringLiteral("plan-gpu"));
        QVERIFY(withPlan >= 0);
        QCOMPARE(heatmap->chosenColumn(), withPlan);
        int untouched = 0;
        for (int row = 0; row < heatmap->rowCount(); ++row) {
            const model::DomainId d = heatmap->domainAt(row);
            views::DomainInspector inspector;
            inspector.setDomain(m_sim, m_simTopology, d);
            inspector.setPlanState(plan);
            const double expected = inspector.aggregates().share(model::CoreResource::Gpu);
            const double shown = heatmap->cellValue(row, withPlan);
            QVERIFY2(std::isnan(expected) ? std::isnan(shown) : std::abs(shown - expected) < 1e-9,
                qPrintable(QStringLiteral("%1: the plan column %2, the inspector under the plan %3")
                               .arg(heatmap->rowLabel(row)).arg(shown).arg(expected)));
            if (d != zones.front() && !std::isnan(expected)) {
                QVERIFY2(std::abs(shown - heatmap->cellShare(row, 2)) < 1e-9,
                    qPrintable(QStringLiteral("%1: the plan column %2, the GPU column %3")
                                   .arg(heatmap->rowLabel(row)).arg(shown).arg(heatmap->cellShare(row, 2))));
                ++untouched;
            }
        }
        QVERIFY(untouched > 0);
    }

    void pendingPanel_saysWhenNoPodIsBound()
    {
        views::PendingPanel panel;
        panel.setShapes(m_sim, model::groupPendingPods(*m_sim));
        QVERIFY(!panel.unboundInput()); // a simulated fleet runs its pods
        QVERIFY(panel.bannerText().isEmpty());
        // The Alibaba trace lists its pods without nodes: every one is pending.
        const std::string dir = std::string(FLEET_SHARED_DATA_DIR) + "/alibaba-gpu-v2023-openb/csv/";
        const auto trace = importers::loadClusterFiles({ dir + "openb_node_list_gpu_node.csv", dir + "openb_pod_list_default.csv" });
        QVERIFY(trace.store && trace.store->podCount() > 0);
        panel.setShapes(trace.store, model::groupPendingPods(*trace.store));
        QVERIFY(panel.unboundInput());
        QVERIFY2(panel.bannerText().contains(QStringLiteral("Plan > Consolidate")) && panel.bannerText().contains(QStringLiteral("Place Workload")),
            qPrintable(panel.bannerText()));
        QVERIFY(panel.pendingPodCount() > 0);
    }

    void pendingPanel_saysWhatThePlanPlaces()
    {
        views::PendingPanel panel;
        auto shapes = model::groupPendingPods(*m_sim);
        QVERIFY(!shapes.empty());
        std::vector<model::PodId> pending;
        for (const auto& shape : shapes)
            pending.insert(pending.end(), shape.pods.begin(), shape.pods.end());
        QVERIFY2(pending.size() >= 2, "the simulated fleet has fewer than two pending pods");
        panel.setShapes(m_sim, std::move(shapes));
        QVERIFY(panel.planText().isEmpty()); // no plan: nothing said
        // A plan that puts two pending pods on a node (the ledger does not check fit).
        auto ledger = std::make_shared<model::PlanLedger>(*m_sim);
        QVERIFY(ledger->movePod(pending[0], model::NodeId(0)));
        QVERIFY(ledger->movePod(pending[1], model::NodeId(0)));
        panel.setPlanState(ledger);
        const QString rest = QString::fromStdString(model::formatCount(static_cast<std::int64_t>(pending.size() - 2)));
        QCOMPARE(panel.placedByPlan(), std::size_t(2));
        QVERIFY2(panel.planText().contains(QStringLiteral("2 of these pods are placed and %1 stay pending").arg(rest)), qPrintable(panel.planText()));
        // A plan over another state numbers other pods: nothing is said of it.
        auto other = testing::loadSimulated(400);
        panel.setPlanState(std::make_shared<model::PlanLedger>(*other.store));
        QVERIFY(panel.planText().isEmpty());
        QCOMPARE(panel.placedByPlan(), std::size_t(0));
        panel.setPlanState(nullptr);
        QVERIFY(panel.planText().isEmpty());
    }

    void planPanel_reasonsColumnStaysReadable()
    {
        views::PlanPanel panel;
        QTableView* table = panel.table();
        QHeaderView* header = table->horizontalHeader();
        const int least = table->fontMetrics().averageCharWidth() * 34;
        auto othersWidth = [&] {
            int w = 0;
            for (int c = 0; c < header->count(); ++c)
                if (c != views::PlanActionsModel::ReasonsColumn)
                    w += header->sectionSize(c);
            return w;
        };
        // Narrow (a dock beside the Pending dock): the column keeps its least width, and the
        // table scrolls.
        panel.resize(700, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_VERIFY(header->sectionSize(views::PlanActionsModel::ReasonsColumn) >= least);
        QCOMPARE(header->sectionSize(views::PlanActionsModel::ReasonsColumn), least);
        // Wide: it takes what the other columns leave.
        panel.resize(othersWidth() + 3 * least, 300);
        QTRY_COMPARE(header->sectionSize(views::PlanActionsModel::ReasonsColumn), table->viewport()->width() - othersWidth());
        QVERIFY(header->sectionSize(views::PlanActionsModel::ReasonsColumn) > least);
    }

    void heatmapPanel_levels()
    {
        views::HeatmapPanel panel;
        panel.resize(900, 300);
        panel.setCluster(m_sim, m_simTopology);
        QCOMPARE(panel.heatmap()->rowCount() > 1, true);
        std::size_t binned = panel.histogram()->bins().notApplicable;
        for (std::size_t c : panel.histogram()->bins().counts)
            binned += c;
        QCOMPARE(binned, m_sim->nodeCount());
        panel.setLevel(1);
        QCOMPARE(static_cast<std::size_t>(panel.heatmap()->rowCount()), views::domainsAtLevel(*m_simTopology, 1).size());
    }

private:
    std::shared_ptr<model::ClusterStore> m_eks;
    std::shared_ptr<model::Topology> m_eksTopology;
    std::shared_ptr<model::ClusterStore> m_sim;
    std::shared_ptr<model::Topology> m_simTopology;
};

QTEST_MAIN(TestExploreViews)
#include "tst_exploreviews.moc"
