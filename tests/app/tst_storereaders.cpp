// SPDX-License-Identifier: Apache-2.0
// Tests of the store readers' count (app/controllers/storereaders.h): readers are counted per
// store, and a LiveController holds its batches while a reader of its own store runs, never for
// a reader of another window's store; it counts how many times and how long its batches waited.

#include "app/controllers/livecontroller.h"
#include "app/controllers/storereaders.h"

#include "../common/records.h"
#include "manualfeed.h"

#include <QtTest>

#include <memory>
#include <string>

using namespace fleet;

namespace {

/// A finalized store of one Ready node named `node`, no pods.
std::shared_ptr<model::ClusterStore> oneNodeStore(const std::string& node)
{
    auto store = std::make_shared<model::ClusterStore>();
    store->addNode(testing::nodeRecord(node, 8000, std::int64_t { 32 } << 30));
    store->finalize();
    return store;
}

/// A batch adding one Running pod `name` on `node`.
model::ClusterChangeBatch podArrives(const std::string& node, const std::string& name)
{
    model::ClusterChangeBatch b;
    b.upserted.addPod(testing::podRecord("default", name, node, 100, 1 << 20, model::PodPhase::Running));
    b.events = 1;
    return b;
}

} // namespace

class TestStoreReaders : public QObject {
    Q_OBJECT
private slots:
    void countedPerStore()
    {
        const auto a = oneNodeStore("a-1"), b = oneNodeStore("b-1");
        const auto readers = std::make_shared<app::StoreReaders>();
        QCOMPARE(readers->running(), 0);
        {
            auto first = std::make_shared<app::StoreReadGuard>(readers, a);
            auto second = std::make_shared<app::StoreReadGuard>(readers, a);
            QCOMPARE(readers->running(*a), 2);
            QCOMPARE(readers->running(*b), 0);
            QCOMPARE(readers->running(), 2);
            first.reset();
            QCOMPARE(readers->running(*a), 1);
            auto onB = std::make_shared<app::StoreReadGuard>(readers, b);
            QCOMPARE(readers->running(*b), 1);
            QCOMPARE(readers->running(), 2);
        }
        QCOMPARE(readers->running(*a), 0);
        QCOMPARE(readers->running(*b), 0);
        QCOMPARE(readers->running(), 0);
    }

    // Each StoreReaders counts its own guards: a reader counted in one is not seen by another,
    // even on the same store, and a LiveController waits only for the readers of its own.
    void countsAreObjectsOfTheirOwn()
    {
        const auto store = oneNodeStore("a-1");
        const auto mine = std::make_shared<app::StoreReaders>(), other = std::make_shared<app::StoreReaders>();
        app::LiveController live(mine);
        auto feed = std::make_unique<fleettest::ManualFeed>();
        fleettest::ManualFeed* manual = feed.get();
        live.start(std::move(feed), store);
        QTRY_COMPARE_WITH_TIMEOUT(mine->running(*store), 0, 20000); // the pod name index' worker
        int applied = 0;
        connect(&live, &app::LiveController::diffApplied, this, [&] { ++applied; });
        {
            auto elsewhere = std::make_shared<app::StoreReadGuard>(other, store);
            QCOMPARE(other->running(*store), 1);
            QCOMPARE(mine->running(*store), 0);
            QCOMPARE(mine->running(), 0);
            manual->push(podArrives("a-1", "web-1"));
            QTRY_COMPARE_WITH_TIMEOUT(applied, 1, 20000);
            QCOMPARE(live.readerWaits(), std::uint64_t { 0 });
        }
        auto reading = std::make_shared<app::StoreReadGuard>(mine, store);
        manual->push(podArrives("a-1", "web-2"));
        QTRY_VERIFY_WITH_TIMEOUT(!live.waitingReason().isEmpty(), 20000);
        QCOMPARE(applied, 1);
        reading.reset();
        QTRY_COMPARE_WITH_TIMEOUT(applied, 2, 20000);
        QCOMPARE(live.readerWaits(), std::uint64_t { 1 });
        live.stop();
    }

