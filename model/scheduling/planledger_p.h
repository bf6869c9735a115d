// SPDX-License-Identifier: Apache-2.0
#pragma once
// The ledger's private parts, shared by planledger.cpp and the filters (which read the
// indexes directly: the label columns, the groups and their counts). Internal to
// model/scheduling.
//
// Design note (see planledger.h): every per-node vector is indexed by NodeId (store nodes,
// then added ones); every per-pod vector by PodId. Label columns hold, for each label key the
// pods' rules read (topology keys, nodeSelector and affinity keys), the value of every node as
// a dense index, and the nodes of each value, so that a rule's lookup is one load and a
// topology domain's nodes are a list.

#include "gpumasks.h"
#include "groupcounts.h"
#include "model/nodeboundpods.h"
#include "planledger.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace fleet::model {

namespace scheduling {

inline constexpr std::uint32_t kNone = 0xffffffffu;

/// One label key over every node: the node's value as a dense index (kNone when it lacks the
/// key), the values, and the nodes holding each value (present or not, in id order).
struct LabelColumn {
    StringId key;
    std::vector<std::uint32_t> valueOfNode;
    std::vector<StringId> values;
    std::unordered_map<std::uint32_t, std::uint32_t> indexOfValue; // StringId value -> dense index
    std::vector<std::vector<NodeId>> nodesOfValue;

    std::uint32_t valueIndex(StringId v)
    {
        auto [it, added] = indexOfValue.emplace(v.value, static_cast<std::uint32_t>(values.size()));
        if (added) {
            values.push_back(v);
            nodesOfValue.emplace_back();
        }
        return it->second;
    }
};

} // namespace scheduling

struct PlanLedger::Private {
    const ClusterStore* store = nullptr;
    std::vector<double> price; // store nodes; added nodes use their template's
    // The cost total in micro-dollars per hour, so that adding and removing a node's price
    // returns exactly to the figure before.
    std::int64_t costMicro = 0;
    [[nodiscard]] std::int64_t priceMicro(std::size_t n) const noexcept
    {
        const double p = price[n];
        return p > 0 && p < 1e12 ? static_cast<std::int64_t>(p * 1e6 + 0.5) : 0;
    }
    double buildMs = 0;
    std::size_t storeNodes = 0;

    // Strings the store lacks (added nodes' names and label values), ids from the store
    // pool's size up.
    std::deque<std::string> localStrings;
    std::unordered_map<std::string_view, std::uint32_t> localIndex;
    [[nodiscard]] std::string_view str(StringId id) const noexcept
    {
        const std::size_t poolSize = store->strings().size();
        if (id.isValid() && id.index() >= poolSize && id.index() - poolSize < localStrings.size())
            return localStrings[id.index() - poolSize];
        return store->str(id);
    }
    [[nodiscard]] StringId intern(std::string_view text);

    // ---- nodes ----
    struct AddedNode {
        NodeId templateNode;
        StringId name;
        std::vector<Label> labels;
        std::vector<Taint> taints;
    };
    std::vector<AddedNode> added; // node storeNodes + i
    std::vector<std::uint8_t> present;
    std::vector<std::uint8_t> cordoned; // by the plan (a drain), beside the store's spec.unschedulable
    std::vector<std::uint64_t> stamp; // nodeStamp(): the last change's number
    std::uint64_t lastStamp = 0;
    std::vector<ResourceVector> requested; // counted pods under the plan (Pods = their number)
    std::vector<std::vector<std::pair<ResourceKey, std::int64_t>>> extRequested;
    std::vector<std::int32_t> workloadPods;  // counted non-DaemonSet, non-mirror pods
    std::vector<std::int32_t> loadedPodsHere; // pods counted in the loaded state that are here now
    std::vector<std::int32_t> loadedNodeBoundHere; // of those, DaemonSet and mirror pods (they go with the node)
    std::vector<std::vector<std::pair<HostPort, std::int32_t>>> hostPorts;
    scheduling::GpuMasks gpus; // per-device GPU use of each node, and the devices each pod holds
    std::vector<std::uint32_t> taintSetOfNode; // interned taint lists
    std::vector<std::vector<Taint>> taintSets;
    std::vector<std::vector<PodId>> movedIn; // pods here under the plan that the store has elsewhere

    // ---- pods: the store's, then added ones (ids from storePods) ----
    std::size_t storePods = 0;
    std::vector<PodId> addedPodTemplate; // pod storePods + i copies store pod addedPodTemplate[i]
    std::vector<StringId> addedPodName;
    std::vector<NodeId> podNode;
    std::vector<StringId> podNamespace;
    std::vector<std::uint32_t> podGroup;     // label group
    std::vector<std::uint32_t> podAntiGroup; // anti-affinity group, kNone without

