// SPDX-License-Identifier: Apache-2.0
// kubejsonwindow.cpp: JsonWindowReader (see kubejsonreader_p.h), the reading half of the
// kubectl JSON importer: the file source, the JSON value readers (null, object, array, string,
// key), the bounded windows handed to simdjson On-Demand, the parse phases (top of the
// document, the items list window by window, the tail). Turning a failure into an ImportError
// naming the line and JSON path is in kubejsonerrors.cpp. What the root's fields and the items
// mean is KubeObjectMapper's (kubeobjectmapper_p.h), so that the window logic can be read on
// its own.
#include "kubejsonreader_p.h"

#include "kubeobjectmapper_p.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fleet::importers::kubejson_detail {

// ---- input ------------------------------------------------------------------------------

FileSource::FileSource(const std::string& path)
    : m_path(path)
{
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0)
        throw ImportError(path, 0, {}, std::string("cannot open the file: ") + std::strerror(errno));
    struct stat st { };
    if (::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(m_fd);
        throw ImportError(path, 0, {}, "not a regular file");
    }
    m_size = static_cast<std::uint64_t>(st.st_size);
    ::posix_fadvise(m_fd, 0, 0, POSIX_FADV_SEQUENTIAL);
}

FileSource::~FileSource() { ::close(m_fd); }

std::size_t FileSource::readAt(std::uint64_t offset, char* dst, std::size_t n)
{
    std::size_t done = 0;
    while (done < n) {
        const ssize_t r = ::pread(m_fd, dst + done, n - done, static_cast<off_t>(offset + done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            throw ImportError(m_path, 0, {}, std::string("cannot read the file: ") + std::strerror(errno));
        }
        if (r == 0)
            break;
        done += static_cast<std::size_t>(r);
    }
    // Ask the kernel to read the next stretch while this one is parsed, so that a file
    // that is not in the page cache streams from disk in parallel with parsing.
    if (done > 0 && offset + done < m_size)
        ::posix_fadvise(m_fd, static_cast<off_t>(offset + done),
            static_cast<off_t>(std::max<std::size_t>(n, std::size_t { 8 } << 20)), POSIX_FADV_WILLNEED);
    return done;
}

namespace {

/// Past the end of the JSON value at `p` (after whitespace), or null when it does not end
/// before `end`. Scalar, string-aware; used only to tell a cut-off item from a bad one.
const char* scanValueEnd(const char* p, const char* end) noexcept
{
    while (p < end && isJsonSpace(*p))
        ++p;
    if (p >= end)
        return nullptr;
    if (*p != '{' && *p != '[')
        return p + 1;
    int depth = 0;
    bool inString = false;
    for (; p < end; ++p) {
        const char c = *p;
        if (inString) {
            if (c == '\\')
                ++p;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0)
                return p + 1;
        }
    }
    return nullptr;
}

} // namespace

// ---- value readers -------------------------------------------------------------------------

bool JsonWindowReader::isNull(od::value& v)
{
    return v.raw_json_token().front() == 'n';
}

od::object JsonWindowReader::objectValue(od::value& v, const char* expected)
{
    if (v.raw_json_token().front() != '{')
        failType(v, expected);
    return v.get_object();
}

od::array JsonWindowReader::arrayValue(od::value& v, const char* expected)
{
    if (v.raw_json_token().front() != '[')
        failType(v, expected);
    return v.get_array();
}

std::string_view JsonWindowReader::stringValue(od::value& v, const char* what, const char** where)
{
    // Zero-copy: the raw token is the string with its quotes plus the whitespace up to the
    // next structural character; only strings with escapes are decoded by simdjson.
    const std::string_view token = v.raw_json_token();
    if (where)
        *where = token.data();
    if (token.empty() || token.front() != '"' || token.data() >= dataEnd())
        failType(v, what);
    std::size_t n = token.size();
    while (n > 1 && isJsonSpace(token[n - 1]))
        --n;
    if (n < 2 || token[n - 1] != '"')
        failType(v, what);
    const std::string_view content = token.substr(1, n - 2);
    if (std::memchr(content.data(), '\\', content.size()) == nullptr)
        return content;
    return v.get_string();
}

std::string_view JsonWindowReader::keyText(od::field& f)
{
    const char* k = f.key().raw();
    const char* p = k;
    while (*p != '"' && *p != '\\')
        ++p;
    if (*p == '"')
        return { k, static_cast<std::size_t>(p - k) };
    return f.unescaped_key();
}

// ---- window management ----------------------------------------------------------------------

