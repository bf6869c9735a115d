// SPDX-License-Identifier: Apache-2.0
#include "clusterstore.h"

#include "workloadname.h"

#include <algorithm>
#include <stdexcept>

namespace fleet::model {

std::string_view taintEffectName(TaintEffect e) noexcept
{
    switch (e) {
    case TaintEffect::NoSchedule: return "NoSchedule";
    case TaintEffect::PreferNoSchedule: return "PreferNoSchedule";
    case TaintEffect::NoExecute: return "NoExecute";
    case TaintEffect::Any: return "";
    }
    return "";
}

std::string_view selectorOperatorName(SelectorOperator op) noexcept
{
    switch (op) {
    case SelectorOperator::In: return "In";
    case SelectorOperator::NotIn: return "NotIn";
    case SelectorOperator::Exists: return "Exists";
    case SelectorOperator::DoesNotExist: return "DoesNotExist";
    case SelectorOperator::Gt: return "Gt";
    case SelectorOperator::Lt: return "Lt";
    }
    return "";
}

std::string_view readinessName(Readiness r) noexcept
{
    switch (r) {
    case Readiness::True: return "True";
    case Readiness::False: return "False";
    case Readiness::Unknown: return "Unknown";
    }
    return "Unknown";
}

std::string_view podPhaseName(PodPhase p) noexcept
{
    switch (p) {
    case PodPhase::Pending: return "Pending";
    case PodPhase::Running: return "Running";
    case PodPhase::Succeeded: return "Succeeded";
    case PodPhase::Failed: return "Failed";
    case PodPhase::Unknown: return "Unknown";
    }
    return "Unknown";
}

std::string_view ownerKindName(OwnerKind k) noexcept
{
    switch (k) {
    case OwnerKind::None: return "";
    case OwnerKind::ReplicaSet: return "ReplicaSet";
    case OwnerKind::Deployment: return "Deployment";
    case OwnerKind::StatefulSet: return "StatefulSet";
    case OwnerKind::DaemonSet: return "DaemonSet";
    case OwnerKind::Job: return "Job";
    case OwnerKind::CronJob: return "CronJob";
    case OwnerKind::Node: return "Node";
    case OwnerKind::Other: return "Other";
    case OwnerKind::JobSet: return "JobSet";
    case OwnerKind::LeaderWorkerSet: return "LeaderWorkerSet";
    case OwnerKind::TrainingJob: return "TrainingJob";
    case OwnerKind::VolcanoJob: return "VolcanoJob";
    }
    return "";
}

OwnerKind ownerKindFromName(std::string_view kind) noexcept
{
    if (kind.empty())
        return OwnerKind::None;
    if (kind == "ReplicaSet")
        return OwnerKind::ReplicaSet;
    if (kind == "Deployment")
        return OwnerKind::Deployment;
    if (kind == "StatefulSet")
        return OwnerKind::StatefulSet;
    if (kind == "DaemonSet")
        return OwnerKind::DaemonSet;
    if (kind == "Job")
        return OwnerKind::Job;
    if (kind == "CronJob")
        return OwnerKind::CronJob;
    if (kind == "Node")
        return OwnerKind::Node;
    if (kind == "JobSet")
        return OwnerKind::JobSet;
    if (kind == "LeaderWorkerSet")
        return OwnerKind::LeaderWorkerSet;
    // Kubeflow training operator (v1) kinds and Kubeflow Trainer's TrainJob.
    // Source: https://www.kubeflow.org/docs/components/trainer/legacy-v1/
    for (std::string_view training : {"PyTorchJob", "TFJob", "MPIJob", "XGBoostJob", "PaddleJob", "JAXJob", "TrainJob"})
        if (kind == training)
            return OwnerKind::TrainingJob;
    if (kind == "TrainingJob")
        return OwnerKind::TrainingJob;
    if (kind == "VolcanoJob")
        return OwnerKind::VolcanoJob;
    return OwnerKind::Other;
}

void NodeRecord::clear()
{
    name.clear();
    labels.clear();
    taints.clear();
    allocatable.clear();
    capacity.clear();
    ready = Readiness::Unknown;
    unschedulable = false;
    gpuModel.clear();
    gpuCount = 0;
    instanceType.clear();
    conditions.clear();
}

void PodRecord::clear()
{
    namespaceName.clear();
    name.clear();
    nodeName.clear();
    phase = PodPhase::Pending;
    ownerKind = OwnerKind::None;
    ownerName.clear();
    mirror = false;
    priority = 0;
    request.clear();
    tolerations.clear();
    nodeSelector.clear();
    requiredAffinityTerms.clear();
    labels.clear();
    schedulingMessage.clear();
    schedulingGates.clear();
    uid.clear();
    podAffinity.clear();
    podAntiAffinity.clear();
    spreadConstraints.clear();
    hostPorts.clear();
    volumes.clear();
    flags = PodFlagNone;
    gpuShareMilli = 0;
}

ClusterStore::ClusterStore()
    : m_scheduling(makeSchedulingColumns())
{
}

void ClusterStore::reserve(std::size_t nodes, std::size_t pods)
{
    m_nodeName.reserve(nodes);
    m_nodeAllocatable.reserve(nodes);
    m_nodeCapacity.reserve(nodes);
    m_nodeReady.reserve(nodes);
    m_nodeUnschedulable.reserve(nodes);
    m_nodeGpuModel.reserve(nodes);
    m_nodeGpuCount.reserve(nodes);
    m_nodeInstanceType.reserve(nodes);
    m_nodeDeleted.reserve(nodes);
    m_podNamespace.reserve(pods);
    m_podName.reserve(pods);
    m_podNodeName.reserve(pods);
    m_podNode.reserve(pods);
    m_podPhase.reserve(pods);
    m_podMirror.reserve(pods);
    m_podPriority.reserve(pods);
    m_podRequest.reserve(pods);
    m_podExtBegin.reserve(pods + 1);
    m_podWorkload.reserve(pods);
    m_podTolerationSet.reserve(pods);
    m_podSelectorSet.reserve(pods);
    m_podAffinitySet.reserve(pods);
    m_podLabelSet.reserve(pods);
    m_podSchedulingMessage.reserve(pods);
    m_podGateSet.reserve(pods);
    m_podDeleted.reserve(pods);
    reserveScheduling(pods);
}


namespace {
// Replaces row `row`'s range [begin[row], begin[row+1]) of a CSR column by `repl`: in place
// when the length stays, else by moving the tail and shifting the later offsets (O(tail)).
// Only for pods' extended requests, whose length a live update keeps (a pod's requests are
// immutable in Kubernetes); node rows, which live changes resize, are RaggedColumns.
template <class T>
void replaceRow(std::vector<std::uint32_t>& begin, std::vector<T>& values, std::size_t row, std::span<const T> repl)
{
    const std::uint32_t b = begin[row], e = begin[row + 1];
    if (repl.size() == e - b) {
        std::copy(repl.begin(), repl.end(), values.begin() + b);
        return;
    }
    values.erase(values.begin() + b, values.begin() + e);
    values.insert(values.begin() + b, repl.begin(), repl.end());
    const auto delta = static_cast<std::int64_t>(repl.size()) - static_cast<std::int64_t>(e - b);
    for (std::size_t k = row + 1; k < begin.size(); ++k)
        begin[k] = static_cast<std::uint32_t>(begin[k] + delta);
}
} // namespace

NodeId ClusterStore::addNode(const NodeRecord& r)
{
    if (r.name.empty())
        throw std::invalid_argument("node without a name");
    const NodeId id = appendNodeRow(m_strings.intern(r.name), r.name);
    writeNodeColumns(id, r);
    return id;
}

NodeId ClusterStore::appendNodeRow(StringId name, std::string_view nameText)
{
    if (!m_nodeByName.emplace(name.value, static_cast<std::uint32_t>(m_nodeName.size())).second)
        throw std::invalid_argument("duplicate node \"" + std::string(nameText) + "\"");
    const NodeId id(static_cast<std::uint32_t>(m_nodeName.size()));
    // Empty rows first; writeNodeColumns() fills them as it updates a live node.
    m_nodeName.push_back(name);
    m_nodeLabels.addRow();
    m_nodeTaints.addRow();
    m_nodeAllocatable.emplace_back();
    m_nodeCapacity.emplace_back();
    m_nodeRequested.emplace_back();
    m_nodeExt.addRow();
    m_nodeReady.push_back(Readiness::Unknown);
    m_nodeUnschedulable.push_back(0);
    m_nodeGpuModel.emplace_back();
    m_nodeGpuCount.push_back(0);
    m_nodeInstanceType.emplace_back();
    m_nodeConditions.addRow();
    m_nodeDeleted.push_back(0);
    return id;
}

void ClusterStore::writeNodeColumns(NodeId id, const NodeRecord& r)
{
    const std::size_t n = id.index();
    {
        std::vector<Label> labels;
        labels.reserve(r.labels.size());
        for (const auto& [k, v] : r.labels)
            labels.push_back({m_strings.intern(k), m_strings.intern(v)});
        m_nodeLabels.assign(n, std::span<const Label>(labels));
    }
    {
        std::vector<Taint> taints;
        for (const auto& [k, v, e] : r.taints)
            taints.push_back({m_strings.intern(k), m_strings.intern(v), e});
        m_nodeTaints.assign(n, std::span<const Taint>(taints));
    }
    writeNodeResources(n, r.allocatable, r.capacity);
    m_nodeReady[n] = r.ready;
    m_nodeUnschedulable[n] = r.unschedulable ? 1 : 0;
    m_nodeGpuModel[n] = m_strings.intern(r.gpuModel);
    m_nodeGpuCount[n] = r.gpuCount;
    m_nodeInstanceType[n] = m_strings.intern(r.instanceType);
    {
        std::vector<NodeCondition> conditions;
        for (const NodeConditionRecord& c : r.conditions)
            conditions.push_back({m_strings.intern(c.type), c.status, c.lastTransitionUnixSeconds, m_strings.intern(c.reason),
                                  m_strings.intern(c.message)});
        m_nodeConditions.assign(n, std::span<const NodeCondition>(conditions));
    }
}

void ClusterStore::writeNodeResources(std::size_t n, const ResourceList& allocatableList, const ResourceList& capacityList)
{
    m_nodeAllocatable[n] = allocatableList.core;
    // A capacity that was not reported is taken to equal allocatable.
    ResourceVector capacity = capacityList.core;
    for (std::size_t i = 0; i < kCoreResourceCount; ++i) {
        const auto res = static_cast<CoreResource>(i);
        if (!capacityList.has(res))
            capacity[res] = allocatableList.core[res];
    }
    m_nodeCapacity[n] = capacity;
    {
        // Extended: the union of keys in allocatable and capacity, in allocatable order.
        std::vector<std::pair<ResourceKey, std::int64_t>> allocatable, capacityExt;
        for (const auto& [k, v] : allocatableList.extended) {
            allocatable.emplace_back(k, v);
            const auto [cap, has] = capacityList.get(k);
            capacityExt.emplace_back(k, has ? cap : v);
        }
        for (const auto& [k, v] : capacityList.extended) {
            if (allocatableList.get(k).second)
                continue;
            allocatable.emplace_back(k, 0);
            capacityExt.emplace_back(k, v);
        }
        // Requested amounts stay by key until the caller sums them again (applyChanges()).
        const auto oldKeys = m_nodeExt.row<kExtAllocatable>(n);
        const auto oldRequested = m_nodeExt.row<kExtRequested>(n);
        std::vector<std::int64_t> requested(allocatable.size(), 0);
        for (std::size_t k = 0; k < allocatable.size(); ++k)
            for (std::size_t j = 0; j < oldKeys.size(); ++j)
                if (oldKeys[j].first == allocatable[k].first)
                    requested[k] = oldRequested[j];
        m_nodeExt.assign(n, std::span<const std::pair<ResourceKey, std::int64_t>>(allocatable),
            std::span<const std::pair<ResourceKey, std::int64_t>>(capacityExt), std::span<const std::int64_t>(requested));
    }
}

namespace {
// Adds `b` into `a`; false when any resource overflows int64 (a is then unspecified).
bool addChecked(ResourceVector& a, const ResourceVector& b) noexcept
{
    bool ok = true;
    for (std::size_t i = 0; i < kCoreResourceCount; ++i)
        ok &= !__builtin_add_overflow(a.amounts[i], b.amounts[i], &a.amounts[i]);
    return ok;
}

[[noreturn]] void throwOverflow(std::string_view what, std::string_view node)
{
    throw std::overflow_error(std::string(what) + (node.empty() ? "" : " on node \"" + std::string(node) + "\"")
                              + " exceeds the range of a 64-bit integer; check the quantities in the input");
}

inline void hashMix(std::size_t& h, std::size_t v) noexcept
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
}
} // namespace

