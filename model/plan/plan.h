// SPDX-License-Identifier: Apache-2.0
#pragma once
// A plan: an ordered list of actions over the loaded state, which it never edits.
// This header owns every action type (a placement policy is an action's field, not a new type);
// plan files (importers/plan/planfile.h) hold exactly these, versioned.
//
// Actions:
//   MovePod        one pod to one node
//   DrainNode      every movable pod of the node re-placed elsewhere, the node removed
//   AddNode        a node like a template (instance type) in a domain
//   FailNode       a node gone (a HyperPod-style failure); its pods re-placed or stranded
//   FailDomain     every node of a topology domain gone
//   PlaceWorkload  every pod of a workload placed inside a domain, all or nothing
//   PlacePods      N new pods like a template pod placed in the network topology, Kueue TAS
//                  semantics (model/placement/topologyplacement.h), a gang all or nothing
// Each action, once applied, records its effects (the pods it moved, evicted or stranded, the
// nodes it added or removed) so that undo restores the ledger exactly, in O(effects).
//
// Thread: one thread (the GUI thread or a CLI), with the PlanLedger it owns.

#include "model/scheduling/filters.h"
#include "model/scheduling/planledger.h"
#include "model/scheduling/reasons.h"

#include <memory>
#include <string>
#include <vector>

