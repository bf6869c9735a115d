// SPDX-License-Identifier: Apache-2.0
// The store rebuilt from the document's columns (storecodec.h): the untrusted side, where every
// value and reference is checked before the store takes it.
#include "storecodec.h"

#include "bytecolumns.h"
#include "inflatingcolumn.h"
#include "phasetimer.h"

#include "importers/kubenames.h"

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <span>
#include <stdexcept>

namespace fleet::importers::document {

using namespace fleet::model;

std::string decompressColumn(std::string_view compressed, std::uint64_t rawSize, const std::string& column)
{
    checkInflatedSize(compressed.size(), rawSize, column); // before it allocates
    std::string out(rawSize, '\0');
    inflateColumn(compressed, out.data(), rawSize, column, {});
    return out;
}

namespace {

// A canonical UUID's 16 bytes as its lowercase text (8-4-4-4-12), written into `out`: no
// allocation per pod (1.6M pods at 100,000 nodes).
constexpr std::size_t kUuidTextSize = 36;
std::string_view unpackUuid(const unsigned char in[16], char* out)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::size_t at = 0;
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[at++] = '-';
        out[at++] = kHex[in[i] >> 4];
        out[at++] = kHex[in[i] & 15];
    }
    return { out, kUuidTextSize };
}

class Decoder {
public:
    Decoder(ClusterStore& s, std::size_t strings, std::size_t resources) : m_s(s), m_strings(strings), m_resources(resources) {}

    StringId sid(ByteReader& r, const char* what = "string id") const
    {
        const std::uint32_t v = r.below(m_strings + 1, what);
        return v == 0 ? StringId {} : StringId(v - 1);
    }
    std::string text(ByteReader& r, const char* what = "string id") const { return std::string(m_s.str(sid(r, what))); }
    template <class E>
    E enumValue(ByteReader& r, E last, const char* what) const
    {
        const std::uint8_t b = r.byte();
        if (b > static_cast<std::uint8_t>(last))
            r.fail(std::string(what) + " " + std::to_string(b) + " is not one this version knows");
        return static_cast<E>(b);
    }
    std::vector<StringId> ids(ByteReader& r, bool sortedUnique) const
    {
        std::vector<StringId> v(r.count("list"));
        for (StringId& s : v)
            s = sid(r);
        if (sortedUnique)
            for (std::size_t i = 1; i < v.size(); ++i)
                if (!(v[i - 1].value < v[i].value))
                    r.fail("a value list that must be sorted and without duplicates is not");
        return v;
    }
    std::vector<std::pair<std::string, std::string>> labels(ByteReader& r) const
    {
        std::vector<std::pair<std::string, std::string>> v(r.count("labels", 2));
        for (auto& [k, val] : v) {
            k = text(r);
            val = text(r);
        }
        return v;
    }
    void core(ByteReader& r, ResourceList& list) const
    {
        for (std::size_t i = 0; i < kCoreResourceCount; ++i)
            list.core.amounts[i] = r.zigzag();
        list.presentMask = static_cast<std::uint8_t>((1u << kCoreResourceCount) - 1);
    }
    std::vector<std::pair<ResourceKey, std::int64_t>> extended(ByteReader& r) const
    {
        std::vector<std::pair<ResourceKey, std::int64_t>> v(r.count("extended resources", 2));
        for (auto& [k, a] : v) {
            const std::uint32_t key = r.below(m_resources, "resource key");
            if (key < kFirstExtendedKey)
                r.fail("an extended resource names core resource " + std::to_string(key));
            k = static_cast<ResourceKey>(key);
            a = r.zigzag();
        }
        return v;
    }
    InternedSelector selector(ByteReader& r) const
    {
        InternedSelector s;
        s.null = r.flag("selector null");
        s.requirements.resize(r.count("selector requirements", 3));
        for (MatchRequirement& q : s.requirements) {
            q.key = sid(r);
            q.op = enumValue(r, MatchOperator::DoesNotExist, "selector operator");
            q.values = ids(r, true);
        }
        return s;
    }
    std::vector<NodeSelectorTerm> terms(ByteReader& r) const
    {
        std::vector<NodeSelectorTerm> v(r.count("node selector terms"));
        for (NodeSelectorTerm& t : v) {
            t.requirements.resize(r.count("node selector requirements", 4));
            for (NodeSelectorRequirement& q : t.requirements) {
                q.key = sid(r);
                q.op = enumValue(r, SelectorOperator::Lt, "node selector operator");
                q.values = ids(r, false);
                q.matchField = r.flag("matchFields");
            }
        }
        return v;
    }
    std::vector<PodAffinityTerm> podAffinity(ByteReader& r) const
    {
        std::vector<PodAffinityTerm> v(r.count("pod affinity terms", 6));
        for (PodAffinityTerm& t : v) {
            t.selector = selector(r);
            t.namespaces = ids(r, true);
            t.hasNamespaceSelector = r.flag("namespace selector");
            t.namespaceSelector = selector(r);
            t.topologyKey = sid(r);
        }
        return v;
    }
    IntOrPercent intOrPercent(ByteReader& r) const
    {
        IntOrPercent v;
        v.set = r.flag("budget value set");
        v.percent = r.flag("budget percent");
        v.value = r.int32("budget value");
        if (v.value < 0 || (v.percent && v.value > 100))
            r.fail("a disruption budget value of " + std::to_string(v.value) + (v.percent ? "%" : ""));
        return v;
    }

