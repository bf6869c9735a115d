// SPDX-License-Identifier: Apache-2.0
// kubejsonerrors.cpp: how JsonWindowReader (see kubejsonreader_p.h) turns a failure into
// an ImportError: simdjson's error codes in words, the line and JSON path of the offset, the
// text quoted from the line, the first invalid UTF-8 byte, the bad values of an item, and
// text after the document. Separate from kubejsonwindow.cpp, which finds the windows and items.
#include "kubejsonreader_p.h"

#include "kubeobjectmapper_p.h" // the words for an item

namespace fleet::importers::kubejson_detail {

namespace {

const char* jsonTypeName(od::json_type t) noexcept
{
    switch (t) {
    case od::json_type::array:
        return "an array";
    case od::json_type::object:
        return "an object";
    case od::json_type::number:
        return "a number";
    case od::json_type::string:
        return "a string";
    case od::json_type::boolean:
        return "a boolean";
    case od::json_type::null:
        return "null";
    }
    return "something else";
}

// How much an error quotes of the text after the document.
constexpr std::size_t kTrailingTextChars = 40;

// The line `text` starts (up to the first line break), quoted safely for an error message.
std::string lineExcerpt(std::string_view text, std::size_t maxChars = kQuotedTextMaxChars)
{
    return escapedText(text.substr(0, std::min(text.find_first_of("\r\n"), text.size())), maxChars);
}

} // namespace

// Offset of (about) the first byte that makes `data[0, size)` invalid UTF-8, by binary search
// over prefixes with simdjson::validate_utf8 (a prefix may end inside a multi-byte character,
// so it counts as valid when cutting up to 3 more bytes makes it valid). O(size log size).
std::size_t firstInvalidUtf8(const char* data, std::size_t size)
{
    auto validPrefix = [data](std::size_t k) {
        for (std::size_t cut = 0; cut <= 3 && cut <= k; ++cut)
            if (simdjson::validate_utf8(data, k - cut))
                return true;
        return false;
    };
    std::size_t lo = 0, hi = size; // prefix lo is valid, prefix hi is not
    if (validPrefix(hi))
        return size;
    while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (validPrefix(mid))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

std::string describeSimdjsonError(simdjson::error_code code)
{
    switch (code) {
    case simdjson::TAPE_ERROR:
        return "malformed JSON (a missing or extra comma, colon, brace or bracket)";
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
        return "the JSON ends before every object and array is closed (truncated file?)";
    case simdjson::UNCLOSED_STRING:
        return "a JSON string is not closed before the end of the file (truncated file?)";
    case simdjson::UTF8_ERROR:
        return "the file is not valid UTF-8";
    case simdjson::UNESCAPED_CHARS:
        return "a JSON string holds an unescaped control character";
    case simdjson::STRING_ERROR:
        return "malformed JSON string";
    case simdjson::NUMBER_ERROR:
    case simdjson::NUMBER_OUT_OF_RANGE:
        return "malformed or out-of-range JSON number";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR:
        return "malformed JSON literal (true, false or null expected)";
    case simdjson::DEPTH_ERROR:
        return "the JSON is nested too deeply";
    case simdjson::CAPACITY:
        return "a single JSON value is larger than the 4 GB simdjson can index at once";
    default:
        return std::string("malformed JSON: ") + simdjson::error_message(code);
    }
}

void JsonWindowReader::fail(const char* where, std::string message)
{
    throw ParseFailure { std::move(message), m_path.format(), where };
}

void JsonWindowReader::failType(od::value& v, const char* expected)
{
    const char* where = v.raw_json_token().data();
    od::json_type t {};
    if (where >= dataEnd())
        fail(where, std::string("expected ") + expected + ", got the end of the data");
    if (v.type().get(t) != simdjson::SUCCESS)
        fail(where, std::string("malformed JSON where ") + expected + " was expected");
    fail(where, std::string("expected ") + expected + ", got " + jsonTypeName(t));
}

ParseFailure JsonWindowReader::failureFromSimdjson(simdjson::error_code code)
{
    ParseFailure f;
    f.message = describeSimdjsonError(code);
    f.path = m_path.format();
    const char* loc = nullptr;
    if (m_doc.current_location().get(loc) != simdjson::SUCCESS)
        loc = dataEnd();
    f.where = loc;
    return f;
}

std::size_t JsonWindowReader::lineOf(std::uint64_t offset)
{
    offset = std::min(offset, m_size);
    std::size_t lines = 1;
    std::vector<char> block(std::size_t { 1 } << 20);
    for (std::uint64_t at = 0; at < offset;) {
        const std::size_t n
            = m_source.readAt(at, block.data(), static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), offset - at)));
        if (n == 0)
            break;
        lines += static_cast<std::size_t>(std::count(block.data(), block.data() + n, '\n'));
        at += n;
    }
    return lines;
}

