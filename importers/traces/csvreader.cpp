// SPDX-License-Identifier: Apache-2.0
#include "csvreader.h"

namespace fleet::importers {

CsvReader::CsvReader(std::string_view text) noexcept
    : m_text(text)
{
    if (m_text.substr(0, 3) == "\xEF\xBB\xBF")
        m_pos = 3;
}

bool CsvReader::next(std::vector<std::string_view>& fields)
{
    fields.clear();
    m_spans.clear();
    m_unescaped.clear();
    if (m_pos >= m_text.size())
        return false;
    m_recordLine = m_line;

    const std::size_t size = m_text.size();
    std::size_t lineStart = m_pos; // for column numbers in errors
    bool endOfRecord = false;
    while (!endOfRecord) {
        const std::size_t fieldStart = m_pos;
        const std::size_t column = fieldStart - lineStart + 1;
        if (m_pos < size && m_text[m_pos] == '"') {
            // Quoted field.
            const std::size_t openLine = m_line;
            ++m_pos;
            const std::size_t contentStart = m_pos;
            bool escaped = false;
            std::size_t bufferStart = m_unescaped.size();
            while (true) {
                if (m_pos >= size)
                    throw CsvSyntaxError(openLine, column, "quoted field is not closed: expected a closing '\"'");
                const char c = m_text[m_pos];
                if (c == '"') {
                    if (m_pos + 1 < size && m_text[m_pos + 1] == '"') {
                        if (!escaped) {
                            escaped = true;
                            m_unescaped.append(m_text.substr(contentStart, m_pos - contentStart));
                        }
                        m_unescaped.push_back('"');
                        m_pos += 2;
                        continue;
                    }
                    break;
                }
                if (c == '\n' || (c == '\r' && (m_pos + 1 >= size || m_text[m_pos + 1] != '\n'))) {
                    ++m_line;
                    lineStart = m_pos + 1;
                }
                if (escaped)
                    m_unescaped.push_back(c);
                ++m_pos;
            }
            if (escaped)
                m_spans.push_back({ bufferStart, m_unescaped.size() - bufferStart, true });
            else
                m_spans.push_back({ contentStart, m_pos - contentStart, false });
            ++m_pos; // closing quote
            if (m_pos < size && m_text[m_pos] != ',' && m_text[m_pos] != '\n' && m_text[m_pos] != '\r')
                throw CsvSyntaxError(m_line, m_pos - lineStart + 1,
                    "unexpected character after a closing quote: expected ',' or the end of the line");
        } else {
            while (m_pos < size) {
                const char c = m_text[m_pos];
                if (c == ',' || c == '\n' || c == '\r')
                    break;
                if (c == '"')
                    throw CsvSyntaxError(
                        m_line, column, "quote inside an unquoted field: quote the whole field and double the quote");
                ++m_pos;
            }
            m_spans.push_back({ fieldStart, m_pos - fieldStart, false });
        }
        // Separator or end of record.
        if (m_pos >= size) {
            endOfRecord = true;
        } else if (m_text[m_pos] == ',') {
            ++m_pos;
        } else {
            // '\n', "\r\n" or a lone '\r'
            if (m_text[m_pos] == '\r' && m_pos + 1 < size && m_text[m_pos + 1] == '\n')
                ++m_pos;
            ++m_pos;
            ++m_line;
            endOfRecord = true;
        }
    }
    fields.reserve(m_spans.size());
    for (const Span& s : m_spans)
        fields.push_back(
            s.inBuffer ? std::string_view(m_unescaped).substr(s.offset, s.length) : m_text.substr(s.offset, s.length));
    return true;
}

} // namespace fleet::importers
