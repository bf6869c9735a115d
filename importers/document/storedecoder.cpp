// SPDX-License-Identifier: Apache-2.0
// The store rebuilt from the document's columns (storecodec.h): the untrusted side, where every
// value and reference is checked before the store takes it.
#include "storecodec.h"

#include "bytecolumns.h"
#include "phasetimer.h"

#include "importers/kubenames.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fleet::importers::document {

using namespace fleet::model;

std::string decompressColumn(std::string_view compressed, std::uint64_t rawSize, const std::string& column)
{
    // zlib cannot inflate more than ~1032 bytes out of one byte in: a larger claim is a lie,
    // refused before it allocates.
    if (rawSize > compressed.size() * 1100 + 64 || rawSize > (std::uint64_t { 1 } << 32))
        throw DocumentFormatError("column " + column + ": claims " + std::to_string(rawSize) + " bytes from "
                                  + std::to_string(compressed.size()) + " compressed bytes, more than zlib can hold");
    std::string out(rawSize, '\0');
    uLongf size = static_cast<uLongf>(rawSize);
    uLong consumed = static_cast<uLong>(compressed.size());
    const int rc = uncompress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(compressed.data()), &consumed);
    // The stream is consumed exactly: bytes after its end are not part of what was written.
    if (rc == Z_OK && consumed != compressed.size())
        throw DocumentFormatError("column " + column + ": " + std::to_string(compressed.size() - consumed)
                                  + " bytes follow the end of the compressed data");
    if (rc != Z_OK || size != rawSize)
        throw DocumentFormatError("column " + column + ": the compressed data is damaged (zlib: "
                                  + (rc == Z_OK ? std::string("inflates to ") + std::to_string(size) + " bytes, expected "
                                                      + std::to_string(rawSize)
                                                : std::string(zError(rc)))
                                  + ")");
    return out;
}

