// SPDX-License-Identifier: Apache-2.0
// The plan-difference map's colour scale: chosen from the differences (a high quantile of the
// changed nodes' |after - before|, rounded to a readable step) and stated in the legend, so that
// a plan whose few largest changes reach 100 % does not leave every other changed node in the
// neutral grey of the unchanged ones, nor a small plan's changes at the scale's ends.

#include "explorefixtures.h"
#include "model/metrics/metric.h"
#include "model/metrics/planmetrics.h"
#include "model/plan/plan.h"
#include "model/plan/planprices.h"
#include "model/search/consolidation.h"
#include "views/map/colormap.h"
#include "views/map/maplegend.h"
#include "views/report/reportmaps.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace fleet;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// How the changed values of `column` fall on the scale: at its ends (the table's first or last
// few entries: clamped or nearly), and far enough from the neutral centre to read as a change.
struct Spread {
    std::size_t changed = 0, atEnds = 0, readable = 0;
};

Spread spreadOf(const model::Metric& metric, const model::MetricColumn& column)
{
    const views::MetricColorScale scale = views::MetricColorScale::forColumn(metric, column);
    Spread s;
    for (const double v : column.values) {
        if (!(std::abs(v) > views::kUnchangedBelow))
            continue;
        ++s.changed;
        const int index = views::shareColorIndex(scale.position(v));
        if (index <= 2 || index >= views::kShareColorSteps - 3)
            ++s.atEnds;
        if (std::abs(index - 127.5) >= 16) // 1/8 of the table from the centre: a visible tint
            ++s.readable;
    }
    return s;
}

// A metric whose value is the column's: the scale kind and unit of a plan difference.
class ColumnDifference final : public model::Metric {
public:
    std::string id() const override { return "test-diff"; }
    std::string title() const override { return "test difference"; }
    std::string unit() const override { return "% of allocatable"; }
    std::string description() const override { return {}; }
    model::ScaleKind scale() const override { return model::ScaleKind::Diverging; }
    double value(const model::MetricContext&, model::NodeId) const noexcept override { return kNaN; }
};

} // namespace

