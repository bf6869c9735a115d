// SPDX-License-Identifier: Apache-2.0
#include "inflatingcolumn.h"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <new>

namespace fleet::importers::document {

void checkInflatedSize(std::uint64_t compressedSize, std::uint64_t rawSize, const std::string& column)
{
    // zlib cannot inflate more than ~1032 bytes out of one byte in: a larger claim is a lie.
    if (rawSize > compressedSize * 1100 + 64 || rawSize > (std::uint64_t { 1 } << 32))
        throw DocumentFormatError("column " + column + ": claims " + std::to_string(rawSize) + " bytes from "
                                  + std::to_string(compressedSize) + " compressed bytes, more than zlib can hold");
}

void inflateColumn(std::string_view compressed, char* out, std::uint64_t rawSize, const std::string& column,
                   const std::function<bool(std::uint64_t)>& progress)
{
    // The document is at most 2 GiB (kMaxFleetDocumentBytes), so a column's compressed bytes fit
    // zlib's 32-bit avail_in; a larger one cannot come from a document.
    if (compressed.size() > std::numeric_limits<uInt>::max())
        throw DocumentFormatError("column " + column + ": more compressed bytes than a document holds");
    z_stream z {};
    if (inflateInit(&z) != Z_OK)
        throw std::bad_alloc();
    struct End {
        z_stream& z;
        ~End() { inflateEnd(&z); }
    } end { z };
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    z.avail_in = static_cast<uInt>(compressed.size());
    constexpr std::uint64_t kChunk = std::uint64_t { 1 } << 20;
    std::uint64_t done = 0;
    int rc = Z_OK;
    for (;;) {
        const auto room = static_cast<uInt>(std::min(kChunk, rawSize - done));
        z.next_out = reinterpret_cast<Bytef*>(out + done);
        z.avail_out = room;
        rc = inflate(&z, Z_NO_FLUSH);
        done += room - z.avail_out;
        if (rc != Z_OK) // Z_OK: progress was made, go on; anything else ends the stream
            break;
        if (progress && !progress(done))
            return;
    }
    // The outcomes as zlib's uncompress2() names them: a stream that needs a dictionary, or
    // that stops with room left (cut short), is a data error; one with more to write than
    // rawSize is a buffer error.
    if (rc == Z_NEED_DICT || (rc == Z_BUF_ERROR && done < rawSize))
        rc = Z_DATA_ERROR;
    if (rc == Z_MEM_ERROR)
        throw std::bad_alloc();
    // The stream is consumed exactly: bytes after its end are not part of what was written.
    if (rc == Z_STREAM_END && z.avail_in != 0)
        throw DocumentFormatError("column " + column + ": " + std::to_string(z.avail_in) + " bytes follow the end of the compressed data");
    if (rc != Z_STREAM_END || done != rawSize)
        throw DocumentFormatError("column " + column + ": the compressed data is damaged (zlib: "
                                  + (rc == Z_STREAM_END ? "inflates to " + std::to_string(done) + " bytes, expected " + std::to_string(rawSize)
                                                        : std::string(zError(rc)))
                                  + ")");
    if (progress)
        (void)progress(done);
}

InflatingColumn::InflatingColumn(std::string compressed, std::uint64_t rawSize, std::string column)
    : m_compressed(std::move(compressed))
    , m_column(std::move(column))
    , m_size(static_cast<std::size_t>(rawSize))
{
    checkInflatedSize(m_compressed.size(), rawSize, m_column);
    m_out.reset(new char[std::max<std::size_t>(m_size, 1)]);
    m_thread = std::thread([this] { run(); });
}

InflatingColumn::~InflatingColumn()
{
    m_stop = true;
    m_thread.join();
}

void InflatingColumn::run()
{
    std::exception_ptr error;
    try {
        inflateColumn(m_compressed, m_out.get(), m_size, m_column, [this](std::uint64_t done) {
            {
                std::lock_guard lock(m_mutex);
                m_ready.store(static_cast<std::size_t>(done), std::memory_order_release);
            }
            m_changed.notify_all();
            return !m_stop.load(std::memory_order_relaxed);
        });
    } catch (...) {
        error = std::current_exception();
    }
    {
        std::lock_guard lock(m_mutex);
        m_error = error;
        m_ended = true;
    }
    m_changed.notify_all();
}

std::size_t InflatingColumn::waitFor(std::size_t end)
{
    // The whole column is trusted only once the stream ended well (its checksum checked).
    const bool whole = end >= m_size;
    if (!whole) {
        const std::size_t ready = m_ready.load(std::memory_order_acquire);
        if (ready >= end)
            return ready;
    }
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_ended || (!whole && m_ready.load(std::memory_order_relaxed) >= end); });
    if (m_error)
        std::rethrow_exception(m_error);
    return m_ready.load(std::memory_order_relaxed);
}

} // namespace fleet::importers::document
