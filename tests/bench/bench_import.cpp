// SPDX-License-Identifier: Apache-2.0
// bench_import: the kubectl JSON importer end to end at fleet scale.
//
//   bench_import [NODES [PODS]] [--window BYTES] [--keep FILE] [--file JSON...]
//
// Generates, deterministically, a kubectl-shaped List of NODES nodes and PODS pods (defaults
// 100,000 and 1,000,000) into a temporary file, with the verbosity of real output (4-space
// indentation and sorted keys as kubectl prints them; labels, annotations, managedFields,
// container env/ports/volumeMounts, status conditions, containerStatuses, node images), then
// times importKubectlJsonFile() into a fresh ClusterStore plus finalize(), and prints file
// MB, seconds, MB/s, pods/s, store bytes per pod and peak RSS. With --file, imports the given
// files instead of generating one. Prints figures; passes or fails nothing.

#include "importers/kube/kubejson.h"
#include "model/clusterstore.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <csignal>
#include <cstring>
#include <new>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

// Counts heap allocations, to show what the import allocates per item once warm.
static std::atomic<std::uint64_t> g_allocations { 0 };
void* operator new(std::size_t n)
{
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept
{
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}

#include "kubelistgen.h"

using namespace fleet::bench;

namespace {

double peakRssMiB()
{
    struct rusage usage { };
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

} // namespace

// The generated file is several GB: remove it on every exit, including Ctrl+C and kill.
char g_tempPath[4096] = {};

extern "C" void removeTempAndReraise(int signal)
{
    if (g_tempPath[0] != '\0')
        ::unlink(g_tempPath); // async-signal-safe
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

struct TempFileGuard {
    ~TempFileGuard()
    {
        if (g_tempPath[0] != '\0')
            ::unlink(g_tempPath);
    }
};

int main(int argc, char** argv)
{
    std::size_t nodes = 100000;
    std::size_t pods = 1000000;
    std::string keep;
    std::vector<std::string> files;
    fleet::importers::KubectlJsonOptions options;
    std::vector<std::size_t> positional;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--keep" && i + 1 < argc)
            keep = argv[++i];
        else if (arg == "--window" && i + 1 < argc)
            options.windowBytes = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--file") {
            while (i + 1 < argc)
                files.emplace_back(argv[++i]);
        } else
            positional.push_back(std::strtoull(argv[i], nullptr, 10));
    }
    if (!positional.empty())
        nodes = positional[0];
    if (positional.size() > 1)
        pods = positional[1];

    std::string path;
    const TempFileGuard removeTempOnExit;
    if (files.empty()) {
        const char* tmp = std::getenv("TMPDIR");
        path = keep.empty() ? std::string(tmp && *tmp ? tmp : "/tmp") + "/bench_import_" + std::to_string(getpid()) + ".json" : keep;
        if (keep.empty() && path.size() < sizeof g_tempPath) {
            std::memcpy(g_tempPath, path.c_str(), path.size() + 1);
            for (int sig : {SIGINT, SIGTERM, SIGHUP})
                std::signal(sig, removeTempAndReraise);
        }
        const auto t0 = std::chrono::steady_clock::now();
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) {
            std::perror(path.c_str());
            return 1;
        }
        static char buffer[1 << 20];
        std::setvbuf(f, buffer, _IOFBF, sizeof buffer);
        Rng rng { 42 };
        std::fprintf(f, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n");
        for (std::size_t i = 0; i < nodes; ++i)
            writeNode(f, rng, i, pods == 0 && i + 1 == nodes);
        for (std::size_t i = 0; i < pods; ++i)
            writePod(f, rng, i, nodes == 0 ? 1 : nodes, i + 1 == pods);
        std::fprintf(f, "    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n");
        std::fclose(f);
        const double gen = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("generated %zu nodes, %zu pods into %s in %.1f s\n", nodes, pods, path.c_str(), gen);
        files.push_back(path);
    }

    std::size_t bytes = 0;
    fleet::model::ClusterStore store;
    fleet::importers::ImportReport report;
    const std::uint64_t allocationsBefore = g_allocations.load();
    const auto t0 = std::chrono::steady_clock::now();
    try {
        for (const auto& file : files)
            fleet::importers::importKubectlJsonFile(file, store, report, nullptr, options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "import failed: %s\n", e.what());
        return 1;
    }
    const auto t1 = std::chrono::steady_clock::now();
    const std::uint64_t allocations = g_allocations.load() - allocationsBefore;
    const std::size_t unknownNodes = store.finalize();
    const auto t2 = std::chrono::steady_clock::now();
    bytes = report.bytesRead;

    const double importSeconds = std::chrono::duration<double>(t1 - t0).count();
    const double finalizeSeconds = std::chrono::duration<double>(t2 - t1).count();
    const double total = importSeconds + finalizeSeconds;
    const double mb = static_cast<double>(bytes) / 1e6;
    std::printf("file            %.1f MB (%zu nodes, %zu pods read; %zu pods name an unknown node)\n", mb, store.nodeCount(),
        store.podCount(), unknownNodes);
    std::printf("import          %.3f s  (read + parse + store)\n", importSeconds);
    std::printf("finalize        %.3f s\n", finalizeSeconds);
    std::printf(
        "end to end      %.3f s  %.0f MB/s  %.0f pods/s\n", total, mb / total, static_cast<double>(store.podCount()) / total);
    std::printf("store           %.1f MB, %.0f bytes per pod\n", static_cast<double>(store.memoryBytes()) / 1e6,
        store.podCount() ? static_cast<double>(store.memoryBytes()) / static_cast<double>(store.podCount()) : 0.0);
    std::printf("peak RSS        %.0f MiB\n", peakRssMiB());
    std::printf("allocations     %" PRIu64 " during the import, %.2f per item (store columns and sets included)\n", allocations,
        static_cast<double>(allocations) / static_cast<double>(std::max<std::size_t>(1, store.nodeCount() + store.podCount())));
    for (const auto& w : report.warnings)
        std::printf("warning: %s\n", w.c_str());
    return 0;
}
