// SPDX-License-Identifier: Apache-2.0
#include "simulatedchanges.h"

#include "model/nodeboundpods.h"
#include "model/scheduling/filters.h"
#include "model/scheduling/planledger.h"

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>

namespace fleet::importers {

using model::NodeId;
using model::PodId;

/// One batch being gathered: records (in this source's keys) and what they touch, so that an
/// object changes at most once per batch (a batch carries final states).
struct SimulatedChanges::Batch {
    std::vector<model::NodeRecord> nodes;
    std::vector<model::PodRecord> pods;
    std::vector<std::pair<std::string, std::string>> deletedPods;
    std::unordered_set<std::uint32_t> touchedNodes, touchedPods, boundTo;
    std::size_t events = 0;
    // Pods this batch creates (arrivals, recreated gang pods): namespace, name and the ledger
    // pod that stands for each, mapped to its state id once the batch is applied.
    std::vector<std::tuple<std::string, std::string, PodId>> created;
};

namespace {
constexpr std::string_view kTrainingNamespace = "ml-training";
constexpr std::string_view kUnreachableTaint = "node.kubernetes.io/unreachable";
constexpr int kTries = 16;
constexpr std::size_t kReplacementsOwed = 4096;

void setReady(model::NodeRecord& r, bool ready)
{
    r.ready = ready ? model::Readiness::True : model::Readiness::Unknown;
    bool found = false;
    for (model::NodeConditionRecord& c : r.conditions)
        if (c.type == "Ready") {
            c.status = r.ready;
            c.reason = ready ? "KubeletReady" : "NodeStatusUnknown";
            c.message = ready ? "kubelet is posting ready status" : "Kubelet stopped posting node status.";
            found = true;
        }
    if (!found)
        r.conditions.push_back({"Ready", r.ready, 0, ready ? "KubeletReady" : "NodeStatusUnknown", ""});
    // The node lifecycle controller's taints of an unreachable node.
    std::erase_if(r.taints, [](const auto& t) { return std::get<0>(t) == kUnreachableTaint; });
    if (!ready) {
        r.taints.emplace_back(std::string(kUnreachableTaint), "", model::TaintEffect::NoSchedule);
        r.taints.emplace_back(std::string(kUnreachableTaint), "", model::TaintEffect::NoExecute);
    }
}
} // namespace

SimulatedChanges::SimulatedChanges(model::ClusterStore state, std::uint64_t seed)
    : m_state(std::move(state))
    , m_base(std::make_unique<const model::ClusterStore>(m_state.clone()))
    , m_ledger(std::make_unique<model::PlanLedger>(*m_base))
    , m_rng(seed ^ 0x6c697665ull) // "live": not the generator's own stream for the same seed
{
    m_workloadPods.resize(m_state.workloadCount());
    m_ledgerPod.resize(m_state.podCount());
    for (std::uint32_t p = 0; p < m_state.podCount(); ++p) {
        m_ledgerPod[p] = PodId(p); // the base is the state's copy: the same ids
        indexPod(PodId(p));
    }
}

SimulatedChanges::~SimulatedChanges() = default;

PodId SimulatedChanges::ledgerPod(PodId p) const noexcept
{
    return p.isValid() && p.index() < m_ledgerPod.size() ? m_ledgerPod[p.index()] : PodId {};
}

PodId SimulatedChanges::addLedgerPod(Batch& b, PodId like, const std::string& ns, const std::string& name)
{
    const PodId from = ledgerPod(like);
    if (!from.isValid())
        return {};
    const PodId added = m_ledger->addPod(m_ledger->podTemplate(from), name);
    if (added.isValid())
        b.created.emplace_back(ns, name, added);
    return added;
}

void SimulatedChanges::mirrorIntoLedger(Batch& b, const model::ClusterDiff& diff)
{
    // Nodes first: a node this source failed is out of the ledger (no pod is bound to it, as
    // none is to a NotReady node with the node lifecycle controller's taints) until it recovers.
    // A node NotReady in the starting state keeps the base's readiness: this source never
    // makes it Ready.
    for (const NodeId n : diff.nodesChanged)
        if (n.index() < m_base->nodeCount() && m_base->nodeReadiness(n) == model::Readiness::True)
            m_ledger->setNodePresent(n, !m_state.nodeIsDeleted(n) && m_state.nodeReadiness(n) == model::Readiness::True);
    m_ledgerPod.resize(m_state.podCount());
    for (const auto& [ns, name, added] : b.created)
        if (const PodId p = m_state.findPod(ns, name); p.isValid())
            m_ledgerPod[p.index()] = added;
    // Each changed pod where the state has it: on its node while it counts (bound, not
    // finished), else off every node.
    auto follow = [this](PodId p) {
        const PodId lp = ledgerPod(p);
        if (!lp.isValid())
            return;
        const NodeId to = m_state.podIsCounted(p) ? m_state.podNode(p) : NodeId {};
        if (m_ledger->podNode(lp) == to)
            return;
        if (to.isValid())
            m_ledger->movePod(lp, to);
        else
            m_ledger->evictPod(lp);
    };
    for (const auto* ids : { &diff.podsRemoved, &diff.podsAdded, &diff.podsChanged })
        for (const PodId p : *ids)
            follow(p);
}

void SimulatedChanges::indexPod(PodId p)
{
    if (m_state.podIsDeleted(p))
        return;
    if (const model::WorkloadId w = m_state.podWorkload(p); w.isValid()) {
        if (w.index() >= m_workloadPods.size())
            m_workloadPods.resize(w.index() + 1);
        m_workloadPods[w.index()].push_back(p);
    }
    if (m_state.podIsTerminal(p))
        m_terminal.push_back(p);
    else if (m_state.podIsPending(p))
        m_pending.push_back(p);
}

std::int64_t SimulatedChanges::gpuRequest(PodId p) const
{
    return m_state.podRequest(p)[model::CoreResource::Gpu];
}

bool SimulatedChanges::isGangPod(PodId p) const
{
    return m_state.podNamespace(p) == kTrainingNamespace && m_state.podWorkload(p).isValid();
}

PodId SimulatedChanges::randomLivePod(bool counted)
{
    for (int t = 0; t < kTries; ++t) {
        const PodId p(static_cast<std::uint32_t>(m_rng.below(m_state.podCount())));
        if (m_state.podIsDeleted(p) || m_state.podIsTerminal(p) || model::isNodeBoundPod(m_state, p))
            continue;
        if (counted && !m_state.podIsCounted(p))
            continue;
        return p;
    }
    return {};
}

NodeId SimulatedChanges::nodeFor(PodId templatePod, PodId scheduled, const Batch& b, NodeId left)
{
    // The node a finished pod left first (it freed the room its replacement needs), then the
    // nodes of the pod's own workload (a Deployment's pods share a node type and its
    // tolerations fit them), then the pod's own node.
    const model::WorkloadId w = m_state.podWorkload(templatePod);
    const std::vector<PodId>* siblings = w.isValid() && w.index() < m_workloadPods.size() ? &m_workloadPods[w.index()] : nullptr;
    // The filters' precomputation for the pod, made at the first node worth asking about.
    std::optional<model::PodFeasibility> filters;
    auto usable = [&](NodeId n) {
        if (!n.isValid() || !scheduled.isValid() || b.boundTo.contains(n.value) || b.touchedNodes.contains(n.value))
            return false;
        if (!filters)
            filters.emplace(*m_ledger, scheduled);
        return filters->feasible(n);
    };
    if (usable(left))
        return left;
    for (int t = 0; t < kTries; ++t) {
        NodeId n;
        if (siblings != nullptr && !siblings->empty() && t < kTries / 2)
            n = m_state.podNode((*siblings)[m_rng.below(siblings->size())]);
        else if (m_state.podNode(templatePod).isValid() && t == kTries / 2)
            n = m_state.podNode(templatePod);
        if (usable(n))
            return n;
    }
    return {};
}

void SimulatedChanges::addArrival(Batch& b, model::PodRecord r, PodId shape, NodeId left)
{
    // A copy of a copy is named after the first pod: NAME-lSERIAL, never NAME-lA-lB.
    if (const std::size_t cut = r.name.rfind("-l"); cut != std::string::npos && cut + 2 < r.name.size()
        && std::all_of(r.name.begin() + static_cast<std::ptrdiff_t>(cut + 2), r.name.end(), [](char c) { return c >= '0' && c <= '9'; }))
        r.name.resize(cut);
    ++m_serial;
    r.name += "-l" + std::to_string(m_serial);
    r.uid = "sim-live-" + std::to_string(m_serial);
    const PodId scheduled = addLedgerPod(b, shape, r.namespaceName, r.name);
    const NodeId n = nodeFor(shape, scheduled, b, left);
    r.nodeName = n.isValid() ? std::string(m_state.nodeName(n)) : std::string();
    r.phase = n.isValid() ? model::PodPhase::Running : model::PodPhase::Pending;
    r.schedulingMessage.clear();
    if (n.isValid()) {
        m_ledger->movePod(scheduled, n);
        b.boundTo.insert(n.value);
        ++m_runningDrift;
        m_gpuDrift += gpuRequest(shape);
    } else {
        ++m_pendingDrift;
    }
    b.pods.push_back(std::move(r));
    ++b.events;
}

void SimulatedChanges::podArrives(Batch& b)
{
    // A replacement owed by a finished pod's controller, of the same shape.
    if (!m_replacements.empty()) {
        Replacement owed = std::move(m_replacements.front());
        m_replacements.pop_front();
        addArrival(b, std::move(owed.record), owed.shape, owed.left);
        return;
    }
    // Growth only back to the starting running pods and GPUs allocated: a copy of a pod that
    // asks for GPUs while fewer are allocated than at the start, of one that asks none else.
    if (m_runningDrift >= 0 && m_gpuDrift >= 0)
        return;
    const bool wantGpus = m_gpuDrift < 0;
    for (int t = 0; t < kTries; ++t) {
        const PodId from = randomLivePod(true);
        if (!from.isValid() || isGangPod(from) || !m_state.podWorkload(from).isValid() || m_state.podIsPending(from)
            || (gpuRequest(from) > 0) != wantGpus)
            continue;
        addArrival(b, m_state.podRecord(from), from, {});
        return;
    }
}

void SimulatedChanges::cancelPendingPod(Batch& b)
{
    for (int t = 0; t < kTries && !m_pending.empty(); ++t) {
        const std::size_t i = m_rng.below(m_pending.size());
        const PodId p = m_pending[i];
        if (m_state.podIsDeleted(p) || !m_state.podIsPending(p)) {
            m_pending[i] = m_pending.back();
            m_pending.pop_back();
            continue;
        }
        if (isGangPod(p) || !b.touchedPods.insert(p.value).second)
            continue;
        b.deletedPods.emplace_back(m_state.podNamespace(p), m_state.podName(p));
        --m_pendingDrift;
        ++b.events;
        return;
    }
}

void SimulatedChanges::podFinishes(Batch& b)
{
    if (m_pendingDrift > 0 && m_rng.below(2) == 0) {
        cancelPendingPod(b);
        return;
    }
    const PodId p = randomLivePod(true);
    if (!p.isValid() || isGangPod(p) || m_state.podIsPending(p) || !b.touchedPods.insert(p.value).second)
        return;
    --m_runningDrift;
    m_gpuDrift -= gpuRequest(p);
    if (m_state.podWorkload(p).isValid()) {
        if (m_replacements.size() >= kReplacementsOwed)
            m_replacements.pop_front();
        m_replacements.push_back({ m_state.podRecord(p), p, m_state.podNode(p) });
    }
    const model::OwnerKind kind = m_state.podOwnerKind(p);
    if (kind == model::OwnerKind::Job || kind == model::OwnerKind::CronJob) {
        model::PodRecord r = m_state.podRecord(p);
        r.phase = model::PodPhase::Succeeded;
        b.pods.push_back(std::move(r));
        ++m_finishedDrift;
    } else {
        b.deletedPods.emplace_back(m_state.podNamespace(p), m_state.podName(p));
    }
    ++b.events;
}

void SimulatedChanges::finishedPodDeleted(Batch& b)
{
    // Only finished pods beyond those of the start: a finished pod is deleted as another finishes
    // (a Job's TTL, a CronJob's history limit), so their number and the pod count hold from the
    // first batch (deleting the start's finished pods first lost 5% of all pods in 90 s).
    if (m_finishedDrift <= 0)
        return;
    while (!m_terminal.empty()) {
        const std::size_t i = m_rng.below(m_terminal.size());
        const PodId p = m_terminal[i];
        m_terminal[i] = m_terminal.back();
        m_terminal.pop_back();
        if (m_state.podIsDeleted(p) || !m_state.podIsTerminal(p) || !b.touchedPods.insert(p.value).second)
            continue;
        b.deletedPods.emplace_back(m_state.podNamespace(p), m_state.podName(p));
        --m_finishedDrift;
        ++b.events;
        return;
    }
}

void SimulatedChanges::pendingPodBound(Batch& b)
{
    // Half the binds go to the pods of gangs waiting for the nodes they left (most pending
    // pods of a packed cluster have no room anywhere and would crowd them out).
    std::vector<PodId>& candidates = !m_gangWaiting.empty() && m_rng.below(2) == 0 ? m_gangWaiting : m_pending;
    for (int t = 0; t < kTries && !candidates.empty(); ++t) {
        const std::size_t i = m_rng.below(candidates.size());
        const PodId p = candidates[i];
        if (m_state.podIsDeleted(p) || !m_state.podIsPending(p)) {
            candidates[i] = candidates.back();
            candidates.pop_back();
            continue;
        }
        if (!m_state.podSchedulingGates(p).empty() || b.touchedPods.contains(p.value))
            continue;
        const auto left = m_gangLeft.empty() ? m_gangLeft.end() : m_gangLeft.find(gangKey(p));
        const PodId scheduled = ledgerPod(p);
        const NodeId n = nodeFor(p, scheduled, b, left == m_gangLeft.end() ? NodeId {} : left->second);
        if (left != m_gangLeft.end() && n.isValid())
            m_gangLeft.erase(left);
        if (!n.isValid())
            continue;
        m_ledger->movePod(scheduled, n);
        model::PodRecord r = m_state.podRecord(p);
        r.nodeName = m_state.nodeName(n);
        r.phase = model::PodPhase::Running;
        r.schedulingMessage.clear();
        --m_pendingDrift;
        ++m_runningDrift;
        m_gpuDrift += gpuRequest(p);
        b.touchedPods.insert(p.value);
        b.boundTo.insert(n.value);
        b.pods.push_back(std::move(r));
        ++b.events;
        return;
    }
}

void SimulatedChanges::podStatusUpdated(Batch& b)
{
    const PodId p = randomLivePod(true);
    if (!p.isValid() || !b.touchedPods.insert(p.value).second)
        return;
    model::PodRecord r = m_state.podRecord(p);
    r.flags = static_cast<std::uint16_t>(r.flags ^ model::PodFlagReady);
    b.pods.push_back(std::move(r));
    ++b.events;
}

void SimulatedChanges::nodeFails(Batch& b)
{
    for (int t = 0; t < kTries; ++t) {
        const NodeId n(static_cast<std::uint32_t>(m_rng.below(m_state.nodeCount())));
        if (m_state.nodeIsDeleted(n) || m_state.nodeReadiness(n) != model::Readiness::True || b.touchedNodes.contains(n.value)
            || b.boundTo.contains(n.value))
            continue;
        model::NodeRecord r = m_state.nodeRecord(n);
        setReady(r, false);
        b.touchedNodes.insert(n.value);
        b.nodes.push_back(std::move(r));
        m_failed.push_back(n);
        ++b.events;
        // A training gang with a pod on the failed node restarts: its controller recreates
        // every pod of it (new uids), Pending until the scheduler places the gang again.
        std::vector<model::WorkloadId> gangs;
        for (const PodId p : m_state.nodePods(n))
            if (isGangPod(p) && std::find(gangs.begin(), gangs.end(), m_state.podWorkload(p)) == gangs.end())
                gangs.push_back(m_state.podWorkload(p));
        for (const model::WorkloadId w : gangs)
            for (const PodId p : m_workloadPods[w.index()]) {
                if (m_state.podIsDeleted(p) || m_state.podIsTerminal(p) || !b.touchedPods.insert(p.value).second)
                    continue;
                if (!m_state.podIsPending(p)) {
                    --m_runningDrift;
                    ++m_pendingDrift;
                    m_gpuDrift -= gpuRequest(p);
                }
                if (const NodeId was = m_state.podNode(p); was.isValid())
                    m_gangLeft[gangKey(p)] = was;
                model::PodRecord pr = m_state.podRecord(p);
                ++m_serial;
                pr.uid = "sim-live-" + std::to_string(m_serial);
                pr.nodeName.clear();
                pr.phase = model::PodPhase::Pending;
                pr.flags &= static_cast<std::uint16_t>(~model::PodFlagReady);
                (void)addLedgerPod(b, p, pr.namespaceName, pr.name);
                b.pods.push_back(std::move(pr));
                ++b.events;
            }
        return;
    }
}

void SimulatedChanges::nodeRecovers(Batch& b)
{
    while (!m_failed.empty()) {
        const std::size_t i = m_rng.below(m_failed.size());
        const NodeId n = m_failed[i];
        if (b.touchedNodes.contains(n.value))
            return;
        m_failed[i] = m_failed.back();
        m_failed.pop_back();
        if (m_state.nodeIsDeleted(n))
            continue;
        model::NodeRecord r = m_state.nodeRecord(n);
        setReady(r, true);
        b.touchedNodes.insert(n.value);
        b.nodes.push_back(std::move(r));
        ++b.events;
        return;
    }
}

model::ClusterChangeBatch SimulatedChanges::next(std::size_t events)
{
    Batch b;
    // Bounded: an event kind may find nothing to do (no finished pod, no failed node).
    for (std::size_t draw = 0; b.events < events && draw < events * 4 + 16; ++draw) {
        // A node fails in 1 draw of 100 and a failed one recovers in 2: the NotReady nodes stay
        // few, as in a healthy cluster (one failure in 20 draws left a fifth of the GPUs in
        // gangs waiting for their nodes).
        const std::uint32_t weights[] = { 31, 26, 16, m_pendingDrift > 0 ? 20u : 10u, 10, 1, 2 };
        switch (m_rng.weighted(weights, std::size(weights))) {
        case 0: podArrives(b); break;
        case 1: podFinishes(b); break;
        case 2: finishedPodDeleted(b); break;
        case 3: pendingPodBound(b); break;
        case 4: podStatusUpdated(b); break;
        case 5: nodeFails(b); break;
        default: nodeRecovers(b); break;
        }
    }
    model::ClusterChangeBatch batch;
    for (const model::NodeRecord& r : b.nodes)
        batch.upserted.addNode(r, m_state);
    for (const model::PodRecord& r : b.pods)
        batch.upserted.addPod(r, m_state);
    batch.deletedPods = std::move(b.deletedPods);
    batch.events = b.events;
    const model::ClusterDiff diff = model::applyChanges(m_state, batch);
    mirrorIntoLedger(b, diff);
    for (const PodId p : diff.podsAdded)
        indexPod(p);
    for (const PodId p : diff.podsChanged) {
        if (m_state.podIsTerminal(p))
            m_terminal.push_back(p);
        else if (m_state.podIsPending(p))
            m_pending.push_back(p);
    }
    if (!m_gangLeft.empty())
        for (const auto* ids : { &diff.podsAdded, &diff.podsChanged })
            for (const PodId p : *ids)
                if (m_state.podIsPending(p)
                    && m_gangLeft.contains(gangKey(p)))
                    m_gangWaiting.push_back(p);
    ++m_batches;
    return batch;
}

const std::string& SimulatedChanges::gangKey(PodId p)
{
    m_gangKey.assign(m_state.podNamespace(p));
    m_gangKey += '/';
    m_gangKey += m_state.podName(p);
    return m_gangKey;
}

} // namespace fleet::importers