    // ---- label groups: (label set, namespace) ----
    std::vector<std::span<const Label>> labelSets;
    std::vector<std::uint32_t> groupLabelSet;
    std::vector<StringId> groupNamespace;
    std::unordered_map<std::uint64_t, std::uint32_t> groupIndex;        // set << 32 | namespace -> group
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> groupsByLabel; // key << 32 | value -> groups
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> groupsByKey;   // key -> groups
    scheduling::GroupCounts labelCounts;
    // The terminating pods (PodFlagTerminating) among labelCounts, by the same groups: the one
    // rule that skips them (PodTopologySpread) subtracts these. Empty of entries when no pod
    // is terminating.
    scheduling::GroupCounts terminatingCounts;
    bool anyTerminating = false;

    // ---- anti-affinity groups: (anti-affinity term set, namespace) ----
    std::vector<std::span<const PodAffinityTerm>> antiSets;
    std::vector<std::uint32_t> antiGroupSet;
    std::vector<StringId> antiGroupNamespace;
    scheduling::GroupCounts antiCounts;
    std::vector<PodId> antiPods; // placed pods with anti-affinity
    // The anti-affinity terms (anti group << 32 | term index) by what their selector needs of a
    // pod's labels, so that judging one pod reads only the terms it could match, not every
    // group (InterPodAffinity's "existing pods' anti-affinity"): by (key << 32 | value) of the
    // selector's first In requirement, else by the key of its first Exists requirement, else
    // (a selector of only NotIn / DoesNotExist, or {}) in antiTermsAny. A null selector matches
    // nothing and is not listed. Built once in the constructor; the groups never change.
    std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> antiTermsByLabel;
    std::unordered_map<std::uint32_t, std::vector<std::uint64_t>> antiTermsByKey;
    std::vector<std::uint64_t> antiTermsAny;
    std::unordered_map<std::uint32_t, std::uint32_t> antiPodPosition;

    // ---- label columns ----
    std::vector<scheduling::LabelColumn> columns;
    std::unordered_map<std::uint32_t, std::uint32_t> columnOfKey; // key -> column

    PlanTotals totals;
    PlanTotals before;

    // ---- helpers ----
    [[nodiscard]] bool isAdded(NodeId n) const noexcept { return n.index() >= storeNodes; }
    [[nodiscard]] NodeId templateOf(NodeId n) const noexcept { return isAdded(n) ? added[n.index() - storeNodes].templateNode : n; }
    [[nodiscard]] std::span<const Label> labelsOf(NodeId n) const noexcept
    {
        return isAdded(n) ? std::span<const Label>(added[n.index() - storeNodes].labels) : store->nodeLabels(n);
    }
    [[nodiscard]] std::span<const Taint> taintsOf(NodeId n) const noexcept
    {
        return isAdded(n) ? std::span<const Taint>(added[n.index() - storeNodes].taints) : store->nodeTaints(n);
    }
    [[nodiscard]] StringId nameOf(NodeId n) const noexcept;
    /// The column of `key`, or nullptr when the key is not indexed.
    [[nodiscard]] const scheduling::LabelColumn* column(StringId key) const noexcept
    {
        const auto it = columnOfKey.find(key.value);
        return it == columnOfKey.end() ? nullptr : &columns[it->second];
    }
    [[nodiscard]] StringId label(NodeId n, StringId key) const noexcept;
    [[nodiscard]] bool isAddedPod(PodId p) const noexcept { return p.index() >= storePods; }
    /// The store pod whose spec pod p has: itself, or an added pod's template.
    [[nodiscard]] PodId specOf(PodId p) const noexcept { return isAddedPod(p) ? addedPodTemplate[p.index() - storePods] : p; }
    [[nodiscard]] NodeId loadedNode(PodId p) const noexcept
    {
        return !isAddedPod(p) && store->podIsCounted(p) ? store->podNode(p) : NodeId {};
    }
    /// A terminating pod of the store (metadata.deletionTimestamp set): a drain waits for it
    /// rather than moving it (plandrain.cpp), so on a node the plan removes it is gone with the
    /// node, counted with the DaemonSet and mirror pods (podsRemovedWithNodes), not unplaced.
    [[nodiscard]] bool leavesWithNode(PodId p) const noexcept
    {
        return !isAddedPod(p) && (store->podFlags(p) & PodFlagTerminating);
    }
    [[nodiscard]] bool isWorkloadPod(PodId p) const noexcept
    {
        const PodId q = specOf(p);
        return !isNodeBoundPod(*store, q);
    }

    // ---- changes ----
    void place(PodId p, NodeId n, std::uint64_t preferredGpus);
    void unplace(PodId p);
    void addNodeColumns(NodeId n);
};

/// The filters' way in (friend of PlanLedger).
struct PlanLedgerInternals {
    static const PlanLedger::Private& of(const PlanLedger& s) noexcept { return *s.d; }
};

} // namespace fleet::model
