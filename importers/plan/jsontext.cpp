// SPDX-License-Identifier: Apache-2.0
#include "jsontext.h"

#include <simdjson.h>

#include <cmath>
#include <cstdio>

namespace fleet::importers {

JsonWriter& JsonWriter::value(double v)
{
    separate();
    if (!std::isfinite(v)) {
        m_out += "null";
        return *this;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    m_out += buf;
    return *this;
}

namespace {

// The length of the UTF-8 sequence that starts with lead byte `c` (1 for ASCII and for a byte
// that cannot start one).
std::size_t sequenceLength(unsigned char c) noexcept
{
    return c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

} // namespace

void JsonWriter::appendString(std::string_view s)
{
    // RFC 8259 text is UTF-8: a byte that is not part of a valid sequence (a file name in
    // Latin-1, a forged value) is written as U+FFFD, so the output stays JSON every reader
    // (Fleetscope's own included) accepts. Validity is simdjson's (no overlong forms, no
    // surrogates, at most U+10FFFF).
    if (!simdjson::validate_utf8(s.data(), s.size())) {
        std::string valid;
        valid.reserve(s.size() + 8);
        for (std::size_t i = 0; i < s.size();) {
            const std::size_t n = sequenceLength(static_cast<unsigned char>(s[i]));
            if (i + n <= s.size() && simdjson::validate_utf8(s.data() + i, n)) {
                valid.append(s.data() + i, n);
                i += n;
            } else {
                valid += "\xEF\xBF\xBD";
                ++i;
            }
        }
        appendValidString(valid);
        return;
    }
    appendValidString(s);
}

void JsonWriter::appendValidString(std::string_view s)
{
    m_out += '"';
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            m_out += "\\\"";
            break;
        case '\\':
            m_out += "\\\\";
            break;
        case '\n':
            m_out += "\\n";
            break;
        case '\r':
            m_out += "\\r";
            break;
        case '\t':
            m_out += "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                m_out += buf;
            } else {
                m_out += ch;
            }
        }
    }
    m_out += '"';
}

} // namespace fleet::importers
