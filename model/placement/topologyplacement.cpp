// SPDX-License-Identifier: Apache-2.0
// Topology-aware placement (topologyplacement.h): Kueue TAS's two phases over a tree of the
// requested levels built from the state's node labels.
//
// Design note: the tree is built per call (O(nodes x levels) hash lookups) from the ledger's
// labels, so added nodes are in it and nothing is cached across plans. Domains are one array
// (index 0 the root); each node hangs under its deepest domain. A domain's capacity is kept in
// pods and, at and above the slice level, in slices; `unit(depth)` picks the one the level
// counts in.
#include "topologyplacement.h"

#include "model/domainpath.h"
#include "model/scheduling/filters.h"
#include "model/topology.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace fleet::model {

namespace {

constexpr const char* kLayer3 = "topology.k8s.aws/network-node-layer-3";
constexpr const char* kLayer4 = "topology.k8s.aws/network-node-layer-4";
constexpr std::uint32_t kPassThrough = 0xffffffffu;
constexpr std::size_t kMaxExplainedNodes = 2048;

bool someNodeCarries(const PlanLedger& state, std::string_view key)
{
    if (key == "gpu-model" || key == "instance-type")
        return true;
    const StringId k = state.store().strings().find(key);
    if (!k.isValid())
        return false;
    for (std::size_t i = 0; i < state.nodeCount(); ++i)
        if (state.nodeLabel(NodeId(static_cast<std::uint32_t>(i)), k).isValid())
            return true;
    return false;
}

std::string joined(const std::vector<std::string>& keys)
{
    std::string out;
    for (const std::string& k : keys)
        out += (out.empty() ? "" : ", ") + k;
    return out;
}

struct Tree {
    struct Domain {
        std::uint32_t parent = 0;
        int depth = 0;
        std::uint32_t value = 0;   // StringId value, kPassThrough for a node's bottom
        std::string_view text;     // the label value
        std::int64_t pods = 0;     // capacity in pods
        std::int64_t slices = 0;   // capacity in slices (at and above the slice level)
        std::int64_t assigned = 0; // phase 2b: in the unit of its depth
        std::vector<std::uint32_t> children;
        std::vector<NodeId> nodes; // deepest level only
    };
    std::vector<std::string> keys; // depth d is keys[d - 1]
    std::vector<Domain> domains;
    std::vector<std::vector<std::uint32_t>> byDepth;
    int requestDepth = 0;
    int sliceDepth = 0; // 0: no slices
    int keepDepth = 0; // the keep-within level's depth; 0: none
    std::int64_t sliceSize = 0;
    std::vector<std::int64_t> nodeCap; // by NodeId
    std::int32_t outside = 0;

    [[nodiscard]] bool inSlices(int depth) const noexcept { return sliceDepth > 0 && depth <= sliceDepth; }
    [[nodiscard]] std::int64_t unit(const Domain& d) const noexcept { return inSlices(d.depth) ? d.slices : d.pods; }
    [[nodiscard]] std::string path(std::uint32_t d) const
    {
        std::vector<std::uint32_t> chain;
        for (; d != 0; d = domains[d].parent)
            if (domains[d].value != kPassThrough)
                chain.push_back(d);
        std::string out;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it)
            out += (out.empty() ? "" : "/") + keys[static_cast<std::size_t>(domains[*it].depth - 1)] + "=" + std::string(domains[*it].text);
        return out;
    }
    /// The label values from the root, for Kueue's tie-break (levelValues compared in order).
    [[nodiscard]] std::vector<std::string_view> values(std::uint32_t d) const
    {
        std::vector<std::string_view> out;
        for (; d != 0; d = domains[d].parent)
            out.push_back(domains[d].text);
        std::reverse(out.begin(), out.end());
        return out;
    }
};

