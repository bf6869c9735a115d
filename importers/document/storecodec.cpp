// SPDX-License-Identifier: Apache-2.0
#include "storecodec.h"

#include "bytecolumns.h"

#include "importers/kubenames.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace fleet::importers::document {

using namespace fleet::model;

std::string compressColumn(std::string_view raw)
{
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::string out(size, '\0');
    const int rc = compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(raw.data()),
                             static_cast<uLong>(raw.size()), 1);
    if (rc != Z_OK)
        throw std::bad_alloc();
    out.resize(size);
    return out;
}

std::string decompressColumn(std::string_view compressed, std::uint64_t rawSize, const std::string& column)
{
    // zlib cannot inflate more than ~1032 bytes out of one byte in: a larger claim is a lie,
    // refused before it allocates.
    if (rawSize > compressed.size() * 1100 + 64 || rawSize > (std::uint64_t { 1 } << 32))
        throw DocumentFormatError("column " + column + ": claims " + std::to_string(rawSize) + " bytes from "
                                  + std::to_string(compressed.size()) + " compressed bytes, more than zlib can hold");
    std::string out(rawSize, '\0');
    uLongf size = static_cast<uLongf>(rawSize);
    const int rc = uncompress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(compressed.data()),
                              static_cast<uLong>(compressed.size()));
    if (rc != Z_OK || size != rawSize)
        throw DocumentFormatError("column " + column + ": the compressed data is damaged (zlib: "
                                  + (rc == Z_OK ? std::string("inflates to ") + std::to_string(size) + " bytes, expected "
                                                      + std::to_string(rawSize)
                                                : std::string(zError(rc)))
                                  + ")");
    return out;
}

const std::vector<std::string>& storeColumnNames()
{
    static const std::vector<std::string> names { "strings", "resources", "nodes", "pod_templates", "pods", "pod_uids",
                                                  "namespaces", "budgets", "usage" };
    return names;
}

bool columnIsCompressed(const std::string& name)
{
    return name != "pod_uids";
}

namespace {

// ---- encoding -------------------------------------------------------------------------

// A StringId as written: its value + 1, so that an invalid id (an absent value) is 0.
void sidOut(ByteWriter& w, StringId s)
{
    w.varint(s.isValid() ? std::uint64_t { s.value } + 1 : 0);
}

class Encoder {
public:
    explicit Encoder(const ClusterStore& s) : m_s(s) {}

    // The id as sidOut() writes it (value + 1).
    std::uint64_t id1(std::string_view text) const { return std::uint64_t { id(text) } + 1; }
    std::uint32_t id(std::string_view text) const
    {
        const StringId i = m_s.strings().find(text);
        return i.isValid() ? i.value : 0; // every view the store hands out is interned
    }
    static void ids(ByteWriter& w, std::span<const StringId> v)
    {
        w.varint(v.size());
        for (StringId s : v)
            sidOut(w, s);
    }
    static void labels(ByteWriter& w, std::span<const Label> v)
    {
        w.varint(v.size());
        for (const Label& l : v) {
            sidOut(w, l.key);
            sidOut(w, l.value);
        }
    }
    static void core(ByteWriter& w, const ResourceVector& r)
    {
        for (std::int64_t a : r.amounts)
            w.zigzag(a);
    }
    static void extended(ByteWriter& w, std::span<const std::pair<ResourceKey, std::int64_t>> v)
    {
        w.varint(v.size());
        for (const auto& [k, a] : v) {
            w.varint(k);
            w.zigzag(a);
        }
    }
    static void selector(ByteWriter& w, const InternedSelector& s)
    {
        w.byte(s.null ? 1 : 0);
        w.varint(s.requirements.size());
        for (const MatchRequirement& q : s.requirements) {
            sidOut(w, q.key);
            w.byte(static_cast<std::uint8_t>(q.op));
            ids(w, q.values);
        }
    }
    static void terms(ByteWriter& w, std::span<const NodeSelectorTerm> v)
    {
        w.varint(v.size());
        for (const NodeSelectorTerm& t : v) {
            w.varint(t.requirements.size());
            for (const NodeSelectorRequirement& q : t.requirements) {
                sidOut(w, q.key);
                w.byte(static_cast<std::uint8_t>(q.op));
                ids(w, q.values);
                w.byte(q.matchField ? 1 : 0);
            }
        }
    }
    static void podAffinity(ByteWriter& w, std::span<const PodAffinityTerm> v)
    {
        w.varint(v.size());
        for (const PodAffinityTerm& t : v) {
            selector(w, t.selector);
            ids(w, t.namespaces);
            w.byte(t.hasNamespaceSelector ? 1 : 0);
            selector(w, t.namespaceSelector);
            sidOut(w, t.topologyKey);
        }
    }
    static void intOrPercent(ByteWriter& w, const IntOrPercent& v)
    {
        w.byte(v.set ? 1 : 0);
        w.byte(v.percent ? 1 : 0);
        w.zigzag(v.value);
    }

