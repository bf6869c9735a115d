// SPDX-License-Identifier: Apache-2.0
#pragma once
// The cluster store: every node, pod and workload of one cluster state, as columns.
//
// Design note (DESIGN.md, "The model"): entities are rows identified by strong ids;
// each attribute is a std::vector indexed by id; strings are interned; variable-length
// attributes (labels, taints, extended resources) are CSR ranges (an offset column into
// one shared vector); pod scheduling constraints (tolerations, nodeSelector, required
// node affinity) are interned as sets, since the pods of one workload share them.
// Importers fill the store through NodeRecord/PodRecord (reused, so no allocation per
// item once warm) and call finalize(), which binds pods to nodes and sums requests.

#include "ids.h"
#include "raggedcolumns.h"
#include "resources.h"
#include "schedulingtypes.h"
#include "stringpool.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace fleet::model {

struct ClusterChangeBatch; // clusterchange.h
struct ClusterDiff;        // clusterchange.h

/// A label (or nodeSelector entry): interned key and value.
struct Label {
    StringId key;
    StringId value;
    bool operator==(const Label&) const noexcept = default;
};

/// Taint and toleration effects. Source: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
enum class TaintEffect : std::uint8_t { NoSchedule, PreferNoSchedule, NoExecute, Any /* toleration with empty effect */ };
/// The effect as the API spells it ("NoSchedule", ...); "" for Any. Thread: any.
[[nodiscard]] std::string_view taintEffectName(TaintEffect e) noexcept;

/// A node taint (spec.taints[]): interned key and value (value may be the empty string).
struct Taint {
    StringId key;
    StringId value;
    TaintEffect effect = TaintEffect::NoSchedule;
    bool operator==(const Taint&) const noexcept = default;
};

/// A toleration's operator; Equal when the API leaves it unset (core/v1 Toleration).
enum class TolerationOperator : std::uint8_t { Equal, Exists };
/// A pod toleration (spec.tolerations[]); an effect of Any matches every taint effect.
/// Source: https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
struct Toleration {
    StringId key; // empty with Exists: tolerates everything
    TolerationOperator op = TolerationOperator::Equal;
    StringId value;
    TaintEffect effect = TaintEffect::Any;
    bool operator==(const Toleration&) const noexcept = default;
};

/// Node selector requirement operators. Source: core/v1 NodeSelectorOperator.
enum class SelectorOperator : std::uint8_t { In, NotIn, Exists, DoesNotExist, Gt, Lt };
/// The operator as the API spells it ("In", "NotIn", ...). Thread: any.
[[nodiscard]] std::string_view selectorOperatorName(SelectorOperator op) noexcept;

/// One requirement of a required node affinity term: `key` `op` `values` (interned).
/// Source: https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#node-affinity
struct NodeSelectorRequirement {
    StringId key;
    SelectorOperator op = SelectorOperator::In;
    std::vector<StringId> values;
    bool matchField = false; // matchFields (only metadata.name) rather than matchExpressions
    bool operator==(const NodeSelectorRequirement&) const noexcept = default;
};
/// A term ANDs its requirements; terms of a pod are ORed.
struct NodeSelectorTerm {
    std::vector<NodeSelectorRequirement> requirements;
    bool operator==(const NodeSelectorTerm&) const noexcept = default;
};

/// A PersistentVolume a pod uses (through its claim, resolved by the PV's claimRef) that
/// constrains nodes: its spec.nodeAffinity.required terms (ORed; the VolumeBinding rule) and
/// its zone / region labels (topology.kubernetes.io/zone and /region and the
/// failure-domain.beta.kubernetes.io forms; the VolumeZone rule, values split on "__").
/// Only volumes with a constraint are stored. Source: pkg/scheduler/framework/plugins/volumezone.
struct VolumeConstraint {
    StringId volume; // the PV's name
    std::vector<std::pair<StringId, std::vector<StringId>>> zoneLabels; // label key -> allowed values
    std::vector<NodeSelectorTerm> nodeAffinity;
    bool operator==(const VolumeConstraint&) const noexcept = default;
};

/// Node readiness: the status of the node's Ready condition (status.conditions[type=Ready]).
/// Source: https://kubernetes.io/docs/reference/node/node-status/#condition
enum class Readiness : std::uint8_t { True, False, Unknown };
/// "True", "False" or "Unknown", as the condition's status reads. Thread: any.
[[nodiscard]] std::string_view readinessName(Readiness r) noexcept;

/// Pod phase. Source: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/
enum class PodPhase : std::uint8_t { Pending, Running, Succeeded, Failed, Unknown };
/// The phase as status.phase spells it ("Pending", ...). Thread: any.
[[nodiscard]] std::string_view podPhaseName(PodPhase p) noexcept;

