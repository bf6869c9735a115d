// SPDX-License-Identifier: Apache-2.0
#pragma once
// A private XDG_RUNTIME_DIR for runs where the session provides none (ssh, containers, CI).

#include <QByteArray>

#include <chrono>

namespace fleet::app {

/// When XDG_RUNTIME_DIR is unset or empty, creates a private folder (mode 0700, from
/// mkdtemp under $TMPDIR or /tmp, "fleetscope-runtime-XXXXXX") and sets XDG_RUNTIME_DIR to
/// it, so that Qt does not warn "QStandardPaths: XDG_RUNTIME_DIR not set" on every run and
/// finds a folder with the owner and mode that the XDG Base Directory specification asks for.
/// The destructor removes the folder (and anything Qt left in it) and unsets the variable
/// again. Create it first thing in main(), before any Q*Application exists; it must outlive
/// that application.
///
/// Signals: while the folder exists, SIGINT, SIGTERM and SIGHUP (Ctrl+C, kill, a closed
/// terminal) are caught unless they were ignored: the handler removes the folder's files and
/// the folder (async-signal-safe system calls only: open, getdents64, unlinkat, rmdir), then
/// restores the default action and re-raises the signal, so the process still ends by it
/// (exit status 128+N in a shell). PrivateXServer's handler, installed later, chains to this
/// one. SIGKILL or a crash still leaves the folder behind: the next run removes it (and any
/// other stale one, removeStaleFolders()) before it makes its own. At most one instance at a
/// time. Thread: main thread.
class PrivateRuntimeDir {
public:
    PrivateRuntimeDir();
    ~PrivateRuntimeDir();
    PrivateRuntimeDir(const PrivateRuntimeDir&) = delete;
    PrivateRuntimeDir& operator=(const PrivateRuntimeDir&) = delete;

    /// The folder this object made, or empty when the environment had one (or mkdtemp failed).
    [[nodiscard]] const QByteArray& path() const noexcept { return m_path; }

    /// The file in the folder on which its process holds an exclusive flock while it runs.
    static constexpr const char* kOwnerLockName = ".fleetscope-owner.lock";

    /// Removes the folders "fleetscope-runtime-XXXXXX" directly in `base` that belong to no
    /// running process: real folders owned by this user with mode 0700 whose lock file no one
    /// holds (the kernel releases it when its process ends, SIGKILL included), or that have no
    /// lock file and were last changed more than `lockFreeAge` ago (a version before the lock,
    /// or a start between mkdtemp and the lock). Anything else (other users', other names,
    /// links, a running process's folder) is left. Returns how many were removed. Thread: any.
    static int removeStaleFolders(const QByteArray& base, std::chrono::seconds lockFreeAge = std::chrono::minutes(10));

private:
    QByteArray m_path;
    int m_lockFd = -1;
};

} // namespace fleet::app
