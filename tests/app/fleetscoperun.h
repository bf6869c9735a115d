// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs the fleetscope executable as a user runs it (QProcess, no display), for the tests of
// its subcommands. FLEETSCOPE_EXECUTABLE is defined by tests/app/CMakeLists.txt.

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace fleet::tests {

/// What one run gave: the exit code (-1 when it crashed or did not finish) and its output.
struct FleetscopeRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// The test's environment without DISPLAY and WAYLAND_DISPLAY: what a headless run sees.
inline QProcessEnvironment headlessEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    return env;
}

/// Runs `fleetscope args...` in `env` and waits at most `timeoutMs` for it to end (then kills
/// it and says so in err).
inline FleetscopeRun runFleetscope(const QStringList& args, const QProcessEnvironment& env = headlessEnvironment(),
                                   int timeoutMs = 300'000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(FLEETSCOPE_EXECUTABLE), args);
    FleetscopeRun r;
    if (!p.waitForStarted(10'000) || !p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "fleetscope did not run to the end";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace fleet::tests
