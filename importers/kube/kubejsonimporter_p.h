// SPDX-License-Identifier: Apache-2.0
// kubejsonimporter_p.h: the private declaration of KubectlJsonImporter, the kubectl JSON
// importer behind kubejson.h, and the small helpers its two halves share (the byte sources, the
// JSON path stack, vector slot reuse, raw key comparison). Private to importers/kube/: the
// class is implemented in two files by idea, kubejsonwindow.cpp (reading the document in
// bounded windows with simdjson On-Demand and locating errors) and kubeobjects.cpp (mapping
// Kubernetes Node and Pod objects onto NodeRecord/PodRecord); kubejson.cpp holds the public
// entry points. The hot-path helpers stay inline here (and the loop shapes always_inline in
// the class) so that both files compile them where they are used, as the single file did.
#pragma once

#include "kubejson.h"

#include "importers/badvalues.h"
#include "importers/namedvalue.h"
#include "importers/progressthrottle.h"
#include "importers/quotedtext.h"
#include "model/podrequest.h"
#include "model/quantity.h"

#include <simdjson.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace fleet::importers::kubejson_detail {

namespace od = simdjson::ondemand;
using model::ClusterStore;
using model::CoreResource;
using model::NodeRecord;
using model::OwnerKind;
using model::PodPhase;
using model::PodRecord;
using model::QuantityScale;
using model::Readiness;
using model::ResourceKey;
using model::ResourceList;
using model::SelectorOperator;
using model::TaintEffect;
using model::TolerationOperator;

// ---- input ------------------------------------------------------------------------------

/// Random-access bytes: a file (pread) or text in memory.
class Source {
public:
    virtual ~Source() = default;
    [[nodiscard]] virtual std::uint64_t size() const = 0;
    /// Reads up to n bytes at `offset`; returns how many were read (0 at the end).
    virtual std::size_t readAt(std::uint64_t offset, char* dst, std::size_t n) = 0;
};

class FileSource final : public Source {
public:
    /// Opens `path` for reading; throws ImportError when it cannot be opened or is not a
    /// regular file.
    explicit FileSource(const std::string& path);
    ~FileSource() override;
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;
    std::uint64_t size() const override { return m_size; }
    std::size_t readAt(std::uint64_t offset, char* dst, std::size_t n) override;

private:
    std::string m_path;
    int m_fd = -1;
    std::uint64_t m_size = 0;
};

class TextSource final : public Source {
public:
    explicit TextSource(std::string_view text)
        : m_text(text)
    {
    }
    std::uint64_t size() const override { return m_text.size(); }
    std::size_t readAt(std::uint64_t offset, char* dst, std::size_t n) override
    {
        if (offset >= m_text.size())
            return 0;
        n = std::min<std::size_t>(n, m_text.size() - offset);
        std::memcpy(dst, m_text.data() + offset, n);
        return n;
    }

private:
    std::string_view m_text;
};

// ---- small helpers ----------------------------------------------------------------------

/// simdjson's error `code` in an operator's words ("malformed JSON (a missing or extra comma,
/// ...)", "the file is not valid UTF-8"). kubejsonerrors.cpp.
std::string describeSimdjsonError(simdjson::error_code code);

/// Offset of (about) the first byte that makes `data[0, size)` invalid UTF-8, or `size` when
/// it is all valid. O(size log size). kubejsonerrors.cpp.
std::size_t firstInvalidUtf8(const char* data, std::size_t size);

constexpr bool isJsonSpace(char c) noexcept
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/// Raw key comparison: `raw` points just after the key's opening quote (simdjson
/// raw_json_string); true when the key is exactly `lit` (no unescaping needed for ASCII
/// keys). Reads at most N bytes, always inside the padded buffer.
template <std::size_t N> inline bool keyIs(const char* raw, const char (&lit)[N]) noexcept
{
    return std::memcmp(raw, lit, N - 1) == 0 && raw[N - 1] == '"';
}

