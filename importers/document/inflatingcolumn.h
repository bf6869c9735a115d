// SPDX-License-Identifier: Apache-2.0
#pragma once
// A zlib-compressed column of the .fleet document inflated on a thread of its own while its
// reader reads what is inflated so far. The reader interns the "strings" column (the largest:
// ~47 MB raw at 100,000 nodes, about 0.18 s to inflate, before anything else can be decoded) as
// it comes rather than after the whole of it.
//
// The bytes are untrusted like any column's: a damaged stream may yield bytes before zlib
// notices (its checksum is at the end), so a reader that fails on them asks waitFor(SIZE_MAX)
// first, whose error (the stream's) is the one to report, and a reader that succeeds still
// waits for the whole column before it trusts what it read.
//
// Thread: the inflating thread is the object's own (stopped and joined by the destructor);
// bytes() and waitFor() from one reader thread at a time.

#include "bytecolumns.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace fleet::importers::document {

/// Throws DocumentFormatError naming `column` when `rawSize` is more than `compressedSize`
/// bytes of zlib can inflate to (about 1,032 to 1), or more than 4 GiB: checked before any
/// allocation, since zlib lets a small file claim a huge size.
void checkInflatedSize(std::uint64_t compressedSize, std::uint64_t rawSize, const std::string& column);

/// Inflates `compressed` into exactly `rawSize` bytes at `out` (which holds that many),
/// calling `progress(n)` after each chunk of about 1 MiB with the count of bytes written so
/// far; a `progress` that returns false stops it early (nothing thrown). Throws
/// DocumentFormatError naming `column` when the data is not zlib, is cut, inflates to another
/// size or is followed by bytes after its end; std::bad_alloc when zlib has no memory.
/// Thread: any.
void inflateColumn(std::string_view compressed, char* out, std::uint64_t rawSize, const std::string& column,
                   const std::function<bool(std::uint64_t)>& progress);

class InflatingColumn {
public:
    /// Starts inflating `compressed` (moved in) into `rawSize` bytes on a thread of its own.
    /// Throws DocumentFormatError at once for a size zlib cannot reach (checkInflatedSize()).
    InflatingColumn(std::string compressed, std::uint64_t rawSize, std::string column);
    /// Stops the inflation (at its next chunk) and joins its thread.
    ~InflatingColumn();
    InflatingColumn(const InflatingColumn&) = delete;
    InflatingColumn& operator=(const InflatingColumn&) = delete;

    /// The column's rawSize bytes, of which only those a waitFor() covered are written yet.
    [[nodiscard]] std::string_view bytes() const noexcept { return { m_out.get(), m_size }; }
    /// Blocks until at least the first min(end, rawSize) bytes are inflated; returns how many
    /// are. waitFor(SIZE_MAX) returns once the whole column is inflated and checked. Rethrows
    /// the inflation's error (DocumentFormatError, std::bad_alloc) once it has failed.
    std::size_t waitFor(std::size_t end);

private:
    void run();

    std::string m_compressed;
    std::string m_column;
    std::size_t m_size;
    std::unique_ptr<char[]> m_out; // not zeroed: its pages are first touched by the inflation
    std::atomic<std::size_t> m_ready { 0 };
    std::atomic<bool> m_stop { false };
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_ended = false; // under m_mutex: finished or failed
    std::exception_ptr m_error; // under m_mutex
    std::thread m_thread; // last: started once every member above is
};

} // namespace fleet::importers::document
