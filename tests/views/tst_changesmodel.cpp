// SPDX-License-Identifier: Apache-2.0
// The Changes panel's model (views/itemmodels/changesmodel.h) over the diff of two real .fleet
// documents written by `fleetscope save` (the plan fixtures, a moved and a removed node's pods;
// two seeds of the simulated 300-node fleet): under QAbstractItemModelTester, every figure and
// name it shows is what `fleetscope diff --format json` says of the same two documents, and
// its CSV (File > Export Changes) lists the same rows.

#include "app/fleetscoperun.h"

#include "importers/clusterloader.h"
#include "importers/document/statediff.h"
#include "importers/pricing/pricetableloader.h"
#include "importers/export/statediffformat.h"
#include "model/figures.h"
#include "model/metrics/comparedmetric.h"
#include "model/metrics/metricregistry.h"
#include "model/plan/planprices.h"
#include "views/itemmodels/changesmodel.h"
#include "views/panels/changespanel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <cmath>

using namespace fleet;
using fleet::tests::runFleetscope;
using views::ChangesModel;

namespace {

const QString kData = QStringLiteral(FLEET_TEST_DATA_DIR);

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString count(qint64 n)
{
    return qs(model::formatCount(n));
}

} // namespace

class TestChangesModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void matchesDiffCommand_data();
    void matchesDiffCommand();
    void emptyAndReset();
    void panelActivatesNodeRows();
    void comparedMetric();

private:
    /// `fleetscope save SOURCE... -o dir/name`; the path, or "" on failure.
    QString save(const QStringList& source, const QString& name);
    QTemporaryDir m_dir;
};

void TestChangesModel::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

QString TestChangesModel::save(const QStringList& source, const QString& name)
{
    const QString path = m_dir.filePath(name);
    if (QFile::exists(path))
        return path;
    QStringList args { QStringLiteral("save") };
    args << source << QStringLiteral("-o") << path;
    const auto r = runFleetscope(args);
    if (r.exitCode != 0)
        qWarning("save failed: %s", r.err.constData());
    return r.exitCode == 0 ? path : QString();
}

void TestChangesModel::matchesDiffCommand_data()
{
    QTest::addColumn<QStringList>("beforeSource");
    QTest::addColumn<QStringList>("afterSource");
    QTest::addColumn<QString>("name");
    // cpu-a1 drained and removed, the web pods moved to cpu-b1, api-0 deleted (tests/data/plan/README.md).
    QTest::newRow("after plan") << QStringList { kData + QStringLiteral("/plan/cluster.json") }
                                << QStringList { kData + QStringLiteral("/plan/cluster-after-plan.json") } << QStringLiteral("plan");
    // cpu-a1 removed with its pods left naming it: stranded.
    QTest::newRow("stranded") << QStringList { kData + QStringLiteral("/plan/cluster.json") }
                              << QStringList { kData + QStringLiteral("/plan/cluster-stranded.json") } << QStringLiteral("stranded");
    // A label on every node: relabelled only.
    QTest::newRow("relabelled") << QStringList { kData + QStringLiteral("/plan/cluster.json") }
                                << QStringList { kData + QStringLiteral("/plan/cluster-nodegroups.json") } << QStringLiteral("groups");
    // Two seeds of the simulated fleet: hundreds of workloads, nodes on both sides.
    QTest::newRow("simulated seeds 3, 4") << QStringList { QStringLiteral("--simulate"), QStringLiteral("300"), QStringLiteral("--seed"), QStringLiteral("3") }
                                          << QStringList { QStringLiteral("--simulate"), QStringLiteral("300"), QStringLiteral("--seed"), QStringLiteral("4") }
                                          << QStringLiteral("sim");
}