/// The kind of a pod's controller (its ownerReference with controller: true).
/// JobSet, LeaderWorkerSet, TrainingJob (the Kubeflow training operator's PyTorchJob, TFJob,
/// MPIJob, XGBoostJob, PaddleJob, JAXJob and Trainer's TrainJob) and VolcanoJob
/// (batch.volcano.sh Job) are the gang workloads that model/workloadname.h recognises by the
/// label their operator sets on every pod.
enum class OwnerKind : std::uint8_t {
    None,
    ReplicaSet,
    Deployment,
    StatefulSet,
    DaemonSet,
    Job,
    CronJob,
    Node,
    Other,
    JobSet,
    LeaderWorkerSet,
    TrainingJob,
    VolcanoJob,
};
/// The kind as ownerReferences[].kind spells it ("TrainingJob" and "VolcanoJob" for the
/// operator kinds that have several or ambiguous spellings). Thread: any.
[[nodiscard]] std::string_view ownerKindName(OwnerKind k) noexcept;
/// The OwnerKind of an ownerReferences[].kind (case-sensitive): None for "", TrainingJob for
/// the Kubeflow kinds listed above, Other for a kind not listed in OwnerKind. "Job" is always
/// Job (a Volcano job is told apart by its pods' volcano.sh/job-name label). Thread: any.
[[nodiscard]] OwnerKind ownerKindFromName(std::string_view kind) noexcept;

/// A node condition (status.conditions[]), Ready included. Source:
/// https://kubernetes.io/docs/reference/node/node-status/#condition
struct NodeCondition {
    StringId type;    // "Ready", "MemoryPressure", "DiskPressure", "PIDPressure", "NetworkUnavailable", ...
    Readiness status = Readiness::Unknown; // the condition's status: True, False or Unknown
    std::int64_t lastTransitionUnixSeconds = 0; // 0 when the input does not say
    StringId reason;
    StringId message;
    bool operator==(const NodeCondition&) const noexcept = default;
};

/// A node condition as an importer hands it to ClusterStore::addNode() (strings copied).
struct NodeConditionRecord {
    std::string type;
    Readiness status = Readiness::Unknown;
    std::int64_t lastTransitionUnixSeconds = 0; // 0 when the input does not say
    std::string reason;
    std::string message;
};

/// Nodes and pods by state: what the status bar and `summary` report about a cluster.
struct ClusterCounts {
    std::size_t nodes = 0;
    std::size_t nodesReady = 0;    // Ready condition True
    std::size_t nodesNotReady = 0; // Ready False or Unknown (kubectl prints both as NotReady)
    std::size_t nodesCordoned = 0; // spec.unschedulable
    std::size_t pods = 0;
    std::size_t podsCounted = 0;        // ClusterStore::podIsCounted
    std::size_t podsPending = 0;        // ClusterStore::podIsPending
    std::size_t podsOnUnknownNodes = 0; // ClusterStore::podIsOnUnknownNode
    std::size_t podsTerminal = 0;       // Succeeded or Failed
};

/// Plain input for ClusterStore::addNode(). Strings are copied (interned) by the store.
struct NodeRecord {
    std::string name;
    std::vector<std::pair<std::string, std::string>> labels;
    std::vector<std::tuple<std::string, std::string, TaintEffect>> taints;
    ResourceList allocatable;
    ResourceList capacity;
    Readiness ready = Readiness::Unknown;
    bool unschedulable = false; // spec.unschedulable: cordoned
    std::string gpuModel;       // empty when none or unknown
    std::int32_t gpuCount = 0;  // whole GPUs
    std::string instanceType;
    /// status.conditions[], Ready included, in input order. `ready` above stays the source of
    /// nodeReadiness(); an importer sets both from the Ready condition.
    std::vector<NodeConditionRecord> conditions;

    /// Resets every field to its default, keeping allocated memory for the next node.
    void clear();
};

/// Input for ClusterStore::addNodeInterned(): a NodeRecord whose strings are already ids of
/// the store's pool (a reader that keeps the pool's ids, the .fleet document), so that adding
/// the node interns nothing again (~55 strings a node).
struct InternedNodeRecord {
    StringId name;
    std::vector<Label> labels;
    std::vector<Taint> taints;
    ResourceList allocatable;
    ResourceList capacity;
    Readiness ready = Readiness::Unknown;
    bool unschedulable = false;
    StringId gpuModel;
    std::int32_t gpuCount = 0;
    StringId instanceType;
    std::vector<NodeCondition> conditions;
};

