// SPDX-License-Identifier: Apache-2.0
#pragma once
// A private X server (Xvfb) for the headless subcommands that need OpenGL.
//
// Design note: Qt's offscreen platform cannot host a QOpenGLWidget (it crashes in Qt 6.4)
// and Debian's VTK has neither OSMesa nor EGL (DESIGN.md, "Build facts"), so rendering
// without a display needs an X server. The server is started with `-displayfd`, so it picks
// a free display number itself and writes it to a pipe: no race with other servers
// started at the same time (parallel tests), no lock files to guess.

#include <chrono>
#include <string>

#include <sys/types.h>

namespace fleet::app {

/// True when the X display named by `display` (e.g. ":0", empty means $DISPLAY) can be
/// opened now. Uses libxcb, which Qt's xcb platform needs anyway. Thread: any.
[[nodiscard]] bool canOpenXDisplay(const std::string& display);

/// One private Xvfb process, owned by this object (RAII: the destructor stops it).
///
/// start() forks `Xvfb -displayfd <fd> -screen 0 WxHx24 -nolisten tcp`, reads the display
/// number it writes, and returns ":N". The child gets PR_SET_PDEATHSIG, so it also dies
/// when this process dies without running destructors (a crash, SIGKILL); SIGINT, SIGTERM
/// and SIGHUP are caught while the server runs to stop it before this process exits; the
/// handler then chains to the handler installed before start() (PrivateRuntimeDir's), or
/// re-raises the signal with its default action.
/// Thread: create, start and destroy on the main thread, before QApplication exists.
class PrivateXServer {
public:
    PrivateXServer() = default;
    ~PrivateXServer();
    PrivateXServer(const PrivateXServer&) = delete;
    PrivateXServer& operator=(const PrivateXServer&) = delete;

    /// Starts Xvfb with one screen of `widthPx` x `heightPx` at 24-bit depth and waits
    /// (at most `timeout`) for its display number. Returns the display name ":N".
    /// Throws std::runtime_error naming the cause (Xvfb not installed, exited, timed out).
    std::string start(int widthPx, int heightPx, std::chrono::milliseconds timeout = std::chrono::seconds(20));

    /// Stops the server (SIGTERM, then SIGKILL after 2 s) and reaps it. Safe to call twice.
    void stop() noexcept;

    /// Whether start() succeeded and stop() has not run since.
    [[nodiscard]] bool isRunning() const noexcept { return m_pid > 0; }
    /// The display name the last successful start() returned (":N"); empty before one
    /// (stop() leaves it set).
    [[nodiscard]] const std::string& display() const noexcept { return m_display; }
    /// The Xvfb process id, or -1 when none runs.
    [[nodiscard]] pid_t pid() const noexcept { return m_pid; }

private:
    pid_t m_pid = -1;
    std::string m_display;
};

/// Makes sure this process can open an X display before QApplication is created:
/// when $DISPLAY is unset or cannot be opened, starts `server` and sets DISPLAY to it.
/// Always sets QT_QPA_PLATFORM=xcb (offscreen cannot host OpenGL widgets).
/// Returns true when a private server was started. Throws std::runtime_error from start().
bool ensureXDisplay(PrivateXServer& server, int widthPx, int heightPx);

} // namespace fleet::app
