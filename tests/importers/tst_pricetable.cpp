// SPDX-License-Identifier: Apache-2.0
// Tests of the price table loader (importers/pricing): the shipped table covers the
// simulator's instance types in its regions, the override file replaces rows, a malformed
// file names file, line and column; and the cost metrics on real inputs (the EKS fixture,
// a small simulated fleet).

#include "importers/clusterloader.h"
#include "importers/pricing/pricetableloader.h"
#include "importers/simulated/instancecatalog.h"
#include "model/metrics/builtinmetrics.h"
#include "model/metrics/metricregistry.h"
#include "shareddata.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

using namespace fleet;
using model::CapacityType;

namespace {
const std::string kHoneycomb = std::string(FLEET_SHARED_DATA_DIR) + "/k8s-fixture-honeycomb-eks";

std::string writeFile(const QTemporaryDir& dir, const std::string& name, const std::string& text)
{
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}
} // namespace

class TestPriceTable : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { FLEET_REQUIRE_SHARED_DATA(); }
    void shippedCoversSimulator_data();
    void shippedCoversSimulator();
    void shippedLookup_data();
    void shippedLookup();
    void overrideReplacesRows();
    void errors_data();
    void errors();
    void unreadableFile();
    void costOfEksFixture();
    void costOfSimulatedFleet();
};

void TestPriceTable::shippedCoversSimulator_data()
{
    QTest::addColumn<QString>("region");
    QTest::addColumn<QString>("type");
    for (const char* region : { "us-west-2", "us-east-1", "us-east-2", "eu-west-1" })
        for (const auto& t : importers::simulated::kTypes)
            QTest::addRow("%s %s", region, t.name) << region << t.name;
    for (const char* type : { "p4d.24xlarge", "p4de.24xlarge", "p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge", "g5.xlarge",
             "g6.xlarge", "g6e.xlarge", "trn1.32xlarge", "trn2.48xlarge", "inf2.48xlarge" })
        QTest::addRow("common %s", type) << "us-east-1" << type;
}

void TestPriceTable::shippedCoversSimulator()
{
    QFETCH(QString, region);
    QFETCH(QString, type);
    const model::PriceTable& t = importers::shippedPriceTable();
    const auto od = t.find(region.toStdString(), type.toStdString(), CapacityType::OnDemand);
    const auto spot = t.find(region.toStdString(), type.toStdString(), CapacityType::Spot);
    QVERIFY(od);
    QVERIFY(spot);
    QVERIFY(*od > 0);
    QVERIFY(*spot < *od); // spot is a discount
}

void TestPriceTable::shippedLookup_data()
{
    QTest::addColumn<QString>("region");
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("capacity");
    QTest::addColumn<double>("expected"); // NaN: no row
    QTest::newRow("p5 on-demand list") << "us-east-1"
                                       << "p5.48xlarge" << int(CapacityType::OnDemand) << 98.32;
    QTest::newRow("m7i.4xlarge list") << "us-east-1"
                                      << "m7i.4xlarge" << int(CapacityType::OnDemand) << 0.8064;
    QTest::newRow("same in us-west-2") << "us-west-2"
                                       << "m7i.4xlarge" << int(CapacityType::OnDemand) << 0.8064;
    QTest::newRow("p5 capacity block") << "us-east-1"
                                       << "p5.48xlarge" << int(CapacityType::Reserved) << 44.244;
    QTest::newRow("no capacity block for m7i") << "us-east-1"
                                               << "m7i.4xlarge" << int(CapacityType::Reserved) << std::nan("");
    QTest::newRow("unknown region") << "ap-south-9"
                                    << "p5.48xlarge" << int(CapacityType::OnDemand) << std::nan("");
}

void TestPriceTable::shippedLookup()
{
    QFETCH(QString, region);
    QFETCH(QString, type);
    QFETCH(int, capacity);
    QFETCH(double, expected);
    const auto got
        = importers::shippedPriceTable().find(region.toStdString(), type.toStdString(), static_cast<CapacityType>(capacity));
    if (std::isnan(expected)) {
        QVERIFY(!got);
    } else {
        QVERIFY(got);
        QVERIFY2(std::abs(*got - expected) < 1e-3, qPrintable(QString::number(*got)));
    }
}