/// The field of an object iteration step, or the step's error thrown as simdjson_error.
/// (simdjson_result<field>::value() is the field's value, not the field.)
inline od::field& fieldOf(simdjson::simdjson_result<od::field>& result)
{
    if (result.error() != simdjson::SUCCESS)
        throw simdjson::simdjson_error(result.error());
    return result.value_unsafe();
}

/// A failure found while parsing one window, before it is known whether it is real or an
/// effect of the window end cutting an item. `where` points into the window (or is null).
struct ParseFailure {
    std::string message;
    std::string path;
    const char* where = nullptr;
};

/// The JSON path of the value being parsed, kept as a stack of frames (no strings are
/// built unless an error is reported). Frames are not popped when an exception unwinds,
/// so the stack still names the failing value when the failure is caught.
class PathStack {
public:
    static constexpr std::uint32_t kRawKey = std::numeric_limits<std::uint32_t>::max();
    static constexpr std::uint32_t kNoIndex = std::numeric_limits<std::uint32_t>::max();

    void reset() noexcept { m_depth = 0; }
    void setBase(std::size_t depth) noexcept { m_depth = depth; }
    [[nodiscard]] std::size_t depth() const noexcept { return m_depth; }
    void push(const char* key, std::uint32_t len) noexcept { pushFrame({ key, len, kNoIndex }); }
    template <std::size_t N> void push(const char (&lit)[N]) noexcept { pushFrame({ lit, N - 1, kNoIndex }); }
    /// A key that is still raw JSON (its length is found only when formatting).
    void pushRawKey(const char* raw) noexcept { pushFrame({ raw, kRawKey, kNoIndex }); }
    void pushIndex(std::size_t index) noexcept { pushFrame({ nullptr, 0, static_cast<std::uint32_t>(index) }); }
    void pop() noexcept
    {
        if (m_depth > 0)
            --m_depth;
    }
    [[nodiscard]] std::string format() const
    {
        std::string s;
        for (std::size_t i = 0; i < std::min(m_depth, kMaxDepth); ++i) {
            const Frame& f = m_frames[i];
            if (f.key == nullptr) {
                s += '[';
                s += std::to_string(f.index);
                s += ']';
                continue;
            }
            std::string_view key;
            if (f.len == kRawKey) {
                std::size_t n = 0;
                while (n < 256 && f.key[n] != '"' && f.key[n] != '\0')
                    n += f.key[n] == '\\' ? 2 : 1;
                key = std::string_view(f.key, n);
            } else {
                key = std::string_view(f.key, f.len);
            }
            const bool plain = std::all_of(key.begin(), key.end(), [](char c) {
                return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
            });
            if (plain && !key.empty()) {
                if (!s.empty())
                    s += '.';
                s += key;
            } else {
                s += "[\"";
                s += escapedText(key, std::numeric_limits<std::size_t>::max()); // any length, no control bytes
                s += "\"]";
            }
        }
        return s;
    }

private:
    struct Frame {
        const char* key;
        std::uint32_t len;
        std::uint32_t index;
    };
    static constexpr std::size_t kMaxDepth = 32;
    void pushFrame(Frame f) noexcept
    {
        if (m_depth < kMaxDepth)
            m_frames[m_depth] = f;
        ++m_depth;
    }
    Frame m_frames[kMaxDepth] {};
    std::size_t m_depth = 0;
};

/// Reuses vector elements (and the heap buffers of their strings) from item to item:
/// slot() hands out the next element, trim() parks the unused tail in `spare` by move.
template <class T> class Slots {
public:
    T& slot(std::vector<T>& v)
    {
        if (m_used == v.size()) {
            if (!m_spare.empty()) {
                v.push_back(std::move(m_spare.back()));
                m_spare.pop_back();
            } else {
                v.emplace_back();
            }
        }
        return v[m_used++];
    }
    void begin() noexcept { m_used = 0; }
    void trim(std::vector<T>& v)
    {
        while (v.size() > m_used) {
            m_spare.push_back(std::move(v.back()));
            v.pop_back();
        }
    }
    [[nodiscard]] std::size_t used() const noexcept { return m_used; }

private:
    std::size_t m_used = 0;
    std::vector<T> m_spare;
};

