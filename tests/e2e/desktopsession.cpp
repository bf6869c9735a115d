// SPDX-License-Identifier: Apache-2.0
#include "desktopsession.h"

#include <QElapsedTimer>
#include <QColor>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>

#include <xcb/xcb.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace fleet::e2e {

bool waitUntil(const std::function<bool()>& condition, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeoutMs)
            return condition();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        QThread::msleep(20);
    }
    return true;
}

// ---- GuiStallProbe -------------------------------------------------------------------------

namespace {
quint32 internAtom(xcb_connection_t* c, const char* name)
{
    xcb_intern_atom_reply_t* reply = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, static_cast<uint16_t>(std::strlen(name)), name), nullptr);
    const quint32 atom = reply ? reply->atom : 0;
    std::free(reply);
    return atom;
}
} // namespace

GuiStallProbe::~GuiStallProbe()
{
    stop();
}

bool GuiStallProbe::start(const QString& display, quint32 window, int intervalMs, QString& error)
{
    stop();
    int screenNumber = 0;
    auto* c = xcb_connect(display.toLocal8Bit().constData(), &screenNumber);
    if (!c || xcb_connection_has_error(c)) {
        error = QStringLiteral("cannot open X display %1 for the stall probe").arg(display);
        if (c)
            xcb_disconnect(c);
        return false;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; i < screenNumber && it.rem; ++i)
        xcb_screen_next(&it);
    m_connection = c;
    m_root = it.data->root;
    m_window = window;
    m_protocols = internAtom(c, "WM_PROTOCOLS");
    m_ping = internAtom(c, "_NET_WM_PING");
    // The answer is sent to the root window: Qt's xcb plugin sends it with the StructureNotify
    // and SubstructureRedirect masks (the latter is the window manager's), other clients with
    // SubstructureNotify; listening to SubstructureNotify alone heard no answer from Qt, and
    // every ping looked like a stall.
    const uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
    xcb_change_window_attributes(c, m_root, XCB_CW_EVENT_MASK, &mask);
    xcb_flush(c);
    m_clock.start();
    m_longestMs = 0;
    m_pendingSinceMs = -1;
    m_answered = 0;
    m_stop = false;
    m_thread = std::thread([this, intervalMs] { run(intervalMs); });
    return true;
}

void GuiStallProbe::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_connection)
        xcb_disconnect(static_cast<xcb_connection_t*>(m_connection));
    m_connection = nullptr;
}

double GuiStallProbe::longestMs() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    double longest = m_longestMs;
    if (m_pendingSinceMs >= 0)
        longest = std::max(longest, static_cast<double>(m_clock.elapsed() - m_pendingSinceMs));
    return longest;
}

