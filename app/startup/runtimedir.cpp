// SPDX-License-Identifier: Apache-2.0
#include "runtimedir.h"

#include <QDir>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
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

constexpr char kPrefix[] = "fleetscope-runtime-";
constexpr std::size_t kSuffixLength = 6; // mkdtemp's XXXXXX

// True when the folder `path` (one of ours by name, owner and mode) belongs to no running
// process. Its owner holds an exclusive flock on kOwnerLockName for as long as it runs; the
// kernel drops that lock when the process ends, SIGKILL included. A folder without the lock
// file is from a version before it, or from a process that is between mkdtemp and creating
// the file: stale only once it is older than `lockFreeAge`.
bool isStaleRuntimeDir(const std::string& path, const struct stat& st, std::chrono::seconds lockFreeAge)
{
    const std::string lock = path + "/" + PrivateRuntimeDir::kOwnerLockName;
    const int fd = ::open(lock.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno != ENOENT)
            return false;
        const auto modified = std::chrono::system_clock::from_time_t(st.st_mtime);
        return std::chrono::system_clock::now() - modified > lockFreeAge;
    }
    const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0; // released by close()
    ::close(fd);
    return free;
}

} // namespace

int PrivateRuntimeDir::removeStaleFolders(const QByteArray& base, std::chrono::seconds lockFreeAge)
{
    namespace fs = std::filesystem;
    // The candidates first, then the removals: a folder is not changed while it is listed.
    std::vector<std::string> stale;
    std::error_code ec;
    for (fs::directory_iterator it(base.toStdString(), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() != sizeof kPrefix - 1 + kSuffixLength || name.compare(0, sizeof kPrefix - 1, kPrefix) != 0)
            continue;
        // Only a real folder (not a link) that we own with mkdtemp's mode: never another user's.
        struct stat st { };
        const std::string path = it->path().string();
        if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 07777) != 0700)
            continue;
        if (isStaleRuntimeDir(path, st, lockFreeAge))
            stale.push_back(path);
    }
    int removed = 0;
    for (const std::string& path : stale) {
        std::error_code removeError;
        fs::remove_all(path, removeError);
        if (!removeError)
            ++removed;
    }
    return removed;
}

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
    // A run ended by SIGKILL (or a crash) could not remove its folder: the next run does.
    removeStaleFolders(base);
    // mkdtemp creates the folder with mode 0700, owned by us: what Qt checks.
    if (::mkdtemp(pattern.data()) == nullptr)
        return; // Qt falls back to its own warning; nothing to clean up
    m_path = pattern;
    // Held until the process ends (the descriptor is never closed before): tells
    // removeStaleFolders() of other runs that this folder is in use.
    m_lockFd = ::open((m_path + '/' + kOwnerLockName).constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (m_lockFd >= 0)
        (void)::flock(m_lockFd, LOCK_EX | LOCK_NB);
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
    if (m_lockFd >= 0)
        ::close(m_lockFd); // after the removal: no other run takes the folder for stale meanwhile
    qunsetenv("XDG_RUNTIME_DIR");
}

} // namespace fleet::app