void TestPriceTable::overrideReplacesRows()
{
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "mine.csv",
        "# our negotiated prices\n"
        "instance_type,region,usd_per_hour,capacity_type,note\n"
        "p5.48xlarge,us-east-1,55.04,on-demand,EDP\n"
        "\n"
        "x9.huge,*,7,SPOT,new\n");
    const model::PriceTable t = importers::loadPriceTable(path);
    QCOMPARE(*t.find("us-east-1", "p5.48xlarge", CapacityType::OnDemand), 55.04);
    QCOMPARE(*t.find("eu-west-1", "x9.huge", CapacityType::Spot), 7.0);
    // Rows the file does not name stay as shipped.
    QCOMPARE(*t.find("us-east-2", "p5.48xlarge", CapacityType::OnDemand), 98.32);
    QCOMPARE(t.size(), importers::shippedPriceTable().size() + 1);
}

void TestPriceTable::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message"); // the start of what(), after the file name
    QTest::newRow("no header") << ""
                               << ":1:1: expected a header row";
    QTest::newRow("header lacks a column") << "region,instance_type,usd_per_hour\n"
                                           << ":1:1: expected a header row naming";
    QTest::newRow("bad number") << "region,instance_type,capacity_type,usd_per_hour\nus-east-1,m7i.4xlarge,spot,cheap\n"
                                << ":2:28: expected usd_per_hour, a non-negative number of US dollars, got \"cheap\"";
    QTest::newRow("negative") << "region,instance_type,capacity_type,usd_per_hour\nus-east-1,m7i.4xlarge,spot,-1\n"
                              << ":2:28: expected usd_per_hour";
    QTest::newRow("bad capacity type")
        << "# c\nregion,instance_type,capacity_type,usd_per_hour\nus-east-1,m7i.4xlarge,savings,1\n"
        << ":3:23: expected capacity_type on-demand, spot, reserved or capacity-block, got \"savings\"";
    QTest::newRow("missing field") << "region,instance_type,capacity_type,usd_per_hour\nus-east-1,m7i.4xlarge,spot\n"
                                   << ":2:23: expected 4 fields as in the header, got 3";
    QTest::newRow("empty type") << "region,instance_type,capacity_type,usd_per_hour\nus-east-1,,spot,1\n"
                                << ":2:11: expected an instance type";
    // A column named twice is refused: which one holds the price would be a silent choice.
    QTest::newRow("column twice") << "region,instance_type,capacity_type,usd_per_hour,usd_per_hour\nus-east-1,m7i.4xlarge,spot,1,2\n"
                                  << ":1:49: the header names column \"usd_per_hour\" twice (fields 4 and 5)";
    QTest::newRow("unknown column twice") << "note,region,instance_type,capacity_type,usd_per_hour,note\n"
                                          << ":1:54: the header names column \"note\" twice (fields 1 and 6)";
    // A key given twice is refused: which row wins would be a silent choice.
    QTest::newRow("key twice") << "region,instance_type,capacity_type,usd_per_hour\nus-east-1,m7i.4xlarge,spot,1\n"
                                  "us-east-2,m7i.4xlarge,spot,2\nus-east-1,m7i.4xlarge,spot,3\n"
                               << ":4:1: a price for region us-east-1, instance type m7i.4xlarge, capacity type spot is given twice (lines 2 and 4";
    QTest::newRow("capacity-block is reserved") << "region,instance_type,capacity_type,usd_per_hour\n*,p5.48xlarge,reserved,1\n"
                                                   "*,p5.48xlarge,capacity-block,2\n"
                                                << ":3:1: a price for region *, instance type p5.48xlarge, capacity type capacity-block is given twice (lines 2 and 3";
}