/// Input for ClusterStore::addPodsLike(): pod i copies pod like[i] but for names[i],
/// nodeNames[i], phases[i], flags[i] and its uid, the characters of uidChars from
/// uidEnds[i - 1] (0 for the first) to uidEnds[i]. Every span as long as `like`.
struct PodsLike {
    std::span<const PodId> like;
    std::span<const StringId> names;
    std::span<const StringId> nodeNames; ///< 0: pending
    std::span<const PodPhase> phases;
    std::span<const std::uint16_t> flags;
    std::string_view uidChars;
    std::span<const std::uint32_t> uidEnds;
};

/// Plain input for ClusterStore::addPod(). `request` is the effective request already
/// computed (see podrequest.h); `nodeName` may be empty (pending).
struct PodRecord {
    std::string namespaceName;
    std::string name;
    std::string nodeName;
    PodPhase phase = PodPhase::Pending;
    OwnerKind ownerKind = OwnerKind::None;
    std::string ownerName;
    bool mirror = false; // static pod (kubernetes.io/config.mirror)
    std::int32_t priority = 0;
    ResourceList request;
    std::vector<std::tuple<std::string, TolerationOperator, std::string, TaintEffect>> tolerations;
    std::vector<std::pair<std::string, std::string>> nodeSelector;
    struct Requirement {
        std::string key;
        SelectorOperator op = SelectorOperator::In;
        std::vector<std::string> values;
        bool matchField = false;
    };
    std::vector<std::vector<Requirement>> requiredAffinityTerms;
    /// metadata.labels. They also name the pod's workload (model/workloadname.h).
    std::vector<std::pair<std::string, std::string>> labels;
    /// The message of the PodScheduled condition when its status is False, else empty.
    std::string schedulingMessage;
    /// spec.schedulingGates[].name, in input order.
    std::vector<std::string> schedulingGates;

    // ---- for the what-if; the importer fills what its input has ----
    std::string uid; // metadata.uid; empty when the input has none (the trace)
    /// Required pod affinity / anti-affinity terms
    /// (spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution), selectors
    /// interned with the store's strings: build them with ClusterStore::internSelector().
    std::vector<PodAffinityTerm> podAffinity;
    std::vector<PodAffinityTerm> podAntiAffinity;
    std::vector<TopologySpreadConstraint> spreadConstraints;
    std::vector<HostPort> hostPorts;
    std::vector<VolumeConstraint> volumes;
    std::uint16_t flags = PodFlagNone; // PodFlag bits
    /// On a node with shared GPUs (the trace): the share of one GPU this pod holds, in
    /// milli-GPU (1..999), else 0. Whole-GPU pods leave it 0.
    std::int32_t gpuShareMilli = 0;

    /// Resets every field to its default, keeping allocated memory for the next pod.
    void clear();
};

/// The cluster state. Owns the columns; ids are dense indices.
/// Thread: built and mutated on one thread; const access is safe from many threads
/// once no thread mutates it. After finalize() the only mutation is applyChanges() (a live
/// source's batch, model/clusterchange.h): ids stay stable, a new node or pod is appended, a
/// deleted one stays as a tombstone row (nodeIsDeleted(), podIsDeleted()) that counts(),
/// the totals, nodePods(), findNode() and podIsCounted/Pending/OnUnknownNode treat as gone.
class ClusterStore {
public:
    ClusterStore();
    ClusterStore(ClusterStore&&) noexcept = default;
    ClusterStore& operator=(ClusterStore&&) noexcept = default;
    ClusterStore& operator=(const ClusterStore&) = delete;
    /// A deep copy: the same rows (live tombstones included), strings, resource keys, ids, sums,
    /// indexes and finalized state, so that a Topology or ids taken from this store hold for
    /// it; mutating either leaves the other as it was. Memory copies, about this store's memory
    /// again (the copy constructor is private: copies of a 100,000-node store must be asked
    /// for). Throws std::bad_alloc. Thread: any, while no thread mutates this store.
    [[nodiscard]] ClusterStore clone() const;

