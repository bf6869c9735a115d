// SPDX-License-Identifier: Apache-2.0
#pragma once
// End-to-end tests drive the real fleetscope process as a person does: a private X server
// (Xvfb) with a window manager (openbox, for focus and keyboard as on a desktop), real X input
// through xdotool (pointer, buttons, wheel, keys), and results read back from what the program
// itself writes and shows: a plan it saves through its own File > Save Plan dialog, node cell
// coordinates from its own `screenshot --print-cell`, and screenshots of the screen read as
// pixels (ImageMagick's `import`). Nothing here reaches into the program's objects: synthetic
// Qt events skip the native render window, its QWindowContainer, the platform's drag and
// context-menu paths, where the defects a person meets live (STYLE.md, "Tests").
//
// Every wait is for a condition with a timeout (a window to appear, a file to be written, a
// pixel to change); the only fixed pauses pace a drag's pointer moves as a hand would, since
// X input has no acknowledgement.
//
// Needs: Xvfb, openbox, xdotool, xwininfo (x11-utils), ImageMagick (installer/install-deps.sh).

#include "app/xvfb/privatexserver.h"

#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QMap>
#include <QPoint>
#include <QProcess>
#include <QRect>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

namespace fleet::e2e {

/// Polls `condition` (every 20 ms, the event loop running) until it holds or `timeoutMs`
/// passes; returns whether it held.
bool waitUntil(const std::function<bool()>& condition, int timeoutMs);

/// How long a wait for the program's answer to an input (a dialog to open or close, a file to
/// be written, the screen to settle) lasts by default. On a loaded 2-core machine (ctest -j2
/// beside other builds) a dialog that opens in under a second idle took over 15 s; a wait ends
/// as soon as its condition holds, so only a failure waits this long.
inline constexpr int kAnswerTimeoutMs = 60000;

/// Measures how long the program's GUI thread takes to answer: sends the EWMH _NET_WM_PING
/// client message to its window every `intervalMs` from a thread of its own (its own X
/// connection) and records the reply's delay. Qt's xcb plugin answers the ping from the GUI
/// thread's event dispatch, so a long delay is a GUI thread that did not return to its event
/// loop (a stall), whatever the program was doing. Thread: start and stop on the test's thread.
class GuiStallProbe {
public:
    GuiStallProbe() = default;
    ~GuiStallProbe();
    GuiStallProbe(const GuiStallProbe&) = delete;
    GuiStallProbe& operator=(const GuiStallProbe&) = delete;
    /// Starts pinging window `window` on `display`. False with `error` when X cannot be opened.
    bool start(const QString& display, quint32 window, int intervalMs, QString& error);
    void stop();
    /// The longest reply delay seen (ms), counting a ping still unanswered by its age now.
    [[nodiscard]] double longestMs() const;
    /// Pings sent and answered so far.
    [[nodiscard]] int answered() const { return m_answered.load(); }

private:
    void run(int intervalMs);
    void* m_connection = nullptr; // xcb_connection_t
    quint32 m_window = 0;
    quint32 m_root = 0;
    quint32 m_protocols = 0, m_ping = 0;
    std::thread m_thread;
    std::atomic<bool> m_stop { false };
    std::atomic<int> m_answered { 0 };
    mutable std::mutex m_mutex;
    double m_longestMs = 0;
    QElapsedTimer m_clock;
    qint64 m_pendingSinceMs = -1; // when the unanswered ping was sent; -1 none
};

/// One private desktop: Xvfb (PrivateXServer) of a given size and openbox on it, and the
/// fleetscope process the test starts there. Destroying it ends the program (SIGKILL if it
/// is still running), the window manager and the server. Thread: the test's thread.
class DesktopSession {
public:
    DesktopSession();
    ~DesktopSession();

