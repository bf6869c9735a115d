// SPDX-License-Identifier: Apache-2.0
// PlanLedger: the ledger of a plan (planledger.h). The indexes are built here; the
// changes (place / unplace) keep every per-node figure, the groups and the totals in step.
#include "matching.h"
#include "model/nodeboundpods.h"
#include "planledger_p.h"

#include <algorithm>
#include <chrono>
#include <unordered_set>

namespace fleet::model {

using scheduling::kNone;

namespace {

constexpr std::string_view kHostnameKey = "kubernetes.io/hostname";
// Keys indexed whatever the pods say: the standard topology keys and the VolumeZone ones.
constexpr std::string_view kStandardKeys[] = { kHostnameKey, "topology.kubernetes.io/zone", "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region" };
// The node lifecycle controller's condition taints: state, not part of a template.
constexpr std::string_view kConditionTaints[] = { "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable",
    "node.kubernetes.io/unschedulable", "node.kubernetes.io/memory-pressure", "node.kubernetes.io/disk-pressure",
    "node.kubernetes.io/pid-pressure", "node.kubernetes.io/network-unavailable" };

std::uint64_t hashMix(std::uint64_t h, std::uint64_t v) noexcept
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

std::uint64_t hashSelector(std::uint64_t h, const InternedSelector& s) noexcept
{
    h = hashMix(h, s.null ? 1 : 2);
    for (const MatchRequirement& r : s.requirements) {
        h = hashMix(h, r.key.value);
        h = hashMix(h, static_cast<std::uint64_t>(r.op));
        for (StringId v : r.values)
            h = hashMix(h, v.value);
    }
    return h;
}

std::uint64_t hashTerms(std::span<const PodAffinityTerm> terms) noexcept
{
    std::uint64_t h = terms.size();
    for (const PodAffinityTerm& t : terms) {
        h = hashSelector(h, t.selector);
        h = hashMix(h, t.topologyKey.value);
        for (StringId n : t.namespaces)
            h = hashMix(h, n.value);
        if (t.hasNamespaceSelector)
            h = hashSelector(h + 1, t.namespaceSelector);
    }
    return h;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Private helpers

StringId PlanLedger::Private::intern(std::string_view text)
{
    const StringId found = store->strings().find(text);
    if (found.isValid())
        return found;
    if (const auto it = localIndex.find(text); it != localIndex.end())
        return StringId(it->second);
    const auto id = static_cast<std::uint32_t>(store->strings().size() + localStrings.size());
    localStrings.emplace_back(text);
    localIndex.emplace(localStrings.back(), id);
    return StringId(id);
}

StringId PlanLedger::Private::nameOf(NodeId n) const noexcept
{
    if (isAdded(n))
        return added[n.index() - storeNodes].name;
    // The store keeps names interned; find() turns the text back into its id.
    return store->strings().find(store->nodeName(n));
}

StringId PlanLedger::Private::label(NodeId n, StringId key) const noexcept
{
    if (const scheduling::LabelColumn* c = column(key)) {
        const std::uint32_t v = c->valueOfNode[n.index()];
        return v == kNone ? StringId {} : c->values[v];
    }
    return scheduling::labelValue(labelsOf(n), key);
}

void PlanLedger::Private::place(PodId p, NodeId n, std::uint64_t preferredGpus)
{
    const PodId spec = specOf(p);
    const std::size_t i = n.index();
    podNode[p.index()] = n;
    stamp[i] = ++lastStamp;
    const ResourceVector& req = store->podRequest(spec);
    requested[i] += req;
    for (const auto& [key, amount] : store->podExtendedRequest(spec)) {
        auto& ext = extRequested[i];
        auto it = std::find_if(ext.begin(), ext.end(), [key = key](const auto& e) { return e.first == key; });
        if (it == ext.end())
            ext.emplace_back(key, amount);
        else
            it->second += amount;
    }
    for (const HostPort& hp : store->podHostPorts(spec)) {
        auto& ports = hostPorts[i];
        auto it = std::find_if(ports.begin(), ports.end(), [&](const auto& e) { return e.first == hp; });
        if (it == ports.end())
            ports.emplace_back(hp, 1);
        else
            ++it->second;
    }
    gpus.take(p, n, req[CoreResource::Gpu], store->podGpuShareMilli(spec), preferredGpus);
    const bool workload = isWorkloadPod(p);
    const bool loaded = loadedNode(p).isValid();
    if (workload)
        ++workloadPods[i];
    if (loaded)
        ++loadedPodsHere[i];
    if (loaded && (!workload || leavesWithNode(p)))
        ++loadedNodeBoundHere[i];
    if (loadedNode(p) != n)
        movedIn[i].push_back(p);
    labelCounts.add(podGroup[p.index()], n, 1);
    if (anyTerminating && p.index() < storePods && (store->podFlags(p) & PodFlagTerminating))
        terminatingCounts.add(podGroup[p.index()], n, 1);
    if (podAntiGroup[p.index()] != kNone) {
        antiCounts.add(podAntiGroup[p.index()], n, 1);
        antiPodPosition[p.value] = static_cast<std::uint32_t>(antiPods.size());
        antiPods.push_back(p);
    }
    if (present[i]) {
        ++totals.podsPlaced;
        totals.gpuMilliAllocated += req[CoreResource::Gpu];
        if (workload && workloadPods[i] == 1) {
            ++totals.nodesInUse;
            --totals.nodesEmpty;
        }
        if (loaded)
            --totals.podsUnplaced;
    }
}

void PlanLedger::Private::unplace(PodId p)
{
    const PodId spec = specOf(p);
    const NodeId n = podNode[p.index()];
    if (!n.isValid())
        return;
    const std::size_t i = n.index();
    podNode[p.index()] = NodeId {};
    stamp[i] = ++lastStamp;
    const ResourceVector& req = store->podRequest(spec);
    requested[i] -= req;
    for (const auto& [key, amount] : store->podExtendedRequest(spec)) {
        auto& ext = extRequested[i];
        auto it = std::find_if(ext.begin(), ext.end(), [key = key](const auto& e) { return e.first == key; });
        if (it != ext.end() && (it->second -= amount) == 0) {
            *it = ext.back();
            ext.pop_back();
        }
    }
    for (const HostPort& hp : store->podHostPorts(spec)) {
        auto& ports = hostPorts[i];
        auto it = std::find_if(ports.begin(), ports.end(), [&](const auto& e) { return e.first == hp; });
        if (it != ports.end() && --it->second == 0) {
            *it = ports.back();
            ports.pop_back();
        }
    }
    gpus.release(p, n, store->podGpuShareMilli(spec));
    const bool workload = isWorkloadPod(p);
    const bool loaded = loadedNode(p).isValid();
    if (workload)
        --workloadPods[i];
    if (loaded)
        --loadedPodsHere[i];
    if (loaded && (!workload || leavesWithNode(p)))
        --loadedNodeBoundHere[i];
    if (loadedNode(p) != n) {
        auto& in = movedIn[i];
        if (auto it = std::find(in.begin(), in.end(), p); it != in.end()) {
            *it = in.back();
            in.pop_back();
        }
    }
    labelCounts.add(podGroup[p.index()], n, -1);
    if (anyTerminating && p.index() < storePods && (store->podFlags(p) & PodFlagTerminating))
        terminatingCounts.add(podGroup[p.index()], n, -1);
    if (podAntiGroup[p.index()] != kNone) {
        antiCounts.add(podAntiGroup[p.index()], n, -1);
        const auto it = antiPodPosition.find(p.value);
        const std::uint32_t pos = it->second;
        antiPodPosition.erase(it);
        const PodId last = antiPods.back();
        antiPods.pop_back();
        if (last != p) {
            antiPods[pos] = last;
            antiPodPosition[last.value] = pos;
        }
    }
    if (present[i]) {
        --totals.podsPlaced;
        totals.gpuMilliAllocated -= req[CoreResource::Gpu];
        if (workload && workloadPods[i] == 0) {
            --totals.nodesInUse;
            ++totals.nodesEmpty;
        }
        if (loaded)
            ++totals.podsUnplaced;
    }
}

void PlanLedger::Private::addNodeColumns(NodeId n)
{
    const std::span<const Label> labels = labelsOf(n);
    for (scheduling::LabelColumn& c : columns) {
        const StringId v = scheduling::labelValue(labels, c.key);
        if (!v.isValid()) {
            c.valueOfNode.push_back(kNone);
            continue;
        }
        const std::uint32_t idx = c.valueIndex(v);
        c.valueOfNode.push_back(idx);
        c.nodesOfValue[idx].push_back(n);
    }
}

// ---------------------------------------------------------------------------------------------
// Construction

PlanLedger::PlanLedger(const ClusterStore& store, std::vector<double> nodePricePerHour)
    : d(std::make_unique<Private>())
{
    const auto start = std::chrono::steady_clock::now();
    Private& s = *d;
    s.store = &store;
    s.storeNodes = store.nodeCount();
    const std::size_t nodes = store.nodeCount();
    const std::size_t pods = store.podCount();
    s.price = std::move(nodePricePerHour);
    s.price.resize(nodes, 0.0);

    s.present.assign(nodes, 1);
    s.cordoned.assign(nodes, 0);
    s.stamp.assign(nodes, 0);
    s.requested.assign(nodes, ResourceVector {});
    s.extRequested.resize(nodes);
    s.workloadPods.assign(nodes, 0);
    s.loadedPodsHere.assign(nodes, 0);
    s.loadedNodeBoundHere.assign(nodes, 0);
    s.hostPorts.resize(nodes);
    s.movedIn.resize(nodes);
    s.gpus.reset(store);

    // Taint sets: nodes share a few (GPU taints, condition taints).
    {
        std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> index;
        s.taintSetOfNode.resize(nodes);
        for (std::size_t n = 0; n < nodes; ++n) {
            const auto taints = store.nodeTaints(NodeId(static_cast<std::uint32_t>(n)));
            std::uint64_t h = taints.size();
            for (const Taint& t : taints)
                h = hashMix(hashMix(hashMix(h, t.key.value), t.value.value), static_cast<std::uint64_t>(t.effect));
            std::uint32_t set = kNone;
            for (std::uint32_t candidate : index[h])
                if (std::equal(taints.begin(), taints.end(), s.taintSets[candidate].begin(), s.taintSets[candidate].end()))
                    set = candidate;
            if (set == kNone) {
                set = static_cast<std::uint32_t>(s.taintSets.size());
                s.taintSets.emplace_back(taints.begin(), taints.end());
                index[h].push_back(set);
            }
            s.taintSetOfNode[n] = set;
        }
    }

    // Pods: namespaces, label groups, anti-affinity groups; the keys their rules read.
    std::unordered_set<std::uint32_t> keys;
    for (std::string_view k : kStandardKeys)
        if (const StringId id = store.strings().find(k); id.isValid())
            keys.insert(id.value);
    s.storePods = pods;
    s.podNamespace.resize(pods);
    s.podGroup.resize(pods);
    s.podAntiGroup.assign(pods, kNone);
    {
        std::unordered_map<const char*, StringId> nsByText;
        // The store interns label sets: one set, one storage. Keyed by (data, size) so that
        // a store keeping per-pod ranges instead stays correct (one set per pod, then).
        struct SpanHash {
            std::size_t operator()(const std::pair<const Label*, std::size_t>& k) const noexcept
            {
                return std::hash<const void*> {}(k.first) ^ (k.second * 0x9e3779b97f4a7c15ull);
            }
        };
        std::unordered_map<std::pair<const Label*, std::size_t>, std::uint32_t, SpanHash> setByData;
        std::unordered_set<const void*> seenSpans;
        std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> antiIndex;
        std::unordered_map<std::uint64_t, std::uint32_t> antiGroupIndex;
        s.labelSets.emplace_back(); // set 0: no labels
        for (std::size_t i = 0; i < pods; ++i) {
            const PodId p(static_cast<std::uint32_t>(i));
            const std::string_view ns = store.podNamespace(p);
            auto nsIt = nsByText.find(ns.data());
            if (nsIt == nsByText.end())
                nsIt = nsByText.emplace(ns.data(), store.strings().find(ns)).first;
            const StringId nsId = nsIt->second;
            s.podNamespace[i] = nsId;

            const std::span<const Label> labels = store.podLabels(p);
            std::uint32_t set = 0;
            if (!labels.empty()) {
                auto [it, added] = setByData.emplace(std::pair(labels.data(), labels.size()), static_cast<std::uint32_t>(s.labelSets.size()));
                if (added)
                    s.labelSets.push_back(labels);
                set = it->second;
            }
            const std::uint64_t groupKey = std::uint64_t { set } << 32 | nsId.value;
            auto [g, newGroup] = s.groupIndex.emplace(groupKey, static_cast<std::uint32_t>(s.groupLabelSet.size()));
            if (newGroup) {
                s.groupLabelSet.push_back(set);
                s.groupNamespace.push_back(nsId);
            }
            s.podGroup[i] = g->second;
            if (store.podFlags(p) & PodFlagTerminating)
                s.anyTerminating = true;

            if (const auto anti = store.podAntiAffinity(p); !anti.empty()) {
                const std::uint64_t h = hashTerms(anti);
                std::uint32_t antiSet = kNone;
                for (std::uint32_t c : antiIndex[h])
                    if (std::equal(anti.begin(), anti.end(), s.antiSets[c].begin(), s.antiSets[c].end()))
                        antiSet = c;
                if (antiSet == kNone) {
                    antiSet = static_cast<std::uint32_t>(s.antiSets.size());
                    s.antiSets.push_back(anti);
                    antiIndex[h].push_back(antiSet);
                }
                const std::uint64_t key = std::uint64_t { antiSet } << 32 | nsId.value;
                auto [ag, newAnti] = antiGroupIndex.emplace(key, static_cast<std::uint32_t>(s.antiGroupSet.size()));
                if (newAnti) {
                    s.antiGroupSet.push_back(antiSet);
                    s.antiGroupNamespace.push_back(nsId);
                }
                s.podAntiGroup[i] = ag->second;
            }

            // Keys: interned sets share their storage, so each is read once.
            if (const auto sel = store.podNodeSelector(p); !sel.empty() && seenSpans.insert(sel.data()).second)
                for (const Label& l : sel)
                    keys.insert(l.key.value);
            if (const auto aff = store.podRequiredAffinity(p); !aff.empty() && seenSpans.insert(aff.data()).second)
                for (const NodeSelectorTerm& t : aff)
                    for (const NodeSelectorRequirement& r : t.requirements)
                        if (!r.matchField)
                            keys.insert(r.key.value);
            for (const TopologySpreadConstraint& c : store.podSpreadConstraints(p))
                keys.insert(c.topologyKey.value);
            for (const PodAffinityTerm& t : store.podAffinity(p))
                keys.insert(t.topologyKey.value);
            for (const PodAffinityTerm& t : store.podAntiAffinity(p))
                keys.insert(t.topologyKey.value);
            for (const VolumeConstraint& v : store.podVolumes(p)) {
                for (const auto& [k, values] : v.zoneLabels)
                    keys.insert(k.value);
                for (const NodeSelectorTerm& t : v.nodeAffinity)
                    for (const NodeSelectorRequirement& r : t.requirements)
                        if (!r.matchField)
                            keys.insert(r.key.value);
            }
        }
    }
    for (std::uint32_t g = 0; g < s.groupLabelSet.size(); ++g) {
        for (const Label& l : s.labelSets[s.groupLabelSet[g]]) {
            s.groupsByLabel[std::uint64_t { l.key.value } << 32 | l.value.value].push_back(g);
            s.groupsByKey[l.key.value].push_back(g);
        }
    }
    for (std::uint32_t ag = 0; ag < s.antiGroupSet.size(); ++ag) {
        const auto terms = s.antiSets[s.antiGroupSet[ag]];
        for (std::uint32_t t = 0; t < terms.size(); ++t) {
            const InternedSelector& sel = terms[t].selector;
            if (sel.null)
                continue;
            const std::uint64_t entry = std::uint64_t { ag } << 32 | t;
            const auto in = std::find_if(sel.requirements.begin(), sel.requirements.end(), [](const MatchRequirement& r) { return r.op == MatchOperator::In; });
            const auto exists
                = std::find_if(sel.requirements.begin(), sel.requirements.end(), [](const MatchRequirement& r) { return r.op == MatchOperator::Exists; });
            if (in != sel.requirements.end()) {
                for (StringId v : in->values)
                    s.antiTermsByLabel[std::uint64_t { in->key.value } << 32 | v.value].push_back(entry);
            } else if (exists != sel.requirements.end()) {
                s.antiTermsByKey[exists->key.value].push_back(entry);
            } else {
                s.antiTermsAny.push_back(entry);
            }
        }
    }
    s.labelCounts.resize(s.groupLabelSet.size(), nodes);
    s.terminatingCounts.resize(s.groupLabelSet.size(), nodes);
    s.antiCounts.resize(s.antiGroupSet.size(), nodes);

    // Label columns: one pass over every node's labels.
    std::vector<std::uint32_t> sortedKeys(keys.begin(), keys.end());
    std::sort(sortedKeys.begin(), sortedKeys.end());
    s.columns.resize(sortedKeys.size());
    for (std::size_t c = 0; c < sortedKeys.size(); ++c) {
        s.columns[c].key = StringId(sortedKeys[c]);
        s.columns[c].valueOfNode.assign(nodes, kNone);
        s.columnOfKey.emplace(sortedKeys[c], static_cast<std::uint32_t>(c));
    }
    for (std::size_t n = 0; n < nodes; ++n) {
        const NodeId id(static_cast<std::uint32_t>(n));
        for (const Label& l : store.nodeLabels(id)) {
            const auto it = s.columnOfKey.find(l.key.value);
            if (it == s.columnOfKey.end())
                continue;
            scheduling::LabelColumn& col = s.columns[it->second];
            const std::uint32_t v = col.valueIndex(l.value);
            col.valueOfNode[n] = v;
            col.nodesOfValue[v].push_back(id);
        }
    }

    // Totals of the loaded state, then the pods onto their nodes.
    s.podNode.assign(pods, NodeId {});
    PlanTotals& t = s.totals;
    t.nodes = static_cast<std::int64_t>(nodes);
    t.nodesEmpty = t.nodes;
    for (std::size_t n = 0; n < nodes; ++n) {
        t.gpus += store.nodeAllocatable(NodeId(static_cast<std::uint32_t>(n)))[CoreResource::Gpu] / 1000;
        s.costMicro += s.priceMicro(n);
    }
    t.costPerHour = static_cast<double>(s.costMicro) / 1e6;
    for (std::size_t i = 0; i < pods; ++i) {
        const PodId p(static_cast<std::uint32_t>(i));
        if (s.loadedNode(p).isValid()) {
            ++t.podsUnplaced; // place() takes it back
            s.place(p, s.loadedNode(p), 0);
        }
    }
    s.gpus.markLoaded();
    s.before = s.totals;
    s.buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

PlanLedger::~PlanLedger() = default;
PlanLedger::PlanLedger(PlanLedger&&) noexcept = default;
PlanLedger& PlanLedger::operator=(PlanLedger&&) noexcept = default;

const ClusterStore& PlanLedger::store() const noexcept { return *d->store; }
std::size_t PlanLedger::nodeCount() const noexcept { return d->present.size(); }
bool PlanLedger::nodePresent(NodeId n) const noexcept { return n.isValid() && n.index() < d->present.size() && d->present[n.index()]; }
NodeId PlanLedger::nodeTemplate(NodeId n) const noexcept { return d->templateOf(n); }
std::string_view PlanLedger::nodeName(NodeId n) const noexcept
{
    return d->isAdded(n) ? d->str(d->added[n.index() - d->storeNodes].name) : d->store->nodeName(n);
}
std::span<const Label> PlanLedger::nodeLabels(NodeId n) const noexcept { return d->labelsOf(n); }
StringId PlanLedger::nodeLabel(NodeId n, StringId key) const noexcept { return d->label(n, key); }
const ResourceVector& PlanLedger::nodeRequested(NodeId n) const noexcept { return d->requested[n.index()]; }
std::int64_t PlanLedger::nodeExtendedRequested(NodeId n, ResourceKey key) const noexcept
{
    for (const auto& [k, v] : d->extRequested[n.index()])
        if (k == key)
            return v;
    return 0;
}
std::span<const std::int32_t> PlanLedger::nodeGpuShares(NodeId n) const noexcept { return d->gpus.used(n); }
std::uint64_t PlanLedger::podGpuMask(PodId p) const noexcept { return d->gpus.held(p); }
std::span<const Taint> PlanLedger::nodeTaints(NodeId n) const noexcept { return d->taintsOf(n); }
const ResourceVector& PlanLedger::nodeAllocatable(NodeId n) const noexcept { return d->store->nodeAllocatable(d->templateOf(n)); }
Readiness PlanLedger::nodeReadiness(NodeId n) const noexcept
{
    return d->isAdded(n) ? Readiness::True : d->store->nodeReadiness(n);
}
bool PlanLedger::nodeUnschedulable(NodeId n) const noexcept
{
    return nodeCordonedByPlan(n) || (!d->isAdded(n) && d->store->nodeUnschedulable(n));
}
bool PlanLedger::nodeCordonedByPlan(NodeId n) const noexcept
{
    return n.isValid() && n.index() < d->cordoned.size() && d->cordoned[n.index()] != 0;
}
bool PlanLedger::setNodeCordoned(NodeId n, bool cordoned)
{
    if (!n.isValid() || n.index() >= d->cordoned.size())
        return false;
    d->cordoned[n.index()] = cordoned ? 1 : 0;
    return true;
}
std::int32_t PlanLedger::nodeGpuCount(NodeId n) const noexcept { return d->store->nodeGpuCount(d->templateOf(n)); }
std::string_view PlanLedger::str(StringId id) const noexcept { return d->str(id); }
std::string_view PlanLedger::nodeGpuModel(NodeId n) const noexcept { return d->store->nodeGpuModel(d->templateOf(n)); }
std::uint64_t PlanLedger::nodeStamp(NodeId n) const noexcept { return d->stamp[n.index()]; }

std::vector<PodId> PlanLedger::nodePods(NodeId n) const
{
    std::vector<PodId> out;
    if (!d->isAdded(n))
        for (PodId p : d->store->nodePods(n))
            if (d->podNode[p.index()] == n)
                out.push_back(p);
    out.insert(out.end(), d->movedIn[n.index()].begin(), d->movedIn[n.index()].end());
    return out;
}

bool PlanLedger::nodeHostPortInUse(NodeId n, const HostPort& port) const noexcept
{
    // NodePorts' HostPortInfo.CheckConflict: 0.0.0.0 (an empty host IP) conflicts with every IP.
    for (const auto& [used, count] : d->hostPorts[n.index()]) {
        if (used.port != port.port || used.protocol != port.protocol)
            continue;
        const bool anyUsed = used.hostIP.value == 0 || d->str(used.hostIP) == "0.0.0.0";
        const bool anyWanted = port.hostIP.value == 0 || d->str(port.hostIP) == "0.0.0.0";
        if (anyUsed || anyWanted || used.hostIP == port.hostIP)
            return true;
    }
    return false;
}

NodeId PlanLedger::podNode(PodId p) const noexcept { return d->podNode[p.index()]; }
std::size_t PlanLedger::podCount() const noexcept { return d->podNode.size(); }
PodId PlanLedger::podTemplate(PodId p) const noexcept { return d->specOf(p); }
bool PlanLedger::podAdded(PodId p) const noexcept { return d->isAddedPod(p); }
std::string_view PlanLedger::podName(PodId p) const noexcept
{
    return d->isAddedPod(p) ? d->str(d->addedPodName[p.index() - d->storePods]) : d->store->podName(p);
}

PodId PlanLedger::addPod(PodId templatePod, std::string_view name)
{
    Private& s = *d;
    if (!templatePod.isValid() || templatePod.index() >= s.storePods || name.empty() || s.store->podIsTerminal(templatePod)
        || isNodeBoundPod(*s.store, templatePod))
        return {};
    const PodId id(static_cast<std::uint32_t>(s.podNode.size()));
    s.addedPodTemplate.push_back(templatePod);
    s.addedPodName.push_back(s.intern(name));
    s.podNode.emplace_back();
    s.podNamespace.push_back(s.podNamespace[templatePod.index()]);
    s.podGroup.push_back(s.podGroup[templatePod.index()]);
    s.podAntiGroup.push_back(s.podAntiGroup[templatePod.index()]);
    return id;
}

bool PlanLedger::removeLastAddedPod()
{
    Private& s = *d;
    if (s.addedPodTemplate.empty() || s.podNode.back().isValid())
        return false;
    s.addedPodTemplate.pop_back();
    s.addedPodName.pop_back();
    s.podNode.pop_back();
    s.podNamespace.pop_back();
    s.podGroup.pop_back();
    s.podAntiGroup.pop_back();
    return true;
}
bool PlanLedger::podChanged(PodId p) const noexcept { return d->podNode[p.index()] != d->loadedNode(p); }

std::uint32_t PlanLedger::podLabelSet(PodId p) const noexcept { return d->groupLabelSet[d->podGroup[p.index()]]; }
std::size_t PlanLedger::labelSetCount() const noexcept { return d->labelSets.size(); }
std::span<const Label> PlanLedger::labelSet(std::uint32_t set) const noexcept { return d->labelSets[set]; }

std::int32_t PlanLedger::podsWithLabelSet(std::uint32_t set, StringId ns, NodeId n) const noexcept
{
    const auto it = d->groupIndex.find(std::uint64_t { set } << 32 | ns.value);
    return it == d->groupIndex.end() ? 0 : d->labelCounts.count(it->second, n);
}

std::vector<std::pair<NodeId, std::int32_t>> PlanLedger::nodesWithLabelSet(std::uint32_t set, StringId ns) const
{
    std::vector<std::pair<NodeId, std::int32_t>> out;
    const auto it = d->groupIndex.find(std::uint64_t { set } << 32 | ns.value);
    if (it == d->groupIndex.end())
        return out;
    for (NodeId n : d->labelCounts.nodes(it->second))
        out.emplace_back(n, d->labelCounts.count(it->second, n));
    return out;
}

std::vector<std::pair<PodId, NodeId>> PlanLedger::podsWithAntiAffinity() const
{
    std::vector<std::pair<PodId, NodeId>> out;
    out.reserve(d->antiPods.size());
    for (PodId p : d->antiPods)
        out.emplace_back(p, d->podNode[p.index()]);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Changes

bool PlanLedger::movePod(PodId p, NodeId to, std::uint64_t gpuMask)
{
    Private& s = *d;
    if (gpuMask == 0 || !p.isValid() || p.index() >= s.podNode.size() || s.podNode[p.index()] == to)
        return movePod(p, to);
    if (s.store->podIsTerminal(s.specOf(p)) || !nodePresent(to))
        return false;
    s.unplace(p);
    s.place(p, to, gpuMask);
    return true;
}

bool PlanLedger::movePod(PodId p, NodeId to)
{
    Private& s = *d;
    if (!p.isValid() || p.index() >= s.podNode.size() || s.store->podIsTerminal(s.specOf(p)) || !nodePresent(to))
        return false;
    if (s.podNode[p.index()] == to)
        return true;
    s.unplace(p);
    const bool home = to == s.loadedNode(p);
    s.place(p, to, home ? s.gpus.heldAsLoaded(p) : 0);
    return true;
}

bool PlanLedger::evictPod(PodId p)
{
    Private& s = *d;
    if (!p.isValid() || p.index() >= s.podNode.size() || !s.podNode[p.index()].isValid())
        return false;
    s.unplace(p);
    return true;
}

bool PlanLedger::restorePod(PodId p)
{
    Private& s = *d;
    if (!p.isValid() || p.index() >= s.podNode.size())
        return false;
    const NodeId home = s.loadedNode(p);
    if (s.podNode[p.index()] == home)
        return true;
    s.unplace(p);
    if (home.isValid()) {
        s.place(p, home, s.gpus.heldAsLoaded(p));
    }
    return true;
}

NodeId PlanLedger::addNode(NodeId templateNode, std::string name, const std::vector<std::pair<std::string, std::string>>& labelOverrides)
{
    Private& s = *d;
    if (!templateNode.isValid() || templateNode.index() >= s.storeNodes || name.empty())
        return {};
    const StringId nameId = s.intern(name);
    if (s.store->findNode(name).isValid()
        || std::any_of(s.added.begin(), s.added.end(), [&](const Private::AddedNode& a) { return a.name == nameId; }))
        return {};
    Private::AddedNode a;
    a.templateNode = templateNode;
    a.name = nameId;
    const auto labels = s.store->nodeLabels(templateNode);
    a.labels.assign(labels.begin(), labels.end());
    for (const auto& [k, v] : labelOverrides) {
        const Label l { s.intern(k), s.intern(v) };
        auto it = std::find_if(a.labels.begin(), a.labels.end(), [&](const Label& x) { return x.key == l.key; });
        if (it == a.labels.end())
            a.labels.push_back(l);
        else
            *it = l;
    }
    for (const Taint& t : s.store->nodeTaints(templateNode))
        if (std::find(std::begin(kConditionTaints), std::end(kConditionTaints), s.str(t.key)) == std::end(kConditionTaints))
            a.taints.push_back(t);
    const NodeId id(static_cast<std::uint32_t>(s.present.size()));
    s.added.push_back(std::move(a));
    s.present.push_back(1);
    s.cordoned.push_back(0);
    s.stamp.push_back(++s.lastStamp);
    s.requested.emplace_back();
    s.extRequested.emplace_back();
    s.workloadPods.push_back(0);
    s.loadedPodsHere.push_back(0);
    s.loadedNodeBoundHere.push_back(0);
    s.hostPorts.emplace_back();
    s.movedIn.emplace_back();
    s.gpus.addNodeLike(templateNode);
    s.taintSetOfNode.push_back(kNone); // not interned: read from the added node
    s.labelCounts.addNode();
    s.terminatingCounts.addNode();
    s.antiCounts.addNode();
    s.price.push_back(s.price[templateNode.index()]);
    s.addNodeColumns(id);
    PlanTotals& t = s.totals;
    ++t.nodes;
    ++t.nodesEmpty;
    t.gpus += s.store->nodeAllocatable(templateNode)[CoreResource::Gpu] / 1000;
    s.costMicro += s.priceMicro(id.index());
    t.costPerHour = static_cast<double>(s.costMicro) / 1e6;
    return id;
}

bool PlanLedger::removeLastAddedNode()
{
    Private& s = *d;
    if (s.added.empty())
        return false;
    const NodeId id(static_cast<std::uint32_t>(s.present.size() - 1));
    if (s.requested.back()[CoreResource::Pods] != 0 || !s.movedIn.back().empty())
        return false;
    if (s.present.back())
        setNodePresent(id, false);
    for (scheduling::LabelColumn& c : s.columns) {
        const std::uint32_t v = c.valueOfNode.back();
        c.valueOfNode.pop_back();
        if (v != kNone)
            c.nodesOfValue[v].pop_back();
    }
    s.added.pop_back();
    s.present.pop_back();
    s.cordoned.pop_back();
    s.stamp.pop_back();
    s.requested.pop_back();
    s.extRequested.pop_back();
    s.workloadPods.pop_back();
    s.loadedPodsHere.pop_back();
    s.loadedNodeBoundHere.pop_back();
    s.hostPorts.pop_back();
    s.movedIn.pop_back();
    s.gpus.popNode();
    s.taintSetOfNode.pop_back();
    s.labelCounts.popNode();
    s.terminatingCounts.popNode();
    s.antiCounts.popNode();
    s.price.pop_back();
    return true;
}

bool PlanLedger::setNodePresent(NodeId n, bool present)
{
    Private& s = *d;
    if (!n.isValid() || n.index() >= s.present.size())
        return false;
    const std::size_t i = n.index();
    if (static_cast<bool>(s.present[i]) == present)
        return true;
    s.present[i] = present ? 1 : 0;
    const std::int64_t sign = present ? 1 : -1;
    PlanTotals& t = s.totals;
    const NodeId tmpl = s.templateOf(n);
    t.nodes += sign;
    t.gpus += sign * (s.store->nodeAllocatable(tmpl)[CoreResource::Gpu] / 1000);
    s.costMicro += sign * s.priceMicro(i);
    t.costPerHour = static_cast<double>(s.costMicro) / 1e6;
    t.podsPlaced += sign * s.requested[i][CoreResource::Pods];
    t.gpuMilliAllocated += sign * s.requested[i][CoreResource::Gpu];
    if (s.workloadPods[i] > 0)
        t.nodesInUse += sign;
    else
        t.nodesEmpty += sign;
    t.podsUnplaced -= sign * (s.loadedPodsHere[i] - s.loadedNodeBoundHere[i]);
    t.podsRemovedWithNodes -= sign * s.loadedNodeBoundHere[i];
    return true;
}

const PlanTotals& PlanLedger::totals() const noexcept { return d->totals; }
const PlanTotals& PlanLedger::totalsBefore() const noexcept { return d->before; }
double PlanLedger::buildMs() const noexcept { return d->buildMs; }

} // namespace fleet::model
