// SPDX-License-Identifier: Apache-2.0
#include "disruptionbudgets.h"

#include "model/scheduling/matching.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace fleet::model {

namespace {

// ceil(value% of total), as intstr.GetScaledValueFromIntOrPercent(..., roundUp=true).
std::int32_t scaled(const IntOrPercent& v, std::int32_t total) noexcept
{
    if (!v.percent)
        return v.value;
    const std::int64_t num = static_cast<std::int64_t>(v.value) * total;
    return static_cast<std::int32_t>((num + 99) / 100);
}

} // namespace

DisruptionBudgets::DisruptionBudgets(const ClusterStore& store)
    : m_store(store)
{
    const std::span<const DisruptionBudget> budgets = store.disruptionBudgets();
    m_status.resize(budgets.size());
    m_spent.assign(budgets.size(), 0);
    if (budgets.empty())
        return;
    // Budgets by namespace, then matched once per (namespace, label set): the pods of a
    // workload share one interned label set, so this is O(label sets x budgets), not per pod.
    // A label set is tried only against the budgets it can match: a budget whose selector has
    // an In requirement is found by that key and its values among the set's labels (the
    // simulated 100,000-node fleet's pods each carry a label of their own, so every set was
    // tried against every budget of its namespace: 1.1 s of a report's replay, twice).
    struct NamespaceBudgets {
        std::vector<std::uint32_t> unanchored; // no In requirement: tried on every label set
        std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> byLabel; // (key, value) of the first In requirement
    };
    const auto labelKey = [](StringId key, StringId value) {
        return (static_cast<std::uint64_t>(key.value) << 32) | value.value;
    };
    std::unordered_map<std::uint32_t, NamespaceBudgets> byNamespace;
    for (std::uint32_t b = 0; b < budgets.size(); ++b) {
        NamespaceBudgets& ns = byNamespace[budgets[b].namespaceName.value];
        const InternedSelector& selector = budgets[b].selector;
        if (selector.null)
            continue; // selects no pod (selectorMatches() is false for it)
        const auto in = std::find_if(selector.requirements.begin(), selector.requirements.end(),
            [](const MatchRequirement& r) { return r.op == MatchOperator::In; });
        if (in == selector.requirements.end()) {
            ns.unanchored.push_back(b);
            continue;
        }
        for (const StringId value : in->values)
            ns.byLabel[labelKey(in->key, value)].push_back(b);
    }
    std::vector<std::uint32_t> candidates;
    struct Match {
        std::vector<std::uint32_t> selected; // the controller's rule (empty selector: all)
        std::vector<std::uint32_t> guards;   // the eviction API's rule (empty selector: none)
    };
    std::unordered_map<const Label*, std::unordered_map<std::uint32_t, Match>> cache;
    const StringPool& strings = store.strings();
    std::vector<std::int32_t> selectedLive(budgets.size(), 0), selectedAll(budgets.size(), 0), healthy(budgets.size(), 0);
    m_guardBegin.assign(store.podCount() + 1, 0);
    for (std::size_t i = 0; i < store.podCount(); ++i) {
        const PodId p(static_cast<std::uint32_t>(i));
        m_guardBegin[i] = static_cast<std::uint32_t>(m_guards.size());
        const StringId ns = strings.find(store.podNamespace(p));
        const auto nsIt = byNamespace.find(ns.value);
        if (nsIt == byNamespace.end())
            continue;
        const std::span<const Label> labels = store.podLabels(p);
        auto [it, fresh] = cache[labels.data()].try_emplace(ns.value);
        Match& m = it->second;
        if (fresh) {
            const NamespaceBudgets& nsBudgets = nsIt->second;
            candidates = nsBudgets.unanchored;
            for (const Label& l : labels)
                if (const auto found = nsBudgets.byLabel.find(labelKey(l.key, l.value)); found != nsBudgets.byLabel.end())
                    candidates.insert(candidates.end(), found->second.begin(), found->second.end());
            // In budget order, as every budget was tried before (a set's labels have distinct
            // keys, so a budget is found at most once by its requirement).
            std::sort(candidates.begin(), candidates.end());
            for (const std::uint32_t b : candidates) {
                if (!scheduling::selectorMatches(budgets[b].selector, labels))
                    continue;
                m.selected.push_back(b);
                if (!budgets[b].selector.requirements.empty())
                    m.guards.push_back(b);
            }
        }
        for (const std::uint32_t b : m.selected) {
            ++selectedAll[b];
            if (!store.podIsTerminal(p))
                ++selectedLive[b];
            if ((store.podFlags(p) & PodFlagReady) && !store.podIsTerminal(p))
                ++healthy[b];
        }
        m_guards.insert(m_guards.end(), m.guards.begin(), m.guards.end());
    }
    m_guardBegin[store.podCount()] = static_cast<std::uint32_t>(m_guards.size());

    for (std::size_t b = 0; b < budgets.size(); ++b) {
        const DisruptionBudget& pdb = budgets[b];
        Status& s = m_status[b];
        std::int32_t expected = 0, desired = 0;
        if (pdb.maxUnavailable.set) {
            expected = selectedLive[b];
            desired = std::max(0, expected - scaled(pdb.maxUnavailable, expected));
        } else if (pdb.minAvailable.set) {
            if (pdb.minAvailable.percent) {
                expected = selectedLive[b];
                desired = scaled(pdb.minAvailable, expected);
            } else {
                expected = selectedAll[b];
                desired = pdb.minAvailable.value;
            }
        }
        s.expected = expected;
        if (pdb.disruptionsAllowed >= 0) {
            s.fromStatus = true;
            s.disruptionsAllowed = pdb.disruptionsAllowed;
        } else {
            s.currentHealthy = healthy[b];
            s.desiredHealthy = desired;
            const std::int32_t allowed = healthy[b] - desired;
            s.disruptionsAllowed = (expected <= 0 || allowed <= 0) ? 0 : allowed;
        }
    }
}

