// SPDX-License-Identifier: Apache-2.0
// Benchmark of the fleet map: a 1920x1080 window on the simulated fleet (100,000
// nodes, seed 1 by default), software OpenGL under xvfb-run. Every figure is the median (p95
// where named) of at least 30 frames after a warm-up, each from the request to the finished
// paint (frameRendered: VTK's frame and the layers' painting composed on screen):
//   overview  the whole fleet fitted (resetView() per frame);
//   zoom      focused on the first network-node-layer-1 domain of the first zone (about
//             1,000 nodes with their GPU tiles and pods drawn), panned by an arrow key per frame;
//   recolor   switching the metric (GPU <-> CPU requested) until on screen, fitted;
//   filter    computing a label-selector mask over every node and applying it (setNodeMask)
//             until on screen, fitted;
//   pick      nodeAt() over a grid of positions, per call;
//   rss       the whole process's resident set at the end (VmRSS), in MiB.
// Prints progress lines, then, last, one JSON object. Passes or fails nothing.
//
//   xvfb-run -a -s "-screen 0 1920x1080x24" bench_map [--nodes N] [--seed S] [--size WxH] [--frames F]
//            [-o overview.png] [--zoom-output zoom.png]

#include "importers/simulated/simulatedcluster.h"
#include "model/labelselector.h"
#include "model/topology.h"
#include "views/map/fleetmapview.h"
#include "views/vtk/vtkopenglwidget.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QKeyEvent>
#include <QSurfaceFormat>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdio>
#include <vector>

#include <sys/resource.h>

using namespace fleet;