void validate(const TopologyRequest& r, const std::vector<std::string>& levels)
{
    auto known = [&](const std::string& key, const char* what) {
        if (std::find(levels.begin(), levels.end(), key) == levels.end())
            throw std::invalid_argument(std::string(what) + " \"" + key + "\" is not a topology level; the levels are: " + joined(levels));
    };
    if (r.pods < 1)
        throw std::invalid_argument("the number of pods must be at least 1, got " + std::to_string(r.pods));
    if (!r.requiredLevel.empty() && !r.preferredLevel.empty())
        throw std::invalid_argument("give a required level or a preferred level, not both");
    if (!r.requiredLevel.empty())
        known(r.requiredLevel, "the required level");
    if (!r.preferredLevel.empty())
        known(r.preferredLevel, "the preferred level");
    if (!r.keepWithinLevel.empty())
        known(r.keepWithinLevel, "the keep-within level");
    if ((r.sliceSize > 0) != !r.sliceLevel.empty())
        throw std::invalid_argument("a slice size and a slice level go together");
    if (r.sliceSize < 0)
        throw std::invalid_argument("the slice size must be at least 1, got " + std::to_string(r.sliceSize));
    if (r.sliceSize > 0) {
        known(r.sliceLevel, "the slice level");
        if (r.pods % r.sliceSize != 0)
            throw std::invalid_argument("the slice size " + std::to_string(r.sliceSize) + " does not divide the " + std::to_string(r.pods) + " pods");
    }
}

Tree buildTree(const PlanLedger& state, const Topology& topology, PodId podSpec, const TopologyRequest& r)
{
    Tree t;
    t.keys = topologyPlacementLevels(state, topology, r);
    validate(r, t.keys);
    auto depthOf = [&](const std::string& key) {
        return static_cast<int>(std::find(t.keys.begin(), t.keys.end(), key) - t.keys.begin()) + 1;
    };
    const std::string& level = !r.requiredLevel.empty() ? r.requiredLevel : r.preferredLevel;
    if (r.sliceSize > 0) {
        t.sliceDepth = depthOf(r.sliceLevel);
        t.sliceSize = r.sliceSize;
    }
    t.requestDepth = !level.empty() ? depthOf(level) : t.sliceDepth > 0 ? t.sliceDepth : static_cast<int>(t.keys.size());
    if (t.sliceDepth > 0 && t.sliceDepth < t.requestDepth)
        throw std::invalid_argument("the slice level " + r.sliceLevel + " must be " + level + " or a level below it; the levels are: " + joined(t.keys));
    if (!r.keepWithinLevel.empty()) {
        t.keepDepth = depthOf(r.keepWithinLevel);
        if (t.keepDepth > t.requestDepth)
            throw std::invalid_argument("the keep-within level " + r.keepWithinLevel + " must be "
                + (level.empty() ? t.keys[static_cast<std::size_t>(t.requestDepth - 1)] : level) + " or a level above it; the levels are: " + joined(t.keys));
    }

    const ClusterStore& store = state.store();
    const int depth = static_cast<int>(t.keys.size());
    std::vector<StringId> keyIds(t.keys.size());
    for (std::size_t i = 0; i < t.keys.size(); ++i)
        keyIds[i] = store.strings().find(t.keys[i]);
    t.domains.emplace_back();
    t.byDepth.assign(static_cast<std::size_t>(depth) + 1, {});
    t.byDepth[0].push_back(0);
    std::vector<std::unordered_map<std::uint64_t, std::uint32_t>> index(static_cast<std::size_t>(depth) + 1);
    std::vector<std::pair<std::uint32_t, std::string_view>> vals(t.keys.size());
    t.nodeCap.assign(state.nodeCount(), 0);
    const PodFeasibility feasibility(state, podSpec);
    for (std::size_t i = 0; i < state.nodeCount(); ++i) {
        const NodeId n(static_cast<std::uint32_t>(i));
        if (!state.nodePresent(n))
            continue;
        int deepest = 0;
        for (std::size_t l = 0; l < t.keys.size(); ++l) {
            std::string_view text;
            std::uint32_t id = kPassThrough;
            if (t.keys[l] == "gpu-model" || t.keys[l] == "instance-type") {
                text = t.keys[l] == "gpu-model" ? state.nodeGpuModel(n) : store.nodeInstanceType(state.nodeTemplate(n));
                if (!text.empty())
                    id = store.strings().find(text).value;
            } else if (keyIds[l].isValid()) {
                const StringId v = state.nodeLabel(n, keyIds[l]);
                if (v.isValid()) {
                    id = v.value;
                    text = state.str(v);
                }
            }
            vals[l] = { id, text };
            if (id != kPassThrough)
                deepest = static_cast<int>(l) + 1;
        }
        // Every level down to the request's must be the node's own; below, a missing level
        // is its bottom (it stands for its deepest domain there).
        bool inside = deepest >= t.requestDepth;
        for (int l = 0; inside && l < t.requestDepth; ++l)
            inside = vals[static_cast<std::size_t>(l)].first != kPassThrough;
        if (!inside) {
            ++t.outside;
            continue;
        }
        std::uint32_t parent = 0;
        for (int l = 0; l < depth; ++l) {
            const auto& [id, text] = vals[static_cast<std::size_t>(l)];
            const std::uint64_t key = std::uint64_t { parent } << 32 | id;
            auto [it, fresh] = index[static_cast<std::size_t>(l) + 1].try_emplace(key, static_cast<std::uint32_t>(t.domains.size()));
            if (fresh) {
                Tree::Domain d;
                d.parent = parent;
                d.depth = l + 1;
                d.value = id;
                d.text = id == kPassThrough ? t.domains[parent].text : text;
                t.domains.push_back(d);
                t.domains[parent].children.push_back(it->second);
                t.byDepth[static_cast<std::size_t>(l) + 1].push_back(it->second);
            }
            parent = it->second;
        }
        t.domains[parent].nodes.push_back(n);
        const std::int64_t cap = feasibility.copiesThatFit(n, r.pods);
        t.nodeCap[i] = cap;
        for (std::uint32_t d = parent;; d = t.domains[d].parent) {
            t.domains[d].pods += cap;
            if (d == 0)
                break;
        }
    }
    if (t.sliceDepth > 0)
        for (int l = t.sliceDepth; l >= 0; --l)
            for (const std::uint32_t d : t.byDepth[static_cast<std::size_t>(l)]) {
                Tree::Domain& dom = t.domains[d];
                if (l == t.sliceDepth) {
                    dom.slices = dom.pods / t.sliceSize;
                } else {
                    dom.slices = 0;
                    for (const std::uint32_t c : dom.children)
                        dom.slices += t.domains[c].slices;
                }
            }
    return t;
}

