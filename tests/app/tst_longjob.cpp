// SPDX-License-Identifier: Apache-2.0
// LongJob (app/controllers/longjob.h): the result reaches `done` on the GUI thread after the job
// ended, with the last progress before it; a cancel reaches the work and its result still comes;
// a new start() drops the older job's result (released off the GUI thread, never delivered); the
// progress dialog shows only once the delay has passed and its Cancel cancels; an owner destroyed
// while its job runs is never called back. Offscreen widgets; every wait is for a condition.

#include "app/controllers/longjob.h"

#include <QElapsedTimer>
#include <QProgressDialog>
#include <QScopeGuard>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include <atomic>
#include <memory>
#include <string>

using fleet::app::LongJob;
using fleet::app::LongJobToken;

namespace {

/// A worker's result that records where and whether it was destroyed (moved-from copies do not).
struct Tracked {
    std::string name;
    bool cancelled = false;
    std::shared_ptr<std::atomic<bool>> released;
    std::shared_ptr<std::atomic<bool>> releasedOnGuiThread;
    Tracked() = default;
    Tracked(Tracked&&) = default;
    Tracked& operator=(Tracked&&) = default;
    ~Tracked()
    {
        if (!released)
            return;
        if (releasedOnGuiThread)
            releasedOnGuiThread->store(QThread::currentThread() == QCoreApplication::instance()->thread());
        released->store(true);
    }
};

/// Work that waits until `gate` is released or the job is cancelled, then names itself.
struct GatedWork {
    std::string name;
    std::shared_ptr<QSemaphore> gate;
    std::shared_ptr<std::atomic<bool>> released;
    std::shared_ptr<std::atomic<bool>> releasedOnGuiThread;
    Tracked operator()(LongJobToken& token) const
    {
        token.setProgress(0.25);
        while (!token.isCancelled() && !gate->tryAcquire(1, 5)) { }
        token.setProgress(1.0);
        Tracked r;
        r.name = name;
        r.cancelled = token.isCancelled();
        r.released = released;
        r.releasedOnGuiThread = releasedOnGuiThread;
        return r;
    }
};

/// Opens `gate` when the test function ends, passed or not: a failed check never leaves a worker
/// waiting (the pool would wait for it at exit).
auto openAtEnd(const std::shared_ptr<QSemaphore>& gate)
{
    return qScopeGuard([gate] { gate->release(1000); });
}

LongJob::Options options(int delayMs = 200)
{
    LongJob::Options o;
    o.dialogName = QStringLiteral("testJobProgress");
    o.title = QStringLiteral("Test Job");
    o.delayMs = delayMs;
    return o;
}

} // namespace

class TestLongJob : public QObject {
    Q_OBJECT
private slots:
    void resultComesOnTheGuiThreadAfterTheJobEnded();
    void cancelReachesTheWorkAndTheResultStillComes();
    void newStartDropsTheOlderResult();
    void dialogShowsOnlyAfterTheDelayAndItsCancelCancels();
    void ownerDestroyedWhileRunningIsNeverCalledBack();
    void stepsOfOneJobAndDrop();
};

void TestLongJob::resultComesOnTheGuiThreadAfterTheJobEnded()
{
    QWidget parent;
    LongJob job(&parent, options(), nullptr);
    QSignalSpy progressed(&job, &LongJob::progressed);
    bool done = false, ranOnWorker = false, onGuiThread = false, runningInDone = true;
    int result = 0;
    job.start(QStringLiteral("Counting\u2026"),
        [&ranOnWorker, gui = QThread::currentThread()](LongJobToken& token) {
            ranOnWorker = QThread::currentThread() != gui;
            token.setProgress(1.0);
            return 42;
        },
        [&](int r) {
            done = true;
            result = r;
            onGuiThread = QThread::currentThread() == QCoreApplication::instance()->thread();
            runningInDone = job.isRunning();
        });
    QVERIFY(job.isRunning());
    QTRY_VERIFY(done);
    QCOMPARE(result, 42);
    QVERIFY(ranOnWorker);
    QVERIFY(onGuiThread);
    QVERIFY(!runningInDone); // `done` may start the next job
    QVERIFY(!job.isRunning());
    QVERIFY(!progressed.isEmpty());
    QCOMPARE(progressed.last().at(0).toInt(), 100);
    QVERIFY(job.dialog());
    QVERIFY(!job.dialog()->isVisible()); // ended long before the delay
}

void TestLongJob::cancelReachesTheWorkAndTheResultStillComes()
{
    QWidget parent;
    LongJob job(&parent, options(), nullptr);
    QSignalSpy cancelRequested(&job, &LongJob::cancelRequested);
    auto gate = std::make_shared<QSemaphore>();
    const auto opened = openAtEnd(gate);
    std::optional<Tracked> got;
    const auto token = job.start(QStringLiteral("Waiting\u2026"), GatedWork { "a", gate, nullptr, nullptr }, [&](Tracked r) { got = std::move(r); });
    QVERIFY(!token->isCancelled());
    job.cancel();
    QVERIFY(token->isCancelled());
    QCOMPARE(cancelRequested.count(), 1);
    QVERIFY(job.isRunning()); // until the work returns
    QTRY_VERIFY(got.has_value());
    QCOMPARE(got->name, std::string("a"));
    QVERIFY(got->cancelled);
    QVERIFY(!job.isRunning());
    job.cancel(); // nothing runs: nothing happens
    QCOMPARE(cancelRequested.count(), 1);
}