namespace {

double ms(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return -1;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(std::min<double>(v.size() - 1, std::ceil(p * v.size()) - 1));
    return v[std::max<std::size_t>(0, i)];
}

double median(const std::vector<double>& v)
{
    return percentile(v, 0.5);
}

// Waits for the next frameRendered, up to `timeoutMs`; false on timeout.
bool waitForFrame(views::FleetMapView& view, int timeoutMs)
{
    QEventLoop loop;
    bool done = false;
    const auto c = QObject::connect(&view, &views::FleetMapView::frameRendered, &loop, [&] {
        done = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(c);
    return done;
}

// Lets frames still queued arrive: quiet for 200 ms.
void settle(views::FleetMapView& view)
{
    while (waitForFrame(view, 200)) {
    }
}

// CPU time of the whole process (every thread: the GUI thread and llvmpipe's rasterizer
// threads), in ms. On a shared machine the wall time of a frame grows with the load; the CPU
// it costs much less so, which makes it the figure to compare changes by.
double processCpuMs()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

// CPU ms per frame of the last timeFrames() call.
double g_lastCpuMsPerFrame = -1;

// Times `frames` runs of `step` (which must request one frame) to frameRendered.
std::vector<double> timeFrames(views::FleetMapView& view, int frames, const std::function<void(int)>& step)
{
    for (int i = 0; i < 5; ++i) { // warm-up
        step(i);
        waitForFrame(view, 10000);
    }
    std::vector<double> out;
    QElapsedTimer t;
    const double cpuBefore = processCpuMs();
    for (int i = 0; i < frames; ++i) {
        t.start();
        step(i);
        if (!waitForFrame(view, 10000))
            break;
        out.push_back(ms(t));
    }
    g_lastCpuMsPerFrame = out.empty() ? -1 : (processCpuMs() - cpuBefore) / static_cast<double>(out.size());
    return out;
}

double rssMiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return -1;
}

// The selector's mask: model::nodesMatchingSelector() where it is implemented, else the one
// equality requirement matched on the label column directly (same cost class: one pass).
std::vector<std::uint8_t> selectorMask(const model::ClusterStore& store, const char* key, const char* value)
{
    std::vector<std::uint8_t> mask;
    try {
        mask = model::nodesMatchingSelector(store, model::parseLabelSelector(std::string(key) + "=" + value));
    } catch (const std::exception&) {
        mask.clear();
    }
    if (mask.size() == store.nodeCount())
        return mask;
    mask.assign(store.nodeCount(), 0);
    const model::StringId k = store.strings().find(key);
    const model::StringId v = store.strings().find(value);
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
        mask[i] = store.nodeLabel(model::NodeId(i), k) == v ? 1 : 0;
    return mask;
}

} // namespace

int main(int argc, char** argv)
{
    QSurfaceFormat::setDefaultFormat(views::VtkOpenGLWidget::vtkSurfaceFormat());
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({ "nodes", "Simulated node count.", "N", "100000" });
    parser.addOption({ "seed", "Simulation seed.", "S", "1" });
    parser.addOption({ "size", "Window size.", "WxH", "1920x1080" });
    parser.addOption({ "frames", "Frames measured per figure (>= 30).", "F", "40" });
    parser.addOption({ { "o", "output" }, "Save the overview as PNG.", "file" });
    parser.addOption({ "zoom-output", "Save the zoomed view as PNG.", "file" });
    parser.addOption({ "phase", "Only this phase, for a profiler (overview, recolor, filter, zoom): no JSON.", "name" });
    parser.process(app);
    const int frames = std::max(30, parser.value("frames").toInt());

    QElapsedTimer t;
    t.start();
    auto store = std::make_shared<model::ClusterStore>();
    importers::ImportReport report;
    importers::generateSimulatedCluster(
        { parser.value("nodes").toULongLong(), parser.value("seed").toULongLong() }, *store, report);
    store->finalize();
    std::printf("simulate+finalize: %zu nodes, %zu pods in %.0f ms\n", store->nodeCount(), store->podCount(), ms(t));
    auto topology = std::make_shared<model::Topology>(model::Topology::build(*store));

    const QStringList size = parser.value("size").split('x');
    views::FleetMapView view;
    view.resize(size.value(0).toInt(), size.value(1).toInt());
    view.show();
    t.restart();
    view.setCluster(store, topology);
    waitForFrame(view, 30000);
    std::printf("first frame after %.0f ms (setCluster + render)\n", ms(t));
    settle(view);
    auto* gl = view.findChild<views::VtkOpenGLWidget*>();
    const QString phase = parser.value("phase");
    const auto runs = [&](const char* name) { return phase.isEmpty() || phase == QLatin1String(name); };
    const auto skip = [](views::FleetMapView&, int, const std::function<void(int)>&) { return std::vector<double> {}; };

    std::vector<double> vtkMs;
    const std::vector<double> overview = (runs("overview") ? timeFrames : skip)(view, frames, [&](int) {
        view.resetView();
        vtkMs.push_back(gl->lastRenderMs());
    });
    std::printf("overview: median %.1f ms, p95 %.1f ms (%zu frames); VTK Render() median %.1f ms; %.1f ms CPU a frame\n",
        median(overview), percentile(overview, 0.95), overview.size(), median(vtkMs), g_lastCpuMsPerFrame);
    if (parser.isSet("output"))
        view.grabImage().save(parser.value("output"));

    int switches = 0; // counts across warm-up and measurement, so every step changes the metric
    const std::vector<double> recolor = (runs("recolor") ? timeFrames : skip)(view, frames, [&](int) {
        view.setMetric(++switches % 2 ? views::MapMetric::CpuRequested : views::MapMetric::GpuRequested);
    });
    view.setMetric(views::MapMetric::GpuRequested);
    std::printf("recolor: median %.1f ms; %.1f ms CPU a frame\n", median(recolor), g_lastCpuMsPerFrame);

    int filters = 0;
    const std::vector<double> filter = (runs("filter") ? timeFrames : skip)(view, frames, [&](int) {
        auto mask = std::make_shared<const std::vector<std::uint8_t>>(selectorMask(*store,
            "node.kubernetes.io/instance-type", ++filters % 2 ? "p5.48xlarge" : "trn1.32xlarge"));
        view.setNodeMask(std::move(mask));
    });
    view.setNodeMask({});
    std::printf("filter: median %.1f ms; %.1f ms CPU a frame\n", median(filter), g_lastCpuMsPerFrame);

    // Zoom: the first network-node-layer-1 domain of the first zone.
    model::DomainId focus;
    const auto& keys = topology->levelKeys();
    const auto layer1 = std::find(keys.begin(), keys.end(), "topology.k8s.aws/network-node-layer-1");
    const int layer1Level = layer1 == keys.end() ? 3 : static_cast<int>(layer1 - keys.begin()) + 1;
    for (model::DomainId d = topology->root(); d.isValid() && topology->domainLevel(d) < layer1Level;) {
        const auto children = topology->domainChildren(d);
        if (children.empty())
            break;
        d = children.front();
        focus = d;
    }
    view.zoomToDomain(focus);
    waitForFrame(view, 10000);
    std::printf("zoom focus: %s (%zu nodes)\n", topology->domainName(focus).c_str(), topology->domainNodes(focus).size());
    if (parser.isSet("zoom-output"))
        view.grabImage().save(parser.value("zoom-output"));
    int pans = 0;
    const std::vector<double> zoom = (runs("zoom") ? timeFrames : skip)(view, frames, [&](int) {
        QKeyEvent key(QEvent::KeyPress, ++pans % 2 ? Qt::Key_Left : Qt::Key_Right, Qt::NoModifier);
        QApplication::sendEvent(gl, &key);
    });
    std::printf("zoom (panned): median %.1f ms, p95 %.1f ms; %.1f ms CPU a frame\n", median(zoom), percentile(zoom, 0.95),
        g_lastCpuMsPerFrame);

    if (!phase.isEmpty())
        return 0;
    view.resetView();
    waitForFrame(view, 10000);
    t.restart();
    std::size_t hits = 0, probes = 0;
    for (int rep = 0; rep < 4; ++rep)
        for (int y = 0; y < view.height(); y += 3)
            for (int x = 0; x < view.width(); x += 3, ++probes)
                hits += view.nodeAt(QPoint(x, y)).isValid() ? 1 : 0;
    const double pickUs = ms(t) * 1000.0 / static_cast<double>(probes);
    std::printf("pick: %.3f us per nodeAt (%zu probes, %zu on nodes)\n", pickUs, probes, hits);

    std::printf("{\"nodes\": %zu, \"overview_frame_ms\": %.1f, \"overview_frame_p95_ms\": %.1f, \"zoom_frame_ms\": %.1f, "
                "\"recolor_ms\": %.1f, \"filter_ms\": %.1f, \"pick_us\": %.3f, \"rss_mb\": %.0f}\n",
        store->nodeCount(), median(overview), percentile(overview, 0.95), median(zoom), median(recolor), median(filter),
        pickUs, rssMiB());
    return 0;
}
