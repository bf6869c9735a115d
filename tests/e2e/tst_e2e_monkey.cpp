// SPDX-License-Identifier: Apache-2.0
// A monkey on the real window: seeded random clicks, right-clicks (and a menu item or Escape),
// double-clicks, drags on the map and from the node inspector's pod table onto the map, wheel,
// keys, undo and redo, for FLEET_MONKEY_SECONDS (default 45: CI; an hour by hand:
// FLEET_MONKEY_SECONDS=3600) on a simulated 2,000-node fleet. It fails on a crash, on a GUI
// thread that does not answer within 1 s (GuiStallProbe: _NET_WM_PING, answered by the event
// loop), or on a program that does not quit cleanly at the end (undo until the title loses
// its modified mark, Ctrl+Q, Discard when the document keeps changes Undo does not take back;
// exit code 0), and prints its seed (FLEET_MONKEY_SEED replays one) and its last actions.

#include "e2e/desktopsession.h"

#include <QRandomGenerator>
#include <QtTest>

#include <deque>
#include <random>

using fleet::e2e::DesktopSession;
using fleet::e2e::GuiStallProbe;

namespace {

constexpr int kKeptActions = 40;

int envInt(const char* name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok ? v : fallback;
}

} // namespace

class TestE2eMonkey : public QObject {
    Q_OBJECT
private slots:
    void monkey();
};