std::string JsonWindowReader::lineTextAt(std::uint64_t offset)
{
    // Find the start of the line holding `offset` (at most 4 KiB back), then show it.
    const std::uint64_t from = offset > 4096 ? offset - 4096 : 0;
    std::string text(static_cast<std::size_t>(offset - from) + 200, '\0');
    text.resize(m_source.readAt(from, text.data(), text.size()));
    std::size_t at = static_cast<std::size_t>(std::min<std::uint64_t>(offset - from, text.size()));
    const std::size_t nl = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
    const std::size_t begin = nl == std::string::npos ? 0 : nl + 1;
    std::string_view line(text.data() + begin, text.size() - begin);
    std::size_t lead = 0;
    while (lead < line.size() && (line[lead] == ' ' || line[lead] == '\t'))
        ++lead;
    return lineExcerpt(line.substr(lead));
}

void JsonWindowReader::failTrailingText(std::uint64_t offset)
{
    // Quote the trailing text itself, not the line it is on: after a one-line document, that
    // line starts with the document.
    std::string text(4 * kTrailingTextChars, '\0');
    text.resize(m_source.readAt(offset, text.data(), text.size()));
    raiseAt(offset, {}, "unexpected text after the end of the JSON document: \"" + lineExcerpt(text, kTrailingTextChars) + "\"");
}

void JsonWindowReader::raiseAt(std::uint64_t offset, const std::string& path, const std::string& message)
{
    throw ImportError(m_name, lineOf(offset), path, message);
}

void JsonWindowReader::recordBadValue(const char* where, std::string message)
{
    m_itemBadValues.push_back({offsetOf(where), m_path.format(), std::move(message)});
}

void JsonWindowReader::keepItemBadValues()
{
    m_badValueCount += m_itemBadValues.size();
    for (OffsetBadValue& b : m_itemBadValues)
        if (m_badValues.size() <= BadValueList::kListed)
            m_badValues.push_back(std::move(b));
    m_itemBadValues.clear();
}

void JsonWindowReader::raiseBadValues()
{
    // Lines of the listed values in one pass over the file (they are in file order).
    std::vector<std::size_t> lines(m_badValues.size(), 1);
    {
        std::size_t line = 1;
        std::uint64_t at = 0;
        std::vector<char> block(std::size_t { 1 } << 20);
        for (std::size_t i = 0; i < m_badValues.size(); ++i) {
            const std::uint64_t target = std::min(m_badValues[i].offset, m_size);
            while (at < target) {
                const std::size_t n = m_source.readAt(
                    at, block.data(), static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), target - at)));
                if (n == 0)
                    break;
                line += static_cast<std::size_t>(std::count(block.data(), block.data() + n, '\n'));
                at += n;
            }
            lines[i] = line;
        }
    }
    BadValueList list;
    for (std::size_t i = 0; i < m_badValues.size(); ++i)
        list.add({ lines[i], m_badValues[i].path, m_badValues[i].message });
    list.addUnlisted(m_badValueCount - m_badValues.size());
    list.raise(m_name);
}

void JsonWindowReader::failBetweenItems(std::uint64_t offset, bool itemDue)
{
    // The same words as when the whole list is in one window (simdjson's error there).
    const std::string path
        = itemDue ? (m_rootIsArray ? "" : "items") + ("[" + std::to_string(m_itemIndex) + "]") : (m_rootIsArray ? "" : "items");
    const std::string message
        = itemDue ? std::string("malformed JSON where ") + KubeObjectMapper::kItemExpected + " was expected" : describeSimdjsonError(simdjson::TAPE_ERROR);
    raiseAt(offset, path, message + "; the line reads \"" + lineTextAt(offset) + "\"");
}

void JsonWindowReader::raise(const ParseFailure& f)
{
    const std::uint64_t offset = offsetOf(f.where);
    std::string message = f.message;
    if (f.where != nullptr && f.where >= dataEnd() && m_final) {
        message += " (the file ends there: truncated?)";
    } else if (message.rfind("malformed", 0) == 0 || message.rfind("the JSON", 0) == 0) {
        const std::string line = lineTextAt(offset);
        if (!line.empty())
            message += "; the line reads \"" + line + "\"";
    }
    raiseAt(offset, f.path, message);
}

} // namespace fleet::importers::kubejson_detail
