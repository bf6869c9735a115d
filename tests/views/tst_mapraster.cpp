// SPDX-License-Identifier: Apache-2.0
// Tests of MapRaster: the colour of each node's texel from the store's columns.

#include "importers/kube/kubejson.h"
#include "common/mapfixtures.h"
#include "model/metrics/metricregistry.h"
#include "views/map/colormap.h"
#include "views/map/maplayout.h"
#include "views/map/mapraster.h"

#include <QTest>

#include <cmath>

using namespace fleet;
using fleet::views::MapLayout;
using fleet::views::MapMetric;
using fleet::views::MapRaster;

namespace {

// One leaf domain per node kind, so the nodes are spread over several blocks.
struct Fixture {
    model::ClusterStore store;
    std::unique_ptr<model::Topology> topology;

    void addNode(const std::string& name, const std::string& zone, std::int64_t cpu, std::int64_t gpu, std::int64_t neuron = 0,
        model::Readiness ready = model::Readiness::True, bool cordoned = false)
    {
        model::NodeRecord rec;
        rec.name = name;
        rec.labels = { { "topology.kubernetes.io/region", "r1" }, { "topology.kubernetes.io/zone", zone } };
        rec.allocatable.setCore(model::CoreResource::Cpu, cpu);
        rec.allocatable.setCore(model::CoreResource::Memory, 64LL << 30);
        rec.allocatable.setCore(model::CoreResource::Pods, 110);
        if (gpu > 0)
            rec.allocatable.setCore(model::CoreResource::Gpu, gpu);
        if (neuron > 0)
            rec.allocatable.set(store.resources().keyFor("aws.amazon.com/neuron"), neuron);
        rec.capacity = rec.allocatable;
        rec.ready = ready;
        rec.unschedulable = cordoned;
        store.addNode(rec);
    }
    // A MIG node: nvidia.com/gpu 0, 8 GPUs partitioned as 7 x 1g.10gb each (56 slices) plus
    // 2 x 3g.40gb on one more GPU, as the NVIDIA device plugin's mixed strategy advertises.
    void addMigNode(const std::string& name, const std::string& zone)
    {
        model::NodeRecord rec;
        rec.name = name;
        rec.labels = { { "topology.kubernetes.io/region", "r1" }, { "topology.kubernetes.io/zone", zone } };
        rec.allocatable.setCore(model::CoreResource::Cpu, 192000);
        rec.allocatable.setCore(model::CoreResource::Memory, 2048LL << 30);
        rec.allocatable.setCore(model::CoreResource::Pods, 110);
        rec.allocatable.setCore(model::CoreResource::Gpu, 0);
        rec.allocatable.set(store.resources().keyFor("nvidia.com/mig-1g.10gb"), 56);
        rec.allocatable.set(store.resources().keyFor("nvidia.com/mig-3g.40gb"), 2);
        rec.capacity = rec.allocatable;
        rec.ready = model::Readiness::True;
        rec.gpuCount = 9;
        store.addNode(rec);
    }
    void addExtendedPod(const std::string& name, const std::string& node, const std::string& resource, std::int64_t amount)
    {
        model::PodRecord pod;
        pod.namespaceName = "ml";
        pod.name = name;
        pod.nodeName = node;
        pod.phase = model::PodPhase::Running;
        pod.request.setCore(model::CoreResource::Cpu, 48000); // two on "mig": CPU 50%, not what the map shows
        pod.request.set(store.resources().keyFor(resource), amount);
        store.addPod(pod);
    }
    void addNeuronPod(const std::string& name, const std::string& node, std::int64_t devices)
    {
        model::PodRecord pod;
        pod.namespaceName = "ml";
        pod.name = name;
        pod.nodeName = node;
        pod.phase = model::PodPhase::Running;
        pod.request.setCore(model::CoreResource::Cpu, 1000);
        pod.request.set(store.resources().keyFor("aws.amazon.com/neuron"), devices);
        store.addPod(pod);
    }
    void build()
    {
        store.finalize();
        topology = std::make_unique<model::Topology>(model::Topology::build(store));
    }
};

Fixture makeFixture()
{
    Fixture f;
    // GPU nodes: 8 GPUs (8000 milli), 64 cores.
    f.addNode("gpu-quarter", "z-a", 64000, 8000);
    f.addNode("gpu-full", "z-a", 64000, 8000);
    f.addNode("gpu-idle", "z-a", 64000, 8000);
    // CPU-only node, 16 cores.
    f.addNode("cpu-only", "z-b", 16000, 0);
    // Trainium node with 16 Neuron devices and no GPU.
    f.addNode("trn", "z-b", 128000, 0, 16);
    f.addNode("not-ready", "z-c", 64000, 8000, 0, model::Readiness::False);
    f.addNode("unknown-ready", "z-c", 64000, 8000, 0, model::Readiness::Unknown);
    f.addNode("cordoned", "z-c", 64000, 8000, 0, model::Readiness::True, true);
    f.addNode("no-cpu", "z-c", 0, 0);
    f.addMigNode("mig", "z-d");
    f.addMigNode("mig-idle", "z-d");
    testing::addPod(f.store, "p1", "gpu-quarter", 8000, 1LL << 30, 2000); // GPU 25%, CPU 12.5%
    testing::addPod(f.store, "p2", "gpu-full", 16000, 32LL << 30, 8000); // GPU 100%, CPU 25%, mem 50%
    testing::addPod(f.store, "p3", "cpu-only", 12000, 16LL << 30, 0); // CPU 75%
    f.addNeuronPod("p4", "trn", 4); // Neuron 25%
    testing::addPod(f.store, "p5", "not-ready", 64000, 1LL << 30, 8000);
    testing::addPod(f.store, "p6", "cordoned", 1000, 1LL << 30, 1000);
    // MIG: (13 x 1g + 2 x 3g) / (56 + 2) slices = 15 / 58.
    f.addExtendedPod("m1", "mig", "nvidia.com/mig-1g.10gb", 13);
    f.addExtendedPod("m2", "mig", "nvidia.com/mig-3g.40gb", 2);
    f.build();
    return f;
}

} // namespace