namespace fleet::model {

class Topology;

enum class ActionType : std::uint8_t { MovePod, DrainNode, AddNode, FailNode, FailDomain, PlaceWorkload, PlacePods };
/// "move-pod", "drain-node", "add-node", "fail-node", "fail-domain", "place-workload",
/// "place-pods" (the plan file's spelling). Thread: any.
[[nodiscard]] std::string_view actionTypeName(ActionType t) noexcept;

/// A pod as a plan names it: stable across snapshots (namespace/name, and uid where known).
struct PodRef {
    std::string namespaceName;
    std::string name;
    std::string uid; // "" when the input has none
    bool operator==(const PodRef&) const = default;
};

/// Pod `p` of `store` as a plan names it: namespace, name and uid. Thread: any, while no thread
/// mutates `store`.
[[nodiscard]] PodRef podRef(const ClusterStore& store, PodId p);

/// A domain as a plan names it: its path of label=value from the root
/// (model/domainpath.h, e.g. "topology.kubernetes.io/region=us-east-1/topology.kubernetes.io/zone=us-east-1a").
using DomainRef = std::string;

/// One action, as the user asked for it (the inputs; effects live in AppliedAction).
struct PlanAction {
    ActionType type = ActionType::MovePod;
    PodRef pod;                 // MovePod; PlacePods: the template pod (a store pod) the new pods copy
    std::string node;           // MovePod: destination; DrainNode / FailNode: the node
    DomainRef domain;           // FailDomain, PlaceWorkload, AddNode: where
    std::string instanceType;   // AddNode
    std::string capacityType;   // AddNode: "" any, else "on-demand", "spot" or "reserved" (pricetable.h
                                // spelling): the template node must be bought that way (its price)
    std::int32_t count = 1;     // AddNode: how many nodes; PlacePods: how many pods
    std::string workloadNamespace, workloadName, workloadKind; // PlaceWorkload
    std::string policy;         // PlaceWorkload: "" = the default policy (see PlanEngine);
                                // PlacePods: "" or "BestFit" (Kueue's default domain choice)
    // PlacePods: the Pod object (JSON text) the template was read from, so that a plan re-checked
    // against another state can add it (importers/plan/planfile.h addPlanTemplatePods()); and
    // the Kueue TAS request (TopologyRequest's fields): label keys, slice size, all or nothing.
    std::string podTemplate;
    std::string requiredLevel, preferredLevel, sliceLevel;
    std::string keepWithinLevel; // PlacePods: TopologyRequest::keepWithinLevel ("" none)
    std::int32_t sliceSize = 0;
    bool gang = true;
    /// MovePod: applied although infeasible; the plan marks it as a violation (see PlanEngine).
    bool override = false;
    bool operator==(const PlanAction&) const = default;
};

/// What an applied action did: for the plan panel, `plan check` and undo.
struct AppliedAction {
    PlanAction action;
    bool holds = true;            // every part of it was done as asked (no violation, nothing stranded)
    std::vector<Reason> reasons;  // why it does not hold / what was refused
    struct PodChange {
        PodId pod;
        NodeId from; // invalid: was pending
        NodeId to;   // invalid: evicted / stranded
    };
    std::vector<PodChange> changes;       // in the order done (undone in reverse)
    std::vector<NodeId> nodesAdded;       // AddNode
    std::vector<PodId> podsAdded;         // PlacePods: the new pods (PlanLedger::addPod), placed
    std::string topologyLevel;            // PlacePods: the level the pods were fit at
    std::vector<std::string> topologyDomains; // PlacePods: its domains used (paths)
    std::vector<NodeId> nodesRemoved;     // DrainNode / FailNode / FailDomain
    /// Pods that could not be re-placed, each with why (DrainNode, Fail*, PlaceWorkload).
    std::vector<std::pair<PodId, std::vector<Reason>>> unplaced;
    PlanTotals before, after;
};

/// The node an add-node action copies among `candidates` (store nodes of the instance type and
/// capacity type asked for, in the domain's order): a healthy one (Ready, schedulable, no other
/// condition True, every GPU and device of its capacity allocatable), of the node group
/// (eks.amazonaws.com/nodegroup, karpenter.sh/nodepool) and capacity type that the most of
/// `pendingPods` can use (nodeSelector, required node affinity, taints; a pod counts only where
/// its cpu, memory and whole GPUs fit the node's allocatable), ties to the first; without a
/// healthy one, the first Ready schedulable one, else the first; invalid for no candidate.
/// O(candidates + pending pods x node groups). Thread: any, while no thread mutates `store`.
[[nodiscard]] NodeId templateNodeFor(const ClusterStore& store, std::span<const NodeId> candidates, std::span<const PodId> pendingPods);
/// The store's pending pods (ClusterStore::podIsPending), for templateNodeFor(). O(pods).
[[nodiscard]] std::vector<PodId> storePendingPods(const ClusterStore& store);

/// Sorts pods largest first, as every action that places several pods does: GPU, then cpu, then
/// memory request (the store's), then id (deterministic). Thread: any.
void sortPodsLargestFirst(const ClusterStore& store, std::vector<PodId>& pods);

/// Applies and undoes actions over a PlanLedger. apply() is one undoable step: the GUI wraps each
/// in a QUndoCommand (undo() reverts the last applied; redo is reapplyUndone(), else apply()).
class PlanEngine {
public:
    /// `topology` resolves DomainRefs and is used by the default policy; both must outlive it.
    PlanEngine(const ClusterStore& store, const Topology& topology, std::vector<double> nodePricePerHour = {});
    ~PlanEngine();

    [[nodiscard]] const PlanLedger& state() const noexcept;
    [[nodiscard]] const std::vector<AppliedAction>& applied() const noexcept;

