// SPDX-License-Identifier: Apache-2.0
#pragma once
// The ledger of a plan: where every pod is under the plan, and what each node then holds,
// kept as deltas over the loaded ClusterStore (which it never edits). Moving, evicting or
// restoring one pod updates its two nodes, their GPU shares, the counts the InterPodAffinity
// and PodTopologySpread filters read, and the cluster totals in O(1) (amortised; no
// recomputation over nodes or pods). Nodes can be added (from a template node) and failed.
//
// Design (DESIGN.md "The planner": O(1) per move): indexes are built once in the constructor (their
// cost is reported by bench_whatif); per pod only its current node is stored; per node its
// requested resources, extended resources, pod count, host ports in use, per-GPU used
// milli-GPU where GPUs are shared; for inter-pod rules, counts of pods by (label set, node),
// since the pods of a workload share one label set (ClusterStore::podLabels), so matching a
// selector is done per label set, not per pod.
//
// Thread: one thread mutates; const methods are safe from many threads while none mutates.

#include "model/clusterstore.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace fleet::model {

class Topology;

/// Cluster figures under the plan: what the plan panel and `plan check` show as before/after.
struct PlanTotals {
    std::int64_t nodes = 0;        // nodes present (store nodes not failed or removed, plus added)
    std::int64_t nodesInUse = 0;   // present nodes with at least one counted non-DaemonSet, non-mirror pod
    std::int64_t nodesEmpty = 0;   // present nodes with none (removable)
    std::int64_t gpus = 0;         // allocatable GPUs of present nodes (whole GPUs; milli / 1000)
    std::int64_t gpuMilliAllocated = 0; // requested milli-GPU on present nodes
    std::int64_t podsPlaced = 0;   // counted pods on present nodes
    std::int64_t podsUnplaced = 0; // pods counted on a node when loaded that the plan evicted or
                                   // stranded (no present node under the plan); pending pods
                                   // still pending are not counted, nor DaemonSet and mirror pods
                                   // of removed nodes (podsRemovedWithNodes)
    std::int64_t podsRemovedWithNodes = 0; // DaemonSet and mirror pods counted on a node when
                                   // loaded whose node the plan drained or failed: they go with
                                   // their node (nothing re-places them), so they are no work
                                   // left without a node
    double costPerHour = 0;        // sum of present nodes' prices (0 when no price table was given;
                                   // an added node costs its template's), summed in micro-dollars
    bool operator==(const PlanTotals&) const = default;
};

class PlanLedger {
public:
    /// Builds the ledger over `store` (which must outlive it and not change) with the plan empty.
    /// `nodePricePerHour`, when not empty, is the price of each store node (indexed by NodeId),
    /// for PlanTotals::costPerHour. O(nodes + pods).
    explicit PlanLedger(const ClusterStore& store, std::vector<double> nodePricePerHour = {});
    ~PlanLedger();
    PlanLedger(PlanLedger&&) noexcept;
    PlanLedger& operator=(PlanLedger&&) noexcept;

    [[nodiscard]] const ClusterStore& store() const noexcept;