class TestMapRaster : public QObject {
    Q_OBJECT
private slots:
    void nodeTexel_data();
    void nodeTexel();
    void gutterIsBackground();
    void migSlices();
    void legendTitle_data();
    void legendTitle();
    void colormapEnds();
    void idleAndNotApplicableStandOut();
    void sequentialLightnessRises_data();
    void sequentialLightnessRises();
    void divergingIsSymmetric();
    void categoricalColorsDistinct();
    void texelFollowsMetric_data();
    void texelFollowsMetric();
    void amountScale();
};

void TestMapRaster::nodeTexel_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<int>("metric");
    QTest::addColumn<QColor>("expected");
    const int gpu = static_cast<int>(MapMetric::GpuRequested);
    const int cpu = static_cast<int>(MapMetric::CpuRequested);
    const int mem = static_cast<int>(MapMetric::MemoryRequested);
    QTest::newRow("gpu share 25%") << "gpu-quarter" << gpu << views::shareColor(0.25);
    QTest::newRow("gpu share 100%") << "gpu-full" << gpu << views::shareColor(1.0);
    QTest::newRow("gpu share 0%") << "gpu-idle" << gpu << views::shareColor(0.0);
    QTest::newRow("cpu node under gpu metric: not applicable, unlike 0%") << "cpu-only" << gpu << views::notApplicableColor();
    QTest::newRow("neuron node under gpu metric: neuron share") << "trn" << gpu << views::shareColor(0.25);
    QTest::newRow("MIG node under gpu metric: MIG slice share") << "mig" << gpu << views::shareColor(15.0 / 58.0);
    QTest::newRow("idle MIG node: 0%, not its CPU share") << "mig-idle" << gpu << views::shareColor(0.0);
    QTest::newRow("cpu metric on MIG node") << "mig" << cpu << views::shareColor(0.5);
    QTest::newRow("cpu metric on gpu node") << "gpu-quarter" << cpu << views::shareColor(0.125);
    QTest::newRow("memory metric") << "gpu-full" << mem << views::shareColor(0.5);
    QTest::newRow("NotReady wins over share") << "not-ready" << gpu << views::notReadyColor();
    QTest::newRow("Unknown readiness is NotReady") << "unknown-ready" << cpu << views::notReadyColor();
    QTest::newRow("cordoned") << "cordoned" << gpu << views::cordonedColor();
    QTest::newRow("no allocatable cpu") << "no-cpu" << cpu << views::noDataColor();
}

