// SPDX-License-Identifier: Apache-2.0
// Tests of MapLegend: for every metric its title, unit, ticks in its units, swatches with
// node counts (categories: the most common first, then "other"), the not-applicable and mark
// swatches, totals; and that the painted legend shows those colours.

#include "common/mapfixtures.h"
#include "model/figures.h"
#include "model/metrics/metricregistry.h"
#include "views/map/colormap.h"
#include "views/map/layers/markerlayer.h"
#include "views/map/maplegend.h"
#include "views/map/mapmetricmodel.h"

#include <QCoreApplication>
#include <QHelpEvent>

#include <QApplication>
#include <QSignalSpy>
#include <QTest>

using namespace fleet;

namespace {

// 12 GPU nodes in 12 zones (one of them NotReady, one cordoned) and 2 CPU-only nodes.
std::shared_ptr<model::ClusterStore> makeStore()
{
    auto store = std::make_shared<model::ClusterStore>();
    testing::addFleetNodes(*store, { 1, 12, 1, 1, 1 }, [](model::NodeRecord& rec, std::size_t i) {
        if (i == 3)
            rec.ready = model::Readiness::False;
        if (i == 4)
            rec.unschedulable = true;
    });
    for (int i = 0; i < 2; ++i) {
        model::NodeRecord rec;
        rec.name = "cpu-" + std::to_string(i);
        rec.instanceType = "m7i.4xlarge";
        rec.labels = { { "topology.kubernetes.io/region", "region-0" }, { "topology.kubernetes.io/zone", "region-0a" } };
        rec.allocatable.setCore(model::CoreResource::Cpu, 16000);
        rec.allocatable.setCore(model::CoreResource::Memory, 64LL << 30);
        rec.allocatable.setCore(model::CoreResource::Pods, 110);
        rec.capacity = rec.allocatable;
        rec.ready = model::Readiness::True;
        store->addNode(rec);
    }
    store->finalize();
    return store;
}

QString f(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

class TestMapLegend : public QObject {
    Q_OBJECT
private slots:
    void entries_data();
    void entries();
    void paintsNotApplicableSwatch();
    void markerKey();
    void elidedRowsHaveTheirTextInATooltip();
    void swatchLabelsWrapWhole();
    void drawsTheSharedMetricModel();
    void planKeyStaysWholeOnAShortMap();
};

void TestMapLegend::entries_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("gpu") << "gpu"
                         << "GPU requested"
                         << QStringList { "% of allocatable", f(model::formatShare(1.0)), f(model::formatShare(0.0)),
                                "No GPUs: " + f(model::formatCount(2)), "NotReady: " + f(model::formatCount(1)),
                                "Cordoned: " + f(model::formatCount(1)) };
    // 12 p5 at 98.32 $/h; the CPU nodes have no price.
    QTest::newRow("cost") << "cost"
                          << "Cost"
                          << QStringList { "$/h", f(model::formatDollarsPerHour(100)), f(model::formatDollarsPerHour(0)),
                                 "Unknown price: " + f(model::formatCount(2)),
                                 "Fleet total: " + f(model::formatDollarsPerHour(12 * 98.32)) };
    QTest::newRow("unallocated GPUs") << "gpu-unallocated"
                                      << "Unallocated GPUs"
                                      << QStringList { "GPUs", f(model::formatSignificant(8)) + " GPUs",
                                             "Fleet total: " + f(model::formatCount(96)) + " GPUs" };
    QTest::newRow("state") << "state"
                           << "Node state"
                           << QStringList { "Ready: " + f(model::formatCount(12)), "NotReady: " + f(model::formatCount(1)),
                                  "Cordoned: " + f(model::formatCount(1)) };
    // 12 zones: region-0a has 3 nodes (first), then 11 of one node, by name; 8 swatches, then other.
    QTest::newRow("label: top 8 then other")
        << "label:topology.kubernetes.io/zone"
        << "Label topology.kubernetes.io/zone"
        << QStringList { "region-0a: " + f(model::formatCount(3)), "region-0b: " + f(model::formatCount(1)),
               f(model::formatCount(4)) + " other values: " + f(model::formatCount(4)) };
}

void TestMapLegend::entries()
{
    QFETCH(QString, metric);
    QFETCH(QString, title);
    QFETCH(QStringList, expected);
    const auto store = makeStore();
    model::PriceTable prices;
    prices.set("*", "p5.48xlarge", model::CapacityType::OnDemand, 98.32);
    views::MapLegend legend;
    legend.setContext(std::make_shared<const model::MetricContext>(*store, &prices));
    legend.setMetric(model::MetricRegistry::builtin().find(metric.toStdString()));
    QCOMPARE(legend.title(), title);
    const QStringList entries = legend.entries();
    for (const QString& e : expected)
        QVERIFY2(entries.contains(e), qPrintable(QStringLiteral("'%1' not in %2").arg(e, entries.join(" | "))));
    if (metric.startsWith("label:"))
        QCOMPARE(entries.filter(": ").size(), 8 + 1); // 8 swatches and "other"; every node has a zone
}

// The painted legend holds the not-applicable swatch's colour and the bar's ends.
void TestMapLegend::paintsNotApplicableSwatch()
{
    const auto store = makeStore();
    views::MapLegend legend;
    legend.resize(legend.sizeHint());
    legend.setContext(std::make_shared<const model::MetricContext>(*store));
    legend.setMetric(views::MapMetric::GpuRequested);
    const QImage image = legend.grab().toImage();
    const auto has = [&](QRgb c) {
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if ((image.pixel(x, y) & 0xFFFFFF) == (c & 0xFFFFFF))
                    return true;
        return false;
    };
    QVERIFY(has(views::notApplicableColor().rgb()));
    QVERIFY(has(views::shareRgb(0.0)));
    QVERIFY(has(views::shareRgb(1.0)));
    QVERIFY(has(views::notReadyColor().rgb()));
}

// The marker key: each shape the map draws over cells, with its count (user trial: the amber
// triangle had no legend entry; then the drag's green square had none), painted with the marker
// layer's own colours.
void TestMapLegend::markerKey()
{
    const auto store = makeStore();
    views::MapLegend legend;
    legend.resize(views::MapLegend().sizeHint().width(), 520);
    legend.setContext(std::make_shared<const model::MetricContext>(*store));
    legend.setMetric(views::MapMetric::GpuRequested);
    QVERIFY(!legend.entries().contains(QStringLiteral("Other problem: ") + f(model::formatCount(12))));
    legend.setMarkerCounts(501, 701, 12);
    const QStringList entries = legend.entries();
    QStringList key { QStringLiteral("Markers"), "NotReady: " + f(model::formatCount(501)), "Cordoned: " + f(model::formatCount(701)),
        "Other problem: " + f(model::formatCount(12)) };
    // No drag, no drag mark on the map: its row is not in the key.
    QCOMPARE(entries.mid(entries.size() - 4), key);
    QVERIFY(!entries.contains(QStringLiteral("Fits dragged pod")));
    const QImage still = legend.grab().toImage();
    // While a pod is dragged (FleetMapView::setDragShading()), the key names the drag's square.
    legend.setDragKeyShown(true);
    key << QStringLiteral("Fits dragged pod");
    QCOMPARE(legend.entries().mid(legend.entries().size() - 5), key);
    const QImage image = legend.grab().toImage();
    auto count = [&](QColor c) {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                n += (image.pixel(x, y) & 0xFFFFFF) == (c.rgb() & 0xFFFFFF);
        return n;
    };
    for (const auto kind :
        { views::NodeMarkerKind::Problem, views::NodeMarkerKind::Cordoned, views::NodeMarkerKind::NotReady, views::NodeMarkerKind::Feasible })
        QVERIFY2(count(views::MarkerLayer::markerColor(kind)) >= 4, qPrintable(views::MarkerLayer::markerMeaning(kind)));
    const QRgb feasible = views::MarkerLayer::markerColor(views::NodeMarkerKind::Feasible).rgb() & 0xFFFFFF;
    int stillFeasible = 0;
    for (int y = 0; y < still.height(); ++y)
        for (int x = 0; x < still.width(); ++x)
            stillFeasible += (still.pixel(x, y) & 0xFFFFFF) == feasible;
    QVERIFY2(count(views::MarkerLayer::markerColor(views::NodeMarkerKind::Feasible)) >= stillFeasible + 4, "the square is drawn only during a drag");
}

// A row too long for the legend's width is shortened in the middle, and its tooltip gives it
// whole (user trial: "No GPUs o...a" could not be read anywhere).
void TestMapLegend::elidedRowsHaveTheirTextInATooltip()
{
    const auto store = makeStore();
    views::MapLegend legend;
    legend.resize(120, 600); // narrower than the rows
    legend.setContext(std::make_shared<const model::MetricContext>(*store));
    legend.setMetric(views::MapMetric::GpuRequested);
    legend.setMarkerCounts(501, 701, 12);
    (void)legend.grab(); // paints
    const QStringList entries = legend.entries();
    int elided = 0;
    QString last;
    for (int y = 0; y < legend.height(); ++y) {
        const QPoint at(legend.width() / 2, y);
        if (!legend.rowElidedAt(at) || legend.rowTextAt(at) == last)
            continue;
        const QString whole = last = legend.rowTextAt(at);
        QVERIFY2(entries.contains(whole), qPrintable(whole));
        ++elided;
        // The tooltip event over the row shows that text.
        QHelpEvent help(QEvent::ToolTip, at, legend.mapToGlobal(at));
        QVERIFY(QCoreApplication::sendEvent(&legend, &help));
    }
    QVERIFY2(elided >= 2, qPrintable(QString::number(elided)));
}

// The map's colours come from one MapMetricModel that the map and its legend both read: a
// legend over it shows what is set on the model, the column is the model's own (no copy), and
// the legend tells its followers (the heatmap) once per change.
void TestMapLegend::drawsTheSharedMetricModel()
{
    const auto store = makeStore();
    views::MapMetricModel metrics;
    views::MapLegend legend(&metrics, nullptr);
    QSignalSpy legendChanged(&legend, &views::MapLegend::columnChanged);
    metrics.setContext(std::make_shared<const model::MetricContext>(*store));
    QCOMPARE(legendChanged.count(), 1);
    QCOMPARE(&legend.column(), &metrics.column());
    QCOMPARE(legend.context(), metrics.context());
    QCOMPARE(metrics.column().notApplicable, std::size_t(2)); // the CPU-only nodes under "gpu"
    QVERIFY2(legend.entries().contains(QStringLiteral("NotReady: 1")), qPrintable(legend.entries().join(" | ")));
    metrics.setMetric(views::MapMetric::CpuRequested);
    QCOMPARE(legendChanged.count(), 2);
    QCOMPARE(legend.metric(), views::MapMetric::CpuRequested);
    QCOMPARE(legend.title(), QStringLiteral("CPU requested"));
    QCOMPARE(metrics.column().notApplicable, std::size_t(0));
    metrics.setMetric(views::MapMetric::CpuRequested); // the metric shown: nothing to do
    QCOMPARE(legendChanged.count(), 2);
    // Set through the legend, it is the model that changes.
    legend.setMetric(views::MapMetric::MemoryRequested);
    QCOMPARE(metrics.mapMetric(), views::MapMetric::MemoryRequested);
    metrics.setContext(nullptr);
    QCOMPARE(legendChanged.count(), 4);
    QVERIFY(metrics.column().values.empty());
    QVERIFY2(!legend.entries().contains(QStringLiteral("NotReady: 1")), qPrintable(legend.entries().join(" | ")));
}

// On a short map (the Plan dock open below it) the plan key stays whole: the colour bar gives
// up its height and the marker key its place first. The key was dropped, or cut at the bottom.
void TestMapLegend::planKeyStaysWholeOnAShortMap()
{
    const auto store = makeStore();
    views::MapLegend legend;
    legend.resize(legend.sizeHint().width(), 520);
    legend.setContext(std::make_shared<const model::MetricContext>(*store));
    legend.setMetric(views::MapMetric::GpuRequested);
    legend.setMarkerCounts(501, 701, 12);
    const int leastWithoutPlan = legend.minimumSizeHint().height();
    legend.setPlanMarkCounts({ 1200, 3, 4000, 19066 });
    const QStringList entries = legend.entries();
    const QStringList plan = entries.mid(entries.indexOf(QStringLiteral("Plan")) + 1);
    QCOMPARE(plan.size(), 4);
    // The window shows the legend on a map at least minimumSizeHint() tall: it holds the key.
    QVERIFY(legend.minimumSizeHint().height() >= leastWithoutPlan);
    for (const int height : { 520, 380, 0 }) {
        legend.resize(legend.sizeHint().width(), height > 0 ? height : legend.minimumSizeHint().height());
        (void)legend.grab(); // paints
        for (const QString& row : plan) {
            int top = -1;
            for (int y = 0; y < legend.height() && top < 0; ++y)
                if (legend.rowTextAt(QPoint(legend.width() / 2, y)) == row)
                    top = y;
            QVERIFY2(top >= 0, qPrintable(QStringLiteral("%1 px: no row \"%2\"").arg(legend.height()).arg(row)));
            QVERIFY2(top + 12 < legend.height(), qPrintable(QStringLiteral("%1 px: \"%2\" cut at the bottom").arg(legend.height()).arg(row)));
        }
    }
}

QTEST_MAIN(TestMapLegend)
// A swatch's label wider than the legend wraps under itself, whole (user trial: a report's
// printed legend read "Not applic…le: 41,584", and paper has no tooltip): its row is taller than
// one line and not shortened; its second line has ink.
void TestMapLegend::swatchLabelsWrapWhole()
{
    const auto store = makeStore();
    views::MapLegend legend;
    legend.resize(90, 600); // narrower than "No GPUs: 2" beside its swatch
    legend.setContext(std::make_shared<const model::MetricContext>(*store));
    legend.setMetric(views::MapMetric::GpuRequested);
    legend.setMarkerCounts(501, 701, 12);
    const QImage image = legend.grab().toImage();
    const QFontMetrics fm(legend.font());
    int wrapped = 0;
    QString last;
    for (int y = 0; y < legend.height(); ++y) {
        const QPoint at(legend.width() / 2, y);
        const QString text = legend.rowTextAt(at);
        if (text.isEmpty() || text == last || fm.horizontalAdvance(text) < legend.width() - 40)
            continue;
        last = text;
        if (text.contains(QLatin1String("NotReady")) || text.contains(QLatin1String("Cordoned")) || text.contains(QLatin1String("problem")))
            continue; // the marker key's rows (elided, with a tooltip)
        QVERIFY2(!legend.rowElidedAt(at), qPrintable(text));
        int rows = 0, inkRows = 0;
        for (int yy = y; yy < legend.height() && legend.rowTextAt(QPoint(legend.width() / 2, yy)) == text; ++yy) {
            ++rows;
            for (int x = 30; x < legend.width(); ++x)
                if (qGray(image.pixel(x, yy)) < qGray(legend.palette().color(QPalette::Window).rgb()) - 60
                    || qGray(image.pixel(x, yy)) > qGray(legend.palette().color(QPalette::Window).rgb()) + 60) {
                    ++inkRows;
                    break;
                }
        }
        QVERIFY2(rows >= 2 * fm.height(), qPrintable(QStringLiteral("%1: %2 px high").arg(text).arg(rows)));
        QVERIFY2(inkRows > fm.height(), qPrintable(QStringLiteral("%1: ink on %2 px rows").arg(text).arg(inkRows)));
        ++wrapped;
    }
    QVERIFY(wrapped >= 1);
}

#include "tst_maplegend.moc"