void GuiStallProbe::run(int intervalMs)
{
    auto* c = static_cast<xcb_connection_t*>(m_connection);
    quint32 sequence = 1;
    qint64 nextPingMs = 0;
    while (!m_stop) {
        const qint64 now = m_clock.elapsed();
        bool pending = false;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            pending = m_pendingSinceMs >= 0;
            if (!pending && now >= nextPingMs) {
                xcb_client_message_event_t ping {};
                ping.response_type = XCB_CLIENT_MESSAGE;
                ping.format = 32;
                ping.window = m_window;
                ping.type = m_protocols;
                ping.data.data32[0] = m_ping;
                ping.data.data32[1] = ++sequence; // the timestamp field: matched in the answer
                ping.data.data32[2] = m_window;
                xcb_send_event(c, 0, m_window, XCB_EVENT_MASK_NO_EVENT, reinterpret_cast<const char*>(&ping));
                xcb_flush(c);
                m_pendingSinceMs = now;
            }
        }
        while (xcb_generic_event_t* e = xcb_poll_for_event(c)) {
            if ((e->response_type & 0x7f) == XCB_CLIENT_MESSAGE) {
                auto* m = reinterpret_cast<xcb_client_message_event_t*>(e);
                if (m->type == m_protocols && m->data.data32[0] == m_ping && m->data.data32[1] == sequence) {
                    std::lock_guard<std::mutex> lock(m_mutex);
                    if (m_pendingSinceMs >= 0)
                        m_longestMs = std::max(m_longestMs, static_cast<double>(m_clock.elapsed() - m_pendingSinceMs));
                    m_pendingSinceMs = -1;
                    ++m_answered;
                    nextPingMs = m_clock.elapsed() + intervalMs;
                }
            }
            std::free(e);
        }
        if (xcb_connection_has_error(c))
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

// ---- DesktopSession ------------------------------------------------------------------------

DesktopSession::DesktopSession()
{
    // FLEET_E2E_KEEP=1 keeps the session's folder (every screenshot, plan and headless map).
    if (qEnvironmentVariableIsSet("FLEET_E2E_KEEP")) {
        m_dir.setAutoRemove(false);
        std::printf("e2e: files in %s\n", qPrintable(m_dir.path()));
    }
    m_app.setProcessChannelMode(QProcess::MergedChannels);
    QObject::connect(&m_app, &QProcess::readyRead, &m_app, [this] { m_appOutput += m_app.readAll(); });
}

DesktopSession::~DesktopSession()
{
    if (m_app.state() != QProcess::NotRunning) {
        m_app.kill();
        m_app.waitForFinished(5000);
    }
    stopDesktop();
}

QString DesktopSession::executable()
{
    const QByteArray over = qgetenv("FLEETSCOPE_E2E_EXECUTABLE");
    return over.isEmpty() ? QStringLiteral(FLEETSCOPE_EXECUTABLE) : QString::fromLocal8Bit(over);
}

QProcessEnvironment DesktopSession::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display());
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("home/.config")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), m_dir.filePath(QStringLiteral("home/.cache")));
    // The data folder too (autosaves, read back by the tests under home/.local/share): an
    // XDG_DATA_HOME set on the machine put them in the user's own folder, shared with every
    // other run.
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("home/.local/share")));
    env.insert(QStringLiteral("XDG_STATE_HOME"), m_dir.filePath(QStringLiteral("home/.local/state")));
    env.remove(QStringLiteral("XAUTHORITY"));
    env.remove(QStringLiteral("QT_LOGGING_RULES"));
    for (auto it = m_extraEnvironment.begin(); it != m_extraEnvironment.end(); ++it)
        env.insert(it.key(), it.value());
    return env;
}

bool DesktopSession::waitForAppExit(int timeoutMs)
{
    if (appRunning() && !m_app.waitForFinished(timeoutMs)) {
        m_error = QStringLiteral("fleetscope did not exit within %1 ms").arg(timeoutMs);
        return false;
    }
    return m_app.exitStatus() == QProcess::NormalExit && m_app.exitCode() == 0;
}

bool DesktopSession::killApp()
{
    if (!appRunning())
        return true;
    m_app.kill();
    return m_app.waitForFinished(10000);
}

QString DesktopSession::windowTitle()
{
    QString title;
    if (!xdotool({ QStringLiteral("getwindowname"), QString::number(m_window) }, &title))
        return {};
    return title.trimmed();
}

bool DesktopSession::startDesktop(int widthPx, int heightPx)
{
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("no temporary folder");
        return false;
    }
    QDir().mkpath(m_dir.filePath(QStringLiteral("home/.config")));
    // A desktop that does not come up (openbox exiting on a display another program's
    // xvfb-run raced for, or starved of CPU beside another session) is started afresh on a
    // new display, up to three times; the error names what each try saw.
    QStringList tries;
    for (int attempt = 1; attempt <= 3; ++attempt) {
        QString why;
        if (startDesktopOnce(widthPx, heightPx, why)) {
            m_error.clear();
            return true;
        }
        tries.push_back(QStringLiteral("try %1: %2").arg(attempt).arg(why));
        stopDesktop();
    }
    m_error = tries.join(QStringLiteral("; "));
    return false;
}

