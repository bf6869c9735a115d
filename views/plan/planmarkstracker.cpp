// SPDX-License-Identifier: Apache-2.0
#include "planmarkstracker.h"

#include "views/plan/planmarksbuilder.h"

#include <algorithm>

namespace fleet::views {

void PlanMarksTracker::rebuild(const model::PlanEngine& engine, const model::Topology* topology)
{
    const model::ClusterStore& store = engine.state().store();
    const std::size_t nodes = store.nodeCount();
    m_store = &store;
    m_changedCount.assign(nodes, 0);
    m_violationCount.assign(nodes, 0);
    m_removedCount.assign(nodes, 0);
    m_emptied.assign(nodes, 0);
    m_dirty.assign(nodes, 0);
    m_dirtyNodes.clear();
    m_changedIds.clear();
    m_violationIds.clear();
    m_removedIds.clear();
    m_addedIds.clear();
    m_spans.clear();
    m_spans.reserve(engine.applied().size());
    for (const model::AppliedAction& a : engine.applied())
        count(a, store, topology);
    publish(engine.state(), !engine.applied().empty());
}

void PlanMarksTracker::update(const model::PlanEngine& engine, const model::Topology* topology, std::size_t unchangedBefore)
{
    const model::ClusterStore& store = engine.state().store();
    if (m_store != &store || m_changedCount.size() != store.nodeCount()) {
        rebuild(engine, topology);
        return;
    }
    const auto& applied = engine.applied();
    const std::size_t from = std::min({ unchangedBefore, m_spans.size(), applied.size() });
    while (m_spans.size() > from)
        uncountLast();
    for (std::size_t i = from; i < applied.size(); ++i)
        count(applied[i], store, topology);
    publish(engine.state(), !applied.empty());
}

void PlanMarksTracker::touch(model::NodeId n)
{
    if (m_dirty[n.index()] == 0) {
        m_dirty[n.index()] = 1;
        m_dirtyNodes.push_back(n);
    }
}

void PlanMarksTracker::count(const model::AppliedAction& a, const model::ClusterStore& store, const model::Topology* topology)
{
    // The same ids as buildPlanMarks() lists: store nodes only.
    auto onMap = [&](model::NodeId n) { return n.isValid() && n.index() < store.nodeCount(); };
    const bool violation = a.action.override && a.action.type == model::ActionType::MovePod;
    for (const auto& c : a.changes) {
        if (onMap(c.from)) {
            m_changedIds.push_back(c.from);
            ++m_changedCount[c.from.index()];
            touch(c.from);
        }
        if (onMap(c.to)) {
            m_changedIds.push_back(c.to);
            ++m_changedCount[c.to.index()];
            touch(c.to);
            if (violation) {
                m_violationIds.push_back(c.to);
                ++m_violationCount[c.to.index()];
            }
        }
    }
    for (model::NodeId n : a.nodesRemoved)
        if (onMap(n)) {
            m_removedIds.push_back(n);
            ++m_removedCount[n.index()];
            touch(n);
        }
    if (a.action.type == model::ActionType::AddNode && !a.nodesAdded.empty()) {
        const model::DomainId domain = addedNodeDomain(a.action, topology);
        for (model::NodeId n : a.nodesAdded)
            m_addedIds.emplace_back(n, domain);
    }
    m_spans.push_back({ m_changedIds.size(), m_violationIds.size(), m_removedIds.size(), m_addedIds.size() });
}

void PlanMarksTracker::uncountLast()
{
    m_spans.pop_back();
    const Span begin = m_spans.empty() ? Span {} : m_spans.back();
    for (std::size_t i = begin.changedEnd; i < m_changedIds.size(); ++i) {
        --m_changedCount[m_changedIds[i].index()];
        touch(m_changedIds[i]);
    }
    for (std::size_t i = begin.violationsEnd; i < m_violationIds.size(); ++i)
        --m_violationCount[m_violationIds[i].index()];
    for (std::size_t i = begin.removedEnd; i < m_removedIds.size(); ++i) {
        --m_removedCount[m_removedIds[i].index()];
        touch(m_removedIds[i]);
    }
    m_changedIds.resize(begin.changedEnd);
    m_violationIds.resize(begin.violationsEnd);
    m_removedIds.resize(begin.removedEnd);
    m_addedIds.resize(begin.addedEnd);
}

void PlanMarksTracker::publish(const model::PlanLedger& state, bool anyApplied)
{
    // A node's emptiness changes only when an action naming it was applied or taken back: its
    // pods moved, or it went or came back.
    for (model::NodeId n : m_dirtyNodes) {
        m_dirty[n.index()] = 0;
        m_emptied[n.index()] = m_changedCount[n.index()] > 0 && state.nodePresent(n) && isEmptiedByPlan(state, n) ? 1 : 0;
    }
    m_dirtyNodes.clear();
    if (!anyApplied) {
        m_marks = nullptr;
        return;
    }
    auto marks = std::make_shared<PlanMarks>();
    const std::size_t nodes = m_changedCount.size();
    for (std::size_t i = 0; i < nodes; ++i) {
        const bool changed = m_changedCount[i] > 0, violation = m_violationCount[i] > 0, removed = m_removedCount[i] > 0;
        if (!changed && !violation && !removed)
            continue;
        const model::NodeId n(static_cast<std::uint32_t>(i));
        const bool present = state.nodePresent(n);
        if (changed && present) {
            marks->changed.push_back(n);
            if (m_emptied[i] != 0)
                marks->emptied.push_back(n);
        }
        if (violation)
            marks->violations.push_back(n);
        if (removed && !present)
            marks->removed.push_back(n);
    }
    for (const auto& [n, domain] : m_addedIds)
        if (state.nodePresent(n))
            marks->added.emplace_back(n, domain);
    m_marks = std::move(marks);
}

} // namespace fleet::views