    /// Starts the X server (`widthPx` x `heightPx`) and openbox, and waits until the window
    /// manager runs (it answers _NET_NUMBER_OF_DESKTOPS); a desktop that does not come up
    /// within 40 s is started again on a new display, three tries in all. False with error()
    /// set (what each try saw) on failure.
    bool startDesktop(int widthPx, int heightPx);
    /// Starts fleetscope with `arguments` and a private HOME, and waits (at most
    /// `timeoutMs`) for its window to show a loaded cluster (its title "... — Fleetscope"),
    /// then moves it to the screen's top-left corner at `windowSize` (an empty size: leaves it
    /// where the program and the window manager put it) and gives it the focus.
    /// `beforePlacing`, when given, runs once the window shows a cluster and before it is moved
    /// and activated (answering a question the program asks at its start); false fails the start.
    /// Last it waits (at most `stillTimeoutMs`) for the screen to settle (waitForStillScreen()).
    bool startApp(const QStringList& arguments, const QSize& windowSize, int timeoutMs = 60000,
        const std::function<bool()>& beforePlacing = {}, int stillTimeoutMs = kAnswerTimeoutMs);

    /// The path of the program under test: $FLEETSCOPE_E2E_EXECUTABLE when set (to run the
    /// same tests against another build, e.g. to see them fail before a fix), else the one
    /// built with the tests.
    [[nodiscard]] static QString executable();
    [[nodiscard]] QString display() const { return QString::fromStdString(m_xserver.display()); }
    [[nodiscard]] QString error() const { return m_error; }
    [[nodiscard]] quint32 window() const { return m_window; }
    /// The window's client area on the screen (X, Y, width, height), as xwininfo reports it.
    [[nodiscard]] QRect windowRect();
    /// A private folder for this session's files (plans, screenshots).
    [[nodiscard]] QString path(const QString& name) const { return m_dir.filePath(name); }
    /// Keeps that folder after the session (a failure's images), as FLEET_E2E_KEEP=1 does.
    void keepFiles() { m_dir.setAutoRemove(false); }

    /// An environment variable for the programs started from now on (FLEET_AUTOSAVE_MS=500).
    void setAppEnvironment(const QString& name, const QString& value) { m_extraEnvironment.insert(name, value); }
    /// Waits for the program to exit by itself; true when it exited with code 0 within `timeoutMs`.
    bool waitForAppExit(int timeoutMs = 20000);
    /// Kills the program (SIGKILL, as a crash or the OOM killer ends it) and waits for it.
    bool killApp();
    /// The main window's title as the window manager sees it ("doc.fleet* — Fleetscope"), "" on failure.
    [[nodiscard]] QString windowTitle();
    /// The private HOME the program runs with (its data folder is under .local/share).
    [[nodiscard]] QString home() const { return m_dir.filePath(QStringLiteral("home")); }

    /// Whether the program still runs; its exit code and status once it ended.
    [[nodiscard]] bool appRunning() const;
    [[nodiscard]] QString appExitText() const;
    /// What the program wrote on stderr and stdout so far (the last `maxChars` of it).
    [[nodiscard]] QString appOutput(int maxChars = 4000);

    /// Runs xdotool with `args` on this display and waits for it (10 s at most). False with
    /// error() set when it failed. Every input helper below goes through it.
    bool xdotool(const QStringList& args, QString* output = nullptr);
    bool moveTo(const QPoint& screen);
    bool click(const QPoint& screen, int button = 1);
    bool doubleClick(const QPoint& screen);
    /// Presses the left button at `from`, moves to `to` in `steps` moves paced `stepMs`
    /// apart (a hand's speed; X input has no acknowledgement to wait for), releases. With
    /// `modifiers` (xdotool names: "alt", "shift", "ctrl") held from before the press.
    bool drag(const QPoint& from, const QPoint& to, int steps = 12, int stepMs = 30, const QStringList& modifiers = {});
    /// Scrolls `notches` wheel steps (positive: up, zoom in) at `screen`.
    bool wheel(const QPoint& screen, int notches);
    /// xdotool key names: "ctrl+z", "Menu", "Escape", "Down", "Return".
    bool key(const QString& keys);
    bool type(const QString& text);