/// Most capacity first, ties by label values (Kueue's sortedDomains).
std::vector<std::uint32_t> sortedDomains(const Tree& t, std::vector<std::uint32_t> ds)
{
    std::vector<std::pair<std::int64_t, std::vector<std::string_view>>> keys(t.domains.size());
    for (const std::uint32_t d : ds)
        keys[d] = { t.unit(t.domains[d]), t.values(d) };
    std::sort(ds.begin(), ds.end(), [&](std::uint32_t a, std::uint32_t b) {
        if (keys[a].first != keys[b].first)
            return keys[a].first > keys[b].first;
        return keys[a].second < keys[b].second;
    });
    return ds;
}

/// The first domain with the least capacity >= count, in a list sorted most first; 0 when none
/// (Kueue's findBestFitDomainIdx).
template <class Cap>
std::size_t bestFitIndex(std::span<const std::uint32_t> sorted, std::int64_t count, Cap cap)
{
    std::size_t best = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i)
        if (cap(sorted[i]) >= count && cap(sorted[i]) != cap(sorted[best]))
            best = i;
    return best;
}

/// Takes `count` from `sorted`, most first, the last by best fit (updateCountsToMinimum);
/// calls take(item, amount). Returns what was left untaken.
template <class Cap, class Take>
std::int64_t takeMinimum(std::span<const std::uint32_t> sorted, std::int64_t count, Cap cap, Take take)
{
    std::int64_t remaining = count;
    for (std::size_t i = 0; i < sorted.size() && remaining > 0; ++i) {
        std::uint32_t item = sorted[i];
        if (cap(item) >= remaining)
            item = sorted[i + bestFitIndex(sorted.subspan(i), remaining, cap)];
        const std::int64_t amount = std::min(cap(item), remaining);
        if (amount <= 0)
            break;
        take(item, amount);
        remaining -= amount;
    }
    return remaining;
}