template <class T>
std::uint32_t ClusterStore::internSet(std::vector<std::vector<T>>& sets, std::unordered_multimap<std::size_t, std::uint32_t>& index,
                                      std::vector<T>& set, std::size_t hash)
{
    if (set.empty())
        return 0;
    auto [begin, end] = index.equal_range(hash);
    for (auto it = begin; it != end; ++it)
        if (sets[it->second] == set)
            return it->second;
    const auto id = static_cast<std::uint32_t>(sets.size());
    sets.push_back(std::move(set));
    index.emplace(hash, id);
    return id;
}

PodId ClusterStore::addPod(const PodRecord& r)
{
    if (r.namespaceName.empty() || r.name.empty())
        throw std::invalid_argument("pod without a namespace or name");
    // First, so that its checks (the GPU share) throw before any column holds the pod.
    addPodScheduling(r);
    const PodId id(static_cast<std::uint32_t>(m_podName.size()));
    m_podNamespace.push_back(m_strings.intern(r.namespaceName));
    m_podName.push_back(m_strings.intern(r.name));
    m_podNodeName.emplace_back();
    m_podNode.emplace_back(); // bound by finalize(); invalid until then, never out of range
    m_podPhase.push_back(PodPhase::Pending);
    m_podMirror.push_back(0);
    m_podPriority.push_back(0);
    m_podRequest.emplace_back();
    m_podExtBegin.push_back(static_cast<std::uint32_t>(m_podExt.size())); // an empty range, filled below
    m_podWorkload.emplace_back();
    m_podTolerationSet.push_back(0);
    m_podSelectorSet.push_back(0);
    m_podAffinitySet.push_back(0);
    m_podLabelSet.push_back(0);
    m_podSchedulingMessage.emplace_back();
    m_podGateSet.push_back(0);
    m_podDeleted.push_back(0);
    writePodColumns(id, r);
    return id;
}

