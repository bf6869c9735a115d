// SPDX-License-Identifier: Apache-2.0
// Tests of the simulated live feed's changes (importers/simulated/simulatedchanges.h): the same
// cluster and seed give the same batches; a consumer that applies them holds the source's
// state; a training gang whose node fails goes back to Pending, recreated; every pod the feed
// binds passes every filter of the engine (model/scheduling/filters.h) on its node.

#include "importers/simulated/simulatedchanges.h"
#include "importers/simulated/simulatedcluster.h"
#include "importers/simulated/simulatedlivefeed.h"
#include "model/clustertotals.h"
#include "model/scheduling/filters.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <string>
#include <vector>

using namespace fleet;

namespace {

model::ClusterStore simulated(std::size_t nodes, std::uint64_t seed)
{
    model::ClusterStore s;
    importers::ImportReport report;
    importers::generateSimulatedCluster({ nodes, seed }, s, report);
    s.finalize();
    return s;
}

/// The batch as text: every name it touches, in order, and its event count.
std::string describe(const model::ClusterChangeBatch& b)
{
    std::string out = std::to_string(b.events) + ":";
    for (std::uint32_t n = 0; n < b.upserted.nodeCount(); ++n)
        out += " node " + std::string(b.upserted.nodeName(model::NodeId(n))) + "=" + std::string(model::readinessName(b.upserted.nodeReadiness(model::NodeId(n))));
    for (std::uint32_t p = 0; p < b.upserted.podCount(); ++p) {
        const model::PodId q(p);
        out += " pod " + std::string(b.upserted.podName(q)) + "@" + std::string(b.upserted.podNodeName(q)) + "/"
            + std::string(model::podPhaseName(b.upserted.podPhase(q))) + "#" + std::string(b.upserted.podUid(q));
    }
    for (const auto& [ns, name] : b.deletedPods)
        out += " -" + ns + "/" + name;
    return out;
}

void compareStores(const model::ClusterStore& a, const model::ClusterStore& b)
{
    QCOMPARE(a.nodeCount(), b.nodeCount());
    QCOMPARE(a.podCount(), b.podCount());
    const model::ClusterCounts ca = a.counts(), cb = b.counts();
    QCOMPARE(ca.pods, cb.pods);
    QCOMPARE(ca.podsCounted, cb.podsCounted);
    QCOMPARE(ca.podsPending, cb.podsPending);
    QCOMPARE(ca.podsTerminal, cb.podsTerminal);
    QCOMPARE(ca.nodesReady, cb.nodesReady);
    QVERIFY(a.totalRequested() == b.totalRequested());
    for (std::uint32_t n = 0; n < a.nodeCount(); ++n)
        QVERIFY(a.nodeRequested(model::NodeId(n)) == b.nodeRequested(model::NodeId(n)));
}

} // namespace

class TestSimulatedChanges : public QObject {
    Q_OBJECT
private slots:
    void sameSeedSameBatchesSameState()
    {
        importers::SimulatedChanges one(simulated(300, 5), 5), two(simulated(300, 5), 5);
        model::ClusterStore consumer = simulated(300, 5);
        std::size_t events = 0;
        for (int i = 0; i < 40; ++i) {
            const model::ClusterChangeBatch a = one.next(50), b = two.next(50);
            QCOMPARE(describe(a), describe(b));
            QVERIFY(!a.empty());
            events += a.events;
            (void)model::applyChanges(consumer, a);
        }
        QVERIFY(events >= 40 * 50);
        compareStores(consumer, one.state());
        compareStores(one.state(), two.state());
        // Another seed: other batches.
        importers::SimulatedChanges other(simulated(300, 5), 6);
        importers::SimulatedChanges again(simulated(300, 5), 5);
        QVERIFY(describe(other.next(50)) != describe(again.next(50)));
    }

