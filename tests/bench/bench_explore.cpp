// SPDX-License-Identifier: Apache-2.0
// bench_explore: the exploring tools at fleet scale, on the simulated fleet (seed 1).
//
//   bench_explore [NODES]   (default 100000; about 17 pods a node)
//
// Prints one JSON object: search index build (ms, on the worker), completion and lookup per
// keystroke (median and max us over many prefixes), the namespace / workload masks (ms),
// the heatmap's aggregates for every level (ms), and the domain inspector's node table of the
// whole fleet sorted by CPU share through the proxy (ms). Passes or fails nothing.

#include "importers/clusterloader.h"
#include "views/heatmaps/domainaggregates.h"
#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/nodetablemodel.h"
#include "views/panels/nodefilter.h"
#include "model/searchindex.h"

#include <QApplication>
#include <QSortFilterProxyModel>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace fleet;
using Clock = std::chrono::steady_clock;

namespace {
double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}
double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}
} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    importers::SimulationSpec spec;
    spec.nodeCount = argc > 1 ? std::stoul(argv[1]) : 100000;
    spec.seed = 1;
    const importers::LoadedCluster cluster = importers::loadSimulatedCluster(spec);
    const model::ClusterStore& store = *cluster.store;

    auto t = Clock::now();
    const auto index = model::SearchIndex::build(cluster.store);
    const double buildMs = msSince(t);

    // Every prefix of a sample of node names and pod keys, as typed one key at a time.
    std::vector<std::string> prefixes;
    for (std::size_t i = 0; i < store.nodeCount(); i += store.nodeCount() / 20 + 1) {
        const std::string name(store.nodeName(model::NodeId(static_cast<std::uint32_t>(i))));
        for (std::size_t n = 1; n <= name.size(); ++n)
            prefixes.push_back(name.substr(0, n));
    }
    for (std::size_t i = 0; i < store.podCount(); i += store.podCount() / 20 + 1) {
        const model::PodId p(static_cast<std::uint32_t>(i));
        const std::string key = std::string(store.podNamespace(p)) + '/' + std::string(store.podName(p));
        for (std::size_t n = 1; n <= key.size(); ++n)
            prefixes.push_back(key.substr(0, n));
    }
    std::vector<double> completeUs, findUs;
    std::size_t sink = 0;
    for (const auto& prefix : prefixes) {
        t = Clock::now();
        sink += index->complete(prefix, 50).size();
        completeUs.push_back(msSince(t) * 1000);
        t = Clock::now();
        sink += index->find(prefix).node.value;
        findUs.push_back(msSince(t) * 1000);
    }

    t = Clock::now();
    const auto ns = views::evaluateNodeFilter(store, QStringLiteral("namespace:ml-training"));
    const double namespaceMs = msSince(t);
    const model::WorkloadId w(0);
    const QString workloadText
        = QStringLiteral("workload:%1/%2")
              .arg(QString::fromUtf8(store.workloadNamespace(w)), QString::fromUtf8(store.workloadName(w)));
    t = Clock::now();
    const auto wl = views::evaluateNodeFilter(store, workloadText);
    const double workloadMs = msSince(t);

    t = Clock::now();
    std::size_t rows = 0;
    for (int level = 1; level <= static_cast<int>(cluster.topology->levelKeys().size()); ++level)
        for (model::DomainId d : views::domainsAtLevel(*cluster.topology, level)) {
            const auto a = views::DomainAggregates::compute(store, *cluster.topology, d);
            rows += a.nodes > 0;
        }
    const double heatmapMs = msSince(t);

    views::NodeTableModel table;
    QSortFilterProxyModel proxy;
    proxy.setSortRole(views::kSortRole);
    proxy.setSourceModel(&table);
    t = Clock::now();
    table.setNodes(cluster.store, cluster.topology->domainNodes(cluster.topology->root()));
    proxy.sort(views::NodeTableModel::CpuShareColumn, Qt::DescendingOrder);
    const double tableSortMs = msSince(t);

    std::printf("{\"nodes\": %zu, \"pods\": %zu, \"search_index_build_ms\": %.1f, \"complete_median_us\": %.1f, "
                "\"complete_max_us\": %.1f, \"find_median_us\": %.1f, \"find_max_us\": %.1f, \"prefixes\": %zu, "
                "\"namespace_mask_ms\": %.1f, \"namespace_nodes\": %zu, \"workload_mask_ms\": %.1f, \"workload_nodes\": %zu, "
                "\"heatmap_all_levels_ms\": %.1f, \"heatmap_rows\": %zu, \"node_table_sort_ms\": %.1f, \"sink\": %zu}\n",
        store.nodeCount(), store.podCount(), buildMs, median(completeUs), *std::max_element(completeUs.begin(), completeUs.end()),
        median(findUs), *std::max_element(findUs.begin(), findUs.end()), prefixes.size(), namespaceMs, ns.matching, workloadMs,
        wl.matching, heatmapMs, rows, tableSortMs, sink % 10);
    return 0;
}
