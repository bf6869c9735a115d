// SPDX-License-Identifier: Apache-2.0
// Tests of MapLayout: the topology as nested blocks on a cell grid. Pure (no display).

#include "common/mapfixtures.h"
#include "views/map/maplayout.h"

#include <QTest>

#include <unordered_set>

using namespace fleet;
using fleet::views::CellPos;
using fleet::views::CellRect;
using fleet::views::MapLayout;

class TestMapLayout : public QObject {
    Q_OBJECT
private slots:
    void invariants_data();
    void invariants();
    void emptyTopology();
    void singleLeafFillsRowByRowInTopologyOrder();
    void offGridPositionsHaveNoNode();
    void labelGapsHoldNoCell_data();
    void labelGapsHoldNoCell();
};

void TestMapLayout::invariants_data()
{
    QTest::addColumn<int>("regions");
    QTest::addColumn<int>("zones");
    QTest::addColumn<int>("leaves");
    QTest::addColumn<int>("nodesPerLeaf");
    QTest::addColumn<int>("spread");
    QTest::addColumn<double>("aspect");
    QTest::newRow("one node") << 1 << 1 << 1 << 1 << 1 << 1.6;
    QTest::newRow("uniform small") << 2 << 3 << 4 << 16 << 1 << 1.6;
    QTest::newRow("uneven leaves") << 3 << 2 << 5 << 3 << 40 << 1.0;
    QTest::newRow("tall view") << 1 << 4 << 6 << 20 << 9 << 0.5;
    QTest::newRow("many leaves") << 1 << 1 << 300 << 2 << 5 << 1.6;
    QTest::newRow("100k nodes") << 2 << 6 << 260 << 24 << 17 << 1.6;
}

// Every node gets a unique cell inside its leaf domain's rect (and every ancestor's);
// sibling rects do not overlap; cell -> node is the inverse of node -> cell.
void TestMapLayout::invariants()
{
    QFETCH(int, regions);
    QFETCH(int, zones);
    QFETCH(int, leaves);
    QFETCH(int, nodesPerLeaf);
    QFETCH(int, spread);
    QFETCH(double, aspect);
    model::ClusterStore store;
    const std::size_t nodeCount = testing::addFleetNodes(store, { regions, zones, leaves, nodesPerLeaf, spread });
    store.finalize();
    const auto topology = model::Topology::build(store);
    const MapLayout layout = MapLayout::build(topology, aspect);

    QCOMPARE(layout.nodeCount(), nodeCount);
    QVERIFY(layout.width() > 0 && layout.height() > 0);
    std::unordered_set<long long> used;
    for (std::uint32_t i = 0; i < nodeCount; ++i) {
        const model::NodeId n(i);
        const CellPos cell = layout.nodeCell(n);
        QVERIFY2(cell.isValid(), qPrintable(QStringLiteral("node %1 has no cell").arg(i)));
        QVERIFY(cell.x < layout.width() && cell.y < layout.height());
        QVERIFY2(used.insert(static_cast<long long>(cell.y) * layout.width() + cell.x).second,
            qPrintable(QStringLiteral("node %1 shares its cell").arg(i)));
        QCOMPARE(layout.nodeAt(cell.x, cell.y), n);
        for (model::DomainId dom = topology.nodeDomain(n); dom.isValid(); dom = topology.domainParent(dom))
            QVERIFY2(layout.domainRect(dom).contains(cell.x, cell.y),
                qPrintable(QStringLiteral("node %1 outside domain %2").arg(i).arg(dom.value)));
    }
    // Inverse: every occupied cell names a node whose cell it is; no other cell is occupied.
    std::size_t occupied = 0;
    for (int y = 0; y < layout.height(); ++y)
        for (int x = 0; x < layout.width(); ++x) {
            const model::NodeId n = layout.nodeAt(x, y);
            if (!n.isValid())
                continue;
            ++occupied;
            QCOMPARE(layout.nodeCell(n), (CellPos { x, y }));
        }
    QCOMPARE(occupied, nodeCount);
    // Siblings do not overlap and keep a gutter of at least one cell.
    for (std::uint32_t i = 0; i < topology.domainCount(); ++i) {
        const auto children = topology.domainChildren(model::DomainId(i));
        for (std::size_t a = 0; a < children.size(); ++a) {
            const CellRect r = layout.domainRect(children[a]);
            const CellRect grown { r.x - 1, r.y - 1, r.width + 2, r.height + 2 };
            for (std::size_t b = a + 1; b < children.size(); ++b)
                QVERIFY2(!grown.intersects(layout.domainRect(children[b])),
                    qPrintable(QStringLiteral("siblings %1 and %2 touch").arg(children[a].value).arg(children[b].value)));
        }
    }
    // The whole is near the aspect of the view (within a factor of 1.5 once there is room),
    // and the packing wastes little: leaf blocks with their one-cell gutters cover at
    // least half the grid.
    if (nodeCount >= 1000) {
        const double got = static_cast<double>(layout.width()) / layout.height();
        QVERIFY2(got > aspect / 1.5 && got < aspect * 1.5, qPrintable(QStringLiteral("aspect %1 for %2").arg(got).arg(aspect)));
        double leafArea = 0;
        for (std::uint32_t i = 0; i < topology.domainCount(); ++i)
            if (topology.isLeaf(model::DomainId(i))) {
                const CellRect r = layout.domainRect(model::DomainId(i));
                leafArea += (r.width + 1.0) * (r.height + 1.0);
            }
        const double grid = static_cast<double>(layout.width()) * layout.height();
        QVERIFY2(leafArea >= 0.5 * grid, qPrintable(QStringLiteral("leaf blocks cover %1 of %2 cells").arg(leafArea).arg(grid)));
    }
}

