// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity: required pod affinity and anti-affinity, both directions.
// Source: pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (kubernetes/kubernetes):
//   existing pods' anti-affinity: each placed pod with a required anti-affinity term that the
//     incoming pod matches (the term's namespaces, or the existing pod's own namespace when it
//     names none and has no namespaceSelector, or a namespace the namespaceSelector matches;
//     and the term's label selector) forbids the topology domain of its node (term.topologyKey);
//   the pod's affinity: for every term, the node must have the term's topology key and its
//     domain must hold a pod that matches all the pod's affinity terms; except that when no
//     pod anywhere matches them and the pod matches its own terms, it passes (the first pod of
//     a group with affinity to itself), on a node that has every term's topology key
//     (satisfyPodAffinity: "All topology labels must exist on the node");
//   the pod's anti-affinity: the node fails when, for any term, its domain holds a pod that
//     matches that term.
// Counted over the plan's current placement (the ledger's label groups), present nodes only,
// the moving pod excluded. Namespace labels come from ClusterStore::namespaceLabels(); an
// unknown namespace has none.
#include "filterplugins_p.h"
#include "matching.h"

#include <algorithm>

namespace fleet::model::scheduling {

namespace {

/// Whether a pod in namespace `podNs` is in the namespaces of `term`, whose owner is in `ownerNs`.
bool namespaceMatches(const ClusterStore& store, const PodAffinityTerm& term, StringId ownerNs, StringId podNs)
{
    if (term.namespaces.empty() && !term.hasNamespaceSelector)
        return podNs == ownerNs;
    if (std::binary_search(term.namespaces.begin(), term.namespaces.end(), podNs))
        return true;
    return term.hasNamespaceSelector && selectorMatches(term.namespaceSelector, store.namespaceLabels(podNs));
}

const LabelColumn& columnOf(const PlanLedger::Private& s, StringId key)
{
    static const LabelColumn kEmpty;
    const LabelColumn* col = s.column(key);
    return col ? *col : kEmpty;
}

/// A pod of label group `group` on node `n` (not the moving pod), for a reason's name.
std::string podOfGroupOn(const Ctx& c, const std::vector<std::uint32_t>& groups, NodeId n)
{
    for (PodId q : c.state->nodePods(n))
        if (q != c.pod && std::find(groups.begin(), groups.end(), c.s->podGroup[q.index()]) != groups.end())
            return std::string(c.store->podNamespace(c.state->podTemplate(q))) + "/" + std::string(c.state->podName(q));
    return "?";
}

/// Counts, by topology value of `term.topologyKey`, the pods of `groups` on present nodes.
void countTerm(const Ctx& c, TermCounts& tc, bool& anyAdded)
{
    const LabelColumn& col = *tc.column;
    std::size_t expected = 0;
    for (std::uint32_t g : tc.groups)
        expected += c.s->labelCounts.nodes(g).size();
    tc.counts.reset(col.values.size(), 0, expected);
    tc.example.reset(col.values.size(), kNone, expected);
    for (std::uint32_t g : tc.groups)
        for (NodeId n : c.s->labelCounts.nodes(g)) {
            const std::int32_t count = countExcludingPod(c, g, n);
            if (count <= 0 || !c.state->nodePresent(n) || n.index() >= col.valueOfNode.size())
                continue;
            const std::uint32_t v = col.valueOfNode[n.index()];
            if (v == kNone)
                continue;
            tc.counts.at(v) += count;
            if (std::uint32_t& e = tc.example.at(v); e == kNone)
                e = n.value;
            anyAdded = true;
        }
}

std::uint32_t valueAt(const LabelColumn& col, NodeId n)
{
    return n.index() < col.valueOfNode.size() ? col.valueOfNode[n.index()] : kNone;
}

} // namespace

void prepareInterPod(Ctx& c)
{
    const PlanLedger::Private& s = *c.s;
    const ClusterStore& store = *c.store;
    const std::span<const Label> labels = store.podLabels(c.pod);

    // Existing pods' anti-affinity against this pod: only the terms the pod's labels could
    // match (the ledger's index by each selector's In / Exists requirement), each checked in
    // full; O(the pod's labels + those terms), not O(every anti-affinity group).
    std::vector<std::uint64_t> candidates = s.antiTermsAny;
    for (const Label& l : labels) {
        if (const auto it = s.antiTermsByLabel.find(std::uint64_t { l.key.value } << 32 | l.value.value); it != s.antiTermsByLabel.end())
            candidates.insert(candidates.end(), it->second.begin(), it->second.end());
        if (const auto it = s.antiTermsByKey.find(l.key.value); it != s.antiTermsByKey.end())
            candidates.insert(candidates.end(), it->second.begin(), it->second.end());
    }
    // By group, then term: the order of a scan of every group, so the same blocking pod is named.
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (const std::uint64_t entry : candidates) {
        const auto ag = static_cast<std::uint32_t>(entry >> 32);
        const PodAffinityTerm& t = s.antiSets[s.antiGroupSet[ag]][static_cast<std::uint32_t>(entry)];
        if (!namespaceMatches(store, t, s.antiGroupNamespace[ag], c.ns) || !selectorMatches(t.selector, labels))
            continue;
        const LabelColumn& col = columnOf(s, t.topologyKey);
        auto it = std::find_if(c.blocked.begin(), c.blocked.end(), [&](const BlockedValues& b) { return b.column == &col; });
        if (it == c.blocked.end()) {
            // Sized for the sparse case: a hostname key, a few holders.
            BlockedValues b;
            b.column = &col;
            b.node.reset(col.values.size(), kNone, 0);
            b.antiGroup.reset(col.values.size(), kNone, 0);
            c.blocked.push_back(std::move(b));
            it = c.blocked.end() - 1;
        }
        for (NodeId n : s.antiCounts.nodes(ag)) {
            std::int32_t count = s.antiCounts.count(ag, n);
            if (ag == c.antiGroup && n == c.from)
                --count;
            const std::uint32_t v = valueAt(col, n);
            if (count <= 0 || v == kNone || !c.state->nodePresent(n) || it->node.get(v) != kNone)
                continue;
            it->node.at(v) = n.value;
            it->antiGroup.at(v) = ag;
        }
    }

    // The pod's own affinity: groups matching all its terms.
    const auto affinity = store.podAffinity(c.pod);
    if (!affinity.empty()) {
        std::vector<std::uint32_t> all;
        bool first = true;
        c.selfMatchesAffinity = true;
        for (const PodAffinityTerm& t : affinity) {
            const StringId ownerNs = c.ns;
            auto groups = matchingGroups(s, t.selector, [&](StringId ns) { return namespaceMatches(store, t, ownerNs, ns); });
            std::sort(groups.begin(), groups.end());
            if (first)
                all = std::move(groups);
            else
                all.erase(std::remove_if(all.begin(), all.end(), [&](std::uint32_t g) { return !std::binary_search(groups.begin(), groups.end(), g); }),
                    all.end());
            first = false;
            c.selfMatchesAffinity = c.selfMatchesAffinity && namespaceMatches(store, t, c.ns, c.ns) && selectorMatches(t.selector, labels);
        }
        for (const PodAffinityTerm& t : affinity) {
            TermCounts tc;
            tc.source = &t;
            tc.column = &columnOf(s, t.topologyKey);
            tc.groups = all;
            countTerm(c, tc, c.anyAffinityMatch);
            c.affinityTerms.push_back(std::move(tc));
        }
    }

    // The pod's own anti-affinity: per term.
    for (const PodAffinityTerm& t : store.podAntiAffinity(c.pod)) {
        TermCounts tc;
        tc.source = &t;
        tc.column = &columnOf(s, t.topologyKey);
        const StringId ownerNs = c.ns;
        tc.groups = matchingGroups(s, t.selector, [&](StringId ns) { return namespaceMatches(store, t, ownerNs, ns); });
        bool unused = false;
        countTerm(c, tc, unused);
        c.antiAffinityTerms.push_back(std::move(tc));
    }
}

bool checkInterPod(const Ctx& c, NodeId n, Reasons out)
{
    bool ok = true;
    for (const BlockedValues& b : c.blocked) {
        const std::uint32_t v = valueAt(*b.column, n);
        if (v == kNone || b.node.get(v) == kNone)
            continue;
        ok = false;
        if (!out)
            return false;
        // Name the existing pod whose anti-affinity forbids the domain.
        const NodeId holder(b.node.get(v));
        std::string who = "?";
        for (PodId q : c.state->nodePods(holder))
            if (q != c.pod && c.s->podAntiGroup[q.index()] == b.antiGroup.get(v)) {
                who = std::string(c.store->podNamespace(c.state->podTemplate(q))) + "/" + std::string(c.state->podName(q));
                break;
            }
        out->push_back(makeReason(ReasonKind::PodAntiAffinity, who,
            who + " in " + domainText(*c.s, *b.column, n) + " has a required anti-affinity that this pod matches"));
    }
    if (!c.affinityTerms.empty()) {
        // Every term's topology key must be on the node, the first pod's exception included.
        const TermCounts* keyMissing = nullptr;
        const TermCounts* failing = nullptr;
        for (const TermCounts& tc : c.affinityTerms) {
            const std::uint32_t v = valueAt(*tc.column, n);
            if (v == kNone) {
                keyMissing = &tc;
                break;
            }
            if (failing == nullptr && tc.counts.get(v) <= 0)
                failing = &tc;
        }
        if (keyMissing != nullptr || (failing != nullptr && (c.anyAffinityMatch || !c.selfMatchesAffinity))) {
            ok = false;
            if (!out)
                return false;
            const std::string key(c.s->str(keyMissing ? keyMissing->source->topologyKey : failing->source->topologyKey));
            out->push_back(makeReason(ReasonKind::PodAffinityMismatch, {},
                keyMissing ? std::string(c.state->nodeName(n)) + " has no label " + key + ", the topology key of the pod's required pod affinity"
                           : "no pod that the pod's required pod affinity asks for runs in " + domainText(*c.s, *failing->column, n)));
        }
    }
    for (const TermCounts& tc : c.antiAffinityTerms) {
        const std::uint32_t v = valueAt(*tc.column, n);
        if (v == kNone || tc.counts.get(v) <= 0)
            continue;
        ok = false;
        if (!out)
            return false;
        const std::string who = podOfGroupOn(c, tc.groups, NodeId(tc.example.get(v)));
        out->push_back(makeReason(ReasonKind::PodAntiAffinity, who,
            "the pod's required anti-affinity forbids " + domainText(*c.s, *tc.column, n) + ", where " + who + " runs"));
    }
    return ok;
}

} // namespace fleet::model::scheduling