    // ---- nodes: the store's, then added ones (ids from store.nodeCount()) ----
    /// Store nodes plus added nodes.
    [[nodiscard]] std::size_t nodeCount() const noexcept;
    /// True when the node exists under the plan (not failed, not removed).
    [[nodiscard]] bool nodePresent(NodeId n) const noexcept;
    /// The store node whose attributes an added node copies (itself for a store node).
    [[nodiscard]] NodeId nodeTemplate(NodeId n) const noexcept;
    [[nodiscard]] std::string_view nodeName(NodeId n) const noexcept;
    /// Labels: the template's, with the added node's overrides (hostname, topology labels).
    [[nodiscard]] std::span<const Label> nodeLabels(NodeId n) const noexcept;
    [[nodiscard]] StringId nodeLabel(NodeId n, StringId key) const noexcept;
    /// Requested under the plan: core resources (pods included) and one extended resource.
    [[nodiscard]] const ResourceVector& nodeRequested(NodeId n) const noexcept;
    [[nodiscard]] std::int64_t nodeExtendedRequested(NodeId n, ResourceKey key) const noexcept;
    /// Used milli-GPU of each GPU of a node whose GPUs the ledger tracks (GPU allocatable and
    /// nodeGpuCount() 1..64): a sharing pod (ClusterStore::podGpuShareMilli()) adds its share
    /// to one GPU, chosen by best fit (the GPU it leaves with the least free); a whole-GPU pod
    /// adds 1000 to each of ceil(gpu / 1000) GPUs, the least used. Empty for other nodes.
    [[nodiscard]] std::span<const std::int32_t> nodeGpuShares(NodeId n) const noexcept;
    /// The GPUs pod p holds on its node under the plan (bit i: GPU i of nodeGpuShares()), as
    /// movePod(p, to, gpuMask) takes them: 0 when it holds none the ledger tracks. O(1).
    [[nodiscard]] std::uint64_t podGpuMask(PodId p) const noexcept;
    /// The node's taints, allocatable, readiness, cordon and GPU count: the store's for a store
    /// node; an added node has its template's allocatable, GPU count and taints (without the
    /// node lifecycle controller's condition taints), is Ready and not cordoned.
    /// nodeUnschedulable() is also true for a node the plan cordoned (setNodeCordoned()).
    [[nodiscard]] std::span<const Taint> nodeTaints(NodeId n) const noexcept;
    [[nodiscard]] const ResourceVector& nodeAllocatable(NodeId n) const noexcept;
    [[nodiscard]] Readiness nodeReadiness(NodeId n) const noexcept;
    [[nodiscard]] bool nodeUnschedulable(NodeId n) const noexcept;
    [[nodiscard]] std::int32_t nodeGpuCount(NodeId n) const noexcept;
    /// True when the plan cordoned the node (a drain: `kubectl drain` cordons first), whether
    /// or not the drain then removed it. Every later move, PodFeasibility and the drag's
    /// shading see it as unschedulable (NodeUnschedulable, node-unschedulable).
    [[nodiscard]] bool nodeCordonedByPlan(NodeId n) const noexcept;
    /// The node's GPU model (its template's for an added node; "" when unknown).
    [[nodiscard]] std::string_view nodeGpuModel(NodeId n) const noexcept;
    /// A stamp that changes, to a value it never had, whenever a pod is placed on or taken off
    /// node n (and when a node is added), so that a placement policy can cache per-node
    /// figures (model/placement/) and know when they are stale. O(1).
    [[nodiscard]] std::uint64_t nodeStamp(NodeId n) const noexcept;
    /// The text of a StringId from nodeLabels() / nodeName(): the store's strings plus the
    /// ones added nodes brought (their names, override values), which the store lacks.
    [[nodiscard]] std::string_view str(StringId id) const noexcept;
    /// The pods on a node under the plan (store pods that stayed plus pods moved in), any order.
    [[nodiscard]] std::vector<PodId> nodePods(NodeId n) const;
    /// True when some pod on the node under the plan uses host port `port` / `protocol`
    /// (on a conflicting host IP: 0.0.0.0 conflicts with every IP).
    [[nodiscard]] bool nodeHostPortInUse(NodeId n, const HostPort& port) const noexcept;

    // ---- pods: the store's, then added ones (ids from store.podCount()) ----
    /// Store pods plus added pods.
    [[nodiscard]] std::size_t podCount() const noexcept;
    /// True for a pod the plan added (addPod()).
    [[nodiscard]] bool podAdded(PodId p) const noexcept;
    /// The store pod whose spec (requests, tolerations, selectors, affinity, labels, namespace)
    /// pod p has: itself for a store pod, its template for an added pod. Code that reads a
    /// pod's spec from the store reads it at podTemplate(p); the filters do.
    [[nodiscard]] PodId podTemplate(PodId p) const noexcept;
    /// The pod's name (an added pod's own; its namespace is its template's).
    [[nodiscard]] std::string_view podName(PodId p) const noexcept;
    /// The pod's node under the plan: invalid when pending, evicted or stranded.
    [[nodiscard]] NodeId podNode(PodId p) const noexcept;
    /// True when the plan moved or evicted the pod.
    [[nodiscard]] bool podChanged(PodId p) const noexcept;

