// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread, DoNotSchedule constraints only (ScheduleAnyway only scores).
// Source: pkg/scheduler/framework/plugins/podtopologyspread/filtering.go and common.go
// (kubernetes/kubernetes):
//   PreFilter counts, for each constraint, the pods of the pod's namespace matching its
//   selector on every eligible node: a node is eligible when it has the topology keys of all
//   the constraints and passes the inclusion policies (nodeAffinityPolicy Honor: the pod's
//   nodeSelector and required node affinity; nodeTaintsPolicy Honor: no untolerated NoSchedule
//   / NoExecute taint). Every eligible node's domain is a domain, with 0 pods if need be.
//   The global minimum is the least count over the domains, or 0 when there are fewer domains
//   than minDomains.
//   Filter: a node without the topology key fails; else skew = the count in the node's domain
//   + 1 if the pod matches its own selector - the global minimum, and the node fails when
//   skew > maxSkew.
// The moving pod is not counted where it is (it is taken off its node first). Terminating
// pods (metadata.deletionTimestamp set) are not counted either (countPodsMatchSelector skips
// them), although they still hold their node's resources for NodeResourcesFit.
#include "filterplugins_p.h"
#include "matching.h"

#include <algorithm>
#include <limits>

namespace fleet::model::scheduling {

namespace {

bool hasAllKeys(const Ctx& c, NodeId n)
{
    for (const SpreadState& sp : c.spread)
        if (n.index() >= sp.column->valueOfNode.size() || sp.column->valueOfNode[n.index()] == kNone)
            return false;
    return true;
}

bool eligible(const Ctx& c, const SpreadState& sp, NodeId n)
{
    if (!c.state->nodePresent(n) || !hasAllKeys(c, n))
        return false;
    if (sp.source->nodeAffinityPolicy == NodeInclusionPolicy::Honor && !c.nodeAffinityPasses(n))
        return false;
    if (sp.source->nodeTaintsPolicy == NodeInclusionPolicy::Honor && c.taintVerdict(n).anyUntolerated)
        return false;
    return true;
}

} // namespace

void prepareSpread(Ctx& c)
{
    const auto constraints = c.store->podSpreadConstraints(c.pod);
    for (const TopologySpreadConstraint& tc : constraints) {
        if (tc.whenUnsatisfiable != WhenUnsatisfiable::DoNotSchedule)
            continue;
        SpreadState sp;
        sp.source = &tc;
        sp.column = c.s->column(tc.topologyKey);
        if (sp.column == nullptr) {
            // No node was labelled with the key when the ledger was built, nor any pod named
            // it: every node lacks it. An empty stand-in column says so.
            static const LabelColumn kEmpty;
            sp.column = &kEmpty;
        }
        sp.selfMatch = selectorMatches(tc.selector, c.store->podLabels(c.pod));
        c.spread.push_back(std::move(sp));
    }
    if (c.spread.empty())
        return;
    for (SpreadState& sp : c.spread) {
        const LabelColumn& col = *sp.column;
        if (col.valueOfNode.empty())
            continue; // the stand-in: no domain at all
        const StringId ns = c.ns;
        const auto groups = matchingGroups(*c.s, sp.source->selector, [ns](StringId x) { return x == ns; });
        std::size_t expected = 0;
        for (std::uint32_t g : groups)
            expected += c.s->labelCounts.nodes(g).size();
        sp.counts.reset(col.values.size(), 0, expected);
        for (std::uint32_t g : groups)
            for (NodeId n : c.s->labelCounts.nodes(g)) {
                std::int32_t count = countExcludingPod(c, g, n);
                if (c.s->anyTerminating) {
                    // Terminating pods are not counted; the moving pod, when it is one, was
                    // taken off by countExcludingPod already.
                    std::int32_t terminating = c.s->terminatingCounts.count(g, n);
                    if (terminating > 0 && g == c.group && n == c.from && (c.store->podFlags(c.pod) & PodFlagTerminating))
                        --terminating;
                    count -= terminating;
                }
                if (count > 0 && eligible(c, sp, n))
                    sp.counts.at(col.valueOfNode[n.index()]) += count;
            }
        // Domains and the global minimum: a domain with pods counted is eligible by
        // construction; one without needs one eligible node. The search for those stops as
        // soon as the minimum is 0 and minDomains is reached.
        std::int32_t min = std::numeric_limits<std::int32_t>::max();
        std::int32_t domains = 0;
        sp.counts.forEach([&](std::uint32_t, std::int32_t count) {
            ++domains;
            min = std::min(min, count);
        });
        //
        // Design note (speed): with nodeAffinityPolicy Honor, only the nodes holding the value
        // of each indexed nodeSelector label can be eligible, so the smallest such list bounds
        // the search: a domain larger than it is judged by that list (its eligible nodes'
        // domains, found once) instead of a pass over the domain's nodes. Exact either way; a
        // pod pinned to one node group otherwise judged every node of the zones it is not in,
        // for each PodFeasibility (bench_consolidate: a sixth of the drains' time).
        const std::vector<NodeId>* pinned = nullptr;
        bool noneEligible = false;
        if (sp.source->nodeAffinityPolicy == NodeInclusionPolicy::Honor)
            for (const auto& [selCol, value] : c.nodeSelector) {
                if (value == kNoNodeHasIt)
                    noneEligible = true;
                else if (!pinned || selCol->nodesOfValue[value].size() < pinned->size())
                    pinned = &selCol->nodesOfValue[value];
            }
        std::vector<std::uint8_t> pinnedDomains; // per value index: 1 when one of *pinned's nodes there is eligible
        auto hasEligible = [&](std::uint32_t v) {
            if (noneEligible)
                return false;
            const auto& nodes = col.nodesOfValue[v];
            if (!pinned || pinned->size() >= nodes.size())
                return std::any_of(nodes.begin(), nodes.end(), [&](NodeId n) { return eligible(c, sp, n); });
            if (pinnedDomains.empty()) {
                pinnedDomains.assign(col.values.size(), 0);
                for (const NodeId n : *pinned)
                    if (eligible(c, sp, n))
                        pinnedDomains[col.valueOfNode[n.index()]] = 1; // eligible: it has the key
            }
            return pinnedDomains[v] != 0;
        };
        for (std::uint32_t v = 0; v < col.values.size(); ++v) {
            if (min == 0 && domains >= sp.source->minDomains)
                break;
            if (sp.counts.get(v) > 0)
                continue;
            if (hasEligible(v)) {
                ++domains;
                min = 0;
            }
        }
        sp.domains = domains;
        sp.minMatch = domains < sp.source->minDomains ? 0 : min;
    }
}

bool checkSpread(const Ctx& c, NodeId n, Reasons out)
{
    bool ok = true;
    for (const SpreadState& sp : c.spread) {
        const std::string key(c.s->str(sp.source->topologyKey));
        const std::uint32_t v = n.index() < sp.column->valueOfNode.size() ? sp.column->valueOfNode[n.index()] : kNone;
        if (v == kNone) {
            ok = false;
            if (!out)
                return false;
            out->push_back(makeReason(ReasonKind::TopologySpread, key,
                std::string(c.state->nodeName(n)) + " has no label " + key + ", which the pod's topology spread constraint needs"));
            continue;
        }
        const std::int32_t matching = sp.counts.get(v);
        const std::int32_t skew = matching + (sp.selfMatch ? 1 : 0) - sp.minMatch;
        if (skew <= sp.source->maxSkew)
            continue;
        ok = false;
        if (!out)
            return false;
        out->push_back(makeReason(ReasonKind::TopologySpread, key,
            "placing it in " + domainText(*c.s, *sp.column, n) + " makes " + std::to_string(matching + (sp.selfMatch ? 1 : 0))
                + " matching pods there against " + std::to_string(sp.minMatch) + " in the emptiest domain: skew "
                + std::to_string(skew) + " > maxSkew " + std::to_string(sp.source->maxSkew)));
    }
    return ok;
}

} // namespace fleet::model::scheduling
