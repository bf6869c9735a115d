// SPDX-License-Identifier: Apache-2.0
// Benchmark of a live cluster in the window, the watch part: the main window on the
// simulated fleet (100,000 nodes by default) at 1920x1080 under xvfb-run, the map on screen
// and rendering continuously (a frame requested as soon as the last one is on screen, as a
// user panning would), while a feed thread streams a fixed mix of events through the window's
// sink (LiveController: queued to the GUI thread, one transaction per batch, the map recoloured
// per diff). The mix is the simulated feed's (importers/simulated/simulatedchanges.h: pod adds,
// finishes, deletes and status updates, node failures and recoveries, gangs sent back to
// Pending), built before the watch from the same cluster so that building it is not timed.
//
// First the LIST (livelistbench.h): --list-nodes nodes and --list-pods pods as pre-built pages
// of 500 served from memory by the fake API server over loopback TLS, listed into the model
// (list_nodes, list_pods, list_seconds, list_mb_per_s of uncompressed JSON, and the share of
// the two cores the server's threads used); --list-nodes 0 leaves it out. Then the watch.
//
// Figures: watch_events_per_s (events applied / wall time from the first batch handed to the
// sink to the last one applied), p99_frame_ms_during_watch (the 99th percentile of the time
// between consecutive frames on screen during the watch), the apply time of a batch on the GUI
// thread (p50, p99), how many times and how long batches waited for a worker reading the store
// (reader_waits, reader_wait_ms_total, reader_wait_ms_longest: LiveController::readerWaits()), and how fast the
// simulated feed makes its batches (feed_events_per_s: SimulatedChanges::next() alone, the
// work of the feed's thread, which must keep above the rate it offers). Prints one
// JSON object last (its keys: docs/benchmarks.md, "bench_live"); passes or fails nothing.
//
//   xvfb-run -a -s "-screen 0 1920x1080x24" bench_live [--list-nodes N] [--list-pods P]
//            [--nodes N] [--seed S] [--events E] [--batch-events B] [--rate EVENTS_PER_S]
//   bench_live --feed-only [--nodes N] [--events E] [--batch-events B]   # the feed's figures alone

#include "livelistbench.h"

#include "app/controllers/livecontroller.h"
#include "app/window/mainwindow.h"
#include "app/controllers/storereaders.h"
#include "app/startup/surfaceformat.h"
#include "importers/simulated/simulatedchanges.h"
#include "importers/simulated/simulatedcluster.h"
#include "views/map/fleetmapview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <thread>
#include <vector>

using namespace fleet;

namespace {

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return -1;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(std::max(0.0, std::ceil(p * static_cast<double>(v.size())) - 1));
    return v[std::min(i, v.size() - 1)];
}

/// Hands pre-built batches to the sink from its own thread, paced at `rate` events a second.
class ReplayFeed final : public importers::live::LiveFeed {
public:
    ReplayFeed(std::vector<model::ClusterChangeBatch> batches, double rate)
        : m_batches(std::move(batches))
        , m_rate(rate)
    {
    }
    ~ReplayFeed() override { stop(); }
    void start(importers::live::LiveFeedSink& sink) override
    {
        m_thread = std::thread([this, &sink] {
            importers::live::LiveFeedStatus s;
            s.server = "replay";
            s.state = importers::live::LiveFeedStatus::State::Watching;
            sink.statusChanged(s);
            const auto begin = std::chrono::steady_clock::now();
            double sent = 0;
            for (auto& b : m_batches) {
                if (m_stop.load())
                    return;
                sent += static_cast<double>(b.events);
                sink.batchReady(std::move(b));
                std::this_thread::sleep_until(begin + std::chrono::duration<double>(sent / m_rate));
            }
        });
    }
    void stop() override
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    std::vector<model::ClusterChangeBatch> m_batches;
    double m_rate;
    std::thread m_thread;
    std::atomic<bool> m_stop { false };
};

} // namespace