void TestLongJob::newStartDropsTheOlderResult()
{
    QWidget parent;
    LongJob job(&parent, options(), nullptr);
    auto gateA = std::make_shared<QSemaphore>(), gateB = std::make_shared<QSemaphore>();
    const auto openedA = openAtEnd(gateA), openedB = openAtEnd(gateB);
    auto releasedA = std::make_shared<std::atomic<bool>>(false), onGuiA = std::make_shared<std::atomic<bool>>(true);
    int doneA = 0;
    std::optional<Tracked> gotB;
    const auto tokenA = job.start(QStringLiteral("A"), GatedWork { "a", gateA, releasedA, onGuiA }, [&](Tracked) { ++doneA; });
    const auto tokenB = job.start(QStringLiteral("B"), GatedWork { "b", gateB, nullptr, nullptr }, [&](Tracked r) { gotB = std::move(r); });
    QVERIFY(tokenA->isCancelled()); // superseded: its work stops
    QVERIFY(!job.isCurrent(tokenA));
    QVERIFY(job.isCurrent(tokenB));
    // A's result came back and was released, never delivered, and not on the GUI thread.
    QTRY_VERIFY(releasedA->load());
    QVERIFY(!onGuiA->load());
    QCOMPARE(doneA, 0);
    QVERIFY(job.isRunning()); // B still runs
    gateB->release();
    QTRY_VERIFY(gotB.has_value());
    QCOMPARE(gotB->name, std::string("b"));
    QVERIFY(!gotB->cancelled);
    QCOMPARE(doneA, 0);
}

void TestLongJob::dialogShowsOnlyAfterTheDelayAndItsCancelCancels()
{
    constexpr int kDelayMs = 300;
    QWidget parent;
    parent.show();
    LongJob job(&parent, options(kDelayMs), nullptr);
    auto gate = std::make_shared<QSemaphore>();
    const auto opened = openAtEnd(gate);
    std::optional<Tracked> got;
    QElapsedTimer clock;
    clock.start();
    job.start(QStringLiteral("Waiting\u2026"), GatedWork { "a", gate, nullptr, nullptr }, [&](Tracked r) { got = std::move(r); });
    QProgressDialog* dialog = job.dialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->objectName(), QStringLiteral("testJobProgress"));
    QCOMPARE(dialog->labelText(), QStringLiteral("Waiting\u2026"));
    QVERIFY(!dialog->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), 10000);
    QVERIFY2(clock.elapsed() >= kDelayMs, qPrintable(QString::number(clock.elapsed())));
    QTRY_COMPARE(dialog->value(), 25); // the worker's 0.25, polled
    auto* cancel = dialog->findChild<QPushButton*>();
    QVERIFY(cancel);
    cancel->click();
    QTRY_VERIFY(got.has_value());
    QVERIFY(got->cancelled);
    QVERIFY(!dialog->isVisible());
}

void TestLongJob::ownerDestroyedWhileRunningIsNeverCalledBack()
{
    QWidget parent;
    auto* owner = new QObject;
    auto* job = new LongJob(&parent, options(), owner);
    auto gate = std::make_shared<QSemaphore>();
    const auto opened = openAtEnd(gate);
    auto released = std::make_shared<std::atomic<bool>>(false), onGui = std::make_shared<std::atomic<bool>>(true);
    bool called = false;
    QPointer<QProgressDialog> dialog;
    const auto token = job->start(QStringLiteral("Waiting\u2026"), GatedWork { "a", gate, released, onGui }, [&called, owner](Tracked) {
        called = true;
        owner->setObjectName(QStringLiteral("touched")); // would be a use after free
    });
    dialog = job->dialog();
    QVERIFY(dialog);
    delete owner; // the LongJob with it, while the work runs
    QVERIFY(token->isCancelled());
    QVERIFY(!dialog); // the dialog went with the job
    QTRY_VERIFY(released->load()); // the result came back and was freed off the GUI thread
    QVERIFY(!onGui->load());
    QVERIFY(!called);
}

void TestLongJob::stepsOfOneJobAndDrop()
{
    QWidget parent;
    LongJob job(&parent, options(), nullptr);
    const auto token = job.begin(QStringLiteral("Step 1"));
    int first = 0, second = 0;
    job.run(token, [](LongJobToken&) { return 1; }, [&](int r) { first = r; });
    QTRY_COMPARE(first, 1);
    QVERIFY(job.isRunning()); // a step's result does not end the job
    QVERIFY(job.isCurrent(token));
    job.setLabel(QStringLiteral("Step 2"));
    QCOMPARE(job.dialog()->labelText(), QStringLiteral("Step 2"));
    job.run(token, [](LongJobToken&) { return 2; }, [&](int r) {
        second = r;
        job.end(token);
    });
    QTRY_COMPARE(second, 2);
    QVERIFY(!job.isRunning());

    // drop(): the job ends now, its result never comes.
    auto gate = std::make_shared<QSemaphore>();
    const auto opened = openAtEnd(gate);
    auto released = std::make_shared<std::atomic<bool>>(false);
    bool called = false;
    const auto dropped = job.start(QStringLiteral("Dropped"), GatedWork { "d", gate, released, nullptr }, [&](Tracked) { called = true; });
    job.drop();
    QVERIFY(!job.isRunning());
    QVERIFY(dropped->isCancelled());
    QTRY_VERIFY(released->load());
    QVERIFY(!called);
}

QTEST_MAIN(TestLongJob)
#include "tst_longjob.moc"