void TestMapRaster::nodeTexel()
{
    QFETCH(QString, node);
    QFETCH(int, metric);
    QFETCH(QColor, expected);
    const Fixture f = makeFixture();
    const MapLayout layout = MapLayout::build(*f.topology, 1.6);
    const QImage image = MapRaster::render(f.store, layout, static_cast<MapMetric>(metric));
    QCOMPARE(image.size(), QSize(layout.width(), layout.height()));
    const model::NodeId n = f.store.findNode(node.toStdString());
    QVERIFY(n.isValid());
    const views::CellPos cell = layout.nodeCell(n);
    QVERIFY(cell.isValid());
    QCOMPARE(QColor(image.pixel(cell.x, cell.y)), expected);
    QCOMPARE(
        QColor(MapRaster::nodeColor(f.store, n, static_cast<MapMetric>(metric), views::MetricKeys::find(f.store))), expected);
}

void TestMapRaster::gutterIsBackground()
{
    const Fixture f = makeFixture();
    const MapLayout layout = MapLayout::build(*f.topology, 1.6);
    const QImage image = MapRaster::render(f.store, layout, MapMetric::GpuRequested);
    int background = 0;
    for (int y = 0; y < layout.height(); ++y)
        for (int x = 0; x < layout.width(); ++x)
            if (!layout.nodeAt(x, y).isValid()) {
                QCOMPARE(QColor(image.pixel(x, y)), views::mapBackgroundColor());
                ++background;
            }
    QVERIFY(background > 0);
}

void TestMapRaster::migSlices()
{
    const Fixture f = makeFixture();
    const views::MetricKeys keys = views::MetricKeys::find(f.store);
    const model::NodeId mig = f.store.findNode("mig");
    const views::MigSlices slices = views::nodeMigSlices(f.store, mig, keys);
    QCOMPARE(slices.requested, std::int64_t(15));
    QCOMPARE(slices.allocatable, std::int64_t(58));
    QCOMPARE(views::nodeShare(f.store, mig, MapMetric::GpuRequested, keys), 15.0 / 58.0);
    QCOMPARE(views::nodeShareResource(f.store, mig, MapMetric::GpuRequested, keys), std::string_view("MIG slices"));
    QCOMPARE(views::nodeMigSlices(f.store, f.store.findNode("gpu-full"), keys).allocatable, std::int64_t(0));
    QVERIFY(!keys.isMig(static_cast<model::ResourceKey>(f.store.resources().find("aws.amazon.com/neuron"))));
}

// The legend's title: GpuRequested on a fleet without accelerators says it shows CPU.
void TestMapRaster::legendTitle_data()
{
    QTest::addColumn<QString>("fleet");
    QTest::addColumn<int>("metric");
    QTest::addColumn<QString>("expected");
    const int gpu = static_cast<int>(MapMetric::GpuRequested);
    const int cpu = static_cast<int>(MapMetric::CpuRequested);
    QTest::newRow("mixed fleet") << "fixture" << gpu << "GPU requested";
    QTest::newRow("MIG only") << "mig-only" << gpu << "GPU requested";
    QTest::newRow("Neuron only") << "neuron-only" << gpu << "GPU requested";
    QTest::newRow("CPU only") << "cpu-only" << gpu << "CPU requested (no GPU nodes)";
    QTest::newRow("CPU metric on CPU only") << "cpu-only" << cpu << "CPU requested";
    QTest::newRow("honeycomb EKS fixture (no GPU)") << "honeycomb" << gpu << "CPU requested (no GPU nodes)";
}

void TestMapRaster::legendTitle()
{
    QFETCH(QString, fleet);
    QFETCH(int, metric);
    QFETCH(QString, expected);
    Fixture f;
    if (fleet == "fixture") {
        f = makeFixture();
    } else if (fleet == "mig-only") {
        f.addMigNode("m", "z");
        f.addNode("c", "z", 16000, 0);
        f.build();
    } else if (fleet == "neuron-only") {
        f.addNode("trn", "z", 128000, 0, 16);
        f.build();
    } else if (fleet == "cpu-only") {
        f.addNode("c1", "z", 16000, 0);
        f.addNode("c2", "z", 16000, 0);
        f.build();
    } else {
        importers::ImportReport report;
        importers::importKubectlJsonFile(FLEET_SHARED_DATA_DIR "/k8s-fixture-honeycomb-eks/nodes.json", f.store, report);
        importers::importKubectlJsonFile(FLEET_SHARED_DATA_DIR "/k8s-fixture-honeycomb-eks/pods.json", f.store, report);
        f.build();
        QVERIFY(f.store.nodeCount() > 0);
    }
    const bool has = views::fleetHasAccelerators(f.store, views::MetricKeys::find(f.store));
    const std::string_view title = views::mapMetricTitle(static_cast<MapMetric>(metric), has);
    QCOMPARE(QString::fromUtf8(title.data(), static_cast<qsizetype>(title.size())), expected);
}