/// The kinds imported. PersistentVolume, PodDisruptionBudget and Namespace are the optional
/// inputs of the what-if ("extra" kinds): known only from a `kind` (the item's own, before its
/// other fields, or the list's), never guessed from the fields.
enum class ItemKind : std::uint8_t { Unknown, Node, Pod, PersistentVolume, PodDisruptionBudget, Namespace, Other };

constexpr bool isExtraKind(ItemKind k) noexcept
{
    return k == ItemKind::PersistentVolume || k == ItemKind::PodDisruptionBudget || k == ItemKind::Namespace;
}

inline ItemKind itemKindFromName(std::string_view kind) noexcept
{
    if (kind == "Node")
        return ItemKind::Node;
    if (kind == "Pod")
        return ItemKind::Pod;
    if (kind == "PersistentVolume")
        return ItemKind::PersistentVolume;
    if (kind == "PodDisruptionBudget")
        return ItemKind::PodDisruptionBudget;
    if (kind == "Namespace")
        return ItemKind::Namespace;
    return kind.empty() ? ItemKind::Unknown : ItemKind::Other;
}

using StringPair = std::pair<std::string, std::string>;

/// A metav1.LabelSelector as read, before interning (and before matchLabelKeys are folded in).
struct RawSelector {
    bool present = false; // false: the selector is null (absent)
    std::vector<StringPair> matchLabels;
    std::vector<std::tuple<std::string, model::MatchOperator, std::vector<std::string>>> matchExpressions;
    void clear() noexcept
    {
        present = false;
        matchLabels.clear();
        matchExpressions.clear();
    }
};

/// A required pod (anti-)affinity term as read.
struct RawAffinityTerm {
    RawSelector selector;
    std::vector<std::string> namespaces;
    RawSelector namespaceSelector;
    std::string topologyKey;
    std::vector<std::string> matchLabelKeys, mismatchLabelKeys;
    void clear() noexcept
    {
        selector.clear();
        namespaces.clear();
        namespaceSelector.clear();
        topologyKey.clear();
        matchLabelKeys.clear();
        mismatchLabelKeys.clear();
    }
};

/// A topologySpreadConstraints entry as read.
struct RawSpreadConstraint {
    model::TopologySpreadConstraint value; // scalars; selector filled at commit
    std::string topologyKey;
    RawSelector selector;
    std::vector<std::string> matchLabelKeys;
};

/// A host port as read (hostIP still a string).
struct RawHostPort {
    std::uint16_t port = 0;
    model::PortProtocol protocol = model::PortProtocol::TCP;
    std::string hostIP;
};

/// What a resource name maps to, cached by name so that a name is looked up in the
/// registry (which allocates) once per import, not once per item.
struct ResourceEntry {
    std::string name;
    ResourceKey key = 0;
    QuantityScale scale = QuantityScale::Units;
    std::int8_t gpuCountSource = -1; // 0 nvidia.com/gpu, 1 amd.com/gpu, 2 alibabacloud.com/gpu-count
};

// ---- the importer -----------------------------------------------------------------------

class KubectlJsonImporter {
public:
    KubectlJsonImporter(Source& source, std::string sourceName, ClusterStore& store, ImportReport& report,
        ImportProgress* progress, const KubectlJsonOptions& options, KubectlJsonSession& session)
        : m_source(source)
        , m_name(std::move(sourceName))
        , m_store(store)
        , m_report(report)
        , m_throttle(progress, static_cast<std::size_t>(source.size()))
        , m_windowBytes(std::max<std::size_t>(options.windowBytes, 64))
        , m_extraPodFlags(options.podFlags)
        , m_size(source.size())
        , m_session(session)
    {
    }

    void run();

private:
    enum class Phase : std::uint8_t { Top, Items, Tail, Trailer, Done };
    /// Where a window that resumes inside the items list starts, to check the commas the
    /// window cut separated from their items.
    enum class Between : std::uint8_t { AfterOpen, AfterItem, AfterComma };
    struct Outcome {
        enum Kind : std::uint8_t { Done, Resume, NeedMore } kind = Done;
        Phase phase = Phase::Done;
        std::uint64_t offset = 0;
        Between between = Between::AfterOpen;
    };
    static Outcome resume(Phase phase, std::uint64_t offset, Between between = Between::AfterOpen)
    {
        return { Outcome::Resume, phase, offset, between };
    }