WorkloadId ClusterStore::workloadFor(StringId ns, const PodRecord& r)
{
    const WorkloadName named = workloadOfPod(r.ownerKind, r.ownerName, r.labels);
    if (named.kind == OwnerKind::None || named.name.empty())
        return {};
    const StringId owner = m_strings.intern(named.name);
    const std::uint64_t key = (std::uint64_t{ns.value} << 32) | owner.value;
    auto [b, e] = m_workloadIndex.equal_range(key);
    for (auto it = b; it != e; ++it)
        if (m_workloadKind[it->second] == named.kind)
            return WorkloadId(it->second);
    const WorkloadId workload(static_cast<std::uint32_t>(m_workloadKind.size()));
    m_workloadKind.push_back(named.kind);
    m_workloadNamespace.push_back(ns);
    m_workloadName.push_back(owner);
    m_workloadIndex.emplace(key, workload.value);
    return workload;
}

void ClusterStore::writePodColumns(PodId id, const PodRecord& r)
{
    const std::size_t i = id.index();
    m_podNodeName[i] = m_strings.intern(r.nodeName);
    m_podPhase[i] = r.phase;
    m_podMirror[i] = r.mirror || r.ownerKind == OwnerKind::Node ? 1 : 0;
    m_podPriority[i] = r.priority;
    ResourceVector request = r.request.core;
    request[CoreResource::Pods] = 1; // every pod takes one of the node's pod slots
    m_podRequest[i] = request;
    // The pod's CSR range of extended requests: in place when its length stays (always, for a
    // pod just appended with none, and for most updates).
    replaceRow(m_podExtBegin, m_podExt, i, std::span<const std::pair<ResourceKey, std::int64_t>>(r.request.extended));
    m_podWorkload[i] = workloadFor(m_podNamespace[i], r);

    {
        std::vector<Toleration> set;
        std::size_t h = 0;
        set.reserve(r.tolerations.size());
        for (const auto& [k, op, v, e] : r.tolerations) {
            Toleration t{m_strings.intern(k), op, m_strings.intern(v), e};
            hashMix(h, t.key.value);
            hashMix(h, static_cast<std::size_t>(op));
            hashMix(h, t.value.value);
            hashMix(h, static_cast<std::size_t>(e));
            set.push_back(t);
        }
        m_podTolerationSet[i] = internSet(m_tolerationSets, m_tolerationIndex, set, h);
    }
    {
        std::vector<Label> set;
        std::size_t h = 0;
        for (const auto& [k, v] : r.nodeSelector) {
            Label l{m_strings.intern(k), m_strings.intern(v)};
            hashMix(h, l.key.value);
            hashMix(h, l.value.value);
            set.push_back(l);
        }
        m_podSelectorSet[i] = internSet(m_selectorSets, m_selectorIndex, set, h);
    }
    {
        std::vector<NodeSelectorTerm> set;
        std::size_t h = 0;
        for (const auto& term : r.requiredAffinityTerms) {
            NodeSelectorTerm t;
            for (const auto& req : term) {
                NodeSelectorRequirement q;
                q.key = m_strings.intern(req.key);
                q.op = req.op;
                q.matchField = req.matchField;
                hashMix(h, q.key.value);
                hashMix(h, static_cast<std::size_t>(q.op));
                for (const auto& v : req.values) {
                    q.values.push_back(m_strings.intern(v));
                    hashMix(h, q.values.back().value);
                }
                t.requirements.push_back(std::move(q));
            }
            hashMix(h, 0xa5a5);
            set.push_back(std::move(t));
        }
        m_podAffinitySet[i] = internSet(m_affinitySets, m_affinityIndex, set, h);
    }
    {
        // A scratch vector kept across pods: it allocates only for a set not seen before
        // (internSet moves it into the table then).
        std::vector<Label>& set = m_labelScratch;
        set.clear();
        std::size_t h = 0;
        for (const auto& [k, v] : r.labels) {
            Label l{m_strings.intern(k), m_strings.intern(v)};
            hashMix(h, l.key.value);
            hashMix(h, l.value.value);
            set.push_back(l);
        }
        m_podLabelSet[i] = internSet(m_labelSets, m_labelIndex, set, h);
    }
    m_podSchedulingMessage[i] = m_strings.intern(r.schedulingMessage);
    {
        std::vector<StringId> set;
        std::size_t h = 0;
        for (const auto& g : r.schedulingGates) {
            set.push_back(m_strings.intern(g));
            hashMix(h, set.back().value);
        }
        m_podGateSet[i] = internSet(m_gateSets, m_gateIndex, set, h);
    }
}

