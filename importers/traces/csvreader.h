// SPDX-License-Identifier: Apache-2.0
#pragma once
// A small CSV reader for the trace importers (no CSV library is used in Fleetscope).
//
// Grammar: RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180), with the relaxations that
// real files need: records end in LF or CRLF (a lone CR is also accepted), the last record
// may lack its line break, and a UTF-8 byte order mark at the very start is skipped.
// A field is either plain (no quote inside) or quoted ("..."), in which `""` stands for one
// quote and commas and line breaks are literal. Anything else after a closing quote, a quote
// inside a plain field, or a quote left open at the end of the text is an error.
// Bytes are passed through as they are: the reader splits on ASCII delimiters only, which is
// safe for UTF-8 (no multi-byte sequence holds an ASCII byte); checking the encoding is the
// caller's job (alibabacsv.cpp validates the whole text once with simdjson::validate_utf8()
// and, only when that fails, each field, to name the first bad one).

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::importers {

/// A syntax error in CSV text: `line` and `column` (both 1-based) are where the faulty
/// field starts; what() is the message alone (the caller adds the file name).
class CsvSyntaxError : public std::runtime_error {
public:
    CsvSyntaxError(std::size_t line, std::size_t column, const std::string& message)
        : std::runtime_error(message)
        , m_line(line)
        , m_column(column)
    {
    }
    /// 1-based line where the faulty field starts.
    std::size_t line() const noexcept { return m_line; }
    /// 1-based column, in bytes from the start of the line, where the faulty field starts.
    std::size_t column() const noexcept { return m_column; }

private:
    std::size_t m_line;
    std::size_t m_column;
};

/// Reads records one at a time from CSV text held in memory (the text must outlive the
/// reader). Fields are returned as views that stay valid until the next call to next().
/// Thread: one reader per thread; no shared state.
class CsvReader {
public:
    /// A reader positioned at the start of `text` (after a UTF-8 BOM, if any).
    explicit CsvReader(std::string_view text) noexcept;

    /// Reads the next record into `fields` (cleared first). Returns false at the end of the
    /// text. An empty line is returned as a record of one empty field, so that callers can
    /// report it against the column count they expect. Throws CsvSyntaxError.
    bool next(std::vector<std::string_view>& fields);

    /// The 1-based line on which the record last returned by next() starts.
    [[nodiscard]] std::size_t recordLine() const noexcept { return m_recordLine; }
    /// Bytes of the text consumed so far (for progress).
    [[nodiscard]] std::size_t offset() const noexcept { return m_pos; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_line = 1;
    std::size_t m_recordLine = 0;
    // Quoted fields that contain "" are unescaped into m_unescaped; each field is first kept
    // as (offset, length, inBuffer) and turned into a view once the record is complete, so
    // that growing the buffer never leaves a view dangling.
    struct Span {
        std::size_t offset;
        std::size_t length;
        bool inBuffer;
    };
    std::vector<Span> m_spans;
    std::string m_unescaped;
};

} // namespace fleet::importers
