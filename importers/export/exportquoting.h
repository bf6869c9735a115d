// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place that quotes text taken from the input (node, pod and namespace names, reason
// codes, file names, server URLs: all untrusted, from files or a live LIST) before it goes into
// an exported bash script or CSV file. Everything the plan exports passes through these.
//
// Shell (bash): a word is either left bare (only characters with no meaning to the shell),
// single-quoted, or ANSI-C quoted ($'...') when it holds a control character or a byte outside
// printable ASCII, so the script shows it escaped and bash still passes its exact bytes. A
// comment line never holds a raw newline, carriage return or other control character: they
// are shown as \n, \r, \t or \xHH (and a backslash as \\), so a name cannot end the comment and
// run as a command, nor hide text on a terminal.
//
// CSV (RFC 4180): a field is double-quoted when it holds a comma or a double quote, its quotes
// doubled. A control character (C0 with NUL, TAB, CR and LF; DEL; C1) and a bidirectional
// override or other invisible character (U+202E shows text backwards) is written as \xNN, as
// escapedText() writes it: no Kubernetes name holds one (importers/kubenames.h), and a CSV goes
// to a terminal too (`--csv -`), where ESC, BEL or CR would drive it. A text field whose first
// character is then =, +, -, or @ is prefixed with a single quote, so that spreadsheets read it
// as text, not as a formula (OWASP, "CSV Injection", and OWASP ASVS 5.0 requirement 1.2.10;
// OWASP's TAB and CR triggers can no longer lead, being escaped). Numeric columns are written
// as numbers, never prefixed.
//
// Thread: any (pure functions).

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace fleet::importers {

/// `s` as one bash word whose value is exactly `s` (bytes included), in any position but a
/// command's first word: bare when non-empty and made only of [A-Za-z0-9._/:@%+-]; $'...' when
/// it holds a control character or a byte >= 0x7f (each escaped: \n \r \t \\ \' \xHH);
/// else '...' (a ' written as '\''). The empty string is ''. Throws std::invalid_argument (naming
/// `s`, escaped) when `s` holds a NUL byte, which no bash word can carry.
[[nodiscard]] std::string shellWord(std::string_view s);

/// `s` made safe to follow "# " on one line of a bash script: printable ASCII as is, a backslash
/// as \\, \n \r \t as those two characters, any other control character or byte >= 0x7f as \xHH.
/// The result holds no byte below 0x20 and none above 0x7e.
[[nodiscard]] std::string shellCommentText(std::string_view s);

/// One CSV text field (RFC 4180), control characters as \xNN (C1 U+0080-U+009F as \xC2\xNN)
/// and invisible or reordering characters (U+200B-U+200F, U+2028-U+202E, U+2066-U+2069,
/// U+FEFF, as escapedText() chooses them) as the \xNN of their three bytes, then formula-neutralised (a leading =, +, - or @ gets a ' in front), then double-quoted if it
/// holds , or ". The result holds no control byte.
[[nodiscard]] std::string csvTextField(std::string_view s);

/// One CSV numeric field: the integer in decimal, never quoted nor prefixed.
[[nodiscard]] std::string csvNumberField(std::int64_t n);

} // namespace fleet::importers
