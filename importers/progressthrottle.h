// SPDX-License-Identifier: Apache-2.0
#pragma once
// ProgressThrottle: the one place where importers poll cancellation and report progress.

#include "importers/importreport.h"

#include <chrono>
#include <cstddef>

namespace fleet::importers {

/// Throttles ImportProgress calls for one import and polls its cancellation.
///
/// What: an importer calls tick(done) as often as it likes (per item, per window, per block
/// of rows); tick() asks ImportProgress::isCancelled() every time and forwards
/// progress(done, total) at most once per kInterval (100 ms, so at most about ten calls a
/// second, STYLE.md "Long work"), the first tick at once. finish() reports done == total.
/// `done` and `total` are in whatever unit the importer documents (bytes, or items).
/// A null `progress` makes every call a no-op (no clock read, no virtual call).
///
/// Errors: tick() and throwIfCancelled() throw ImportCancelled when isCancelled() returns
/// true; progress() exceptions pass through.
///
/// Thread: not thread-safe; lives on the importing (worker) thread, and calls `progress` on
/// that thread. Cost: one virtual call plus one steady_clock read per tick().
class ProgressThrottle {
public:
    /// The shortest time between two progress() calls.
    static constexpr std::chrono::milliseconds kInterval { 100 };

    /// `progress` may be null; `total` is what finish() reports as done.
    ProgressThrottle(ImportProgress* progress, std::size_t total) noexcept
        : m_progress(progress)
        , m_total(total)
    {
    }

    /// Throws ImportCancelled when cancelled; else reports `done` of total unless the last
    /// report was less than kInterval ago.
    void tick(std::size_t done)
    {
        if (!m_progress)
            return;
        if (m_progress->isCancelled())
            throw ImportCancelled();
        const auto now = std::chrono::steady_clock::now();
        if (now - m_last >= kInterval) {
            m_last = now;
            m_progress->progress(done, m_total);
        }
    }

    /// Throws ImportCancelled when cancelled; reports nothing (for inner loops that poll
    /// more often than they can say how far they are).
    void throwIfCancelled() const
    {
        if (m_progress && m_progress->isCancelled())
            throw ImportCancelled();
    }

    /// Reports total of total (unthrottled: the last call the user sees).
    void finish()
    {
        if (m_progress)
            m_progress->progress(m_total, m_total);
    }

private:
    ImportProgress* m_progress;
    std::size_t m_total;
    std::chrono::steady_clock::time_point m_last {}; // the epoch: the first tick reports
};

} // namespace fleet::importers
