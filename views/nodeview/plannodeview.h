// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the node views (the zoomed map's GPU tiles and pod strips, the node tooltip, the node
// inspector) show of one node: the loaded state, or the plan's when a plan is given.
// One place for the rule, so that every view agrees: under a plan a pod the plan moved is on
// its new node and not on its old one, and a node the plan drained or failed (gone) is empty.

#include "model/clusterstore.h"
#include "model/metrics/accelerators.h"
#include "model/scheduling/planledger.h"

#include <QString>

#include <utility>
#include <vector>

namespace fleet::views {

/// A node as the views show it. `plan` null: the loaded state (ClusterStore). Both must
/// outlive the view and not change while it is used. Thread: the GUI thread (as the plan's).
struct PlanNodeView {
    const model::ClusterStore* store = nullptr;
    const model::PlanLedger* plan = nullptr;

    /// True when n names a node to show: a store node, or a node the plan added (AddNode; ids
    /// from store->nodeCount() up, PlanLedger::nodeCount()).
    [[nodiscard]] bool exists(model::NodeId n) const noexcept
    {
        return n.isValid() && (n.index() < store->nodeCount() || (plan && n.index() < plan->nodeCount()));
    }
    /// True for a node the plan added.
    [[nodiscard]] bool added(model::NodeId n) const noexcept { return plan && n.isValid() && n.index() >= store->nodeCount(); }
    /// The store node whose columns show n's attributes that the plan does not change
    /// (allocatable, capacity, extended resources, instance type, GPU model and count): n
    /// itself, or the template an added node copies (PlanLedger::nodeTemplate()).
    [[nodiscard]] model::NodeId specNode(model::NodeId n) const noexcept { return added(n) ? plan->nodeTemplate(n) : n; }
    /// The node's name (an added node's own, "fleetscope-<type>-<k>").
    [[nodiscard]] QString nodeName(model::NodeId n) const;
    /// The node's labels as {key, value}: an added node's are its template's with its own
    /// hostname and its domain's topology labels (PlanLedger::nodeLabels()).
    [[nodiscard]] std::vector<std::pair<QString, QString>> labels(model::NodeId n) const;
    /// False when the plan drained (emptied and removed) or failed the node.
    [[nodiscard]] bool present(model::NodeId n) const noexcept { return !plan || plan->nodePresent(n); }
    /// The pods on the node: the plan's (PlanLedger::nodePods: counted pods only; none on a
    /// node that is gone), else ClusterStore::nodePods (every pod bound there). Pods the plan
    /// added (place-pods: ids from the store's pod count up, read through
    /// PlanLedger::podTemplate()) only with `withAddedPods`: the map's pod strips read the
    /// store. O(pods of the node).
    [[nodiscard]] std::vector<model::PodId> nodePods(model::NodeId n, bool withAddedPods = false) const;
    /// Requested core resources (pods included), zero on a node that is gone.
    [[nodiscard]] const model::ResourceVector& nodeRequested(model::NodeId n) const noexcept;
    /// Requested amount of one extended resource, zero on a node that is gone.
    [[nodiscard]] std::int64_t nodeExtendedRequested(model::NodeId n, model::ResourceKey key) const noexcept;
    /// True when the node is cordoned in the loaded state or by the plan (a drain).
    [[nodiscard]] bool unschedulable(model::NodeId n) const noexcept
    {
        return plan ? plan->nodeUnschedulable(n) : store->nodeUnschedulable(n);
    }
    /// The node's accelerators with their requests under the plan (GPUs, MIG slices per
    /// profile, Neuron devices and cores: model::nodeAccelerators()), the devices the store's.
    [[nodiscard]] model::NodeAccelerators accelerators(model::NodeId n, const model::MetricKeys& keys) const noexcept
    {
        return model::nodeAccelerators(*store, n, keys, plan);
    }
    /// The node's taints as the views list them, {key, "value:effect"}: the loaded state's (an
    /// added node's: its template's without the node lifecycle controller's condition taints),
    /// plus `node.kubernetes.io/unschedulable` NoSchedule when the plan cordoned the node (a
    /// drain; the taint the node lifecycle controller puts on a cordoned node,
    /// pkg/controller/nodelifecycle, TaintNodesByCondition) and it does not carry it already.
    [[nodiscard]] std::vector<std::pair<QString, QString>> taints(model::NodeId n) const;
    /// What the plan did to the node, for people: "gone under the plan (drained or failed)",
    /// "cordoned by the plan (a drain left pods on it)", "added by the plan, like TEMPLATE";
    /// "" otherwise or without a plan.
    [[nodiscard]] QString planStateText(model::NodeId n) const;
};

} // namespace fleet::views
