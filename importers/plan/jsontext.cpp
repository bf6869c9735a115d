// SPDX-License-Identifier: Apache-2.0
#include "jsontext.h"

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

void JsonWriter::appendString(std::string_view s)
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
