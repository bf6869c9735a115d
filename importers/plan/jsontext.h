// SPDX-License-Identifier: Apache-2.0
#pragma once
// A small JSON text writer for plan files and evaluations: objects, arrays, strings escaped
// as RFC 8259 requires (quote, backslash, control characters; a byte of invalid UTF-8 becomes
// U+FFFD), integers, doubles, booleans,
// null; commas and indentation (two spaces) handled by nesting. Thread: any (one per writer).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::importers {

class JsonWriter {
public:
    JsonWriter& beginObject() { return open('{'); }
    JsonWriter& endObject() { return close('}'); }
    JsonWriter& beginArray() { return open('['); }
    JsonWriter& endArray() { return close(']'); }
    JsonWriter& key(std::string_view k)
    {
        separate();
        appendString(k);
        m_out += ": ";
        m_afterKey = true;
        return *this;
    }
    JsonWriter& value(std::string_view s)
    {
        separate();
        appendString(s);
        return *this;
    }
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(std::int64_t v)
    {
        separate();
        m_out += std::to_string(v);
        return *this;
    }
    JsonWriter& value(double v);
    JsonWriter& value(bool b)
    {
        separate();
        m_out += b ? "true" : "false";
        return *this;
    }
    JsonWriter& null()
    {
        separate();
        m_out += "null";
        return *this;
    }
    /// A value given as JSON text, written as is (the caller vouches that it is valid JSON:
    /// a plan's embedded Pod object, minified when read).
    JsonWriter& rawValue(std::string_view json)
    {
        separate();
        m_out += json;
        return *this;
    }
    [[nodiscard]] const std::string& text() const noexcept { return m_out; }

    /// `s` as a JSON string literal (with quotes).
    static std::string quoted(std::string_view s)
    {
        JsonWriter w;
        w.appendString(s);
        return w.m_out;
    }

private:
    JsonWriter& open(char c)
    {
        separate();
        m_out += c;
        m_first.push_back(true);
        return *this;
    }
    JsonWriter& close(char c)
    {
        const bool empty = m_first.back();
        m_first.pop_back();
        if (!empty)
            newline();
        m_out += c;
        return *this;
    }
    void newline()
    {
        m_out += '\n';
        m_out.append(m_first.size() * 2, ' ');
    }
    void separate()
    {
        if (m_afterKey) {
            m_afterKey = false;
            return;
        }
        if (m_first.empty())
            return;
        if (!m_first.back())
            m_out += ',';
        m_first.back() = false;
        newline();
    }
    void appendString(std::string_view s);
    void appendValidString(std::string_view s);

    std::string m_out;
    std::vector<bool> m_first;
    bool m_afterKey = false;
};

} // namespace fleet::importers
