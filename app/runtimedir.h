// SPDX-License-Identifier: Apache-2.0
#pragma once
// A private XDG_RUNTIME_DIR for runs where the session provides none (ssh, containers, CI).

#include <QByteArray>

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
/// one. SIGKILL or a crash still leaves the folder behind. At most one instance at a time.
/// Thread: main thread.
class PrivateRuntimeDir {
public:
    PrivateRuntimeDir();
    ~PrivateRuntimeDir();
    PrivateRuntimeDir(const PrivateRuntimeDir&) = delete;
    PrivateRuntimeDir& operator=(const PrivateRuntimeDir&) = delete;

    /// The folder this object made, or empty when the environment had one (or mkdtemp failed).
    [[nodiscard]] const QByteArray& path() const noexcept { return m_path; }

private:
    QByteArray m_path;
};

} // namespace fleet::app