void TestChangesModel::matchesDiffCommand()
{
    QFETCH(QStringList, beforeSource);
    QFETCH(QStringList, afterSource);
    QFETCH(QString, name);
    const QString before = save(beforeSource, name + QStringLiteral("-before.fleet"));
    const QString after = save(afterSource, name + QStringLiteral("-after.fleet"));
    QVERIFY(!before.isEmpty() && !after.isEmpty());

    // The diff as the window computes it: the two documents opened, the shipped prices.
    const auto b = importers::loadClusterFiles({ before.toStdString() });
    const auto a = importers::loadClusterFiles({ after.toStdString() });
    const model::PriceTable prices = importers::loadPriceTable("");
    auto diff = std::make_shared<const importers::StateDiff>(
        importers::diffStates(*b.store, *a.store, model::planNodePrices(*b.store, &prices), model::planNodePrices(*a.store, &prices)));
    ChangesModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setDiff(diff);

    const auto r = runFleetscope({ QStringLiteral("diff"), before, after, QStringLiteral("--format"), QStringLiteral("json") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(r.out).object();
    QVERIFY(!json.isEmpty());
    // The panel's diff is the command's, byte for byte.
    QCOMPARE(QByteArray::fromStdString(importers::stateDiffJson(*diff)), r.out);

    auto cell = [&](ChangesModel::Group g, int row, int column) {
        return m.index(row, column, m.groupIndex(g)).data().toString();
    };
    const QJsonObject then = json[QStringLiteral("before")].toObject();
    const QJsonObject now = json[QStringLiteral("after")].toObject();
    QCOMPARE(m.rowCount(m.groupIndex(ChangesModel::Totals)), 4);
    QCOMPARE(cell(ChangesModel::Totals, ChangesModel::NodesTotal, ChangesModel::ThenColumn), count(then[QStringLiteral("nodes")].toInteger()));
    QCOMPARE(cell(ChangesModel::Totals, ChangesModel::NodesTotal, ChangesModel::NowColumn), count(now[QStringLiteral("nodes")].toInteger()));
    const qint64 nodeChange = now[QStringLiteral("nodes")].toInteger() - then[QStringLiteral("nodes")].toInteger();
    QCOMPARE(cell(ChangesModel::Totals, ChangesModel::NodesTotal, ChangesModel::DifferenceColumn),
        (nodeChange > 0 ? QStringLiteral("+") : QString()) + count(nodeChange));
    QCOMPARE(cell(ChangesModel::Totals, ChangesModel::PodsTotal, ChangesModel::ThenColumn), count(then[QStringLiteral("pods")].toInteger()));
    QCOMPARE(cell(ChangesModel::Totals, ChangesModel::PodsTotal, ChangesModel::NowColumn), count(now[QStringLiteral("pods")].toInteger()));
    auto gpus = [](const QJsonObject& o) {
        return qs(model::formatGpus(std::llround(o[QStringLiteral("gpus_allocated")].toDouble() * 1000.0)));
    };
    QCOMPARE(cell(ChangesModel::Totals, ChangesModel::GpusAllocatedTotal, ChangesModel::ThenColumn), gpus(then));
    QCOMPARE(cell(ChangesModel::Totals, ChangesModel::GpusAllocatedTotal, ChangesModel::NowColumn), gpus(now));
    QCOMPARE(cell(ChangesModel::Totals, ChangesModel::CostTotal, ChangesModel::ThenColumn),
        qs(importers::dollarsPerHourExact(then[QStringLiteral("dollars_per_hour")].toDouble())));
    QCOMPARE(cell(ChangesModel::Totals, ChangesModel::CostTotal, ChangesModel::NowColumn),
        qs(importers::dollarsPerHourExact(now[QStringLiteral("dollars_per_hour")].toDouble())));
    QVERIFY(then[QStringLiteral("dollars_per_hour")].toDouble() > 0);

    // Each node list, name for name, with the node's name in kNodeNameRole.
    const QJsonObject nodes = json[QStringLiteral("nodes")].toObject();
    const std::pair<ChangesModel::Group, const char*> lists[] = { { ChangesModel::NodesAdded, "added" },
        { ChangesModel::NodesRemoved, "removed" }, { ChangesModel::NodesRelabelled, "relabelled" },
        { ChangesModel::NodesTainted, "tainted" } };
    int listed = 0;
    for (const auto& [group, key] : lists) {
        const QJsonArray names = nodes[QLatin1String(key)].toArray();
        QCOMPARE(m.rowCount(m.groupIndex(group)), names.size());
        QCOMPARE(m.groupIndex(group, ChangesModel::DifferenceColumn).data().toString(), count(names.size()));
        for (int i = 0; i < names.size(); ++i) {
            QCOMPARE(cell(group, i, ChangesModel::ChangeColumn), names[i].toString());
            QCOMPARE(m.index(i, 0, m.groupIndex(group)).data(ChangesModel::kNodeNameRole).toString(), names[i].toString());
            // The tooltip gives the whole name where the column cuts it.
            QCOMPARE(m.index(i, 0, m.groupIndex(group)).data(Qt::ToolTipRole).toString(), names[i].toString());
        }
        listed += static_cast<int>(names.size());
    }
    QVERIFY(listed > 0); // every case changes some node

    // The workloads, row for row, and the pods' totals on the group's row.
    const QJsonObject pods = json[QStringLiteral("pods")].toObject();
    const QJsonArray byWorkload = pods[QStringLiteral("by_workload")].toArray();
    QCOMPARE(m.rowCount(m.groupIndex(ChangesModel::Workloads)), byWorkload.size());
    auto changes = [](const QJsonObject& o) {
        QString text = QStringLiteral("%1 moved, %2 created, %3 deleted")
                           .arg(count(o[QStringLiteral("moved")].toInteger()), count(o[QStringLiteral("created")].toInteger()),
                               count(o[QStringLiteral("deleted")].toInteger()));
        if (o[QStringLiteral("stranded")].toInteger())
            text += QStringLiteral(", %1 stranded").arg(count(o[QStringLiteral("stranded")].toInteger()));
        return text;
    };
    QCOMPARE(m.groupIndex(ChangesModel::Workloads, ChangesModel::DifferenceColumn).data().toString(), changes(pods));
    for (int i = 0; i < byWorkload.size(); ++i) {
        const QJsonObject w = byWorkload[i].toObject();
        const QString kind = w[QStringLiteral("kind")].toString();
        QCOMPARE(cell(ChangesModel::Workloads, i, ChangesModel::ChangeColumn),
            w[QStringLiteral("namespace")].toString() + QLatin1Char('/') + (kind.isEmpty() ? QStringLiteral("Pod") : kind) + QLatin1Char('/')
                + w[QStringLiteral("name")].toString());
        QCOMPARE(cell(ChangesModel::Workloads, i, ChangesModel::DifferenceColumn), changes(w));
        QVERIFY(!m.index(i, 0, m.groupIndex(ChangesModel::Workloads)).data(ChangesModel::kNodeNameRole).isValid());
    }

    // The CSV holds every row of the model, with the same texts.
    const QStringList csv = QString::fromStdString(views::changesCsv(*diff)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    int rows = 0;
    for (int g = 0; g < ChangesModel::GroupCount; ++g)
        rows += 1 + m.rowCount(m.groupIndex(static_cast<ChangesModel::Group>(g)));
    QCOMPARE(csv.size(), 1 + rows);
    QCOMPARE(csv[0], QStringLiteral("section,change,then,now,difference,moved,created,deleted,stranded"));
    // Figures are bare numbers a spreadsheet reads: no separators, no '+', no guard before '-'.
    const qint64 nodesThen = then[QStringLiteral("nodes")].toInteger(), nodesNow = now[QStringLiteral("nodes")].toInteger();
    QCOMPARE(csv[2], QStringLiteral("Totals,Nodes,%1,%2,%3,,,,").arg(nodesThen).arg(nodesNow).arg(nodesNow - nodesThen));
    // Each workload's pods in columns of their own.
    for (int i = 0; i < byWorkload.size(); ++i) {
        const QJsonObject w = byWorkload[i].toObject();
        const QString tail = QStringLiteral(",%1,%2,%3,%4").arg(w[QStringLiteral("moved")].toInteger()).arg(w[QStringLiteral("created")].toInteger())
                                 .arg(w[QStringLiteral("deleted")].toInteger()).arg(w[QStringLiteral("stranded")].toInteger());
        QVERIFY2(csv[csv.size() - byWorkload.size() + i].endsWith(tail), qPrintable(csv[csv.size() - byWorkload.size() + i] + " / " + tail));
    }
    const QStringList cost = csv[5].split(QLatin1Char(','));
    QCOMPARE(cost.value(1), QStringLiteral("Cost per hour"));
    QCOMPARE(cost.value(2).toDouble(), std::round(then[QStringLiteral("dollars_per_hour")].toDouble() * 100) / 100);
    QVERIFY2(!csv.join(QLatin1Char('\n')).contains(QLatin1String("'-")), qPrintable(csv.join(QLatin1Char('\n'))));
}

void TestChangesModel::emptyAndReset()
{
    ChangesModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(m.rowCount(), 0);
    auto diff = std::make_shared<importers::StateDiff>();
    for (int i = 0; i < 100000; ++i)
        diff->nodesAdded.push_back("node-" + std::to_string(i));
    QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
    m.setDiff(diff);
    QCOMPARE(reset.size(), 1);
    QCOMPARE(m.rowCount(), static_cast<int>(ChangesModel::GroupCount));
    QCOMPARE(m.rowCount(m.groupIndex(ChangesModel::NodesAdded)), 100000);
    QCOMPARE(m.index(99999, 0, m.groupIndex(ChangesModel::NodesAdded)).data().toString(), QStringLiteral("node-99999"));
    QCOMPARE(m.groupIndex(ChangesModel::NodesAdded, ChangesModel::DifferenceColumn).data().toString(), QStringLiteral("100,000"));
    QCOMPARE(m.rowCount(m.groupIndex(ChangesModel::NodesRemoved)), 0);
    QCOMPARE(m.index(0, 0, m.index(0, 0, m.groupIndex(ChangesModel::NodesAdded))), QModelIndex()); // two levels only
    m.setDiff(nullptr);
    QCOMPARE(m.rowCount(), 0);
}

void TestChangesModel::panelActivatesNodeRows()
{
    views::ChangesPanel panel;
    auto diff = std::make_shared<importers::StateDiff>();
    diff->nodesRemoved = { "cpu-a1" };
    diff->workloads.push_back({ "default", "Deployment", "web", 2, 0, 0, 0 });
    panel.setDiff(diff, QStringLiteral("a.fleet"), QStringLiteral("b.fleet"));
    QCOMPARE(panel.summaryText(), QStringLiteral("Then: a.fleet \u00b7 Now: b.fleet"));
    QVERIFY(panel.view()->isExpanded(panel.model()->groupIndex(ChangesModel::Totals)));
    QSignalSpy activated(&panel, &views::ChangesPanel::nodeActivated);
    emit panel.view()->clicked(panel.model()->index(0, 1, panel.model()->groupIndex(ChangesModel::NodesRemoved)));
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.at(0).at(0).toString(), QStringLiteral("cpu-a1"));
    emit panel.view()->clicked(panel.model()->index(0, 0, panel.model()->groupIndex(ChangesModel::Workloads)));
    emit panel.view()->clicked(panel.model()->groupIndex(ChangesModel::NodesRemoved));
    QCOMPARE(activated.size(), 1); // a workload or a group is no node
}

// The map's difference (model/metrics/comparedmetric.h) on the plan fixtures: cpu-b1 took both
// web pods (its share rises by theirs), cpu-a2 lost api-0, cpu-a1 is gone (minus its share),
// gpu-b2 did not change; a categorical metric has no difference.
void TestChangesModel::comparedMetric()
{
    const QString before = save({ kData + QStringLiteral("/plan/cluster.json") }, QStringLiteral("plan-before.fleet"));
    const QString after = save({ kData + QStringLiteral("/plan/cluster-after-plan.json") }, QStringLiteral("plan-after.fleet"));
    QVERIFY(!before.isEmpty() && !after.isEmpty());
    const auto b = importers::loadClusterFiles({ before.toStdString() });
    const auto a = importers::loadClusterFiles({ after.toStdString() });
    auto prices = std::make_shared<const model::PriceTable>(importers::loadPriceTable(""));
    const auto later = model::makeLaterState(*b.store, a.store, prices);
    const auto cpu = model::MetricRegistry::builtin().find("cpu");
    const auto diff = model::makeComparedMetric(cpu, later);
    QVERIFY(diff);
    QCOMPARE(diff->id(), std::string("compare-diff-cpu"));
    QCOMPARE(model::comparedMetricBaseId(diff->id()), std::string_view("cpu"));
    QVERIFY(diff->scale() == model::ScaleKind::Diverging);
    const model::MetricContext now(*b.store, prices.get());
    const model::MetricContext then(*a.store, prices.get());
    auto value = [&](const char* node) { return diff->value(now, b.store->findNode(node)); };
    auto share = [&](const model::MetricContext& c, const char* node) { return cpu->value(c, c.store().findNode(node)); };
    QVERIFY(!later->afterNode[b.store->findNode("cpu-a1").index()].isValid());
    QCOMPARE(value("cpu-a1"), -share(now, "cpu-a1"));
    QVERIFY(share(now, "cpu-a1") > 0);
    QCOMPARE(value("cpu-b1"), share(then, "cpu-b1") - share(now, "cpu-b1"));
    QVERIFY(value("cpu-b1") > 0);
    QVERIFY(value("cpu-a2") < 0);
    QCOMPARE(value("gpu-b2"), 0.0);
    QVERIFY(!model::makeComparedMetric(model::MetricRegistry::builtin().find("state"), later));
    QVERIFY(!model::makeComparedMetric(cpu, nullptr));
}

QTEST_MAIN(TestChangesModel)
#include "tst_changesmodel.moc"
