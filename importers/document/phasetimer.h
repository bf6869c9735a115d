// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where the time of a document's open and save goes, phase by phase, on Qt's logging category
// "fleet.document.timing" (off by default; QT_LOGGING_RULES="fleet.document.timing.debug=true"
// prints, e.g., "open: strings 412.3 ms" on stderr). tests/bench/bench_document and profiling
// read it; nothing depends on it.
//
// Thread: one PhaseTimer per thread of work (it keeps no shared state).

#include <QElapsedTimer>
#include <QLoggingCategory>

#include <cstdint>
#include <ctime>

namespace fleet::importers::document {

Q_DECLARE_LOGGING_CATEGORY(lcDocumentTiming)

/// Logs the milliseconds since the previous mark (or since construction), as "WORK: PHASE N ms".
class PhaseTimer {
public:
    explicit PhaseTimer(const char* work) : m_work(work), m_cpu(threadCpuNs()) { m_timer.start(); }
    /// Also logs this thread's CPU time over the phase: on a loaded machine the wall time of a
    /// one-thread phase varies twofold, its CPU time much less.
    void mark(const char* phase)
    {
        const std::int64_t cpu = threadCpuNs();
        if (lcDocumentTiming().isDebugEnabled()) {
            const double ms = static_cast<double>(m_timer.nsecsElapsed()) / 1e6;
            qCDebug(lcDocumentTiming, "%s: %-40s %8.1f ms (this thread's CPU %8.1f ms)", m_work, phase, ms,
                    static_cast<double>(cpu - m_cpu) / 1e6);
        }
        m_cpu = cpu;
        m_timer.restart();
    }

private:
    static std::int64_t threadCpuNs() noexcept
    {
        timespec t {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return std::int64_t { t.tv_sec } * 1'000'000'000 + t.tv_nsec;
    }

    const char* m_work;
    QElapsedTimer m_timer;
    std::int64_t m_cpu;
};

} // namespace fleet::importers::document