void TestMapLayout::emptyTopology()
{
    model::ClusterStore store;
    store.finalize();
    const auto topology = model::Topology::build(store);
    const MapLayout layout = MapLayout::build(topology, 1.6);
    QCOMPARE(layout.width(), 0);
    QCOMPARE(layout.height(), 0);
    QVERIFY(!layout.nodeAt(0, 0).isValid());
    QVERIFY(!layout.nodeCell(model::NodeId(0)).isValid());
}

// A store without topology labels, GPU model or instance type: the root is the only
// domain; nodes fill it row by row in Topology order (natural name order).
void TestMapLayout::singleLeafFillsRowByRowInTopologyOrder()
{
    model::ClusterStore store;
    model::NodeRecord rec;
    for (int i = 9; i >= 0; --i) {
        rec.clear();
        rec.name = "n" + std::to_string(i);
        rec.ready = model::Readiness::True;
        store.addNode(rec);
    }
    store.finalize();
    const auto topology = model::Topology::build(store);
    QCOMPARE(topology.domainCount(), std::size_t(1));
    const MapLayout layout = MapLayout::build(topology, 1.0);
    const CellRect r = layout.domainRect(topology.root());
    QVERIFY(r.width * r.height >= 10);
    QVERIFY(r.width * r.height < 10 + r.width); // no empty row
    QVERIFY(std::abs(r.width - r.height) <= 1); // near square for aspect 1
    const auto ordered = topology.orderedNodes();
    for (std::size_t i = 0; i < ordered.size(); ++i)
        QCOMPARE(
            layout.nodeCell(ordered[i]), (CellPos { r.x + static_cast<int>(i) % r.width, r.y + static_cast<int>(i) / r.width }));
    QCOMPARE(store.nodeName(layout.nodeAt(r.x, r.y)), std::string_view("n0"));
}

