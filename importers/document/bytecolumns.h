// SPDX-License-Identifier: Apache-2.0
#pragma once
// The byte encoding of the .fleet document's columns (importers/document/storecodec.h): LEB128
// varints, zigzag for signed values, little-endian doubles, and zlib for each column as a whole.
//
// ByteReader is the untrusted side: every read is bounded by the column's end, every count by
// the bytes left, and every failure throws DocumentFormatError naming the column and the byte
// offset, so a hostile column can neither read past its buffer nor make a huge allocation.
//
// Thread: any (no shared state).

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace fleet::importers::document {

/// A column whose bytes are not what this version writes. what() is "column NAME, byte N: WHAT".
class DocumentFormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Appends values to a byte string.
class ByteWriter {
public:
    void varint(std::uint64_t v)
    {
        while (v >= 0x80) {
            m_bytes.push_back(static_cast<char>((v & 0x7f) | 0x80));
            v >>= 7;
        }
        m_bytes.push_back(static_cast<char>(v));
    }
    void zigzag(std::int64_t v) { varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63)); }
    void byte(std::uint8_t v) { m_bytes.push_back(static_cast<char>(v)); }
    void float64(double v)
    {
        char b[8];
        std::memcpy(b, &v, 8);
        m_bytes.append(b, 8);
    }
    void text(std::string_view s)
    {
        varint(s.size());
        m_bytes.append(s);
    }
    void raw(std::string_view s) { m_bytes.append(s); }
    [[nodiscard]] std::string& bytes() noexcept { return m_bytes; }
    [[nodiscard]] std::size_t size() const noexcept { return m_bytes.size(); }

private:
    std::string m_bytes;
};

/// Reads values from one column's bytes, bounds-checked.
class ByteReader {
public:
    ByteReader(std::string_view bytes, std::string column) : m_data(bytes), m_column(std::move(column)) {}

    [[noreturn]] void fail(const std::string& what) const
    {
        throw DocumentFormatError("column " + m_column + ", byte " + std::to_string(m_at) + ": " + what);
    }
    std::uint64_t varint()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_at >= m_data.size())
                fail("cut short inside a number");
            const auto b = static_cast<std::uint8_t>(m_data[m_at++]);
            v |= std::uint64_t(b & 0x7f) << shift;
            if ((b & 0x80) == 0)
                return v;
        }
        fail("a number longer than 64 bits");
    }
    std::int64_t zigzag()
    {
        const std::uint64_t v = varint();
        return static_cast<std::int64_t>((v >> 1) ^ (~(v & 1) + 1));
    }
    /// A value in [0, limit); `what` names it in the error.
    std::uint32_t below(std::uint64_t limit, const char* what)
    {
        const std::uint64_t v = varint();
        if (v >= limit)
            fail(std::string(what) + " " + std::to_string(v) + " out of range (0.." + std::to_string(limit) + ")");
        return static_cast<std::uint32_t>(v);
    }
    /// A count of items of at least `minBytes` bytes each: never more than the bytes left allow.
    std::size_t count(const char* what, std::size_t minBytes = 1)
    {
        const std::uint64_t v = varint();
        if (v > (m_data.size() - m_at) / (minBytes ? minBytes : 1) + (minBytes ? 0 : 1))
            fail(std::string(what) + " count " + std::to_string(v) + " exceeds what the column holds");
        return static_cast<std::size_t>(v);
    }
    std::int32_t int32(const char* what)
    {
        const std::int64_t v = zigzag();
        if (v < INT32_MIN || v > INT32_MAX)
            fail(std::string(what) + " " + std::to_string(v) + " does not fit in 32 bits");
        return static_cast<std::int32_t>(v);
    }
    std::uint8_t byte()
    {
        if (m_at >= m_data.size())
            fail("cut short");
        return static_cast<std::uint8_t>(m_data[m_at++]);
    }
    bool flag(const char* what)
    {
        const std::uint8_t b = byte();
        if (b > 1)
            fail(std::string(what) + " is " + std::to_string(b) + ", expected 0 or 1");
        return b != 0;
    }
    double float64()
    {
        if (m_data.size() - m_at < 8)
            fail("cut short inside a number");
        double v;
        std::memcpy(&v, m_data.data() + m_at, 8);
        m_at += 8;
        return v;
    }
    std::string_view text(const char* what)
    {
        const std::size_t n = count(what);
        const std::string_view s = m_data.substr(m_at, n);
        m_at += n;
        return s;
    }
    /// The next `n` bytes (a text whose length count() read).
    std::string_view take(std::size_t n)
    {
        if (m_data.size() - m_at < n)
            fail("cut short");
        const std::string_view s = m_data.substr(m_at, n);
        m_at += n;
        return s;
    }
    void expectEnd() const
    {
        if (m_at != m_data.size())
            fail(std::to_string(m_data.size() - m_at) + " bytes left over after the last value");
    }
    [[nodiscard]] std::size_t offset() const noexcept { return m_at; }

private:
    std::string_view m_data;
    std::string m_column;
    std::size_t m_at = 0;
};

/// zlib-compresses `raw` (level 1: the document is written often and read often, and level 1
/// is 3-4x faster than the default for ~15% more bytes; see docs/document.md; level 0 stores
/// the bytes with zlib's framing and checksum).
[[nodiscard]] std::string compressColumn(std::string_view raw, int level = 1);
/// Inflates a column of exactly `rawSize` bytes. Throws DocumentFormatError naming `column`
/// when the data is not zlib, is cut, or inflates to another size.
[[nodiscard]] std::string decompressColumn(std::string_view compressed, std::uint64_t rawSize, const std::string& column);

} // namespace fleet::importers::document