    void podTemplate(ByteReader& r, PodRecord& p) const
    {
        p.clear();
        p.namespaceName = text(r, "namespace");
        p.ownerKind = enumValue(r, OwnerKind::VolcanoJob, "owner kind");
        p.ownerName = text(r, "owner name");
        p.mirror = r.flag("mirror");
        p.priority = r.int32("priority");
        core(r, p.request);
        p.request.extended = extended(r);
        p.tolerations.resize(r.count("tolerations", 4));
        for (auto& [key, op, value, effect] : p.tolerations) {
            key = text(r);
            op = enumValue(r, TolerationOperator::Exists, "toleration operator");
            value = text(r);
            effect = enumValue(r, TaintEffect::Any, "toleration effect");
        }
        p.nodeSelector = labels(r);
        for (const NodeSelectorTerm& t : terms(r)) {
            auto& out = p.requiredAffinityTerms.emplace_back();
            for (const NodeSelectorRequirement& q : t.requirements) {
                PodRecord::Requirement req { std::string(m_s.str(q.key)), q.op, {}, q.matchField };
                for (StringId v : q.values)
                    req.values.emplace_back(m_s.str(v));
                out.push_back(std::move(req));
            }
        }
        p.labels = labels(r);
        p.schedulingMessage = text(r, "scheduling message");
        for (StringId g : ids(r, false))
            p.schedulingGates.emplace_back(m_s.str(g));
        p.podAffinity = podAffinity(r);
        p.podAntiAffinity = podAffinity(r);
        p.spreadConstraints.resize(r.count("spread constraints", 8));
        for (TopologySpreadConstraint& c : p.spreadConstraints) {
            c.maxSkew = r.int32("maxSkew");
            c.topologyKey = sid(r);
            c.whenUnsatisfiable = enumValue(r, WhenUnsatisfiable::ScheduleAnyway, "whenUnsatisfiable");
            c.selector = selector(r);
            c.minDomains = r.int32("minDomains");
            c.nodeAffinityPolicy = enumValue(r, NodeInclusionPolicy::Ignore, "nodeAffinityPolicy");
            c.nodeTaintsPolicy = enumValue(r, NodeInclusionPolicy::Ignore, "nodeTaintsPolicy");
            if (c.maxSkew < 1 || c.minDomains < 1)
                r.fail("a spread constraint with maxSkew " + std::to_string(c.maxSkew) + " and minDomains "
                       + std::to_string(c.minDomains) + " (both must be at least 1)");
        }
        p.hostPorts.resize(r.count("host ports", 3));
        for (HostPort& h : p.hostPorts) {
            h.port = static_cast<std::uint16_t>(r.below(65536, "host port"));
            h.protocol = enumValue(r, PortProtocol::SCTP, "port protocol");
            h.hostIP = sid(r);
        }
        p.volumes.resize(r.count("volumes", 3));
        for (VolumeConstraint& v : p.volumes) {
            v.volume = sid(r);
            v.zoneLabels.resize(r.count("volume zone labels", 2));
            for (auto& [key, values] : v.zoneLabels) {
                key = sid(r);
                values = ids(r, false);
            }
            v.nodeAffinity = terms(r);
        }
        p.gpuShareMilli = r.int32("GPU share");
    }