void JsonWindowReader::ensureCapacity(std::size_t bytes)
{
    if (bytes <= m_capacity && m_buffer)
        return;
    const std::size_t capacity = std::max(bytes, m_capacity + m_capacity / 2);
    std::unique_ptr<char[]> buffer(new char[kPrefixRoom + capacity + kTailRoom]);
    if (m_winLen > 0)
        std::memcpy(buffer.get() + kPrefixRoom, m_data, m_winLen);
    m_buffer = std::move(buffer);
    m_capacity = capacity;
    m_data = m_buffer.get() + kPrefixRoom;
}

void JsonWindowReader::load(std::uint64_t offset, std::size_t want)
{
    want = static_cast<std::size_t>(std::min<std::uint64_t>(want, m_size - std::min(offset, m_size)));
    if (m_buffer && offset >= m_winOffset && offset <= m_winOffset + m_winLen) {
        const auto shift = static_cast<std::size_t>(offset - m_winOffset);
        std::memmove(m_data, m_data + shift, m_winLen - shift);
        m_winLen -= shift;
    } else {
        m_winLen = 0;
    }
    m_winOffset = offset;
    if (m_winLen > want)
        m_winLen = want; // a smaller window than last time (never happens in practice)
    ensureCapacity(want);
    while (m_winLen < want) {
        const std::size_t n = m_source.readAt(m_winOffset + m_winLen, m_data + m_winLen, want - m_winLen);
        if (n == 0)
            raiseAt(m_winOffset + m_winLen, {}, "the file became shorter while it was read");
        m_winLen += n;
    }
    m_final = m_winOffset + m_winLen >= m_size;
}

std::size_t JsonWindowReader::findCut() const
{
    if (m_final)
        return m_winLen;
    // After a newline: JSON strings cannot hold a raw newline, so no string is open there
    // (pretty-printed kubectl output has one every line).
    const std::size_t look = std::min<std::size_t>(m_winLen, std::size_t { 1 } << 20);
    const char* from = m_data + m_winLen - look;
    if (const void* nl = ::memrchr(from, '\n', look))
        return static_cast<std::size_t>(static_cast<const char*>(nl) - m_data) + 1;
    // Compact JSON: before `{"` followed by a key character. Inside a string, that quote
    // would end the string and must be followed by , : } ] or space, so this `{` is outside.
    for (std::size_t i = m_winLen < 3 ? 0 : m_winLen - 3; i > 0; --i) {
        if (m_data[i] == '{' && m_data[i + 1] == '"' && i + 2 < m_winLen) {
            const char c = m_data[i + 2];
            if (c != ',' && c != ':' && c != '}' && c != ']' && !isJsonSpace(c) && c != '"')
                return i;
        }
    }
    return 0;
}

JsonWindowReader::Outcome JsonWindowReader::parseWindow(Phase phase, std::string_view prefix)
{
    // Layout: prefix | data[0, cut) | ']' | zero padding. The bytes overwritten after the cut
    // are saved and put back afterwards, for the next window.
    const std::size_t saved = std::min(kTailRoom, m_winLen - m_cut);
    std::memcpy(m_saved, m_data + m_cut, saved);
    char* docStart = m_data - prefix.size();
    std::memcpy(docStart, prefix.data(), prefix.size());
    m_data[m_cut] = ']';
    std::memset(m_data + m_cut + 1, 0, simdjson::SIMDJSON_PADDING);
    const std::size_t docLen = prefix.size() + m_cut + 1;

    struct Restore {
        JsonWindowReader* self;
        std::size_t n;
        ~Restore() { std::memcpy(self->m_data + self->m_cut, self->m_saved, n); }
    } restore { this, saved };

    if (m_parser.capacity() < docLen) {
        if (const auto err = m_parser.allocate(std::max(docLen, m_windowBytes + 64)); err != simdjson::SUCCESS)
            raiseAt(m_winOffset, {}, describeSimdjsonError(err));
    }
    const simdjson::padded_string_view view(docStart, docLen, docLen + simdjson::SIMDJSON_PADDING);
    if (const auto err = m_parser.iterate(view).get(m_doc); err != simdjson::SUCCESS) {
        // Stage-1 errors carry no position. Invalid UTF-8 cannot come from our cut (windows
        // end at ASCII), so it is located here: the first byte of the window's longest valid
        // prefix that fails simdjson's validator gives the line.
        if (err == simdjson::UTF8_ERROR)
            raiseAt(m_winOffset + firstInvalidUtf8(m_data, m_cut), {}, describeSimdjsonError(err));
        // An unclosed string in a window that does not reach the end of the file may be our
        // cut: read more.
        if (!m_final)
            return { Outcome::NeedMore, phase, m_winOffset };
        if (err == simdjson::UNCLOSED_STRING)
            raiseAt(m_size, {}, describeSimdjsonError(err));
        throw ImportError(m_name, 0, {}, describeSimdjsonError(err));
    }
    switch (phase) {
    case Phase::Top:
        return parseTop();
    case Phase::Items:
        return parseItemsWindow();
    case Phase::Tail:
        return parseTail();
    default:
        return {};
    }
}