    // ---- building -------------------------------------------------------------------
    /// Appends a node. Throws std::invalid_argument when the name is empty or already used.
    NodeId addNode(const NodeRecord& record);
    /// Appends a pod. Throws std::invalid_argument when namespace/name is empty.
    PodId addPod(const PodRecord& record);
    /// Appends a pod that shares every attribute of pod `like` (namespace, owner, priority,
    /// request, every constraint set, labels, GPU share, scheduling message and gates) but its
    /// name, spec.nodeName, phase, flags and uid: what addPod() makes of a record that differs
    /// from `like`'s only there, without interning the record's strings and sets again (the
    /// .fleet reader's path: a document keeps one record per workload template). `name` and
    /// `nodeName` are ids of this store's strings (nodeName 0 = pending). Throws
    /// std::out_of_range for a `like`, `name` or `nodeName` not in the store and
    /// std::invalid_argument for an empty name. O(1) amortised.
    PodId addPodLike(PodId like, StringId name, StringId nodeName, PodPhase phase, std::uint16_t flags, std::string_view uid);
    /// addNode() of a record whose strings are ids of this store's strings (see
    /// InternedNodeRecord): the same node, without interning its strings again. Throws
    /// std::out_of_range for an id that is not one of the store's strings, and
    /// std::invalid_argument as addNode() (an empty or used name). O(labels + taints + conditions).
    NodeId addNodeInterned(const InternedNodeRecord& record);
    /// addPodLike() of many pods at once (see PodsLike), the same pods, appended one column at a
    /// time: each pass reads only the rows of that column that are copied, so that millions of
    /// pods of a few thousand templates (the .fleet reader) read a few hundred KB a pass rather
    /// than a cache line of every column a pod. Every pod is checked first, as addPodLike()
    /// checks it, and nothing is added when one is refused: std::out_of_range, or
    /// std::invalid_argument (also for spans of other lengths or uid ends out of order).
    /// O(pods + uid characters).
    void addPodsLike(const PodsLike& pods);
    /// Binds pods to nodes by spec.nodeName and sums the requests of counted pods into
    /// each node. Call after the last add; cheap to call again. Returns the number of
    /// pods naming a node that is not in the store (they count as nowhere).
    /// Throws std::overflow_error, naming the node, when a node's summed requests or the
    /// cluster's summed allocatable or requests do not fit in int64 (absurd quantities such
    /// as "6E" of memory on several nodes); totals are exact whenever it returns.
    std::size_t finalize();
    /// The first pod (in id order) whose namespace/name an earlier pod already has, with that
    /// earlier pod; both invalid when every pod is unique. Kubernetes keys pods by
    /// namespace/name, so a duplicate means an input was loaded twice. O(pods), ~8 bytes a pod
    /// of temporary memory. Thread: any, once no thread mutates the store.
    [[nodiscard]] std::pair<PodId, PodId> findDuplicatePod() const;
    /// Reserves the per-node and per-pod columns for `nodes` nodes and `pods` pods (counts).
    void reserve(std::size_t nodes, std::size_t pods);

    // ---- live changes (model/clusterchange.h) ------------------------------------------
    /// Applies one batch of a live source as one transaction and returns what it changed
    /// (see applyChanges() in clusterchange.h, which calls this). Thread: the store's owner,
    /// while no other thread reads the store.
    ClusterDiff applyChanges(const ClusterChangeBatch& batch);
    /// The index applyChanges() matches pods by: (namespace StringId << 32 | name StringId) ->
    /// the live pod's index. The first applyChanges() builds it (O(pods): ~0.5 s at 1.6M pods)
    /// unless it was adopted before: a live window makes it on a worker when the feed starts.
    using PodNameIndex = std::unordered_map<std::uint64_t, std::uint32_t>;
    /// Builds the index of the store as it is now. Thread: any reader (the store unchanged
    /// until adoptPodNameIndex()).
    [[nodiscard]] PodNameIndex makePodNameIndex() const;
    /// Takes an index makePodNameIndex() built from this store, unchanged since (O(1)); no-op
    /// when the store has one already. Thread: the store's owner.
    void adoptPodNameIndex(PodNameIndex index) noexcept;
    [[nodiscard]] bool hasPodNameIndex() const noexcept { return m_podIndexBuilt; }
    /// Node n as a record (strings copied, extended resources by this store's keys), so that
    /// another store's addNode(record, *this) makes the same node. Thread: any reader.
    [[nodiscard]] NodeRecord nodeRecord(NodeId n) const;
    /// Pod p as a record. Its interned fields (podAffinity, podAntiAffinity,
    /// spreadConstraints, hostPorts, volumes) and its extended request keys are this store's:
    /// hand it to another store's addPod(record, *this). Thread: any reader.
    [[nodiscard]] PodRecord podRecord(PodId p) const;
    /// addNode() / addPod() for a record whose keys and interned fields are `source`'s
    /// (nodeRecord(), podRecord() of `source`): re-interned into this store. Same errors.
    NodeId addNode(const NodeRecord& record, const ClusterStore& source);
    PodId addPod(const PodRecord& record, const ClusterStore& source);
    /// True for a node or pod that a live batch deleted (a tombstone row: its id stays valid).
    [[nodiscard]] bool nodeIsDeleted(NodeId n) const noexcept { return m_nodeDeleted[n.index()] != 0; }
    [[nodiscard]] bool podIsDeleted(PodId p) const noexcept { return m_podDeleted[p.index()] != 0; }
    /// Tombstone rows among nodeCount() / podCount().
    [[nodiscard]] std::size_t deletedNodeCount() const noexcept { return m_deletedNodes; }
    [[nodiscard]] std::size_t deletedPodCount() const noexcept { return m_deletedPods; }
    /// The live (not deleted) pod namespace/name, or an invalid id. O(1) on average once the
    /// pod index exists (hasPodNameIndex()), else O(pods).
    [[nodiscard]] PodId findPod(std::string_view namespaceName, std::string_view name) const;

