// SPDX-License-Identifier: Apache-2.0
// bench_keptnodes: the list of nodes that stay (views/itemmodels/keptnodesmodel.h) at fleet
// scale, on the simulated fleet (seed 1), GUI-thread work only.
//
//   bench_keptnodes [NODES]   (default 100000)
//
// The kept entries are made up rather than consolidated (a consolidation at 100,000 nodes takes
// half a minute and is bench_consolidate's): 81% of the nodes, as at 100,000 nodes, each with
// its first pod and a reason from a mix like a real result's (no feasible node, insufficient
// GPU and CPU, a disruption budget per workload, do-not-disrupt, prepaid). Prints the time of
// building their index (the groups, pod keys, search texts, ranks) and of showing it, a text filter, a label filter's
// mask, sorting by each column, copying the largest group and building the JSON export, in
// milliseconds; the last line one JSON object. The index is built on a worker in the window. Passes or fails nothing.

#include "importers/clusterloader.h"
#include "importers/export/keptnodesexport.h"
#include "model/plan/evictionrules.h"
#include "views/itemmodels/keptnodesmodel.h"
#include "views/panels/nodefilter.h"

#include <QApplication>

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
} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    importers::SimulationSpec spec;
    spec.nodeCount = argc > 1 ? std::stoul(argv[1]) : 100000;
    spec.seed = 1;
    const importers::LoadedCluster cluster = importers::loadSimulatedCluster(spec);
    const model::ClusterStore& store = *cluster.store;

    auto kept = std::make_shared<std::vector<model::KeptNode>>();
    for (std::size_t i = 0; i < store.nodeCount(); ++i) {
        const model::NodeId n(static_cast<std::uint32_t>(i));
        if (i % 100 >= 81 || store.nodePods(n).empty())
            continue;
        const model::PodId p = store.nodePods(n).front();
        const std::string pod = model::podKey(store, p);
        using K = model::ReasonKind;
        model::Reason r;
        switch (i % 7) {
        case 0:
        case 1:
            r = model::makeReason(K::NoFeasibleNode, {}, pod + ": no node passes every filter");
            break;
        case 2:
            r = model::makeReason(
                K::Insufficient, "nvidia.com/gpu", pod + " needs nvidia.com/gpu 8; no other node has 8 free (the most is 4)");
            break;
        case 3:
            r = model::makeReason(K::Insufficient, "cpu", pod + " needs cpu 12; no other node has 12 free (the most is 7.5)");
            break;
        case 4:
            r = model::makeReason(K::DisruptionBudget, std::string(store.podNamespace(p)) + "/pdb-" + std::to_string(i % 500),
                pod + ": the PodDisruptionBudget allows no more disruptions");
            break;
        case 5:
            r = model::makeReason(K::DoNotDisrupt, {}, pod + " has karpenter.sh/do-not-disrupt");
            break;
        default:
            r = model::makeReason(
                K::PrepaidNode, {}, std::string(store.nodeName(n)) + " is a capacity block: emptying it saves nothing");
            break;
        }
        kept->push_back(model::KeptNode { n, p, std::move(r), {} });
    }

    views::KeptNodesModel m;
    auto t = Clock::now();
    const auto index = views::KeptNodesIndex::build(cluster.store, kept);
    const double buildMs = msSince(t);
    t = Clock::now();
    m.setIndex(index);
    const double setIndexMs = msSince(t);

    t = Clock::now();
    m.setTextFilter(QStringLiteral("gpu"));
    const double textFilterMs = msSince(t);
    const std::size_t textShown = m.shownEntryCount();
    m.setTextFilter({});

    const views::NodeFilterResult selector = views::evaluateNodeFilter(store, QStringLiteral("topology.kubernetes.io/zone"));
    t = Clock::now();
    m.setNodeMask(selector.mask);
    const double maskMs = msSince(t);
    m.setNodeMask(nullptr);

    double sortMs[views::KeptNodesModel::ColumnCount] = {};
    for (int c = 0; c < views::KeptNodesModel::ColumnCount; ++c) {
        t = Clock::now();
        m.sort(c, Qt::DescendingOrder);
        sortMs[c] = msSince(t);
    }

    t = Clock::now();
    const QString copied = m.rowsText({ m.index(0, 0) });
    const double copyMs = msSince(t);

    t = Clock::now();
    const std::string json = importers::keptNodesJson(store, *kept, m.shownEntries());
    const double exportJsonMs = msSince(t);

    std::printf("nodes %zu, kept entries %zu, groups %d\n", store.nodeCount(), kept->size(), m.rowCount());
    std::printf("index build (worker: groups, texts, ranks): %8.1f ms\n", buildMs);
    std::printf("setIndex (GUI thread):                    %8.1f ms\n", setIndexMs);
    std::printf("text filter \"gpu\" (%zu shown):           %8.1f ms\n", textShown, textFilterMs);
    std::printf("label filter mask:                        %8.1f ms\n", maskMs);
    std::printf("sort by reason/node, count/pod, message:  %8.1f %8.1f %8.1f ms\n", sortMs[0], sortMs[1], sortMs[2]);
    std::printf("copy the largest group (%lld lines):       %8.1f ms\n", static_cast<long long>(copied.count(u'\n')), copyMs);
    std::printf("JSON export text (%zu bytes, worker):     %8.1f ms\n", json.size(), exportJsonMs);
    std::printf("{\"nodes\": %zu, \"kept\": %zu, \"index_build_ms\": %.1f, \"set_index_ms\": %.1f, \"text_filter_ms\": %.1f, "
                "\"mask_filter_ms\": %.1f, "
                "\"sort_node_ms\": %.1f, \"sort_pod_ms\": %.1f, \"sort_message_ms\": %.1f, \"copy_group_ms\": %.1f, "
                "\"export_json_ms\": %.1f}\n",
        store.nodeCount(), kept->size(), buildMs, setIndexMs, textFilterMs, maskMs, sortMs[0], sortMs[1], sortMs[2], copyMs,
        exportJsonMs);
    return 0;
}