    /// Waits (at most `timeoutMs`) for a visible window whose title matches the regular
    /// expression `title` (xdotool search --name: a dialog the program opened); its X id, 0
    /// when none showed (error() says so).
    quint32 waitForWindow(const QString& title, int timeoutMs = kAnswerTimeoutMs);
    /// Waits until no visible window's title matches `title`; false after `timeoutMs`.
    bool waitForNoWindow(const QString& title, int timeoutMs = kAnswerTimeoutMs);
    /// Gives the main window the focus (xdotool windowactivate --sync); false when it did not take it.
    bool activateMainWindow();
    /// Waits (at most `timeoutMs`) until the program has handled every input sent to it so far:
    /// three _NET_WM_PING round trips to its main window in a row. X delivers the program's
    /// events in order and Qt answers a ping from the GUI thread's event dispatch, after the
    /// events read before it; the second and third pings arrive once the dispatch that read a
    /// key has gone on to deliver it (a dialog the key opens is created, named and mapped before
    /// its own event loop answers). False with error() set when no answer came.
    bool waitForInputHandled(int timeoutMs = kAnswerTimeoutMs);
    /// Whether the plan is empty: File > Save Plan (Ctrl+Alt+S) is disabled then and opens no
    /// dialog. Known once the program handled the key (waitForInputHandled()), not from a dialog
    /// that did not show within some time (a slow one then took the keys typed next); a dialog
    /// that opened is closed again (Escape). False also when the program does not answer.
    bool planIsEmpty(int timeoutMs = kAnswerTimeoutMs);
    /// The titles of every visible window on the display (the main window, dialogs, menus,
    /// floating docks), one per window, for a failure report; empty when none or on failure.
    [[nodiscard]] QStringList visibleWindowTitles();

    /// The screen as an image (ImageMagick's `import -window root`), null on failure.
    QImage grabScreen();
    /// Waits until two screenshots in a row are the same (the program painted what it was
    /// asked: a resize, a new layout), or only their `region` when given; false after `timeoutMs`.
    bool waitForStillScreen(int timeoutMs = kAnswerTimeoutMs, const QRect& region = {});

    /// File > Save Plan (Ctrl+Alt+S, the main window activated first: no dialog may be open)
    /// and the window's own file dialog, activated before the
    /// path is typed into it; waits for the file to appear. False (error() says why) when the
    /// dialog or file never did.
    bool savePlanAs(const QString& path, int timeoutMs = kAnswerTimeoutMs);
    /// Reads a saved plan's actions (the "actions" array of plan-v1). Empty when unreadable.
    [[nodiscard]] static QJsonArray planActions(const QString& path);

    /// The map's drawing area (its GL view, without the legend) on `screen`: the bounding box
    /// of the map's background colour inside the window. Valid at the fitted zoom, where a
    /// margin of background surrounds the cells. Null when none is seen.
    [[nodiscard]] QRect mapArea(const QImage& screen);
    /// Where each node's cell is on the screen now (fitted zoom), keyed by node name: the map
    /// area measured on a screenshot, and `fleetscope screenshot --map-only --size WxH
    /// --print-cell NODE...` for a map of that size on the same `sourceArguments` (the same
    /// layout). Checks first that the headless map and the one on the screen look the same
    /// (error() says how far they differ when not). Empty on failure; a node off screen is missing.
    QMap<QString, QPoint> mapCells(const QStringList& sourceArguments, const QStringList& nodes);

    /// Asks the program to quit (File > Quit, Ctrl+Q) and waits for it to exit, answering
    /// Discard when it asks about undone steps Redo could bring back; true when it exited by
    /// itself with code 0 within `timeoutMs`.
    bool quitApp(int timeoutMs = 20000);

private:
    bool startDesktopOnce(int widthPx, int heightPx, QString& why);
    void stopDesktop();

    fleet::app::PrivateXServer m_xserver;
    QTemporaryDir m_dir;
    QProcess m_wm;
    QProcess m_app;
    QByteArray m_appOutput;
    quint32 m_window = 0;
    QString m_error;
    QMap<QString, QString> m_extraEnvironment;
    int m_screens = 0; // screenshots taken (their file names)
    int m_legendWidth = -1; // the map legend's width, measured once (mapCells)
    [[nodiscard]] QProcessEnvironment environment() const;
    /// Runs `fleetscope screenshot --map-only` at `size` with --print-cell for `nodes`; the
    /// image and the printed cells (map coordinates).
    bool headlessMap(const QStringList& sourceArguments, const QSize& size, const QStringList& nodes, QImage& image,
        QMap<QString, QPoint>& cells);
};

} // namespace fleet::e2e