    // ---- inter-pod counts (InterPodAffinity, PodTopologySpread) ----
    /// Label sets in use: ids for podLabelSet(); the set's labels.
    [[nodiscard]] std::uint32_t podLabelSet(PodId p) const noexcept;
    [[nodiscard]] std::size_t labelSetCount() const noexcept;
    [[nodiscard]] std::span<const Label> labelSet(std::uint32_t set) const noexcept;
    /// The number of counted pods with label set `set` in namespace `ns` on node `n` under
    /// the plan.
    [[nodiscard]] std::int32_t podsWithLabelSet(std::uint32_t set, StringId ns, NodeId n) const noexcept;
    /// Nodes with at least one pod of label set `set` (and namespace ns), with counts.
    [[nodiscard]] std::vector<std::pair<NodeId, std::int32_t>> nodesWithLabelSet(std::uint32_t set, StringId ns) const;
    /// Pods under the plan that carry required anti-affinity terms, with their nodes
    /// (the "existing pods' anti-affinity" direction of InterPodAffinity).
    [[nodiscard]] std::vector<std::pair<PodId, NodeId>> podsWithAntiAffinity() const;

    // ---- changes (each O(1) amortised; each returns false and changes nothing when invalid) ----
    /// Puts pod `p` on node `to` (from wherever it is, or from pending). Does not check
    /// feasibility: that is filters.h's job. False when `to` is not present or the pod is
    /// Succeeded or Failed (it uses nothing and goes nowhere).
    bool movePod(PodId p, NodeId to);
    /// movePod(p, to) with the GPUs the pod takes on `to` chosen by the caller (a placement
    /// policy's GPU selection, model/placement/): bit i of `gpuMask` is GPU i of
    /// nodeGpuShares(to). A mask the pod cannot take (a share on a GPU without that much free,
    /// whole GPUs that are in use or of the wrong number) or 0 leaves the choice to the ledger.
    bool movePod(PodId p, NodeId to, std::uint64_t gpuMask);
    /// Takes the pod off its node: pending under the plan.
    bool evictPod(PodId p);
    /// Puts a changed pod back where the store has it (undo of its last change).
    bool restorePod(PodId p);
    /// Adds a node like `templateNode` (a store node), named `name`, with `labelOverrides`
    /// (key, value) replacing or adding labels (its hostname, its zone). No pods. Returns its id,
    /// or an invalid id, adding nothing, when the template is not a store node or the name is
    /// empty or already a node's.
    NodeId addNode(NodeId templateNode, std::string name, const std::vector<std::pair<std::string, std::string>>& labelOverrides);
    /// Adds a pending pod like `templatePod` (a store pod that is not finished, not a DaemonSet
    /// or mirror pod), named `name` (namespace: the template's), the way addNode() adds a node:
    /// a new workload's pods (model/placement/topologyplacement.h). Returns its id
    /// (store.podCount() up), or an invalid id, adding nothing, for such a template or an empty
    /// name. O(1).
    PodId addPod(PodId templatePod, std::string_view name);
    /// Removes the last added pod (undo of addPod); false when it is on a node or none was added.
    bool removeLastAddedPod();
    /// Removes the last added node (undo of addNode); false when it holds pods or none was added.
    bool removeLastAddedNode();
    /// Marks a node failed / removed (false: present again). Its pods stay recorded on it;
    /// the caller evicts them first when they should be re-placed.
    bool setNodePresent(NodeId n, bool present);
    /// Cordons a node under the plan (false: uncordons, the undo of a drain's cordon). O(1).
    /// False when the node does not exist.
    bool setNodeCordoned(NodeId n, bool cordoned);

    // ---- totals ----
    [[nodiscard]] const PlanTotals& totals() const noexcept;
    /// Totals of the loaded state (the plan empty).
    [[nodiscard]] const PlanTotals& totalsBefore() const noexcept;
    /// Milliseconds the constructor took to build the indexes.
    [[nodiscard]] double buildMs() const noexcept;

    struct Private;

private:
    friend struct PlanLedgerInternals; // the filters read the indexes (planledger_p.h)
    std::unique_ptr<Private> d;
};

} // namespace fleet::model