    // window management
    void load(std::uint64_t offset, std::size_t want);
    std::size_t findCut() const;
    void ensureCapacity(std::size_t bytes);
    [[nodiscard]] std::uint64_t offsetOf(const char* p) const noexcept
    {
        if (p == nullptr || p < m_data)
            return m_winOffset;
        return m_winOffset + std::min<std::uint64_t>(static_cast<std::uint64_t>(p - m_data), m_cut);
    }
    [[nodiscard]] const char* dataEnd() const noexcept { return m_data + m_cut; }
    Outcome parseWindow(Phase phase, std::string_view prefix);

    // phases
    Outcome parseTop();
    Outcome parseItemsWindow();
    Outcome parseTail();
    Outcome itemsLoop(od::value items);
    Outcome itemFailure(const ParseFailure& f, const char* itemStart, const char* lastGood, bool afterItem);
    void parseRootObject(od::object root, bool tail, Outcome& itemsOutcome);
    [[nodiscard]] Outcome afterRoot(bool final);

    // errors
    [[noreturn]] void fail(const char* where, std::string message);
    [[noreturn]] void failType(od::value& v, const char* expected);
    ParseFailure failureFromSimdjson(simdjson::error_code code);
    [[noreturn]] void raise(const ParseFailure& f);
    [[noreturn]] void raiseAt(std::uint64_t offset, const std::string& path, const std::string& message);
    std::size_t lineOf(std::uint64_t offset);
    /// A value the import refuses but reads past (an invalid or negative quantity), so that
    /// one error lists every such value: kept for the current item, committed with it (a
    /// window that cuts the item parses it again), and raised by raiseBadValues() at the end.
    void recordBadValue(const char* where, std::string message);
    [[noreturn]] void raiseBadValues();
    [[noreturn]] void failBetweenItems(std::uint64_t offset, bool itemDue);
    [[noreturn]] void failTrailingText(std::uint64_t offset);
    std::string lineTextAt(std::uint64_t offset);
    void checkStart(std::uint64_t& start);

    // items
    void beginItem();
    void parseItemField(od::field& f, bool isRoot);
    void commitItem(const char* itemStart);
    void parseMetadata(od::value v, bool isRoot);
    void parseSpec(od::value v);
    void parseStatus(od::value v);
    /// An object of label keys to string values (metadata.labels, spec.nodeSelector) into
    /// `into`; a value that is not a string fails with "expected <valueWhat>".
    void parseStringMap(od::value v, const char* valueWhat, std::vector<StringPair>& into, Slots<StringPair>& slots);
    void parseAnnotations(od::value v);
    void parseOwnerReferences(od::value v);
    void parseTaints(od::value v);
    /// status.conditions of a node (every condition, Ready sets `ready`) and of a pod (the
    /// PodScheduled message when its status is False).
    void parseConditions(od::value v);
    void parseSchedulingGates(od::value v);
    void parseContainers(
        od::value v, std::vector<model::ContainerResources>& into, Slots<model::ContainerResources>& slots, bool init);
    void parseContainerResources(od::value v, model::ExactResourceList& requests, model::ExactResourceList& limits);
    /// Each field of a resource list object ("cpu": "500m", "nvidia.com/gpu": 8): `core(resource,
    /// scale, value)` for the four core names (no lookup), `extended(entry, value)` for the rest
    /// (through the resource cache); the path names the field while it is read.
    template <class Core, class Extended>
    void forEachResource(od::value v, Core core, Extended extended);
    void parseExactResourceList(od::value v, model::ExactResourceList& into);
    void parseResourceList(od::value v, ResourceList& into, std::int64_t* gpuCounts);
    void parseTolerations(od::value v);
    void parseAffinity(od::value v);
    void parseSelectorTerms(od::value v);
    void parseRequirements(od::value v, std::vector<PodRecord::Requirement>& into, bool matchField);