    void node(ByteWriter& w, NodeId n) const
    {
        w.varint(id1(m_s.nodeName(n)));
        labels(w, m_s.nodeLabels(n));
        w.varint(m_s.nodeTaints(n).size());
        for (const Taint& t : m_s.nodeTaints(n)) {
            sidOut(w, t.key);
            sidOut(w, t.value);
            w.byte(static_cast<std::uint8_t>(t.effect));
        }
        core(w, m_s.nodeAllocatable(n));
        core(w, m_s.nodeCapacity(n));
        extended(w, m_s.nodeExtendedAllocatable(n));
        extended(w, m_s.nodeExtendedCapacity(n));
        w.byte(static_cast<std::uint8_t>(m_s.nodeReadiness(n)));
        w.byte(m_s.nodeUnschedulable(n) ? 1 : 0);
        w.varint(id1(m_s.nodeGpuModel(n)));
        w.zigzag(m_s.nodeGpuCount(n));
        w.varint(id1(m_s.nodeInstanceType(n)));
        w.varint(m_s.nodeConditions(n).size());
        for (const NodeCondition& c : m_s.nodeConditions(n)) {
            sidOut(w, c.type);
            w.byte(static_cast<std::uint8_t>(c.status));
            w.zigzag(c.lastTransitionUnixSeconds);
            sidOut(w, c.reason);
            sidOut(w, c.message);
        }
    }