/// "1 pod", "2 pods": a count and its noun, plural unless the count is 1.
std::string counted(std::int64_t n, const char* noun)
{
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

/// Whether pod `podSpec`'s nodeSelector rules out every node of domain `d`: it names the label
/// of a level on d's path (a node label, not a pseudo level) with another value. O(levels x
/// selector entries).
bool selectorRulesOut(const PlanLedger& state, const Tree& t, PodId podSpec, std::uint32_t d)
{
    const ClusterStore& store = state.store();
    const auto selector = store.podNodeSelector(podSpec);
    if (selector.empty())
        return false;
    for (; d != 0; d = t.domains[d].parent) {
        const Tree::Domain& x = t.domains[d];
        if (x.value == kPassThrough)
            continue;
        const std::string& key = t.keys[static_cast<std::size_t>(x.depth - 1)];
        if (key == "gpu-model" || key == "instance-type")
            continue;
        const StringId keyId = store.strings().find(key);
        for (const Label& l : selector)
            if (l.key == keyId && l.value.value != x.value)
                return true;
    }
    return false;
}

LevelShortfall shortfall(const PlanLedger& state, const PodFeasibility& feasibility, const Tree& t, int depth,
    const std::vector<std::uint32_t>& sorted, std::int64_t count, PodId podSpec)
{
    LevelShortfall s;
    s.levelKey = t.keys[static_cast<std::size_t>(depth - 1)];
    const bool slices = t.inSlices(depth);
    const std::string need = slices ? counted(count, "slice") + " of " + counted(t.sliceSize, "pod") : counted(count, "pod");
    if (sorted.empty()) {
        s.reason = makeReason(ReasonKind::TopologyDomain, s.levelKey, "no node of the topology has " + s.levelKey);
        return s;
    }
    // The most capacity in the level's unit, then (slices being equal) the most pods. Among
    // domains that hold none, one whose nodes the pod's nodeSelector allows: a selector that
    // names a domain (Place Workload Here…) rules out every other, and the closest must be the
    // one asked for, with why its own nodes take no pod.
    std::uint32_t closest = sorted.front();
    bool closestRuledOut = t.domains[closest].pods == 0 && selectorRulesOut(state, t, podSpec, closest);
    for (const std::uint32_t d : sorted) {
        if (t.unit(t.domains[d]) < t.unit(t.domains[closest]))
            break;
        if (t.domains[d].pods > t.domains[closest].pods) {
            closest = d;
            closestRuledOut = false; // it holds a pod: its nodes are allowed
        } else if (closestRuledOut && t.domains[d].pods == t.domains[closest].pods && !selectorRulesOut(state, t, podSpec, d)) {
            closest = d;
            closestRuledOut = false;
        }
    }
    const Tree::Domain& d = t.domains[closest];
    s.closestDomain = t.path(closest);
    s.podsFit = static_cast<std::int32_t>(d.pods);
    s.slicesFit = static_cast<std::int32_t>(d.slices);
    // Its nodes, and why those that take no pod do not (the filters' first reasons, by code).
    std::vector<std::uint32_t> stack { closest };
    std::map<std::string, std::int32_t> codes;
    std::size_t explained = 0;
    while (!stack.empty()) {
        const std::uint32_t x = stack.back();
        stack.pop_back();
        for (const std::uint32_t c : t.domains[x].children)
            stack.push_back(c);
        for (const NodeId n : t.domains[x].nodes) {
            ++s.nodes;
            if (t.nodeCap[n.index()] > 0)
                continue;
            ++s.nodesFull;
            if (explained++ >= kMaxExplainedNodes)
                continue;
            const Verdict v = feasibility.verdict(n);
            if (v.reasons.empty()) // feasible for one, yet no copy: its resources (counted as full)
                codes["insufficient-resources"] += 1;
            for (const Reason& r : v.reasons)
                codes[r.code()] += 1;
        }
    }
    s.nodeReasons.assign(codes.begin(), codes.end());
    std::sort(s.nodeReasons.begin(), s.nodeReasons.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string msg = "no " + s.levelKey + " domain holds " + need + ": the closest, " + s.closestDomain + ", holds "
        + (slices ? counted(d.slices, "whole slice") + " (" + counted(d.pods, "pod") + " fit)" : counted(d.pods, "pod"))
        + " and lacks " + (slices ? counted(count - d.slices, "slice") : counted(count - d.pods, "pod"));
    if (s.nodesFull > 0) // how many of its nodes take no pod at all
        msg += "; " + (s.nodesFull == s.nodes ? (s.nodes == 1 ? std::string("its only node takes none") : "none of its " + counted(s.nodes, "node") + " takes any")
                                              : std::to_string(s.nodesFull) + " of its " + counted(s.nodes, "node") + (s.nodesFull == 1 ? " takes none" : " take none"));
    if (!s.nodeReasons.empty()) {
        msg += " (";
        for (std::size_t i = 0; i < s.nodeReasons.size() && i < 4; ++i)
            msg += (i ? ", " : "") + s.nodeReasons[i].first + " on " + std::to_string(s.nodeReasons[i].second);
        msg += explained > kMaxExplainedNodes ? "; judged on " + std::to_string(kMaxExplainedNodes) + " of them)" : ")";
    }
    s.reason = makeReason(ReasonKind::TopologyDomain, s.levelKey, msg);
    return s;
}

} // namespace

std::vector<std::string> topologyPlacementLevels(const PlanLedger& state, const Topology& topology, const TopologyRequest& request)
{
    std::vector<std::string> keys;
    for (int l = 1; l <= static_cast<int>(topology.levelKeys().size()); ++l)
        keys.push_back(levelUserKey(topology, l));
    if (std::find(keys.begin(), keys.end(), kLayer4) == keys.end() && someNodeCarries(state, kLayer4)) {
        const auto at = std::find(keys.begin(), keys.end(), kLayer3);
        keys.insert(at == keys.end() ? keys.end() : at + 1, kLayer4);
    }
    for (const std::string* k : { &request.requiredLevel, &request.preferredLevel, &request.sliceLevel, &request.keepWithinLevel })
        if (!k->empty() && std::find(keys.begin(), keys.end(), *k) == keys.end() && someNodeCarries(state, *k))
            keys.push_back(*k);
    return keys;
}

TopologyPlacement findTopologyPlacement(const PlanLedger& state, const Topology& topology, PodId podSpec, const TopologyRequest& request)
{
    Tree t = buildTree(state, topology, podSpec, request);
    TopologyPlacement out;
    out.nodesOutsideTopology = t.outside;
    const bool required = !request.requiredLevel.empty();
    auto cap = [&](std::uint32_t d) { return t.unit(t.domains[d]); };
    auto countAt = [&](int depth) -> std::int64_t { return t.inSlices(depth) ? request.pods / t.sliceSize : request.pods; };
    const PodFeasibility feasibility(state, podSpec);

    // Phase 2a: the level and the domains that hold the workload.
    std::vector<std::pair<std::uint32_t, std::int64_t>> chosen;
    int fitDepth = t.requestDepth;
    for (int depth = t.requestDepth; depth >= 1 && chosen.empty(); --depth) {
        const std::vector<std::uint32_t> sorted = sortedDomains(t, t.byDepth[static_cast<std::size_t>(depth)]);
        const std::int64_t count = countAt(depth);
        fitDepth = depth;
        if (!sorted.empty() && cap(sorted.front()) >= count) {
            const std::uint32_t d = sorted[bestFitIndex(std::span<const std::uint32_t>(sorted), count, cap)];
            chosen.emplace_back(d, count);
            break;
        }
        out.shortfalls.push_back(shortfall(state, feasibility, t, depth, sorted, count, podSpec));
        // The keep-within level is as far as a preferred level climbs, and one of its domains
        // must hold the pods, as at a required level.
        const bool whole = required || depth == t.keepDepth;
        const bool last = whole || depth == 1;
        if (!last)
            continue;
        // The last resort (preferred, top level): spread over its domains; without gang, as
        // much as the best option holds.
        std::vector<std::pair<std::uint32_t, std::int64_t>> spread;
        const std::int64_t left = whole ? count : takeMinimum(std::span<const std::uint32_t>(sorted), count, cap,
            [&](std::uint32_t d, std::int64_t a) { spread.emplace_back(d, a); });
        if (left == 0) {
            chosen = std::move(spread);
        } else if (!request.gang && !sorted.empty()) {
            if (whole) {
                if (cap(sorted.front()) > 0)
                    chosen.emplace_back(sorted.front(), cap(sorted.front()));
            } else {
                chosen = std::move(spread);
            }
        }
        break;
    }
    auto explain = [&] {
        for (const LevelShortfall& s : out.shortfalls)
            out.reasons.push_back(s.reason);
    };
    if (chosen.empty()) {
        explain();
        return out;
    }

    // Phase 2b: down to the nodes, each chosen domain's count split among its children.
    out.levelKey = t.keys[static_cast<std::size_t>(fitDepth - 1)];
    for (const auto& [d, amount] : chosen) {
        t.domains[d].assigned = amount;
        out.domains.push_back(t.path(d));
    }
    std::vector<std::uint32_t> level;
    for (const auto& [d, amount] : chosen)
        level.push_back(d);
    const int depth = static_cast<int>(t.keys.size());
    std::int64_t placed = 0;
    for (int at = fitDepth; at <= depth; ++at) {
        std::vector<std::uint32_t> next;
        for (const std::uint32_t d : level) {
            Tree::Domain& dom = t.domains[d];
            const std::int64_t pods = t.inSlices(at) && !t.inSlices(at + 1) ? dom.assigned * t.sliceSize : dom.assigned;
            if (at == depth) {
                std::vector<std::uint32_t> nodes;
                for (const NodeId n : dom.nodes)
                    if (t.nodeCap[n.index()] > 0)
                        nodes.push_back(n.value);
                std::sort(nodes.begin(), nodes.end(), [&](std::uint32_t a, std::uint32_t b) {
                    if (t.nodeCap[a] != t.nodeCap[b])
                        return t.nodeCap[a] > t.nodeCap[b];
                    return state.nodeName(NodeId(a)) < state.nodeName(NodeId(b));
                });
                takeMinimum(std::span<const std::uint32_t>(nodes), pods, [&](std::uint32_t n) { return t.nodeCap[n]; },
                    [&](std::uint32_t n, std::int64_t a) {
                        out.nodes.emplace_back(NodeId(n), static_cast<std::int32_t>(a));
                        placed += a;
                    });
                continue;
            }
            const std::vector<std::uint32_t> children = sortedDomains(t, dom.children);
            takeMinimum(std::span<const std::uint32_t>(children), pods, cap, [&](std::uint32_t c, std::int64_t a) {
                t.domains[c].assigned = a;
                next.push_back(c);
            });
        }
        level = std::move(next);
    }
    out.podsPlaced = static_cast<std::int32_t>(placed);
    out.fits = placed == request.pods;
    if (!out.fits && request.gang) { // cannot happen when the capacities add up; never half a gang
        out.nodes.clear();
        out.podsPlaced = 0;
    }
    if (!out.fits)
        explain();
    return out;
}

std::int32_t largestTopologyFit(const PlanLedger& state, const Topology& topology, PodId podSpec, const TopologyRequest& request)
{
    TopologyRequest r = request;
    // A count no node's capacity is cut at (a multiple of the slice size, as validate() wants).
    r.pods = r.sliceSize > 0 ? r.sliceSize * (1 << 20) : 1 << 26;
    const Tree t = buildTree(state, topology, podSpec, r);
    std::int64_t best = 0;
    for (const std::uint32_t d : t.byDepth[static_cast<std::size_t>(t.requestDepth)])
        best = std::max(best, t.inSlices(t.requestDepth) ? t.domains[d].slices * t.sliceSize : t.domains[d].pods);
    return static_cast<std::int32_t>(best);
}

} // namespace fleet::model