void JsonWindowReader::checkStart(std::uint64_t& start)
{
    // Skip a UTF-8 byte order mark and whitespace; then the first character must open JSON.
    char head[4096];
    std::uint64_t at = 0;
    for (;;) {
        const std::size_t n = m_source.readAt(at, head, sizeof head);
        if (n == 0)
            throw ImportError(m_name, 0, {},
                at == 0 ? "empty file: expected the output of kubectl get nodes/pods -o json"
                        : "the file holds only whitespace: expected the output of kubectl get nodes/pods -o json");
        if (at == 0) {
            if (auto binary = binaryFileMessage(std::string_view(head, n)))
                throw ImportError(m_name, 0, {}, *binary);
        }
        std::size_t i = 0;
        if (at == 0 && n >= 3 && std::memcmp(head, "\xEF\xBB\xBF", 3) == 0)
            i = 3;
        while (i < n && isJsonSpace(head[i]))
            ++i;
        if (i < n) {
            at += i;
            break;
        }
        at += n;
    }
    start = at;
    char c = 0;
    m_source.readAt(at, &c, 1);
    if (c == '{' || c == '[')
        return;
    const std::string line = lineTextAt(at);
    std::string message;
    if (c == '<') {
        message = "this is an HTML page, not kubectl JSON (the file starts with \"" + line
            + "\"): was a login, proxy or error page saved instead of the output of kubectl get ... -o json?";
    } else {
        message = "not JSON: the file starts with text before the JSON: \"" + line + "\"";
        const bool klog = line.size() > 5 && std::strchr("IWEF", line[0]) != nullptr
            && std::all_of(line.begin() + 1, line.begin() + 5, [](char d) { return d >= '0' && d <= '9'; });
        if (klog)
            message += " (a kubectl log line: kubectl writes warnings to stderr; redirect only stdout, e.g. "
                       "kubectl get pods -A -o json 2>/dev/null > pods.json)";
        else if (line.rfind("apiVersion:", 0) == 0 || line.rfind("kind:", 0) == 0 || line.rfind("---", 0) == 0)
            message += " (this looks like YAML: use kubectl get ... -o json)";
        else
            message += " (expected the output of kubectl get nodes/pods -o json, which starts with {)";
    }
    raiseAt(at, {}, message);
}

void JsonWindowReader::run(KubeObjectMapper& mapper)
{
    m_mapper = &mapper;
    std::uint64_t offset = 0;
    checkStart(offset);
    Phase phase = Phase::Top;
    std::size_t want = m_windowBytes;
    while (phase != Phase::Done) {
        m_throttle.tick(static_cast<std::size_t>(offset));
        if (phase == Phase::Tail || phase == Phase::Trailer)
            want = static_cast<std::size_t>(m_size - offset);
        load(offset, want);
        if (phase == Phase::Items) {
            // Between items: whitespace, then a comma where one is due; a ']' ends the items.
            std::size_t i = 0;
            while (i < m_winLen && isJsonSpace(m_data[i]))
                ++i;
            if (i < m_winLen && m_data[i] == ',') {
                if (m_between != Between::AfterItem)
                    failBetweenItems(m_winOffset + i, true);
                m_between = Between::AfterComma;
                ++i;
                while (i < m_winLen && isJsonSpace(m_data[i]))
                    ++i;
            }
            if (i == m_winLen) {
                if (m_final)
                    raiseAt(m_size, "items", "the file ends inside the items list (truncated file?)");
                offset += i;
                want *= 2;
                continue;
            }
            if (m_data[i] == ']') {
                if (m_between == Between::AfterComma)
                    failBetweenItems(m_winOffset + i, true);
                offset += i + 1;
                m_itemsEnded = true;
                phase = m_rootIsArray ? Phase::Trailer : Phase::Tail;
                continue;
            }
            if (m_between == Between::AfterItem)
                failBetweenItems(m_winOffset + i, false);
            if (i > 0) {
                offset += i;
                load(offset, want);
            }
        }
        if (phase == Phase::Trailer) {
            std::size_t i = 0;
            while (i < m_winLen && isJsonSpace(m_data[i]))
                ++i;
            if (i < m_winLen)
                failTrailingText(m_winOffset + i);
            phase = Phase::Done;
            break;
        }
        m_cut = findCut();
        if (m_cut == 0) {
            if (m_final)
                raiseAt(m_size, {}, "the file ends before the JSON document is complete (truncated file?)");
            want *= 2;
            continue;
        }
        const Outcome outcome = parseWindow(phase, phase == Phase::Tail ? std::string_view("[{\"\":0") : std::string_view("["));
        switch (outcome.kind) {
        case Outcome::Done:
            phase = Phase::Done;
            break;
        case Outcome::NeedMore:
            if (m_final) // cannot happen: failures in the last window are reported
                raiseAt(m_winOffset, {}, "internal error: no progress at the end of the file");
            want *= 2;
            break;
        case Outcome::Resume:
            phase = outcome.phase;
            offset = outcome.offset;
            m_between = outcome.between;
            want = m_windowBytes;
            break;
        }
    }
    m_throttle.finish();
    if (m_badValueCount > 0)
        raiseBadValues();
}