    // ---- sizes and shared tables -----------------------------------------------------
    [[nodiscard]] std::size_t nodeCount() const noexcept { return m_nodeName.size(); }
    [[nodiscard]] std::size_t podCount() const noexcept { return m_podName.size(); }
    [[nodiscard]] std::size_t workloadCount() const noexcept { return m_workloadName.size(); }
    [[nodiscard]] const StringPool& strings() const noexcept { return m_strings; }
    [[nodiscard]] StringPool& strings() noexcept { return m_strings; }
    [[nodiscard]] const ResourceRegistry& resources() const noexcept { return m_resources; }
    [[nodiscard]] ResourceRegistry& resources() noexcept { return m_resources; }
    [[nodiscard]] std::string_view str(StringId id) const noexcept { return m_strings.view(id); }

    // ---- nodes -----------------------------------------------------------------------
    /// The node named `name`, or an invalid id when the store has none. O(1) on average.
    [[nodiscard]] NodeId findNode(std::string_view name) const;
    [[nodiscard]] std::string_view nodeName(NodeId n) const noexcept { return str(m_nodeName[n.index()]); }
    [[nodiscard]] std::span<const Label> nodeLabels(NodeId n) const noexcept;
    /// Value of label `key` on node `n`, or an invalid id when absent.
    [[nodiscard]] StringId nodeLabel(NodeId n, StringId key) const noexcept;
    [[nodiscard]] std::span<const Taint> nodeTaints(NodeId n) const noexcept;
    [[nodiscard]] const ResourceVector& nodeAllocatable(NodeId n) const noexcept { return m_nodeAllocatable[n.index()]; }
    [[nodiscard]] const ResourceVector& nodeCapacity(NodeId n) const noexcept { return m_nodeCapacity[n.index()]; }
    /// Sum of the effective requests of the pods counted on `n` (after finalize()).
    [[nodiscard]] const ResourceVector& nodeRequested(NodeId n) const noexcept { return m_nodeRequested[n.index()]; }
    /// Extended resources of `n` as (registry key, amount in whole units) pairs. Both spans
    /// list the same keys in the same order: the union of allocatable and capacity (a key
    /// missing from one side reads 0 in allocatable, or the allocatable amount in capacity).
    [[nodiscard]] std::span<const std::pair<ResourceKey, std::int64_t>> nodeExtendedAllocatable(NodeId n) const noexcept;
    [[nodiscard]] std::span<const std::pair<ResourceKey, std::int64_t>> nodeExtendedCapacity(NodeId n) const noexcept;
    /// Requested extended resource `key` on node `n` (whole units, after finalize()); 0 for a
    /// key that the node has neither allocatable nor capacity of.
    [[nodiscard]] std::int64_t nodeExtendedRequested(NodeId n, ResourceKey key) const noexcept;
    [[nodiscard]] Readiness nodeReadiness(NodeId n) const noexcept { return m_nodeReady[n.index()]; }
    [[nodiscard]] bool nodeUnschedulable(NodeId n) const noexcept { return m_nodeUnschedulable[n.index()] != 0; }
    [[nodiscard]] std::string_view nodeGpuModel(NodeId n) const noexcept { return str(m_nodeGpuModel[n.index()]); }
    [[nodiscard]] std::int32_t nodeGpuCount(NodeId n) const noexcept { return m_nodeGpuCount[n.index()]; }
    [[nodiscard]] std::string_view nodeInstanceType(NodeId n) const noexcept { return str(m_nodeInstanceType[n.index()]); }
    /// The node's conditions as the input lists them (Ready included); empty when it gives none.
    [[nodiscard]] std::span<const NodeCondition> nodeConditions(NodeId n) const noexcept;
    /// Pods counted on node n (after finalize()), as a contiguous range of ids.
    [[nodiscard]] std::span<const PodId> nodePods(NodeId n) const noexcept;