    // scheduling constraints and the extra kinds (kubescheduling.cpp)
    void beginSchedulingItem();
    void parsePodAffinity(od::value v, std::vector<RawAffinityTerm>& into, std::size_t& used);
    void parseAffinityTerm(od::object o, RawAffinityTerm& term);
    void parseLabelSelector(od::value v, RawSelector& into);
    void parseStringList(od::value v, std::vector<std::string>& into);
    void parseSpreadConstraints(od::value v);
    void parseContainerPorts(od::value v, bool sidecarOrApp);
    void parseVolumes(od::value v);
    void parseResourceClaims(od::value v);
    void parseAnnotation(od::field& f, const char* k);
    std::int32_t int32Value(od::value& v, const char* what, std::int64_t min, std::int64_t max);
    model::IntOrPercent intOrPercentValue(od::value& v);
    void parseExtraSpec(od::value v);
    void parseExtraStatus(od::value v);
    /// Interns the pod's constraint lists into m_pod (selectors folded with its labels).
    void commitPodScheduling(const std::vector<StringPair>& labels);
    void commitExtraItem(ItemKind kind, const char* itemStart);
    void foldLabelKeys(model::InternedSelector& s, const std::vector<std::string>& keys, model::MatchOperator op,
        const std::vector<StringPair>& labels);

    // values
    std::string_view stringValue(od::value& v, const char* what, const char** where = nullptr);
    std::string_view keyText(od::field& f);
    bool isNull(od::value& v);
    od::object objectValue(od::value& v, const char* expected);
    od::array arrayValue(od::value& v, const char* expected);
    const ResourceEntry& resourceEntry(std::string_view name);
    std::int64_t quantityValue(od::value& v, QuantityScale scale);
    model::QuantityNanos exactQuantityValue(od::value& v, QuantityScale scale);
    std::string_view quantityText(od::value& v, const char*& where);
    void recordQuantityError(const model::QuantityError& e, std::string_view text, const char* where);
    /// `into` = the string value; null leaves `into` as it is.
    void optionalString(od::value& v, std::string& into)
    {
        if (!isNull(v))
            into.assign(stringValue(v, "a string"));
    }
    /// `into` = the boolean value; null leaves `into` as it is.
    void optionalBool(od::value& v, bool& into)
    {
        if (!isNull(v) && v.get_bool().get(into) != simdjson::SUCCESS)
            failType(v, "true or false");
    }

    // The shapes that every parse function shares. Design note (speed): templates over the
    // callback, forced inline so that each loop compiles where it is used, as the
    // hand-written loops it replaced did; without always_inline GCC keeps some of them and
    // the large callbacks out of line (measured with callgrind on bench_import over 20,000
    // pods: 1% more instructions and 10% more I1 misses than the hand-written loops; with
    // it, 0.2% more instructions and 23% fewer I1 misses). The JSON path is pushed before a
    // value is parsed and popped after; an exception leaves it pushed, so that the error
    // names the failing value (see PathStack).