namespace {

// A canonical UUID's 16 bytes as its lowercase text (8-4-4-4-12), written into `out`: no
// allocation per pod (1.6M pods at 100,000 nodes).
std::string_view unpackUuid(const unsigned char in[16], char (&out)[36])
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::size_t at = 0;
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[at++] = '-';
        out[at++] = kHex[in[i] >> 4];
        out[at++] = kHex[in[i] & 15];
    }
    return { out, 36 };
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
    void textInto(ByteReader& r, std::string& out, const char* what) const { out.assign(m_s.str(sid(r, what))); }
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

    // Node n into `n`, reusing its strings and lists from the node before: no allocation per
    // label, taint or condition once the first nodes have sized them (100,000 nodes of ~50
    // strings each).
    void node(ByteReader& r, NodeRecord& n) const
    {
        textInto(r, n.name, "node name");
        n.labels.resize(r.count("labels", 2));
        for (auto& [k, val] : n.labels) {
            textInto(r, k, "string id");
            textInto(r, val, "string id");
        }
        n.taints.resize(r.count("taints", 3));
        for (auto& [key, value, effect] : n.taints) {
            textInto(r, key, "string id");
            textInto(r, value, "string id");
            effect = enumValue(r, TaintEffect::Any, "taint effect");
        }
        core(r, n.allocatable);
        core(r, n.capacity);
        n.allocatable.extended = extended(r);
        n.capacity.extended = extended(r);
        n.ready = enumValue(r, Readiness::Unknown, "readiness");
        n.unschedulable = r.flag("unschedulable");
        textInto(r, n.gpuModel, "GPU model");
        n.gpuCount = r.int32("GPU count");
        textInto(r, n.instanceType, "instance type");
        n.conditions.resize(r.count("conditions", 5));
        for (NodeConditionRecord& c : n.conditions) {
            textInto(r, c.type, "string id");
            c.status = enumValue(r, Readiness::Unknown, "condition status");
            c.lastTransitionUnixSeconds = r.zigzag();
            textInto(r, c.reason, "string id");
            textInto(r, c.message, "string id");
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
// Every name and label the store holds is one of its interned strings (StringId), and most are
// shared (a label by thousands of pods, a node name by its pods): each string of the pool is
// checked once (~1.7M strings, ~50 MB at 100,000 nodes), rather than each pod's name,
// namespace, node and labels (~400 MB). Only when one holds a control character (which other
// strings, such as a condition's message, may) are the nodes and pods walked, to refuse the
// first name or label that holds it and say which.
void checkNames(const ClusterStore& s)
{
    bool any = false;
    for (std::size_t i = 0; i < s.strings().size() && !any; ++i)
        any = controlCharacterOffset(s.strings().view(StringId(static_cast<std::uint32_t>(i)))).has_value();
    if (!any)
        return;
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

DecodedStore decodeStore(const std::function<std::string_view(const std::string&)>& column)
{
    DecodedStore out;
    out.store = std::make_shared<ClusterStore>();
    ClusterStore& s = *out.store;

    PhaseTimer timer("open, rebuild");
    ByteReader strings(column("strings"), "strings");
    const std::size_t stringCount = strings.count("strings");
    if (stringCount == 0)
        strings.fail("no strings (the empty string is always string 0)");
    s.strings().reserve(stringCount);
    std::string text;
    for (std::size_t i = 0; i < stringCount; ++i) {
        const std::uint64_t shared = strings.varint();
        if (shared > text.size())
            strings.fail("string " + std::to_string(i) + " shares " + std::to_string(shared) + " characters with a string of "
                         + std::to_string(text.size()));
        text.resize(shared);
        text += strings.text("string");
        if (s.strings().intern(text).value != i)
            strings.fail("string " + std::to_string(i) + " repeats an earlier one");
    }
    strings.expectEnd();

    timer.mark("strings (wait for zlib, intern)");
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

    ByteReader nodes(column("nodes"), "nodes");
    const std::size_t nodeCount = nodes.count("nodes", 20);
    NodeRecord node;
    for (std::size_t i = 0; i < nodeCount; ++i) {
        dec.node(nodes, node);
        refusedAt("nodes", "node", i, [&] { return s.addNode(node); });
    }
    nodes.expectEnd();

    timer.mark("nodes (addNode)");
    ByteReader templates(column("pod_templates"), "pod_templates");
    std::vector<PodRecord> podTemplates(templates.count("pod templates", 20));
    for (PodRecord& t : podTemplates)
        dec.podTemplate(templates, t);
    templates.expectEnd();

    timer.mark("pod templates");
    ByteReader pods(column("pods"), "pods");
    const std::size_t podCount = pods.count("pods", 5);
    std::vector<std::uint32_t> names(podCount), nodeNames(podCount), templateOf(podCount);
    std::vector<PodPhase> phases(podCount);
    std::vector<std::uint16_t> flags(podCount);
    auto deltas = [&](std::vector<std::uint32_t>& into, const char* what) {
        std::int64_t last = 0;
        for (std::uint32_t& v : into) {
            const std::int64_t d = pods.zigzag();
            if ((d > 0 && last > INT64_MAX - d) || (d < 0 && last < INT64_MIN - d) || last + d < 0
                || static_cast<std::uint64_t>(last + d) >= stringCount)
                pods.fail(std::string(what) + " out of range");
            last += d;
            v = static_cast<std::uint32_t>(last);
        }
    };
    deltas(names, "pod name");
    deltas(nodeNames, "pod node name");
    for (PodPhase& ph : phases)
        ph = dec.enumValue(pods, PodPhase::Unknown, "pod phase");
    for (std::uint16_t& f : flags)
        f = static_cast<std::uint16_t>(pods.below(1u << 16, "pod flags"));
    for (std::uint32_t& t : templateOf)
        t = pods.below(podTemplates.size(), "pod template");
    pods.expectEnd();

    timer.mark("pods columns");
    const std::string_view uidColumn = column("pod_uids");
    if (uidColumn.size() < podCount)
        ByteReader(uidColumn, "pod_uids").fail("holds fewer kinds than pods");
    ByteReader uidData(uidColumn.substr(podCount), "pod_uids");
    s.reserve(nodeCount, podCount);
    // The first pod of each template is added from its record (the importers' path, every
    // check of addPod()); the others copy that pod's interned attributes (addPodLike()), which
    // is what addPod() would make of the same record with another name, node, phase, flags
    // and uid.
    std::vector<PodId> firstOfTemplate(podTemplates.size());
    PodRecord r;
    char uidText[36];
    for (std::size_t i = 0; i < podCount; ++i) {
        std::string_view uid;
        switch (static_cast<std::uint8_t>(uidColumn[i])) {
        case 0:
            break;
        case 1: {
            unsigned char packed[16];
            for (unsigned char& b : packed)
                b = uidData.byte();
            uid = unpackUuid(packed, uidText);
            break;
        }
        case 2:
            uid = uidData.text("uid");
            break;
        default:
            throw DocumentFormatError("column pod_uids, byte " + std::to_string(i) + ": uid kind "
                                      + std::to_string(static_cast<std::uint8_t>(uidColumn[i])) + " is not one this version knows");
        }
        PodId& first = firstOfTemplate[templateOf[i]];
        if (first.isValid()) {
            refusedAt("pods", "pod", i, [&] {
                return s.addPodLike(first, StringId(names[i]), StringId(nodeNames[i]), phases[i], flags[i], uid);
            });
            continue;
        }
        r = podTemplates[templateOf[i]];
        r.name = s.str(StringId(names[i]));
        r.nodeName = s.str(StringId(nodeNames[i]));
        r.phase = phases[i];
        r.flags = flags[i];
        r.uid = uid;
        first = refusedAt("pods", "pod", i, [&] { return s.addPod(r); });
    }
    uidData.expectEnd();

    timer.mark("pods (addPod, addPodLike)");
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
    if (const auto [dup, first] = s.findDuplicatePod(); dup.isValid())
        throw DocumentFormatError("column pods: pod " + std::to_string(dup.value + 1) + " has the namespace/name of pod "
                                  + std::to_string(first.value + 1));
    timer.mark("findDuplicatePod");
    checkNames(s);
    timer.mark("checkNames");
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
    return out;
}

} // namespace fleet::importers::document
