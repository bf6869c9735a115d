// SPDX-License-Identifier: Apache-2.0
// bench_document: the .fleet document (importers/document/fleetdocument.h) of the simulated
// fleet with a consolidation plan in it.
//
//   bench_document [NODES] [SEED] [FOLDER]   (defaults 100000, 1 and the temporary folder)
//
// Generates the simulated cluster, makes a consolidation plan (model/search/consolidation.h, as
// `plan consolidate` does, limited to 20 s), then times:
//   save_s  saveFleetDocument(): encode, compress, build the SQLite database in memory,
//           serialize, write through the output writer (fsync, rename, folder fsync);
//   open_s  openFleetDocument(): read, the untrusted checks (quick_check, schema, every value),
//           inflate, rebuild the store, finalize, topology.
// and, on the lines before the JSON, where the time goes and what the layouts this one was
// chosen over cost (docs/document.md): the same pod columns uncompressed and at zlib level 6,
// and one SQLite row per pod (prepared INSERTs into an in-memory database, serialized; read
// back with one SELECT). Prints one JSON object last:
//   {"nodes", "pods", "save_s", "open_s", "open_to_map_s", "bytes", "bytes_per_pod", "diff_s",
//    "plan_actions"}
// open_to_map_s: `fleetscope DOC.fleet --quit-after-first-frame` (process start, open, the
// first frame of the map), off-screen: $DISPLAY when it opens, else a private Xvfb, as
// `fleetscope screenshot` does; the median of 3 runs (the first also warms the page cache).
// The plan is saved with its evaluation (`plan check --format json` of it), as `save --plan`
// keeps it, so that bytes are those of a document with a plan.
// diff_s is importers::diffStates() of the saved and the opened state (every pod matched by
// name). Passes or fails nothing.

#include "app/xvfb/privatexserver.h"
#include "importers/clusterloader.h"
#include "importers/document/bytecolumns.h"
#include "importers/document/fleetdocument.h"
#include "importers/document/statediff.h"
#include "importers/document/sqlitehandle_p.h"
#include "importers/document/storecodec.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"
#include "importers/pricing/pricetableloader.h"
#include "importers/export/evaluationformat.h"
#include "model/metrics/metric.h"
#include "model/plan/planprices.h"
#include "model/search/consolidation.h"

#include <QCoreApplication>
#include <QProcess>
#include <QRegularExpression>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sys/resource.h>
#include <zlib.h>

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// CPU seconds of this process so far, every thread's, user and system: on a shared machine the
// wall time of a save or open varies twofold with the load, its CPU time much less.
double cpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::string zlibAt(std::string_view raw, int level)
{
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::string out(size, '\0');
    compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()), level);
    out.resize(size);
    return out;
}

// One SQLite row per pod: the layout the columns were measured against.
void measureRowsPerPod(const fleet::model::ClusterStore& store)
{
    using namespace fleet::importers::document;
    const auto t0 = Clock::now();
    Sqlite db(":memory:");
    db.run("PRAGMA page_size = 4096");
    db.run("BEGIN");
    db.run("CREATE TABLE pods(id INTEGER PRIMARY KEY, namespace INTEGER NOT NULL, name TEXT NOT NULL, uid TEXT NOT NULL, "
           "node INTEGER NOT NULL, phase INTEGER NOT NULL, flags INTEGER NOT NULL, template INTEGER NOT NULL)");
    {
        Statement insert(db, "INSERT INTO pods VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
        for (std::uint32_t i = 0; i < store.podCount(); ++i) {
            const fleet::model::PodId p(i);
            insert.bindInt(1, i);
            insert.bindInt(2, store.strings().find(store.podNamespace(p)).value);
            insert.bindText(3, store.podName(p));
            insert.bindText(4, store.podUid(p));
            insert.bindInt(5, store.podNode(p).isValid() ? store.podNode(p).value : -1);
            insert.bindInt(6, static_cast<int>(store.podPhase(p)));
            insert.bindInt(7, store.podFlags(p));
            insert.bindInt(8, store.podWorkload(p).isValid() ? store.podWorkload(p).value : -1); // a stand-in for the template id
            insert.stepDone();
        }
    }
    db.run("COMMIT");
    const std::string bytes = db.serialize();
    const double save = since(t0);
    const auto t1 = Clock::now();
    Sqlite back = Sqlite::openReadOnlyImage(bytes);
    std::size_t chars = 0;
    {
        Statement q(back, "SELECT namespace, name, uid, node, phase, flags, template FROM pods ORDER BY id");
        while (q.step())
            chars += q.text(1).size() + q.text(2).size() + static_cast<std::size_t>(q.integer(3) & 1);
    }
    const double read = since(t1);
    std::printf("layout rows per pod (pods only, names and uids as text): build+serialize %.2f s, read %.2f s, %zu bytes = %.1f bytes/pod (%zu chars)\n",
        save, read, bytes.size(), static_cast<double>(bytes.size()) / static_cast<double>(store.podCount()), chars);
}

} // namespace