void TestMapRaster::colormapEnds()
{
    // Viridis ends: dark purple at 0, yellow at 1; clamped outside; lightness rises.
    QCOMPARE(views::shareColor(0.0), QColor(68, 1, 84));
    QCOMPARE(views::shareColor(1.0), QColor(253, 231, 37));
    QCOMPARE(views::shareColor(-0.5), views::shareColor(0.0));
    QCOMPARE(views::shareColor(3.0), views::shareColor(1.0));
    QCOMPARE(views::shareColor(std::nan("")), views::noDataColor());
    double lastLightness = -1;
    for (int i = 0; i < views::kShareColorSteps; ++i) {
        const QColor c = views::shareColor(i / 255.0);
        const double lightness = 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
        QVERIFY2(lightness >= lastLightness, qPrintable(QStringLiteral("step %1").arg(i)));
        lastLightness = lightness;
    }
}

// The two defects of the GPU view: a node without GPUs looked like an idle GPU node, and
// 0% (viridis' dark purple) vanished on the near-black background (1.14:1).
void TestMapRaster::idleAndNotApplicableStandOut()
{
    const QRgb idle = views::shareRgb(0.0);
    const QRgb background = views::mapBackgroundColor().rgb();
    QVERIFY2(views::contrastRatio(idle, background) >= 3.0, qPrintable(QString::number(views::contrastRatio(idle, background))));
    QVERIFY(views::contrastRatio(views::shareRgb(1.0), background) >= 3.0);
    // Not applicable is a neutral grey far from 0% and from the background.
    const QColor na = views::notApplicableColor();
    QCOMPARE(na.red(), na.green());
    QCOMPARE(na.green(), na.blue());
    QVERIFY(views::contrastRatio(na.rgb(), idle) >= 3.0);
    QVERIFY(views::contrastRatio(na.rgb(), background) >= 1.5);
    // ... and unlike every share colour: viridis is never grey.
    for (const QRgb c : views::shareColorTable())
        QVERIFY(std::max({ qRed(c), qGreen(c), qBlue(c) }) - std::min({ qRed(c), qGreen(c), qBlue(c) }) > 20);
    // The raster: the CPU-only node at 75% CPU under the GPU metric is grey, an idle GPU node purple.
    Fixture f = makeFixture();
    const MapLayout layout = MapLayout::build(*f.topology, f.store.nodeCount());
    const QImage image = MapRaster::render(f.store, layout, MapMetric::GpuRequested);
    const auto texel = [&](const char* name) {
        const auto cell = layout.nodeCell(f.store.findNode(name));
        return QColor(image.pixel(cell.x, cell.y));
    };
    QCOMPARE(texel("cpu-only"), views::notApplicableColor());
    QCOMPARE(texel("gpu-idle"), views::shareColor(0.0));
    QVERIFY(texel("cpu-only") != texel("gpu-idle"));
}

void TestMapRaster::sequentialLightnessRises_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("viridis (shares)") << int(model::ScaleKind::Share);
    QTest::newRow("OKLab blue ramp (amounts)") << int(model::ScaleKind::Amount);
}

void TestMapRaster::sequentialLightnessRises()
{
    QFETCH(int, kind);
    const views::ColorTable& table = views::colorTable(static_cast<model::ScaleKind>(kind));
    double last = -1;
    for (std::size_t i = 0; i < table.size(); ++i) {
        const double l = views::cieLightness(table[i]);
        // 8-bit rounding can flatten one step; it never goes down by more.
        QVERIFY2(l >= last - 0.3, qPrintable(QStringLiteral("entry %1: L* %2 after %3").arg(i).arg(l).arg(last)));
        last = std::max(last, l);
    }
    QVERIFY(views::cieLightness(table.back()) - views::cieLightness(table.front()) > 50);
}

void TestMapRaster::divergingIsSymmetric()
{
    const views::ColorTable& table = views::divergingColorTable();
    for (std::size_t i = 0; i < table.size() / 2; ++i) {
        const double lo = views::cieLightness(table[i]);
        const double hi = views::cieLightness(table[table.size() - 1 - i]);
        QVERIFY2(std::abs(lo - hi) < 1.5, qPrintable(QStringLiteral("entry %1: L* %2 vs %3").arg(i).arg(lo).arg(hi)));
    }
    // A neutral centre, the lightest entry; blue below, red above.
    const QColor centre = QColor::fromRgb(table[127]);
    QVERIFY(std::abs(centre.red() - centre.blue()) <= 6 && std::abs(centre.red() - centre.green()) <= 6);
    for (const QRgb c : table)
        QVERIFY(views::cieLightness(c) <= views::cieLightness(table[127]) + 0.5);
    QVERIFY(qBlue(table.front()) > qRed(table.front()));
    QVERIFY(qRed(table.back()) > qBlue(table.back()));
}

