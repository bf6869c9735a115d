// SPDX-License-Identifier: Apache-2.0
#pragma once
// The body of a Kubernetes WATCH response, read as it arrives: a sequence of watch events
// (meta/v1 WatchEvent, {"type": "ADDED"|"MODIFIED"|"DELETED"|"BOOKMARK"|"ERROR", "object": {...}}),
// one JSON object after another. The API server writes each event followed by a newline; the
// reader does not rely on that and splits on complete top-level JSON objects (client-go's
// framer.NewJSONFramedReader reads them the same way), so an event split across chunks at any
// byte, or two events in one chunk, read the same.
//
// Sources: https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes
// (event types, bookmarks carrying only metadata.resourceVersion, ERROR with a Status such as
// 410 Expired) and apimachinery pkg/apis/meta/v1/watch.go.
//
// Thread: one reader per stream, used by one thread.

#include "importers/importreport.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace fleet::importers::live {

/// One decoded watch event.
struct WatchEvent {
    enum class Type : std::uint8_t { Added, Modified, Deleted, Bookmark, Error };
    Type type = Type::Added;
    std::string kind;            ///< object.kind ("Pod", "Node"; "Status" for an ERROR); may be empty
    std::string namespaceName;   ///< object.metadata.namespace ("" for a cluster-scoped object)
    std::string name;            ///< object.metadata.name ("" for a bookmark or an error)
    std::string uid;             ///< object.metadata.uid, or ""
    std::string resourceVersion; ///< object.metadata.resourceVersion, or ""
    std::string object;          ///< ADDED / MODIFIED / DELETED: the object's JSON text (minified)
    int errorCode = 0;           ///< ERROR: the Status's code (410 for Expired / Gone), else 0
    std::string errorMessage;    ///< ERROR: the Status's message (or reason)
};

/// "ADDED", "MODIFIED", ... as the API spells the type. Thread: any.
[[nodiscard]] std::string_view watchEventTypeName(WatchEvent::Type t) noexcept;

class WatchStreamReader {
public:
    /// `sourceName` names the stream in errors ("https://host:6443/api/v1/pods?watch=1").
    /// `maxEventBytes` bounds one event (a stream that never closes its object is refused
    /// rather than held in memory without end).
    explicit WatchStreamReader(std::string sourceName, std::size_t maxEventBytes = std::size_t { 64 } << 20);
    ~WatchStreamReader();
    WatchStreamReader(const WatchStreamReader&) = delete;
    WatchStreamReader& operator=(const WatchStreamReader&) = delete;

    /// Appends `bytes` of the body and calls `onEvent` for every event completed by them, in
    /// order. Throws ImportError (source, event number as the line, JSON path, what) for bytes
    /// between events that are not whitespace, an event that is not valid JSON, lacks "type" or
    /// "object" or has an unknown type, an ADDED / MODIFIED / DELETED object without
    /// metadata.name, or an event larger than maxEventBytes. After a throw the reader is reset.
    void append(std::string_view bytes, const std::function<void(WatchEvent&&)>& onEvent);
    /// Bytes held of an event not yet complete.
    [[nodiscard]] std::size_t pendingBytes() const noexcept;
    /// Events decoded since construction or reset().
    [[nodiscard]] std::size_t events() const noexcept;
    /// Drops any partial event (a new stream starts).
    void reset();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace fleet::importers::live