int main(int argc, char** argv)
{
    using namespace fleet;
    using namespace fleet::model;
    const std::size_t nodeCount = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
    const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    const std::filesystem::path folder = argc > 3 ? std::filesystem::path(argv[3]) : std::filesystem::temp_directory_path();
    const std::string path = (folder / "bench_document.fleet").string();

    fleet::app::PrivateXServer xserver;
    fleet::app::ensureXDisplay(xserver, 1400, 1000);
    QCoreApplication app(argc, argv);
    auto t0 = Clock::now();
    importers::FleetDocument doc;
    doc.cluster = importers::loadSimulatedCluster({ nodeCount, seed });
    doc.provenance = importers::sourceOfSimulation(nodeCount, seed);
    doc.takenAt = importers::utcNowIso();
    doc.topologyKeys = TopologySpec::defaults().levelKeys;
    doc.priceTableCsv = std::string(importers::shippedPriceTableText());
    const ClusterStore& store = *doc.cluster.store;
    std::printf("generated %zu nodes, %zu pods in %.2f s\n", store.nodeCount(), store.podCount(), since(t0));

    t0 = Clock::now();
    const PriceTable prices = importers::loadPriceTable("");
    ConsolidationInput input;
    {
        const MetricContext context(store, &prices);
        input.nodePricePerHour.resize(store.nodeCount());
        for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
            const double p = context.nodeDollarsPerHour(NodeId(i));
            input.nodePricePerHour[i] = std::isnan(p) ? 0.0 : p;
        }
    }
    ConsolidationOptions options;
    options.timeLimitSeconds = 20;
    const ConsolidationResult ours = consolidate(store, *doc.cluster.topology, input, options);
    importers::PlanDocument plan;
    plan.source = doc.provenance;
    plan.actions = ours.pendingPlaced;
    plan.actions.insert(plan.actions.end(), ours.actions.begin(), ours.actions.end());
    std::printf("consolidation plan: %zu actions (%lld nodes freed, %lld pods moved) in %.2f s\n", plan.actions.size(),
        static_cast<long long>(ours.nodesFreed), static_cast<long long>(ours.podsMoved), since(t0));
    t0 = Clock::now();
    std::string evaluation;
    {
        importers::PlanEvaluation e = importers::evaluatePlan(store, *doc.cluster.topology, plan, planNodePrices(store, &prices));
        e.state = doc.provenance;
        evaluation = importers::evaluationJson("consolidation", e, store);
    }
    std::printf("its evaluation (plan check --format json): %zu bytes in %.2f s\n", evaluation.size(), since(t0));
    doc.plans.push_back({ "consolidation", importers::planJson(plan), evaluation, "bench_document", doc.takenAt });

    // Where a save's time goes, and the layouts measured against the one chosen.
    t0 = Clock::now();
    const auto raw = importers::document::encodeStore(store, doc.cluster.usage.get());
    const double encodeS = since(t0);
    std::size_t rawBytes = 0, level1 = 0, level6 = 0;
    double level1S = 0, level6S = 0, inflateS = 0;
    for (const auto& [name, bytes] : raw) {
        rawBytes += bytes.size();
        auto t = Clock::now();
        const std::string z1 = zlibAt(bytes, 1);
        const double z1S = since(t);
        level1S += z1S;
        level1 += z1.size();
        t = Clock::now();
        level6 += zlibAt(bytes, 6).size();
        level6S += since(t);
        t = Clock::now();
        (void)importers::document::decompressColumn(z1, bytes.size(), name);
        const double inflate1S = since(t);
        inflateS += inflate1S;
        std::printf("  column %-14s %11zu bytes raw (%5.1f/pod), %10zu at zlib 1 (%5.1f/pod) in %.2f s, inflated in %.2f s%s\n", name.c_str(),
            bytes.size(), double(bytes.size()) / double(store.podCount()), z1.size(), double(z1.size()) / double(store.podCount()), z1S,
            inflate1S, importers::document::columnZlibLevel(name) == 1 ? "" : " (stored at zlib level 0)");
    }
    std::printf("columns: encode %.2f s; %zu bytes raw (%.1f/pod), zlib 1: %zu (%.1f/pod) in %.2f s, inflate %.2f s; zlib 6: %zu (%.1f/pod) in %.2f s (one thread)\n",
        encodeS, rawBytes, double(rawBytes) / double(store.podCount()), level1, double(level1) / double(store.podCount()), level1S, inflateS,
        level6, double(level6) / double(store.podCount()), level6S);
    {
        t0 = Clock::now();
        const auto decoded = importers::document::decodeStore([&](const std::string& name) -> std::string_view {
            for (const auto& [n, b] : raw)
                if (n == name)
                    return b;
            return {};
        });
        const double decodeS = since(t0);
        t0 = Clock::now();
        (void)Topology::build(*decoded.store, TopologySpec::defaults());
        std::printf("open's parts: rebuild the store from its columns (addNodeInterned, addPod per template, addPodsLike, finalize) %.2f s, topology %.2f s\n", decodeS, since(t0));
    }
    measureRowsPerPod(store);
    std::fflush(stdout);

    t0 = Clock::now();
    double cpu0 = cpuSeconds();
    importers::saveFleetDocument(doc, path);
    const double saveS = since(t0);
    const double saveCpuS = cpuSeconds() - cpu0;
    const auto bytes = std::filesystem::file_size(path);

    {
        t0 = Clock::now();
        std::string image(bytes, '\0');
        FILE* f = std::fopen(path.c_str(), "rb");
        const std::size_t got = std::fread(image.data(), 1, image.size(), f);
        std::fclose(f);
        const double readS = since(t0);
        t0 = Clock::now();
        importers::document::Sqlite db = importers::document::Sqlite::openReadOnlyImage(std::string_view(image.data(), got));
        importers::document::Statement check(db, "PRAGMA quick_check");
        check.step();
        std::printf("open's parts: read the file %.2f s, quick_check %.2f s (%s)\n", readS, since(t0), check.text(0).c_str());
    }
    t0 = Clock::now();
    cpu0 = cpuSeconds();
    const importers::FleetDocument opened = importers::openFleetDocument(path);
    const double openS = since(t0);
    const double openCpuS = cpuSeconds() - cpu0;
    if (opened.cluster.store->podCount() != store.podCount() || opened.cluster.store->nodeCount() != store.nodeCount()
        || opened.plans.size() != 1) {
        std::fprintf(stderr, "bench_document: the opened document differs from the saved one\n");
        return 1;
    }
    // To the first frame of the map: the real program, off-screen.
    double toMapS = -1;
    {
        std::vector<double> runs;
        static const QRegularExpression totalRe(QStringLiteral("total: process start -> first cluster frame on screen\\s+([0-9.]+) ms"));
        for (int i = 0; i < 3; ++i) {
            QProcess p;
            p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
            p.start(QStringLiteral(FLEETSCOPE_EXECUTABLE), { QString::fromStdString(path), QStringLiteral("--quit-after-first-frame") });
            if (!p.waitForFinished(600'000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
                std::fprintf(stderr, "bench_document: fleetscope %s --quit-after-first-frame failed (exit %d)\n", path.c_str(), p.exitCode());
                break;
            }
            const QString out = QString::fromUtf8(p.readAllStandardOutput());
            const auto m = totalRe.match(out);
            if (m.hasMatch())
                runs.push_back(m.captured(1).toDouble() / 1000.0);
            if (i == 0)
                std::printf("fleetscope DOC.fleet --quit-after-first-frame, first run:\n%s", qPrintable(out));
        }
        if (!runs.empty()) {
            std::sort(runs.begin(), runs.end());
            toMapS = runs[runs.size() / 2];
            std::printf("open to the first frame of the map: median %.2f s of %zu runs (min %.2f, max %.2f)\n", toMapS, runs.size(),
                runs.front(), runs.back());
        }
    }

    t0 = Clock::now();
    const importers::StateDiff diff = importers::diffStates(store, *opened.cluster.store, {}, {});
    const double diffS = since(t0);
    std::printf("diff of the saved and the opened state: %zu pods moved, %zu created, %zu deleted, %zu nodes relabelled in %.2f s\n",
        diff.podsMoved, diff.podsCreated, diff.podsDeleted, diff.nodesRelabelled.size(), diffS);
    std::filesystem::remove(path);
    std::printf("save %.2f s (CPU %.2f s, all threads), open %.2f s (CPU %.2f s), %llu bytes\n", saveS, saveCpuS, openS, openCpuS,
        static_cast<unsigned long long>(bytes));
    char toMap[32] = "null";
    if (toMapS >= 0)
        std::snprintf(toMap, sizeof toMap, "%.3f", toMapS);
    std::printf("{\"nodes\": %zu, \"pods\": %zu, \"save_s\": %.3f, \"open_s\": %.3f, \"open_to_map_s\": %s, \"bytes\": %llu, "
                "\"bytes_per_pod\": %.1f, \"diff_s\": %.3f, \"plan_actions\": %zu}\n",
        store.nodeCount(), store.podCount(), saveS, openS, toMap, static_cast<unsigned long long>(bytes),
        static_cast<double>(bytes) / static_cast<double>(store.podCount()), diffS, plan.actions.size());
    return 0;
}
