// SPDX-License-Identifier: Apache-2.0
#include "plankept.h"

#include "keptentry.h"
#include "plansource.h"

#include "importers/quotedtext.h"
#include "model/scheduling/reasons.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace fleet::importers {

namespace {

constexpr const char* kRecorded = "the plan's recorded reasons why nodes stay ";

// A reason from its code and message: the kind its stem names, the rest its detail; nullopt
// for a code no kind has (written by another Fleetscope, or made up).
std::optional<model::Reason> reasonOfCode(const std::string& code, const std::string& message)
{
    const model::ReasonKind kind = model::reasonKindOfCode(code);
    if (kind == model::ReasonKind::Count)
        return std::nullopt;
    const std::string_view stem = model::reasonKindInfo(kind).stem;
    model::Reason r = model::makeReason(kind, code.substr(stem.size()), message);
    if (r.code() != code)
        return std::nullopt;
    return r;
}

// The pods the record names ("namespace/name"), found in one pass over the store's pods:
// ClusterStore::findPod() is O(pods) for each name in a store without its name index.
std::unordered_map<std::string_view, model::PodId> namedPods(const model::ClusterStore& store, const PlanKeptRecord& record)
{
    std::unordered_map<std::string_view, std::unordered_map<std::string_view, std::string_view>> byNamespace;
    for (const PlanKeptRecord::Entry& e : record.kept) {
        const std::size_t slash = e.pod.find('/');
        if (slash != std::string::npos)
            byNamespace[std::string_view(e.pod).substr(0, slash)].emplace(std::string_view(e.pod).substr(slash + 1), std::string_view(e.pod));
    }
    std::unordered_map<std::string_view, model::PodId> found;
    if (byNamespace.empty())
        return found;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        if (store.podIsDeleted(p))
            continue;
        const auto ns = byNamespace.find(store.podNamespace(p));
        if (ns == byNamespace.end())
            continue;
        if (const auto name = ns->second.find(store.podName(p)); name != ns->second.end())
            found.emplace(name->second, p);
    }
    return found;
}

bool knownOrder(const std::string& order)
{
    // consolidate()'s orders (model/search/consolidation.h), and saving-per-load, the first order
    // of the plans written before the budget-aware orders replaced it.
    return order == "saving-per-budget" || order == "small-nodes-budgets-last" || order == "small-nodes-first" || order == "disruption-cost"
        || order == "saving-per-load";
}

} // namespace

PlanKeptRecord planKeptRecord(const model::ClusterStore& store, const model::ConsolidationResult& result)
{
    PlanKeptRecord r;
    r.order = result.order;
    r.kept.reserve(result.kept.size());
    for (const model::KeptNode& k : result.kept)
        r.kept.push_back(keptEntry(store, k));
    return r;
}

RecordedKept recordedKept(const model::ClusterStore& store, const PlanDocument& plan, const PlanSource& current)
{
    RecordedKept out;
    if (!plan.consolidation) {
        out.problem = plan.consolidationNote;
        return out;
    }
    const PlanKeptRecord& record = *plan.consolidation;
    auto refuse = [&out](std::string why) {
        out.problem = kRecorded + std::move(why);
        return out;
    };
    // The reasons are those of the state the search ran on: on another state (another file,
    // a newer list of the cluster, another simulation) they would be stale.
    const bool namesSource = !plan.source.files.empty() || !plan.source.server.empty() || !plan.source.simulated.empty();
    if (!namesSource)
        return refuse("cannot be shown to be this state's: the plan names no source");
    if (!sourceDifference(plan.source, current).empty())
        return refuse("are of the state the plan was made on, not this one");
    if (record.actionsSha256 != planActionsSha256(plan.actions))
        return refuse("are of other actions (the plan was changed after its search)");
    if (plan.actions.empty() || plan.actions.back().type != model::ActionType::DrainNode)
        return refuse("need a plan that ends in drain-node actions");
    if (!knownOrder(record.order))
        return refuse("name an unknown search order " + quotedText(record.order));
    const std::size_t present = store.nodeCount() - store.deletedNodeCount();
    if (record.kept.size() > present)
        return refuse("list " + std::to_string(record.kept.size()) + " nodes, more than the state's " + std::to_string(present));
    std::unordered_set<std::uint32_t> drained;
    // The search's drains: the trailing run of drain-node actions and the move-pod actions of
    // their pods before each (model/search/consolidation.h, "One move per pod").
    for (std::size_t i = plan.actions.size();
         i > 0 && (plan.actions[i - 1].type == model::ActionType::DrainNode || plan.actions[i - 1].type == model::ActionType::MovePod); --i)
        if (plan.actions[i - 1].type == model::ActionType::DrainNode)
            if (const model::NodeId n = store.findNode(plan.actions[i - 1].node); n.isValid())
                drained.insert(n.value);
    model::KeptReplay replay;
    replay.order = record.order;
    replay.kept.reserve(record.kept.size());
    std::unordered_set<std::uint32_t> seen;
    seen.reserve(record.kept.size());
    const std::unordered_map<std::string_view, model::PodId> pods = namedPods(store, record);
    for (std::size_t i = 0; i < record.kept.size(); ++i) {
        const PlanKeptRecord::Entry& e = record.kept[i];
        const std::string where = "(entry " + std::to_string(i) + ")";
        model::KeptNode k;
        k.node = store.findNode(e.node);
        if (!k.node.isValid())
            return refuse("name node " + quotedText(e.node) + ", which this state lacks " + where);
        if (drained.contains(k.node.value))
            return refuse("name node " + quotedText(e.node) + ", which the plan drains " + where);
        if (!seen.insert(k.node.value).second)
            return refuse("name node " + quotedText(e.node) + " twice " + where);
        if (!e.pod.empty()) {
            if (const auto p = pods.find(e.pod); p != pods.end())
                k.pod = p->second;
            if (!k.pod.isValid())
                return refuse("name pod " + quotedText(e.pod) + ", which this state lacks " + where);
        }
        std::optional<model::Reason> reason = reasonOfCode(e.code, e.message);
        if (!reason)
            return refuse("give an unknown reason code " + quotedText(e.code) + " " + where);
        k.reason = std::move(*reason);
        if (!e.blocking.code.empty() && !reasonOfCode(e.blocking.code, {}))
            return refuse("give an unknown blocking filter code " + quotedText(e.blocking.code) + " " + where);
        if (!e.blocking.nextCode.empty() && !reasonOfCode(e.blocking.nextCode, {}))
            return refuse("give an unknown blocking filter code " + quotedText(e.blocking.nextCode) + " " + where);
        k.blocking = e.blocking;
        replay.kept.push_back(std::move(k));
    }
    out.kept = std::move(replay);
    // A bound above the nodes there are bounds nothing: a record that says so is not believed.
    if (record.lpBound && record.lpBound->nodes <= static_cast<std::int64_t>(present))
        out.lpBoundNodes = record.lpBound->nodes;
    return out;
}

} // namespace fleet::importers