void TestMapRaster::categoricalColorsDistinct()
{
    std::vector<QRgb> colours;
    for (int r = 0; r < views::kCategoryColors; ++r)
        colours.push_back(views::categoryRgb(r));
    colours.push_back(views::otherCategoryColor().rgb());
    colours.push_back(views::notApplicableColor().rgb());
    for (std::size_t i = 0; i < colours.size(); ++i)
        for (std::size_t j = i + 1; j < colours.size(); ++j) {
            const QColor a = QColor::fromRgb(colours[i]), b = QColor::fromRgb(colours[j]);
            const int distance = std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
            QVERIFY2(distance > 60, qPrintable(QStringLiteral("%1 vs %2").arg(a.name(), b.name())));
        }
    // Past the palette every category is "other".
    QCOMPARE(views::categoryRgb(views::kCategoryColors), views::otherCategoryColor().rgb());
    QCOMPARE(views::categoryRgb(100), views::otherCategoryColor().rgb());
    QCOMPARE(views::categoryRgb(-1), views::notApplicableColor().rgb());
}

// The texel of a known node changes with the metric, to the colour that metric's scale gives.
void TestMapRaster::texelFollowsMetric_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QColor>("expected");
    QTest::newRow("gpu 25%") << "gpu" << views::shareColor(0.25);
    QTest::newRow("cpu 12.5%") << "cpu" << views::shareColor(0.125);
    QTest::newRow("memory") << "memory" << views::shareColor(1.0 / 64);
    // 6 of 8 GPUs free; the fleet's most is trn's 12 free Neuron devices, so the scale runs 0..12.
    QTest::newRow("unallocated GPUs") << "gpu-unallocated"
                                      << QColor::fromRgb(views::amountColorTable()[views::shareColorIndex(0.5)]);
    QTest::newRow("cost") << "cost" << QColor::fromRgb(views::amountColorTable()[views::shareColorIndex(0.4)]);
    QTest::newRow("state Ready") << "state" << views::readyColor();
    QTest::newRow("zone label, most common first")
        << "label:topology.kubernetes.io/zone" << QColor::fromRgb(views::categoryRgb(1));
}

void TestMapRaster::texelFollowsMetric()
{
    QFETCH(QString, metric);
    QFETCH(QColor, expected);
    Fixture f = makeFixture();
    model::PriceTable prices;
    const MapLayout layout = MapLayout::build(*f.topology, f.store.nodeCount());
    model::MetricContext context(f.store, &prices);
    const auto m = model::MetricRegistry::builtin().find(metric.toStdString());
    QVERIFY(m);
    model::MetricColumn column = model::computeMetricColumn(*m, context);
    if (metric == "cost") { // the fixture has no instance types: set the two prices in the column
        column.values.assign(f.store.nodeCount(), std::nan(""));
        column.values[f.store.findNode("gpu-quarter").index()] = 40;
        column.values[f.store.findNode("gpu-full").index()] = 100;
        column.maxValue = 100;
    }
    const QImage image = MapRaster::render(context, layout, *m, column);
    const model::NodeId n = f.store.findNode("gpu-quarter");
    const auto cell = layout.nodeCell(n);
    QCOMPARE(QColor(image.pixel(cell.x, cell.y)), expected);
    QCOMPARE(QColor(MapRaster::nodeColor(context, *m, column, n)), expected);
}

void TestMapRaster::amountScale()
{
    QCOMPARE(views::niceCeiling(8), 8.0);
    QCOMPARE(views::niceCeiling(98.32), 100.0);
    QCOMPARE(views::niceCeiling(113.93), 120.0);
    QCOMPARE(views::niceCeiling(1.5), 1.5);
    QCOMPARE(views::niceCeiling(2.2), 2.5);
    QCOMPARE(views::niceCeiling(0.7), 0.8);
    QCOMPARE(views::niceCeiling(0), 1.0);
}

QTEST_GUILESS_MAIN(TestMapRaster)
#include "tst_mapraster.moc"