void TestE2eMonkey::monkey()
{
    const quint32 seed = static_cast<quint32>(envInt("FLEET_MONKEY_SEED", static_cast<int>(QRandomGenerator::global()->bounded(1 << 30))));
    const int seconds = envInt("FLEET_MONKEY_SECONDS", 45);
    // The longest the GUI thread may go without answering (docs/e2e-tests.md: what a loaded
    // CI machine shows, and why 1 s).
    const double stallLimitMs = envInt("FLEET_MONKEY_STALL_MS", 1000);
    std::printf("monkey: seed %u for %d s, stall limit %.0f ms (replay: FLEET_MONKEY_SEED=%u FLEET_MONKEY_SECONDS=%d)\n", seed, seconds,
        stallLimitMs, seed, seconds);
    std::fflush(stdout);
    std::mt19937 rng(seed);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };

    DesktopSession s;
    QVERIFY2(s.startDesktop(1600, 1000), qPrintable(s.error()));
    const QSize windowSize(1400, 900);
    QVERIFY2(s.startApp({ QStringLiteral("--simulate"), QStringLiteral("2000"), QStringLiteral("--seed"), QStringLiteral("3") }, windowSize),
        qPrintable(s.error()));
    GuiStallProbe probe;
    QString error;
    QVERIFY2(probe.start(s.display(), s.window(), 100, error), qPrintable(error));

    std::deque<QString> last;
    auto remember = [&](const QString& what) {
        last.push_back(what);
        if (last.size() > kKeptActions)
            last.pop_front();
    };
    auto report = [&](const QString& why) {
        QString text = QStringLiteral("monkey seed %1: %2\nlast actions (oldest first):\n").arg(seed).arg(why);
        for (const QString& a : last)
            text += QStringLiteral("  ") + a + QLatin1Char('\n');
        text += QStringLiteral("program output (end):\n") + s.appOutput(3000);
        return text;
    };

    const QRect win = s.windowRect();
    // Below the menu bar (its items open dialogs and Quit, which a monkey must not reach) and
    // above the status bar: the toolbar, the map, the docks.
    const QRect area = win.adjusted(0, 30, 0, -24);
    auto randomPoint = [&] { return QPoint(pick(area.left(), area.right()), pick(area.top(), area.bottom())); };
    // The inspector's pods, when open, sit in the right dock; a drag from there to the map
    // starts a platform drag (QDrag) over the embedded render window.
    auto dockPoint = [&] { return QPoint(pick(win.right() - 400, win.right() - 20), pick(win.top() + 380, win.bottom() - 60)); };
    static const QStringList keys { QStringLiteral("plus"), QStringLiteral("minus"), QStringLiteral("Left"), QStringLiteral("Right"),
        QStringLiteral("Up"), QStringLiteral("Down"), QStringLiteral("Home"), QStringLiteral("z"), QStringLiteral("Escape"),
        QStringLiteral("ctrl+1"), QStringLiteral("ctrl+2"), QStringLiteral("ctrl+3"), QStringLiteral("ctrl+6"), QStringLiteral("ctrl+z"),
        QStringLiteral("ctrl+shift+z"), QStringLiteral("ctrl+y"), QStringLiteral("ctrl+d"), QStringLiteral("Menu"), QStringLiteral("ctrl+0") };

    QElapsedTimer clock;
    clock.start();
    int actions = 0;
    double worstMs = 0; // the longest GUI answer so far, and the action it was seen after
    QString worstAfter;
    while (clock.elapsed() < seconds * 1000LL) {
        const int kind = pick(0, 99);
        QString what;
        bool ok = true;
        if (kind < 22) {
            const QPoint p = randomPoint();
            what = QStringLiteral("click %1,%2").arg(p.x()).arg(p.y());
            ok = s.click(p);
        } else if (kind < 32) {
            const QPoint p = randomPoint();
            const bool choose = pick(0, 1) == 1;
            what = QStringLiteral("right-click %1,%2 then %3").arg(p.x()).arg(p.y()).arg(choose ? QStringLiteral("its first item") : QStringLiteral("Escape"));
            ok = s.click(p, 3) && (choose ? s.key(QStringLiteral("Down")) && s.key(QStringLiteral("Return")) : s.key(QStringLiteral("Escape")));
        } else if (kind < 37) {
            const QPoint p = randomPoint();
            what = QStringLiteral("double-click %1,%2").arg(p.x()).arg(p.y());
            ok = s.doubleClick(p);
        } else if (kind < 52) {
            const QPoint a = randomPoint(), b = randomPoint();
            // Shift sometimes (a drop as an override), Ctrl sometimes (the whole workload).
            // Never Alt: the window manager's Alt+drag moves the whole window (openbox's
            // default, as on many desktops).
            QStringList mods;
            if (const int m = pick(0, 9); m == 0)
                mods << QStringLiteral("shift");
            else if (m == 1)
                mods << QStringLiteral("ctrl");
            what = QStringLiteral("drag %1,%2 -> %3,%4 %5").arg(a.x()).arg(a.y()).arg(b.x()).arg(b.y()).arg(mods.join(QLatin1Char('+')));
            ok = s.drag(a, b, pick(3, 12), 25, mods);
        } else if (kind < 62) {
            const QPoint a = dockPoint(), b = randomPoint();
            what = QStringLiteral("drag from the dock %1,%2 -> %3,%4").arg(a.x()).arg(a.y()).arg(b.x()).arg(b.y());
            ok = s.drag(a, b, pick(6, 14), 30);
        } else if (kind < 76) {
            const QPoint p = randomPoint();
            const int notches = pick(-3, 4);
            what = QStringLiteral("wheel %1 at %2,%3").arg(notches).arg(p.x()).arg(p.y());
            ok = notches == 0 || s.wheel(p, notches);
        } else {
            const QString k = keys[pick(0, static_cast<int>(keys.size()) - 1)];
            what = QStringLiteral("key %1").arg(k);
            ok = s.key(k);
        }
        remember(what);
        ++actions;
        if (const double now = probe.longestMs(); now > worstMs) {
            worstMs = now;
            worstAfter = what;
        }
        if (!s.appRunning())
            QFAIL(qPrintable(report(QStringLiteral("the program ended (%1) after %2 actions").arg(s.appExitText()).arg(actions))));
        if (!ok)
            QFAIL(qPrintable(report(QStringLiteral("xdotool failed: %1").arg(s.error()))));
        if (probe.longestMs() > stallLimitMs)
            QFAIL(qPrintable(report(QStringLiteral("the GUI thread did not answer for %1 ms (%2 pings answered before)%3")
                                        .arg(probe.longestMs(), 0, 'f', 0)
                                        .arg(probe.answered())
                                        .arg(probe.answered() == 0 ? QStringLiteral(": the probe heard no answer at all") : QString()))));
    }
    // The quit: close what is open, take the plan back, quit. Undo of a
    // large step runs on a worker, and Undo waits while it runs, so a fixed count of Ctrl+Z
    // may leave the plan changed: undo in bursts until the title loses its modified mark
    // ("name* — Fleetscope"), for at most 20 s.
    s.key(QStringLiteral("Escape"));
    s.key(QStringLiteral("Escape"));
    auto modified = [&] { return s.windowTitle().contains(QStringLiteral("* \u2014 Fleetscope")); };
    int undoBursts = 0;
    QElapsedTimer undoClock;
    undoClock.start();
    while (modified() && undoClock.elapsed() < 20000) {
        s.xdotool({ QStringLiteral("key"), QStringLiteral("--clearmodifiers"), QStringLiteral("--repeat"), QStringLiteral("100"),
            QStringLiteral("--delay"), QStringLiteral("4"), QStringLiteral("ctrl+z") });
        ++undoBursts;
        fleet::e2e::waitUntil([&] { return !modified(); }, 1000);
    }
    const bool clean = !modified();
    // FLEET_MONKEY_SHOT=FILE.png keeps the screen as the quit begins (to see what a replay
    // left open or changed).
    if (const QString shot = qEnvironmentVariable("FLEET_MONKEY_SHOT"); !shot.isEmpty())
        s.grabScreen().save(shot);
    remember(QStringLiteral("Escape, Escape, %1 x 100 ctrl+z (%2), ctrl+q")
                 .arg(undoBursts)
                 .arg(clean ? QStringLiteral("plan unmodified") : QStringLiteral("still modified: ") + s.windowTitle()));
    const double longest = probe.longestMs();
    const int answered = probe.answered();
    probe.stop();
    std::printf("monkey: seed %u, %d actions in %.0f s, %d pings answered, longest GUI answer %.0f ms (seen after: %s); %d undo burst(s), %s\n",
        seed, actions, clock.elapsed() / 1000.0, answered, longest, qPrintable(worstAfter), undoBursts,
        clean ? "plan unmodified" : qPrintable(QStringLiteral("still modified: \"%1\", windows: %2")
                                                   .arg(s.windowTitle(), s.visibleWindowTitles().join(QStringLiteral(" | ")))));
    std::fflush(stdout);
    QVERIFY2(answered > 0, "the stall probe got no answer at all: it measured nothing");
    if (clean) {
        // Nothing to save: Ctrl+Q ends the program at once, with no question.
        if (!s.quitApp())
            QFAIL(qPrintable(report(QStringLiteral("no clean quit: %1 (%2; windows: %3)")
                                        .arg(s.error(), s.appExitText(), s.visibleWindowTitles().join(QStringLiteral(" | "))))));
        return;
    }
    // Changes that Undo does not take back (a plan made with the Plans dock's New Plan or
    // Duplicate Plan, a renamed plan) are the document's: Ctrl+Q asks to save them, and
    // Discard quits.
    if (!s.xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(s.window()) }) || !s.key(QStringLiteral("ctrl+q")))
        QFAIL(qPrintable(report(QStringLiteral("xdotool failed: %1").arg(s.error()))));
    if (!s.waitForWindow(QStringLiteral("^Unsaved (Changes|Plan)$")))
        QFAIL(qPrintable(report(QStringLiteral("Ctrl+Q on a modified plan asked nothing: %1 (%2; windows: %3)")
                                    .arg(s.error(), s.appExitText(), s.visibleWindowTitles().join(QStringLiteral(" | "))))));
    s.key(QStringLiteral("alt+d"));
    if (!s.waitForAppExit())
        QFAIL(qPrintable(report(QStringLiteral("no clean quit after Discard: %1 (%2; windows: %3)")
                                    .arg(s.error(), s.appExitText(), s.visibleWindowTitles().join(QStringLiteral(" | "))))));
}

QTEST_GUILESS_MAIN(TestE2eMonkey)
#include "tst_e2e_monkey.moc"
