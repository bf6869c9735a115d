// SPDX-License-Identifier: Apache-2.0
#pragma once
// The LIST half of bench_live: NODES nodes and PODS pods (kubelistgen.h, the
// verbosity of real kubectl output) served as pre-built pages of 500 from memory by the fake API
// server over loopback TLS (so that it is not the bottleneck), listed into the model by
// importers::kube::listCluster() with its paging, then finalized, as `--kubeconfig` does.
// Returns the figures; the caller prints them.

#include "common/fakekubeapiserver.h"
#include "kubelistgen.h"

#include "importers/kube/kubeapiclient.h"
#include "importers/kube/kubeconfig.h"
#include "importers/kube/kubejson.h"
#include "importers/kube/kubelist.h"

#include <QTemporaryDir>

#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <sys/resource.h>

namespace fleet::bench {

struct LiveListFigures {
    std::size_t nodes = 0, pods = 0;
    double seconds = 0;         ///< LIST of every page into the store, and finalize()
    double megabytes = 0;       ///< uncompressed JSON of the node and pod pages
    double mbPerSecond = 0;
    double serverCpuShare = 0;  ///< CPU the server's threads used (their own CPU clocks), as a share of 2 cores over `seconds`
    double clientCpuSeconds = 0; ///< CPU the rest of the process used (the client's threads: fetch and parse)
    std::size_t pages = 0;
    double importOnlySeconds = 0; ///< the same pages imported straight from memory (no HTTP, no TLS)
};

inline std::string pageTarget(const char* path, std::size_t from)
{
    return std::string(path) + "?limit=500" + (from ? "&continue=c" + std::to_string(from) : std::string());
}

// Pages of `count` items of kind `kind`, 500 each, as the API server serves them.
template <class Write>
void addPages(std::map<std::string, std::string>& pages, const char* path, const char* listKind, std::size_t count, Write write,
              double& megabytes)
{
    for (std::size_t from = 0; from < count || from == 0; from += 500) {
        const std::size_t to = std::min(count, from + 500);
        char* buffer = nullptr;
        std::size_t size = 0;
        std::FILE* f = open_memstream(&buffer, &size);
        std::fprintf(f, "{\"kind\":\"%s\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"1\"%s},\"items\":[\n", listKind,
                     to < count ? (",\"continue\":\"c" + std::to_string(to) + "\"").c_str() : "");
        for (std::size_t i = from; i < to; ++i)
            write(f, i, i + 1 == to);
        std::fprintf(f, "]}\n");
        std::fclose(f);
        megabytes += static_cast<double>(size) / 1e6;
        pages[pageTarget(path, from)] = std::string(buffer, size);
        std::free(buffer);
        if (count == 0)
            break;
    }
}

inline double processCpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// Throws what listCluster() throws. Thread: the caller's (it is the client).
inline LiveListFigures measureLiveList(std::size_t nodes, std::size_t pods)
{
    LiveListFigures out;
    auto pages = std::make_shared<std::map<std::string, std::string>>();
    Rng rng { 42 };
    addPages(*pages, "/api/v1/nodes", "NodeList", nodes, [&](std::FILE* f, std::size_t i, bool last) { writeNode(f, rng, i, last); },
             out.megabytes);
    addPages(*pages, "/api/v1/pods", "PodList", pods,
             [&](std::FILE* f, std::size_t i, bool last) { writePod(f, rng, i, nodes ? nodes : 1, last); }, out.megabytes);
    QTemporaryDir dir;
    const auto pki = fleet::tests::TestPki::create(dir.path().toStdString());
    if (pki.caPem.empty())
        throw std::runtime_error("the openssl command failed or is missing");
    fleet::tests::FakeKubeApiServer::Options options;
    options.pages = pages;
    fleet::tests::FakeKubeApiServer server(pki, {}, options);
    const std::string kubeconfig = dir.filePath("config").toStdString();
    std::ofstream(kubeconfig) << "apiVersion: v1\nkind: Config\nclusters:\n- name: b\n  cluster:\n    server: " << server.url()
                              << "\n    certificate-authority: " << pki.caFile
                              << "\nusers:\n- name: u\n  user:\n    token: fleet-test-token\ncontexts:\n- name: b\n  context: {cluster: b, user: u}\n"
                                 "current-context: b\n";
    importers::kube::KubeconfigRequest request;
    request.explicitPath = kubeconfig;
    importers::kube::KubeApiClient client(importers::kube::loadKubeconfig(request));
    model::ClusterStore store;
    importers::ImportReport report;
    const double cpu0 = processCpuSeconds(), server0 = server.cpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    const auto listed = importers::kube::listCluster(client, store, report);
    store.finalize();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double serverCpu = server.cpuSeconds() - server0;
    out.clientCpuSeconds = processCpuSeconds() - cpu0 - serverCpu;
    out.serverCpuShare = out.seconds > 0 ? serverCpu / (2 * out.seconds) : 0;
    out.nodes = store.nodeCount();
    out.pods = store.podCount();
    out.pages = listed.pages;
    out.mbPerSecond = out.seconds > 0 ? out.megabytes / out.seconds : 0;
    // What the transport costs: the same pages imported from memory, in the list's order.
    model::ClusterStore again;
    importers::ImportReport againReport;
    importers::KubectlJsonSession session;
    session.followsPages = true;
    const auto i0 = std::chrono::steady_clock::now();
    for (const char* path : {"/api/v1/nodes", "/api/v1/pods"})
        for (std::size_t from = 0;; from += 500) {
            const auto it = pages->find(pageTarget(path, from));
            if (it == pages->end())
                break;
            importers::importKubectlJsonText(it->second, "page", again, againReport, nullptr, importers::KubectlJsonOptions{}, session);
        }
    again.finalize();
    out.importOnlySeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - i0).count();
    return out;
}

} // namespace fleet::bench
