// SPDX-License-Identifier: Apache-2.0
// DrainRunner: the drains both consolidations share (consolidation_p.h).
#include "consolidation_p.h"

#include "model/placement/drainpolicy.h"

#include "model/domainpath.h"
#include "model/figures.h"
#include "model/resourceamount.h"
#include "model/pricing/pricetable.h"
#include "model/plan/disruptionbudgets.h"
#include "model/plan/evictionrules.h"
#include "model/scheduling/gpuresourcename.h"
#include "model/topology.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <unordered_map>

namespace fleet::model::consolidation_detail {

namespace {

constexpr CoreResource kAxisResource[] = { CoreResource::Cpu, CoreResource::Memory, CoreResource::Gpu };

/// The text after the pod's key in a reason message (" needs ...", ": no node ...").
std::string stemAfter(const std::string& message, const std::string& key)
{
    return message.starts_with(key) ? message.substr(key.size()) : ": " + message;
}

} // namespace

DrainRunner::DrainRunner(const ClusterStore& store, const Topology& topology, const ConsolidationInput& input, const ConsolidationOptions& options)
    : m_store(store)
    , m_options(options)
    , m_engine(store, topology, input.nodePricePerHour)
    , m_start(std::chrono::steady_clock::now())
    , m_groups(input.groupMinimums)
    , m_policy(options.policy == "default" ? std::string() : options.policy)
{
    if (!isDrainPolicy(m_policy))
        throw std::invalid_argument("unknown drain policy \"" + m_policy + "\" (known: " + knownDrainPolicies() + ")");
    if (!options.keepWithinLabel.empty()) {
        const int levels = static_cast<int>(topology.levelKeys().size());
        int level = 0;
        std::string known;
        for (int l = 1; l <= levels; ++l) {
            const std::string key = levelUserKey(topology, l);
            if (key == options.keepWithinLabel)
                level = l;
            known += (known.empty() ? "" : ", ") + key;
        }
        if (level == 0)
            throw std::invalid_argument("keep-within: \"" + options.keepWithinLabel + "\" is not a topology level (levels: " + known + ")");
        std::unordered_map<std::uint32_t, std::string> pathOf;
        m_keepWithin.resize(store.nodeCount());
        m_keepWithinId.assign(store.nodeCount(), 0);
        for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
            DomainId d = topology.nodeDomain(NodeId(i));
            while (d.isValid() && topology.domainLevel(d) > level)
                d = topology.domainParent(d);
            if (!d.isValid())
                continue;
            auto [it, added] = pathOf.try_emplace(static_cast<std::uint32_t>(d.index()));
            if (added)
                it->second = domainPathText(topology, d);
            m_keepWithin[i] = it->second;
            m_keepWithinId[i] = static_cast<std::uint32_t>(d.index());
        }
    }
    for (const PlanAction& a : options.startFrom)
        m_engine.apply(a);
    m_pendingBase = m_engine.applied().size();
    if (options.placePendingFirst)
        placePending();
    m_base = m_engine.applied().size();
    const PlanLedger& state = m_engine.state();
    const std::size_t nodes = store.nodeCount();
    m_price.assign(nodes, 0.0);
    m_unpriced.assign(nodes, 0);
    m_movable.assign(nodes, 0);
    m_load.assign(nodes, 0.0);
    m_disruptionCost.assign(nodes, 0.0);
    m_kept.assign(nodes, std::nullopt);
    std::vector<ResourceVector> movableRequest(nodes);
    std::vector<std::uint8_t> blocked(nodes, 0);
    // The first pod pending in the loaded state that the plan placed on a node and a drain would
    // not move (an eviction rule refuses it once it runs there). It keeps its node out of the
    // candidates as the engine's drain would, but it is no reason the node stays: the plan put
    // it there. The node's reason (below, once every node is tracked): the room its pods need
    // where they fit nowhere else, else that it receives pending pods the plan places.
    std::vector<PodId> placedPending(nodes);
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const PodId p(i);
        const NodeId n = state.podNode(p); // after the plan so far and the pending pods placed
        if (!n.isValid() || !movesWithDrain(store, p))
            continue;
        ++m_movable[n.index()];
        movableRequest[n.index()] += store.podRequest(p);
        m_disruptionCost[n.index()] += std::clamp(1.0 + static_cast<double>(store.podPriority(p)) / 33554432.0, -10.0, 10.0);
        if (blocked[n.index()])
            continue;
        EvictionCheck ec = checkEviction(store, p);
        if (!ec.blockers.empty() && store.podIsPending(p)) {
            if (!placedPending[n.index()].isValid())
                placedPending[n.index()] = p;
            continue;
        }
        if (!ec.blockers.empty()) {
            blocked[n.index()] = 1;
            m_kept[n.index()] = KeptNode { n, p, std::move(ec.blockers.front()), {} };
        }
    }
    m_nodeGroups.assign(nodes, {});
    m_groupPresent.assign(m_groups.size(), 0);
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        const StringId key = store.strings().find(m_groups[g].labelKey);
        if (!key.isValid())
            continue;
        for (std::uint32_t i = 0; i < nodes; ++i)
            if (store.str(store.nodeLabel(NodeId(i), key)) == m_groups[g].value) {
                m_nodeGroups[i].push_back(static_cast<std::uint32_t>(g));
                ++m_groupPresent[g];
            }
    }
    m_tracked.assign(nodes, 0);
    for (auto& v : m_freeKey)
        v.assign(nodes, 0);
    for (std::uint32_t i = 0; i < nodes; ++i) {
        const NodeId n(i);
        track(n);
        if (!state.nodePresent(n))
            continue;
        const ResourceVector& alloc = state.nodeAllocatable(n);
        for (int a = 0; a < AxisCount; ++a) {
            const std::int64_t total = alloc[kAxisResource[a]];
            if (total > 0)
                m_load[i] = std::max(m_load[i], static_cast<double>(movableRequest[i][kAxisResource[a]]) / static_cast<double>(total));
        }
        const bool prepaid = isPrepaid(nodeCapacityType(store, n));
        if (prepaid && !blocked[i])
            m_kept[i] = KeptNode { n, {}, makeReason(ReasonKind::PrepaidNode, {},
                std::string(store.nodeName(n)) + " is prepaid (a capacity block or reservation): emptying it saves nothing, so it stays as a destination"), {} };
        if (!prepaid && i < input.nodePricePerHour.size())
            m_price[i] = input.nodePricePerHour[i];
        if (!prepaid && !(m_price[i] > 0))
            m_unpriced[i] = 1;
        if (!prepaid && !blocked[i] && !placedPending[i].isValid())
            m_candidates.push_back(n);
    }
    for (std::uint32_t i = 0; i < nodes; ++i) {
        const NodeId n(i);
        if (!placedPending[i].isValid() || blocked[i] || m_kept[i] || !state.nodePresent(n))
            continue;
        if (auto r = cheapRefusal(n, movablePodsNow(n)))
            m_kept[i] = KeptNode { n, r->pod, std::move(r->reason), std::move(r->blocking) };
        else {
            std::int64_t placed = 0;
            for (const PodId p : state.nodePods(n))
                placed += store.podIsPending(p) ? 1 : 0;
            m_kept[i] = KeptNode { n, placedPending[i], makeReason(ReasonKind::Unsupported, "planned-pod",
                "receives " + formatCount(placed) + (placed == 1 ? " pending pod" : " pending pods")
                    + " this plan places (" + podKey(store, placedPending[i])
                    + (placed > 1 ? " and others" : "") + "; the pending pods first, in the room the drains keep): a drain does not move them again"), {} };
        }
    }
    estimatePrices();
    measureBudgetShares();
    m_keptInitial = m_kept;
    m_groupPresentInitial = m_groupPresent;
}

