// SPDX-License-Identifier: Apache-2.0
// PodFeasibility and checkMove (filters.h): the per-pod precomputation, then each node judged
// by the plugins in the kube-scheduler's order (pkg/scheduler/apis/config/v1/default_plugins.go).
// Also the helpers the plugins share: compiled node selector terms and selector matching over
// the ledger's label groups.
#include "filterplugins_p.h"
#include "matching.h"
#include "model/nodeboundpods.h"

#include <algorithm>

namespace fleet::model {

using namespace scheduling;

namespace scheduling {

namespace {
bool labelRequirementParses(const PlanLedger::Private& s, const NodeSelectorRequirement& r)
{
    std::vector<std::string_view> values;
    values.reserve(r.values.size());
    for (StringId v : r.values)
        values.push_back(s.str(v));
    return scheduling::labelRequirementParses(r.op, s.str(r.key), values);
}
} // namespace

std::vector<CompiledTerm> compileTerms(const PlanLedger::Private& s, std::span<const NodeSelectorTerm> terms)
{
    std::vector<CompiledTerm> out;
    out.reserve(terms.size());
    for (const NodeSelectorTerm& t : terms) {
        CompiledTerm ct;
        for (const NodeSelectorRequirement& r : t.requirements) {
            CompiledRequirement cr;
            cr.source = &r;
            if (r.matchField) {
                // nodeaffinity.go: only metadata.name, In / NotIn with exactly one value.
                if (s.str(r.key) != "metadata.name" || r.values.size() != 1
                    || (r.op != SelectorOperator::In && r.op != SelectorOperator::NotIn)) {
                    cr.invalid = true;
                } else {
                    const std::string_view name = s.str(r.values.front());
                    NodeId n = s.store->findNode(name);
                    for (std::size_t a = 0; !n.isValid() && a < s.added.size(); ++a)
                        if (s.str(s.added[a].name) == name)
                            n = NodeId(static_cast<std::uint32_t>(s.storeNodes + a));
                    if (n.isValid())
                        cr.names.push_back(n);
                }
            } else if (!labelRequirementParses(s, r)) {
                cr.invalid = true; // the whole term matches no node
            } else if ((cr.column = s.column(r.key)) != nullptr) {
                if (r.op == SelectorOperator::In || r.op == SelectorOperator::NotIn) {
                    for (StringId v : r.values)
                        if (const auto it = cr.column->indexOfValue.find(v.value); it != cr.column->indexOfValue.end())
                            cr.values.push_back(it->second);
                    std::sort(cr.values.begin(), cr.values.end());
                } else if (r.op == SelectorOperator::Gt || r.op == SelectorOperator::Lt) {
                    std::int64_t want = 0;
                    if (r.values.size() != 1 || !parseInt64(s.str(r.values.front()), want)) {
                        cr.invalid = true;
                    } else {
                        cr.valueOk.resize(cr.column->values.size());
                        for (std::size_t v = 0; v < cr.column->values.size(); ++v) {
                            std::int64_t have = 0;
                            cr.valueOk[v] = parseInt64(s.str(cr.column->values[v]), have)
                                && (r.op == SelectorOperator::Gt ? have > want : have < want);
                        }
                    }
                }
            }
            ct.push_back(std::move(cr));
        }
        out.push_back(std::move(ct));
    }
    return out;
}

bool requirementPasses(const PlanLedger::Private& s, const CompiledRequirement& r, NodeId n)
{
    if (r.invalid)
        return false;
    const NodeSelectorRequirement& src = *r.source;
    if (src.matchField) {
        const bool listed = std::find(r.names.begin(), r.names.end(), n) != r.names.end();
        return src.op == SelectorOperator::In ? listed : !listed;
    }
    if (r.column == nullptr)
        return requirementMatches(src, NodeLabels { &s, n });
    const std::uint32_t v = r.column->valueOfNode[n.index()];
    switch (src.op) {
    case SelectorOperator::In: return v != kNone && std::binary_search(r.values.begin(), r.values.end(), v);
    case SelectorOperator::NotIn: return v == kNone || !std::binary_search(r.values.begin(), r.values.end(), v);
    case SelectorOperator::Exists: return v != kNone;
    case SelectorOperator::DoesNotExist: return v == kNone;
    case SelectorOperator::Gt:
    case SelectorOperator::Lt:
        if (v == kNone)
            return false;
        if (v < r.valueOk.size())
            return r.valueOk[v] != 0;
        return requirementMatches(src, NodeLabels { &s, n }); // a value that came after compiling
    }
    return false;
}

bool termPasses(const PlanLedger::Private& s, const CompiledTerm& t, NodeId n)
{
    if (t.empty())
        return false;
    for (const CompiledRequirement& r : t)
        if (!requirementPasses(s, r, n))
            return false;
    return true;
}

bool termsPass(const PlanLedger::Private& s, const std::vector<CompiledTerm>& terms, NodeId n)
{
    if (terms.empty())
        return true;
    for (const CompiledTerm& t : terms)
        if (termPasses(s, t, n))
            return true;
    return false;
}

std::vector<std::uint32_t> matchingGroups(const PlanLedger::Private& s, const InternedSelector& selector,
    const std::function<bool(StringId ns)>& namespaceOk)
{
    std::vector<std::uint32_t> out;
    if (selector.null)
        return out;
    // Candidates from the inverted index: the groups holding one value of an In requirement,
    // or the key of an Exists requirement; all groups only when the selector has neither.
    const std::vector<std::uint32_t>* only = nullptr;
    std::vector<std::uint32_t> merged;
    bool all = true;
    for (const MatchRequirement& r : selector.requirements) {
        if (r.op == MatchOperator::In) {
            all = false;
            if (r.values.size() == 1) {
                const auto it = s.groupsByLabel.find(std::uint64_t { r.key.value } << 32 | r.values.front().value);
                only = it == s.groupsByLabel.end() ? &merged : &it->second;
            } else {
                for (StringId v : r.values)
                    if (const auto it = s.groupsByLabel.find(std::uint64_t { r.key.value } << 32 | v.value); it != s.groupsByLabel.end())
                        merged.insert(merged.end(), it->second.begin(), it->second.end());
                only = &merged;
            }
            break;
        }
    }
    if (all)
        for (const MatchRequirement& r : selector.requirements)
            if (r.op == MatchOperator::Exists) {
                all = false;
                const auto it = s.groupsByKey.find(r.key.value);
                only = it == s.groupsByKey.end() ? &merged : &it->second;
                break;
            }
    auto consider = [&](std::uint32_t g) {
        if (namespaceOk(s.groupNamespace[g]) && selectorMatches(selector, s.labelSets[s.groupLabelSet[g]]))
            out.push_back(g);
    };
    if (all) {
        for (std::uint32_t g = 0; g < s.groupLabelSet.size(); ++g)
            consider(g);
    } else {
        for (std::uint32_t g : *only)
            consider(g);
    }
    return out;
}

std::int32_t countExcludingPod(const Ctx& c, std::uint32_t group, NodeId n)
{
    const std::int32_t count = c.s->labelCounts.count(group, n);
    return group == c.group && n == c.from ? count - 1 : count;
}

std::string domainText(const PlanLedger::Private& s, const LabelColumn& col, NodeId n)
{
    const std::uint32_t v = col.valueOfNode[n.index()];
    if (v == kNone)
        return std::string(s.str(col.key)) + " (missing)";
    return std::string(s.str(col.key)) + "=" + std::string(s.str(col.values[v]));
}

} // namespace scheduling

const TaintVerdict& PodFeasibility::Private::taintVerdict(NodeId n) const
{
    if (n.index() < s->storeNodes)
        return taintSets[s->taintSetOfNode[n.index()]];
    static const TaintVerdict kNoTaints;
    const std::size_t a = n.index() - s->storeNodes;
    return a < addedNodeTaints.size() ? addedNodeTaints[a] : kNoTaints;
}

bool PodFeasibility::Private::nodeAffinityPasses(NodeId n) const
{
    return checkNodeAffinity(*this, n, nullptr);
}

// ---------------------------------------------------------------------------------------------

PodFeasibility::PodFeasibility(const PlanLedger& state, PodId p)
    : d(std::make_unique<Private>())
{
    Private& c = *d;
    c.state = &state;
    c.s = &PlanLedgerInternals::of(state);
    c.store = &state.store();
    if (!p.isValid() || p.index() >= state.podCount()) {
        c.pod = p;
        c.immovableReasons.push_back(makeReason(ReasonKind::Unsupported, "unknown-pod", "the pod is not in the loaded cluster"));
        return;
    }
    // The plugins read the pod's spec from the store: an added pod's is its template's.
    const PodId self = p;
    p = state.podTemplate(p);
    c.pod = p;
    c.from = state.podNode(self);
    c.ns = c.s->podNamespace[self.index()];
    c.group = c.s->podGroup[self.index()];
    c.antiGroup = c.s->podAntiGroup[self.index()];
    const std::string podName = std::string(c.store->podNamespace(p)) + "/" + std::string(c.store->podName(p));
    if (isNodeBoundPod(*c.store, p)) { // the rule (nodeboundpods.h); the reason says which kind
        if (c.store->podOwnerKind(p) == OwnerKind::DaemonSet)
            c.immovableReasons.push_back(makeReason(ReasonKind::DaemonSetPod, {},
                podName + " belongs to a DaemonSet, which runs one pod on each node it selects: it never moves"));
        if (c.store->podIsMirror(p))
            c.immovableReasons.push_back(makeReason(ReasonKind::MirrorPod, {},
                podName + " is a static (mirror) pod, run by its node's kubelet from a file: it never moves"));
    }
    if (c.store->podFlags(p) & PodFlagResourceClaims)
        c.immovableReasons.push_back(makeReason(ReasonKind::Unsupported, "dynamic-resource-allocation",
            podName + " uses resource claims (dynamic resource allocation), which Fleetscope does not model: it cannot judge the move"));
    if (!c.immovableReasons.empty())
        return;
    prepareTaints(c);
    prepareNodeAffinity(c);
    prepareResources(c);
    prepareVolumes(c);
    prepareSpread(c);
    prepareInterPod(c);
    c.hasNodeAffinity = !c.nodeSelector.empty() || !c.nodeSelectorUnindexed.empty() || !c.affinity.empty();
    c.hasPorts = !c.store->podHostPorts(p).empty();
    c.hasVolumes = !c.store->podVolumes(p).empty();
    c.hasInterPod = !c.blocked.empty() || !c.affinityTerms.empty() || !c.antiAffinityTerms.empty();
}

PodFeasibility::~PodFeasibility() = default;
PodFeasibility::PodFeasibility(PodFeasibility&&) noexcept = default;
PodFeasibility& PodFeasibility::operator=(PodFeasibility&&) noexcept = default;

bool PodFeasibility::immovable() const noexcept { return !d->immovableReasons.empty(); }

bool PodFeasibility::feasible(NodeId to) const noexcept
{
    const Private& c = *d;
    if (!c.immovableReasons.empty() || !c.state->nodePresent(to))
        return false;
    if (to == c.from)
        return true;
    // The same checks as verdict(), cheapest and most selective first; a rule the pod does not
    // have is not called.
    return checkTaints(c, to, nullptr) && checkResources(c, to, nullptr)
        && (!c.hasNodeAffinity || checkNodeAffinity(c, to, nullptr)) && checkUnschedulable(c, to, nullptr)
        && checkReadiness(c, to, nullptr) && (!c.hasPorts || checkPorts(c, to, nullptr))
        && (!c.hasVolumes || checkVolumes(c, to, nullptr)) && (c.spread.empty() || checkSpread(c, to, nullptr))
        && (!c.hasInterPod || checkInterPod(c, to, nullptr));
}

std::int64_t PodFeasibility::copiesThatFit(NodeId to, std::int64_t limit) const noexcept
{
    if (limit <= 0 || !feasible(to))
        return 0;
    if (to == d->from) // judged with the pod off its node: count the others only
        return 1;
    return scheduling::resourceCopies(*d, to, limit);
}

Verdict PodFeasibility::verdict(NodeId to) const
{
    const Private& c = *d;
    Verdict v;
    if (!c.immovableReasons.empty()) {
        v.reasons = c.immovableReasons;
        sortReasons(v.reasons);
        return v;
    }
    if (!c.state->nodePresent(to)) {
        const std::string name = to.isValid() && to.index() < c.state->nodeCount() ? std::string(c.state->nodeName(to)) : "the node";
        if (c.state->nodeCordonedByPlan(to)) // a drain cordoned it, then removed it
            v.reasons.push_back(makeReason(ReasonKind::NodeUnschedulable, {}, name + " was drained by the plan (cordoned, then removed)"));
        v.reasons.push_back(makeReason(ReasonKind::NodeGone, {}, name + " is not in the cluster under the plan (failed or removed)"));
        return v;
    }
    if (to != c.from) {
        std::vector<Reason>* out = &v.reasons;
        checkUnschedulable(c, to, out);
        checkReadiness(c, to, out);
        checkTaints(c, to, out);
        checkNodeAffinity(c, to, out);
        checkPorts(c, to, out);
        checkResources(c, to, out);
        checkVolumes(c, to, out);
        checkSpread(c, to, out);
        checkInterPod(c, to, out);
        sortReasons(v.reasons);
    }
    v.feasible = v.reasons.empty();
    return v;
}

void PodFeasibility::feasibleNodes(std::vector<std::uint8_t>& out) const
{
    const std::size_t nodes = d->state->nodeCount();
    out.assign(nodes, 0);
    if (immovable())
        return;
    for (std::size_t n = 0; n < nodes; ++n)
        out[n] = feasible(NodeId(static_cast<std::uint32_t>(n))) ? 1 : 0;
}

Verdict checkMove(const PlanLedger& state, PodId p, NodeId to)
{
    return PodFeasibility(state, p).verdict(to);
}

} // namespace fleet::model