bool DesktopSession::startDesktopOnce(int widthPx, int heightPx, QString& why)
{
    try {
        m_xserver.start(widthPx, heightPx);
    } catch (const std::exception& e) {
        why = QString::fromStdString(e.what());
        return false;
    }
    m_wm.setProcessEnvironment(environment());
    m_wm.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_wm.setStandardOutputFile(QProcess::nullDevice());
    m_wm.start(QStringLiteral("openbox"), { QStringLiteral("--sm-disable") });
    if (!m_wm.waitForStarted(10000)) {
        why = QStringLiteral("cannot start openbox (apt-get install openbox): %1").arg(m_wm.errorString());
        return false;
    }
    // The window manager runs once it has set the EWMH desktop count on the root window; an
    // openbox that exited will not, so stop waiting then.
    const bool up = waitUntil(
        [this] { return m_wm.state() == QProcess::NotRunning || xdotool({ QStringLiteral("get_num_desktops") }); }, 40000);
    if (up && m_wm.state() != QProcess::NotRunning)
        return true;
    if (m_wm.state() == QProcess::NotRunning)
        why = QStringLiteral("openbox exited (status %1) on %2").arg(m_wm.exitCode()).arg(display());
    else
        why = QStringLiteral("openbox did not come up on %1 within 40 s").arg(display());
    return false;
}

void DesktopSession::stopDesktop()
{
    if (m_wm.state() != QProcess::NotRunning) {
        m_wm.terminate();
        if (!m_wm.waitForFinished(3000)) {
            m_wm.kill();
            m_wm.waitForFinished(3000);
        }
    }
    m_xserver.stop();
}

bool DesktopSession::startApp(
    const QStringList& arguments, const QSize& windowSize, int timeoutMs, const std::function<bool()>& beforePlacing, int stillTimeoutMs)
{
    m_appOutput.clear();
    m_app.setProcessEnvironment(environment());
    m_app.start(executable(), arguments);
    if (!m_app.waitForStarted(10000)) {
        m_error = QStringLiteral("cannot start %1: %2").arg(executable(), m_app.errorString());
        return false;
    }
    // The title names the loaded cluster ("... — Fleetscope") once the import finished.
    QString ids;
    const bool shown = waitUntil(
        [&] {
            if (!appRunning())
                return true;
            ids.clear();
            return xdotool({ QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"),
                               QStringLiteral(". Fleetscope$") },
                       &ids)
                && !ids.trimmed().isEmpty();
        },
        timeoutMs);
    if (!appRunning()) {
        m_error = QStringLiteral("fleetscope ended before its window showed a cluster: %1\n%2").arg(appExitText(), appOutput());
        return false;
    }
    if (!shown) {
        m_error = QStringLiteral("no fleetscope window with a loaded cluster after %1 ms").arg(timeoutMs);
        return false;
    }
    m_window = ids.trimmed().split(QLatin1Char('\n')).first().toUInt();
    if (beforePlacing && !beforePlacing())
        return false;
    const QString wid = QString::number(m_window);
    if (windowSize.isEmpty()) // where the program and the window manager put it
        return xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), wid }) && waitForStillScreen();
    // The window manager may place the window after it showed (a race with our move): ask
    // again until it sits at the screen's corner with the size asked for.
    const QRect wanted(QPoint(0, 0), windowSize);
    if (!waitUntil(
            [&] {
                if (windowRect() == wanted)
                    return true;
                xdotool({ QStringLiteral("windowsize"), wid, QString::number(windowSize.width()), QString::number(windowSize.height()) });
                xdotool({ QStringLiteral("windowmove"), wid, QStringLiteral("0"), QStringLiteral("0") });
                return windowRect() == wanted;
            },
            10000)) {
        m_error = QStringLiteral("the window did not take the size %1x%2 (it is %3x%4)")
                      .arg(windowSize.width())
                      .arg(windowSize.height())
                      .arg(windowRect().width())
                      .arg(windowRect().height());
        return false;
    }
    if (!xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), wid }))
        return false;
    // Painted at its new size: what the screen shows has settled.
    return waitForStillScreen(stillTimeoutMs);
}

