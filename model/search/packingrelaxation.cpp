// SPDX-License-Identifier: Apache-2.0
// The LP bound on a consolidation's node count (packingrelaxation.h).
#include "packingrelaxation.h"

#include "model/plan/evictionrules.h"
#include "model/pricing/pricetable.h"
#include "model/scheduling/filters.h"
#include "model/scheduling/planledger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace fleet::model {

namespace {

// Filters whose answer does not depend on where other pods are: the relaxation keeps them.
bool staticReason(ReasonKind k) noexcept
{
    switch (k) {
    case ReasonKind::NodeUnschedulable:
    case ReasonKind::NodeNotReady:
    case ReasonKind::NodeGone:
    case ReasonKind::UntoleratedTaint:
    case ReasonKind::NodeSelectorMismatch:
    case ReasonKind::NodeAffinityMismatch:
    case ReasonKind::GpuModelMismatch:
    case ReasonKind::VolumeNodeAffinity:
    case ReasonKind::VolumeZone:
        return true;
    default:
        return false;
    }
}

template<typename T>
void append(std::string& key, const T& v)
{
    const auto* b = reinterpret_cast<const char*>(&v);
    key.append(b, sizeof v);
}

void appendText(std::string& key, std::string_view text)
{
    append(key, text.size());
    key.append(text);
}

void addTermKeys(std::span<const NodeSelectorTerm> terms, std::unordered_set<std::uint32_t>& keys, bool& byName)
{
    for (const NodeSelectorTerm& t : terms)
        for (const NodeSelectorRequirement& r : t.requirements) {
            if (r.matchField)
                byName = true;
            else
                keys.insert(static_cast<std::uint32_t>(r.key.index()));
        }
}

struct NodeClass {
    NodeId first;
    std::int64_t count = 0, pinned = 0;
    std::vector<std::int64_t> capacity;   // per dimension: allocatable (raised to the most held)
    std::vector<std::int64_t> leastStays; // per dimension: least DaemonSet/mirror request of a node
    std::vector<std::int64_t> mostHeld;   // per dimension: the most one node holds today
    std::vector<std::int64_t> stuck;      // per dimension: pods that cannot move, on pinned nodes
};

struct PodClass {
    PodId first;
    std::int64_t count = 0;
    std::vector<std::int64_t> request; // per dimension
    std::vector<std::uint32_t> eligible; // node classes, sorted
};

} // namespace