std::span<const std::uint32_t> DisruptionBudgets::guarding(PodId p) const noexcept
{
    if (m_guardBegin.empty())
        return {};
    return { m_guards.data() + m_guardBegin[p.index()], m_guards.data() + m_guardBegin[p.index() + 1] };
}

DisruptionBudgets::Decision DisruptionBudgets::check(PodId p) const
{
    Decision d;
    const std::span<const std::uint32_t> guards = guarding(p);
    if (guards.empty())
        return d;
    const PodPhase phase = m_store.podPhase(p);
    if (phase == PodPhase::Pending || phase == PodPhase::Succeeded || phase == PodPhase::Failed)
        return d; // canIgnorePDB
    const std::span<const DisruptionBudget> budgets = m_store.disruptionBudgets();
    auto budgetName = [&](std::uint32_t b) {
        return std::string(m_store.str(budgets[b].namespaceName)) + "/" + std::string(m_store.str(budgets[b].name));
    };
    if (guards.size() > 1) {
        d.allowed = false;
        std::string names;
        for (const std::uint32_t b : guards)
            names += (names.empty() ? "" : ", ") + budgetName(b);
        for (const std::uint32_t b : guards)
            d.reasons.push_back(makeReason(ReasonKind::DisruptionBudget, budgetName(b),
                "the pod is selected by more than one PodDisruptionBudget (" + names
                    + "), which the eviction API refuses to evict"));
        return d;
    }
    const std::uint32_t b = guards.front();
    const Status& s = m_status[b];
    const bool ready = (m_store.podFlags(p) & PodFlagReady) != 0;
    if (!ready && !s.fromStatus && s.desiredHealthy > 0 && s.currentHealthy - m_spent[b] >= s.desiredHealthy)
        return d; // an unready pod does not count as healthy: evicted without spending
    if (s.disruptionsAllowed - m_spent[b] > 0) {
        d.spend = static_cast<std::int32_t>(b);
        return d;
    }
    d.allowed = false;
    std::string message = "PodDisruptionBudget " + budgetName(b) + " allows " + std::to_string(s.disruptionsAllowed)
        + " disruption" + (s.disruptionsAllowed == 1 ? "" : "s");
    message += s.fromStatus ? " (status.disruptionsAllowed)" : " (" + std::to_string(s.currentHealthy) + " healthy, "
            + std::to_string(s.desiredHealthy) + " desired)";
    message += m_spent[b] > 0 ? " and the plan has spent " + std::to_string(m_spent[b]) : std::string();
    d.reasons.push_back(makeReason(ReasonKind::DisruptionBudget, budgetName(b), std::move(message)));
    return d;
}

void DisruptionBudgets::spend(std::int32_t budget) noexcept
{
    if (budget >= 0 && static_cast<std::size_t>(budget) < m_spent.size())
        ++m_spent[static_cast<std::size_t>(budget)];
}

void DisruptionBudgets::unspend(std::int32_t budget) noexcept
{
    if (budget >= 0 && static_cast<std::size_t>(budget) < m_spent.size() && m_spent[static_cast<std::size_t>(budget)] > 0)
        --m_spent[static_cast<std::size_t>(budget)];
}

} // namespace fleet::model
