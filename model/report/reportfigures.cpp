// SPDX-License-Identifier: Apache-2.0
#include "reportfigures.h"

#include "model/metrics/builtinmetrics.h"
#include "model/placement/fgdpolicy.h"
#include "model/plan/disruptionbudgets.h"
#include "model/plan/evictionrules.h"
#include "model/pricing/pricetable.h"
#include "model/search/keptgroups.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace fleet::model {

namespace {

void copyTotals(FleetFigures& f, const PlanTotals& t)
{
    f.nodes = t.nodes;
    f.nodesInUse = t.nodesInUse;
    f.nodesEmpty = t.nodesEmpty;
    f.gpus = t.gpus;
    f.gpuMilliAllocated = t.gpuMilliAllocated;
    f.gpuAllocatedShare = t.gpus > 0 ? static_cast<double>(t.gpuMilliAllocated) / (static_cast<double>(t.gpus) * 1000.0)
                                     : std::numeric_limits<double>::quiet_NaN();
    f.podsWithoutNode = t.podsUnplaced;
    f.podsRemovedWithNodes = t.podsRemovedWithNodes;
    f.podsPlaced = t.podsPlaced;
    f.costPerHour = t.costPerHour;
}

// The loaded fragmentation of each store node (NaN where the metric has none).
std::vector<double> loadedFragmentation(const MetricContext& context)
{
    const ClusterStore& store = context.store();
    std::vector<double> out(store.nodeCount(), std::numeric_limits<double>::quiet_NaN());
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
        out[i] = gpuFragmentation(context, NodeId(i));
    return out;
}

} // namespace

double loadedFragmentedGpus(const MetricContext& context)
{
    double fragmented = 0;
    bool any = false;
    for (const double v : loadedFragmentation(context))
        if (!std::isnan(v)) {
            fragmented += v;
            any = true;
        }
    return any ? fragmented : std::numeric_limits<double>::quiet_NaN();
}

std::int64_t idleAllocatedGpus(const ClusterUsage* usage)
{
    return usage && usage->allocatedGpusMeasured > 0 ? usage->idleAllocatedGpuTotal() : -1;
}

FleetFigures figuresBefore(const PlanLedger& state, const MetricContext& context, const ClusterUsage* usage)
{
    FleetFigures f;
    copyTotals(f, state.totalsBefore());
    const ClusterStore& store = context.store();
    f.pendingPods = static_cast<std::int64_t>(store.counts().podsPending);
    f.fragmentedGpus = loadedFragmentedGpus(context);
    f.idleAllocatedGpus = idleAllocatedGpus(usage);
    return f;
}

std::int64_t terminatingPodsRemovedWithNodes(const ClusterStore& store, const PlanLedger& state) noexcept
{
    std::int64_t n = 0;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const PodId p(i);
        if (!(store.podFlags(p) & PodFlagTerminating) || !store.podIsCounted(p))
            continue;
        const NodeId at = store.podNode(p);
        if (at.isValid() && state.podNode(p) == at && !state.nodePresent(at))
            ++n;
    }
    return n;
}

FleetFigures figuresAfter(const PlanLedger& state, const MetricContext& context, const ClusterUsage* usage)
{
    FleetFigures f;
    copyTotals(f, state.totals());
    const ClusterStore& store = context.store();
    f.terminatingRemovedWithNodes = terminatingPodsRemovedWithNodes(store, state);
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const PodId p(i);
        if (store.podIsPending(p) && !state.podNode(p).isValid())
            ++f.pendingPods;
    }
    // FGD over the ledger, on the nodes whose GPUs the loaded metric tracks (their template's,
    // for an added node), so that an empty plan gives the loaded figure.
    const std::vector<double> loaded = loadedFragmentation(context);
    const std::vector<TypicalPod>& typical = context.gpuTypicalPods();
    if (!typical.empty()) {
        placement::FgdPolicy fgd(typical, placement::FgdPolicy::Precision::Paper, 1.0);
        double fragmented = 0;
        bool any = false;
        for (std::uint32_t i = 0; i < state.nodeCount(); ++i) {
            const NodeId n(i);
            const NodeId t = state.nodeTemplate(n);
            if (!state.nodePresent(n) || !t.isValid() || t.index() >= loaded.size() || std::isnan(loaded[t.index()]))
                continue;
            fragmented += fgd.fragmentation(state, n) / 1000.0;
            any = true;
        }
        if (any)
            f.fragmentedGpus = fragmented;
    }
    f.idleAllocatedGpus = idleAllocatedGpus(usage);
    return f;
}

