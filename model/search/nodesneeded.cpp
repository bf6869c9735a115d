// SPDX-License-Identifier: Apache-2.0
// How many nodes of a type a set of pods or a workload would take (nodesneeded.h): the plan's
// own actions applied with k nodes added, then undone.
#include "nodesneeded.h"

#include "model/plan/evictionrules.h"

#include "model/scheduling/filters.h"

#include <algorithm>
#include <stdexcept>

namespace fleet::model {

namespace {

struct Evaluation {
    std::int32_t placed = 0;
    std::vector<std::pair<PodId, std::vector<Reason>>> unplaced;
    bool cancelled = false; // stopped by NodesNeededControl::cancel: nothing else is valid
};

// Progress over the whole search: evaluation `index` of about `total`, each reporting the share
// of its pods placed so far.
struct Progress {
    const NodesNeededControl* control = nullptr;
    int index = 0;
    int total = 1;
    [[nodiscard]] bool cancelled() const { return control && control->cancel && control->cancel->load(std::memory_order_relaxed); }
    void report(double withinEvaluation) const
    {
        if (control && control->progress)
            control->progress(std::min(1.0, (static_cast<double>(index) + withinEvaluation) / static_cast<double>(std::max(total, 1))));
    }
};

// Why pod p is left: the filters' verdict on an empty added node (what the type lacks), else
// that no such node was left or added.
std::vector<Reason> whyLeft(const PlanLedger& state, PodId p, const std::vector<NodeId>& added, const std::string& type)
{
    for (const NodeId n : added)
        if (state.nodePresent(n) && state.nodePods(n).empty()) {
            Verdict v = checkMove(state, p, n);
            if (!v.feasible)
                return std::move(v.reasons);
            break;
        }
    const std::string key = podKey(state.store(), p);
    if (added.empty())
        return { makeReason(ReasonKind::NoFeasibleNode, {}, key + ": no node passes every filter, and no " + type + " node was added") };
    return { makeReason(ReasonKind::NoFeasibleNode, {}, key + ": no node passes every filter with " + std::to_string(added.size()) + " " + type + " nodes added") };
}

// f(k): applies add-node (k nodes) and the placements, reads the outcome, and undoes them all
// unless `keep` (then they stay applied, the plan the answer describes).
Evaluation evaluate(PlanEngine& engine, const NodesNeededQuestion& q, const std::vector<PodId>& pods, std::int32_t k, const Progress& progress,
    bool keep = false)
{
    const std::size_t start = engine.applied().size();
    const ClusterStore& store = engine.state().store();
    Evaluation e;
    try {
        std::vector<NodeId> added;
        if (k > 0) {
            PlanAction a = q.addNode;
            a.count = k;
            added = engine.apply(a).nodesAdded;
        }
        if (q.workload.isValid()) {
            PlanAction a;
            a.type = ActionType::PlaceWorkload;
            a.workloadNamespace = std::string(store.workloadNamespace(q.workload));
            a.workloadName = std::string(store.workloadName(q.workload));
            a.workloadKind = std::string(ownerKindName(store.workloadKind(q.workload)));
            a.domain = q.addNode.domain;
            const AppliedAction r = engine.apply(a);
            if (r.holds) {
                e.placed = static_cast<std::int32_t>(pods.size());
            } else {
                e.unplaced = r.unplaced;
                if (e.unplaced.empty() && !pods.empty())
                    e.unplaced.emplace_back(pods.front(), r.reasons);
            }
        } else {
            std::size_t done = 0;
            for (const PodId p : pods) {
                if ((done++ & 63) == 0) { // a placement is microseconds: a check every 64 costs nothing
                    if (progress.cancelled()) {
                        e.cancelled = true;
                        break;
                    }
                    progress.report(static_cast<double>(done) / static_cast<double>(pods.size()));
                }
                const NodeId n = engine.chooseNode(p);
                if (n.isValid()) {
                    PlanAction move;
                    move.type = ActionType::MovePod;
                    move.pod = podRef(store, p);
                    move.node = std::string(engine.state().nodeName(n));
                    const std::size_t before = engine.applied().size();
                    const AppliedAction& r = engine.apply(move); // every filter again
                    if (engine.applied().size() > before) {
                        ++e.placed;
                        continue;
                    }
                    e.unplaced.emplace_back(p, r.reasons);
                    continue;
                }
                e.unplaced.emplace_back(p, whyLeft(engine.state(), p, added, q.addNode.instanceType));
            }
        }
    } catch (...) {
        while (engine.applied().size() > start && engine.undo()) { }
        throw;
    }
    if (!keep || e.cancelled)
        while (engine.applied().size() > start && engine.undo()) { }
    progress.report(1.0);
    return e;
}

// The pods the question asks about, in the order they are placed: a workload's pods that have
// not finished, or the listed pods that are not on a present node, largest first.
std::vector<PodId> questionPods(const PlanEngine& engine, const NodesNeededQuestion& q)
{
    const ClusterStore& store = engine.state().store();
    std::vector<PodId> pods;
    if (q.workload.isValid()) {
        if (q.workload.index() >= store.workloadCount())
            throw std::invalid_argument("nodes needed: no such workload");
        for (std::uint32_t i = 0; i < store.podCount(); ++i)
            if (store.podWorkload(PodId(i)) == q.workload && !store.podIsTerminal(PodId(i)))
                pods.push_back(PodId(i));
    } else {
        for (const PodId p : q.pods)
            if (p.index() < store.podCount() && !(engine.state().podNode(p).isValid() && engine.state().nodePresent(engine.state().podNode(p))))
                pods.push_back(p);
        sortPodsLargestFirst(store, pods);
    }
    return pods;
}

} // namespace

std::vector<PodId> pendingPods(const PlanEngine& engine)
{
    const PlanLedger& state = engine.state();
    const ClusterStore& store = state.store();
    std::vector<PodId> out;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const PodId p(i);
        const NodeId n = state.podNode(p);
        if ((n.isValid() && state.nodePresent(n)) || store.podIsTerminal(p) || staysOnDrainedNode(store, p)
            || (store.podFlags(p) & PodFlagTemplate) // a template is no pod of the cluster
            || store.podIsDeleted(p) || store.podIsOnUnknownNode(p)) // a live tombstone; bound to a node the input lacks
            continue;
        out.push_back(p);
    }
    return out;
}

