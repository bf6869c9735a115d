// SPDX-License-Identifier: Apache-2.0
// bench_plandrag: the what-if drag on the fleet map at scale, software OpenGL under
// xvfb-run. For pods chosen across the fleet (every 997th counted pod): the drag's start to
// its shading bytes (PodFeasibility + feasibleNodes), the plan layer's shading image, and a
// frame of the whole map with the shading on, against a frame without. Medians; one JSON
// object last. Usage: xvfb-run -a -s "-screen 0 1600x1200x24" ./bench_plandrag [--nodes N]

#include "importers/clusterloader.h"
#include "model/plan/plan.h"
#include "model/scheduling/filters.h"
#include "views/map/fleetmapview.h"
#include "views/vtk/vtkopenglwidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSurfaceFormat>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace fleet;

namespace {
double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
} // namespace

int main(int argc, char** argv)
{
    QSurfaceFormat::setDefaultFormat(views::VtkOpenGLWidget::vtkSurfaceFormat());
    QApplication app(argc, argv);
    std::size_t nodes = 100000;
    const QStringList args = app.arguments();
    if (const qsizetype i = args.indexOf(QStringLiteral("--nodes")); i >= 0 && i + 1 < args.size())
        nodes = args[i + 1].toULongLong();
    importers::SimulationSpec spec;
    spec.nodeCount = nodes;
    const auto cluster = importers::loadSimulatedCluster(spec);
    QElapsedTimer t;
    t.start();
    const model::PlanEngine engine(*cluster.store, *cluster.topology);
    const double engineMs = t.nsecsElapsed() / 1e6;

    views::FleetMapView view;
    view.resize(1600, 1000);
    view.setCluster(cluster.store, cluster.topology);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        return 1;
    view.grabImage();
    std::vector<double> plainFrame, feasibilityMs, shadeMs, shadedFrame;
    for (int k = 0; k < 5; ++k) {
        t.start();
        view.grabImage();
        plainFrame.push_back(t.nsecsElapsed() / 1e6);
    }
    const model::ClusterStore& store = *cluster.store;
    int sampled = 0;
    for (std::uint32_t i = 0; i < store.podCount() && sampled < 15; i += 997) {
        const model::PodId p(i);
        if (!store.podIsCounted(p))
            continue;
        ++sampled;
        t.start();
        const model::PodFeasibility f(engine.state(), p);
        auto bytes = std::make_shared<std::vector<std::uint8_t>>();
        f.feasibleNodes(*bytes);
        bytes->resize(store.nodeCount());
        feasibilityMs.push_back(t.nsecsElapsed() / 1e6);
        view.setDragShading(bytes);
        shadeMs.push_back(view.lastShadeMs());
        t.start();
        view.grabImage();
        shadedFrame.push_back(t.nsecsElapsed() / 1e6);
    }
    view.grabImage().save(QStringLiteral("bench_plandrag.png"));
    std::printf("{\"nodes\": %zu, \"pods\": %zu, \"engine_build_ms\": %.1f, \"feasibility_ms\": %.2f, \"shade_image_ms\": %.2f, "
                "\"frame_ms\": %.1f, \"shaded_frame_ms\": %.1f}\n",
        store.nodeCount(), store.podCount(), engineMs, median(feasibilityMs), median(shadeMs), median(plainFrame), median(shadedFrame));
    return 0;
}