    // Two windows' live clusters: a worker reading window A's store holds A's batches (they
    // wait, queued, and the store does not change) while window B's are applied at once; when
    // A's reader ends, A's batch is applied.
    void aReaderHoldsOnlyItsOwnStoresBatches()
    {
        const auto storeA = oneNodeStore("a-1"), storeB = oneNodeStore("b-1");
        const auto readers = std::make_shared<app::StoreReaders>(); // both windows' (one process)
        app::LiveController liveA(readers), liveB(readers);
        auto feedA = std::make_unique<fleettest::ManualFeed>(), feedB = std::make_unique<fleettest::ManualFeed>();
        fleettest::ManualFeed* manualA = feedA.get();
        fleettest::ManualFeed* manualB = feedB.get();
        liveA.start(std::move(feedA), storeA);
        liveB.start(std::move(feedB), storeB);
        // start() indexes pod names on a worker that reads the store: let those end first.
        QTRY_COMPARE_WITH_TIMEOUT(readers->running(*storeA), 0, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(readers->running(*storeB), 0, 20000);

        QElapsedTimer held;
        held.start();
        auto reading = std::make_shared<app::StoreReadGuard>(readers, storeA);
        int appliedA = 0, appliedB = 0; // diffApplied's batch cannot be copied into a QSignalSpy
        connect(&liveA, &app::LiveController::diffApplied, this, [&] { ++appliedA; });
        connect(&liveB, &app::LiveController::diffApplied, this, [&] { ++appliedB; });
        manualA->push(podArrives("a-1", "web-a"));
        manualB->push(podArrives("b-1", "web-b"));
        QTRY_COMPARE_WITH_TIMEOUT(appliedB, 1, 20000);
        QVERIFY(storeB->findPod("default", "web-b").isValid());
        // B's batch went through while A's reader runs; A's waits, and says why.
        QTRY_VERIFY_WITH_TIMEOUT(!liveA.waitingReason().isEmpty(), 20000);
        QCOMPARE(appliedA, 0);
        QCOMPARE(liveA.batchesWaiting(), std::size_t { 1 });
        QVERIFY(!storeA->findPod("default", "web-a").isValid());
        // One wait however many retries it takes; none for B.
        QTRY_VERIFY_WITH_TIMEOUT(liveA.readerWaitMsTotal() >= 100, 20000);
        QCOMPARE(liveA.readerWaits(), std::uint64_t { 1 });
        QCOMPARE(liveB.readerWaits(), std::uint64_t { 0 });
        QCOMPARE(liveB.readerWaitMsTotal(), 0.0);

        reading.reset();
        const double heldMs = static_cast<double>(held.nsecsElapsed()) / 1e6;
        QTRY_COMPARE_WITH_TIMEOUT(appliedA, 1, 20000);
        QVERIFY(storeA->findPod("default", "web-a").isValid());
        QCOMPARE(liveA.batchesWaiting(), std::size_t { 0 });
        QVERIFY(liveA.waitingReason().isEmpty());
        // The wait ended when the batch applied: it lasted no longer than the reader (plus the
        // retry timer's 50 ms, with room for a busy machine), and it is the longest.
        QCOMPARE(liveA.readerWaits(), std::uint64_t { 1 });
        const double waitedMs = liveA.readerWaitMsTotal();
        QVERIFY2(waitedMs >= 100 && waitedMs <= heldMs + 5000, qPrintable(QStringLiteral("waited %1 ms, held %2 ms").arg(waitedMs).arg(heldMs)));
        QCOMPARE(liveA.readerWaitMsLongest(), waitedMs);
        // A batch with no reader running does not wait.
        manualA->push(podArrives("a-1", "web-a2"));
        QTRY_COMPARE_WITH_TIMEOUT(appliedA, 2, 20000);
        QCOMPARE(liveA.readerWaits(), std::uint64_t { 1 });
        QCOMPARE(liveA.readerWaitMsTotal(), waitedMs);
        liveA.stop();
        liveB.stop();
    }
};

QTEST_GUILESS_MAIN(TestStoreReaders)
#include "tst_storereaders.moc"