// ---- phases ---------------------------------------------------------------------------------

JsonWindowReader::Outcome JsonWindowReader::parseTop()
{
    // Everything that the Top phase learns is learnt again when the window has to grow.
    m_mapper->beginDocument();
    m_rootIsArray = false;
    m_sawItems = false;
    m_itemsEnded = false;
    m_path.reset();
    Outcome itemsOutcome { Outcome::Done, Phase::Done, 0 };
    try {
        od::array wrapper = m_doc.get_array();
        od::value root = *wrapper.begin();
        od::json_type type = root.type();
        if (type == od::json_type::array) {
            m_rootIsArray = true;
            m_sawItems = true;
            m_pathBase = 0;
            itemsOutcome = itemsLoop(root);
            if (itemsOutcome.kind != Outcome::Done)
                return itemsOutcome;
        } else if (type == od::json_type::object) {
            parseRootObject(root.get_object(), false, itemsOutcome);
            if (itemsOutcome.kind != Outcome::Done)
                return itemsOutcome;
        } else {
            failType(root, KubeObjectMapper::kRootExpected);
        }
    } catch (const ParseFailure& f) {
        if (m_final)
            raise(f);
        if (m_itemsEnded)
            return resume(Phase::Tail, m_afterItemsOffset);
        // A bad value that is complete in this window is a real error, wherever the cut is.
        if (f.where != nullptr && f.where < dataEnd() && scanValueEnd(f.where, dataEnd()) != nullptr
            && f.message.rfind("expected", 0) == 0)
            raise(f);
        return { Outcome::NeedMore, Phase::Top, m_winOffset };
    } catch (const simdjson::simdjson_error& e) {
        if (m_final)
            raise(failureFromSimdjson(e.error()));
        if (m_itemsEnded)
            return resume(Phase::Tail, m_afterItemsOffset);
        return { Outcome::NeedMore, Phase::Top, m_winOffset };
    }
    return afterRoot(m_final);
}

JsonWindowReader::Outcome JsonWindowReader::afterRoot(bool final)
{
    const char* loc = nullptr;
    if (m_doc.current_location().get(loc) != simdjson::SUCCESS || loc >= dataEnd()) {
        if (final)
            return {};
        return resume(Phase::Trailer, m_winOffset + m_cut);
    }
    failTrailingText(offsetOf(loc));
}

JsonWindowReader::Outcome JsonWindowReader::parseItemsWindow()
{
    m_path.reset();
    if (!m_rootIsArray)
        m_path.push("items");
    m_pathBase = m_path.depth();
    od::value items;
    try {
        items = m_doc.get_value();
    } catch (const simdjson::simdjson_error& e) {
        raise(failureFromSimdjson(e.error()));
    }
    const Outcome outcome = itemsLoop(items);
    if (outcome.kind == Outcome::Done) // the file's own ']': the rest of the root follows
        return resume(m_rootIsArray ? Phase::Trailer : Phase::Tail, m_afterItemsOffset);
    return outcome;
}

JsonWindowReader::Outcome JsonWindowReader::parseTail()
{
    m_path.reset();
    try {
        od::array wrapper = m_doc.get_array();
        od::value root = *wrapper.begin();
        Outcome unused;
        parseRootObject(root.get_object(), true, unused);
    } catch (const ParseFailure& f) {
        raise(f);
    } catch (const simdjson::simdjson_error& e) {
        raise(failureFromSimdjson(e.error()));
    }
    return afterRoot(true);
}

