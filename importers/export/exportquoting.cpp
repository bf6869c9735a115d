// SPDX-License-Identifier: Apache-2.0
// Quoting for exported scripts and CSV (exportquoting.h).
#include "exportquoting.h"

#include <cstdio>
#include <stdexcept>

namespace fleet::importers {

namespace {

bool isBareShellChar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '/'
        || c == ':' || c == '@' || c == '%' || c == '+' || c == '-';
}

bool isControlOrHigh(unsigned char c)
{
    return c < 0x20 || c >= 0x7f;
}

void appendHex(std::string& out, unsigned char c)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
}

// The one escaping loop of both shell forms: `s` onto `out` in printable ASCII, a backslash as
// \\, \n \r \t as those two characters, any other control character or byte >= 0x7f as \xhh
// (lower-case hex), and with `escapeQuote` a ' as \' (inside $'...'). Not escapedText()
// (quotedtext.h): that one keeps valid UTF-8 and leaves backslashes alone, for a reader; here
// bash must get the exact bytes back from $'...', and a comment must say which bytes a name
// holds in pure ASCII, so a backslash is always an escape and nothing above 0x7e stays raw.
void appendBackslashEscaped(std::string& out, std::string_view s, bool escapeQuote)
{
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\\' || (escapeQuote && c == '\''))
            out += std::string("\\") + ch;
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (isControlOrHigh(c))
            appendHex(out, c);
        else
            out += ch;
    }
}

} // namespace

std::string shellWord(std::string_view s)
{
    // A NUL ends every C string bash handles: $'a\x00b' is "a", another name. No quoting keeps it.
    if (s.find('\0') != std::string_view::npos)
        throw std::invalid_argument("\"" + shellCommentText(s) + "\" holds a NUL byte, which no shell word can carry");
    bool bare = !s.empty(), visible = true;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        bare = bare && isBareShellChar(c);
        visible = visible && !isControlOrHigh(c);
    }
    if (bare)
        return std::string(s);
    std::string out;
    if (visible) {
        // Inside '...' nothing is special but ' itself, which ends the quote: '\'' puts it back.
        out = "'";
        for (const char c : s)
            out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return out + "'";
    }
    // $'...' (bash's ANSI-C quoting): every control character and byte >= 0x7f is escaped, so
    // the script shows no raw newline or terminal escape, and bash restores the exact bytes.
    out = "$'";
    appendBackslashEscaped(out, s, true);
    return out + "'";
}

std::string shellCommentText(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    appendBackslashEscaped(out, s, false);
    return out;
}

namespace {

// True when `s` holds at `i` the UTF-8 bytes of an invisible or reordering character, the
// ones escapedText() escapes (importers/quotedtext.h): zero-width and bidirectional marks
// U+200B-U+200F, embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069, the line and
// paragraph separators U+2028-U+2029, and U+FEFF. A spreadsheet or terminal would show U+202E
// as text written backwards ("exe.txt" for "txt.exe").
bool invisibleAt(std::string_view s, std::size_t i)
{
    if (i + 2 >= s.size())
        return false;
    const auto a = static_cast<unsigned char>(s[i]), b = static_cast<unsigned char>(s[i + 1]), c = static_cast<unsigned char>(s[i + 2]);
    if (a == 0xef)
        return b == 0xbb && c == 0xbf;
    if (a != 0xe2)
        return false;
    if (b == 0x80)
        return (c >= 0x8b && c <= 0x8f) || (c >= 0xa8 && c <= 0xae);
    return b == 0x81 && c >= 0xa6 && c <= 0xa9;
}

} // namespace

std::string csvTextField(std::string_view s)
{
    // Control characters first (a CSV printed to a terminal with --csv - must not drive it, and
    // no Kubernetes name holds one: importers/kubenames.h), then the formula prefix.
    std::string text;
    text.reserve(s.size() + 2);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        const bool c1 = c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80
            && static_cast<unsigned char>(s[i + 1]) <= 0x9f;
        if (invisibleAt(s, i)) {
            char escaped[16];
            std::snprintf(escaped, sizeof escaped, "\\x%02X\\x%02X\\x%02X", c, static_cast<unsigned char>(s[i + 1]),
                static_cast<unsigned char>(s[i + 2]));
            text += escaped;
            i += 2;
            continue;
        }
        if (c < 0x20 || c == 0x7f || c1) {
            char escaped[16];
            if (c1)
                std::snprintf(escaped, sizeof escaped, "\\xC2\\x%02X", static_cast<unsigned char>(s[++i]));
            else
                std::snprintf(escaped, sizeof escaped, "\\x%02X", c);
            text += escaped;
        } else {
            text += s[i];
        }
    }
    const char first = text.empty() ? 'x' : text.front();
    if (first == '=' || first == '+' || first == '-' || first == '@')
        text.insert(0, 1, '\'');
    if (text.find_first_of(",\"") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string csvNumberField(std::int64_t n)
{
    return std::to_string(n);
}

} // namespace fleet::importers