std::size_t ClusterStore::finalize()
{
    const std::size_t nodes = nodeCount();
    const std::size_t pods = podCount();
    std::size_t unknownNode = 0;
    m_podNode.assign(pods, NodeId{});
    for (auto& r : m_nodeRequested)
        r = {};
    std::ranges::fill(m_nodeExt.allValues<kExtRequested>(), 0);

    for (std::size_t p = 0; p < pods; ++p) {
        const StringId nodeName = m_podNodeName[p];
        if (nodeName.value == 0 || m_podDeleted[p] != 0)
            continue;
        auto it = m_nodeByName.find(nodeName.value);
        if (it == m_nodeByName.end()) {
            ++unknownNode;
            continue;
        }
        const NodeId n(it->second);
        m_podNode[p] = n;
        if (podIsTerminal(PodId(static_cast<std::uint32_t>(p))))
            continue;
        if (!addChecked(m_nodeRequested[n.index()], m_podRequest[p]))
            throwOverflow("the sum of pod requests", this->nodeName(n));
        for (std::uint32_t i = m_podExtBegin[p]; i < m_podExtBegin[p + 1]; ++i) {
            const auto [key, value] = m_podExt[i];
            const auto keys = m_nodeExt.row<kExtAllocatable>(n.index());
            const auto requested = m_nodeExt.mutableRow<kExtRequested>(n.index());
            for (std::size_t j = 0; j < keys.size(); ++j)
                if (keys[j].first == key)
                    requested[j] += value;
        }
    }
    // Cluster totals must fit too, so that every sum over a subset of nodes does.
    ResourceVector allocatable, capacity, requested;
    for (std::size_t n = 0; n < nodes; ++n) {
        if (!addChecked(allocatable, m_nodeAllocatable[n]) || !addChecked(capacity, m_nodeCapacity[n]))
            throwOverflow("the cluster's total allocatable or capacity, summed up to node \""
                              + std::string(nodeName(NodeId(static_cast<std::uint32_t>(n)))) + "\",",
                          {});
        if (!addChecked(requested, m_nodeRequested[n]))
            throwOverflow("the cluster's total requests, summed up to node \""
                              + std::string(nodeName(NodeId(static_cast<std::uint32_t>(n)))) + "\",",
                          {});
    }
    rebuildNodePods();
    return unknownNode;
}