    // ---- pods ------------------------------------------------------------------------
    [[nodiscard]] std::string_view podNamespace(PodId p) const noexcept { return str(m_podNamespace[p.index()]); }
    [[nodiscard]] std::string_view podName(PodId p) const noexcept { return str(m_podName[p.index()]); }
    /// The node in spec.nodeName, as a name (may name a node missing from the store).
    [[nodiscard]] std::string_view podNodeName(PodId p) const noexcept { return str(m_podNodeName[p.index()]); }
    /// The node the pod is bound to, or invalid when pending or bound to an unknown node.
    [[nodiscard]] NodeId podNode(PodId p) const noexcept { return m_podNode[p.index()]; }
    [[nodiscard]] PodPhase podPhase(PodId p) const noexcept { return m_podPhase[p.index()]; }
    /// Succeeded and Failed pods use nothing (Kubernetes frees their resources).
    [[nodiscard]] bool podIsTerminal(PodId p) const noexcept
    {
        return m_podPhase[p.index()] == PodPhase::Succeeded || m_podPhase[p.index()] == PodPhase::Failed;
    }
    /// True when the pod's request counts against its node: bound to a known node and not
    /// terminal (a deleted pod is bound to no node).
    [[nodiscard]] bool podIsCounted(PodId p) const noexcept { return m_podNode[p.index()].isValid() && !podIsTerminal(p); }
    /// True for a non-terminal pod without spec.nodeName: demand waiting for a node. A plan's
    /// template pod (PodFlagTemplate) is no pod of the cluster, so never pending.
    [[nodiscard]] bool podIsPending(PodId p) const noexcept
    {
        return m_podNodeName[p.index()].value == 0 && !podIsTerminal(p) && m_podDeleted[p.index()] == 0
            && (podFlags(p) & PodFlagTemplate) == 0;
    }
    /// True for a non-terminal pod whose spec.nodeName names a node the store does not hold
    /// (after finalize()): it counts on no node and is not pending either.
    [[nodiscard]] bool podIsOnUnknownNode(PodId p) const noexcept
    {
        return m_podNodeName[p.index()].value != 0 && !m_podNode[p.index()].isValid() && !podIsTerminal(p)
            && m_podDeleted[p.index()] == 0;
    }
    [[nodiscard]] const ResourceVector& podRequest(PodId p) const noexcept { return m_podRequest[p.index()]; }
    /// The pod's effective extended requests as (registry key, whole units) pairs.
    [[nodiscard]] std::span<const std::pair<ResourceKey, std::int64_t>> podExtendedRequest(PodId p) const noexcept;
    [[nodiscard]] std::int32_t podPriority(PodId p) const noexcept { return m_podPriority[p.index()]; }
    [[nodiscard]] WorkloadId podWorkload(PodId p) const noexcept { return m_podWorkload[p.index()]; }
    /// The kind of the pod's workload (its controller), None when it has none.
    [[nodiscard]] OwnerKind podOwnerKind(PodId p) const noexcept;
    [[nodiscard]] bool podIsMirror(PodId p) const noexcept { return m_podMirror[p.index()] != 0; }
    [[nodiscard]] std::span<const Toleration> podTolerations(PodId p) const noexcept;
    [[nodiscard]] std::span<const Label> podNodeSelector(PodId p) const noexcept;
    /// The pod's metadata.labels (interned); empty when it has none.
    [[nodiscard]] std::span<const Label> podLabels(PodId p) const noexcept;
    /// The message of the pod's PodScheduled condition when its status is False (the
    /// scheduler's reason: "0/12 nodes are available: ..."), else "".
    [[nodiscard]] std::string_view podSchedulingMessage(PodId p) const noexcept;
    /// The names of the pod's spec.schedulingGates; empty when it has none.
    [[nodiscard]] std::span<const StringId> podSchedulingGates(PodId p) const noexcept;
    /// Required node affinity terms (ORed); empty when the pod has none.
    [[nodiscard]] std::span<const NodeSelectorTerm> podRequiredAffinity(PodId p) const noexcept;

