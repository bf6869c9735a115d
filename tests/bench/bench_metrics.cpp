// SPDX-License-Identifier: Apache-2.0
// bench_metrics: every metric of the registry on the simulated fleet. Prints the time to
// build a MetricContext with the shipped prices, and per metric the median time to compute
// its column and to rasterise it, then one JSON object. No display needed.
//   ./bench_metrics [--nodes N] [--seed S]

#include "importers/pricing/pricetableloader.h"
#include "importers/simulated/simulatedcluster.h"
#include "model/metrics/metricregistry.h"
#include "model/topology.h"
#include "views/map/mapraster.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace fleet;

namespace {
double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
double ms(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}
} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({ "nodes", "Simulated node count.", "N", "100000" });
    parser.addOption({ "seed", "Simulation seed.", "S", "1" });
    parser.process(app);

    model::ClusterStore store;
    importers::ImportReport report;
    importers::generateSimulatedCluster(
        { parser.value("nodes").toULongLong(), parser.value("seed").toULongLong() }, store, report);
    store.finalize();
    const model::Topology topology = model::Topology::build(store);
    const views::MapLayout layout = views::MapLayout::build(topology, 1.5);
    const model::PriceTable& prices = importers::shippedPriceTable();

    std::vector<double> contextMs;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer t;
        t.start();
        const model::MetricContext context(store, &prices);
        contextMs.push_back(ms(t));
    }
    const model::MetricContext context(store, &prices);
    std::printf("context with prices: median %.2f ms (5 runs)\n", median(contextMs));
    std::string json
        = "{\"nodes\": " + std::to_string(store.nodeCount()) + ", \"context_ms\": " + std::to_string(median(contextMs));
    std::vector<std::shared_ptr<const model::Metric>> metrics = model::MetricRegistry::builtin().metrics();
    metrics.push_back(model::MetricRegistry::builtin().find("label:node.kubernetes.io/instance-type"));
    for (const auto& m : metrics) {
        std::vector<double> columnMs, rasterMs;
        for (int i = 0; i < 9; ++i) {
            QElapsedTimer t;
            t.start();
            const model::MetricColumn column = model::computeMetricColumn(*m, context);
            columnMs.push_back(ms(t));
            t.restart();
            const QImage image = views::MapRaster::render(context, layout, *m, column);
            rasterMs.push_back(ms(t));
        }
        std::printf(
            "%-40s column median %6.2f ms, raster median %6.2f ms\n", m->id().c_str(), median(columnMs), median(rasterMs));
        json += ", \"" + m->id() + "_ms\": " + std::to_string(median(columnMs) + median(rasterMs));
    }
    std::printf("%s}\n", json.c_str());
    return 0;
}