void TestPriceTable::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "bad.csv", text.toStdString());
    try {
        (void)importers::loadPriceTable(path);
        QFAIL("no error");
    } catch (const importers::PriceTableError& e) {
        const QString what = QString::fromStdString(e.what());
        QVERIFY2(what.startsWith(QString::fromStdString(path) + message), qPrintable(what));
        QCOMPARE(e.file(), path);
    }
}

void TestPriceTable::unreadableFile()
{
    QVERIFY_THROWS_EXCEPTION(importers::PriceTableError, (void)importers::loadPriceTable("/nonexistent/prices.csv"));
    // No override: the shipped table alone.
    QCOMPARE(importers::loadPriceTable("").size(), importers::shippedPriceTable().size());
}

// The EKS fixture: two on-demand m6gd.2xlarge nodes in us-east-1 and us-east-2.
void TestPriceTable::costOfEksFixture()
{
    const auto c = importers::loadClusterFiles({ kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json" });
    const model::PriceTable& prices = importers::shippedPriceTable();
    const model::MetricContext context(*c.store, &prices);
    const auto cost = model::MetricRegistry::builtin().find("cost");
    const model::MetricColumn column = model::computeMetricColumn(*cost, context);
    QCOMPARE(column.values.size(), std::size_t(2));
    QCOMPARE(column.notApplicable, std::size_t(0));
    for (const double v : column.values)
        QVERIFY2(std::abs(v - 0.3616) < 1e-6, qPrintable(QString::number(v)));
    // Unallocated cost is the price times the unrequested share of the larger of cpu and memory.
    const auto unallocated = model::MetricRegistry::builtin().find("cost-unallocated");
    for (std::uint32_t i = 0; i < 2; ++i) {
        const model::NodeId n(i);
        const double expected = 0.3616 * (1.0 - model::allocatedPrimaryShare(context, n));
        QCOMPARE(unallocated->value(context, n), expected);
        QVERIFY(expected > 0 && expected <= 0.3616);
    }
    // The GPU metric on a fleet without GPUs shows the CPU share.
    QVERIFY(!context.fleetHasAccelerators());
}

// A small simulated fleet: every node has a price, capacity blocks are prepaid, and the
// unallocated GPUs are the allocatable devices minus those requested.
void TestPriceTable::costOfSimulatedFleet()
{
    const auto c = importers::loadSimulatedCluster(importers::SimulationSpec { 2000, 1 });
    const model::PriceTable& prices = importers::shippedPriceTable();
    const model::MetricContext context(*c.store, &prices);
    const auto& registry = model::MetricRegistry::builtin();
    const model::MetricColumn cost = model::computeMetricColumn(*registry.find("cost"), context);
    QCOMPARE(cost.notApplicable, std::size_t(0));
    QVERIFY(cost.total > 0);
    std::size_t blocks = 0;
    for (std::uint32_t i = 0; i < c.store->nodeCount(); ++i)
        blocks += model::isPrepaid(context.nodeCapacity(model::NodeId(i))) ? 1 : 0;
    QCOMPARE(cost.prepaidTotal > 0, blocks > 0);
    const model::MetricColumn unallocated = model::computeMetricColumn(*registry.find("cost-unallocated"), context);
    QVERIFY(unallocated.total > 0 && unallocated.total < cost.total);

    const model::MetricColumn freeGpus = model::computeMetricColumn(*registry.find("gpu-unallocated"), context);
    std::int64_t devices = 0;
    std::size_t accelerated = 0;
    for (std::uint32_t i = 0; i < c.store->nodeCount(); ++i) {
        const auto a = model::nodeAccelerators(*c.store, model::NodeId(i), context.keys());
        if (a.kind == model::AcceleratorKind::None)
            continue;
        ++accelerated;
        devices += a.devices;
        QVERIFY(a.unallocatedDevices >= 0 && a.unallocatedDevices <= a.devices);
    }
    QVERIFY(accelerated > 0);
    QCOMPARE(freeGpus.notApplicable, c.store->nodeCount() - accelerated);
    QVERIFY(freeGpus.total >= 0 && freeGpus.total <= static_cast<double>(devices));
}

QTEST_GUILESS_MAIN(TestPriceTable)
#include "tst_pricetable.moc"