NodesNeededAnswer nodesNeeded(PlanEngine& engine, const NodesNeededQuestion& q, const NodesNeededControl& control)
{
    if (q.addNode.type != ActionType::AddNode)
        throw std::invalid_argument("nodes needed: the question's action must be add-node");
    if (q.maxNodes < 1 || q.maxNodes > 100000)
        throw std::invalid_argument("nodes needed: the most nodes tried must be from 1 to 100000, got " + std::to_string(q.maxNodes));
    const std::vector<PodId> pods = questionPods(engine, q);
    NodesNeededAnswer answer;
    answer.pods = static_cast<std::int32_t>(pods.size());
    if (pods.empty())
        return answer;
    const std::int32_t kMax = std::min<std::int32_t>(q.maxNodes, answer.pods);
    // Evaluations: f(kMax), then the bisection's ceil(log2(kMax + 1)).
    Progress progress { &control, 0, 1 };
    for (std::int64_t span = static_cast<std::int64_t>(kMax) + 1; span > 1; span = (span + 1) / 2)
        ++progress.total;
    auto cancelled = [&] {
        NodesNeededAnswer none;
        none.pods = answer.pods;
        none.cancelled = true;
        return none;
    };
    const Evaluation best = evaluate(engine, q, pods, kMax, progress);
    if (best.cancelled)
        return cancelled();
    answer.evaluations = 1;
    // The fewest k in [0, kMax] with f(k) = f(kMax).
    std::int32_t lo = -1, hi = kMax; // f(lo) < f(kMax) (lo = -1: none known), f(hi) = f(kMax)
    while (hi - lo > 1) {
        const std::int32_t mid = lo + (hi - lo) / 2;
        progress.index = answer.evaluations;
        ++answer.evaluations;
        const Evaluation e = evaluate(engine, q, pods, mid, progress);
        if (e.cancelled)
            return cancelled();
        if (e.placed >= best.placed)
            hi = mid;
        else
            lo = mid;
    }
    if (control.progress)
        control.progress(1.0); // the bisection may take fewer evaluations than counted
    answer.nodes = hi;
    answer.podsPlaced = best.placed;
    answer.unplaced = best.unplaced;
    answer.limitReached = kMax < answer.pods && !best.unplaced.empty();
    return answer;
}