class TstPlanDifferenceScale : public QObject {
    Q_OBJECT
private slots:
    void extentIsAQuantileOfTheChanges()
    {
        // 950 nodes changed by up to 9.5 %, 50 drained ones by -100 %, 4,000 unchanged, 10 not
        // applicable: the scale is +-10 %, where the largest change alone made it +-100 % and
        // left the 950 within 1/20 of the centre.
        model::MetricColumn column;
        for (int i = 1; i <= 950; ++i)
            column.values.push_back((i % 2 ? 1 : -1) * 0.095 * i / 950.0);
        column.values.insert(column.values.end(), 50, -1.0);
        column.values.insert(column.values.end(), 4000, 0.0);
        column.values.insert(column.values.end(), 10, kNaN);
        column.minValue = -1.0;
        column.maxValue = 0.095;
        QCOMPARE(views::divergingExtent(column.values), 0.1);
        const ColumnDifference metric;
        const views::MetricColorScale scale = views::MetricColorScale::forColumn(metric, column);
        QCOMPARE(scale.lo, -0.1);
        QCOMPARE(scale.hi, 0.1);
        QCOMPARE(scale.changed, std::size_t(1000));
        QCOMPARE(scale.beyond, std::size_t(50));
        const Spread s = spreadOf(metric, column);
        QVERIFY2(s.readable >= 800, qPrintable(QString::number(s.readable)));
        QVERIFY2(s.atEnds <= 80, qPrintable(QString::number(s.atEnds)));
        // Said in the legend: ticks in percent, the range and what lies beyond it.
        QCOMPARE(views::legendTickLabels(metric, scale),
            (QStringList { QStringLiteral("-10%"), QStringLiteral("-5%"), QStringLiteral("0%"), QStringLiteral("+5%"), QStringLiteral("+10%") }));
        QCOMPARE(views::legendScaleRange(metric, scale),
            (QStringList { QStringLiteral("Changed: 1,000 nodes"), QStringLiteral("Scale \u00b110%: 50 beyond, at the ends") }));
        const QString caption = views::differenceScaleText(metric, column);
        QVERIFY2(caption.startsWith(QStringLiteral("Scale \u00b110 % of allocatable: the 95th percentile")), qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("1,000 nodes")) && caption.contains(QStringLiteral("50 of them beyond"))
                && caption.contains(QStringLiteral("from -100% to +9.5%")),
            qPrintable(caption));
    }

    // Nothing this metric counts changed, yet the plan did something: removed nodes, or pods
    // moved that the metric does not count (CPU-only pods on the GPU map). The caption says what,
    // never "No node changes." (a reader saw it beside a map outlining ten nodes).
    void unchangedValuesStillSayWhatThePlanDid()
    {
        const ColumnDifference metric;
        model::MetricColumn column;
        column.values.assign(100, 0.0);
        QCOMPARE(views::differenceScaleText(metric, column), QStringLiteral("No node changes."));
        QCOMPARE(views::differenceScaleText(metric, column, 1),
            QStringLiteral("The plan removes 1 node (crossed on the map) and changes no other node's value."));
        QCOMPARE(views::differenceScaleText(metric, column, 0, 10),
            QStringLiteral("The plan moves pods to or from 10 nodes (outlined on the map), none of which changes a node's value of this metric."));
        QCOMPARE(views::differenceScaleText(metric, column, 2, 1),
            QStringLiteral("The plan removes 2 nodes (crossed on the map) and moves pods to or from 1 node (outlined), none of which changes a "
                           "node's value of this metric."));
    }

    void extentEdgeCases_data()
    {
        QTest::addColumn<QVector<double>>("values");
        QTest::addColumn<double>("extent");
        QTest::newRow("nothing changed") << QVector<double> { 0.0, 0.0, kNaN } << 1.0;
        QTest::newRow("empty") << QVector<double> {} << 1.0;
        QTest::newRow("noise only") << QVector<double> { 1e-12, -1e-10 } << 1.0;
        QTest::newRow("tiny changes") << QVector<double> { 1e-5, -2e-5 } << views::kMinDivergingExtent;
        QTest::newRow("one change") << QVector<double> { 0.0, -0.37 } << 0.4;
        QTest::newRow("rounded up") << QVector<double> { 0.21, 0.22, -0.23 } << 0.25;
        // A quantile on a step of the shares: the scale ends a step above, so that the end colour
        // is what lies beyond; where nothing does, the scale ends at the largest.
        QTest::newRow("on a step") << (QVector<double>(20, 0.5) << 1.0) << 0.6;
        QTest::newRow("largest on a step") << QVector<double> { 0.25, -0.5, 0.5, 0.5 } << 0.5;
        QTest::newRow("above 100 %") << QVector<double> { -1.33, -1.33, -1.33 } << 1.5;
    }
    void extentEdgeCases()
    {
        QFETCH(QVector<double>, values);
        QFETCH(double, extent);
        QCOMPARE(views::divergingExtent(std::vector<double>(values.begin(), values.end())), extent);
    }

    void signedPercent_data()
    {
        QTest::addColumn<double>("share");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "0%";
        QTest::newRow("minus zero") << -1e-9 << "0%";
        QTest::newRow("whole") << 0.8 << "+80%";
        QTest::newRow("loss") << -0.25 << "-25%";
        QTest::newRow("half step") << 0.075 << "+7.5%";
        QTest::newRow("small") << -0.0025 << "-0.25%";
        QTest::newRow("over 100") << 1.5 << "+150%";
        QTest::newRow("nan") << kNaN << "n/a";
    }
    void signedPercent()
    {
        QFETCH(double, share);
        QFETCH(QString, text);
        QCOMPARE(views::legendSignedPercent(share), text);
    }

    void consolidationIsNotSaturated()
    {
        // A consolidation of a simulated fleet: drained nodes lose their whole share, the nodes
        // that take their pods gain a part. On each base, most changed nodes read as a change
        // and few sit at the scale's ends.
        const importers::LoadedCluster c = testing::loadSimulated(3000);
        model::ConsolidationInput input;
        input.nodePricePerHour = model::planNodePrices(*c.store, nullptr);
        model::ConsolidationOptions options;
        options.bestOfOrders = false;
        const model::ConsolidationResult plan = model::consolidate(*c.store, *c.topology, input, options);
        QVERIFY(plan.nodesFreed > 50);
        auto engine = std::make_shared<model::PlanEngine>(*c.store, *c.topology, input.nodePricePerHour);
        for (const model::PlanAction& a : plan.pendingPlaced)
            engine->apply(a);
        for (const model::PlanAction& a : plan.actions)
            engine->apply(a);
        const std::shared_ptr<const model::PlanLedger> state(engine, &engine->state());
        const model::MetricContext context(*c.store);
        for (const char* base : { "gpu", "cpu", "memory" }) {
            const auto metric = model::makePlanMetric(state, base, model::PlanMetricKind::Difference);
            const model::MetricColumn column = model::computeMetricColumn(*metric, context);
            const Spread s = spreadOf(*metric, column);
            const views::MetricColorScale scale = views::MetricColorScale::forColumn(*metric, column);
            const QString what = QStringLiteral("%1: scale +-%2, %3 changed, %4 at the ends, %5 readable")
                                     .arg(QLatin1String(base))
                                     .arg(scale.hi)
                                     .arg(s.changed)
                                     .arg(s.atEnds)
                                     .arg(s.readable);
            qInfo("%s", qPrintable(what));
            QVERIFY2(s.changed > 50, qPrintable(what));
            QVERIFY2(s.atEnds * 10 <= s.changed, qPrintable(what));
            QVERIFY2(s.readable * 10 >= s.changed * 6, qPrintable(what));
            QVERIFY2(scale.beyond * 100 <= s.changed * 6, qPrintable(what));
        }
    }
};

QTEST_GUILESS_MAIN(TstPlanDifferenceScale)
#include "tst_plandifferencescale.moc"
