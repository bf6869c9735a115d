// SPDX-License-Identifier: Apache-2.0
#include "importers/live/watchstream.h"

#include "importers/quotedtext.h"

#include <simdjson.h>

namespace fleet::importers::live {

namespace dom = simdjson::dom;

std::string_view watchEventTypeName(WatchEvent::Type t) noexcept
{
    switch (t) {
    case WatchEvent::Type::Added: return "ADDED";
    case WatchEvent::Type::Modified: return "MODIFIED";
    case WatchEvent::Type::Deleted: return "DELETED";
    case WatchEvent::Type::Bookmark: return "BOOKMARK";
    case WatchEvent::Type::Error: return "ERROR";
    }
    return "ADDED";
}

struct WatchStreamReader::Impl {
    std::string source;
    std::size_t maxEventBytes;
    std::string event;   // bytes of the event being read, from its '{'
    int depth = 0;       // brace/bracket depth inside the event
    bool inString = false, escaped = false;
    std::size_t events = 0;
    dom::parser parser;

    void clear()
    {
        event.clear();
        depth = 0;
        inString = escaped = false;
    }

    [[noreturn]] void fail(const std::string& path, const std::string& message)
    {
        const std::size_t number = events + 1;
        clear();
        throw ImportError(source, number, path, message);
    }

    static std::string stringAt(dom::element e, const char* key)
    {
        std::string_view s;
        if (e[key].get_string().get(s) != simdjson::SUCCESS)
            return {};
        return std::string(s);
    }

    WatchEvent decode()
    {
        dom::element doc;
        if (auto err = parser.parse(event).get(doc))
            fail({}, std::string("an event that is not valid JSON: ") + simdjson::error_message(err));
        dom::object root;
        if (doc.get_object().get(root) != simdjson::SUCCESS)
            fail({}, "an event that is not a JSON object");
        std::string_view type;
        if (doc["type"].get_string().get(type) != simdjson::SUCCESS)
            fail("type", "an event without a string \"type\"");
        dom::object object;
        if (doc["object"].get_object().get(object) != simdjson::SUCCESS)
            fail("object", "an event without an \"object\"");
        WatchEvent e;
        if (type == "ADDED")
            e.type = WatchEvent::Type::Added;
        else if (type == "MODIFIED")
            e.type = WatchEvent::Type::Modified;
        else if (type == "DELETED")
            e.type = WatchEvent::Type::Deleted;
        else if (type == "BOOKMARK")
            e.type = WatchEvent::Type::Bookmark;
        else if (type == "ERROR")
            e.type = WatchEvent::Type::Error;
        else
            fail("type", "an unknown event type " + quotedText(std::string(type), 40));
        const dom::element obj = doc["object"];
        e.kind = stringAt(obj, "kind");
        if (e.type == WatchEvent::Type::Error) {
            int64_t code = 0;
            if (obj["code"].get_int64().get(code) == simdjson::SUCCESS && code > 0 && code < 1000)
                e.errorCode = static_cast<int>(code);
            e.errorMessage = stringAt(obj, "message");
            if (e.errorMessage.empty())
                e.errorMessage = stringAt(obj, "reason");
            return e;
        }
        dom::element meta;
        if (obj["metadata"].get(meta) == simdjson::SUCCESS && meta.is_object()) {
            e.namespaceName = stringAt(meta, "namespace");
            e.name = stringAt(meta, "name");
            e.uid = stringAt(meta, "uid");
            e.resourceVersion = stringAt(meta, "resourceVersion");
        }
        if (e.type == WatchEvent::Type::Bookmark)
            return e;
        if (e.name.empty())
            fail("object.metadata.name", "a " + std::string(type) + " event whose object has no metadata.name");
        e.object = simdjson::minify(obj);
        return e;
    }

    void feed(std::string_view bytes, const std::function<void(WatchEvent&&)>& onEvent)
    {
        std::size_t i = 0;
        while (i < bytes.size()) {
            if (event.empty()) {
                // Between events: whitespace only, then the '{' that opens the next one.
                const char c = bytes[i++];
                if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
                    continue;
                if (c != '{')
                    fail({}, "bytes between events that do not start a JSON object: " + quotedText(std::string(bytes.substr(i - 1, 40)), 40));
                event.push_back(c);
                depth = 1;
                continue;
            }
            // Inside an event: copy up to its closing brace.
            const std::size_t start = i;
            for (; i < bytes.size() && depth > 0; ++i) {
                const char c = bytes[i];
                if (inString) {
                    if (escaped)
                        escaped = false;
                    else if (c == '\\')
                        escaped = true;
                    else if (c == '"')
                        inString = false;
                } else if (c == '"')
                    inString = true;
                else if (c == '{' || c == '[')
                    ++depth;
                else if (c == '}' || c == ']')
                    --depth;
            }
            event.append(bytes.substr(start, i - start));
            if (event.size() > maxEventBytes)
                fail({}, "an event larger than " + std::to_string(maxEventBytes >> 20) + " MiB (the stream never closes its object)");
            if (depth > 0)
                return; // the rest comes with the next bytes
            WatchEvent e = decode();
            ++events;
            clear();
            onEvent(std::move(e));
        }
    }
};

WatchStreamReader::WatchStreamReader(std::string sourceName, std::size_t maxEventBytes)
    : d(std::make_unique<Impl>())
{
    d->source = std::move(sourceName);
    d->maxEventBytes = maxEventBytes;
}

WatchStreamReader::~WatchStreamReader() = default;

void WatchStreamReader::append(std::string_view bytes, const std::function<void(WatchEvent&&)>& onEvent) { d->feed(bytes, onEvent); }

std::size_t WatchStreamReader::pendingBytes() const noexcept { return d->event.size(); }

std::size_t WatchStreamReader::events() const noexcept { return d->events; }

void WatchStreamReader::reset()
{
    d->clear();
    d->events = 0;
}

} // namespace fleet::importers::live
