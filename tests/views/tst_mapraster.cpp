// Tests of MapRaster: the colour of each node's texel from the store's columns.

#include "importers/kube/kubejson.h"
#include "mapfixtures.h"
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
    QTest::newRow("cpu node under gpu metric: cpu share") << "cpu-only" << gpu << views::shareColor(0.75);
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

QTEST_GUILESS_MAIN(TestMapRaster)
#include "tst_mapraster.moc"