bool DesktopSession::waitForStillScreen(int timeoutMs, const QRect& region)
{
    const auto grab = [&] {
        QImage screen = grabScreen();
        return region.isEmpty() || screen.isNull() ? screen : screen.copy(region);
    };
    QImage last = grab();
    const bool still = waitUntil(
        [&] {
            QImage now = grab();
            const bool same = !now.isNull() && now == last;
            last = std::move(now);
            return same;
        },
        timeoutMs);
    if (!still)
        m_error = QStringLiteral("the screen kept changing for %1 ms").arg(timeoutMs);
    return still;
}

QRect DesktopSession::windowRect()
{
    // xwininfo's absolute position: xdotool's getwindowgeometry adds the window manager's
    // frame offsets to it (a window at the screen's corner reported at 1,20 under openbox).
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(QStringLiteral("xwininfo"), { QStringLiteral("-id"), QString::number(m_window) });
    if (!p.waitForFinished(10000) || p.exitCode() != 0) {
        m_error = QStringLiteral("xwininfo -id %1 failed (apt-get install x11-utils): %2")
                      .arg(m_window)
                      .arg(QString::fromLocal8Bit(p.readAllStandardError()));
        return {};
    }
    QRect r;
    for (const QString& raw : QString::fromLocal8Bit(p.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        const int value = line.section(QLatin1Char(':'), 1).trimmed().toInt();
        if (line.startsWith(QLatin1String("Absolute upper-left X:")))
            r.moveLeft(value);
        else if (line.startsWith(QLatin1String("Absolute upper-left Y:")))
            r.moveTop(value);
        else if (line.startsWith(QLatin1String("Width:")))
            r.setWidth(value);
        else if (line.startsWith(QLatin1String("Height:")))
            r.setHeight(value);
    }
    return r;
}

bool DesktopSession::appRunning() const
{
    return m_app.state() != QProcess::NotRunning;
}

QString DesktopSession::appExitText() const
{
    if (appRunning())
        return QStringLiteral("running");
    if (m_app.exitStatus() == QProcess::CrashExit)
        return QStringLiteral("crashed (%1)").arg(m_app.errorString());
    return QStringLiteral("exited with code %1").arg(m_app.exitCode());
}

QString DesktopSession::appOutput(int maxChars)
{
    m_appOutput += m_app.readAll();
    return QString::fromLocal8Bit(m_appOutput.right(maxChars));
}

bool DesktopSession::xdotool(const QStringList& args, QString* output)
{
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(QStringLiteral("xdotool"), args);
    if (!p.waitForStarted(5000)) {
        m_error = QStringLiteral("cannot run xdotool (apt-get install xdotool): %1").arg(p.errorString());
        return false;
    }
    // `--sync` steps wait for the window manager, which a loaded machine starves for seconds.
    if (!p.waitForFinished(kAnswerTimeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        m_error = QStringLiteral("xdotool %1: no answer in %2 ms").arg(args.join(QLatin1Char(' '))).arg(kAnswerTimeoutMs);
        return false;
    }
    if (output)
        *output = QString::fromLocal8Bit(p.readAllStandardOutput());
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        m_error = QStringLiteral("xdotool %1: %2").arg(args.join(QLatin1Char(' ')), QString::fromLocal8Bit(p.readAllStandardError()).trimmed());
        return false;
    }
    return true;
}

bool DesktopSession::moveTo(const QPoint& p)
{
    return xdotool({ QStringLiteral("mousemove"), QStringLiteral("--sync"), QString::number(p.x()), QString::number(p.y()) });
}

bool DesktopSession::click(const QPoint& p, int button)
{
    return xdotool({ QStringLiteral("mousemove"), QStringLiteral("--sync"), QString::number(p.x()), QString::number(p.y()),
        QStringLiteral("click"), QString::number(button) });
}

bool DesktopSession::doubleClick(const QPoint& p)
{
    return xdotool({ QStringLiteral("mousemove"), QStringLiteral("--sync"), QString::number(p.x()), QString::number(p.y()),
        QStringLiteral("click"), QStringLiteral("--repeat"), QStringLiteral("2"), QStringLiteral("--delay"), QStringLiteral("60"),
        QStringLiteral("1") });
}

bool DesktopSession::drag(const QPoint& from, const QPoint& to, int steps, int stepMs, const QStringList& modifiers)
{
    // One xdotool run: its own `sleep` paces the moves without a process start between them.
    QStringList args;
    for (const QString& m : modifiers)
        args << QStringLiteral("keydown") << m;
    args << QStringLiteral("mousemove") << QStringLiteral("--sync") << QString::number(from.x()) << QString::number(from.y());
    args << QStringLiteral("mousedown") << QStringLiteral("1");
    const QString pause = QString::number(stepMs / 1000.0, 'f', 3);
    for (int i = 1; i <= steps; ++i) {
        const QPoint p = from + (to - from) * i / steps;
        args << QStringLiteral("sleep") << pause << QStringLiteral("mousemove") << QString::number(p.x()) << QString::number(p.y());
    }
    // The last move again, so the target sees the pointer rest before the release.
    args << QStringLiteral("sleep") << pause << QStringLiteral("mousemove") << QString::number(to.x()) << QString::number(to.y() + 1);
    args << QStringLiteral("sleep") << pause << QStringLiteral("mouseup") << QStringLiteral("1");
    for (const QString& m : modifiers)
        args << QStringLiteral("keyup") << m;
    return xdotool(args);
}

bool DesktopSession::wheel(const QPoint& p, int notches)
{
    return xdotool({ QStringLiteral("mousemove"), QStringLiteral("--sync"), QString::number(p.x()), QString::number(p.y()),
        QStringLiteral("click"), QStringLiteral("--repeat"), QString::number(std::abs(notches)), QStringLiteral("--delay"),
        QStringLiteral("30"), notches > 0 ? QStringLiteral("4") : QStringLiteral("5") });
}

bool DesktopSession::key(const QString& keys)
{
    return xdotool({ QStringLiteral("key"), QStringLiteral("--clearmodifiers"), keys });
}

bool DesktopSession::type(const QString& text)
{
    return xdotool({ QStringLiteral("type"), QStringLiteral("--delay"), QStringLiteral("5"), text });
}

QImage DesktopSession::grabScreen()
{
    const QString file = m_dir.filePath(QStringLiteral("screen-%1.png").arg(++m_screens, 3, 10, QLatin1Char('0')));
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(QStringLiteral("import"), { QStringLiteral("-display"), display(), QStringLiteral("-window"), QStringLiteral("root"), file });
    if (!p.waitForFinished(20000) || p.exitCode() != 0) {
        m_error = QStringLiteral("import -window root failed (apt-get install imagemagick): %1")
                      .arg(QString::fromLocal8Bit(p.readAllStandardError()));
        return {};
    }
    QImage image = QImage(file).convertToFormat(QImage::Format_RGB32);
    if (m_dir.autoRemove())
        QFile::remove(file);
    return image;
}

quint32 DesktopSession::waitForWindow(const QString& title, int timeoutMs)
{
    QString ids;
    if (!waitUntil(
            [&] {
                ids.clear();
                return xdotool({ QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"), title }, &ids)
                    && !ids.trimmed().isEmpty();
            },
            timeoutMs)) {
        m_error = QStringLiteral("no window titled /%1/ showed within %2 ms").arg(title).arg(timeoutMs);
        return 0;
    }
    return ids.trimmed().split(QLatin1Char('\n')).first().toUInt();
}

QStringList DesktopSession::visibleWindowTitles()
{
    QString ids;
    if (!xdotool({ QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"), QStringLiteral(".") }, &ids))
        return {};
    QStringList titles;
    for (const QString& id : ids.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        QString title;
        if (xdotool({ QStringLiteral("getwindowname"), id.trimmed() }, &title))
            titles << title.trimmed();
    }
    return titles;
}

bool DesktopSession::waitForNoWindow(const QString& title, int timeoutMs)
{
    // xdotool search fails (exit 1) when nothing matches.
    const bool gone = waitUntil(
        [&] {
            QString ids;
            return !xdotool({ QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"), title }, &ids)
                || ids.trimmed().isEmpty();
        },
        timeoutMs);
    if (!gone)
        m_error = QStringLiteral("a window titled /%1/ still shows after %2 ms").arg(title).arg(timeoutMs);
    return gone;
}

bool DesktopSession::savePlanAs(const QString& path, int timeoutMs)
{
    QFile::remove(path);
    // File > Save Plan… by its shortcut, as a keyboard user opens it (Ctrl+S saves the document).
    // The main window active first: when a dialog just closed, the window manager may not have
    // given the focus back yet, and the key went nowhere.
    if (!activateMainWindow() || !key(QStringLiteral("ctrl+alt+s")))
        return false;
    QString ids;
    if (!waitUntil(
            [&] {
                return xdotool({ QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"), QStringLiteral("^Save Plan$") },
                           &ids)
                    && !ids.trimmed().isEmpty();
            },
            timeoutMs)) {
        m_error = QStringLiteral("File > Save Plan (Ctrl+Alt+S) opened no dialog (is the plan empty?)");
        return false;
    }
    // The dialog is mapped before the window manager gives it the focus: activated first, or
    // the keys below went to the main window on a loaded machine. The file name field has the
    // focus with "plan.json" selected: type over it.
    const QString dialog = ids.trimmed().split(QLatin1Char('\n')).first();
    if (!xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), dialog }) || !key(QStringLiteral("ctrl+a"))
        || !type(path) || !key(QStringLiteral("Return")))
        return false;
    if (!waitUntil([&] { return QFileInfo::exists(path); }, timeoutMs)) {
        m_error = QStringLiteral("the plan was not written to %1").arg(path);
        return false;
    }
    return true;
}

bool DesktopSession::activateMainWindow()
{
    return xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(m_window) });
}

bool DesktopSession::waitForInputHandled(int timeoutMs)
{
    int screenNumber = 0;
    auto* c = xcb_connect(display().toLocal8Bit().constData(), &screenNumber);
    if (!c || xcb_connection_has_error(c)) {
        m_error = QStringLiteral("cannot open X display %1 to ping the program").arg(display());
        if (c)
            xcb_disconnect(c);
        return false;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; i < screenNumber && it.rem; ++i)
        xcb_screen_next(&it);
    const xcb_window_t root = it.data->root;
    const quint32 protocols = internAtom(c, "WM_PROTOCOLS");
    const quint32 ping = internAtom(c, "_NET_WM_PING");
    // The answer goes to the root window (GuiStallProbe says with which masks).
    const uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
    xcb_change_window_attributes(c, root, XCB_CW_EVENT_MASK, &mask);
    QElapsedTimer clock;
    clock.start();
    bool answered = true;
    for (quint32 round = 1; round <= 3 && answered; ++round) {
        const quint32 stamp = 0x7e000000u + round; // matched in the answer
        xcb_client_message_event_t message {};
        message.response_type = XCB_CLIENT_MESSAGE;
        message.format = 32;
        message.window = m_window;
        message.type = protocols;
        message.data.data32[0] = ping;
        message.data.data32[1] = stamp;
        message.data.data32[2] = m_window;
        xcb_send_event(c, 0, m_window, XCB_EVENT_MASK_NO_EVENT, reinterpret_cast<const char*>(&message));
        xcb_flush(c);
        answered = false;
        while (!answered && clock.elapsed() < timeoutMs && !xcb_connection_has_error(c)) {
            xcb_generic_event_t* e = xcb_poll_for_event(c);
            if (!e) {
                QThread::msleep(2);
                continue;
            }
            if ((e->response_type & 0x7f) == XCB_CLIENT_MESSAGE) {
                const auto* m = reinterpret_cast<const xcb_client_message_event_t*>(e);
                answered = m->type == protocols && m->data.data32[0] == ping && m->data.data32[1] == stamp;
            }
            std::free(e);
        }
    }
    xcb_disconnect(c);
    if (!answered)
        m_error = QStringLiteral("fleetscope did not answer a ping within %1 ms (%2)").arg(timeoutMs).arg(appExitText());
    return answered;
}

bool DesktopSession::planIsEmpty(int timeoutMs)
{
    if (!appRunning() || !activateMainWindow() || !key(QStringLiteral("ctrl+alt+s")) || !waitForInputHandled(timeoutMs))
        return false;
    // Created (not only shown: the window manager maps it later) whenever the key opened it.
    QString ids;
    if (!xdotool({ QStringLiteral("search"), QStringLiteral("--name"), QStringLiteral("^Save Plan$") }, &ids) || ids.trimmed().isEmpty())
        return true;
    const quint32 dialog = waitForWindow(QStringLiteral("^Save Plan$"), timeoutMs);
    if (dialog)
        (void)(xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(dialog) }) && key(QStringLiteral("Escape"))
            && waitForNoWindow(QStringLiteral("^Save Plan$"), timeoutMs));
    return false;
}

QJsonArray DesktopSession::planActions(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("actions")).toArray();
}

namespace {

// The map's background (views/map/colormap.cpp, mapBackgroundColor()).
const QColor kMapBackground(110, 114, 122);

QRect backgroundBox(const QImage& image, const QRect& within)
{
    int left = within.right() + 1, right = within.left() - 1, top = within.bottom() + 1, bottom = within.top() - 1;
    const QRect r = within.intersected(image.rect());
    const QRgb bg = kMapBackground.rgb() & 0xffffff;
    for (int y = r.top(); y <= r.bottom(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = r.left(); x <= r.right(); ++x)
            if ((line[x] & 0xffffff) == bg) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
    }
    return right < left ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
}

} // namespace

QRect DesktopSession::mapArea(const QImage& screen)
{
    return backgroundBox(screen, windowRect());
}

bool DesktopSession::headlessMap(
    const QStringList& sourceArguments, const QSize& size, const QStringList& nodes, QImage& image, QMap<QString, QPoint>& cells)
{
    const QString file = m_dir.filePath(QStringLiteral("headless-map.png"));
    QStringList args { QStringLiteral("screenshot") };
    args << sourceArguments << QStringLiteral("--map-only") << QStringLiteral("-o") << file << QStringLiteral("--size")
         << QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
    for (const QString& n : nodes)
        args << QStringLiteral("--print-cell") << n;
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(executable(), args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        m_error = QStringLiteral("fleetscope %1: %2").arg(args.join(QLatin1Char(' ')), QString::fromLocal8Bit(p.readAllStandardError()));
        return false;
    }
    static const QRegularExpression line(QStringLiteral("^cell (\\S+) (\\d+) (\\d+)$"), QRegularExpression::MultilineOption);
    auto it = line.globalMatch(QString::fromLocal8Bit(p.readAllStandardOutput()));
    cells.clear();
    while (it.hasNext()) {
        const auto m = it.next();
        cells.insert(m.captured(1), QPoint(m.captured(2).toInt(), m.captured(3).toInt()));
    }
    image = QImage(file).convertToFormat(QImage::Format_RGB32);
    return !image.isNull();
}

QMap<QString, QPoint> DesktopSession::mapCells(const QStringList& sourceArguments, const QStringList& nodes)
{
    QMap<QString, QPoint> cells;
    // The pointer off the map: no tooltip over it, no hover in the status bar.
    const QRect win = windowRect();
    moveTo(QPoint(win.left() + 5, win.bottom() - 3));
    // The map still, where it is once still (a live window's Connection dock keeps counting
    // beside it, so only the map's own area is watched).
    QImage screen = grabScreen();
    QRect area = mapArea(screen);
    for (int tries = 0; tries < 3 && !area.isEmpty(); ++tries) {
        if (!waitForStillScreen(15000, area))
            return cells;
        screen = grabScreen();
        const QRect settled = mapArea(screen);
        if (settled == area)
            break;
        area = settled;
    }
    if (area.width() < 50 || area.height() < 50) {
        m_error = QStringLiteral("no map seen on the screen (background box %1x%2)").arg(area.width()).arg(area.height());
        return cells;
    }
    QImage headless;
    if (m_legendWidth < 0) {
        // The legend's width: a map-only image is the map's view with its legend.
        const QSize trial(area.width() + 300, area.height());
        if (!headlessMap(sourceArguments, trial, {}, headless, cells))
            return {};
        const QRect glArea = backgroundBox(headless, headless.rect());
        m_legendWidth = trial.width() - glArea.width();
    }
    const QSize size(area.width() + m_legendWidth, area.height());
    if (!headlessMap(sourceArguments, size, nodes, headless, cells))
        return {};
    // The same map? Compare the drawing areas pixel by pixel.
    const QRect glArea = backgroundBox(headless, headless.rect());
    if (glArea.size() != area.size()) {
        m_error = QStringLiteral("the headless map's area is %1x%2, the window's %3x%4")
                      .arg(glArea.width()).arg(glArea.height()).arg(area.width()).arg(area.height());
        return {};
    }
    int same = 0, total = 0;
    for (int y = 0; y < area.height(); y += 2)
        for (int x = 0; x < area.width(); x += 2) {
            const QColor a = screen.pixelColor(area.topLeft() + QPoint(x, y));
            const QColor b = headless.pixelColor(glArea.topLeft() + QPoint(x, y));
            same += std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) <= 24 ? 1 : 0;
            ++total;
        }
    if (same < total * 0.9) {
        screen.save(m_dir.filePath(QStringLiteral("mismatch-screen.png")));
        m_error = QStringLiteral("the map on the screen and the headless one differ: %1% of pixels alike (images in %2)")
                      .arg(100.0 * same / total, 0, 'f', 1)
                      .arg(m_dir.path());
        m_dir.setAutoRemove(false);
        return {};
    }
    for (auto it = cells.begin(); it != cells.end(); ++it)
        it.value() += area.topLeft() - glArea.topLeft();
    return cells;
}