bool ClusterStore::recomputeNodeRequested(NodeId node)
{
    const std::size_t n = node.index();
    const ResourceVector before = m_nodeRequested[n];
    ResourceVector sum;
    const auto keys = m_nodeExt.row<kExtAllocatable>(n);
    const auto requested = m_nodeExt.mutableRow<kExtRequested>(n);
    bool changed = false;
    std::vector<std::int64_t> ext(keys.size(), 0);
    for (const PodId p : nodePods(node)) {
        if (!addChecked(sum, m_podRequest[p.index()]))
            throwOverflow("the sum of pod requests", nodeName(node));
        for (const auto& [key, value] : podExtendedRequest(p))
            for (std::size_t j = 0; j < keys.size(); ++j)
                if (keys[j].first == key)
                    ext[j] += value;
    }
    for (std::size_t j = 0; j < keys.size(); ++j) {
        changed |= requested[j] != ext[j];
        requested[j] = ext[j];
    }
    m_nodeRequested[n] = sum;
    return changed || !(before == sum);
}

void ClusterStore::rebuildNodePods()
{
    // Counting sort of counted pods by node: nodePods(n) is a contiguous range, in pod id order.
    const std::size_t nodes = nodeCount();
    const std::size_t pods = podCount();
    std::vector<std::uint32_t> begin(nodes + 1, 0);
    for (std::size_t p = 0; p < pods; ++p)
        if (podIsCounted(PodId(static_cast<std::uint32_t>(p))))
            ++begin[m_podNode[p].index() + 1];
    for (std::size_t n = 0; n < nodes; ++n)
        begin[n + 1] += begin[n];
    std::vector<PodId> values(begin[nodes], PodId{});
    std::vector<std::uint32_t> cursor(begin.begin(), begin.end() - 1);
    for (std::size_t p = 0; p < pods; ++p) {
        const PodId pod(static_cast<std::uint32_t>(p));
        if (podIsCounted(pod))
            values[cursor[m_podNode[p].index()]++] = pod;
    }
    m_nodePods.assignPacked(begin, std::move(values));
}