    // What the pods of one workload share (see storecodec.h).
    void podTemplate(ByteWriter& w, PodId p) const
    {
        w.varint(id1(m_s.podNamespace(p)));
        const WorkloadId wl = m_s.podWorkload(p);
        w.byte(static_cast<std::uint8_t>(wl.isValid() ? m_s.workloadKind(wl) : OwnerKind::None));
        w.varint(wl.isValid() ? id1(m_s.workloadName(wl)) : 1);
        w.byte(m_s.podIsMirror(p) ? 1 : 0);
        w.zigzag(m_s.podPriority(p));
        core(w, m_s.podRequest(p));
        extended(w, m_s.podExtendedRequest(p));
        w.varint(m_s.podTolerations(p).size());
        for (const Toleration& t : m_s.podTolerations(p)) {
            sidOut(w, t.key);
            w.byte(static_cast<std::uint8_t>(t.op));
            sidOut(w, t.value);
            w.byte(static_cast<std::uint8_t>(t.effect));
        }
        labels(w, m_s.podNodeSelector(p));
        terms(w, m_s.podRequiredAffinity(p));
        labels(w, m_s.podLabels(p));
        w.varint(id1(m_s.podSchedulingMessage(p)));
        ids(w, m_s.podSchedulingGates(p));
        podAffinity(w, m_s.podAffinity(p));
        podAffinity(w, m_s.podAntiAffinity(p));
        w.varint(m_s.podSpreadConstraints(p).size());
        for (const TopologySpreadConstraint& c : m_s.podSpreadConstraints(p)) {
            w.zigzag(c.maxSkew);
            sidOut(w, c.topologyKey);
            w.byte(static_cast<std::uint8_t>(c.whenUnsatisfiable));
            selector(w, c.selector);
            w.zigzag(c.minDomains);
            w.byte(static_cast<std::uint8_t>(c.nodeAffinityPolicy));
            w.byte(static_cast<std::uint8_t>(c.nodeTaintsPolicy));
        }
        w.varint(m_s.podHostPorts(p).size());
        for (const HostPort& h : m_s.podHostPorts(p)) {
            w.varint(h.port);
            w.byte(static_cast<std::uint8_t>(h.protocol));
            sidOut(w, h.hostIP);
        }
        w.varint(m_s.podVolumes(p).size());
        for (const VolumeConstraint& v : m_s.podVolumes(p)) {
            sidOut(w, v.volume);
            w.varint(v.zoneLabels.size());
            for (const auto& [key, values] : v.zoneLabels) {
                sidOut(w, key);
                ids(w, values);
            }
            terms(w, v.nodeAffinity);
        }
        w.zigzag(m_s.podGpuShareMilli(p));
    }

private:
    const ClusterStore& m_s;
};

// What makes two pods' templates equal, by the addresses of their interned sets.
struct TemplateKey {
    const void* addresses[12] {};
    std::size_t sizes[12] {};
    WorkloadId workload;
    std::int32_t priority = 0;
    std::int32_t gpuShare = 0;
    bool mirror = false;
    ResourceVector request;
    bool operator==(const TemplateKey&) const noexcept = default;
};

TemplateKey templateKey(const ClusterStore& s, PodId p)
{
    TemplateKey k;
    int i = 0;
    auto add = [&](const auto& span) {
        k.addresses[i] = span.data();
        k.sizes[i++] = span.size();
    };
    add(s.podNamespace(p));
    add(s.podTolerations(p));
    add(s.podNodeSelector(p));
    add(s.podRequiredAffinity(p));
    add(s.podLabels(p));
    add(s.podSchedulingMessage(p));
    add(s.podSchedulingGates(p));
    add(s.podAffinity(p));
    add(s.podAntiAffinity(p));
    add(s.podSpreadConstraints(p));
    add(s.podHostPorts(p));
    add(s.podVolumes(p));
    k.workload = s.podWorkload(p);
    k.priority = s.podPriority(p);
    k.gpuShare = s.podGpuShareMilli(p);
    k.mirror = s.podIsMirror(p);
    k.request = s.podRequest(p);
    return k;
}

int hexDigit(char c) noexcept
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// A canonical lowercase UUID (8-4-4-4-12) as 16 bytes; false for any other text.
bool packUuid(std::string_view s, unsigned char out[16]) noexcept
{
    if (s.size() != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
        return false;
    int at = 0;
    for (std::size_t i = 0; i < 36; i += 2) {
        if (s[i] == '-')
            ++i;
        const int hi = hexDigit(s[i]), lo = hexDigit(s[i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out[at++] = static_cast<unsigned char>(hi << 4 | lo);
    }
    return at == 16;
}

std::string unpackUuid(const unsigned char in[16])
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s;
    s.reserve(36);
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            s.push_back('-');
        s.push_back(kHex[in[i] >> 4]);
        s.push_back(kHex[in[i] & 15]);
    }
    return s;
}

} // namespace

std::vector<std::pair<std::string, std::string>> encodeStore(const ClusterStore& s, const ClusterUsage* usage)
{
    const Encoder enc(s);
    std::vector<std::pair<std::string, std::string>> out;

    // Front-coded: each string as the length of the prefix it shares with the one before, then
    // the rest (pod names of one workload share most of their characters).
    ByteWriter strings;
    strings.varint(s.strings().size());
    std::string_view previous;
    for (std::size_t i = 0; i < s.strings().size(); ++i) {
        const std::string_view text = s.strings().view(StringId(static_cast<std::uint32_t>(i)));
        const std::size_t limit = std::min(previous.size(), text.size());
        std::size_t shared = 0;
        while (shared < limit && previous[shared] == text[shared])
            ++shared;
        strings.varint(shared);
        strings.text(text.substr(shared));
        previous = text;
    }
    out.emplace_back("strings", std::move(strings.bytes()));

    ByteWriter resources;
    resources.varint(s.resources().size());
    for (std::size_t k = kFirstExtendedKey; k < s.resources().size(); ++k)
        resources.text(s.resources().name(static_cast<ResourceKey>(k)));
    out.emplace_back("resources", std::move(resources.bytes()));

    // Live rows only; a tombstone's id is skipped and the rows after it renumbered.
    std::vector<std::uint32_t> nodeIndex(s.nodeCount(), std::numeric_limits<std::uint32_t>::max());
    std::uint32_t liveNodes = 0;
    for (std::size_t n = 0; n < s.nodeCount(); ++n)
        if (!s.nodeIsDeleted(NodeId(static_cast<std::uint32_t>(n))))
            nodeIndex[n] = liveNodes++;
    ByteWriter nodes;
    nodes.varint(liveNodes);
    for (std::size_t n = 0; n < s.nodeCount(); ++n)
        if (nodeIndex[n] != std::numeric_limits<std::uint32_t>::max())
            enc.node(nodes, NodeId(static_cast<std::uint32_t>(n)));
    out.emplace_back("nodes", std::move(nodes.bytes()));

    std::vector<std::uint32_t> podIndex(s.podCount(), std::numeric_limits<std::uint32_t>::max());
    std::vector<PodId> live;
    live.reserve(s.podCount());
    for (std::size_t p = 0; p < s.podCount(); ++p)
        if (!s.podIsDeleted(PodId(static_cast<std::uint32_t>(p)))) {
            podIndex[p] = static_cast<std::uint32_t>(live.size());
            live.emplace_back(static_cast<std::uint32_t>(p));
        }
    ByteWriter templates, pods, uids;
    std::unordered_map<std::string, std::uint32_t> templateIds;
    std::vector<std::uint32_t> podTemplate(live.size());
    ByteWriter scratch;
    TemplateKey previousKey;
    for (std::size_t i = 0; i < live.size(); ++i) {
        // The pods of one workload come one after the other and share their interned sets: a
        // pod whose sets (by address) and values are the previous pod's has its template.
        const TemplateKey key = templateKey(s, live[i]);
        if (i > 0 && key == previousKey && std::ranges::equal(s.podExtendedRequest(live[i]), s.podExtendedRequest(live[i - 1]))) {
            podTemplate[i] = podTemplate[i - 1];
            continue;
        }
        previousKey = key;
        scratch.bytes().clear();
        enc.podTemplate(scratch, live[i]);
        const auto [it, added] = templateIds.try_emplace(scratch.bytes(), static_cast<std::uint32_t>(templateIds.size()));
        if (added)
            templates.raw(scratch.bytes());
        podTemplate[i] = it->second;
    }
    ByteWriter templateColumn;
    templateColumn.varint(templateIds.size());
    templateColumn.raw(templates.bytes());
    out.emplace_back("pod_templates", std::move(templateColumn.bytes()));

    pods.varint(live.size());
    auto deltas = [&](auto idOf) {
        std::int64_t last = 0;
        for (PodId p : live) {
            const std::int64_t v = idOf(p);
            pods.zigzag(v - last);
            last = v;
        }
    };
    // A pod's name was interned just after the previous pod's, a few ids on at most, in a store
    // an importer filled: tried by address before the pool's hash lookup.
    std::uint32_t lastName = 0;
    deltas([&](PodId p) {
        const std::string_view name = s.podName(p);
        for (std::uint32_t guess = lastName + 1; guess <= lastName + 8 && guess < s.strings().size(); ++guess)
            if (s.strings().view(StringId(guess)).data() == name.data() && s.strings().view(StringId(guess)).size() == name.size())
                return std::int64_t(lastName = guess);
        return std::int64_t(lastName = enc.id(name));
    });
    std::vector<std::uint32_t> nodeNameId(s.nodeCount());
    for (std::size_t n = 0; n < s.nodeCount(); ++n)
        nodeNameId[n] = enc.id(s.nodeName(NodeId(static_cast<std::uint32_t>(n))));
    deltas([&](PodId p) {
        const NodeId n = s.podNode(p);
        return std::int64_t(n.isValid() ? nodeNameId[n.index()] : enc.id(s.podNodeName(p)));
    });
    for (PodId p : live)
        pods.byte(static_cast<std::uint8_t>(s.podPhase(p)));
    for (PodId p : live)
        pods.varint(s.podFlags(p));
    for (std::uint32_t t : podTemplate)
        pods.varint(t);
    out.emplace_back("pods", std::move(pods.bytes()));

    // uids: a kind byte per pod (0 none, 1 a canonical UUID as 16 bytes, 2 other text), then the data.
    std::string uidData;
    for (PodId p : live) {
        const std::string_view u = s.podUid(p);
        unsigned char packed[16];
        if (u.empty())
            uids.byte(0);
        else if (packUuid(u, packed)) {
            uids.byte(1);
            uidData.append(reinterpret_cast<const char*>(packed), 16);
        } else {
            uids.byte(2);
            ByteWriter t;
            t.text(u);
            uidData += t.bytes();
        }
    }
    uids.raw(uidData);
    out.emplace_back("pod_uids", std::move(uids.bytes()));

    ByteWriter namespaces;
    namespaces.byte(s.namespacesKnown() ? 1 : 0);
    std::vector<std::uint32_t> labelled;
    if (s.namespacesKnown())
        for (std::size_t i = 0; i < s.strings().size(); ++i)
            if (!s.namespaceLabels(StringId(static_cast<std::uint32_t>(i))).empty())
                labelled.push_back(static_cast<std::uint32_t>(i));
    namespaces.varint(labelled.size());
    for (std::uint32_t i : labelled) {
        namespaces.varint(std::uint64_t { i } + 1);
        Encoder::labels(namespaces, s.namespaceLabels(StringId(i)));
    }
    out.emplace_back("namespaces", std::move(namespaces.bytes()));

    ByteWriter budgets;
    budgets.varint(s.disruptionBudgets().size());
    for (const DisruptionBudget& b : s.disruptionBudgets()) {
        sidOut(budgets, b.namespaceName);
        sidOut(budgets, b.name);
        Encoder::selector(budgets, b.selector);
        Encoder::intOrPercent(budgets, b.minAvailable);
        Encoder::intOrPercent(budgets, b.maxUnavailable);
        budgets.zigzag(b.disruptionsAllowed);
    }
    out.emplace_back("budgets", std::move(budgets.bytes()));

    ByteWriter u;
    const bool hasUsage = usage && usage->nodeCount() == s.nodeCount() && usage->memoryUsedBytes.size() == s.nodeCount()
        && usage->gpuUtilization.size() == s.nodeCount() && usage->gpusMeasured.size() == s.nodeCount()
        && usage->idleAllocatedGpus.size() == s.nodeCount();
    u.byte(hasUsage ? 1 : 0);
    if (hasUsage) {
        for (std::size_t n = 0; n < s.nodeCount(); ++n)
            if (nodeIndex[n] != std::numeric_limits<std::uint32_t>::max()) {
                u.float64(usage->cpuUsedMilli[n]);
                u.float64(usage->memoryUsedBytes[n]);
                u.float64(usage->gpuUtilization[n]);
                u.zigzag(usage->gpusMeasured[n]);
                u.zigzag(usage->idleAllocatedGpus[n]);
            }
        std::size_t kept = 0;
        for (const IdleGpu& g : usage->idleGpus)
            kept += g.node.isValid() && g.node.index() < nodeIndex.size() && nodeIndex[g.node.index()] != UINT32_MAX
                && g.pod.isValid() && g.pod.index() < podIndex.size() && podIndex[g.pod.index()] != UINT32_MAX;
        u.varint(kept);
        for (const IdleGpu& g : usage->idleGpus) {
            if (!(g.node.isValid() && g.node.index() < nodeIndex.size() && nodeIndex[g.node.index()] != UINT32_MAX && g.pod.isValid()
                  && g.pod.index() < podIndex.size() && podIndex[g.pod.index()] != UINT32_MAX))
                continue;
            u.varint(nodeIndex[g.node.index()]);
            u.varint(podIndex[g.pod.index()]);
            u.zigzag(g.device);
            u.float64(g.peakUtilization);
            u.zigzag(g.sharedBy);
        }
        u.zigzag(usage->allocatedGpusMeasured);
        u.float64(usage->windowSeconds);
        u.float64(usage->idleThreshold);
        u.float64(usage->time);
        u.text(usage->source);
    }
    out.emplace_back("usage", std::move(u.bytes()));
    return out;
}

// ---- decoding -------------------------------------------------------------------------

namespace {

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

