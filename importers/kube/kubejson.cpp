#include "kubejson.h"

#include "importers/namedvalue.h"
#include "importers/progressthrottle.h"
#include "importers/quotedtext.h"
#include "model/podrequest.h"
#include "model/quantity.h"

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <initializer_list>
#include <limits>
#include <memory>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace fleet::importers {
namespace {

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
    explicit FileSource(const std::string& path)
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
    ~FileSource() override { ::close(m_fd); }
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;
    std::uint64_t size() const override { return m_size; }
    std::size_t readAt(std::uint64_t offset, char* dst, std::size_t n) override
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

// How much an error quotes of the text after the document, and of a Status object's fields
// (the API server's message is kept whole in practice; the bound is against a hostile one).
constexpr std::size_t kTrailingTextChars = 40;
constexpr std::size_t kStatusTextMaxChars = 2000;

// The line `text` starts (up to the first line break), quoted safely for an error message.
std::string lineExcerpt(std::string_view text, std::size_t maxChars = kQuotedTextMaxChars)
{
    return escapedText(text.substr(0, std::min(text.find_first_of("\r\n"), text.size())), maxChars);
}

enum class ItemKind : std::uint8_t { Unknown, Node, Pod, Other };

ItemKind itemKindFromName(std::string_view kind) noexcept
{
    if (kind == "Node")
        return ItemKind::Node;
    if (kind == "Pod")
        return ItemKind::Pod;
    return kind.empty() ? ItemKind::Unknown : ItemKind::Other;
}

// The spellings of the core/v1 enums that are imported; the error for any other spelling
// lists these. Source: https://kubernetes.io/docs/reference/kubernetes-api/cluster-resources/node-v1/
// (Taint), .../workload-resources/pod-v1/ (Toleration, NodeSelectorRequirement).
constexpr NamedValue<TaintEffect> kTaintEffects[] = {
    { "NoSchedule", TaintEffect::NoSchedule },
    { "PreferNoSchedule", TaintEffect::PreferNoSchedule },
    { "NoExecute", TaintEffect::NoExecute },
};
// A toleration's empty effect tolerates every effect.
constexpr NamedValue<TaintEffect> kTolerationEffects[] = {
    { "NoSchedule", TaintEffect::NoSchedule },
    { "PreferNoSchedule", TaintEffect::PreferNoSchedule },
    { "NoExecute", TaintEffect::NoExecute },
    { "", TaintEffect::Any },
};
constexpr NamedValue<TolerationOperator> kTolerationOperators[] = {
    { "Equal", TolerationOperator::Equal },
    { "Exists", TolerationOperator::Exists },
};
constexpr NamedValue<SelectorOperator> kSelectorOperators[] = {
    { "In", SelectorOperator::In },
    { "NotIn", SelectorOperator::NotIn },
    { "Exists", SelectorOperator::Exists },
    { "DoesNotExist", SelectorOperator::DoesNotExist },
    { "Gt", SelectorOperator::Gt },
    { "Lt", SelectorOperator::Lt },
};

using StringPair = std::pair<std::string, std::string>;

/// What a resource name maps to, cached by name so that a name is looked up in the
/// registry (which allocates) once per import, not once per item.
struct ResourceEntry {
    std::string name;
    ResourceKey key = 0;
    QuantityScale scale = QuantityScale::Units;
    std::int8_t gpuCountSource = -1; // 0 nvidia.com/gpu, 1 amd.com/gpu, 2 alibabacloud.com/gpu-count
};

/// The value of the first of `keys` (in that order of preference) that `labels` holds, or null.
const std::string* firstLabelValue(const std::vector<StringPair>& labels, std::initializer_list<std::string_view> keys)
{
    for (std::string_view key : keys) {
        auto it = std::find_if(labels.begin(), labels.end(), [&](const StringPair& l) { return l.first == key; });
        if (it != labels.end())
            return &it->second;
    }
    return nullptr;
}

// ---- the importer -----------------------------------------------------------------------

class KubectlJsonImporter {
public:
    KubectlJsonImporter(Source& source, std::string sourceName, ClusterStore& store, ImportReport& report,
        ImportProgress* progress, const KubectlJsonOptions& options)
        : m_source(source)
        , m_name(std::move(sourceName))
        , m_store(store)
        , m_report(report)
        , m_throttle(progress, static_cast<std::size_t>(source.size()))
        , m_windowBytes(std::max<std::size_t>(options.windowBytes, 64))
        , m_size(source.size())
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
    void parseConditions(od::value v);
    void parseContainers(
        od::value v, std::vector<model::ContainerResources>& into, Slots<model::ContainerResources>& slots, bool init);
    void parseContainerResources(od::value v, ResourceList& requests, ResourceList& limits);
    void parseResourceList(od::value v, ResourceList& into, std::int64_t* gpuCounts);
    void parseTolerations(od::value v);
    void parseAffinity(od::value v);
    void parseSelectorTerms(od::value v);
    void parseRequirements(od::value v, std::vector<PodRecord::Requirement>& into, bool matchField);

