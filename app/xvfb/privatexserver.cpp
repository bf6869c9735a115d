// SPDX-License-Identifier: Apache-2.0
#include "privatexserver.h"

#include <xcb/xcb.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fleet::app {
namespace {

// The pid of the running private server, for the signal handler (one server at a time).
std::atomic<pid_t> g_serverPid { -1 };
struct sigaction g_previous[3];
constexpr int kCaughtSignals[3] = { SIGINT, SIGTERM, SIGHUP };

extern "C" void stopServerAndReraise(int sig)
{
    // Async-signal-safe only: kill, sigaction, raise.
    const pid_t pid = g_serverPid.exchange(-1);
    if (pid > 0)
        ::kill(pid, SIGTERM);
    // Chains to the handler that was there before (PrivateRuntimeDir's, which removes its
    // folder and re-raises); otherwise the default action. The signal is blocked while this
    // handler runs, so the raised one is delivered to that disposition on return.
    struct sigaction next { };
    next.sa_handler = SIG_DFL;
    sigemptyset(&next.sa_mask);
    for (int i = 0; i < 3; ++i)
        if (kCaughtSignals[i] == sig && (g_previous[i].sa_flags & SA_SIGINFO) == 0 && g_previous[i].sa_handler != SIG_IGN
            && g_previous[i].sa_handler != SIG_DFL)
            next = g_previous[i];
    ::sigaction(sig, &next, nullptr);
    ::raise(sig);
}

void installSignalHandlers()
{
    for (int i = 0; i < 3; ++i) {
        struct sigaction sa { };
        sa.sa_handler = stopServerAndReraise;
        sigemptyset(&sa.sa_mask);
        ::sigaction(kCaughtSignals[i], &sa, &g_previous[i]);
    }
}

void restoreSignalHandlers()
{
    for (int i = 0; i < 3; ++i)
        ::sigaction(kCaughtSignals[i], &g_previous[i], nullptr);
}

std::string errnoText(const char* what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

} // namespace

bool canOpenXDisplay(const std::string& display)
{
    int screen = 0;
    xcb_connection_t* c = xcb_connect(display.empty() ? nullptr : display.c_str(), &screen);
    const bool ok = c && xcb_connection_has_error(c) == 0;
    if (c)
        xcb_disconnect(c);
    return ok;
}

PrivateXServer::~PrivateXServer()
{
    stop();
}

std::string PrivateXServer::start(int widthPx, int heightPx, std::chrono::milliseconds timeout)
{
    if (m_pid > 0)
        return m_display;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error(errnoText("cannot start Xvfb: pipe"));
    const std::string screen = std::to_string(widthPx) + "x" + std::to_string(heightPx) + "x24";
    const std::string fdText = std::to_string(fds[1]);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw std::runtime_error(errnoText("cannot start Xvfb: fork"));
    }
    if (pid == 0) {
        // Child: only async-signal-safe calls until exec.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent)
            ::_exit(127);
        ::close(fds[0]);
        // Keep the write end open across exec for -displayfd.
        const int flags = ::fcntl(fds[1], F_GETFD);
        ::fcntl(fds[1], F_SETFD, flags & ~FD_CLOEXEC);
        // Xvfb's own chatter (font path warnings, xkbcomp) is noise for a screenshot.
        const int devNull = ::open("/dev/null", O_WRONLY);
        if (devNull >= 0) {
            ::dup2(devNull, STDOUT_FILENO);
            ::dup2(devNull, STDERR_FILENO);
        }
        const char* argv[]
            = { "Xvfb", "-displayfd", fdText.c_str(), "-screen", "0", screen.c_str(), "-nolisten", "tcp", nullptr };
        ::execvp("Xvfb", const_cast<char* const*>(argv));
        ::_exit(127);
    }
    ::close(fds[1]);
    m_pid = pid;
    g_serverPid = pid;
    installSignalHandlers();

    // Read "N\n" from the pipe; EOF before that means Xvfb exited (or was not found).
    std::string number;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    bool complete = false;
    while (!complete) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            break;
        pollfd pfd { fds[0], POLLIN, 0 };
        const int r = ::poll(&pfd, 1, static_cast<int>(left.count()));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        char buf[32];
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n; ++i) {
            if (buf[i] == '\n') {
                complete = true;
                break;
            }
            number.push_back(buf[i]);
        }
    }
    ::close(fds[0]);
    if (!complete || number.empty()) {
        int status = 0;
        const bool exited = ::waitpid(pid, &status, WNOHANG) == pid;
        if (exited) {
            m_pid = -1;
            g_serverPid = -1;
            restoreSignalHandlers();
        } else {
            stop();
        }
        if (exited && WIFEXITED(status) && WEXITSTATUS(status) == 127)
            throw std::runtime_error("cannot start Xvfb: not found in PATH (install the xvfb package)");
        if (exited)
            throw std::runtime_error("cannot start Xvfb: it exited before reporting a display number");
        throw std::runtime_error("cannot start Xvfb: no display number after " + std::to_string(timeout.count()) + " ms");
    }
    m_display = ":" + number;
    return m_display;
}

void PrivateXServer::stop() noexcept
{
    if (m_pid <= 0)
        return;
    const pid_t pid = m_pid;
    m_pid = -1;
    g_serverPid = -1;
    restoreSignalHandlers();
    ::kill(pid, SIGTERM);
    for (int i = 0; i < 200; ++i) { // 2 s
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno == ECHILD))
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
}

bool ensureXDisplay(PrivateXServer& server, int widthPx, int heightPx)
{
    // offscreen (set by a test environment, for instance) cannot host a QOpenGLWidget.
    ::setenv("QT_QPA_PLATFORM", "xcb", 1);
    const char* current = std::getenv("DISPLAY");
    if (current && *current && canOpenXDisplay(current))
        return false;
    const std::string display = server.start(widthPx, heightPx);
    ::setenv("DISPLAY", display.c_str(), 1);
    return true;
}

} // namespace fleet::app