std::int32_t addNodesAndPlace(PlanEngine& engine, const NodesNeededQuestion& question, std::int32_t count, const NodesNeededControl& control)
{
    if (question.addNode.type != ActionType::AddNode)
        throw std::invalid_argument("add nodes and place: the question's action must be add-node");
    if (count < 1 || count > 100000)
        throw std::invalid_argument("add nodes and place: count must be from 1 to 100000, got " + std::to_string(count));
    const Evaluation e = evaluate(engine, question, questionPods(engine, question), count, Progress { &control, 0, 1 }, true);
    return e.cancelled ? -1 : e.placed;
}

std::string nodeGroupOf(const ClusterStore& store, NodeId n)
{
    for (const std::string_view key : { std::string_view("eks.amazonaws.com/nodegroup"), std::string_view("karpenter.sh/nodepool") })
        if (const StringId k = store.strings().find(key); k.isValid())
            if (const StringId v = store.nodeLabel(n, k); v.isValid() && !store.str(v).empty())
                return std::string(store.str(v));
    return {};
}

FitPendingAnswer fitPendingPerNodeGroup(PlanEngine& engine, const PlanAction& addNode, std::int32_t maxNodes, const NodesNeededControl& control)
{
    FitPendingAnswer out;
    // The node the next add-node would copy: applied once and undone.
    auto nextTemplate = [&] {
        PlanAction probe = addNode;
        probe.count = 1;
        NodeId copied;
        if (const AppliedAction& added = engine.apply(probe); !added.nodesAdded.empty())
            copied = engine.state().nodeTemplate(added.nodesAdded.front());
        engine.undo();
        return copied;
    };
    out.firstTemplate = nextTemplate();
    std::vector<PodId> waiting = pendingPods(engine);
    out.answer.pods = static_cast<std::int32_t>(waiting.size());
    NodeId next = out.firstTemplate;
    std::int32_t budget = maxNodes;
    // Each add-node's share of the progress: half of what is left, so that it only grows.
    double done = 0;
    while (!waiting.empty() && budget > 0 && next.isValid()) {
        const double share = (1.0 - done) / 2;
        NodesNeededControl round;
        round.cancel = control.cancel;
        if (control.progress)
            round.progress = [&control, done, share](double f) { control.progress(done + share * f); };
        NodesNeededQuestion q;
        q.addNode = addNode;
        q.pods = waiting;
        q.maxNodes = budget;
        const NodesNeededAnswer answer = nodesNeeded(engine, q, round);
        if (answer.cancelled) {
            out.answer.cancelled = true;
            return out;
        }
        if (out.copies.empty() || answer.nodes > 0) {
            out.answer.unplaced = answer.unplaced;
            out.answer.limitReached = answer.limitReached;
        }
        if (answer.nodes == 0) {
            if (out.copies.empty()) // no node of the type helps: the pods that fit without one
                out.answer.podsPlaced = answer.podsPlaced;
            break;
        }
        // The nodes and the pending pods placed on them, as the answer counted them: added nodes
        // alone would stay empty in the plan.
        if (addNodesAndPlace(engine, q, answer.nodes, round) < 0) {
            out.answer.cancelled = true;
            return out;
        }
        out.copies.push_back({ next, answer.nodes });
        out.answer.nodes += answer.nodes;
        out.answer.podsPlaced += answer.podsPlaced;
        budget -= answer.nodes;
        done += share;
        waiting = pendingPods(engine);
        if (waiting.empty())
            break;
        next = nextTemplate();
        if (std::any_of(out.copies.begin(), out.copies.end(), [&](const TemplateCopies& c) { return c.templateNode == next; }))
            break;
    }
    if (control.progress)
        control.progress(1.0);
    return out;
}

} // namespace fleet::model