    // values
    std::string_view stringValue(od::value& v, const char* what, const char** where = nullptr);
    std::string_view keyText(od::field& f);
    bool isNull(od::value& v);
    od::object objectValue(od::value& v, const char* expected);
    od::array arrayValue(od::value& v, const char* expected);
    const ResourceEntry& resourceEntry(std::string_view name);
    std::int64_t quantityValue(od::value& v, QuantityScale scale);
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
    std::uint64_t m_size;

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
    Slots<StringPair> m_labelSlots;
    Slots<std::tuple<std::string, std::string, TaintEffect>> m_taintSlots;
    Slots<std::tuple<std::string, TolerationOperator, std::string, TaintEffect>> m_tolerationSlots;
    Slots<StringPair> m_selectorSlots;
    Slots<std::vector<PodRecord::Requirement>> m_termSlots;
    Slots<PodRecord::Requirement> m_requirementSlots;
    Slots<std::string> m_valueSlots;
    Slots<model::ContainerResources> m_containerSlots;
    Slots<model::ContainerResources> m_initContainerSlots;
    std::vector<ResourceEntry> m_resourceCache;

    // report
    std::size_t m_nodes = 0;
    std::size_t m_pods = 0;
    std::size_t m_unknownPhases = 0;
    std::vector<std::pair<std::string, std::size_t>> m_skippedKinds;
};

// ---- errors ---------------------------------------------------------------------------------

void KubectlJsonImporter::fail(const char* where, std::string message)
{
    throw ParseFailure { std::move(message), m_path.format(), where };
}

void KubectlJsonImporter::failType(od::value& v, const char* expected)
{
    const char* where = v.raw_json_token().data();
    od::json_type t {};
    if (where >= dataEnd())
        fail(where, std::string("expected ") + expected + ", got the end of the data");
    if (v.type().get(t) != simdjson::SUCCESS)
        fail(where, std::string("malformed JSON where ") + expected + " was expected");
    fail(where, std::string("expected ") + expected + ", got " + jsonTypeName(t));
}

ParseFailure KubectlJsonImporter::failureFromSimdjson(simdjson::error_code code)
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

std::size_t KubectlJsonImporter::lineOf(std::uint64_t offset)
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

std::string KubectlJsonImporter::lineTextAt(std::uint64_t offset)
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

void KubectlJsonImporter::failTrailingText(std::uint64_t offset)
{
    // Quote the trailing text itself, not the line it is on: after a one-line document, that
    // line starts with the document.
    std::string text(4 * kTrailingTextChars, '\0');
    text.resize(m_source.readAt(offset, text.data(), text.size()));
    raiseAt(offset, {}, "unexpected text after the end of the JSON document: \"" + lineExcerpt(text, kTrailingTextChars) + "\"");
}

void KubectlJsonImporter::raiseAt(std::uint64_t offset, const std::string& path, const std::string& message)
{
    throw ImportError(m_name, lineOf(offset), path, message);
}

void KubectlJsonImporter::failBetweenItems(std::uint64_t offset, bool itemDue)
{
    // The same words as when the whole list is in one window (simdjson's error there).
    const std::string path
        = itemDue ? (m_rootIsArray ? "" : "items") + ("[" + std::to_string(m_itemIndex) + "]") : (m_rootIsArray ? "" : "items");
    const std::string message
        = itemDue ? "malformed JSON where a Node or Pod object was expected" : describeSimdjsonError(simdjson::TAPE_ERROR);
    raiseAt(offset, path, message + "; the line reads \"" + lineTextAt(offset) + "\"");
}

void KubectlJsonImporter::raise(const ParseFailure& f)
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

// ---- window management ----------------------------------------------------------------------

void KubectlJsonImporter::ensureCapacity(std::size_t bytes)
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

void KubectlJsonImporter::load(std::uint64_t offset, std::size_t want)
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

std::size_t KubectlJsonImporter::findCut() const
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

KubectlJsonImporter::Outcome KubectlJsonImporter::parseWindow(Phase phase, std::string_view prefix)
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
        KubectlJsonImporter* self;
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

void KubectlJsonImporter::checkStart(std::uint64_t& start)
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

void KubectlJsonImporter::run()
{
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

    // Warnings that the user must see.
    if (!m_continue.empty()) {
        std::string w = m_name
            + ": the list is incomplete: metadata.continue is set, so this is only the first page of a "
              "paginated list";
        if (m_remainingItems > 0)
            w += " (" + std::to_string(m_remainingItems) + " more items on the server)";
        w += ". kubectl was run with --chunk-size/--limit or the API was called with limit=; run kubectl get ... -o json "
             "without --chunk-size (it follows every page itself), or keep calling with continue= until it is empty.";
        m_report.warn(std::move(w));
    }
    for (const auto& [kind, count] : m_skippedKinds)
        m_report.warn(
            m_name + ": skipped " + std::to_string(count) + " item(s) of kind " + kind + " (only Node and Pod are imported)");
    if (m_unknownPhases > 0)
        m_report.warn(m_name + ": " + std::to_string(m_unknownPhases)
            + " pod(s) have an unrecognised status.phase; they are taken as Unknown");
    if (m_sawItems && m_nodes == 0 && m_pods == 0 && m_skippedKinds.empty())
        m_report.warn(m_name + ": the list has no items (no nodes and no pods)");
    m_report.nodesRead += m_nodes;
    m_report.podsRead += m_pods;
    m_report.bytesRead += static_cast<std::size_t>(m_size);
}

// ---- phases ---------------------------------------------------------------------------------

KubectlJsonImporter::Outcome KubectlJsonImporter::parseTop()
{
    // Everything that the Top phase learns is learnt again when the window has to grow.
    m_rootKind.clear();
    m_defaultItemKind = ItemKind::Unknown;
    m_continue.clear();
    m_remainingItems = -1;
    m_statusText.clear();
    m_statusReason.clear();
    m_statusMessage.clear();
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
            failType(root, "a JSON object (a List, NodeList, PodList, Node or Pod)");
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

KubectlJsonImporter::Outcome KubectlJsonImporter::afterRoot(bool final)
{
    const char* loc = nullptr;
    if (m_doc.current_location().get(loc) != simdjson::SUCCESS || loc >= dataEnd()) {
        if (final)
            return {};
        return resume(Phase::Trailer, m_winOffset + m_cut);
    }
    failTrailingText(offsetOf(loc));
}

KubectlJsonImporter::Outcome KubectlJsonImporter::parseItemsWindow()
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

KubectlJsonImporter::Outcome KubectlJsonImporter::parseTail()
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

void KubectlJsonImporter::parseRootObject(od::object root, bool tail, Outcome& itemsOutcome)
{
    beginItem();
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
        if (onKey(k, "kind", [&] { m_rootKind.assign(stringValue(f.value(), "a string")); })) {
            const ItemKind kind = itemKindFromName(m_rootKind);
            if (!tail && (kind == ItemKind::Node || kind == ItemKind::Pod))
                m_itemKind = kind;
            if (m_rootKind.size() > 4 && m_rootKind.ends_with("List")) {
                m_defaultKindName.assign(m_rootKind, 0, m_rootKind.size() - 4);
                m_defaultItemKind = itemKindFromName(m_defaultKindName);
            }
            continue;
        }
        if (keyIs(k, "message") || keyIs(k, "reason")) {
            od::value v = f.value();
            if (v.raw_json_token().front() == '"')
                (k[0] == 'm' ? m_statusMessage : m_statusReason).assign(stringValue(v, "a string"));
            continue;
        }
        if (keyIs(k, "code")) {
            std::int64_t code = 0;
            if (f.value().get_int64().get(code) == simdjson::SUCCESS)
                m_statusCode = code;
            continue;
        }
        if (keyIs(k, "status") && f.value().raw_json_token().front() == '"') {
            m_statusText.assign(stringValue(f.value(), "a string"));
            continue;
        }
        if (tail) {
            if (keyIs(k, "metadata"))
                parseMetadata(f.value(), true);
            continue;
        }
        parseItemField(f, true);
    }

    if (m_rootKind == "Status") {
        std::string message = "the file holds a Kubernetes Status object, not nodes or pods: the API server refused the request";
        if (!m_statusText.empty())
            message += " (" + escapedText(m_statusText, kStatusTextMaxChars) + ")";
        if (!m_statusReason.empty())
            message += ", reason " + escapedText(m_statusReason, kStatusTextMaxChars);
        if (m_statusCode != 0)
            message += ", code " + std::to_string(m_statusCode);
        if (!m_statusMessage.empty())
            message += ": " + escapedText(m_statusMessage, kStatusTextMaxChars);
        raiseAt(offsetOf(rootStart), {}, message);
    }
    if (m_sawItems || tail)
        return;
    // A single object.
    if (m_itemKind == ItemKind::Unknown)
        m_itemKind = itemKindFromName(m_rootKind);
    if (m_itemKind == ItemKind::Other || (!m_rootKind.empty() && m_itemKind == ItemKind::Unknown))
        fail(rootStart, "expected a List, NodeList or PodList, or one Node or Pod; got kind " + escapedText(m_rootKind));
    commitItem(rootStart);
}

KubectlJsonImporter::Outcome KubectlJsonImporter::itemFailure(
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

KubectlJsonImporter::Outcome KubectlJsonImporter::itemsLoop(od::value itemsValue)
{
    const char* lastGood = nullptr; // where the next item (or the comma before it) starts
    const char* itemStart = nullptr;
    bool afterItem = false;
    try {
        od::array items = arrayValue(itemsValue, "an array of Node or Pod objects");
        const char* loc = nullptr;
        lastGood = m_doc.current_location().get(loc) == simdjson::SUCCESS ? loc : dataEnd();
        for (auto itemResult : items) {
            itemStart = nullptr;
            od::value& item = itemResult.value();
            itemStart = item.raw_json_token().data();
            m_path.setBase(m_pathBase);
            m_path.pushIndex(m_itemIndex);
            od::object object = objectValue(item, "a Node or Pod object");
            beginItem();
            for (auto fieldResult : object) {
                od::field& f = fieldOf(fieldResult);
                parseItemField(f, false);
            }
            commitItem(itemStart);
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

// ---- values ---------------------------------------------------------------------------------

bool KubectlJsonImporter::isNull(od::value& v)
{
    return v.raw_json_token().front() == 'n';
}

od::object KubectlJsonImporter::objectValue(od::value& v, const char* expected)
{
    if (v.raw_json_token().front() != '{')
        failType(v, expected);
    return v.get_object();
}

od::array KubectlJsonImporter::arrayValue(od::value& v, const char* expected)
{
    if (v.raw_json_token().front() != '[')
        failType(v, expected);
    return v.get_array();
}

std::string_view KubectlJsonImporter::stringValue(od::value& v, const char* what, const char** where)
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

std::string_view KubectlJsonImporter::keyText(od::field& f)
{
    const char* k = f.key().raw();
    const char* p = k;
    while (*p != '"' && *p != '\\')
        ++p;
    if (*p == '"')
        return { k, static_cast<std::size_t>(p - k) };
    return f.unescaped_key();
}

const ResourceEntry& KubectlJsonImporter::resourceEntry(std::string_view name)
{
    for (const ResourceEntry& e : m_resourceCache)
        if (e.name == name)
            return e;
    ResourceEntry e;
    e.name.assign(name);
    e.key = m_store.resources().keyFor(name);
    e.scale = model::mapResourceName(name).scale;
    if (name == "nvidia.com/gpu")
        e.gpuCountSource = 0;
    else if (name == "amd.com/gpu")
        e.gpuCountSource = 1;
    else if (name == "alibabacloud.com/gpu-count")
        e.gpuCountSource = 2;
    m_resourceCache.push_back(std::move(e));
    return m_resourceCache.back();
}

std::int64_t KubectlJsonImporter::quantityValue(od::value& v, QuantityScale scale)
{
    const std::string_view token = v.raw_json_token();
    const char* where = token.data();
    std::string_view text;
    if (!token.empty() && token.front() == '"') {
        text = stringValue(v, "a quantity");
    } else if (!token.empty() && (token.front() == '-' || (token.front() >= '0' && token.front() <= '9')) && where < dataEnd()) {
        std::size_t n = token.size();
        while (n > 0 && isJsonSpace(token[n - 1]))
            --n;
        text = token.substr(0, n);
    } else {
        failType(v, "a quantity (a string such as \"100m\" or \"2Gi\", or a number)");
    }
    std::int64_t value = 0;
    try {
        switch (scale) {
        case QuantityScale::Milli:
            value = model::parseQuantityMilli(text);
            break;
        case QuantityScale::Units:
            value = model::parseQuantity(text);
            break;
        case QuantityScale::ThousandUnits:
            value = model::parseQuantity(text);
            if (value > std::numeric_limits<std::int64_t>::max() / 1000
                || value < std::numeric_limits<std::int64_t>::min() / 1000)
                throw model::QuantityError("invalid quantity " + quotedText(text) + ": value out of range");
            value *= 1000;
            break;
        }
    } catch (const model::QuantityError& e) {
        // The model quotes the text (and a bad suffix) as they are: quote the text within
        // the length limit, then escape whatever control bytes are left.
        std::string message = e.what();
        const std::string raw = '"' + std::string(text) + '"';
        if (const std::size_t at = message.find(raw); at != std::string::npos)
            message.replace(at, raw.size(), quotedText(text));
        fail(where, escapedText(message, std::numeric_limits<std::size_t>::max()));
    }
    if (value < 0)
        fail(where, "negative quantity " + quotedText(text) + ": requests, limits and capacities cannot be negative");
    return value;
}

// ---- items ----------------------------------------------------------------------------------

void KubectlJsonImporter::beginItem()
{
    m_itemKind = ItemKind::Unknown;
    m_itemKindName.clear();
    m_sawNodeFields = false;
    m_sawPodFields = false;
    m_itemName.clear();
    m_nameWhere = nullptr;
    // NodeRecord and PodRecord: scalars reset, strings keep their buffers, vectors hand
    // their elements out again through Slots.
    m_node.allocatable.clear();
    m_node.capacity.clear();
    m_node.ready = Readiness::Unknown;
    m_node.unschedulable = false;
    m_node.gpuModel.clear();
    m_node.gpuCount = 0;
    m_node.instanceType.clear();
    m_labelSlots.begin();
    m_taintSlots.begin();
    m_pod.namespaceName.clear();
    m_pod.nodeName.clear();
    m_pod.phase = PodPhase::Pending;
    m_pod.ownerKind = OwnerKind::None;
    m_pod.ownerName.clear();
    m_pod.mirror = false;
    m_pod.priority = 0;
    m_tolerationSlots.begin();
    m_selectorSlots.begin();
    m_termSlots.begin();
    m_containerSlots.begin();
    m_initContainerSlots.begin();
    m_spec.podRequests.clear();
    m_spec.podLimits.clear();
    m_spec.overhead.clear();
    std::fill(std::begin(m_capacityGpus), std::end(m_capacityGpus), -1);
    std::fill(std::begin(m_allocatableGpus), std::end(m_allocatableGpus), -1);
}

void KubectlJsonImporter::parseItemField(od::field& f, bool isRoot)
{
    const char* k = f.key().raw();
    switch (k[0]) {
    case 'k':
        if (!isRoot)
            onKey(k, "kind", [&] {
                const std::string_view kind = stringValue(f.value(), "a string");
                m_itemKind = itemKindFromName(kind);
                if (m_itemKind == ItemKind::Other)
                    m_itemKindName.assign(kind);
            });
        return;
    case 'm':
        if (m_itemKind != ItemKind::Other)
            onKey(k, "metadata", [&] { parseMetadata(f.value(), isRoot); });
        return;
    case 's':
        if (m_itemKind != ItemKind::Other)
            onKey(k, "spec", [&] { parseSpec(f.value()); }) || onKey(k, "status", [&] { parseStatus(f.value()); });
        return;
    default:
        return;
    }
}

void KubectlJsonImporter::parseMetadata(od::value v, bool isRoot)
{
    const Wanted want = wanted();
    forEachField(v, "an object", [&](od::field& f, const char* k) {
        switch (k[0]) {
        case 'n':
            onKey(k, "name", [&] { m_itemName.assign(stringValue(f.value(), "a string", &m_nameWhere)); })
                || onKey(k, "namespace", [&] { m_pod.namespaceName.assign(stringValue(f.value(), "a string")); });
            break;
        case 'l':
            if (want.node)
                onKey(k, "labels", [&] { parseStringMap(f.value(), "a string (label value)", m_node.labels, m_labelSlots); });
            break;
        case 'a':
            if (want.pod)
                onKey(k, "annotations", [&] { parseAnnotations(f.value()); });
            break;
        case 'o':
            if (want.pod)
                onKey(k, "ownerReferences", [&] { parseOwnerReferences(f.value()); });
            break;
        case 'c':
            if (isRoot)
                onKey(k, "continue", [&] { optionalString(f.value(), m_continue); });
            break;
        case 'r':
            if (isRoot && keyIs(k, "remainingItemCount")) {
                std::int64_t n = 0;
                if (f.value().get_int64().get(n) == simdjson::SUCCESS)
                    m_remainingItems = n;
            }
            break;
        default:
            break;
        }
    });
}

void KubectlJsonImporter::parseStringMap(
    od::value v, const char* valueWhat, std::vector<StringPair>& into, Slots<StringPair>& slots)
{
    forEachField(v, "an object of label keys to values", [&](od::field& f, const char* k) {
        m_path.pushRawKey(k);
        StringPair& entry = slots.slot(into);
        entry.first.assign(keyText(f));
        entry.second.assign(stringValue(f.value(), valueWhat));
        m_path.pop();
    });
}

void KubectlJsonImporter::parseAnnotations(od::value v)
{
    forEachField(v, "an object of annotation keys to values", [&](od::field&, const char* k) {
        // Static pods: the kubelet's mirror pod carries this annotation.
        // Source: https://kubernetes.io/docs/tasks/configure-pod-container/static-pod/
        if (keyIs(k, "kubernetes.io/config.mirror"))
            m_pod.mirror = true;
    });
}

void KubectlJsonImporter::parseOwnerReferences(od::value v)
{
    forEachObject(v, "an array of owner references", "an object (owner reference)", [&](od::value&, od::object o) {
        std::string_view kind;
        std::string_view name;
        bool controller = false;
        forEachField(o, [&](od::field& f, const char* k) {
            onKey(k, "kind", [&] { kind = stringValue(f.value(), "a string"); })
                || onKey(k, "name", [&] { name = stringValue(f.value(), "a string"); })
                || onKey(k, "controller", [&] { optionalBool(f.value(), controller); });
        });
        if (controller) {
            // kind/name views may point into simdjson's string buffer; copy them now.
            m_pod.ownerKind = model::ownerKindFromName(kind);
            m_pod.ownerName.assign(name);
        }
    });
}

void KubectlJsonImporter::parseSpec(od::value v)
{
    const Wanted want = wanted();
    forEachField(v, "an object", [&](od::field& f, const char* k) {
        switch (k[0]) {
        case 'a':
            if (want.pod)
                onKey(k, "affinity", [&] { parseAffinity(f.value()); });
            break;
        case 'c':
            if (want.pod)
                onKey(k, "containers", [&] {
                    m_sawPodFields = true;
                    parseContainers(f.value(), m_spec.containers, m_containerSlots, false);
                });
            break;
        case 'i':
            if (want.pod)
                onKey(
                    k, "initContainers", [&] { parseContainers(f.value(), m_spec.initContainers, m_initContainerSlots, true); });
            break;
        case 'n':
            if (want.pod)
                onKey(k, "nodeName", [&] { optionalString(f.value(), m_pod.nodeName); }) || onKey(k, "nodeSelector", [&] {
                    parseStringMap(f.value(), "a string", m_pod.nodeSelector, m_selectorSlots);
                });
            break;
        case 'o':
            if (want.pod)
                onKey(k, "overhead", [&] { parseResourceList(f.value(), m_spec.overhead, nullptr); });
            break;
        case 'p':
            if (want.pod)
                onKey(k, "priority", [&] {
                    if (isNull(f.value()))
                        return;
                    std::int64_t priority = 0;
                    if (f.value().get_int64().get(priority) != simdjson::SUCCESS
                        || priority < std::numeric_limits<std::int32_t>::min()
                        || priority > std::numeric_limits<std::int32_t>::max())
                        failType(f.value(), "a 32-bit integer");
                    m_pod.priority = static_cast<std::int32_t>(priority);
                });
            break;
        case 'r':
            if (want.pod)
                onKey(k, "resources", [&] { parseContainerResources(f.value(), m_spec.podRequests, m_spec.podLimits); });
            break;
        case 't':
            (want.node && onKey(k, "taints", [&] {
                m_sawNodeFields = true;
                parseTaints(f.value());
            })) || (want.pod && onKey(k, "tolerations", [&] { parseTolerations(f.value()); }));
            break;
        case 'u':
            if (want.node)
                onKey(k, "unschedulable", [&] { optionalBool(f.value(), m_node.unschedulable); });
            break;
        default:
            break;
        }
    });
}

void KubectlJsonImporter::parseStatus(od::value v)
{
    const Wanted want = wanted();
    forEachField(v, "an object", [&](od::field& f, const char* k) {
        switch (k[0]) {
        case 'a':
            if (want.node)
                onKey(k, "allocatable", [&] {
                    m_sawNodeFields = true;
                    parseResourceList(f.value(), m_node.allocatable, m_allocatableGpus);
                });
            break;
        case 'c':
            if (want.node)
                onKey(k, "capacity", [&] {
                    m_sawNodeFields = true;
                    parseResourceList(f.value(), m_node.capacity, m_capacityGpus);
                }) || onKey(k, "conditions", [&] { parseConditions(f.value()); });
            break;
        case 'p':
            if (want.pod && keyIs(k, "phase")) {
                m_path.push("phase");
                const std::string_view phase = stringValue(f.value(), "a string");
                m_path.pop();
                if (const auto* known = findNamedValue(kPodPhaseNames, phase)) {
                    m_pod.phase = known->value;
                } else {
                    m_pod.phase = PodPhase::Unknown;
                    ++m_unknownPhases;
                }
            }
            break;
        default:
            break;
        }
    });
}

void KubectlJsonImporter::parseTaints(od::value v)
{
    forEachObject(v, "an array of taints", "an object (taint)", [&](od::value& element, od::object o) {
        auto& taint = m_taintSlots.slot(m_node.taints);
        std::get<0>(taint).clear();
        std::get<1>(taint).clear();
        bool hasEffect = false;
        const char* start = element.raw_json_token().data();
        forEachField(o, [&](od::field& f, const char* k) {
            onKey(k, "key", [&] { std::get<0>(taint).assign(stringValue(f.value(), "a string")); })
                || onKey(k, "value", [&] { std::get<1>(taint).assign(stringValue(f.value(), "a string")); })
                || onKey(k, "effect", [&] {
                       std::get<2>(taint) = enumValue(f.value(), kTaintEffects, "taint effect");
                       hasEffect = true;
                   });
        });
        if (!hasEffect)
            fail(start, "a taint without an effect");
    });
}

void KubectlJsonImporter::parseConditions(od::value v)
{
    forEachObject(v, "an array of conditions", "an object (condition)", [&](od::value&, od::object o) {
        bool isReady = false;
        Readiness status = Readiness::Unknown;
        forEachField(o, [&](od::field& f, const char* k) {
            onKey(k, "type", [&] { isReady = stringValue(f.value(), "a string") == "Ready"; }) || onKey(k, "status", [&] {
                const std::string_view s = stringValue(f.value(), "a string");
                status = s == "True" ? Readiness::True : s == "False" ? Readiness::False : Readiness::Unknown;
            });
        });
        if (isReady)
            m_node.ready = status;
    });
}

void KubectlJsonImporter::parseContainers(
    od::value v, std::vector<model::ContainerResources>& into, Slots<model::ContainerResources>& slots, bool init)
{
    forEachObject(v, "an array of containers", "an object (container)", [&](od::value&, od::object o) {
        model::ContainerResources& container = slots.slot(into);
        container.clear();
        forEachField(o, [&](od::field& f, const char* k) {
            if (k[0] != 'r')
                return;
            onKey(k, "resources", [&] { parseContainerResources(f.value(), container.requests, container.limits); })
                // A restartable init container is a sidecar (KEP-753).
                || (init && onKey(k, "restartPolicy", [&] {
                       if (!isNull(f.value()))
                           container.restartable = stringValue(f.value(), "a string") == "Always";
                   }));
        });
    });
}

void KubectlJsonImporter::parseContainerResources(od::value v, ResourceList& requests, ResourceList& limits)
{
    forEachField(v, "an object", [&](od::field& f, const char* k) {
        onKey(k, "requests", [&] { parseResourceList(f.value(), requests, nullptr); })
            || onKey(k, "limits", [&] { parseResourceList(f.value(), limits, nullptr); });
    });
}

void KubectlJsonImporter::parseResourceList(od::value v, ResourceList& into, std::int64_t* gpuCounts)
{
    forEachField(v, "an object of resource names to quantities", [&](od::field& f, const char* k) {
        m_path.pushRawKey(k);
        // The common names without a lookup; everything else through the cache.
        if (keyIs(k, "cpu")) {
            into.setCore(CoreResource::Cpu, quantityValue(f.value(), QuantityScale::Milli));
        } else if (keyIs(k, "memory")) {
            into.setCore(CoreResource::Memory, quantityValue(f.value(), QuantityScale::Units));
        } else if (keyIs(k, "pods")) {
            into.setCore(CoreResource::Pods, quantityValue(f.value(), QuantityScale::Units));
        } else if (keyIs(k, "ephemeral-storage")) {
            into.setCore(CoreResource::EphemeralStorage, quantityValue(f.value(), QuantityScale::Units));
        } else {
            const ResourceEntry& entry = resourceEntry(keyText(f));
            const std::int64_t amount = quantityValue(f.value(), entry.scale);
            into.set(entry.key, amount);
            if (gpuCounts != nullptr && entry.gpuCountSource >= 0)
                gpuCounts[entry.gpuCountSource] = entry.scale == QuantityScale::ThousandUnits ? amount / 1000 : amount;
        }
        m_path.pop();
    });
}

void KubectlJsonImporter::parseTolerations(od::value v)
{
    forEachObject(v, "an array of tolerations", "an object (toleration)", [&](od::value&, od::object o) {
        auto& toleration = m_tolerationSlots.slot(m_pod.tolerations);
        std::get<0>(toleration).clear();
        std::get<1>(toleration) = TolerationOperator::Equal;
        std::get<2>(toleration).clear();
        std::get<3>(toleration) = TaintEffect::Any;
        forEachField(o, [&](od::field& f, const char* k) {
            onKey(k, "key", [&] { std::get<0>(toleration).assign(stringValue(f.value(), "a string")); })
                || onKey(k, "operator",
                    [&] {
                        const char* where = nullptr;
                        const std::string_view op = stringValue(f.value(), "a string", &where);
                        // An empty operator is Equal (core/v1 Toleration), but not one to suggest.
                        std::get<1>(toleration) = op.empty() ? TolerationOperator::Equal
                                                             : enumValue(op, where, kTolerationOperators, "toleration operator");
                    })
                || onKey(k, "value", [&] { std::get<2>(toleration).assign(stringValue(f.value(), "a string")); })
                || onKey(k, "effect",
                    [&] { std::get<3>(toleration) = enumValue(f.value(), kTolerationEffects, "toleration effect"); });
        });
    });
}

void KubectlJsonImporter::parseAffinity(od::value v)
{
    // Only spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution is kept:
    // preferred terms and pod (anti-)affinity do not decide whether a pod fits a node here.
    forEachField(v, "an object", [&](od::field& f, const char* k) {
        onKey(k, "nodeAffinity", [&] {
            forEachField(f.value(), "an object", [&](od::field& g, const char* gk) {
                onKey(gk, "requiredDuringSchedulingIgnoredDuringExecution", [&] {
                    forEachField(g.value(), "an object", [&](od::field& h, const char* hk) {
                        onKey(hk, "nodeSelectorTerms", [&] { parseSelectorTerms(h.value()); });
                    });
                });
            });
        });
    });
}

void KubectlJsonImporter::parseSelectorTerms(od::value v)
{
    forEachObject(v, "an array of node selector terms", "an object (node selector term)", [&](od::value&, od::object o) {
        auto& term = m_termSlots.slot(m_pod.requiredAffinityTerms);
        m_requirementSlots.begin();
        forEachField(o, [&](od::field& f, const char* k) {
            onKey(k, "matchExpressions", [&] { parseRequirements(f.value(), term, false); })
                || onKey(k, "matchFields", [&] { parseRequirements(f.value(), term, true); });
        });
        m_requirementSlots.trim(term);
    });
}

void KubectlJsonImporter::parseRequirements(od::value v, std::vector<PodRecord::Requirement>& into, bool matchField)
{
    forEachObject(
        v, "an array of node selector requirements", "an object (node selector requirement)", [&](od::value&, od::object o) {
            PodRecord::Requirement& req = m_requirementSlots.slot(into);
            req.key.clear();
            req.op = SelectorOperator::In;
            req.matchField = matchField;
            m_valueSlots.begin();
            forEachField(o, [&](od::field& f, const char* k) {
                onKey(k, "key", [&] { req.key.assign(stringValue(f.value(), "a string")); })
                    || onKey(k, "operator", [&] { req.op = enumValue(f.value(), kSelectorOperators, "node selector operator"); })
                    || onKey(k, "values", [&] {
                           forEachElement(f.value(), "an array of strings",
                               [&](od::value& value) { m_valueSlots.slot(req.values).assign(stringValue(value, "a string")); });
                       });
            });
            m_valueSlots.trim(req.values);
        });
}

void KubectlJsonImporter::commitItem(const char* itemStart)
{
    ItemKind kind = effectiveItemKind();
    if (kind == ItemKind::Unknown) {
        if (m_sawNodeFields && !m_sawPodFields)
            kind = ItemKind::Node;
        else if (m_sawPodFields && !m_sawNodeFields)
            kind = ItemKind::Pod;
        else
            fail(itemStart,
                m_sawPodFields ? "cannot tell whether this item is a Node or a Pod: it has no kind, and both node fields "
                                 "(status.allocatable/capacity) and pod fields (spec.containers)"
                               : "cannot tell whether this item is a Node or a Pod: it has no kind, no "
                                 "status.allocatable/capacity (a Node) and no spec.containers (a Pod)");
    }
    if (kind == ItemKind::Other) {
        const std::string& name = m_itemKind == ItemKind::Other ? m_itemKindName : m_defaultKindName;
        auto it = std::find_if(m_skippedKinds.begin(), m_skippedKinds.end(), [&](const auto& e) { return e.first == name; });
        if (it == m_skippedKinds.end())
            m_skippedKinds.emplace_back(name, 1);
        else
            ++it->second;
        return;
    }
    if (kind == ItemKind::Node) {
        m_labelSlots.trim(m_node.labels);
        m_taintSlots.trim(m_node.taints);
        if (m_itemName.empty())
            failAtName(itemStart, "a node without a name (metadata.name is missing or empty)");
        m_node.name.assign(m_itemName);
        // GPU model and instance type from the well-known labels, in this order.
        // Sources: NVIDIA GPU feature discovery, Alibaba ACK, EKS; kubernetes.io well-known labels.
        if (const std::string* model = firstLabelValue(
                m_node.labels, { "nvidia.com/gpu.product", "alibabacloud.com/gpu-card-model", "k8s.amazonaws.com/accelerator" }))
            m_node.gpuModel.assign(*model);
        if (const std::string* type
            = firstLabelValue(m_node.labels, { "node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type" }))
            m_node.instanceType.assign(*type);
        for (int i = 0; i < 3; ++i) {
            const std::int64_t n = m_capacityGpus[i] >= 0 ? m_capacityGpus[i] : m_allocatableGpus[i];
            if (n >= 0) {
                m_node.gpuCount = static_cast<std::int32_t>(std::min<std::int64_t>(n, std::numeric_limits<std::int32_t>::max()));
                break;
            }
        }
        try {
            m_store.addNode(m_node);
        } catch (const std::invalid_argument& e) {
            failAtName(itemStart, std::string(e.what()) + ": a node name appears twice (in this file or an earlier one)", true);
        }
        ++m_nodes;
        return;
    }
    m_tolerationSlots.trim(m_pod.tolerations);
    m_selectorSlots.trim(m_pod.nodeSelector);
    m_termSlots.trim(m_pod.requiredAffinityTerms);
    m_containerSlots.trim(m_spec.containers);
    m_initContainerSlots.trim(m_spec.initContainers);
    if (m_itemName.empty())
        failAtName(itemStart, "a pod without a name (metadata.name is missing or empty)");
    if (m_pod.namespaceName.empty())
        failAtName(itemStart, "a pod without a namespace (metadata.namespace is missing or empty)");
    m_pod.name.assign(m_itemName);
    m_pod.request = model::effectivePodRequest(m_spec, m_store.resources());
    m_store.addPod(m_pod);
    ++m_pods;
}

} // namespace

void importKubectlJsonFile(const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress,
    const KubectlJsonOptions& options)
{
    FileSource source(path);
    KubectlJsonImporter importer(source, path, store, report, progress, options);
    importer.run();
}

void importKubectlJsonFile(const std::string& path, model::ClusterStore& store, ImportReport& report, ImportProgress* progress)
{
    importKubectlJsonFile(path, store, report, progress, KubectlJsonOptions {});
}

void importKubectlJsonText(std::string_view json, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress, const KubectlJsonOptions& options)
{
    TextSource source(json);
    KubectlJsonImporter importer(source, sourceName, store, report, progress, options);
    importer.run();
}

void importKubectlJsonText(std::string_view json, const std::string& sourceName, model::ClusterStore& store, ImportReport& report,
    ImportProgress* progress)
{
    importKubectlJsonText(json, sourceName, store, report, progress, KubectlJsonOptions {});
}

} // namespace fleet::importers