bool DesktopSession::quitApp(int timeoutMs)
{
    if (!appRunning()) {
        m_error = QStringLiteral("fleetscope is not running: %1").arg(appExitText());
        return false;
    }
    // The main window has the focus (a floating dock may have taken it), then File > Quit.
    if (!xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(m_window) }) || !key(QStringLiteral("ctrl+q")))
        return false;
    // Undone steps that Redo could bring back are no plan to keep here: their question, when
    // it shows, is answered Discard (tst_e2e_quit tests the question itself).
    QElapsedTimer clock;
    clock.start();
    while (m_app.state() != QProcess::NotRunning && !m_app.waitForFinished(500) && clock.elapsed() < timeoutMs) {
        QString ids;
        if (!xdotool({ QStringLiteral("search"), QStringLiteral("--onlyvisible"), QStringLiteral("--name"), QStringLiteral("^Unsaved Undone Steps$") }, &ids))
            continue; // none shows (xdotool search fails when it finds nothing)
        if (const quint32 box = ids.trimmed().section(QLatin1Char('\n'), 0, 0).toUInt())
            if (xdotool({ QStringLiteral("windowactivate"), QStringLiteral("--sync"), QString::number(box) }))
                key(QStringLiteral("alt+d"));
    }
    if (m_app.state() != QProcess::NotRunning) {
        m_error = QStringLiteral("fleetscope did not quit within %1 ms of Ctrl+Q").arg(timeoutMs);
        return false;
    }
    return m_app.exitStatus() == QProcess::NormalExit && m_app.exitCode() == 0;
}

} // namespace fleet::e2e