    /// The item's kind: its own `kind`, else the list's.
    [[nodiscard]] ItemKind effectiveItemKind() const noexcept
    {
        return m_itemKind != ItemKind::Unknown ? m_itemKind : m_defaultItemKind;
    }
    /// Which record the fields of the current item may fill (both while the kind is unknown).
    struct Wanted {
        bool node;
        bool pod;
    };
    [[nodiscard]] Wanted wanted() const noexcept
    {
        const ItemKind kind = effectiveItemKind();
        if (isExtraKind(kind))
            return { false, false };
        return { kind != ItemKind::Pod, kind != ItemKind::Node };
    }
    /// When the raw key `raw` is `key`: parse() with `key` on the path; returns whether it was.
    template <std::size_t N, class F> [[gnu::always_inline]] bool onKey(const char* raw, const char (&key)[N], F&& parse)
    {
        if (!keyIs(raw, key))
            return false;
        m_path.push(key);
        parse();
        m_path.pop();
        return true;
    }
    /// onField(field, raw key) for every field of `object`, in document order.
    template <class F> [[gnu::always_inline]] void forEachField(od::object object, F&& onField)
    {
        for (auto fieldResult : object) {
            od::field& f = fieldOf(fieldResult);
            onField(f, f.key().raw());
        }
    }
    /// The same for the object `v`; null is an object without fields (as Kubernetes omits
    /// or nulls empty fields alike); anything else fails with "expected <expected>".
    template <class F> [[gnu::always_inline]] void forEachField(od::value& v, const char* expected, F&& onField)
    {
        if (isNull(v))
            return;
        forEachField(objectValue(v, expected), std::forward<F>(onField));
    }
    /// onElement(element) for every element of the array `v` with [index] on the path;
    /// null is an empty array; anything else fails with "expected <expected>".
    template <class F> [[gnu::always_inline]] void forEachElement(od::value& v, const char* expected, F&& onElement)
    {
        if (isNull(v))
            return;
        od::array a = arrayValue(v, expected);
        std::size_t index = 0;
        for (auto elementResult : a) {
            od::value& element = elementResult.value();
            m_path.pushIndex(index++);
            onElement(element);
            m_path.pop();
        }
    }
    /// forEachElement() over an array of objects: onObject(element, its object); an element
    /// that is not an object fails with "expected <elementExpected>".
    template <class F>
    [[gnu::always_inline]] void forEachObject(od::value& v, const char* expected, const char* elementExpected, F&& onObject)
    {
        forEachElement(v, expected, [&](od::value& element) { onObject(element, objectValue(element, elementExpected)); });
    }
    /// The value named `text` in `names`; else fails at `where` with
    /// "unknown <what> "<text>"; expected <the names>".
    template <class E, std::size_t N>
    E enumValue(std::string_view text, const char* where, const NamedValue<E> (&names)[N], const char* what)
    {
        if (const NamedValue<E>* found = findNamedValue(names, text))
            return found->value;
        fail(where, std::string("unknown ") + what + " " + quotedText(text) + "; expected " + namedValueList(names));
    }
    /// The same for the string value `v` (anything but a string fails).
    template <class E, std::size_t N> E enumValue(od::value& v, const NamedValue<E> (&names)[N], const char* what)
    {
        const char* where = nullptr;
        const std::string_view text = stringValue(v, "a string", &where);
        return enumValue(text, where, names, what);
    }
    /// Fails at the item's metadata.name (or at its start when it has none), with the path
    /// at metadata, or at metadata.name when `nameOnPath`.
    [[noreturn]] void failAtName(const char* itemStart, std::string message, bool nameOnPath = false)
    {
        m_path.push("metadata");
        if (nameOnPath)
            m_path.push("name");
        fail(m_nameWhere != nullptr ? m_nameWhere : itemStart, std::move(message));
    }

    Source& m_source;
    std::string m_name;
    ClusterStore& m_store;
    ImportReport& m_report;
    ProgressThrottle m_throttle; // progress in bytes of the file
    std::size_t m_windowBytes;
    std::uint16_t m_extraPodFlags = 0;
    std::uint64_t m_size;
    KubectlJsonSession& m_session;

    // the window: m_buffer holds kPrefixRoom bytes for a synthetic prefix, then the data
    static constexpr std::size_t kPrefixRoom = 16;
    static constexpr std::size_t kTailRoom = 1 + simdjson::SIMDJSON_PADDING;
    std::unique_ptr<char[]> m_buffer;
    std::size_t m_capacity = 0; // data bytes the buffer can hold
    char* m_data = nullptr;
    std::uint64_t m_winOffset = 0; // file offset of m_data[0]
    std::size_t m_winLen = 0; // bytes loaded
    std::size_t m_cut = 0; // bytes of the window given to simdjson
    bool m_final = false; // the window reaches the end of the file
    char m_saved[kTailRoom] {}; // bytes overwritten by the synthetic suffix and padding

    od::parser m_parser;
    od::document m_doc;
    PathStack m_path;