PlanRisks planRisks(const ClusterStore& store, const std::vector<AppliedAction>& applied)
{
    PlanRisks risks;
    const DisruptionBudgets budgets(store);
    std::vector<std::int32_t> spent(budgets.count(), 0);
    std::unordered_set<std::uint32_t> gangs;
    for (const AppliedAction& a : applied) {
        const bool failure = a.action.type == ActionType::FailNode || a.action.type == ActionType::FailDomain;
        for (const AppliedAction::PodChange& c : a.changes) {
            if (!c.from.isValid() || c.pod.index() >= store.podCount())
                continue; // a pending pod placed, or a pod the plan added: no eviction
            if (failure) {
                // A failure evicts no one: budgets and do-not-disrupt do not apply (plan-v1).
                risks.podsReplaced += c.to.isValid() ? 1 : 0;
                continue;
            }
            const PodId p = c.pod;
            for (const std::uint32_t b : budgets.guarding(p))
                ++spent[b];
            if ((store.podFlags(p) & PodFlagDoNotDisrupt) != 0) {
                ++risks.doNotDisruptPods;
                if (risks.doNotDisruptExamples.size() < 5)
                    risks.doNotDisruptExamples.push_back(podKey(store, p));
            }
            if (isGangPod(store, p)) {
                ++risks.gangPodsMoved;
                const WorkloadId w = store.podWorkload(p);
                if (w.isValid() && gangs.insert(w.index()).second && risks.gangExamples.size() < 5)
                    risks.gangExamples.push_back(std::string(store.workloadNamespace(w)) + "/" + std::string(store.workloadName(w)));
            }
        }
        if (a.action.type == ActionType::DrainNode)
            risks.nodesCordoned += static_cast<std::int64_t>(a.nodesRemoved.size());
        if (failure) {
            risks.nodesFailed += static_cast<std::int64_t>(a.nodesRemoved.size());
            risks.podsStranded += static_cast<std::int64_t>(a.unplaced.size());
            for (const NodeId n : a.nodesRemoved)
                if (n.index() < store.nodeCount())
                    risks.gpuMilliLost += store.nodeAllocatable(n)[CoreResource::Gpu];
            ++risks.failureActions;
        }
    }
    risks.gangsMoved = static_cast<std::int64_t>(gangs.size());
    const auto all = store.disruptionBudgets();
    for (std::size_t b = 0; b < spent.size(); ++b)
        if (spent[b] > 0)
            risks.budgets.push_back({ std::string(store.str(all[b].namespaceName)) + "/" + std::string(store.str(all[b].name)), spent[b],
                budgets.status(b).disruptionsAllowed });
    std::stable_sort(risks.budgets.begin(), risks.budgets.end(), [](const auto& a, const auto& b) { return a.spent > b.spent; });
    return risks;
}

std::vector<StayReason> whyNodesStay(
    const PlanLedger& state, const std::vector<AppliedAction>& applied, const MetricContext& context, std::size_t examplesPerCode)
{
    const ClusterStore& store = state.store();
    // The reason of an action on a node that did not hold (a drain refused, a move there
    // refused), by node.
    std::unordered_map<std::uint32_t, const Reason*> refused;
    // Per node: bit 1 when it receives a pod moved from another node, bit 2 a pending pod placed
    // (it had no node to move from: "placed", never "moved").
    std::vector<std::uint8_t> destination(store.nodeCount(), 0);
    for (const AppliedAction& a : applied) {
        for (const AppliedAction::PodChange& c : a.changes)
            if (c.to.isValid() && c.to.index() < destination.size())
                destination[c.to.index()] |= c.from.isValid() ? 1 : 2;
        if (a.holds || a.reasons.empty() || a.action.node.empty() || a.action.type == ActionType::MovePod)
            continue;
        const NodeId n = store.findNode(a.action.node);
        if (n.isValid())
            refused.emplace(n.index(), &a.reasons.front());
    }
    std::map<std::string, StayReason> groups;
    auto add = [&](const std::string& code, NodeId n, const std::string& message) {
        StayReason& g = groups[code];
        g.code = code;
        ++g.nodes;
        if (g.examples.size() < examplesPerCode)
            g.examples.emplace_back(std::string(store.nodeName(n)), message);
    };
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const NodeId n(i);
        if (!state.nodePresent(n))
            continue;
        if (const auto it = refused.find(i); it != refused.end()) {
            add(keptGroupCode(*it->second), n, it->second->message);
            continue;
        }
        // A pod whose eviction is refused before prepaid capacity, as the consolidation's
        // search judges them (DrainRunner), so that a node counts in the same group.
        bool found = false;
        for (const PodId p : store.nodePods(n)) {
            if (state.podNode(p) != n)
                continue;
            EvictionCheck check = checkEviction(store, p);
            if (!check.blockers.empty()) {
                add(keptGroupCode(check.blockers.front()), n, check.blockers.front().message);
                found = true;
                break;
            }
        }
        if (found)
            continue;
        if (context.nodeCapacity(n) == CapacityType::Reserved) {
            add("prepaid", n, "prepaid capacity (reserved or a capacity block) saves nothing when emptied");
            continue;
        }
        if (destination[i] == 1)
            add("destination", n, "receives pods the plan moves");
        else if (destination[i] == 2)
            add("destination", n, "receives pending pods the plan places");
        else if (destination[i] == 3)
            add("destination", n, "receives pods the plan moves and pending pods it places");
        else
            add("not-in-plan", n, "the plan does not drain it");
    }
    std::vector<StayReason> out;
    out.reserve(groups.size());
    for (auto& [code, g] : groups)
        out.push_back(std::move(g));
    std::stable_sort(out.begin(), out.end(), [](const StayReason& a, const StayReason& b) { return a.nodes > b.nodes; });
    return out;
}