std::pair<PodId, PodId> ClusterStore::findDuplicatePod() const
{
    // Open addressing over pod indices keyed by (namespace id, name id): 4 bytes a slot,
    // at most half full.
    const std::size_t pods = podCount();
    std::size_t size = 16;
    while (size < pods * 2)
        size <<= 1;
    std::vector<std::uint32_t> slots(size, 0);
    const std::size_t mask = size - 1;
    for (std::uint32_t p = 0; p < pods; ++p) {
        if (m_podDeleted[p] != 0) // a tombstone: its name may have been used again
            continue;
        const std::uint64_t key = (std::uint64_t{m_podNamespace[p].value} << 32) | m_podName[p].value;
        std::uint64_t h = key * 0x9e3779b97f4a7c15ull;
        std::size_t i = static_cast<std::size_t>(h ^ (h >> 32)) & mask;
        while (slots[i] != 0) {
            const std::uint32_t q = slots[i] - 1;
            if (m_podNamespace[q] == m_podNamespace[p] && m_podName[q] == m_podName[p])
                return {PodId(p), PodId(q)};
            i = (i + 1) & mask;
        }
        slots[i] = p + 1;
    }
    return {};
}

NodeId ClusterStore::findNode(std::string_view name) const
{
    const StringId id = m_strings.find(name);
    if (!id.isValid())
        return {};
    auto it = m_nodeByName.find(id.value);
    return it == m_nodeByName.end() ? NodeId{} : NodeId(it->second);
}