LinearProgram packingRelaxation(const ClusterStore& store, std::span<const std::pair<PodId, NodeId>> placedFirst,
    const PackingRelaxationOptions& options, PackingBound* counts)
{
    const std::size_t nodeCount = store.nodeCount();
    const std::size_t podCount = store.podCount();

    // Where each counted pod is (pending pods placed first included).
    std::vector<NodeId> where(podCount);
    for (std::uint32_t i = 0; i < podCount; ++i) {
        const PodId p(i);
        // A pod that is leaving (finished or terminating: podIsLeaving) is no demand.
        if (!store.podIsDeleted(p) && !podIsLeaving(store, p))
            where[i] = store.podNode(p);
    }
    for (const auto& [p, n] : placedFirst)
        if (p.index() < podCount && !where[p.index()].isValid())
            where[p.index()] = n;

    // Dimensions: the core resources, then each extended resource some pod requests.
    std::map<ResourceKey, std::size_t> extendedDimension;
    for (std::uint32_t i = 0; i < podCount; ++i)
        if (where[i].isValid())
            for (const auto& [key, amount] : store.podExtendedRequest(PodId(i)))
                if (amount > 0)
                    extendedDimension.emplace(key, 0);
    std::size_t dims = kCoreResourceCount;
    for (auto& [key, d] : extendedDimension)
        d = dims++;
    const std::size_t podsDim = static_cast<std::size_t>(CoreResource::Pods);
    auto podVector = [&](PodId p) {
        std::vector<std::int64_t> v(dims, 0);
        const ResourceVector& r = store.podRequest(p);
        for (std::size_t i = 0; i < kCoreResourceCount; ++i)
            v[i] = std::max<std::int64_t>(0, r.amounts[i]);
        v[podsDim] = 1;
        for (const auto& [key, amount] : store.podExtendedRequest(p))
            if (auto it = extendedDimension.find(key); it != extendedDimension.end())
                v[it->second] += std::max<std::int64_t>(0, amount);
        return v;
    };

    // The label keys that decide where pods may go.
    std::unordered_set<std::uint32_t> labelKeys;
    bool byName = false;
    for (std::uint32_t i = 0; i < podCount; ++i) {
        if (!where[i].isValid())
            continue;
        const PodId p(i);
        for (const Label& l : store.podNodeSelector(p))
            labelKeys.insert(static_cast<std::uint32_t>(l.key.index()));
        addTermKeys(store.podRequiredAffinity(p), labelKeys, byName);
        for (const VolumeConstraint& v : store.podVolumes(p)) {
            for (const auto& [key, values] : v.zoneLabels)
                labelKeys.insert(static_cast<std::uint32_t>(key.index()));
            addTermKeys(v.nodeAffinity, labelKeys, byName);
        }
    }
    const StringId keepKey = options.keepWithinLabel.empty() ? StringId() : store.strings().find(options.keepWithinLabel);
    const bool keepWithin = !options.keepWithinLabel.empty();
    if (keepWithin)
        labelKeys.insert(static_cast<std::uint32_t>(keepKey.index()));
    std::vector<std::uint32_t> sortedKeys(labelKeys.begin(), labelKeys.end());
    std::sort(sortedKeys.begin(), sortedKeys.end());

    // Node classes.
    std::vector<NodeClass> nodeClasses;
    std::vector<std::int32_t> nodeClassOf(nodeCount, -1);
    std::unordered_map<std::string, std::uint32_t> nodeClassIndex;
    std::string key;
    for (std::uint32_t i = 0; i < nodeCount; ++i) {
        const NodeId n(i);
        if (store.nodeIsDeleted(n))
            continue;
        key.clear();
        append(key, store.nodeAllocatable(n).amounts);
        for (const auto& [k, amount] : store.nodeExtendedAllocatable(n)) {
            append(key, k);
            append(key, amount);
        }
        appendText(key, store.nodeGpuModel(n));
        for (const Taint& t : store.nodeTaints(n)) { // field by field: the struct has padding
            append(key, t.key);
            append(key, t.value);
            append(key, t.effect);
        }
        append(key, store.nodeUnschedulable(n));
        append(key, store.nodeReadiness(n));
        for (const std::uint32_t k : sortedKeys)
            append(key, store.nodeLabel(n, StringId(k)));
        if (byName)
            appendText(key, store.nodeName(n));
        auto [it, added] = nodeClassIndex.try_emplace(key, static_cast<std::uint32_t>(nodeClasses.size()));
        if (added) {
            NodeClass c;
            c.first = n;
            c.capacity.assign(dims, 0);
            c.leastStays.assign(dims, -1);
            c.mostHeld.assign(dims, 0);
            c.stuck.assign(dims, 0);
            const ResourceVector& a = store.nodeAllocatable(n);
            for (std::size_t d = 0; d < kCoreResourceCount; ++d)
                c.capacity[d] = std::max<std::int64_t>(0, a.amounts[d]);
            for (const auto& [k, amount] : store.nodeExtendedAllocatable(n))
                if (auto e = extendedDimension.find(k); e != extendedDimension.end())
                    c.capacity[e->second] = std::max<std::int64_t>(0, amount);
            nodeClasses.push_back(std::move(c));
        }
        nodeClassOf[i] = static_cast<std::int32_t>(it->second);
        ++nodeClasses[it->second].count;
    }

    // Per node: what stays with it, what it holds, whether it is pinned.
    std::vector<std::vector<std::int64_t>> staysOn(nodeCount), heldOn(nodeCount), stuckOn(nodeCount);
    std::vector<std::uint8_t> pinned(nodeCount, 0);
    std::vector<std::uint8_t> movable(podCount, 0);
    for (std::uint32_t i = 0; i < nodeCount; ++i)
        if (nodeClassOf[i] >= 0 && isPrepaid(nodeCapacityType(store, NodeId(i))))
            pinned[i] = 1;
    const PlanLedger state(store);
    for (std::uint32_t i = 0; i < podCount; ++i) {
        const NodeId n = where[i];
        if (!n.isValid() || nodeClassOf[n.index()] < 0)
            continue;
        const PodId p(i);
        const std::vector<std::int64_t> v = podVector(p);
        auto add = [&](std::vector<std::vector<std::int64_t>>& column) {
            std::vector<std::int64_t>& sum = column[n.index()];
            if (sum.empty())
                sum.assign(dims, 0);
            for (std::size_t d = 0; d < dims; ++d)
                sum[d] += v[d];
        };
        add(heldOn);
        if (staysOnDrainedNode(store, p)) {
            add(staysOn);
        } else if (!checkEviction(store, p).blockers.empty()) {
            pinned[n.index()] = 1;
            add(stuckOn);
        } else {
            movable[i] = 1;
        }
    }
    for (std::uint32_t i = 0; i < nodeCount; ++i) {
        if (nodeClassOf[i] < 0)
            continue;
        NodeClass& c = nodeClasses[static_cast<std::size_t>(nodeClassOf[i])];
        for (std::size_t d = 0; d < dims; ++d) {
            const std::int64_t stays = staysOn[i].empty() ? 0 : staysOn[i][d];
            c.leastStays[d] = c.leastStays[d] < 0 ? stays : std::min(c.leastStays[d], stays);
            if (!heldOn[i].empty())
                c.mostHeld[d] = std::max(c.mostHeld[d], heldOn[i][d]);
        }
    }

    // Pod classes, with eligibility judged once per signature on each node class's first node.
    std::vector<PodClass> podClasses;
    std::unordered_map<std::string, std::uint32_t> podClassIndex;
    // A pod that can never move (PodFeasibility::immovable(): its drain fails) tells nothing of
    // the filters: it may go anywhere in the relaxation, and its signature is judged again on
    // the next pod.
    std::vector<std::uint32_t> everyClass(nodeClasses.size());
    for (std::uint32_t c = 0; c < nodeClasses.size(); ++c)
        everyClass[c] = c;
    auto eligibleFor = [&](PodId p, bool& judged) {
        std::vector<std::uint32_t> out;
        const PodFeasibility feasibility(state, p);
        judged = !feasibility.immovable();
        if (!judged)
            return out;
        for (std::uint32_t c = 0; c < nodeClasses.size(); ++c) {
            const NodeId rep = nodeClasses[c].first;
            bool ok = feasibility.feasible(rep);
            if (!ok) {
                const Verdict v = feasibility.verdict(rep);
                ok = std::none_of(v.reasons.begin(), v.reasons.end(), [](const Reason& r) { return staticReason(r.kind); });
            }
            if (ok)
                out.push_back(c);
        }
        return out;
    };
    // The static filters read only the pod's tolerations, nodeSelector, required node affinity
    // and volumes (and the node): pods that share them share their eligible node classes.
    std::unordered_map<std::string, std::vector<std::uint32_t>> eligibleBySignature;
    std::unordered_map<std::string, std::uint32_t> baseIndex; // base class -> its eligibility's signature slot
    std::vector<const std::vector<std::uint32_t>*> baseEligible;
    std::string signature;
    std::size_t movablePods = 0;
    for (std::uint32_t i = 0; i < podCount; ++i) {
        if (!movable[i])
            continue;
        const PodId p(i);
        const NodeId n = where[i];
        const std::uint32_t own = static_cast<std::uint32_t>(nodeClassOf[n.index()]);
        signature.clear();
        append(signature, reinterpret_cast<std::uintptr_t>(store.podTolerations(p).data()));
        append(signature, store.podTolerations(p).size());
        append(signature, reinterpret_cast<std::uintptr_t>(store.podNodeSelector(p).data()));
        append(signature, store.podNodeSelector(p).size());
        append(signature, reinterpret_cast<std::uintptr_t>(store.podRequiredAffinity(p).data()));
        append(signature, store.podRequiredAffinity(p).size());
        for (const VolumeConstraint& v : store.podVolumes(p)) {
            for (const auto& [k, values] : v.zoneLabels) {
                append(signature, k);
                append(signature, values.size());
                for (const StringId value : values)
                    append(signature, value);
            }
            append(signature, v.nodeAffinity.size());
            for (const NodeSelectorTerm& t : v.nodeAffinity)
                for (const NodeSelectorRequirement& r : t.requirements) {
                    append(signature, r.key);
                    append(signature, r.op);
                    append(signature, r.matchField);
                    append(signature, r.values.size());
                    for (const StringId value : r.values)
                        append(signature, value);
                }
        }
        key.clear();
        append(key, store.podRequest(p).amounts);
        for (const auto& [k, amount] : store.podExtendedRequest(p)) {
            append(key, k);
            append(key, amount);
        }
        append(key, store.podGpuShareMilli(p));
        key += signature;
        auto [b, baseAdded] = baseIndex.try_emplace(key, static_cast<std::uint32_t>(baseEligible.size()));
        if (baseAdded) {
            auto e = eligibleBySignature.find(signature);
            if (e == eligibleBySignature.end()) {
                bool judged = false;
                std::vector<std::uint32_t> eligible = eligibleFor(p, judged);
                if (judged)
                    e = eligibleBySignature.emplace(signature, std::move(eligible)).first;
            }
            baseEligible.push_back(e == eligibleBySignature.end() ? &everyClass : &e->second);
        }
        const std::vector<std::uint32_t>& base = *baseEligible[b->second];
        const bool ownEligible = std::binary_search(base.begin(), base.end(), own);
        // The final class: the base class, with the pod's own node class when the filters would
        // not send it there, and with its keep-within value.
        append(key, b->second);
        if (!ownEligible)
            append(key, own);
        const StringId keepValue = keepWithin ? store.nodeLabel(n, keepKey) : StringId();
        if (keepWithin)
            append(key, keepValue);
        auto [it, added] = podClassIndex.try_emplace(key, static_cast<std::uint32_t>(podClasses.size()));
        if (added) {
            PodClass k;
            k.first = p;
            k.request = podVector(p);
            for (const std::uint32_t c : base)
                if (!keepWithin || store.nodeLabel(nodeClasses[c].first, keepKey) == keepValue)
                    k.eligible.push_back(c);
            if (!ownEligible)
                k.eligible.insert(std::lower_bound(k.eligible.begin(), k.eligible.end(), own), own);
            podClasses.push_back(std::move(k));
        }
        ++podClasses[it->second].count;
        ++movablePods;
    }

    // Pinned counts and what stuck pods take on each class.
    std::size_t pinnedNodes = 0;
    for (std::uint32_t i = 0; i < nodeCount; ++i) {
        if (nodeClassOf[i] < 0 || !pinned[i])
            continue;
        NodeClass& c = nodeClasses[static_cast<std::size_t>(nodeClassOf[i])];
        ++c.pinned;
        ++pinnedNodes;
        if (!stuckOn[i].empty())
            for (std::size_t d = 0; d < dims; ++d)
                c.stuck[d] += stuckOn[i][d];
    }

    // The program.
    LinearProgram lp;
    const bool integer = options.integer;
    std::vector<std::int32_t> yColumn(nodeClasses.size());
    for (std::size_t c = 0; c < nodeClasses.size(); ++c)
        yColumn[c] = lp.addColumn(static_cast<double>(nodeClasses[c].pinned), static_cast<double>(nodeClasses[c].count), 1.0, integer);
    // Capacity rows, per class and dimension some pod (or stuck pod) of the class uses.
    std::vector<std::vector<std::int32_t>> capacityRow(nodeClasses.size(), std::vector<std::int32_t>(dims, -1));
    auto rowFor = [&](std::size_t c, std::size_t d) {
        std::int32_t& row = capacityRow[c][d];
        if (row < 0) {
            const NodeClass& nc = nodeClasses[c];
            const std::int64_t capacity = std::max(nc.capacity[d] - std::max<std::int64_t>(0, nc.leastStays[d]), nc.mostHeld[d]);
            // sum request x - capacity y <= -stuck
            row = lp.addRow(-LinearProgram::kInfinity, -static_cast<double>(nc.stuck[d]));
            lp.entries.push_back({ row, yColumn[c], -static_cast<double>(capacity) });
        }
        return row;
    };
    for (const PodClass& k : podClasses) {
        const std::int32_t demand = lp.addRow(static_cast<double>(k.count), static_cast<double>(k.count));
        for (const std::uint32_t c : k.eligible) {
            const std::int32_t x = lp.addColumn(0.0, static_cast<double>(k.count), 0.0, integer);
            lp.entries.push_back({ demand, x, 1.0 });
            for (std::size_t d = 0; d < dims; ++d)
                if (k.request[d] > 0)
                    lp.entries.push_back({ rowFor(c, d), x, static_cast<double>(k.request[d]) });
        }
    }
    // Scale each capacity row to the class's capacity (memory in bytes would otherwise span
    // twelve orders of magnitude against the pod count's ones).
    {
        std::vector<double> scale(lp.rowCount(), 1.0);
        for (std::size_t c = 0; c < nodeClasses.size(); ++c)
            for (std::size_t d = 0; d < dims; ++d)
                if (const std::int32_t row = capacityRow[c][d]; row >= 0) {
                    const NodeClass& nc = nodeClasses[c];
                    const double capacity = static_cast<double>(std::max(nc.capacity[d] - std::max<std::int64_t>(0, nc.leastStays[d]), nc.mostHeld[d]));
                    scale[static_cast<std::size_t>(row)] = capacity > 0 ? 1.0 / capacity : 1.0;
                }
        for (LinearProgram::Entry& e : lp.entries)
            e.value *= scale[static_cast<std::size_t>(e.row)];
        for (std::size_t r = 0; r < lp.rowCount(); ++r) {
            if (std::isfinite(lp.rowLower[r]))
                lp.rowLower[r] *= scale[r];
            if (std::isfinite(lp.rowUpper[r]))
                lp.rowUpper[r] *= scale[r];
        }
    }
    if (counts) {
        counts->nodeClasses = nodeClasses.size();
        counts->podClasses = podClasses.size();
        counts->pinnedNodes = pinnedNodes;
        counts->movablePods = movablePods;
        counts->columns = lp.columnCount();
        counts->rows = lp.rowCount();
    }
    return lp;
}