int main(int argc, char** argv)
{
    app::setDefaultSurfaceFormat();
    QApplication application(argc, argv);
    QCommandLineParser parser;
    parser.addOptions({ { "nodes", "Simulated nodes.", "N", "100000" }, { "seed", "Seed.", "S", "1" },
        { "events", "Events streamed.", "E", "100000" }, { "batch-events", "Events per batch.", "B", "1000" },
        { "rate", "Events per second offered.", "R", "20000" },
        { "list-nodes", "Nodes of the LIST (0: no LIST).", "N", "100000" }, { "list-pods", "Pods of the LIST.", "P", "1000000" },
        { "feed-only", "Measure the simulated feed's batches only (no LIST, no window)." } });
    parser.process(application);
    const std::size_t nodes = parser.value("nodes").toULongLong();
    const std::uint64_t seed = parser.value("seed").toULongLong();
    const std::size_t events = parser.value("events").toULongLong();
    const std::size_t perBatch = std::max<qulonglong>(1, parser.value("batch-events").toULongLong());
    const double rate = parser.value("rate").toDouble();

    // The LIST first, alone in the process (its pages, some 9 GB at 100,000 nodes and 1,000,000
    // pods, are freed before the window exists).
    bench::LiveListFigures list;
    if (const std::size_t listNodes = parser.value("list-nodes").toULongLong(); listNodes > 0 && !parser.isSet("feed-only")) {
        try {
            list = bench::measureLiveList(listNodes, parser.value("list-pods").toULongLong());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bench_live: LIST: %s\n", e.what());
            return 1;
        }
        std::fprintf(stderr, "bench_live: listed %zu nodes and %zu pods in %zu pages: %.1f MB in %.2f s (client thread %.2f s CPU, "
                     "server threads %.0f%% of 2 cores); the same pages imported from memory: %.2f s\n",
            list.nodes, list.pods, list.pages, list.megabytes, list.seconds, list.clientCpuSeconds, list.serverCpuShare * 100,
            list.importOnlySeconds);
    }

    // The mix, built from the same cluster the window will show (not timed).
    QElapsedTimer clock;
    clock.start();
    std::vector<model::ClusterChangeBatch> batches;
    std::size_t pods = 0;
    double feedSeconds = 0; // SimulatedChanges::next() alone: what the simulated feed's thread spends per event
    double feedStartSeconds = 0; // SimulatedChanges' constructor: once, when the feed starts
    double feedCpuSeconds = 0;   // the batches' CPU time (one thread): less sensitive to the machine's load than feedSeconds
    {
        model::ClusterStore store;
        importers::ImportReport report;
        importers::generateSimulatedCluster({ nodes, seed }, store, report);
        store.finalize();
        pods = store.podCount();
        QElapsedTimer feedClock;
        feedClock.start();
        importers::SimulatedChanges source(std::move(store), seed);
        feedStartSeconds = static_cast<double>(feedClock.nsecsElapsed()) / 1e9;
        feedClock.restart();
        const std::clock_t feedCpuStart = std::clock();
        for (std::size_t done = 0; done < events;) {
            batches.push_back(source.next(std::min(perBatch, events - done)));
            done += batches.back().events;
        }
        feedSeconds = static_cast<double>(feedClock.nsecsElapsed()) / 1e9;
        feedCpuSeconds = static_cast<double>(std::clock() - feedCpuStart) / CLOCKS_PER_SEC;
    }
    std::size_t total = 0;
    for (const auto& b : batches)
        total += b.events;
    const double feedEventsPerSecond = feedSeconds > 0 ? static_cast<double>(total) / feedSeconds : 0;
    const double feedEventsPerCpuSecond = feedCpuSeconds > 0 ? static_cast<double>(total) / feedCpuSeconds : 0;
    std::fprintf(stderr, "bench_live: %zu batches, %zu events built in %.1f s (the feed's start %.2f s, its batches alone %.2f s: %.0f events/s, %.0f per CPU second)\n",
        batches.size(), total, clock.elapsed() / 1000.0, feedStartSeconds, feedSeconds, feedEventsPerSecond, feedEventsPerCpuSecond);
    if (parser.isSet("feed-only")) {
        std::printf("{\"nodes\": %zu, \"pods\": %zu, \"feed_events\": %zu, \"feed_start_seconds\": %.3f, \"feed_events_per_s\": %.0f, \"feed_events_per_cpu_s\": %.0f}\n",
            nodes, pods, total, feedStartSeconds, feedEventsPerSecond, feedEventsPerCpuSecond);
        return 0;
    }

    app::MainWindow window;
    window.resize(1920, 1080);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    QSignalSpy shown(&window, &app::MainWindow::clusterShown);
    window.openSimulated(nodes, seed);
    if (!shown.wait(600000))
        return 1;
    // Let the load's workers (plan engine, exploring analysis) finish: they hold batches.
    QTest::qWait(200);
    for (int i = 0; i < 600 && window.storeReaders()->running() > 0; ++i)
        QTest::qWait(100);

    views::FleetMapView* map = window.mapView();
    std::vector<double> frameGaps;
    QElapsedTimer frameClock;
    bool watching = false;
    qint64 lastFrameNs = -1;
    QObject::connect(map, &views::FleetMapView::frameRendered, map, [&] {
        const qint64 now = frameClock.nsecsElapsed();
        if (watching && lastFrameNs >= 0)
            frameGaps.push_back(static_cast<double>(now - lastFrameNs) / 1e6);
        lastFrameNs = now;
        if (watching)
            QTimer::singleShot(0, map, [map] { map->resetView(); }); // the next frame at once
    });
    std::vector<double> applyMs;
    app::LiveController* live = window.liveController();
    QObject::connect(live, &app::LiveController::diffApplied, live, [&] { applyMs.push_back(live->lastApplyMs()); });

    frameClock.start();
    watching = true;
    map->resetView();
    QElapsedTimer watch;
    watch.start();
    window.startLiveFeed(std::make_unique<ReplayFeed>(std::move(batches), rate));
    while (live->eventsApplied() < total && watch.elapsed() < 600000)
        QTest::qWait(5);
    const double seconds = static_cast<double>(watch.nsecsElapsed()) / 1e9;
    watching = false;
    // Read while the feed runs (a wait still running counts).
    const std::uint64_t readerWaits = live->readerWaits();
    const double readerWaitMs = live->readerWaitMsTotal(), readerWaitMsLongest = live->readerWaitMsLongest();
    window.stopLiveFeed();

    const double eventsPerSecond = static_cast<double>(live->eventsApplied()) / seconds;
    std::fprintf(stderr, "bench_live: %llu events in %.2f s, %zu frames; batches waited for store readers %llu times, %.0f ms in all, "
                 "%.0f ms the longest\n",
        static_cast<unsigned long long>(live->eventsApplied()), seconds, frameGaps.size(), static_cast<unsigned long long>(readerWaits),
        readerWaitMs, readerWaitMsLongest);
    std::printf("{\"list_nodes\": %zu, \"list_pods\": %zu, \"list_seconds\": %.3f, \"list_mb_per_s\": %.0f, "
                "\"list_server_cpu_share\": %.2f, ",
        list.nodes, list.pods, list.seconds, list.mbPerSecond, list.serverCpuShare);
    std::printf("\"nodes\": %zu, \"pods\": %zu, \"watch_events\": %llu, \"watch_batches\": %llu, \"watch_seconds\": %.3f, "
                "\"offered_events_per_s\": %.0f, \"watch_events_per_s\": %.0f, \"p99_frame_ms_during_watch\": %.1f, "
                "\"p50_frame_ms_during_watch\": %.1f, \"frames_during_watch\": %zu, \"apply_ms_p50\": %.2f, \"apply_ms_p99\": %.2f, "
                "\"reader_waits\": %llu, \"reader_wait_ms_total\": %.0f, \"reader_wait_ms_longest\": %.0f, "
                "\"feed_events_per_s\": %.0f, \"feed_events_per_cpu_s\": %.0f}\n",
        nodes, pods, static_cast<unsigned long long>(live->eventsApplied()), static_cast<unsigned long long>(live->batchesApplied()),
        seconds, rate, eventsPerSecond, percentile(frameGaps, 0.99), percentile(frameGaps, 0.5), frameGaps.size(),
        percentile(applyMs, 0.5), percentile(applyMs, 0.99), static_cast<unsigned long long>(readerWaits), readerWaitMs,
        readerWaitMsLongest, feedEventsPerSecond, feedEventsPerCpuSecond);
    return 0;
}