void JsonWindowReader::parseRootObject(od::object root, bool tail, Outcome& itemsOutcome)
{
    m_itemBadValues.clear();
    m_mapper->beginItem();
    const char* rootStart = m_data; // a single object starts the file
    for (auto fieldResult : root) {
        od::field& f = fieldOf(fieldResult);
        const char* k = f.key().raw();
        if (keyIs(k, "items")) {
            if (tail || m_sawItems)
                fail(f.value().raw_json_token().data(), "the list has two \"items\" fields");
            m_sawItems = true;
            if (isNull(f.value())) {
                m_itemsEnded = true;
                continue;
            }
            m_path.push("items");
            m_pathBase = m_path.depth();
            itemsOutcome = itemsLoop(f.value());
            if (itemsOutcome.kind != Outcome::Done)
                return;
            m_path.pop();
            continue;
        }
        m_mapper->rootField(f, tail);
    }
    m_mapper->endRoot(rootStart, tail);
}

JsonWindowReader::Outcome JsonWindowReader::itemFailure(
    const ParseFailure& f, const char* itemStart, const char* lastGood, bool afterItem)
{
    // Real error, or the window end cutting the item? Only an item that is whole in this
    // window can be blamed; a cut item is parsed again at the start of the next window.
    const char* start = itemStart != nullptr ? itemStart : lastGood;
    const Between between = itemStart != nullptr ? Between::AfterComma : afterItem ? Between::AfterItem : Between::AfterOpen;
    if (m_final || start == nullptr)
        raise(f);
    if (start >= dataEnd())
        return resume(Phase::Items, m_winOffset + m_cut, between);
    const char* s = start;
    while (s < dataEnd() && (isJsonSpace(*s) || *s == ','))
        ++s;
    if (s < dataEnd() && scanValueEnd(s, dataEnd()) != nullptr)
        raise(f); // the item is whole: a real error
    if (offsetOf(start) == m_winOffset)
        return { Outcome::NeedMore, Phase::Items, m_winOffset, m_between };
    return resume(Phase::Items, offsetOf(start), between);
}

JsonWindowReader::Outcome JsonWindowReader::itemsLoop(od::value itemsValue)
{
    const char* lastGood = nullptr; // where the next item (or the comma before it) starts
    const char* itemStart = nullptr;
    bool afterItem = false;
    try {
        od::array items = arrayValue(itemsValue, KubeObjectMapper::kItemsExpected);
        const char* loc = nullptr;
        lastGood = m_doc.current_location().get(loc) == simdjson::SUCCESS ? loc : dataEnd();
        for (auto itemResult : items) {
            itemStart = nullptr;
            od::value& item = itemResult.value();
            itemStart = item.raw_json_token().data();
            m_path.setBase(m_pathBase);
            m_path.pushIndex(m_itemIndex);
            od::object object = objectValue(item, KubeObjectMapper::kItemExpected);
            m_itemBadValues.clear();
            m_mapper->beginItem();
            SeenKeys seen;
            for (auto fieldResult : object) {
                od::field& f = fieldOf(fieldResult);
                uniqueKey(seen, f.key().raw());
                m_mapper->itemField(f);
            }
            m_mapper->commitItem(itemStart);
            ++m_itemIndex;
            itemStart = nullptr;
            afterItem = true;
            m_path.setBase(m_pathBase);
            lastGood = m_doc.current_location().get(loc) == simdjson::SUCCESS ? loc : dataEnd();
            if ((m_itemIndex & 4095) == 0)
                m_throttle.throwIfCancelled();
        }
        m_path.setBase(m_pathBase);
        // The closing bracket: ours (the window ends inside the list) or the file's.
        if (m_doc.current_location().get(loc) != simdjson::SUCCESS) {
            if (m_final)
                raiseAt(m_size, "items", "the file ends inside the items list (truncated file?)");
            return resume(Phase::Items, m_winOffset + m_cut, afterItem ? Between::AfterItem : m_between);
        }
        m_itemsEnded = true;
        m_afterItemsOffset = offsetOf(loc);
        return {};
    } catch (const ParseFailure& f) {
        return itemFailure(f, itemStart, lastGood, afterItem);
    } catch (const simdjson::simdjson_error& e) {
        return itemFailure(failureFromSimdjson(e.error()), itemStart, lastGood, afterItem);
    }
}

} // namespace fleet::importers::kubejson_detail