    // A string id as the store holds it after interning its text: the empty string's id for
    // none (what addNode() makes of an empty name or value).
    StringId stored(ByteReader& r, const char* what = "string id") const
    {
        const StringId id = sid(r, what);
        return id.isValid() ? id : StringId(0);
    }

    // Node n into `n` by the ids of the document's strings, which are the store's (the strings
    // column is interned first, in id order): ClusterStore::addNodeInterned() takes them as
    // they are, with no string copied or looked up again (100,000 nodes of ~55 strings each).
    // The lists are reused from the node before: no allocation once the first nodes sized them.
    void node(ByteReader& r, InternedNodeRecord& n) const
    {
        n.name = stored(r, "node name");
        n.labels.resize(r.count("labels", 2));
        for (Label& l : n.labels) {
            l.key = stored(r);
            l.value = stored(r);
        }
        n.taints.resize(r.count("taints", 3));
        for (Taint& t : n.taints) {
            t.key = stored(r);
            t.value = stored(r);
            t.effect = enumValue(r, TaintEffect::Any, "taint effect");
        }
        core(r, n.allocatable);
        core(r, n.capacity);
        n.allocatable.extended = extended(r);
        n.capacity.extended = extended(r);
        n.ready = enumValue(r, Readiness::Unknown, "readiness");
        n.unschedulable = r.flag("unschedulable");
        n.gpuModel = stored(r, "GPU model");
        n.gpuCount = r.int32("GPU count");
        n.instanceType = stored(r, "instance type");
        n.conditions.resize(r.count("conditions", 5));
        for (NodeCondition& c : n.conditions) {
            c.type = stored(r);
            c.status = enumValue(r, Readiness::Unknown, "condition status");
            c.lastTransitionUnixSeconds = r.zigzag();
            c.reason = stored(r);
            c.message = stored(r);
        }
    }

private:
    ClusterStore& m_s;
    std::size_t m_strings;
    std::size_t m_resources;
};

// Runs a store call, turning its refusal into the column's error.
template <class F>
auto refused(const std::string& column, const std::string& what, F&& f)
{
    try {
        return f();
    } catch (const std::invalid_argument& e) {
        throw DocumentFormatError("column " + column + ": " + what + ": " + e.what());
    } catch (const std::out_of_range& e) {
        throw DocumentFormatError("column " + column + ": " + what + ": " + e.what());
    } catch (const std::overflow_error& e) {
        throw DocumentFormatError("column " + column + ": " + what + ": " + e.what());
    }
}

// No Kubernetes name or label holds a control character (importers/kubenames.h): a document
// whose names hold one was forged or damaged, and is refused before they reach a terminal, a
// CSV or a script.
//
// Every name and label the store holds is one of the document's strings (a StringId of the
// "strings" column: node records and pod templates name them by id), and most are shared (a
// label by thousands of pods, a node name by its pods): each of those strings is checked once
// (~1.7M strings, ~50 MB at 100,000 nodes; anyControlCharacter()), rather than each pod's name,
// namespace, node and labels (~400 MB). Only when one holds a control character (which other
// strings, such as a condition's message, may) are the nodes and pods walked (checkNames()), to
// refuse the first name or label that holds it and say which.
bool anyControlCharacter(const StringPool& pool, std::size_t strings)
{
    for (std::size_t i = 0; i < strings; ++i)
        if (controlCharacterOffset(pool.view(StringId(static_cast<std::uint32_t>(i)))).has_value())
            return true;
    return false;
}

void checkNames(const ClusterStore& s)
{
    // The message (and its "where") is built only when a name is refused: the pods' loop runs
    // 1.6M times at 100,000 nodes.
    auto check = [](std::string_view text, const char* what, const char* item, std::size_t index) {
        if (std::string problem = controlCharacterProblem(text, what); !problem.empty())
            throw DocumentFormatError(std::string("column ") + item + "s: " + item + " " + std::to_string(index + 1) + ": " + problem);
    };
    auto checkLabels = [&](std::span<const Label> labels, const char* item, std::size_t index) {
        for (const Label& l : labels) {
            check(s.str(l.key), "the label key", item, index);
            check(s.str(l.value), "the label value", item, index);
        }
    };
    for (std::size_t i = 0; i < s.nodeCount(); ++i) {
        const NodeId n(static_cast<std::uint32_t>(i));
        check(s.nodeName(n), "the node name", "node", i);
        checkLabels(s.nodeLabels(n), "node", i);
    }
    for (std::size_t i = 0; i < s.podCount(); ++i) {
        const PodId p(static_cast<std::uint32_t>(i));
        check(s.podName(p), "the pod name", "pod", i);
        check(s.podNamespace(p), "the namespace", "pod", i);
        check(s.podNodeName(p), "the node name", "pod", i);
        checkLabels(s.podLabels(p), "pod", i);
    }
}