PackingBound packingLowerBound(const ClusterStore& store, std::span<const std::pair<PodId, NodeId>> placedFirst,
    const PackingRelaxationOptions& options, const LinearProgramSolver& solve)
{
    const auto t0 = std::chrono::steady_clock::now();
    PackingBound b;
    const LinearProgram lp = packingRelaxation(store, placedFirst, options, &b);
    b.buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    LinearProgramLimits limits;
    limits.timeLimitSeconds = options.timeLimitSeconds;
    const LinearProgramSolution s = solve(lp, limits);
    b.solveSeconds = s.seconds;
    switch (s.status) {
    case LinearProgramSolution::Status::Optimal: b.status = "optimal"; break;
    case LinearProgramSolution::Status::TimeLimit: b.status = "time-limit"; break;
    case LinearProgramSolution::Status::Infeasible: b.status = "infeasible"; break;
    case LinearProgramSolution::Status::Failed: b.status = "failed: " + s.message; break;
    }
    if (std::isfinite(s.provenLowerBound)) {
        b.valid = true;
        b.objective = s.provenLowerBound;
        // The solvers' tolerances: an optimum of 303.0000001 is 303 nodes.
        b.nodes = static_cast<std::int64_t>(std::ceil(s.provenLowerBound - 1e-6));
    }
    return b;
}

} // namespace fleet::model
