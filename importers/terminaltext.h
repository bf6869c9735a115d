// SPDX-License-Identifier: Apache-2.0
#pragma once
// Text for a terminal: what the command-line subcommands print on standard output and
// standard error, made safe when it embeds names from the input.
//
// A pod, node, namespace or label name from a cluster file, a live LIST or a plan file may
// hold any byte. Printed raw, an ESC sequence drives the operator's terminal (clears it,
// rewrites the title, moves the cursor), a CR overwrites what the line said, and a newline
// forges a line of its own ("[3] drain-node x: holds"). The text formatters therefore build
// their output line by line and pass each line through terminalLine(), which escapes every
// control byte, newlines included, as escapedText() does (importers/quotedtext.h); a message
// that is several lines by design passes through terminalLines(), which keeps its line breaks
// and escapes everything else. JSON and CSV outputs escape by their own rules instead.

#include <cstddef>
#include <exception>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>

namespace fleet::importers {

/// How many characters of one line terminalLine() keeps (the rest is cut, "..." follows).
inline constexpr std::size_t kTerminalLineMaxChars = 4096;

/// One line of output: escapedText(line, kTerminalLineMaxChars), i.e. every control byte
/// (tab, CR and LF included), invalid UTF-8 and invisible or reordering characters as \xNN.
/// Without a trailing newline. Pure; thread: any.
[[nodiscard]] std::string terminalLine(std::string_view line);

/// terminalLine() of `parts` written one after the other to a std::ostringstream: a line
/// composed of numbers, fixed text and names. Pure; thread: any.
template <typename... Parts>
[[nodiscard]] std::string terminalLineOf(const Parts&... parts)
{
    std::ostringstream line;
    (line << ... << parts);
    return terminalLine(line.str());
}

/// Text of several lines: each line (split at '\n') through terminalLine(), the '\n' kept, so
/// no byte of it but the line breaks is a control byte. Pure; thread: any.
[[nodiscard]] std::string terminalLines(std::string_view text);

/// An exception's message for a terminal: an ImportError's what() as it is (it escaped its
/// parts: importers/importreport.h), any other's (one line by convention: model errors,
/// option and output errors, which may quote names as they were given) as terminalLine().
/// Thread: any.
[[nodiscard]] std::string messageText(const std::exception& error);

/// Writes terminalLines(text) to `stream` (stdout or stderr); returns false when the write
/// failed. Thread: any (stdio locks the stream).
bool printTerminalText(std::FILE* stream, std::string_view text);

/// printf() into a string, then printTerminalText(stream, it): the sink of the subcommands'
/// messages on standard error, whose arguments (file names, exception texts, names from the
/// input) may hold any byte. Only progress lines that rewrite themselves with CR bypass it.
/// Returns false when the write failed. Thread: any.
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
bool printTerminalf(std::FILE* stream, const char* format, ...);

} // namespace fleet::importers