    /// Applies one action (last). A MovePod that is infeasible is refused (returns it with
    /// holds = false and no changes) unless action.override, when it is applied and marked
    /// as a violation. DrainNode: evictions checked (PodDisruptionBudgets spent across the whole
    /// plan, annotations, controllers, gangs), each evicted pod placed by the default policy;
    /// a pod that cannot be evicted or placed is listed in `unplaced` and stays (drain) or is
    /// stranded (failure). PlacePods: finds the placement (findTopologyPlacement() over the
    /// state), then adds the pods (named <template>-<k>, k from 0 over this template's added
    /// pods) and puts them on their nodes, with the ledger's GPU choice; a gang that does not fit
    /// is refused (holds = false, the per-level reasons, nothing added); without gang, what fits
    /// is placed and the action does not hold when some pods are left. Throws
    /// std::invalid_argument when the action names a pod, node or domain that does not exist
    /// (message names it) or for a malformed PlacePods request (topologyplacement.h), and
    /// NotFound for a missing template pod.
    const AppliedAction& apply(const PlanAction& action);
    /// Undoes the last applied action, restoring the ledger exactly (in O(its effects));
    /// false when none. What it undid is kept for reapplyUndone() (until the next apply()).
    bool undo();
    /// Puts back the action undo() took back last, from what undo() recorded of it: its
    /// effects replayed in order (pod moves and evictions, nodes gone, cordons, disruption
    /// budgets spent), with no filter, policy or search run again, so that the state and the
    /// record are those its apply() left. O(its effects), where apply() of a drain plans every
    /// pod again. Only when it is `action` and nothing was applied since (undo and reapply keep
    /// last-in first-out order, as an undo stack does); returns the record, or null when it
    /// cannot (another action, an apply() since, or an action that added nodes or pods): then
    /// apply() it again.
    const AppliedAction* reapplyUndone(const PlanAction& action);

    /// undo() and reapplyUndone() in parts, for a thread that must not be held for the whole of
    /// one large action (a zone's failure on 100,000 nodes: about 240,000 pods put back, 1.3 to
    /// 1.9 s, most of it the capacity index re-keyed). beginUndo() starts the undo of the last
    /// applied action: false when there is none, or when it added nodes or pods (its undo is
    /// O(those), and a removed node or pod cannot be put back to cancel): undo() it whole then.
    /// beginReapply(action) starts reapplyUndone(action): false where that returns null (and
    /// with the same effect on what undo() kept): apply() it then. continuePartial(maxEffects)
    /// runs up to that many more of its effects (at least one) and returns true once it is
    /// complete: the engine is then exactly as undo() or reapplyUndone() leaves it, the effects
    /// run in the same order. cancelPartial(maxEffects) takes back up to that many more of the
    /// effects run so far, last first, and returns true once none is left: the engine is then
    /// exactly as before the begin (a cancelled reapply can be begun again). Once a cancel has
    /// begun, continuePartial() only goes on cancelling. Between parts the ledger is a state
    /// between the two (each effect whole: a pod on one node, a node present or not) while
    /// applied() still lists the action (an undo) or does not yet (a reapply), so a reader sees
    /// neither plan; apply(), undo(), reapplyUndone(), takeUndone() and a second begin throw
    /// std::logic_error until the partial one completes or is cancelled. Thread: the engine's.
    bool beginUndo();
    bool beginReapply(const PlanAction& action);
    bool continuePartial(std::size_t maxEffects);
    bool cancelPartial(std::size_t maxEffects = static_cast<std::size_t>(-1));
    [[nodiscard]] bool isPartial() const noexcept;
    /// The partial undo's or reapply's effects run so far and in all (0 and 0 without one).
    [[nodiscard]] std::size_t partialDone() const noexcept;
    [[nodiscard]] std::size_t partialTotal() const noexcept;

    /// What undo() kept for reapplyUndone(), taken out of the engine, which then holds none (as
    /// after apply(), which drops it): the caller frees it where it likes. Undoing a
    /// 200,000-action consolidation keeps a record per action, and the apply() of the next action
    /// freed them all at once (on the GUI thread at 100,000 nodes). Null when none is kept.
    /// Throws std::logic_error during a partial undo or reapply. Thread: the engine's; the
    /// object may be destroyed on any thread.
    [[nodiscard]] std::shared_ptr<void> takeUndone();

    /// The default placement policy (docs/what-if.md, "The rules"): among feasible present nodes
    /// (inside `within`, the whole cluster when invalid), the one with the least free primary
    /// resource after placing the pod (best fit: GPUs on accelerator pods, else the larger of cpu
    /// and memory share), ties by node name. Candidates come from an index by free capacity, not
    /// a scan of every node. Invalid when none fits.
    [[nodiscard]] NodeId chooseNode(PodId p, DomainId within = {}) const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace fleet::model
