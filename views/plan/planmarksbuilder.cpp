// SPDX-License-Identifier: Apache-2.0
#include "planmarksbuilder.h"

#include "model/domainpath.h"
#include "model/nodeboundpods.h"

#include <stdexcept>

#include <algorithm>
#include <cstdint>

namespace fleet::views {

namespace {

/// Sorted and unique, by a byte per node rather than a sort: a consolidation's marks list some
/// 450,000 node ids (two per pod moved), which std::sort took tens of ms over.
void sortUnique(std::vector<model::NodeId>& v, std::size_t nodeCount)
{
    std::vector<std::uint8_t> seen(nodeCount, 0);
    for (model::NodeId n : v)
        seen[n.index()] = 1;
    v.clear();
    for (std::size_t i = 0; i < nodeCount; ++i)
        if (seen[i] != 0)
            v.push_back(model::NodeId(static_cast<std::uint32_t>(i)));
}

/// Counted pods other than DaemonSet and mirror pods (PlanTotals::nodesInUse's rule).
template <class Pods>
bool holdsWorkPods(const model::ClusterStore& store, const Pods& pods)
{
    for (model::PodId p : pods)
        if (p.index() < store.podCount() && !store.podIsTerminal(p) && !model::isNodeBoundPod(store, p))
            return true;
    return false;
}

} // namespace

model::DomainId addedNodeDomain(const model::PlanAction& action, const model::Topology* topology)
{
    model::DomainId domain = topology ? topology->root() : model::DomainId {};
    if (topology && !action.domain.empty()) {
        try {
            domain = model::findDomainByPath(*topology, model::parseDomainPath(action.domain));
        } catch (const std::invalid_argument&) {
            // The engine resolved it when it applied the action; keep the root.
        }
    }
    return domain;
}

bool isEmptiedByPlan(const model::PlanLedger& state, model::NodeId n)
{
    const model::ClusterStore& store = state.store();
    // A store pod that stayed and counts settles "not emptied" without PlanLedger::nodePods(),
    // which copies the node's pods: over the 40,000 changed nodes of a 22,655-action plan those
    // copies were most of the marks' time, rebuilt on every change to the plan.
    auto staysWithWork = [&] {
        for (model::PodId p : store.nodePods(n))
            if (state.podNode(p) == n && !store.podIsTerminal(p) && !model::isNodeBoundPod(store, p))
                return true;
        return false;
    };
    return holdsWorkPods(store, store.nodePods(n)) && !staysWithWork() && !holdsWorkPods(store, state.nodePods(n));
}

std::shared_ptr<const PlanMarks> buildPlanMarks(const model::PlanEngine& engine, const model::Topology* topology)
{
    if (engine.applied().empty())
        return nullptr;
    const model::PlanLedger& state = engine.state();
    const model::ClusterStore& store = state.store();
    auto marks = std::make_shared<PlanMarks>();
    auto onMap = [&](model::NodeId n) { return n.isValid() && n.index() < store.nodeCount(); };
    for (const model::AppliedAction& a : engine.applied()) {
        for (const auto& c : a.changes) {
            if (onMap(c.from))
                marks->changed.push_back(c.from);
            if (onMap(c.to)) {
                marks->changed.push_back(c.to);
                if (a.action.override && a.action.type == model::ActionType::MovePod)
                    marks->violations.push_back(c.to);
            }
        }
        for (model::NodeId n : a.nodesRemoved)
            if (onMap(n))
                marks->removed.push_back(n);
        if (a.action.type == model::ActionType::AddNode && !a.nodesAdded.empty()) {
            const model::DomainId domain = addedNodeDomain(a.action, topology);
            for (model::NodeId n : a.nodesAdded)
                if (state.nodePresent(n))
                    marks->added.emplace_back(n, domain);
        }
    }
    sortUnique(marks->changed, store.nodeCount()); // onMap(): every id is a store node's
    sortUnique(marks->violations, store.nodeCount());
    sortUnique(marks->removed, store.nodeCount());
    // Still gone under the plan (an undone failure is no longer applied, so it is not listed).
    std::erase_if(marks->removed, [&](model::NodeId n) { return state.nodePresent(n); });
    std::erase_if(marks->changed, [&](model::NodeId n) { return !state.nodePresent(n); });
    for (model::NodeId n : marks->changed) {
        if (isEmptiedByPlan(state, n))
            marks->emptied.push_back(n);
    }
    return marks;
}

} // namespace fleet::views