std::vector<DomainWaste> gpuWasteByDomain(const Topology& topology, const MetricContext& context, const ClusterUsage* usage, std::size_t limit)
{
    const ClusterStore& store = context.store();
    std::unordered_map<std::uint32_t, DomainWaste> byDomain;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const NodeId n(i);
        const std::int64_t gpuMilli = store.nodeAllocatable(n)[CoreResource::Gpu];
        if (gpuMilli <= 0)
            continue;
        const DomainId d = topology.nodeDomain(n);
        DomainWaste& w = byDomain[d.index()];
        w.domain = d;
        ++w.nodes;
        w.gpus += gpuMilli / 1000;
        const double frag = gpuFragmentation(context, n);
        if (!std::isnan(frag))
            w.fragmentedGpus += frag;
        w.unallocatedGpus += std::max<std::int64_t>(0, gpuMilli - store.nodeRequested(n)[CoreResource::Gpu]) / 1000;
        if (usage && i < usage->idleAllocatedGpus.size() && usage->idleAllocatedGpus[i] >= 0)
            w.idleAllocatedGpus = std::max<std::int64_t>(0, w.idleAllocatedGpus) + usage->idleAllocatedGpus[i];
    }
    std::vector<DomainWaste> out;
    for (auto& [id, w] : byDomain)
        if (w.fragmentedGpus > 0 || w.idleAllocatedGpus > 0)
            out.push_back(w);
    auto waste = [](const DomainWaste& w) { return w.fragmentedGpus + static_cast<double>(std::max<std::int64_t>(0, w.idleAllocatedGpus)); };
    std::sort(out.begin(), out.end(), [&](const DomainWaste& a, const DomainWaste& b) {
        return waste(a) != waste(b) ? waste(a) > waste(b) : a.domain.index() < b.domain.index();
    });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

std::vector<DomainChange> domainsChangedMost(const ClusterStore& store, const Topology& topology,
    const std::vector<AppliedAction>& applied, std::size_t limit, std::size_t maxNodes)
{
    // The largest domain of each level; the level the maps zoom to.
    int deepest = 0;
    std::vector<std::size_t> largest;
    for (std::uint32_t i = 0; i < topology.domainCount(); ++i) {
        const DomainId d(i);
        const auto level = static_cast<std::size_t>(topology.domainLevel(d));
        if (largest.size() <= level)
            largest.resize(level + 1, 0);
        largest[level] = std::max(largest[level], topology.domainNodes(d).size());
        deepest = std::max(deepest, topology.domainLevel(d));
    }
    int level = deepest;
    for (int l = 1; l <= deepest; ++l)
        if (largest[static_cast<std::size_t>(l)] <= maxNodes && largest[static_cast<std::size_t>(l)] < store.nodeCount()) {
            level = l;
            break;
        }
    if (level <= 0)
        return {};
    auto domainAt = [&](NodeId n) {
        if (!n.isValid() || n.index() >= store.nodeCount())
            return DomainId(); // a node the plan added has no domain of the loaded state
        DomainId d = topology.nodeDomain(n);
        while (d.isValid() && topology.domainLevel(d) > level)
            d = topology.domainParent(d);
        return d.isValid() && topology.domainLevel(d) == level ? d : DomainId();
    };
    std::unordered_map<std::uint32_t, DomainChange> changes;
    for (const AppliedAction& a : applied) {
        for (const NodeId n : a.nodesRemoved)
            if (const DomainId d = domainAt(n); d.isValid())
                ++changes[d.index()].nodesFreed;
        for (const AppliedAction::PodChange& c : a.changes) {
            if (const DomainId d = domainAt(c.from); d.isValid())
                ++changes[d.index()].podsMoved;
            else if (const DomainId to = domainAt(c.to); !c.from.isValid() && to.isValid())
                // A pending pod of the loaded state given a node here, or a pod the plan adds.
                ++(c.pod.index() < store.podCount() ? changes[to.index()].pendingPlaced : changes[to.index()].podsAdded);
        }
    }
    std::vector<DomainChange> out;
    out.reserve(changes.size());
    for (auto& [index, change] : changes) {
        change.domain = DomainId(index);
        change.nodes = static_cast<std::int64_t>(topology.domainNodes(change.domain).size());
        out.push_back(change);
    }
    std::sort(out.begin(), out.end(), [](const DomainChange& x, const DomainChange& y) {
        if (x.nodesFreed != y.nodesFreed)
            return x.nodesFreed > y.nodesFreed;
        if (x.podsMoved != y.podsMoved)
            return x.podsMoved > y.podsMoved;
        if (x.pendingPlaced + x.podsAdded != y.pendingPlaced + y.podsAdded)
            return x.pendingPlaced + x.podsAdded > y.pendingPlaced + y.podsAdded;
        return x.domain.index() < y.domain.index();
    });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

} // namespace fleet::model
