// SPDX-License-Identifier: Apache-2.0
// The store as the document's columns (storecodec.h): the writing side, and zlib for a column.
#include "storecodec.h"

#include "bytecolumns.h"
#include "phasetimer.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace fleet::importers::document {

using namespace fleet::model;

std::string compressColumn(std::string_view raw, int level)
{
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    std::string out(size, '\0');
    const int rc = compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(raw.data()),
                             static_cast<uLong>(raw.size()), level);
    if (rc != Z_OK)
        throw std::bad_alloc();
    out.resize(size);
    return out;
}


const std::vector<std::string>& storeColumnNames()
{
    static const std::vector<std::string> names { "strings", "resources", "nodes", "pod_templates", "pods", "pod_uids",
                                                  "namespaces", "budgets", "usage" };
    return names;
}

int columnZlibLevel(const std::string& name)
{
    return name == "pod_uids" ? 0 : 1;
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

// TemplateKey's hash, of the fields that tell workloads apart (the workload, the label set, the
// request, the priority), one multiply each: equality decides the rest. A hash of every word
// was 7% of a save's time at 1.6M pods.
struct TemplateKeyHash {
    std::size_t operator()(const TemplateKey& k) const noexcept
    {
        std::uint64_t h = k.workload.value;
        h = (h ^ reinterpret_cast<std::uintptr_t>(k.addresses[4])) * 0x9e3779b97f4a7c15ULL; // podLabels
        h = (h ^ static_cast<std::uint64_t>(k.request.amounts[0])) * 0x9e3779b97f4a7c15ULL;
        h = (h ^ static_cast<std::uint64_t>(k.request.amounts[1])) * 0x9e3779b97f4a7c15ULL;
        h = (h ^ static_cast<std::uint32_t>(k.priority)) * 0x9e3779b97f4a7c15ULL;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

// A lowercase hex digit's value, -1 for any other byte (a table: 32 digits a pod).
constexpr std::array<signed char, 256> kHexValue = [] {
    std::array<signed char, 256> t {};
    for (int c = 0; c < 256; ++c)
        t[c] = static_cast<signed char>(c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1);
    return t;
}();

int hexDigit(char c) noexcept
{
    return kHexValue[static_cast<unsigned char>(c)];
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

} // namespace

std::vector<std::pair<std::string, std::string>> encodeStore(const ClusterStore& s, const ClusterUsage* usage)
{
    std::vector<std::pair<std::string, std::string>> out;
    encodeStoreInto(s, usage, out, {});
    return out;
}

void encodeStoreInto(const ClusterStore& s, const ClusterUsage* usage, std::vector<std::pair<std::string, std::string>>& out,
                     const ColumnDone& columnDone)
{
    const Encoder enc(s);
    out.clear();
    // Never reallocated, so that the bytes handed to columnDone stay where they are (a short
    // column lives inside its std::string).
    out.reserve(storeColumnNames().size());
    PhaseTimer timer("save, encode");
    const auto done = [&] {
        if (columnDone)
            columnDone(out.back().first, out.back().second);
    };

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
    done();
    timer.mark("strings");

    ByteWriter resources;
    resources.varint(s.resources().size());
    for (std::size_t k = kFirstExtendedKey; k < s.resources().size(); ++k)
        resources.text(s.resources().name(static_cast<ResourceKey>(k)));
    out.emplace_back("resources", std::move(resources.bytes()));
    done();

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
    done();
    timer.mark("nodes");

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
    std::unordered_map<TemplateKey, std::pair<std::uint32_t, PodId>, TemplateKeyHash> templateByKey;
    for (std::size_t i = 0; i < live.size(); ++i) {
        // The pods of one workload come one after the other and share their interned sets: a
        // pod whose sets (by address) and values are the previous pod's has its template.
        const TemplateKey key = templateKey(s, live[i]);
        if (i > 0 && key == previousKey && std::ranges::equal(s.podExtendedRequest(live[i]), s.podExtendedRequest(live[i - 1]))) {
            podTemplate[i] = podTemplate[i - 1];
            continue;
        }
        previousKey = key;
        // The pods of several workloads interleave (an importer adds them as the input lists
        // them): a key seen before, with the same extended requests as the pod it was seen
        // on, has that pod's template, without encoding the pod's sets again.
        if (const auto seen = templateByKey.find(key); seen != templateByKey.end()
            && std::ranges::equal(s.podExtendedRequest(live[i]), s.podExtendedRequest(seen->second.second))) {
            podTemplate[i] = seen->second.first;
            continue;
        }
        scratch.bytes().clear();
        enc.podTemplate(scratch, live[i]);
        const auto [it, added] = templateIds.try_emplace(scratch.bytes(), static_cast<std::uint32_t>(templateIds.size()));
        if (added)
            templates.raw(scratch.bytes());
        podTemplate[i] = it->second;
        templateByKey.try_emplace(key, it->second, live[i]);
    }
    ByteWriter templateColumn;
    templateColumn.varint(templateIds.size());
    templateColumn.raw(templates.bytes());
    out.emplace_back("pod_templates", std::move(templateColumn.bytes()));
    done();
    timer.mark("pod templates");

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
    done();
    timer.mark("pods");

    // uids: a kind byte per pod (0 none, 1 a canonical UUID as 16 bytes, 2 other text), then the data.
    std::string uidData;
    uids.bytes().reserve(live.size() * 17);
    uidData.reserve(live.size() * 16);
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
    done();
    timer.mark("pod uids");

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
    done();

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
    done();

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
    done();
    timer.mark("namespaces, budgets, usage");
}

} // namespace fleet::importers::document