void DrainRunner::estimatePrices()
{
    // A node without a price is no free node: ranked at $0 it would be drained last and a plan
    // that frees it would lose to one that frees a cheaper priced node. It is ranked at what its
    // capacity costs on the priced nodes: the median $/h per GPU of the priced GPU nodes for a
    // GPU node, else the median $/h per cpu core of the priced nodes without GPUs (of all
    // priced nodes when none lacks GPUs). With no priced node, every node ranks at 0 as before.
    m_rankPrice = m_price;
    const PlanLedger& state = m_engine.state();
    std::vector<double> perGpu, perCore, perCoreAny;
    bool anyUnpriced = false;
    for (std::uint32_t i = 0; i < m_store.nodeCount(); ++i) {
        const NodeId n(i);
        if (!state.nodePresent(n))
            continue;
        anyUnpriced = anyUnpriced || m_unpriced[i];
        if (!(m_price[i] > 0))
            continue;
        const ResourceVector& alloc = state.nodeAllocatable(n);
        const double gpus = static_cast<double>(alloc[CoreResource::Gpu]), cores = static_cast<double>(alloc[CoreResource::Cpu]) / 1000.0;
        if (gpus > 0)
            perGpu.push_back(m_price[i] / gpus);
        else if (cores > 0)
            perCore.push_back(m_price[i] / cores);
        if (cores > 0)
            perCoreAny.push_back(m_price[i] / cores);
    }
    if (!anyUnpriced)
        return;
    auto median = [](std::vector<double>& v) {
        if (v.empty())
            return 0.0;
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    const double gpuRate = median(perGpu);
    const double coreRate = perCore.empty() ? median(perCoreAny) : median(perCore);
    for (std::uint32_t i = 0; i < m_store.nodeCount(); ++i) {
        if (!m_unpriced[i] || !state.nodePresent(NodeId(i)))
            continue;
        const ResourceVector& alloc = state.nodeAllocatable(NodeId(i));
        const double gpus = static_cast<double>(alloc[CoreResource::Gpu]), cores = static_cast<double>(alloc[CoreResource::Cpu]) / 1000.0;
        m_rankPrice[i] = gpus > 0 && gpuRate > 0 ? gpus * gpuRate : cores * coreRate;
    }
}

void DrainRunner::measureBudgetShares()
{
    const PlanLedger& state = m_engine.state();
    const DisruptionBudgets budgets(m_store);
    m_budgetShare.assign(m_store.nodeCount(), 0.0);
    if (budgets.count() == 0)
        return;
    auto movableOn = [&](PodId p) {
        const NodeId n = state.podNode(p);
        return n.isValid() && movesWithDrain(m_store, p) ? n : NodeId();
    };
    std::vector<std::int64_t> guarded(budgets.count(), 0);
    for (std::uint32_t i = 0; i < m_store.podCount(); ++i)
        if (movableOn(PodId(i)).isValid())
            for (const std::uint32_t b : budgets.guarding(PodId(i)))
                ++guarded[b];
    for (std::uint32_t i = 0; i < m_store.podCount(); ++i) {
        const NodeId n = movableOn(PodId(i));
        if (!n.isValid())
            continue;
        for (const std::uint32_t b : budgets.guarding(PodId(i))) {
            const std::int32_t allowed = budgets.status(b).disruptionsAllowed;
            if (guarded[b] > allowed)
                m_budgetShare[n.index()] += allowed > 0 ? 1.0 / allowed : 1.0;
        }
    }
}

void DrainRunner::placePending()
{
    const PlanLedger& state = m_engine.state();
    std::vector<PodId> pending;
    for (std::uint32_t i = 0; i < m_store.podCount(); ++i) {
        const PodId p(i);
        // A plan's template pod is no pod of the cluster: only its copies (placed by their
        // place-pods action) are.
        // A live cluster's deleted pod (a tombstone row) and a pod bound to a node the input
        // lacks wait for no node either.
        if (state.podNode(p).isValid() || m_store.podIsTerminal(p) || (m_store.podFlags(p) & PodFlagTemplate) || m_store.podIsDeleted(p)
            || m_store.podIsOnUnknownNode(p))
            continue;
        if (!m_store.podSchedulingGates(p).empty()) {
            ++m_pendingLeft; // not schedulable until its gates are removed
            continue;
        }
        pending.push_back(p);
    }
    sortPodsLargestFirst(m_store, pending);
    // A gang's pods, largest first, placed together when its first pod comes up.
    std::unordered_map<std::uint32_t, std::vector<PodId>> gangs;
    for (const PodId p : pending)
        if (isGangPod(m_store, p) && m_store.podWorkload(p).isValid())
            gangs[m_store.podWorkload(p).index()].push_back(p);
    auto placeOne = [&](PodId p) {
        const NodeId n = m_engine.chooseNode(p);
        if (!n.isValid())
            return false;
        PlanAction move;
        move.type = ActionType::MovePod;
        move.pod = podRef(m_store, p);
        move.node = std::string(state.nodeName(n));
        const std::size_t before = m_engine.applied().size();
        (void)m_engine.apply(move); // every filter again; refused: nothing applied
        if (m_engine.applied().size() == before)
            return false;
        m_pendingPlaced.push_back(std::move(move));
        m_pendingPods.emplace_back(p, n);
        return true;
    };
    for (const PodId p : pending) {
        if (state.podNode(p).isValid())
            continue; // placed with its gang
        const auto gang = isGangPod(m_store, p) && m_store.podWorkload(p).isValid() ? gangs.find(m_store.podWorkload(p).index()) : gangs.end();
        if (gang == gangs.end()) {
            if (!placeOne(p))
                ++m_pendingLeft;
            continue;
        }
        if (gang->second.empty())
            continue; // a member of a gang already tried (and left pending, counted then)
        const std::size_t mark = m_pendingPlaced.size();
        bool whole = true;
        for (const PodId q : gang->second)
            if (!(whole = placeOne(q)))
                break;
        if (!whole) { // all or none: undo the members placed
            while (m_pendingPlaced.size() > mark) {
                m_engine.undo();
                m_pendingPlaced.pop_back();
                m_pendingPods.pop_back();
            }
            m_pendingLeft += static_cast<std::int64_t>(gang->second.size());
        }
        gang->second.clear();
    }
}

std::int64_t DrainRunner::freeOf(NodeId n, Axis a) const noexcept
{
    const PlanLedger& s = m_engine.state();
    return s.nodeAllocatable(n)[kAxisResource[a]] - s.nodeRequested(n)[kAxisResource[a]];
}

void DrainRunner::track(NodeId n)
{
    const std::size_t i = n.index();
    if (m_tracked[i]) {
        for (int a = 0; a < AxisCount; ++a) {
            m_freeSets[a].erase(m_freeSets[a].find(m_freeKey[a][i]));
            m_totalFree[a] -= m_freeKey[a][i];
        }
        m_tracked[i] = 0;
    }
    if (!m_engine.state().nodePresent(n))
        return;
    for (int a = 0; a < AxisCount; ++a) {
        const std::int64_t f = std::max<std::int64_t>(0, freeOf(n, static_cast<Axis>(a)));
        m_freeKey[a][i] = f;
        m_freeSets[a].insert(f);
        m_totalFree[a] += f;
    }
    m_tracked[i] = 1;
}

std::int64_t DrainRunner::largestFreeExcept(Axis a, NodeId n) const noexcept
{
    const auto& set = m_freeSets[a];
    if (set.empty())
        return 0;
    auto top = std::prev(set.end());
    if (m_tracked[n.index()] && *top == m_freeKey[a][n.index()])
        return top == set.begin() ? 0 : *std::prev(top);
    return *top;
}

std::vector<PodId> DrainRunner::movablePodsNow(NodeId n) const
{
    std::vector<PodId> pods;
    for (const PodId p : m_engine.state().nodePods(n))
        if (movesWithDrain(m_store, p))
            pods.push_back(p);
    return pods;
}

std::optional<Reason> DrainRunner::groupRefusal(NodeId n) const
{
    for (const std::uint32_t g : m_nodeGroups[n.index()])
        if (m_groupPresent[g] <= m_groups[g].minNodes)
            return makeReason(ReasonKind::NodeGroupMinimum, m_groups[g].labelKey + "=" + m_groups[g].value,
                "node group " + m_groups[g].value + " (" + m_groups[g].labelKey + ") keeps its minimum of " + std::to_string(m_groups[g].minNodes)
                    + " nodes");
    return std::nullopt;
}

std::optional<DrainRunner::Refusal> DrainRunner::cheapRefusal(NodeId n, const std::vector<PodId>& pods) const
{
    std::array<std::int64_t, AxisCount> sum {};
    for (const PodId p : pods) {
        if (const WorkloadId w = m_store.podWorkload(p); w.isValid()) {
            if (auto it = m_failedWorkloads.find(failureKey(w, n)); it != m_failedWorkloads.end()) {
                Reason r = it->second.reason;
                r.message = podKey(m_store, p) + it->second.reason.message + " (found for " + podKey(m_store, it->second.pod) + ", of the same workload)";
                return Refusal { p, std::move(r), it->second.blocking };
            }
        }
        const ResourceVector& req = m_store.podRequest(p);
        for (const int a : { Gpu, Cpu, Memory }) {
            const CoreResource res = kAxisResource[a];
            sum[a] += req[res];
            const std::int64_t most = largestFreeExcept(static_cast<Axis>(a), n);
            if (req[res] > most)
                return Refusal { p, insufficient(p, n, res, most), {} };
        }
    }
    for (const int a : { Gpu, Cpu, Memory }) {
        const CoreResource res = kAxisResource[a];
        const std::int64_t others = m_totalFree[a] - (m_tracked[n.index()] ? m_freeKey[a][n.index()] : 0);
        if (sum[a] > others && isOnlyNode(n))
            return Refusal { PodId {}, makeReason(ReasonKind::NoOtherNode, {},
                "the pods of " + std::string(m_store.nodeName(n)) + " need " + formatAmount(res, sum[a]) + " " + resourceName(res, n)
                    + " in all; there is no other node (" + std::string(m_store.nodeName(n)) + " is the only node under the plan)"), {} };
        if (sum[a] > others)
            return Refusal { PodId {}, makeReason(ReasonKind::Insufficient, resourceName(res, n),
                "the pods of " + std::string(m_store.nodeName(n)) + " need " + formatAmount(res, sum[a]) + " " + resourceName(res, n)
                    + " in all; the other nodes have " + formatAmount(res, others) + " free"), {} };
    }
    return std::nullopt;
}

Reason DrainRunner::explainUnplaced(PodId p, NodeId from, const std::vector<Reason>& why) const
{
    const bool noNode = std::any_of(why.begin(), why.end(), [](const Reason& r) { return r.kind == ReasonKind::NoFeasibleNode; });
    if (noNode && from.isValid()) {
        const ResourceVector& req = m_store.podRequest(p);
        for (const int a : { Gpu, Cpu, Memory }) {
            const CoreResource res = kAxisResource[a];
            const std::int64_t most = largestFreeExcept(static_cast<Axis>(a), from);
            if (req[res] > 0 && req[res] > most)
                return insufficient(p, from, res, most);
        }
    }
    if (noNode && from.isValid() && isOnlyNode(from))
        return makeReason(ReasonKind::NoOtherNode, {},
            podKey(m_store, p) + " has no other node to go to (" + std::string(m_engine.state().nodeName(from)) + " is the only node under the plan)");
    return why.empty() ? makeReason(ReasonKind::NoFeasibleNode, {}, podKey(m_store, p) + ": no node passes every filter") : why.front();
}

std::string DrainRunner::resourceName(CoreResource r, NodeId n) const
{
    return r == CoreResource::Gpu ? gpuResourceName(m_engine.state(), n) : std::string(coreResourceName(r));
}

Reason DrainRunner::insufficient(PodId p, NodeId n, CoreResource r, std::int64_t most) const
{
    const std::string name = resourceName(r, n);
    const std::int64_t need = m_store.podRequest(p)[r];
    // Every present node is tracked on every axis: without another one, "the most" is no node's.
    if (isOnlyNode(n))
        return makeReason(ReasonKind::NoOtherNode, {},
            podKey(m_store, p) + " needs " + name + " " + formatAmount(r, need) + "; there is no other node (" + std::string(m_engine.state().nodeName(n))
                + " is the only node under the plan)");
    return makeReason(ReasonKind::Insufficient, name,
        podKey(m_store, p) + " needs " + name + " " + formatAmount(r, need) + "; no other node has " + formatAmount(r, need) + " free (the most is "
            + formatAmount(r, most) + ")");
}

void DrainRunner::keep(NodeId n, PodId p, Reason r, BlockingFilter blocking)
{
    m_kept[n.index()] = KeptNode { n, p, std::move(r), std::move(blocking) };
}

BlockingFilter DrainRunner::nameBlockingFilter(PodId p, NodeId from, Reason& why)
{
    if (why.kind != ReasonKind::NoFeasibleNode || !p.isValid())
        return {};
    BlockingFilter b = m_blocking.of(m_engine.state(), p, from, m_keepWithinId);
    why.message += blockingFilterClause(b);
    return b;
}

void DrainRunner::commit(const AppliedAction& a, NodeId n)
{
    m_actions.push_back(a.action);
    m_drained.push_back(n);
    m_podsMoved += static_cast<std::int64_t>(a.changes.size());
    m_saved += price(n);
    m_estimated += unpriced(n) ? saving(n) : 0.0;
    for (const AppliedAction::PodChange& c : a.changes)
        if (c.to.isValid())
            track(c.to);
    track(n);
    for (const std::uint32_t g : m_nodeGroups[n.index()])
        --m_groupPresent[g];
    m_kept[n.index()].reset();
}

bool DrainRunner::tryDrain(NodeId n)
{
    if (!m_engine.state().nodePresent(n))
        return false;
    if (auto r = groupRefusal(n)) {
        keep(n, {}, std::move(*r));
        return false;
    }
    const std::vector<PodId> pods = movablePodsNow(n);
    if (m_options.maxMoves >= 0 && m_podsMoved + static_cast<std::int64_t>(pods.size()) > m_options.maxMoves) {
        keep(n, {}, makeReason(ReasonKind::MoveLimit, {}, "draining " + std::string(m_store.nodeName(n)) + " would move " + std::to_string(pods.size())
            + " pods, past the plan's limit of " + std::to_string(m_options.maxMoves) + " moves"));
        return false;
    }
    if (auto r = cheapRefusal(n, pods)) {
        keep(n, r->pod, std::move(r->reason), std::move(r->blocking)); // the pod its message names
        return false;
    }
    PlanAction drain;
    drain.type = ActionType::DrainNode;
    drain.policy = m_policy;
    drain.node = std::string(m_store.nodeName(n));
    if (!m_keepWithin.empty())
        drain.domain = m_keepWithin[n.index()];
    const std::size_t before = m_engine.applied().size();
    ++m_tried;
    const AppliedAction& a = m_engine.apply(drain);
    if (m_engine.applied().size() == before)
        return false;
    if (a.holds && !a.nodesRemoved.empty()) {
        commit(a, n);
        return true;
    }
    PodId stuck;
    BlockingFilter blocking;
    Reason why = makeReason(ReasonKind::NoFeasibleNode, {}, drain.node + " could not be emptied");
    if (!a.unplaced.empty()) {
        stuck = a.unplaced.front().first;
        why = explainUnplaced(stuck, n, a.unplaced.front().second);
        blocking = nameBlockingFilter(stuck, n, why); // under the refusal's state: before the undo
        // A budget refuses a drain by how many of its pods the node holds against what is left
        // of it: another node with fewer of the workload's pods may still go, so a budget's
        // refusal is not remembered for the workload (at 2,000 simulated nodes it kept 5 nodes
        // that drain; the engine judges each such node, 25% more drains tried).
        if (const WorkloadId w = m_store.podWorkload(stuck); w.isValid() && why.kind != ReasonKind::DisruptionBudget) {
            Reason stem = why;
            stem.message = stemAfter(why.message, podKey(m_store, stuck));
            m_failedWorkloads.emplace(failureKey(w, n), Failure { stuck, std::move(stem), blocking });
        }
    }
    m_engine.undo();
    keep(n, stuck, std::move(why), std::move(blocking));
    return false;
}

bool DrainRunner::tryDrainBatch(const std::vector<NodeId>& nodes)
{
    const std::size_t mark = m_engine.applied().size();
    std::vector<std::int32_t> groupPresent = m_groupPresent;
    std::int64_t moves = 0;
    auto rollback = [&] {
        while (m_engine.applied().size() > mark)
            m_engine.undo();
        return false;
    };
    for (const NodeId n : nodes) {
        if (!m_engine.state().nodePresent(n))
            return rollback();
        for (const std::uint32_t g : m_nodeGroups[n.index()])
            if (groupPresent[g]-- <= m_groups[g].minNodes)
                return rollback();
        PlanAction drain;
        drain.type = ActionType::DrainNode;
        drain.policy = m_policy;
        drain.node = std::string(m_store.nodeName(n));
        if (!m_keepWithin.empty())
            drain.domain = m_keepWithin[n.index()];
        ++m_tried;
        const AppliedAction& a = m_engine.apply(drain);
        moves += static_cast<std::int64_t>(a.changes.size());
        if (!a.holds || a.nodesRemoved.empty() || (m_options.maxMoves >= 0 && m_podsMoved + moves > m_options.maxMoves)) {
            if (m_engine.applied().size() > mark && !a.unplaced.empty())
                keep(n, a.unplaced.front().first, explainUnplaced(a.unplaced.front().first, n, a.unplaced.front().second));
            return rollback();
        }
    }
    const std::vector<AppliedAction>& applied = m_engine.applied();
    for (std::size_t i = mark; i < applied.size(); ++i)
        commit(applied[i], nodes[i - mark]);
    return true;
}

void DrainRunner::reset()
{
    while (m_engine.applied().size() > m_base)
        m_engine.undo();
    for (std::uint32_t i = 0; i < m_store.nodeCount(); ++i)
        track(NodeId(i));
    m_kept = m_keptInitial;
    m_groupPresent = m_groupPresentInitial;
    m_failedWorkloads.clear();
    m_actions.clear();
    m_drained.clear();
    m_podsMoved = 0;
    m_tried = 0;
    m_saved = 0;
    m_estimated = 0;
    m_start = std::chrono::steady_clock::now();
}

ConsolidationResult DrainRunner::finish(std::string order)
{
    ConsolidationResult r;
    r.pendingPlaced = m_pendingPlaced;
    r.pendingPods = m_pendingPods;
    r.pendingLeft = m_pendingLeft;
    r.drained = m_drained;
    r.nodesFreed = static_cast<std::int64_t>(m_drained.size());
    r.evictions = m_podsMoved;
    {
        // One move per pod: a pod's first eviction in the search is from the node it held before
        // the drains (drains alone move pods), and where it is now is a node that stays.
        const PlanLedger& state = m_engine.state();
        const std::vector<AppliedAction>& applied = m_engine.applied();
        std::vector<std::uint8_t> moved(state.podCount(), 0);
        // A pending pod placed first is placed once, on the node it ends on: a drain of the
        // node the search first put it on does not move it again.
        for (std::size_t i = 0; i < r.pendingPods.size(); ++i) {
            const PodId p = r.pendingPods[i].first;
            const NodeId at = state.podNode(p);
            moved[p.index()] = 1;
            if (!at.isValid() || at == r.pendingPods[i].second)
                continue;
            r.pendingPods[i].second = at;
            r.pendingPlaced[i].node = std::string(state.nodeName(at));
        }
        r.actions.reserve(m_actions.size() + static_cast<std::size_t>(m_podsMoved));
        for (std::size_t i = 0; i < m_drained.size() && m_base + i < applied.size(); ++i) {
            for (const AppliedAction::PodChange& c : applied[m_base + i].changes) {
                if (!c.to.isValid() || moved[c.pod.index()])
                    continue;
                moved[c.pod.index()] = 1;
                ++r.podsMoved;
                PlanAction move;
                move.type = ActionType::MovePod;
                move.pod = podRef(m_store, c.pod);
                move.node = std::string(state.nodeName(state.podNode(c.pod)));
                r.actions.push_back(std::move(move));
            }
            r.actions.push_back(m_actions[i]);
        }
    }
    r.savedPerHour = m_saved;
    r.unpricedEstimatePerHour = m_estimated;
    r.before = m_engine.state().totalsBefore();
    r.after = m_engine.state().totals();
    r.drainsTried = m_tried;
    r.cancelled = cancelled();
    r.order = std::move(order);
    for (std::uint32_t i = 0; i < m_store.nodeCount(); ++i) {
        if (!m_engine.state().nodePresent(NodeId(i)) || !m_kept[i])
            continue;
        // A node holding a pending pod the plan placed: the room its pods need once the drains
        // are done, where there is too little elsewhere.
        if (m_kept[i]->reason.code() == "unsupported:planned-pod")
            if (auto refusal = cheapRefusal(NodeId(i), movablePodsNow(NodeId(i))))
                m_kept[i] = KeptNode { NodeId(i), refusal->pod, std::move(refusal->reason), std::move(refusal->blocking) };
        r.kept.push_back(*m_kept[i]);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    return r;
}

void DrainRunner::applyOneMovePerPod(ConsolidationResult& r)
{
    reset();
    const std::vector<AppliedAction>& applied = m_engine.applied();
    // The pending pods again, each at its final node where it fits at its turn, else where the
    // search first put it (pendingPlaced(), parallel to r.pendingPlaced: finish() changes nodes
    // only), else left pending.
    while (applied.size() > m_pendingBase)
        m_engine.undo();
    {
        std::vector<PlanAction> placed;
        std::vector<std::pair<PodId, NodeId>> pods;
        placed.reserve(r.pendingPlaced.size());
        pods.reserve(r.pendingPods.size());
        auto tryPlace = [&](const PlanAction& move) {
            const std::size_t before = applied.size();
            const AppliedAction& a = m_engine.apply(move);
            if (applied.size() == before)
                return false;
            if (a.holds)
                return true;
            m_engine.undo();
            return false;
        };
        for (std::size_t i = 0; i < r.pendingPlaced.size() && i < r.pendingPods.size(); ++i) {
            const PodId p = r.pendingPods[i].first;
            const PlanAction* move = &r.pendingPlaced[i];
            if (!tryPlace(*move)) {
                move = i < m_pendingPlaced.size() && m_pendingPods[i].first == p ? &m_pendingPlaced[i] : nullptr;
                if (move == nullptr || move->node == r.pendingPlaced[i].node || !tryPlace(*move)) {
                    ++r.pendingLeft;
                    continue;
                }
            }
            placed.push_back(*move);
            pods.emplace_back(p, m_engine.state().podNode(p));
        }
        r.pendingPlaced = std::move(placed);
        r.pendingPods = std::move(pods);
    }
    const std::size_t drainsFrom = applied.size();
    std::vector<PlanAction> actions;
    actions.reserve(r.actions.size());
    std::vector<NodeId> drained;
    drained.reserve(r.drained.size());
    std::vector<KeptNode> stayed;
    double saved = 0, estimated = 0;
    std::int64_t fallbacks = 0;
    // Applies actions [from, to) in order; true when each is applied and holds, and the last (a
    // drain) removes its node.
    auto applyAll = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            const std::size_t before = applied.size();
            const AppliedAction& a = m_engine.apply(r.actions[i]);
            if (applied.size() == before || !a.holds)
                return false;
            if (i + 1 == to && a.nodesRemoved.empty())
                return false;
        }
        return true;
    };
    std::size_t next = 0;
    for (const NodeId n : r.drained) {
        std::size_t drain = next;
        while (drain < r.actions.size() && r.actions[drain].type != ActionType::DrainNode)
            ++drain;
        if (drain == r.actions.size())
            break; // not finish()'s actions: nothing more to check
        const std::size_t mark = applied.size();
        auto rollback = [&] {
            while (applied.size() > mark)
                m_engine.undo();
        };
        if (applyAll(next, drain + 1)) {
            actions.insert(actions.end(), r.actions.begin() + static_cast<std::ptrdiff_t>(next), r.actions.begin() + static_cast<std::ptrdiff_t>(drain + 1));
            drained.push_back(n);
            saved += price(n);
            estimated += unpriced(n) ? saving(n) : 0.0;
        } else {
            rollback();
            // The drain alone: the policy places its pods, as the search's drain did.
            const AppliedAction& a = m_engine.apply(r.actions[drain]);
            if (applied.size() > mark && a.holds && !a.nodesRemoved.empty()) {
                ++fallbacks;
                actions.push_back(r.actions[drain]);
                drained.push_back(n);
                saved += price(n);
                estimated += unpriced(n) ? saving(n) : 0.0;
            } else {
                KeptNode k { n, {}, makeReason(ReasonKind::NoFeasibleNode, {}, r.actions[drain].node + " could not be emptied"), {} };
                if (applied.size() > mark && !a.unplaced.empty() && !a.unplaced.front().second.empty()) {
                    k.pod = a.unplaced.front().first;
                    k.reason = a.unplaced.front().second.front();
                }
                rollback();
                stayed.push_back(std::move(k));
            }
        }
        next = drain + 1;
    }
    const PlanLedger& state = m_engine.state();
    std::vector<std::uint8_t> moved(state.podCount(), 0);
    r.podsMoved = 0;
    r.evictions = 0;
    for (std::size_t i = drainsFrom; i < applied.size(); ++i)
        for (const AppliedAction::PodChange& c : applied[i].changes) {
            if (!c.from.isValid())
                continue;
            ++r.evictions;
            if (!moved[c.pod.index()]) {
                moved[c.pod.index()] = 1;
                ++r.podsMoved;
            }
        }
    r.actions = std::move(actions);
    r.drained = std::move(drained);
    r.nodesFreed = static_cast<std::int64_t>(r.drained.size());
    r.savedPerHour = saved;
    r.unpricedEstimatePerHour = estimated;
    r.fallbackDrains = fallbacks;
    r.after = state.totals();
    if (!stayed.empty()) {
        r.kept.insert(r.kept.end(), std::make_move_iterator(stayed.begin()), std::make_move_iterator(stayed.end()));
        std::stable_sort(r.kept.begin(), r.kept.end(), [](const KeptNode& a, const KeptNode& b) { return a.node < b.node; });
    }
}

} // namespace fleet::model::consolidation_detail