    NodeRecord node(ByteReader& r) const
    {
        NodeRecord n;
        n.name = text(r, "node name");
        n.labels = labels(r);
        n.taints.resize(r.count("taints", 3));
        for (auto& [key, value, effect] : n.taints) {
            key = text(r);
            value = text(r);
            effect = enumValue(r, TaintEffect::Any, "taint effect");
        }
        core(r, n.allocatable);
        core(r, n.capacity);
        n.allocatable.extended = extended(r);
        n.capacity.extended = extended(r);
        n.ready = enumValue(r, Readiness::Unknown, "readiness");
        n.unschedulable = r.flag("unschedulable");
        n.gpuModel = text(r, "GPU model");
        n.gpuCount = r.int32("GPU count");
        n.instanceType = text(r, "instance type");
        n.conditions.resize(r.count("conditions", 5));
        for (NodeConditionRecord& c : n.conditions) {
            c.type = text(r);
            c.status = enumValue(r, Readiness::Unknown, "condition status");
            c.lastTransitionUnixSeconds = r.zigzag();
            c.reason = text(r);
            c.message = text(r);
        }
        return n;
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
void checkNames(const ClusterStore& s)
{
    auto check = [](std::string_view text, const char* what, const std::string& where) {
        if (std::string problem = controlCharacterProblem(text, what); !problem.empty())
            throw DocumentFormatError(where + ": " + problem);
    };
    auto checkLabels = [&](std::span<const Label> labels, const std::string& where) {
        for (const Label& l : labels) {
            check(s.str(l.key), "the label key", where);
            check(s.str(l.value), "the label value", where);
        }
    };
    for (std::size_t i = 0; i < s.nodeCount(); ++i) {
        const NodeId n(static_cast<std::uint32_t>(i));
        const std::string where = "column nodes: node " + std::to_string(i + 1);
        check(s.nodeName(n), "the node name", where);
        checkLabels(s.nodeLabels(n), where);
    }
    for (std::size_t i = 0; i < s.podCount(); ++i) {
        const PodId p(static_cast<std::uint32_t>(i));
        const std::string where = "column pods: pod " + std::to_string(i + 1);
        check(s.podName(p), "the pod name", where);
        check(s.podNamespace(p), "the namespace", where);
        check(s.podNodeName(p), "the node name", where);
        checkLabels(s.podLabels(p), where);
    }
}

} // namespace

DecodedStore decodeStore(const std::function<std::string_view(const std::string&)>& column)
{
    DecodedStore out;
    out.store = std::make_shared<ClusterStore>();
    ClusterStore& s = *out.store;

    ByteReader strings(column("strings"), "strings");
    const std::size_t stringCount = strings.count("strings");
    if (stringCount == 0)
        strings.fail("no strings (the empty string is always string 0)");
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
    for (std::size_t i = 0; i < nodeCount; ++i) {
        const NodeRecord r = dec.node(nodes);
        refused("nodes", "node " + std::to_string(i + 1), [&] { return s.addNode(r); });
    }
    nodes.expectEnd();

    ByteReader templates(column("pod_templates"), "pod_templates");
    std::vector<PodRecord> podTemplates(templates.count("pod templates", 20));
    for (PodRecord& t : podTemplates)
        dec.podTemplate(templates, t);
    templates.expectEnd();

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

    const std::string_view uidColumn = column("pod_uids");
    if (uidColumn.size() < podCount)
        ByteReader(uidColumn, "pod_uids").fail("holds fewer kinds than pods");
    ByteReader uidData(uidColumn.substr(podCount), "pod_uids");
    s.reserve(nodeCount, podCount);
    PodRecord r;
    std::uint32_t current = UINT32_MAX;
    for (std::size_t i = 0; i < podCount; ++i) {
        if (templateOf[i] != current) {
            r = podTemplates[templateOf[i]];
            current = templateOf[i];
        }
        r.name = s.str(StringId(names[i]));
        r.nodeName = s.str(StringId(nodeNames[i]));
        r.phase = phases[i];
        r.flags = flags[i];
        switch (static_cast<std::uint8_t>(uidColumn[i])) {
        case 0:
            r.uid.clear();
            break;
        case 1: {
            unsigned char packed[16];
            for (unsigned char& b : packed)
                b = uidData.byte();
            r.uid = unpackUuid(packed);
            break;
        }
        case 2:
            r.uid = uidData.text("uid");
            break;
        default:
            throw DocumentFormatError("column pod_uids, byte " + std::to_string(i) + ": uid kind "
                                      + std::to_string(static_cast<std::uint8_t>(uidColumn[i])) + " is not one this version knows");
        }
        refused("pods", "pod " + std::to_string(i + 1), [&] { return s.addPod(r); });
    }
    uidData.expectEnd();

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

    if (const auto [dup, first] = s.findDuplicatePod(); dup.isValid())
        throw DocumentFormatError("column pods: pod " + std::to_string(dup.value + 1) + " has the namespace/name of pod "
                                  + std::to_string(first.value + 1));
    checkNames(s);
    out.podsOnUnknownNodes = refused("pods", "the sums of requests", [&] { return s.finalize(); });

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
    return out;
}

} // namespace fleet::importers::document
