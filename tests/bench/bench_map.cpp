// Benchmark of the fleet map on a simulated fleet: topology, layout, rasterisation per
// metric, first frame (show to frameRendered), later frames, picking. Prints figures;
// passes or fails nothing. Needs an X server (xvfb-run -a).
//
//   bench_map [--nodes N] [--seed S] [--size WxH] [-o map.png] [--zoom-node NAME]

#include "importers/simulated/simulatedcluster.h"
#include "model/topology.h"
#include "views/map/fleetmapview.h"
#include "views/map/maplayout.h"
#include "views/map/mapraster.h"
#include "views/vtk/vtkopenglwidget.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QOpenGLWidget>
#include <QSurfaceFormat>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace fleet;

namespace {

double ms(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Waits for the next frameRendered, up to `timeoutMs`; returns the milliseconds waited or -1.
double waitForFrame(views::FleetMapView& view, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    QEventLoop loop;
    bool done = false;
    const auto c = QObject::connect(&view, &views::FleetMapView::frameRendered, &loop, [&] {
        done = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(c);
    return done ? ms(t) : -1;
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
    parser.addOption({ "size", "View size.", "WxH", "1400x900" });
    parser.addOption({ { "o", "output" }, "Save the first frame as PNG.", "file" });
    parser.addOption({ "zoom-output", "Zoom in 6 wheel steps at the centre and save as PNG.", "file" });
    parser.process(app);

    QElapsedTimer t;
    t.start();
    auto store = std::make_shared<model::ClusterStore>();
    importers::ImportReport report;
    importers::generateSimulatedCluster(
        { parser.value("nodes").toULongLong(), parser.value("seed").toULongLong() }, *store, report);
    store->finalize();
    std::printf("simulate+finalize: %zu nodes, %zu pods in %.0f ms\n", store->nodeCount(), store->podCount(), ms(t));
    t.restart();
    auto topology = std::make_shared<model::Topology>(model::Topology::build(*store));
    std::printf("topology: %zu domains in %.1f ms\n", topology->domainCount(), ms(t));

    std::vector<double> layoutMs;
    views::MapLayout layout;
    for (int i = 0; i < 5; ++i) {
        t.restart();
        layout = views::MapLayout::build(*topology, 1.5);
        layoutMs.push_back(ms(t));
    }
    std::printf("layout: %d x %d cells, median %.2f ms (5 runs)\n", layout.width(), layout.height(), median(layoutMs));
    for (const auto metric :
        { views::MapMetric::GpuRequested, views::MapMetric::CpuRequested, views::MapMetric::MemoryRequested }) {
        std::vector<double> rasterMs;
        for (int i = 0; i < 9; ++i) {
            t.restart();
            const QImage image = views::MapRaster::render(*store, layout, metric);
            rasterMs.push_back(ms(t));
        }
        std::printf("raster %s: median %.2f ms (9 runs)\n", views::mapMetricLabel(metric).data(), median(rasterMs));
    }

    const QStringList size = parser.value("size").split('x');
    views::FleetMapView view;
    view.resize(size.value(0).toInt(), size.value(1).toInt());
    view.show();
    QElapsedTimer firstFrame;
    firstFrame.start();
    t.restart();
    view.setCluster(store, topology);
    const double setClusterMs = ms(t);
    const double waited = waitForFrame(view, 30000);
    std::printf("setCluster (layout, raster, scene): %.1f ms; first frame on screen after %.0f ms (show + setCluster + render)\n",
        setClusterMs, waited < 0 ? -1.0 : ms(firstFrame));
    auto* gl = view.findChild<views::VtkOpenGLWidget*>();
    std::printf("first VTK Render(): %.1f ms\n", gl->lastRenderMs());

    std::vector<double> frameMs, renderMs;
    for (int i = 0; i < 10; ++i) {
        t.restart();
        view.resetView(); // one render request
        if (waitForFrame(view, 10000) < 0)
            break;
        frameMs.push_back(ms(t));
        renderMs.push_back(gl->lastRenderMs());
    }
    std::printf("later frames: median %.1f ms request-to-screen, VTK Render() median %.1f ms (%zu frames)\n", median(frameMs),
        median(renderMs), frameMs.size());

    std::vector<double> metricMs;
    for (int i = 0; i < 6; ++i) {
        t.restart();
        view.setMetric(i % 2 ? views::MapMetric::GpuRequested : views::MapMetric::CpuRequested);
        waitForFrame(view, 10000);
        metricMs.push_back(ms(t));
    }
    std::printf("metric switch to screen: median %.1f ms\n", median(metricMs));

    // Picking: nodeAt over a grid of positions.
    t.restart();
    std::size_t hits = 0, probes = 0;
    for (int y = 0; y < view.height(); y += 3)
        for (int x = 0; x < view.width(); x += 3, ++probes)
            hits += view.nodeAt(QPoint(x, y)).isValid() ? 1 : 0;
    std::printf("picking: %.3f us per nodeAt (%zu probes, %zu on nodes)\n", ms(t) * 1000.0 / probes, probes, hits);

    if (parser.isSet("output")) {
        t.restart();
        const QImage image = view.grabImage();
        std::printf("grabImage: %.1f ms; saved %s: %s\n", ms(t), qPrintable(parser.value("output")),
            image.save(parser.value("output")) ? "ok" : "FAILED");
    }
    if (parser.isSet("zoom-output")) {
        const QPointF centre(gl->width() / 2.0, gl->height() / 2.0);
        for (int i = 0; i < 8; ++i) {
            QWheelEvent wheel(centre, gl->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                Qt::NoScrollPhase, false);
            QApplication::sendEvent(gl, &wheel);
        }
        const QImage image = view.grabImage();
        std::printf("zoomed: saved %s: %s\n", qPrintable(parser.value("zoom-output")),
            image.save(parser.value("zoom-output")) ? "ok" : "FAILED");
    }
    return 0;
}