    // root and list state
    std::string m_rootKind;
    ItemKind m_defaultItemKind = ItemKind::Unknown;
    std::string m_defaultKindName;
    std::string m_continue;
    std::string m_listResourceVersion; // the root list's metadata.resourceVersion
    std::int64_t m_remainingItems = -1;
    std::string m_statusText, m_statusReason, m_statusMessage;
    std::int64_t m_statusCode = 0;
    bool m_rootIsArray = false;
    bool m_sawItems = false;
    bool m_itemsEnded = false;
    std::uint64_t m_afterItemsOffset = 0;
    std::size_t m_itemIndex = 0; // items done (committed or skipped)
    std::size_t m_pathBase = 0; // path depth of the items array frame
    Between m_between = Between::AfterOpen; // at the start of an Items window

    // Items of a list without their own kind, that are neither a Node nor a Pod by their fields,
    // read before the list's kind (`jq -S` sorts "items" before "kind"): the list's kind, once
    // read, decides (a NamespaceList's namespaces), else the first of them is an error.
    struct UndecidedItem {
        std::uint64_t offset = 0;
        std::string path;
        std::string name;
        std::vector<StringPair> labels;
    };
    std::vector<UndecidedItem> m_undecidedItems;
    std::size_t m_unknownPhasesBeforeItem = 0;
    /// Commits m_undecidedItems by the list's kind, or raises for the first. After the root.
    void commitUndecidedItems();

    // item scratch (reused)
    ItemKind m_itemKind = ItemKind::Unknown;
    std::string m_itemKindName;
    bool m_sawNodeFields = false;
    bool m_sawPodFields = false;
    std::string m_itemName;
    const char* m_nameWhere = nullptr;
    NodeRecord m_node;
    PodRecord m_pod;
    model::PodResourceSpec m_spec;
    std::int64_t m_capacityGpus[3] {};
    std::int64_t m_allocatableGpus[3] {};
    Slots<StringPair> m_labelSlots; // metadata.labels of a node or a pod (see commitItem)
    Slots<model::NodeConditionRecord> m_conditionSlots;
    Slots<std::string> m_gateSlots;
    Slots<std::tuple<std::string, std::string, TaintEffect>> m_taintSlots;
    Slots<std::tuple<std::string, TolerationOperator, std::string, TaintEffect>> m_tolerationSlots;
    Slots<StringPair> m_selectorSlots;
    Slots<std::vector<PodRecord::Requirement>> m_termSlots;
    Slots<PodRecord::Requirement> m_requirementSlots;
    Slots<std::string> m_valueSlots;
    Slots<model::ContainerResources> m_containerSlots;
    Slots<model::ContainerResources> m_initContainerSlots;
    std::vector<ResourceEntry> m_resourceCache;

    // scheduling constraints of the pod being read, and the extra kinds (reused; `used` counts)
    bool m_sawItemFields = false; // metadata, spec or status came before the item's kind
    std::vector<RawAffinityTerm> m_affinityTerms, m_antiAffinityTerms;
    std::size_t m_affinityUsed = 0, m_antiAffinityUsed = 0;
    std::vector<RawSpreadConstraint> m_spread;
    std::size_t m_spreadUsed = 0;
    std::vector<RawHostPort> m_ports;
    std::size_t m_portsUsed = 0;
    std::vector<std::string> m_claims;
    std::size_t m_claimsUsed = 0;
    RawSelector m_budgetSelector;
    model::DisruptionBudgetRecord m_budget;
    std::string m_claimRefNamespace, m_claimRefName;
    std::size_t m_volumesRead = 0, m_budgetsRead = 0, m_namespacesRead = 0;

    // A bad value by byte offset; its line is found once, when the file is refused
    // (BadValueList, importers/badvalues.h, formats the error).
    struct OffsetBadValue {
        std::uint64_t offset = 0;
        std::string path;
        std::string message;
    };
    std::vector<OffsetBadValue> m_itemBadValues; // of the item being parsed
    std::vector<OffsetBadValue> m_badValues;     // the first BadValueList::kListed + 1 committed
    std::size_t m_badValueCount = 0;             // all committed

    // report
    std::size_t m_nodes = 0;
    std::size_t m_pods = 0;
    std::size_t m_unknownPhases = 0;
    std::vector<std::pair<std::string, std::size_t>> m_skippedKinds;
};

} // namespace fleet::importers::kubejson_detail