    // Arrivals and departures balance around the starting state: a feed that ran for the
    // equivalent of several minutes at the default rate neither drains the cluster nor piles up
    // pending pods (it lost 31 % of its allocated GPUs and doubled its pending pods in four).
    void arrivalsAndDeparturesBalance()
    {
        importers::SimulatedChanges feed(simulated(2000, 3), 3);
        const model::ClusterTotals start = model::computeClusterTotals(feed.state());
        const double gpus0 = static_cast<double>(start.accelerators.wholeGpuRequestedMilli);
        const double running0 = static_cast<double>(start.podsCounted - start.podsPending);
        QVERIFY(gpus0 > 0);
        double lowestGpus = gpus0, highestGpus = gpus0, mostPending = static_cast<double>(start.podsPending), gpuSum = 0;
        int samples = 0;
        std::size_t events = 0;
        for (int i = 0; i < 1200; ++i) {
            events += feed.next(200).events;
            if (i % 40 != 39)
                continue;
            const model::ClusterTotals t = model::computeClusterTotals(feed.state());
            lowestGpus = std::min(lowestGpus, static_cast<double>(t.accelerators.wholeGpuRequestedMilli));
            highestGpus = std::max(highestGpus, static_cast<double>(t.accelerators.wholeGpuRequestedMilli));
            mostPending = std::max(mostPending, static_cast<double>(t.podsPending));
            gpuSum += static_cast<double>(t.accelerators.wholeGpuRequestedMilli);
            ++samples;
            const double running = static_cast<double>(t.podsCounted - t.podsPending);
            QVERIFY2(std::abs(running - running0) <= 0.05 * running0,
                     qPrintable(QStringLiteral("after %1 events: %2 running pods, %3 at the start").arg(events).arg(running).arg(running0)));
        }
        QVERIFY(events >= 200'000);
        // A node failure under a training gang sends hundreds of GPUs back to Pending for a while
        // (a gang is several percent of a 2,000-node fleet's GPUs): a band, and a mean near the start.
        QVERIFY2(lowestGpus >= 0.90 * gpus0 && highestGpus <= 1.10 * gpus0,
                 qPrintable(QStringLiteral("GPUs allocated ranged %1..%2 milli-GPUs, %3 at the start").arg(lowestGpus).arg(highestGpus).arg(gpus0)));
        const double meanGpus = gpuSum / samples;
        QVERIFY2(std::abs(meanGpus - gpus0) <= 0.04 * gpus0,
                 qPrintable(QStringLiteral("GPUs allocated averaged %1 milli-GPUs, %2 at the start").arg(meanGpus).arg(gpus0)));
        QVERIFY2(mostPending <= static_cast<double>(start.podsPending) + 0.02 * running0,
                 qPrintable(QStringLiteral("pending pods rose to %1 from %2").arg(mostPending).arg(start.podsPending)));
    }

    // From the first batch on, at the window's pace (`--live`: 200 events a second in batches of
    // 100 ms), the pods the status bar counts hold around the starting state: a trial saw about
    // 5% of the pods go in the first 90 s, then hold. Sampled every 5 s of feed for 3 minutes.
    void podCountsHoldFromTheStart()
    {
        importers::SimulatedChanges feed(simulated(2000, 3), 3);
        const model::ClusterCounts start = feed.state().counts();
        const double running0 = static_cast<double>(start.podsCounted - start.podsPending);
        QVERIFY(start.pods > 10'000);
        for (int batch = 1; batch <= 1800; ++batch) {
            (void)feed.next(20);
            if (batch % 50 != 0)
                continue;
            const model::ClusterCounts c = feed.state().counts();
            const double seconds = batch / 10.0;
            const double running = static_cast<double>(c.podsCounted - c.podsPending);
            QVERIFY2(std::abs(static_cast<double>(c.pods) - static_cast<double>(start.pods)) <= 0.01 * static_cast<double>(start.pods),
                qPrintable(QStringLiteral("after %1 s: %2 pods, %3 at the start (%4 finished, %5 at the start)")
                               .arg(seconds)
                               .arg(c.pods)
                               .arg(start.pods)
                               .arg(c.podsTerminal)
                               .arg(start.podsTerminal)));
            QVERIFY2(std::abs(running - running0) <= 0.01 * running0,
                qPrintable(QStringLiteral("after %1 s: %2 running pods, %3 at the start").arg(seconds).arg(running).arg(running0)));
        }
    }

    void gangGoesBackToPendingWhenItsNodeFails()
    {
        importers::SimulatedChanges source(simulated(2000, 7), 7);
        for (int i = 0; i < 2000; ++i) {
            const model::ClusterChangeBatch b = source.next(100);
            const model::ClusterStore& in = b.upserted;
            // A recreated gang pod: ml-training, Pending, a uid this source made.
            for (std::uint32_t p = 0; p < in.podCount(); ++p) {
                const model::PodId q(p);
                if (in.podNamespace(q) != "ml-training" || !in.podNodeName(q).empty() || !in.podUid(q).starts_with("sim-live-"))
                    continue;
                // Some node of the batch failed, and every pod of that gang is Pending now.
                bool failed = false;
                for (std::uint32_t n = 0; n < in.nodeCount(); ++n)
                    failed |= in.nodeReadiness(model::NodeId(n)) != model::Readiness::True;
                QVERIFY(failed);
                const model::ClusterStore& s = source.state();
                const model::PodId now = s.findPod(in.podNamespace(q), in.podName(q));
                QVERIFY(now.isValid());
                QVERIFY(s.podIsPending(now));
                QCOMPARE(s.podUid(now), in.podUid(q));
                const model::WorkloadId w = s.podWorkload(now);
                QVERIFY(w.isValid());
                for (std::uint32_t r = 0; r < s.podCount(); ++r)
                    if (!s.podIsDeleted(model::PodId(r)) && s.podWorkload(model::PodId(r)) == w)
                        QVERIFY2(!s.podIsCounted(model::PodId(r)), "a gang pod stayed on its node");
                return;
            }
        }
        QFAIL("no training gang was sent back to Pending in 2,000 batches");
    }

    // The feed binds as the kube-scheduler would: each pod a batch binds (an arrival placed at
    // once, a pending pod bound, a gang back on its nodes) passes every filter on its node,
    // judged by the engine on the state after the batch with the batch's binds taken off and put
    // back one at a time in the batch's order (the pods bound before it in the batch count).
    // The fleet has tainted GPU nodes, node selectors, hostname anti-affinity, zone spread
    // constraints and shared GPUs, so a resources-only check would fail here.
    void everyBindPassesTheFilters()
    {
        importers::SimulatedChanges source(simulated(2000, 11), 11);
        model::ClusterStore before = simulated(2000, 11); // the state before each batch
        std::size_t binds = 0, arrivalsBound = 0, gpuBinds = 0;
        for (int i = 0; i < 150; ++i) {
            const model::ClusterChangeBatch b = source.next(200);
            const model::ClusterStore& s = source.state();
            model::PlanLedger ledger(s);
            std::vector<std::pair<model::PodId, model::NodeId>> bound;
            const model::ClusterStore& in = b.upserted;
            for (std::uint32_t r = 0; r < in.podCount(); ++r) {
                const model::PodId q(r);
                if (in.podNodeName(q).empty() || in.podIsTerminal(q))
                    continue;
                const model::PodId was = before.findPod(in.podNamespace(q), in.podName(q));
                const bool arrival = !was.isValid() || before.podUid(was) != in.podUid(q);
                if (!arrival && before.podNode(was).isValid())
                    continue; // already bound (a status update)
                const model::PodId p = s.findPod(in.podNamespace(q), in.podName(q));
                QVERIFY(p.isValid() && s.podIsCounted(p));
                bound.emplace_back(p, s.podNode(p));
                arrivalsBound += arrival;
                gpuBinds += s.podRequest(p)[model::CoreResource::Gpu] > 0;
            }
            for (const auto& [p, n] : bound)
                QVERIFY(ledger.evictPod(p));
            for (const auto& [p, n] : bound) {
                const model::Verdict v = model::checkMove(ledger, p, n);
                QString why;
                for (const model::Reason& r : v.reasons)
                    why += QString::fromStdString(" " + r.code() + " (" + r.message + ")");
                QVERIFY2(v.feasible, qPrintable(QStringLiteral("batch %1: %2/%3 bound to %4 fails:%5")
                                                    .arg(i)
                                                    .arg(QString::fromUtf8(s.podNamespace(p).data(), qsizetype(s.podNamespace(p).size())))
                                                    .arg(QString::fromUtf8(s.podName(p).data(), qsizetype(s.podName(p).size())))
                                                    .arg(QString::fromUtf8(s.nodeName(n).data(), qsizetype(s.nodeName(n).size())))
                                                    .arg(why)));
                QVERIFY(ledger.movePod(p, n));
            }
            binds += bound.size();
            (void)model::applyChanges(before, b);
        }
        qInfo("%zu binds checked: %zu arrivals placed at once, %zu asking for GPUs", binds, arrivalsBound, gpuBinds);
        QVERIFY(binds > 1000);
        QVERIFY(arrivalsBound > 500 && arrivalsBound < binds);
        QVERIFY(gpuBinds > 50);
        compareStores(before, source.state());
    }

    void feedThreadHandsBatchesToTheSink()
    {
        struct Sink : importers::live::LiveFeedSink {
            std::mutex mutex;
            std::vector<std::string> batches;
            std::vector<importers::live::LiveFeedStatus::State> states;
            void batchReady(model::ClusterChangeBatch b) override
            {
                const std::lock_guard lock(mutex);
                batches.push_back(describe(b));
            }
            void statusChanged(const importers::live::LiveFeedStatus& s) override
            {
                const std::lock_guard lock(mutex);
                states.push_back(s.state);
            }
        } sink;
        {
            importers::SimulatedLiveFeed feed({ 200, 2 }, 2000, std::chrono::milliseconds(20));
            feed.start(sink);
            QTRY_VERIFY_WITH_TIMEOUT([&] { const std::lock_guard lock(sink.mutex); return sink.batches.size() >= 3; }(), 20000);
            feed.stop();
        }
        const std::lock_guard lock(sink.mutex);
        QCOMPARE(sink.states.back(), importers::live::LiveFeedStatus::State::Stopped);
        QVERIFY(std::find(sink.states.begin(), sink.states.end(), importers::live::LiveFeedStatus::State::Watching) != sink.states.end());
        // The thread's batches are the source's: the first equals a source's first of 40 events.
        importers::SimulatedChanges source(simulated(200, 2), 2);
        QCOMPARE(sink.batches.front(), describe(source.next(40)));
    }
};

QTEST_APPLESS_MAIN(TestSimulatedChanges)
#include "tst_simulatedchanges.moc"