std::span<const Label> ClusterStore::nodeLabels(NodeId n) const noexcept
{
    return m_nodeLabels.row(n.index());
}

StringId ClusterStore::nodeLabel(NodeId n, StringId key) const noexcept
{
    for (const Label& l : nodeLabels(n))
        if (l.key == key)
            return l.value;
    return {};
}

std::span<const Taint> ClusterStore::nodeTaints(NodeId n) const noexcept
{
    return m_nodeTaints.row(n.index());
}

std::span<const std::pair<ResourceKey, std::int64_t>> ClusterStore::nodeExtendedAllocatable(NodeId n) const noexcept
{
    return m_nodeExt.row<kExtAllocatable>(n.index());
}

std::span<const std::pair<ResourceKey, std::int64_t>> ClusterStore::nodeExtendedCapacity(NodeId n) const noexcept
{
    return m_nodeExt.row<kExtCapacity>(n.index());
}

std::int64_t ClusterStore::nodeExtendedRequested(NodeId n, ResourceKey key) const noexcept
{
    const auto keys = m_nodeExt.row<kExtAllocatable>(n.index());
    for (std::size_t j = 0; j < keys.size(); ++j)
        if (keys[j].first == key)
            return m_nodeExt.row<kExtRequested>(n.index())[j];
    return 0;
}

std::span<const NodeCondition> ClusterStore::nodeConditions(NodeId n) const noexcept
{
    return m_nodeConditions.row(n.index());
}

std::span<const Label> ClusterStore::podLabels(PodId p) const noexcept
{
    return m_labelSets[m_podLabelSet[p.index()]];
}

std::string_view ClusterStore::podSchedulingMessage(PodId p) const noexcept
{
    return str(m_podSchedulingMessage[p.index()]);
}

std::span<const StringId> ClusterStore::podSchedulingGates(PodId p) const noexcept
{
    return m_gateSets[m_podGateSet[p.index()]];
}

std::span<const PodId> ClusterStore::nodePods(NodeId n) const noexcept
{
    if (m_nodePods.rows() <= n.index())
        return {};
    return m_nodePods.row(n.index());
}

std::span<const std::pair<ResourceKey, std::int64_t>> ClusterStore::podExtendedRequest(PodId p) const noexcept
{
    return {m_podExt.data() + m_podExtBegin[p.index()], m_podExt.data() + m_podExtBegin[p.index() + 1]};
}

OwnerKind ClusterStore::podOwnerKind(PodId p) const noexcept
{
    const WorkloadId w = m_podWorkload[p.index()];
    return w.isValid() ? m_workloadKind[w.index()] : OwnerKind::None;
}

std::span<const Toleration> ClusterStore::podTolerations(PodId p) const noexcept
{
    return m_tolerationSets[m_podTolerationSet[p.index()]];
}

