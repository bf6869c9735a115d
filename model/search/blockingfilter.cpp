// SPDX-License-Identifier: Apache-2.0
// The filter that turns a pod away from the most nodes (blockingfilter.h).
#include "blockingfilter.h"

#include "model/figures.h"
#include "model/scheduling/filters.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace fleet::model {

namespace {

template <class T>
void append(std::string& key, const T& value)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    key.append(bytes, sizeof(T));
}

template <class T>
void appendSpan(std::string& key, std::span<const T> s)
{
    append(key, reinterpret_cast<std::uintptr_t>(s.data())); // interned: equal specs share storage
    append(key, s.size());
}

/// The filters that read the node only, and of the pod only its tolerations, nodeSelector and
/// required node affinity (NodeUnschedulable, readiness, TaintToleration, NodeAffinity, the GPU
/// model): first in plugin order, and the same for every pod of one eligibility class.
bool readsNodeOnly(ReasonKind k) noexcept
{
    return k < ReasonKind::HostPortConflict && k >= ReasonKind::NodeUnschedulable;
}

} // namespace

BlockingFilterMemo::ClassTally BlockingFilterMemo::judgeClass(
    const PlanLedger& state, PodId p, NodeId from, const std::vector<std::uint32_t>& domainOf, std::size_t sample)
{
    ClassTally t;
    const std::size_t nodes = state.nodeCount();
    const bool within = !domainOf.empty() && from.isValid() && from.index() < domainOf.size();
    const std::uint32_t domain = within ? domainOf[from.index()] : 0;
    auto eligible = [&](std::uint32_t i) {
        const NodeId n(i);
        return n != from && state.nodePresent(n) && (!within || (i < domainOf.size() && domainOf[i] == domain));
    };
    for (std::uint32_t i = 0; i < nodes; ++i)
        t.of += eligible(i) ? 1 : 0;
    if (t.of == 0 || sample == 0)
        return t;
    const PodFeasibility feasibility(state, p);
    if (feasibility.immovable())
        return t;
    const std::int64_t cap = static_cast<std::int64_t>(sample);
    const std::int64_t stride = t.of <= cap ? 1 : (t.of + cap - 1) / cap;
    std::int64_t k = 0;
    for (std::uint32_t i = 0; i < nodes; ++i) {
        if (!eligible(i) || k++ % stride != 0)
            continue;
        ++t.judged;
        const NodeId n(i);
        const Verdict v = feasibility.verdict(n);
        if (v.reasons.empty() || !readsNodeOnly(v.reasons.front().kind))
            t.podDependent.push_back(n);
        else
            ++t.counts[v.reasons.front().code()];
    }
    return t;
}

BlockingFilter BlockingFilterMemo::forPod(const ClassTally& t, const PlanLedger& state, PodId p, std::size_t poolSample)
{
    poolSample = std::max<std::size_t>(poolSample, 1);
    BlockingFilter out;
    out.of = t.of;
    out.judged = t.judged;
    // In units of the class's sample; the pool's nodes judged (at most kBlockingFilterPoolSample,
    // every k-th) stand for all of its sampled ones.
    std::map<std::string, double> counts(t.counts.begin(), t.counts.end());
    if (!t.podDependent.empty()) {
        const PodFeasibility feasibility(state, p);
        const std::size_t pool = t.podDependent.size();
        const std::size_t stride = (pool + poolSample - 1) / poolSample;
        std::map<std::string, std::int64_t> poolCounts;
        std::size_t judged = 0;
        for (std::size_t i = 0; i < pool; i += stride) {
            ++judged;
            const NodeId n = t.podDependent[i];
            const Verdict v = feasibility.verdict(n);
            if (!v.reasons.empty())
                ++poolCounts[v.reasons.front().code()];
            else if (!state.nodePresent(n))
                ++poolCounts[reasonCode(ReasonKind::NodeGone, {})];
        }
        for (const auto& [code, n] : poolCounts)
            counts[code] += static_cast<double>(n) * static_cast<double>(pool) / static_cast<double>(judged);
        if (judged < pool)
            out.judged = t.judged - static_cast<std::int64_t>(pool - judged);
    }
    double best = 0, next = 0;
    for (const auto& [code, n] : counts) { // code order: the first of equal counts wins
        if (n > best) {
            next = best;
            out.nextCode = std::move(out.code);
            best = n;
            out.code = code;
        } else if (n > next) {
            next = n;
            out.nextCode = code;
        }
    }
    const double scale = t.judged > 0 ? static_cast<double>(t.of) / static_cast<double>(t.judged) : 0.0;
    out.nodes = std::llround(best * scale);
    out.nextNodes = std::llround(next * scale);
    return out;
}