    // ---- scheduling constraints for the what-if (schedulingtypes.h) ----
    /// metadata.uid; "" when the input has none.
    [[nodiscard]] std::string_view podUid(PodId p) const noexcept;
    /// Required pod affinity / anti-affinity terms, spread constraints (both whenUnsatisfiable
    /// kinds), host ports, volume constraints, in input order.
    [[nodiscard]] std::span<const PodAffinityTerm> podAffinity(PodId p) const noexcept;
    [[nodiscard]] std::span<const PodAffinityTerm> podAntiAffinity(PodId p) const noexcept;
    [[nodiscard]] std::span<const TopologySpreadConstraint> podSpreadConstraints(PodId p) const noexcept;
    [[nodiscard]] std::span<const HostPort> podHostPorts(PodId p) const noexcept;
    [[nodiscard]] std::span<const VolumeConstraint> podVolumes(PodId p) const noexcept;
    /// Replaces the volume constraints of pod `p` (an importer resolves PersistentVolumeClaims
    /// once every file is read, after the pod was added). Throws std::out_of_range for a pod
    /// not in the store. Thread: building only.
    void setPodVolumes(PodId p, std::span<const VolumeConstraint> volumes);
    /// PodFlag bits.
    [[nodiscard]] std::uint16_t podFlags(PodId p) const noexcept;
    /// The pod's share of one shared GPU in milli-GPU (1..999), 0 when it holds whole GPUs or none.
    [[nodiscard]] std::int32_t podGpuShareMilli(PodId p) const noexcept;
    /// True when some pod has required pod affinity or anti-affinity (filters skip the
    /// InterPodAffinity work otherwise).
    [[nodiscard]] bool hasPodAffinity() const noexcept;
    /// Interns a selector built from strings (matchLabels as `k In (v)`); values sorted.
    [[nodiscard]] InternedSelector internSelector(bool null, const std::vector<std::pair<std::string, std::string>>& matchLabels,
        const std::vector<std::tuple<std::string, MatchOperator, std::vector<std::string>>>& matchExpressions);

    // ---- namespaces and disruption budgets ----
    /// Sets a namespace's labels (from `kubectl get ns -o json`). Thread: building only.
    void setNamespaceLabels(std::string_view namespaceName, const std::vector<std::pair<std::string, std::string>>& labels);
    /// True when some namespace's labels were given (namespaceSelector can be evaluated).
    [[nodiscard]] bool namespacesKnown() const noexcept;
    /// The labels of a namespace; empty when unknown.
    [[nodiscard]] std::span<const Label> namespaceLabels(StringId namespaceName) const noexcept;
    /// Appends a PodDisruptionBudget. Throws std::invalid_argument when namespace/name is
    /// empty or already used.
    void addDisruptionBudget(const DisruptionBudgetRecord& record);
    [[nodiscard]] std::span<const DisruptionBudget> disruptionBudgets() const noexcept;

    // ---- workloads -------------------------------------------------------------------
    [[nodiscard]] OwnerKind workloadKind(WorkloadId w) const noexcept { return m_workloadKind[w.index()]; }
    [[nodiscard]] std::string_view workloadName(WorkloadId w) const noexcept { return str(m_workloadName[w.index()]); }
    [[nodiscard]] std::string_view workloadNamespace(WorkloadId w) const noexcept { return str(m_workloadNamespace[w.index()]); }

    // ---- aggregates ------------------------------------------------------------------
    /// Sum of allocatable over all nodes / requested over counted pods / requests of pending pods.
    [[nodiscard]] ResourceVector totalAllocatable() const noexcept;
    [[nodiscard]] ResourceVector totalRequested() const noexcept;
    [[nodiscard]] ResourceVector totalPending() const noexcept;
    /// Nodes and pods by state, in one pass over the columns (after finalize()). Every pod is
    /// exactly one of counted, pending, on an unknown node, or terminal. Thread: any reader.
    [[nodiscard]] ClusterCounts counts() const noexcept;
    /// Approximate bytes held by the store (columns, tables, strings).
    [[nodiscard]] std::size_t memoryBytes() const noexcept;

private:
    // live changes (clusterstore_apply.cpp)
    struct ApplyScratch;
    void writePodColumns(PodId p, const PodRecord& r); // every column but name, namespace, uid
    WorkloadId workloadFor(StringId ns, const PodRecord& r);
    void writeNodeColumns(NodeId n, const NodeRecord& r); // every column but the name
    NodeId appendNodeRow(StringId name, std::string_view nameText); // addNode()'s empty row
    void writeNodeResources(std::size_t n, const ResourceList& allocatable, const ResourceList& capacity);
    void deleteNode(NodeId n);
    void deletePod(PodId p);
    void buildPodIndex();
    void rebuildNodePods();
    bool recomputeNodeRequested(NodeId n); // true when it changed
    void translateRecord(NodeRecord& r, const ClusterStore& source);
    void translateRecord(PodRecord& r, const ClusterStore& source);
    void updatePodScheduling(PodId p, const PodRecord& r); // profile, flags, GPU share

    template <class T>
    static std::uint32_t internSet(std::vector<std::vector<T>>& sets, std::unordered_multimap<std::size_t, std::uint32_t>& index,
                                   std::vector<T>& set, std::size_t hash);

    ClusterStore(const ClusterStore&) = default; // clone(): m_scheduling is deep-copied there

    StringPool m_strings;
    ResourceRegistry m_resources;