std::span<const Label> ClusterStore::podNodeSelector(PodId p) const noexcept
{
    return m_selectorSets[m_podSelectorSet[p.index()]];
}

std::span<const NodeSelectorTerm> ClusterStore::podRequiredAffinity(PodId p) const noexcept
{
    return m_affinitySets[m_podAffinitySet[p.index()]];
}

ClusterCounts ClusterStore::counts() const noexcept
{
    ClusterCounts c;
    for (std::size_t n = 0; n < nodeCount(); ++n) {
        if (m_nodeDeleted[n] != 0)
            continue;
        ++c.nodes;
        c.nodesReady += m_nodeReady[n] == Readiness::True;
        c.nodesCordoned += m_nodeUnschedulable[n] != 0;
    }
    c.nodesNotReady = c.nodes - c.nodesReady;
    for (std::uint32_t i = 0; i < podCount(); ++i) {
        const PodId p(i);
        if (m_podDeleted[i] != 0 || (podFlags(p) & PodFlagTemplate) != 0) // a template is no pod of the cluster
            continue;
        ++c.pods;
        if (podIsTerminal(p))
            ++c.podsTerminal;
        else if (m_podNode[i].isValid())
            ++c.podsCounted;
        else if (m_podNodeName[i].value == 0)
            ++c.podsPending;
        else
            ++c.podsOnUnknownNodes;
    }
    return c;
}

ResourceVector ClusterStore::totalAllocatable() const noexcept
{
    ResourceVector t;
    for (const auto& r : m_nodeAllocatable)
        t += r;
    return t;
}

ResourceVector ClusterStore::totalRequested() const noexcept
{
    ResourceVector t;
    for (const auto& r : m_nodeRequested)
        t += r;
    return t;
}

ResourceVector ClusterStore::totalPending() const noexcept
{
    ResourceVector t;
    for (std::size_t p = 0; p < podCount(); ++p)
        if (podIsPending(PodId(static_cast<std::uint32_t>(p))))
            t += m_podRequest[p];
    return t;
}

std::size_t ClusterStore::memoryBytes() const noexcept
{
    auto bytes = [](const auto& v) { return v.capacity() * sizeof(typename std::decay_t<decltype(v)>::value_type); };
    std::size_t total = m_strings.memoryBytes();
    total += bytes(m_nodeName) + m_nodeLabels.memoryBytes() + m_nodeTaints.memoryBytes();
    total += bytes(m_nodeAllocatable) + bytes(m_nodeCapacity) + bytes(m_nodeRequested);
    total += m_nodeExt.memoryBytes() + bytes(m_nodeReady);
    total += bytes(m_nodeUnschedulable) + bytes(m_nodeGpuModel) + bytes(m_nodeGpuCount) + bytes(m_nodeInstanceType);
    total += m_nodePods.memoryBytes() + m_nodeByName.size() * 32;
    total += bytes(m_podNamespace) + bytes(m_podName) + bytes(m_podNodeName) + bytes(m_podNode) + bytes(m_podPhase);
    total += bytes(m_podMirror) + bytes(m_podPriority) + bytes(m_podRequest) + bytes(m_podExtBegin) + bytes(m_podExt);
    total += bytes(m_podWorkload) + bytes(m_podTolerationSet) + bytes(m_podSelectorSet) + bytes(m_podAffinitySet);
    total += m_nodeConditions.memoryBytes() + bytes(m_podLabelSet) + bytes(m_podSchedulingMessage)
             + bytes(m_podGateSet) + bytes(m_nodeDeleted) + bytes(m_podDeleted) + m_podByName.size() * 32;
    for (const auto& set : m_labelSets)
        total += bytes(set) + sizeof(set);
    for (const auto& set : m_gateSets)
        total += bytes(set) + sizeof(set);
    total += (m_labelIndex.size() + m_gateIndex.size()) * 32;
    total += bytes(m_workloadKind) + bytes(m_workloadNamespace) + bytes(m_workloadName) + m_workloadIndex.size() * 32;
    total += schedulingMemoryBytes();
    return total;
}

} // namespace fleet::model