BlockingFilter tallyBlockingFilter(const PlanLedger& state, PodId p, NodeId from, const std::vector<std::uint32_t>& domainOf, std::size_t sample)
{
    return BlockingFilterMemo::forPod(BlockingFilterMemo::judgeClass(state, p, from, domainOf, sample), state, p, kBlockingFilterPoolSample);
}

BlockingFilter BlockingFilterMemo::of(const PlanLedger& state, PodId p, NodeId from, const std::vector<std::uint32_t>& domainOf)
{
    const ClusterStore& store = state.store();
    const PodId spec = p.isValid() && p.index() < state.podCount() ? state.podTemplate(p) : p;
    if (!spec.isValid() || spec.index() >= store.podCount())
        return {};
    // The eligibility class: what the node-only filters read of the pod.
    std::string& key = m_key;
    key.clear();
    appendSpan(key, store.podTolerations(spec));
    appendSpan(key, store.podNodeSelector(spec));
    appendSpan(key, store.podRequiredAffinity(spec));
    if (!domainOf.empty() && from.isValid() && from.index() < domainOf.size())
        append(key, domainOf[from.index()]);
    const std::size_t classKeyBytes = key.size();
    // What the other filters read of the pod: requests, host ports, volumes, spread
    // constraints, affinity, anti-affinity, namespace (its labels only matter to existing pods'
    // anti-affinity: pods of one workload share them, and a workload is judged once anyway).
    append(key, store.podRequest(spec).amounts);
    appendSpan(key, store.podExtendedRequest(spec));
    append(key, store.podGpuShareMilli(spec));
    appendSpan(key, store.podHostPorts(spec));
    appendSpan(key, store.podVolumes(spec));
    appendSpan(key, store.podAffinity(spec));
    appendSpan(key, store.podAntiAffinity(spec));
    appendSpan(key, store.podSpreadConstraints(spec));
    append(key, reinterpret_cast<std::uintptr_t>(store.podNamespace(spec).data()));
    if (auto it = m_pods.find(key); it != m_pods.end())
        return it->second;
    // Past the budget a new class or pod is still judged, on the smaller samples: every entry
    // names a filter, those judged late from fewer nodes.
    const bool spent = m_budget > 0 && m_verdicts >= m_budget;
    const auto start = std::chrono::steady_clock::now();
    const std::string classKey = key.substr(0, classKeyBytes);
    auto c = m_classes.find(classKey);
    if (c == m_classes.end()) {
        c = m_classes.emplace(classKey, judgeClass(state, p, from, domainOf, spent ? kBlockingFilterSpentSample : kBlockingFilterSample)).first;
        m_verdicts += c->second.judged;
    }
    const std::size_t poolSample = spent ? kBlockingFilterSpentPoolSample : kBlockingFilterPoolSample;
    BlockingFilter b = forPod(c->second, state, p, poolSample);
    m_verdicts += static_cast<std::int64_t>(std::min(c->second.podDependent.size(), poolSample));
    m_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m_pods.emplace(key, b);
    return b;
}

std::string blockingFilterClause(const BlockingFilter& b)
{
    if (b.code.empty())
        return {};
    const std::string about = b.judged < b.of ? "about " : "";
    std::string text = "; the most common blocking filter: " + b.code + " (rejects " + about + formatCount(b.nodes) + " of " + formatCount(b.of)
        + (b.of == 1 ? " other node" : " other nodes");
    if (b.judged < b.of)
        text += ", " + formatCount(b.judged) + " judged";
    if (!b.nextCode.empty())
        text += "; then " + b.nextCode + ": " + about + formatCount(b.nextNodes);
    return text + ")";
}

} // namespace fleet::model