    // nodes
    std::vector<StringId> m_nodeName;
    // Rows rewritten by live changes: RaggedColumns (a grown row moves to the end, no splice).
    RaggedColumns<Label> m_nodeLabels;
    RaggedColumns<Taint> m_nodeTaints;
    std::vector<ResourceVector> m_nodeAllocatable;
    std::vector<ResourceVector> m_nodeCapacity;
    std::vector<ResourceVector> m_nodeRequested;
    // Extended resources: allocatable, capacity (same keys), requested (by the same index).
    static constexpr std::size_t kExtAllocatable = 0, kExtCapacity = 1, kExtRequested = 2;
    RaggedColumns<std::pair<ResourceKey, std::int64_t>, std::pair<ResourceKey, std::int64_t>, std::int64_t> m_nodeExt;
    std::vector<Readiness> m_nodeReady;
    std::vector<std::uint8_t> m_nodeUnschedulable;
    std::vector<StringId> m_nodeGpuModel;
    std::vector<std::int32_t> m_nodeGpuCount;
    std::vector<StringId> m_nodeInstanceType;
    RaggedColumns<NodeCondition> m_nodeConditions;
    RaggedColumns<PodId> m_nodePods; // rows() == 0 until finalize()
    std::unordered_map<std::uint32_t, std::uint32_t> m_nodeByName; // name StringId -> node index (live nodes)
    std::vector<std::uint8_t> m_nodeDeleted;
    std::size_t m_deletedNodes = 0;

    // pods
    std::vector<StringId> m_podNamespace;
    std::vector<StringId> m_podName;
    std::vector<StringId> m_podNodeName;
    std::vector<NodeId> m_podNode;
    std::vector<PodPhase> m_podPhase;
    std::vector<std::uint8_t> m_podMirror;
    std::vector<std::int32_t> m_podPriority;
    std::vector<ResourceVector> m_podRequest;
    std::vector<std::uint32_t> m_podExtBegin{0};
    std::vector<std::pair<ResourceKey, std::int64_t>> m_podExt;
    std::vector<WorkloadId> m_podWorkload;
    std::vector<std::uint32_t> m_podTolerationSet;
    std::vector<std::uint32_t> m_podSelectorSet;
    std::vector<std::uint32_t> m_podAffinitySet;
    std::vector<std::uint32_t> m_podLabelSet;
    std::vector<StringId> m_podSchedulingMessage;
    std::vector<std::uint32_t> m_podGateSet;
    std::vector<std::uint8_t> m_podDeleted;
    std::size_t m_deletedPods = 0;
    // (namespace << 32 | name) -> live pod index; built by the first applyChanges()
    PodNameIndex m_podByName;
    bool m_podIndexBuilt = false;

    // interned constraint sets; set 0 is the empty set
    std::vector<std::vector<Toleration>> m_tolerationSets{{}};
    std::unordered_multimap<std::size_t, std::uint32_t> m_tolerationIndex;
    std::vector<std::vector<Label>> m_selectorSets{{}};
    std::unordered_multimap<std::size_t, std::uint32_t> m_selectorIndex;
    std::vector<std::vector<NodeSelectorTerm>> m_affinitySets{{}};
    std::unordered_multimap<std::size_t, std::uint32_t> m_affinityIndex;
    // Pod labels: the pods of one ReplicaSet / Job / gang share one set (pod-template-hash
    // and job labels included), so 1.7M pods hold ~4 bytes each plus one set per workload.
    std::vector<std::vector<Label>> m_labelSets{{}};
    std::unordered_multimap<std::size_t, std::uint32_t> m_labelIndex;
    std::vector<Label> m_labelScratch; // addPod()'s working set, reused
    std::vector<std::vector<StringId>> m_gateSets{{}};
    std::unordered_multimap<std::size_t, std::uint32_t> m_gateIndex;

    // what-if constraints (clusterstore_scheduling.cpp)
    struct SchedulingColumns;
    static std::shared_ptr<SchedulingColumns> makeSchedulingColumns();
    void addPodScheduling(const PodRecord& r); // the scheduling fields of the pod just added
    void addPodsSchedulingLike(const PodsLike& pods); // addPodsLike()'s, once the pods are checked
    void addPodSchedulingLike(PodId like, std::uint16_t flags, std::string_view uid); // addPodLike()'s
    void reserveScheduling(std::size_t pods);
    [[nodiscard]] std::size_t schedulingMemoryBytes() const noexcept;
    std::shared_ptr<SchedulingColumns> m_scheduling; // never null; shared_ptr keeps the store movable with an incomplete type

    // workloads
    std::vector<OwnerKind> m_workloadKind;
    std::vector<StringId> m_workloadNamespace;
    std::vector<StringId> m_workloadName;
    std::unordered_multimap<std::uint64_t, std::uint32_t> m_workloadIndex; // (namespace << 32 | name) -> ids, one per kind
};

} // namespace fleet::model
