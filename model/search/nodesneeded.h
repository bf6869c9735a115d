// SPDX-License-Identifier: Apache-2.0
#pragma once
// The capacity question of the seeds: "how many nodes of this type would this take".
// Answered with the plan's own actions and rules, never a second copy of them: the nodes are
// added by an add-node action (plan.h: a copy of a node of the state of that instance type and
// capacity type, in a domain), the pods placed by the default placement policy
// (PlanEngine::chooseNode, then move-pod, which re-checks every filter), a workload by a
// place-workload action. Everything applied to find the answer is undone.
//
// Search: f(k) = pods placed with k nodes added. Each pod needs at most one new node, so
// k_max = min(pods, maxNodes); the answer is the fewest k (bisection over [0, k_max]) with
// f(k) = f(k_max). Bisection assumes more empty nodes never place fewer pods, which holds for
// best fit (an empty added node is the loosest fit, used only when nothing tighter takes the
// pod); O(log k_max) evaluations of O(pods) placements each.
//
// Thread: the thread that owns the engine (run it on a worker over an engine of its own:
// app/dialogs/addnodesdialog.h builds one from the window's plan).

#include "model/plan/plan.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fleet::model {

struct NodesNeededQuestion {
    /// type AddNode: instanceType, capacityType ("" any), domain ("" the whole cluster); its
    /// count is what is asked.
    PlanAction addNode;
    /// The pods to place, each by the default policy anywhere in the cluster (pending pods wait
    /// for any node); pods already on a node under the plan are left out. Ignored when
    /// `workload` is valid.
    std::vector<PodId> pods;
    /// Valid: a place-workload of this workload into addNode.domain instead (every pod taken
    /// off its node and placed inside the domain, all or nothing).
    WorkloadId workload;
    /// The most nodes tried (1 to 100000, add-node's limit).
    std::int32_t maxNodes = 1000;
};

/// Progress and cancel of a long search (nodesNeeded() at 100,000 nodes runs O(log k) evaluations
/// of O(pods) placements each; seconds). Both optional.
struct NodesNeededControl {
    /// Checked between two placements; once set, the search stops and leaves the engine as it was.
    const std::atomic<bool>* cancel = nullptr;
    /// The share done, 0..1, called after each placement or evaluation on the calling thread
    /// (the caller throttles what it shows).
    std::function<void(double fraction)> progress;
};

struct NodesNeededAnswer {
    std::int32_t nodes = 0;      // the fewest nodes that place as many pods as maxNodes would
    std::int32_t pods = 0;       // pods asked about (the workload's pods that have not finished)
    std::int32_t podsPlaced = 0; // placed with `nodes` added
    /// The pods that still do not fit (with k_max nodes added), each with why: the filters'
    /// verdict on an empty added node (its reason codes, reasons.h), or no-feasible-node when
    /// no node of the type was added. A workload that does not fit lists the pod that failed.
    std::vector<std::pair<PodId, std::vector<Reason>>> unplaced;
    bool limitReached = false;   // k_max = maxNodes < pods and something is still left
    std::int32_t evaluations = 0;
    bool cancelled = false;      // NodesNeededControl::cancel was set: no answer (the rest is 0)
};

/// The pods that wait for a node under the engine's plan: not on a present node, not finished,
/// not DaemonSet or mirror pods (they are bound to their node), not pods the plan added.
/// O(pods).
[[nodiscard]] std::vector<PodId> pendingPods(const PlanEngine& engine);

/// Answers the question over `engine` (its plan is the starting point; it is left as it was).
/// Throws std::invalid_argument for a malformed question (not add-node, maxNodes out of range)
/// and NotFoundError (plan/notfounderror.h) when the state has no node of the instance type to
/// copy, or the domain or workload is missing.
/// With `control`, progress is reported and a cancel ends the search early with
/// NodesNeededAnswer::cancelled (the engine as it was).
[[nodiscard]] NodesNeededAnswer nodesNeeded(PlanEngine& engine, const NodesNeededQuestion& question, const NodesNeededControl& control = {});

/// The plan the answer describes, applied to `engine` and kept: one add-node of `count` nodes
/// (question.addNode), then the question's pods placed exactly as nodesNeeded() places them
/// (one move-pod per pending pod the default policy puts on a node, largest first; or one
/// place-workload). Adding nodes alone leaves them empty, while a cluster's scheduler would bind
/// the pending pods that now fit: this is that binding, as plan actions. Returns the pods placed.
/// Throws as PlanEngine::apply does (NotFoundError for a type or domain the state lacks) and
/// std::invalid_argument for a count outside 1 to 100000; on a throw the engine is as it was.
/// With `control`, progress is reported; a cancel leaves the engine as it was and returns -1.
std::int32_t addNodesAndPlace(PlanEngine& engine, const NodesNeededQuestion& question, std::int32_t count, const NodesNeededControl& control = {});

/// One add-node of fitPendingPerNodeGroup(): the store node its nodes copy and how many.
struct TemplateCopies {
    NodeId templateNode; // a node of the loaded state (PlanLedger::nodeTemplate())
    std::int32_t nodes = 0;
};

/// fitPendingPerNodeGroup()'s answer.
struct FitPendingAnswer {
    /// nodes and podsPlaced: summed over the add-nodes (no add-node: the pods that fit without
    /// one, as nodesNeeded() answers); pods: pending at the start; unplaced and
    /// limitReached: the last add-node's question that added nodes (the first when none did);
    /// cancelled: control's cancel was set.
    NodesNeededAnswer answer;
    std::vector<TemplateCopies> copies; // per add-node applied, in order (empty: none helps)
    NodeId firstTemplate;               // the node a first add-node copies (invalid: no node of the type)
};

/// The pending pods placed on copies of a node of each node group they need
/// (`plan add-nodes --fit-pending`, the window's Add Nodes): an add-node copies the healthy node
/// of the group the most still-pending pods can use (templateNodeFor(), plan.h), so after one
/// add-node of as many nodes as nodesNeeded() answers, with the pods it places
/// (addNodesAndPlace()), the next copies a node of the group the rest select. Ends when every
/// pod is placed, no copy helps, `maxNodes` nodes are added, or a template comes round again.
/// The actions are applied to `engine` and kept (one add-node and its move-pods per group).
/// `addNode`: type AddNode with instanceType, capacityType and domain; its count is ignored.
/// Throws as nodesNeeded() does; on a cancel (control) the engine keeps the add-nodes done so far
/// and answer.cancelled is set. Thread: the engine's.
[[nodiscard]] FitPendingAnswer fitPendingPerNodeGroup(
    PlanEngine& engine, const PlanAction& addNode, std::int32_t maxNodes, const NodesNeededControl& control = {});

/// The node group of store node n for people: the value of its eks.amazonaws.com/nodegroup or
/// karpenter.sh/nodepool label, "" when it has neither. Thread: any.
[[nodiscard]] std::string nodeGroupOf(const ClusterStore& store, NodeId n);

} // namespace fleet::model
