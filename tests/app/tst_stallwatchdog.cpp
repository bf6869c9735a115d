// SPDX-License-Identifier: Apache-2.0
// StallWatchdog (app/window/stallwatchdog.h): a turn of the event loop that a busy GUI thread holds for
// 150 ms is recorded as a stall of at least that long, charged to the context set while it ran;
// turns with nothing to do are not stalls of that size; reset() forgets; a stopped watchdog
// records nothing.

#include "app/window/stallwatchdog.h"

#include "common/eventloop.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QtTest>

using fleet::app::StallWatchdog;

namespace {

/// Holds the calling thread busy (not asleep: the event loop cannot turn) for `ms`.
void busyFor(int ms)
{
    QElapsedTimer clock;
    clock.start();
    volatile std::uint64_t spin = 0;
    while (clock.elapsed() < ms)
        spin = spin + 1;
}

} // namespace

class TestStallWatchdog : public QObject {
    Q_OBJECT
private slots:
    void recordsABusyTurnWithItsContext()
    {
        StallWatchdog watchdog;
        watchdog.start();
        QVERIFY(watchdog.isRunning());
        QTRY_VERIFY(watchdog.gapsMs().size() >= 5); // the loop turns
        // A loaded machine may have held the loop as long before the context was set (a stall
        // charged to no context, the longest one then): forgotten, and turns counted afresh.
        watchdog.reset();
        watchdog.setContext(QStringLiteral("flow / busy"));
        QTRY_VERIFY(watchdog.gapsMs().size() >= 5);
        QTimer::singleShot(0, [] { busyFor(150); });
        QTRY_VERIFY(watchdog.maxStallMs() >= 140.0);
        QCOMPARE(watchdog.maxStallContext(), QStringLiteral("flow / busy"));
        QVERIFY(watchdog.stallsOver(StallWatchdog::kBudgetMs) >= 1);
        QVERIFY(watchdog.quantileMs(1.0) >= 140.0);
        QVERIFY(watchdog.quantileMs(0.0) < 140.0);
        bool charged = false;
        for (const StallWatchdog::Stall& s : watchdog.stalls())
            charged = charged || (s.ms >= 140.0 && s.context == QStringLiteral("flow / busy"));
        QVERIFY(charged);

        watchdog.reset();
        QCOMPARE(watchdog.maxStallMs(), 0.0);
        QVERIFY(watchdog.stalls().empty());
        watchdog.stop();
        QVERIFY(!watchdog.isRunning());
        busyFor(80);
        QVERIFY(fleet::testing::deliverPostedEvents()); // a running watchdog's tick, due by now, fires here
        QVERIFY(watchdog.gapsMs().empty());
    }
};

QTEST_GUILESS_MAIN(TestStallWatchdog)
#include "tst_stallwatchdog.moc"
