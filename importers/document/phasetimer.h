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

namespace fleet::importers::document {

Q_DECLARE_LOGGING_CATEGORY(lcDocumentTiming)

/// Logs the milliseconds since the previous mark (or since construction), as "WORK: PHASE N ms".
class PhaseTimer {
public:
    explicit PhaseTimer(const char* work) : m_work(work) { m_timer.start(); }
    void mark(const char* phase)
    {
        if (lcDocumentTiming().isDebugEnabled()) {
            const double ms = static_cast<double>(m_timer.nsecsElapsed()) / 1e6;
            qCDebug(lcDocumentTiming, "%s: %-40s %8.1f ms", m_work, phase, ms);
        }
        m_timer.restart();
    }

private:
    const char* m_work;
    QElapsedTimer m_timer;
};

} // namespace fleet::importers::document
