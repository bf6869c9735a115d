// SPDX-License-Identifier: Apache-2.0
#include "runtimedir.h"

#include <QDir>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace fleet::app {

namespace {

// The folder for the signal handler: a fixed buffer, written before the handlers are
// installed and cleared (first byte) after they are restored.
char g_path[4096];
constexpr int kCaughtSignals[3] = { SIGINT, SIGTERM, SIGHUP };
struct sigaction g_previous[3];
bool g_installed[3] = { false, false, false };

// Removes the plain entries of `path` and the folder itself. Async-signal-safe: system calls
// only (no malloc, no stdio). Sub-folders are not expected (Qt puts sockets there at most);
// when one exists the folder stays.
void removeFolderSignalSafe(const char* path)
{
    const int dir = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        alignas(8) char buffer[4096];
        for (;;) {
            const long n = ::syscall(SYS_getdents64, dir, buffer, sizeof buffer);
            if (n <= 0)
                break;
            for (long offset = 0; offset < n;) {
                // struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, char name[].
                unsigned short reclen = 0;
                std::memcpy(&reclen, buffer + offset + 16, sizeof reclen);
                const char* name = buffer + offset + 19;
                if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0)
                    ::unlinkat(dir, name, 0);
                offset += reclen;
            }
        }
        ::close(dir);
    }
    ::rmdir(path);
}

extern "C" void removeRuntimeDirAndReraise(int sig)
{
    const int savedErrno = errno;
    if (g_path[0] != '\0')
        removeFolderSignalSafe(g_path);
    g_path[0] = '\0';
    struct sigaction dfl { };
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    errno = savedErrno;
    ::raise(sig); // blocked while this handler runs: delivered, with the default action, on return
}

void installSignalHandlers()
{
    for (int i = 0; i < 3; ++i) {
        struct sigaction previous { };
        ::sigaction(kCaughtSignals[i], nullptr, &previous);
        if (previous.sa_handler == SIG_IGN)
            continue; // e.g. SIGINT of a background job: stays ignored, as the shell asked
        struct sigaction sa { };
        sa.sa_handler = removeRuntimeDirAndReraise;
        sigemptyset(&sa.sa_mask);
        g_installed[i] = ::sigaction(kCaughtSignals[i], &sa, &g_previous[i]) == 0;
    }
}

void restoreSignalHandlers()
{
    for (int i = 0; i < 3; ++i) {
        if (g_installed[i])
            ::sigaction(kCaughtSignals[i], &g_previous[i], nullptr);
        g_installed[i] = false;
    }
}

} // namespace

PrivateRuntimeDir::PrivateRuntimeDir()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    QByteArray base = qgetenv("TMPDIR");
    if (base.isEmpty())
        base = "/tmp";
    QByteArray pattern = base + "/fleetscope-runtime-XXXXXX";
    if (static_cast<std::size_t>(pattern.size()) >= sizeof g_path)
        return; // too long for the signal handler's buffer: Qt falls back to its own warning
    // mkdtemp creates the folder with mode 0700, owned by us: what Qt checks.
    if (::mkdtemp(pattern.data()) == nullptr)
        return; // Qt falls back to its own warning; nothing to clean up
    m_path = pattern;
    std::memcpy(g_path, m_path.constData(), static_cast<std::size_t>(m_path.size()) + 1);
    installSignalHandlers();
    qputenv("XDG_RUNTIME_DIR", m_path);
}

PrivateRuntimeDir::~PrivateRuntimeDir()
{
    if (m_path.isEmpty())
        return;
    restoreSignalHandlers();
    g_path[0] = '\0';
    QDir(QString::fromLocal8Bit(m_path)).removeRecursively();
    qunsetenv("XDG_RUNTIME_DIR");
}

} // namespace fleet::app
