// SPDX-License-Identifier: Apache-2.0
// Tests of RaggedColumns (model/raggedcolumns.h): every row read back exactly as last written,
// through many grows (rows moved to the end), shrinks in place, compactions, several parallel
// columns, and a packed assignment. A reference (one std::vector per row) is the oracle.

#include "model/raggedcolumns.h"

#include <QtTest>

#include <cstdint>
#include <random>
#include <vector>

using namespace fleet::model;

namespace {

template <class C>
void compareRows(const C& c, const std::vector<std::vector<std::uint32_t>>& ref)
{
    QCOMPARE(c.rows(), ref.size());
    std::size_t live = 0;
    for (std::size_t r = 0; r < ref.size(); ++r) {
        const auto row = c.row(r);
        QCOMPARE(row.size(), ref[r].size());
        for (std::size_t k = 0; k < row.size(); ++k)
            QCOMPARE(row[k], ref[r][k]);
        live += ref[r].size();
    }
    QCOMPARE(c.liveValues(), live);
}

std::vector<std::uint32_t> makeRow(std::mt19937& rng, std::size_t size)
{
    std::vector<std::uint32_t> v(size);
    for (auto& x : v)
        x = static_cast<std::uint32_t>(rng());
    return v;
}

} // namespace

class TestRaggedColumns : public QObject {
    Q_OBJECT
private slots:
    void rowsAreAddedEmpty()
    {
        RaggedColumns<std::uint32_t> c;
        QCOMPARE(c.addRow(), std::size_t(0));
        QCOMPARE(c.addRow(), std::size_t(1));
        c.resizeRows(5);
        QCOMPARE(c.rows(), std::size_t(5));
        for (std::size_t r = 0; r < 5; ++r)
            QVERIFY(c.row(r).empty());
    }

    void loadFillsRowsWithoutSlack()
    {
        // Rows filled in order as a load does: each the last row held, grown in place.
        RaggedColumns<std::uint32_t> c;
        std::mt19937 rng(1);
        std::vector<std::vector<std::uint32_t>> ref;
        for (int r = 0; r < 100; ++r) {
            c.addRow();
            ref.push_back(makeRow(rng, static_cast<std::size_t>(r % 7)));
            c.assign(c.rows() - 1, std::span<const std::uint32_t>(ref.back()));
        }
        compareRows(c, ref);
        QCOMPARE(c.heldValues(), c.liveValues());
    }

    void manyGrowsReadBackExact()
    {
        // Every row grown one value at a time, round robin: each grow past the capacity moves
        // the row to the end; the others must not move or change.
        RaggedColumns<std::uint32_t> c;
        std::vector<std::vector<std::uint32_t>> ref(50);
        c.resizeRows(ref.size());
        std::mt19937 rng(2);
        for (int round = 0; round < 40; ++round)
            for (std::size_t r = 0; r < ref.size(); ++r) {
                ref[r].push_back(static_cast<std::uint32_t>(rng()));
                c.assign(r, std::span<const std::uint32_t>(ref[r]));
            }
        compareRows(c, ref);
        // Slack bounds the held values: at most 1.5x live plus one a row, plus the dead.
        QVERIFY(c.heldValues() <= c.liveValues() * 2 + RaggedColumns<std::uint32_t>::kMinDeadToCompact + ref.size() * 2);
    }

    void randomRewritesAndCompaction()
    {
        RaggedColumns<std::uint32_t> c;
        std::vector<std::vector<std::uint32_t>> ref(300);
        c.resizeRows(ref.size());
        std::mt19937 rng(3);
        for (int step = 0; step < 50000; ++step) {
            // Sizes drift up, so rows keep outgrowing their capacity and moving.
            const std::size_t r = rng() % ref.size();
            ref[r] = makeRow(rng, rng() % (8 + static_cast<std::size_t>(step) / 500));
            c.assign(r, std::span<const std::uint32_t>(ref[r]));
            if (step % 4999 == 0)
                compareRows(c, ref);
        }
        compareRows(c, ref);
        QVERIFY(c.compactions() > 0); // the dead outnumbered the live at some point
        // Dead values never outnumber live ones by more than the threshold.
        QVERIFY(c.heldValues() <= c.liveValues() * 3 + RaggedColumns<std::uint32_t>::kMinDeadToCompact + ref.size() * 2);
        c.compact();
        compareRows(c, ref);
        QCOMPARE(c.heldValues(), c.liveValues());
    }

    void shrinkStaysInPlace()
    {
        RaggedColumns<std::uint32_t> c;
        c.resizeRows(3);
        const std::vector<std::uint32_t> a { 1, 2, 3, 4 }, b { 9, 8 }, d { 7 };
        c.assign(0, std::span<const std::uint32_t>(a));
        c.assign(1, std::span<const std::uint32_t>(d));
        const std::size_t held = c.heldValues();
        c.assign(0, std::span<const std::uint32_t>(b));
        QCOMPARE(c.heldValues(), held);
        compareRows(c, { b, d, {} });
        c.assign(0, std::span<const std::uint32_t>(a)); // back to its capacity: still in place
        QCOMPARE(c.heldValues(), held);
        compareRows(c, { a, d, {} });
    }

    void parallelColumnsShareRanges()
    {
        RaggedColumns<std::uint32_t, double, std::uint32_t> c;
        c.resizeRows(20);
        std::mt19937 rng(4);
        std::vector<std::vector<std::uint32_t>> ref(20);
        for (int step = 0; step < 3000; ++step) {
            const std::size_t r = rng() % ref.size();
            ref[r] = makeRow(rng, rng() % 9);
            std::vector<double> half;
            std::vector<std::uint32_t> twice;
            for (auto x : ref[r]) {
                half.push_back(x / 2.0);
                twice.push_back(x * 2);
            }
            c.assign(r, std::span<const std::uint32_t>(ref[r]), std::span<const double>(half), std::span<const std::uint32_t>(twice));
        }
        for (std::size_t r = 0; r < ref.size(); ++r) {
            QCOMPARE(c.row<0>(r).size(), ref[r].size());
            QCOMPARE(c.row<1>(r).size(), ref[r].size());
            QCOMPARE(c.row<2>(r).size(), ref[r].size());
            for (std::size_t k = 0; k < ref[r].size(); ++k) {
                QCOMPARE(c.row<0>(r)[k], ref[r][k]);
                QCOMPARE(c.row<1>(r)[k], ref[r][k] / 2.0);
                QCOMPARE(c.row<2>(r)[k], ref[r][k] * 2);
            }
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
            c.assign(0, std::span<const std::uint32_t>(ref[0]), std::span<const double>(), std::span<const std::uint32_t>(ref[0])));
    }

    void packedAssignmentThenGrow()
    {
        RaggedColumns<std::uint32_t> c;
        const std::vector<std::uint32_t> offsets { 0, 2, 2, 5 };
        c.assignPacked(offsets, std::vector<std::uint32_t> { 10, 11, 20, 21, 22 });
        compareRows(c, { { 10, 11 }, {}, { 20, 21, 22 } });
        c.assign(0, std::span<const std::uint32_t>(std::vector<std::uint32_t> { 1, 2, 3 }));
        compareRows(c, { { 1, 2, 3 }, {}, { 20, 21, 22 } });
        c.assign(2, std::span<const std::uint32_t>(std::vector<std::uint32_t> { 5, 6, 7, 8 }));
        compareRows(c, { { 1, 2, 3 }, {}, { 5, 6, 7, 8 } });
    }
};

QTEST_APPLESS_MAIN(TestRaggedColumns)
#include "tst_raggedcolumns.moc"