void TestMapLayout::offGridPositionsHaveNoNode()
{
    model::ClusterStore store;
    testing::addFleetNodes(store, { 1, 1, 1, 4, 1 });
    store.finalize();
    const auto topology = model::Topology::build(store);
    const MapLayout layout = MapLayout::build(topology, 1.6);
    QVERIFY(!layout.nodeAt(-1, 0).isValid());
    QVERIFY(!layout.nodeAt(0, -1).isValid());
    QVERIFY(!layout.nodeAt(layout.width(), 0).isValid());
    QVERIFY(!layout.nodeAt(0, layout.height()).isValid());
    QVERIFY(!layout.nodeAt(0, 0).isValid()); // the margin
    QVERIFY(!layout.nodeCell(model::NodeId(4)).isValid());
    QVERIFY(!layout.nodeCell(model::NodeId()).isValid());
}

void TestMapLayout::labelGapsHoldNoCell_data()
{
    QTest::addColumn<int>("regions");
    QTest::addColumn<int>("zones");
    QTest::addColumn<int>("leaves");
    QTest::addColumn<int>("nodesPerLeaf");
    QTest::addColumn<QList<int>>("labelRows");
    QTest::newRow("one leaf per zone, no extra rows") << 2 << 2 << 1 << 1 << QList<int> {};
    QTest::newRow("uniform, no extra rows") << 2 << 3 << 4 << 16 << QList<int> {};
    QTest::newRow("uniform, region and zone rows") << 2 << 3 << 4 << 16 << QList<int> { 0, 3, 2 };
    QTest::newRow("many leaves, deep rows") << 1 << 2 << 60 << 5 << QList<int> { 0, 12, 12, 1 };
    QTest::newRow("negative rows count as none") << 2 << 2 << 3 << 4 << QList<int> { 0, -4, -1 };
}

// Above every block, labelGapRows() rows across its width hold no cell (the view draws the
// block's label there, so labels never cover a cell), and the gap is at least the gutter
// plus the extra rows asked for its level.
void TestMapLayout::labelGapsHoldNoCell()
{
    QFETCH(int, regions);
    QFETCH(int, zones);
    QFETCH(int, leaves);
    QFETCH(int, nodesPerLeaf);
    QFETCH(QList<int>, labelRows);
    model::ClusterStore store;
    testing::addFleetNodes(store, { regions, zones, leaves, nodesPerLeaf, 1 });
    store.finalize();
    const auto topology = model::Topology::build(store);
    const std::vector<int> rows(labelRows.begin(), labelRows.end());
    const MapLayout layout = MapLayout::build(topology, 1.6, rows);
    QCOMPARE(layout.labelGapRows(topology.root()), 0);
    for (std::uint32_t i = 1; i < topology.domainCount(); ++i) {
        const model::DomainId dom(i);
        const CellRect r = layout.domainRect(dom);
        const int gap = layout.labelGapRows(dom);
        const int level = topology.domainLevel(dom);
        const int extra = level < labelRows.size() ? std::max(0, labelRows[level]) : 0;
        QCOMPARE(gap, MapLayout::gutterForHeight(layout.domainHeight(topology.domainParent(dom))) + extra);
        QVERIFY(r.y - gap >= 0);
        for (int y = r.y - gap; y < r.y; ++y)
            for (int x = r.x; x < r.x + r.width; ++x)
                QVERIFY2(!layout.nodeAt(x, y).isValid(),
                    qPrintable(QStringLiteral("cell (%1,%2) in the label gap of %3")
                                   .arg(x)
                                   .arg(y)
                                   .arg(QString::fromStdString(topology.domainName(dom)))));
        // A non-leaf block starts with its band: no cell in its first gap rows either.
        if (!topology.isLeaf(dom))
            for (int x = r.x; x < r.x + r.width; ++x)
                QVERIFY(!layout.nodeAt(x, r.y).isValid());
    }
    // The layout stays near the view's aspect even where bands make blocks tall.
    const double got = static_cast<double>(layout.width()) / layout.height();
    QVERIFY2(got > 1.6 / 2.0 && got < 1.6 * 2.0, qPrintable(QStringLiteral("aspect %1").arg(got)));
}

QTEST_GUILESS_MAIN(TestMapLayout)
#include "tst_maplayout.moc"
