// SPDX-License-Identifier: Apache-2.0
#pragma once
// Quoting input text in error messages safely, and telling a binary file from text.
//
// Error messages end up on a terminal (the CLI) or in a dialog. Input text quoted in them
// must therefore never carry raw control bytes (an ESC sequence would drive the terminal),
// invalid UTF-8 (it garbles the line, and makes a JSON summary invalid) or a whole
// megabyte-long line. These helpers are used by every importer that quotes input
// (importers/kube/kubejson.cpp, importers/traces/alibabacsv.cpp); only on the error path.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace fleet::importers {

/// How many characters of input an error message quotes by default.
inline constexpr std::size_t kQuotedTextMaxChars = 60;

/// `text` made safe to print: printable ASCII and valid, printable UTF-8 characters are kept
/// as they are; every other byte is written as \xNN (upper-case hex): ASCII control bytes
/// (tab and line breaks included) and DEL, bytes that are not part of a valid UTF-8 sequence
/// (validity as simdjson::validate_utf8() judges it: no overlong forms, no surrogates, at
/// most U+10FFFF), and the bytes of valid but invisible or reordering characters (C1
/// controls U+0080-U+009F, zero-width and bidirectional marks U+200B-U+200F, U+202A-U+202E,
/// U+2066-U+2069, line and paragraph separators U+2028-U+2029, U+FEFF). Backslashes and
/// quotes are kept as they are: the result is for a reader, not for parsing back (a JSON
/// line keeps its own \" escapes readable).
/// At most `maxChars` characters of `text` are shown (an escaped byte counts as one
/// character); "..." follows when text was left out.
/// Pure; thread: any. Allocates (error path only).
[[nodiscard]] std::string escapedText(std::string_view text, std::size_t maxChars = kQuotedTextMaxChars);

/// escapedText() in double quotes: `"abc\xFF..."`.
[[nodiscard]] std::string quotedText(std::string_view text, std::size_t maxChars = kQuotedTextMaxChars);

/// When the first bytes of a file (`head`: the first 4 KiB or all of a shorter file) show
/// that it is not text, the message to give, e.g. "binary file (looks like ELF), not kubectl
/// JSON or a trace CSV"; else nothing. Recognised: the magic numbers of ELF (\x7fELF), PNG
/// (\x89PNG), zip (PK\x03\x04, PK\x05\x06), gzip (\x1f\x8b), xz and zstd; a UTF-16 byte order
/// mark (the text is UTF-16, e.g. written by PowerShell's `>`); any other file with a NUL
/// byte in `head` ("binary file (it holds NUL bytes)"; no JSON or CSV text holds one).
/// Only the first 4096 bytes of `head` are looked at. Pure; thread: any.
[[nodiscard]] std::optional<std::string> binaryFileMessage(std::string_view head);

/// How many leading bytes binaryFileMessage() looks at.
inline constexpr std::size_t kBinaryCheckBytes = 4096;

} // namespace fleet::importers
