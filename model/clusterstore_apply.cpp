// SPDX-License-Identifier: Apache-2.0
// ClusterStore: a live source's batch applied as one transaction (model/clusterchange.h), and
// stored rows read back as records (a batch's staging store is copied over through them).
//
// Design note (one batch, one diff; DESIGN.md "The model"): applyChanges() works in four steps,
// each touching only what the batch names, except step 3:
//  1. deletions (a relist: every live row the batch does not hold), then node upserts, then pod
//     upserts, each matched by name; a new row is appended, a deleted one becomes a tombstone;
//  2. the pods whose node may have changed are bound again: the pods the batch changed and,
//     when nodes were added or deleted, the pods naming one of those nodes (one compare of a
//     4-byte column per pod, no hashing);
//  3. when some pod's counted node changed, the nodePods() rows of the nodes it left or joined
//     are written again (RaggedColumns: no other row moves); a batch that moves more than one
//     pod in 16 rebuilds every row by one counting sort over the pods instead;
//  4. the requested sums (core and extended) of every node whose pods or shape changed are
//     summed again from its pods: exact, whatever the order of the batch's events.

#include "clusterchange.h"
#include "clusterstore.h"

#include <algorithm>
#include <span>
#include <string>
#include <unordered_set>

namespace fleet::model {

ClusterDiff applyChanges(ClusterStore& store, const ClusterChangeBatch& batch)
{
    return store.applyChanges(batch);
}

namespace {
constexpr std::uint8_t kAllCore = static_cast<std::uint8_t>((1u << kCoreResourceCount) - 1);

std::uint64_t podKey(StringId ns, StringId name) noexcept
{
    return (std::uint64_t{ns.value} << 32) | name.value;
}

struct PairHash {
    std::size_t operator()(const std::pair<std::string_view, std::string_view>& k) const noexcept
    {
        return std::hash<std::string_view>{}(k.first) * 31 + std::hash<std::string_view>{}(k.second);
    }
};
} // namespace

NodeRecord ClusterStore::nodeRecord(NodeId n) const
{
    NodeRecord r;
    r.name = nodeName(n);
    for (const Label& l : nodeLabels(n))
        r.labels.emplace_back(str(l.key), str(l.value));
    for (const Taint& t : nodeTaints(n))
        r.taints.emplace_back(str(t.key), str(t.value), t.effect);
    r.allocatable.core = nodeAllocatable(n);
    r.allocatable.presentMask = kAllCore;
    r.capacity.core = nodeCapacity(n);
    r.capacity.presentMask = kAllCore;
    for (const auto& e : nodeExtendedAllocatable(n))
        r.allocatable.extended.push_back(e);
    for (const auto& e : nodeExtendedCapacity(n))
        r.capacity.extended.push_back(e);
    r.ready = nodeReadiness(n);
    r.unschedulable = nodeUnschedulable(n);
    r.gpuModel = nodeGpuModel(n);
    r.gpuCount = nodeGpuCount(n);
    r.instanceType = nodeInstanceType(n);
    for (const NodeCondition& c : nodeConditions(n))
        r.conditions.push_back({std::string(str(c.type)), c.status, c.lastTransitionUnixSeconds, std::string(str(c.reason)),
                                std::string(str(c.message))});
    return r;
}

PodRecord ClusterStore::podRecord(PodId p) const
{
    PodRecord r;
    r.namespaceName = podNamespace(p);
    r.name = podName(p);
    r.nodeName = podNodeName(p);
    r.phase = podPhase(p);
    if (const WorkloadId w = podWorkload(p); w.isValid()) {
        r.ownerKind = workloadKind(w);
        r.ownerName = workloadName(w);
    }
    r.mirror = podIsMirror(p);
    r.priority = podPriority(p);
    r.request.core = podRequest(p);
    r.request.presentMask = kAllCore;
    for (const auto& e : podExtendedRequest(p))
        r.request.extended.push_back(e);
    for (const Toleration& t : podTolerations(p))
        r.tolerations.emplace_back(str(t.key), t.op, str(t.value), t.effect);
    for (const Label& l : podNodeSelector(p))
        r.nodeSelector.emplace_back(str(l.key), str(l.value));
    for (const NodeSelectorTerm& term : podRequiredAffinity(p)) {
        auto& out = r.requiredAffinityTerms.emplace_back();
        for (const NodeSelectorRequirement& q : term.requirements) {
            PodRecord::Requirement req{std::string(str(q.key)), q.op, {}, q.matchField};
            for (StringId v : q.values)
                req.values.emplace_back(str(v));
            out.push_back(std::move(req));
        }
    }
    for (const Label& l : podLabels(p))
        r.labels.emplace_back(str(l.key), str(l.value));
    r.schedulingMessage = podSchedulingMessage(p);
    for (StringId g : podSchedulingGates(p))
        r.schedulingGates.emplace_back(str(g));
    r.uid = podUid(p);
    r.podAffinity.assign(podAffinity(p).begin(), podAffinity(p).end());
    r.podAntiAffinity.assign(podAntiAffinity(p).begin(), podAntiAffinity(p).end());
    r.spreadConstraints.assign(podSpreadConstraints(p).begin(), podSpreadConstraints(p).end());
    r.hostPorts.assign(podHostPorts(p).begin(), podHostPorts(p).end());
    r.volumes.assign(podVolumes(p).begin(), podVolumes(p).end());
    r.flags = podFlags(p);
    r.gpuShareMilli = podGpuShareMilli(p);
    return r;
}

void ClusterStore::translateRecord(NodeRecord& r, const ClusterStore& source)
{
    for (auto* list : {&r.allocatable.extended, &r.capacity.extended})
        for (auto& [key, value] : *list)
            key = m_resources.keyFor(source.resources().name(key));
}

void ClusterStore::translateRecord(PodRecord& r, const ClusterStore& source)
{
    for (auto& [key, value] : r.request.extended)
        key = m_resources.keyFor(source.resources().name(key));
    auto id = [&](StringId s) { return m_strings.intern(source.str(s)); };
    auto ids = [&](std::vector<StringId>& v, bool sorted) {
        for (StringId& s : v)
            s = id(s);
        if (sorted)
            std::sort(v.begin(), v.end());
    };
    auto selector = [&](InternedSelector& s) {
        for (MatchRequirement& q : s.requirements) {
            q.key = id(q.key);
            ids(q.values, true);
        }
    };
    for (auto* terms : {&r.podAffinity, &r.podAntiAffinity})
        for (PodAffinityTerm& t : *terms) {
            selector(t.selector);
            ids(t.namespaces, true);
            selector(t.namespaceSelector);
            t.topologyKey = id(t.topologyKey);
        }
    for (TopologySpreadConstraint& c : r.spreadConstraints) {
        c.topologyKey = id(c.topologyKey);
        selector(c.selector);
    }
    for (HostPort& h : r.hostPorts)
        h.hostIP = id(h.hostIP);
    for (VolumeConstraint& v : r.volumes) {
        v.volume = id(v.volume);
        for (auto& [key, values] : v.zoneLabels) {
            key = id(key);
            ids(values, false);
        }
        for (NodeSelectorTerm& t : v.nodeAffinity)
            for (NodeSelectorRequirement& q : t.requirements) {
                q.key = id(q.key);
                ids(q.values, false);
            }
    }
}

NodeId ClusterStore::addNode(const NodeRecord& record, const ClusterStore& source)
{
    NodeRecord r = record;
    translateRecord(r, source);
    return addNode(r);
}

PodId ClusterStore::addPod(const PodRecord& record, const ClusterStore& source)
{
    PodRecord r = record;
    translateRecord(r, source);
    return addPod(r);
}

PodId ClusterStore::findPod(std::string_view namespaceName, std::string_view name) const
{
    const StringId ns = m_strings.find(namespaceName), n = m_strings.find(name);
    if (!ns.isValid() || !n.isValid())
        return {};
    if (m_podIndexBuilt) {
        const auto it = m_podByName.find(podKey(ns, n));
        return it == m_podByName.end() ? PodId{} : PodId(it->second);
    }
    for (std::size_t p = podCount(); p-- > 0;)
        if (m_podName[p] == n && m_podNamespace[p] == ns && m_podDeleted[p] == 0)
            return PodId(static_cast<std::uint32_t>(p));
    return {};
}

ClusterStore::PodNameIndex ClusterStore::makePodNameIndex() const
{
    PodNameIndex index;
    index.reserve(podCount());
    for (std::size_t p = 0; p < podCount(); ++p)
        if (m_podDeleted[p] == 0)
            index[podKey(m_podNamespace[p], m_podName[p])] = static_cast<std::uint32_t>(p);
    return index;
}

void ClusterStore::adoptPodNameIndex(PodNameIndex index) noexcept
{
    if (m_podIndexBuilt)
        return;
    m_podByName = std::move(index);
    m_podIndexBuilt = true;
}

void ClusterStore::buildPodIndex()
{
    m_podByName = makePodNameIndex();
    m_podIndexBuilt = true;
}

void ClusterStore::deleteNode(NodeId node)
{
    const std::size_t n = node.index();
    m_nodeByName.erase(m_nodeName[n].value);
    m_nodeDeleted[n] = 1;
    ++m_deletedNodes;
    // A tombstone reads as a node with nothing: code that sums or filters every row without
    // asking nodeIsDeleted() sees no capacity and no room.
    m_nodeAllocatable[n] = {};
    m_nodeCapacity[n] = {};
    for (auto& e : m_nodeExt.mutableRow<kExtAllocatable>(n))
        e.second = 0;
    for (auto& e : m_nodeExt.mutableRow<kExtCapacity>(n))
        e.second = 0;
    m_nodeReady[n] = Readiness::Unknown;
    m_nodeUnschedulable[n] = 1;
}

void ClusterStore::deletePod(PodId pod)
{
    const std::size_t p = pod.index();
    const auto it = m_podByName.find(podKey(m_podNamespace[p], m_podName[p]));
    if (it != m_podByName.end() && it->second == pod.value)
        m_podByName.erase(it);
    m_podDeleted[p] = 1;
    ++m_deletedPods;
    m_podNode[p] = {};
}

ClusterDiff ClusterStore::applyChanges(const ClusterChangeBatch& batch)
{
    ClusterDiff diff;
    if (!m_podIndexBuilt)
        buildPodIndex();
    const ClusterStore& in = batch.upserted;

    // The counted node of every pod this batch touches, before it changes (invalid: none).
    struct Touched {
        PodId pod;
        NodeId countedBefore;
    };
    std::vector<Touched> touched;
    std::vector<NodeId> reshaped;          // nodes whose extended shape or row changed
    std::vector<StringId> boundNamesChanged; // names of nodes added or deleted
    auto countedNode = [this](PodId p) { return podIsCounted(p) ? m_podNode[p.index()] : NodeId{}; };
    auto removePod = [&](PodId p) {
        touched.push_back({p, countedNode(p)});
        deletePod(p);
        diff.podsRemoved.push_back(p);
    };
    auto removeNode = [&](NodeId n) {
        boundNamesChanged.push_back(m_nodeName[n.index()]);
        deleteNode(n);
        reshaped.push_back(n);
        diff.nodesRemoved.push_back(n);
    };

    // 1. deletions
    if (batch.replacesAll) {
        std::unordered_set<std::string_view> nodes;
        for (std::size_t n = 0; n < in.nodeCount(); ++n)
            nodes.insert(in.nodeName(NodeId(static_cast<std::uint32_t>(n))));
        for (std::size_t n = 0; n < nodeCount(); ++n)
            if (m_nodeDeleted[n] == 0 && !nodes.contains(nodeName(NodeId(static_cast<std::uint32_t>(n)))))
                removeNode(NodeId(static_cast<std::uint32_t>(n)));
        std::unordered_set<std::pair<std::string_view, std::string_view>, PairHash> pods;
        pods.reserve(in.podCount());
        for (std::size_t p = 0; p < in.podCount(); ++p) {
            const PodId q(static_cast<std::uint32_t>(p));
            pods.emplace(in.podNamespace(q), in.podName(q));
        }
        for (std::size_t p = 0; p < podCount(); ++p) {
            const PodId q(static_cast<std::uint32_t>(p));
            if (m_podDeleted[p] == 0 && !pods.contains({podNamespace(q), podName(q)}))
                removePod(q);
        }
    }
    for (const std::string& name : batch.deletedNodes)
        if (const NodeId n = findNode(name); n.isValid())
            removeNode(n);
    for (const auto& [ns, name] : batch.deletedPods)
        if (const PodId p = findPod(ns, name); p.isValid())
            removePod(p);

    // Node upserts.
    for (std::size_t i = 0; i < in.nodeCount(); ++i) {
        NodeRecord r = in.nodeRecord(NodeId(static_cast<std::uint32_t>(i)));
        translateRecord(r, in);
        if (const NodeId n = findNode(r.name); n.isValid()) {
            const std::vector<Label> labelsBefore(nodeLabels(n).begin(), nodeLabels(n).end());
            writeNodeColumns(n, r);
            if (!std::ranges::equal(labelsBefore, nodeLabels(n)))
                diff.nodesRelabelled.push_back(n);
            diff.nodesChanged.push_back(n);
            reshaped.push_back(n);
        } else {
            const NodeId added = addNode(r);
            boundNamesChanged.push_back(m_nodeName[added.index()]);
            diff.nodesAdded.push_back(added);
        }
    }

    // Pod upserts. A pod of the same name with another uid is another pod (deleted and
    // created again between two events): removed and added. An empty uid matches any.
    for (std::size_t i = 0; i < in.podCount(); ++i) {
        PodRecord r = in.podRecord(PodId(static_cast<std::uint32_t>(i)));
        translateRecord(r, in);
        PodId p = findPod(r.namespaceName, r.name);
        if (p.isValid() && !r.uid.empty() && !podUid(p).empty() && podUid(p) != r.uid) {
            removePod(p);
            p = {};
        }
        if (p.isValid()) {
            touched.push_back({p, countedNode(p)});
            updatePodScheduling(p, r); // first: it validates before anything is written
            writePodColumns(p, r);
            diff.podsChanged.push_back(p);
        } else {
            p = addPod(r);
            m_podByName[podKey(m_podNamespace[p.index()], m_podName[p.index()])] = p.value;
            touched.push_back({p, {}});
            diff.podsAdded.push_back(p);
        }
    }

    // 2. binding: the pods touched, and the pods naming a node added or deleted (those become
    // bound, or "on an unknown node"; their state changed).
    auto bind = [this](std::size_t p) {
        NodeId n;
        if (m_podDeleted[p] == 0 && m_podNodeName[p].value != 0)
            if (const auto it = m_nodeByName.find(m_podNodeName[p].value); it != m_nodeByName.end())
                n = NodeId(it->second);
        m_podNode[p] = n;
    };
    for (const Touched& t : touched)
        bind(t.pod.index());
    if (!boundNamesChanged.empty()) {
        std::sort(boundNamesChanged.begin(), boundNamesChanged.end());
        std::vector<std::uint8_t> inBatch(podCount(), 0);
        for (const Touched& t : touched)
            inBatch[t.pod.index()] = 1;
        for (std::size_t p = 0; p < podCount(); ++p) {
            if (inBatch[p] != 0 || m_podDeleted[p] != 0 || m_podNodeName[p].value == 0
                || !std::binary_search(boundNamesChanged.begin(), boundNamesChanged.end(), m_podNodeName[p]))
                continue;
            const PodId pod(static_cast<std::uint32_t>(p));
            const NodeId before = countedNode(pod);
            bind(p);
            touched.push_back({pod, before});
            diff.podsChanged.push_back(pod);
        }
    }

    // 3. nodePods, when some pod's counted node changed.
    // Every pod whose counted node changed is in `touched` (steps 1 and 2), so the rows of
    // the nodes it left or joined are all that differ: each is its old row and the touched
    // pods now counted there, in pod id order, as rebuildNodePods() makes it. Only those rows
    // are written (RaggedColumns: in place, or moved to the end with slack when they grew).
    auto updateNodePods = [&] {
        std::vector<NodeId> affected;
        for (const Touched& t : touched)
            if (const NodeId after = countedNode(t.pod); after != t.countedBefore)
                for (const NodeId n : {t.countedBefore, after})
                    if (n.isValid())
                        affected.push_back(n);
        std::sort(affected.begin(), affected.end());
        affected.erase(std::unique(affected.begin(), affected.end()), affected.end());
        m_nodePods.resizeRows(nodeCount());
        std::vector<std::vector<PodId>> lists(affected.size());
        for (std::size_t i = 0; i < affected.size(); ++i)
            for (const PodId p : m_nodePods.row(affected[i].index()))
                if (countedNode(p) == affected[i])
                    lists[i].push_back(p);
        for (const Touched& t : touched) {
            const NodeId after = countedNode(t.pod);
            if (!after.isValid())
                continue;
            const auto it = std::lower_bound(affected.begin(), affected.end(), after);
            if (it != affected.end() && *it == after)
                lists[static_cast<std::size_t>(it - affected.begin())].push_back(t.pod);
        }
        for (auto& l : lists) {
            std::sort(l.begin(), l.end());
            l.erase(std::unique(l.begin(), l.end()), l.end());
        }
        for (std::size_t i = 0; i < affected.size(); ++i)
            m_nodePods.assign(affected[i].index(), std::span<const PodId>(lists[i]));
    };
    std::vector<NodeId> load; // nodes whose pods or sums may have changed
    bool moved = false;
    for (const Touched& t : touched) {
        const NodeId after = countedNode(t.pod);
        moved |= after != t.countedBefore;
        if (t.countedBefore.isValid())
            load.push_back(t.countedBefore);
        if (after.isValid())
            load.push_back(after);
    }
    if (moved || !diff.nodesAdded.empty()) {
        // Few pods changed node: only their nodes' rows are written (a batch of 1,000 events
        // against 1.6 million pods: rebuildNodePods()'s two passes over every pod, and then a
        // copy of every row, were most of bench_live's apply time). Many: the full rebuild.
        if (touched.size() * 16 > podCount() || m_nodePods.rows() == 0)
            rebuildNodePods();
        else
            updateNodePods();
    }

    // 4. requested sums.
    load.insert(load.end(), reshaped.begin(), reshaped.end());
    std::sort(load.begin(), load.end());
    load.erase(std::unique(load.begin(), load.end()), load.end());
    for (const NodeId n : load) {
        const std::size_t podsBefore = static_cast<std::size_t>(m_nodeRequested[n.index()][CoreResource::Pods]);
        const bool sumsChanged = recomputeNodeRequested(n);
        if (sumsChanged || podsBefore != nodePods(n).size())
            diff.nodesLoadChanged.push_back(n);
    }
    // A pod that only changed in place on the same node with the same request leaves its
    // node's load alone; one that moved or was resized shows in nodesLoadChanged. A pod
    // swapped for another of the same size is a change of counted pods too:
    for (const Touched& t : touched) {
        const NodeId after = countedNode(t.pod);
        if (after != t.countedBefore)
            for (const NodeId n : {t.countedBefore, after})
                if (n.isValid())
                    diff.nodesLoadChanged.push_back(n);
    }
    auto tidy = [](auto& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    tidy(diff.nodesLoadChanged);
    tidy(diff.nodesChanged);
    tidy(diff.podsChanged);
    // A pod both changed and removed (a uid swap removes the old row; a row changed then
    // rebound) is reported once, as what it ended as.
    std::erase_if(diff.podsChanged, [&](PodId p) { return m_podDeleted[p.index()] != 0; });
    std::erase_if(diff.nodesChanged, [&](NodeId n) { return m_nodeDeleted[n.index()] != 0; });
    return diff;
}

} // namespace fleet::model