// The pod templates and the pods' columns, decoded apart from the store.
struct PodColumns {
    std::vector<PodRecord> templates;
    std::vector<StringId> names, nodeNames; // the store's strings (the document's, interned in id order)
    std::vector<std::uint32_t> templateOf;  // template indexes
    std::vector<PodPhase> phases;
    std::vector<std::uint16_t> flags;
};

// refused() for the item at `index` (1-based in the message): the message is built only when
// the store refuses, since the pods' loop runs 1.6M times.
template <class F>
auto refusedAt(const char* column, const char* item, std::size_t index, F&& f)
{
    try {
        return f();
    } catch (const std::invalid_argument& e) {
        throw DocumentFormatError(std::string("column ") + column + ": " + item + " " + std::to_string(index + 1) + ": " + e.what());
    } catch (const std::out_of_range& e) {
        throw DocumentFormatError(std::string("column ") + column + ": " + item + " " + std::to_string(index + 1) + ": " + e.what());
    } catch (const std::overflow_error& e) {
        throw DocumentFormatError(std::string("column ") + column + ": " + item + " " + std::to_string(index + 1) + ": " + e.what());
    }
}

} // namespace

DecodedStore decodeStore(const std::function<std::string_view(const std::string&)>& column, const DecodeHooks& hooks)
{
    DecodedStore out;
    out.store = std::make_shared<ClusterStore>();
    ClusterStore& s = *out.store;

    PhaseTimer timer("open, rebuild");
    // The strings are interned as they are inflated (hooks.stringsReady): before each read,
    // need(n) waits until the next n bytes (or the rest of the column) are there.
    ByteReader strings(column("strings"), "strings");
    std::size_t stringsReady = hooks.stringsReady ? 0 : SIZE_MAX;
    auto need = [&](std::size_t bytes) {
        if (strings.offset() + bytes > stringsReady)
            stringsReady = hooks.stringsReady(strings.offset() + bytes);
    };
    std::size_t stringCount = 0;
    try {
        need(10); // a varint is at most 10 bytes
        stringCount = strings.count("strings");
        if (stringCount == 0)
            strings.fail("no strings (the empty string is always string 0)");
        s.strings().reserve(stringCount);
        // Interned a batch at a time (StringPool::internBatch(): the table's cache misses of a
        // batch overlap): each string is decoded after the one before (front coding) into
        // `batch`, where the views are taken once the batch is complete.
        constexpr std::size_t kBatch = 64;
        std::string text, batch;
        std::size_t ends[kBatch], offsets[kBatch];
        std::string_view views[kBatch];
        StringId ids[kBatch];
        for (std::size_t i = 0; i < stringCount;) {
            const std::size_t first = i;
            std::size_t n = 0;
            batch.clear();
            for (; n < kBatch && i < stringCount; ++n, ++i) {
                need(20); // two varints: the characters shared with the string before, the length
                const std::uint64_t shared = strings.varint();
                if (shared > text.size())
                    strings.fail("string " + std::to_string(i) + " shares " + std::to_string(shared) + " characters with a string of "
                                 + std::to_string(text.size()));
                text.resize(shared);
                const std::size_t length = strings.count("string");
                need(length);
                text += strings.take(length);
                batch += text;
                ends[n] = batch.size();
                offsets[n] = strings.offset();
            }
            for (std::size_t k = 0, begin = 0; k < n; begin = ends[k++])
                views[k] = std::string_view(batch).substr(begin, ends[k] - begin);
            s.strings().internBatch(std::span(views, n), std::span(ids, n));
            for (std::size_t k = 0; k < n; ++k)
                if (ids[k].value != first + k)
                    throw DocumentFormatError("column strings, byte " + std::to_string(offsets[k]) + ": string "
                                              + std::to_string(first + k) + " repeats an earlier one");
        }
        strings.expectEnd();
        if (hooks.stringsReady)
            hooks.stringsReady(SIZE_MAX); // the whole stream inflated and its checksum right
    } catch (const DocumentFormatError&) {
        // Bytes of a damaged stream come before zlib sees the damage: the stream's own error
        // is the one to report.
        if (hooks.stringsReady)
            hooks.stringsReady(SIZE_MAX);
        throw;
    }

    timer.mark("strings (inflated as interned)");
    ByteReader resources(column("resources"), "resources");
    const std::uint64_t resourceCount = resources.varint();
    if (resourceCount < kFirstExtendedKey || resourceCount > 65535)
        resources.fail("a resource count of " + std::to_string(resourceCount));
    for (std::size_t k = kFirstExtendedKey; k < resourceCount; ++k) {
        const std::string_view name = resources.text("resource name");
        if (s.resources().keyFor(name) != k)
            resources.fail("resource \"" + std::string(name.substr(0, 64)) + "\" is a core resource or repeats an earlier one");
    }
    resources.expectEnd();

    const Decoder dec(s, stringCount, resourceCount);

    // The pod templates and the pods' columns are decoded on another thread while the nodes
    // are added on this one: that thread reads the string pool only, and adding nodes never
    // changes it (a node record holds ids of the pool's strings, addNodeInterned()).
    std::future<PodColumns> podColumns = std::async(std::launch::async, [&] {
        PodColumns c;
        ByteReader templates(column("pod_templates"), "pod_templates");
        c.templates.resize(templates.count("pod templates", 20));
        for (PodRecord& t : c.templates)
            dec.podTemplate(templates, t);
        templates.expectEnd();

        ByteReader pods(column("pods"), "pods");
        const std::size_t podCount = pods.count("pods", 5);
        c.names.resize(podCount);
        c.nodeNames.resize(podCount);
        c.templateOf.resize(podCount);
        c.phases.resize(podCount);
        c.flags.resize(podCount);
        auto deltas = [&](std::vector<StringId>& into, const char* what) {
            std::int64_t last = 0;
            for (StringId& v : into) {
                const std::int64_t d = pods.zigzag();
                if ((d > 0 && last > INT64_MAX - d) || (d < 0 && last < INT64_MIN - d) || last + d < 0
                    || static_cast<std::uint64_t>(last + d) >= stringCount)
                    pods.fail(std::string(what) + " out of range");
                last += d;
                v = StringId(static_cast<std::uint32_t>(last));
            }
        };
        deltas(c.names, "pod name");
        deltas(c.nodeNames, "pod node name");
        for (PodPhase& ph : c.phases)
            ph = dec.enumValue(pods, PodPhase::Unknown, "pod phase");
        for (std::uint16_t& f : c.flags)
            f = static_cast<std::uint16_t>(pods.below(1u << 16, "pod flags"));
        for (std::uint32_t& t : c.templateOf)
            t = pods.below(c.templates.size(), "pod template");
        pods.expectEnd();
        return c;
    });

    ByteReader nodes(column("nodes"), "nodes");
    const std::size_t nodeCount = nodes.count("nodes", 20);
    InternedNodeRecord node;
    for (std::size_t i = 0; i < nodeCount; ++i) {
        dec.node(nodes, node);
        refusedAt("nodes", "node", i, [&] { return s.addNodeInterned(node); });
    }
    nodes.expectEnd();

    timer.mark("nodes (addNode; pod templates and columns beside)");
    PodColumns pc = podColumns.get();
    std::vector<PodRecord>& podTemplates = pc.templates;
    const std::size_t podCount = pc.names.size();

    timer.mark("wait for the pod templates and columns");
    const std::string_view uidColumn = column("pod_uids");
    if (uidColumn.size() < podCount)
        ByteReader(uidColumn, "pod_uids").fail("holds fewer kinds than pods");
    ByteReader uidData(uidColumn.substr(podCount), "pod_uids");
    s.reserve(nodeCount, podCount);
    // The first pod of each template is added from its record (the importers' path, every
    // check of addPod()); the others copy that pod's interned attributes, which is what
    // addPod() would make of the same record with another name, node, phase, flags and uid:
    // addPodsLike(), one run of them at a time between two templates' first pods, a column at
    // a time (a pod at a time, addPodLike(), read a cache line of ~17 columns for each of
    // 1.6M pods). A template's record is needed for its first pod only: it is moved, not
    // copied (35,591 templates at 100,000 nodes, each with its labels, tolerations and
    // selectors).
    std::vector<PodId> firstOfTemplate(podTemplates.size());
    PodRecord r;
    char uidText[kUuidTextSize];
    std::vector<PodId> runLike;
    std::string runUids;
    std::vector<std::uint32_t> runUidEnds;
    std::size_t runBegin = 0; // the run's first pod
    auto addRun = [&](std::size_t end) {
        if (end > runBegin) {
            const std::size_t n = end - runBegin;
            PodsLike run;
            run.like = runLike;
            run.names = std::span(pc.names).subspan(runBegin, n);
            run.nodeNames = std::span(pc.nodeNames).subspan(runBegin, n);
            run.phases = std::span(pc.phases).subspan(runBegin, n);
            run.flags = std::span(pc.flags).subspan(runBegin, n);
            run.uidChars = runUids;
            run.uidEnds = runUidEnds;
            refused("pods", "pods " + std::to_string(runBegin + 1) + " to " + std::to_string(end), [&] {
                s.addPodsLike(run);
                return 0;
            });
        }
        runLike.clear();
        runUids.clear();
        runUidEnds.clear();
        runBegin = end;
    };
    for (std::size_t i = 0; i < podCount; ++i) {
        std::string_view uid;
        // A canonical UUID (most pods) is unpacked where it goes: into the run's uids, or
        // for a template's first pod into uidText; not unpacked, then copied.
        const unsigned char* packed = nullptr;
        switch (static_cast<std::uint8_t>(uidColumn[i])) {
        case 0:
            break;
        case 1: // 16 bytes, checked once (not a byte at a time: 1.6M pods)
            packed = reinterpret_cast<const unsigned char*>(uidData.take(16).data());
            break;
        case 2:
            uid = uidData.text("uid");
            break;
        default:
            throw DocumentFormatError("column pod_uids, byte " + std::to_string(i) + ": uid kind "
                                      + std::to_string(static_cast<std::uint8_t>(uidColumn[i])) + " is not one this version knows");
        }
        if (pc.names[i].value == 0) // what addPod() and addPodsLike() refuse, said of this pod
            throw DocumentFormatError("column pods: pod " + std::to_string(i + 1) + ": pod without a namespace or name");
        PodId& first = firstOfTemplate[pc.templateOf[i]];
        if (first.isValid()) {
            if (runUids.size() + (packed ? kUuidTextSize : uid.size()) > std::numeric_limits<std::uint32_t>::max()) // the store's limit too
                throw DocumentFormatError("column pods: pod " + std::to_string(i + 1) + ": pod uids exceed 4 GiB");
            runLike.push_back(first);
            if (packed) {
                const std::size_t at = runUids.size();
                runUids.resize(at + kUuidTextSize);
                unpackUuid(packed, runUids.data() + at);
            } else {
                runUids += uid;
            }
            runUidEnds.push_back(static_cast<std::uint32_t>(runUids.size()));
            continue;
        }
        addRun(i);
        runBegin = i + 1; // this pod is added alone, the next run starts after it
        r = std::move(podTemplates[pc.templateOf[i]]);
        r.name = s.str(pc.names[i]);
        r.nodeName = s.str(pc.nodeNames[i]);
        r.phase = pc.phases[i];
        r.flags = pc.flags[i];
        r.uid = packed ? unpackUuid(packed, uidText) : uid;
        first = refusedAt("pods", "pod", i, [&] { return s.addPod(r); });
    }
    addRun(podCount);
    uidData.expectEnd();

    timer.mark("pods (addPod, addPodsLike)");
    ByteReader namespaces(column("namespaces"), "namespaces");
    const bool known = namespaces.flag("namespaces known");
    const std::size_t labelled = namespaces.count("namespaces", 2);
    if (!known && labelled)
        namespaces.fail("namespace labels without namespaces known");
    for (std::size_t i = 0; i < labelled; ++i) {
        const StringId ns = dec.sid(namespaces, "namespace");
        const auto labels = dec.labels(namespaces);
        if (labels.empty())
            namespaces.fail("a labelled namespace without labels");
        s.setNamespaceLabels(s.str(ns), labels);
    }
    if (known && labelled == 0)
        s.setNamespaceLabels("", {}); // known, none labelled: what namespacesKnown() reads
    namespaces.expectEnd();

    ByteReader budgets(column("budgets"), "budgets");
    const std::size_t budgetCount = budgets.count("budgets", 10);
    for (std::size_t i = 0; i < budgetCount; ++i) {
        DisruptionBudgetRecord b;
        b.namespaceName = dec.text(budgets);
        b.name = dec.text(budgets);
        const InternedSelector sel = dec.selector(budgets);
        b.selectorNull = sel.null;
        for (const MatchRequirement& q : sel.requirements) {
            std::vector<std::string> values;
            for (StringId v : q.values)
                values.emplace_back(s.str(v));
            b.matchExpressions.emplace_back(std::string(s.str(q.key)), q.op, std::move(values));
        }
        b.minAvailable = dec.intOrPercent(budgets);
        b.maxUnavailable = dec.intOrPercent(budgets);
        b.disruptionsAllowed = budgets.int32("disruptionsAllowed");
        refused("budgets", "budget " + std::to_string(i + 1), [&] {
            s.addDisruptionBudget(b);
            return 0;
        });
    }
    budgets.expectEnd();

    timer.mark("namespaces, budgets");
    // No two pods share a namespace and name, and no document string holds a control
    // character (anyControlCharacter()): checked on another thread while the store is
    // finalized, its usage read and the caller's work done (hooks.whileChecking). It reads the
    // pods' namespace, name and deleted columns and the string pool, which none of those
    // change (no string is interned from here on; the scan ran beside the nodes before, where
    // the pod columns' thread was the longer one). A failure from here on is reported after
    // the checks that come before it (a duplicate pod, a name with a control character), as
    // when they ran first.
    struct Checked {
        std::pair<PodId, PodId> duplicate;
        bool controlCharacters = false;
    };
    std::future<Checked> background = std::async(std::launch::async, [&s, stringCount] {
        return Checked { s.findDuplicatePod(), anyControlCharacter(s.strings(), stringCount) };
    });
    bool checked = false;
    auto checks = [&] {
        if (checked)
            return;
        checked = true;
        const Checked found = background.get();
        if (const auto [dup, first] = found.duplicate; dup.isValid())
            throw DocumentFormatError("column pods: pod " + std::to_string(dup.value + 1) + " has the namespace/name of pod "
                                      + std::to_string(first.value + 1));
        if (found.controlCharacters)
            checkNames(s);
    };
    try {
        out.podsOnUnknownNodes = refused("pods", "the sums of requests", [&] { return s.finalize(); });

        timer.mark("finalize");
        ByteReader u(column("usage"), "usage");
        if (u.flag("usage present")) {
            auto usage = std::make_shared<ClusterUsage>(nodeCount);
            auto figure = [&](const char* what) {
                const double v = u.float64();
                if (!std::isnan(v) && (!std::isfinite(v) || v < 0))
                    u.fail(std::string(what) + " is " + std::to_string(v));
                return v;
            };
            for (std::size_t n = 0; n < nodeCount; ++n) {
                usage->cpuUsedMilli[n] = figure("cpu used");
                usage->memoryUsedBytes[n] = figure("memory used");
                usage->gpuUtilization[n] = figure("GPU utilization");
                usage->gpusMeasured[n] = u.int32("GPUs measured");
                usage->idleAllocatedGpus[n] = u.int32("idle GPUs");
                if (usage->gpusMeasured[n] < 0 || usage->idleAllocatedGpus[n] < -1)
                    u.fail("a negative GPU count");
            }
            usage->idleGpus.resize(u.count("idle GPUs", 12));
            for (IdleGpu& g : usage->idleGpus) {
                g.node = NodeId(u.below(nodeCount, "node"));
                g.pod = PodId(u.below(podCount, "pod"));
                g.device = u.int32("device");
                g.peakUtilization = figure("peak utilization");
                g.sharedBy = u.int32("sharedBy");
                if (g.sharedBy < 1)
                    u.fail("an idle GPU shared by " + std::to_string(g.sharedBy) + " pods");
            }
            usage->allocatedGpusMeasured = u.zigzag();
            usage->windowSeconds = figure("window");
            usage->idleThreshold = figure("idle threshold");
            usage->time = figure("time");
            usage->source = u.text("usage source");
            out.usage = std::move(usage);
        }
        u.expectEnd();
        timer.mark("usage");
        if (hooks.whileChecking)
            hooks.whileChecking(s);
        timer.mark("the caller's work (topology)");
    } catch (...) {
        checks();
        throw;
    }
    checks();
    timer.mark("wait for findDuplicatePod and the control characters' scan");
    return out;
}

} // namespace fleet::importers::document
