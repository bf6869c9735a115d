// SPDX-License-Identifier: Apache-2.0
#pragma once
// The filter plugins over one pod's precomputation (PodFeasibility::Private). Each plugin has
// a prepare step (what depends on the pod only, run once per drag) and a check of one node
// that returns whether the node passes and, when `out` is given, appends the reasons why not
// (all of them; without `out` it may stop at the first). Internal to model/scheduling.
// Each plugin's file names the kube-scheduler source it follows.

#include "filters.h"
#include "planledger_p.h"

#include <functional>
#include <unordered_map>
#include <string>
#include <vector>

namespace fleet::model {

namespace scheduling {

/// PodFeasibility::Private::nodeSelector's value index when no node has the label value.
inline constexpr std::uint32_t kNoNodeHasIt = kNone - 1;

/// A node as the generic node-affinity templates (matching.h) read it.
struct NodeLabels {
    const PlanLedger::Private* s;
    NodeId n;
    [[nodiscard]] StringId label(StringId key) const noexcept { return s->label(n, key); }
    [[nodiscard]] StringId name() const noexcept { return s->nameOf(n); }
    [[nodiscard]] std::string_view text(StringId id) const noexcept { return s->str(id); }
};

/// A NodeSelectorRequirement compiled against the label columns: one load and a small set test.
struct CompiledRequirement {
    const NodeSelectorRequirement* source = nullptr;
    const LabelColumn* column = nullptr; // null: not indexed, evaluated by the generic rule
    std::vector<std::uint32_t> values;   // In / NotIn: value indexes, sorted
    std::vector<std::uint8_t> valueOk;   // Gt / Lt: per value index
    std::vector<NodeId> names;           // matchFields metadata.name In / NotIn
    bool invalid = false;                // matches nothing (malformed)
};
using CompiledTerm = std::vector<CompiledRequirement>;

/// Compiles `terms` (ORed; requirements ANDed).
[[nodiscard]] std::vector<CompiledTerm> compileTerms(const PlanLedger::Private& s, std::span<const NodeSelectorTerm> terms);
[[nodiscard]] bool requirementPasses(const PlanLedger::Private& s, const CompiledRequirement& r, NodeId n);
[[nodiscard]] bool termPasses(const PlanLedger::Private& s, const CompiledTerm& t, NodeId n);
/// ORed; an empty list passes every node.
[[nodiscard]] bool termsPass(const PlanLedger::Private& s, const std::vector<CompiledTerm>& terms, NodeId n);

/// The pod's view of one taint list: the first blocking taint it does not tolerate (what
/// TaintToleration reports, readiness taints included), whether a readiness taint blocks it,
/// and whether any blocking taint does.
struct TaintVerdict {
    std::uint32_t firstUntolerated = kNone; // index into the list
    bool readinessBlocks = false;
    bool hasNotReady = false;    // the list has node.kubernetes.io/not-ready with a blocking effect
    bool hasUnreachable = false; // ... node.kubernetes.io/unreachable
    bool anyUntolerated = false; // any NoSchedule / NoExecute taint untolerated (nodeTaintsPolicy)
};

/// Value index -> payload: dense for small columns, hashed for large sparse ones (a hostname
/// key has a value per node, and a pod's rule usually touches a few of them), so that building
/// one pod's precomputation does not cost a pass over every node.
template <class T>
class ValueMap {
public:
    void reset(std::size_t values, T none, std::size_t expectedEntries)
    {
        m_none = none;
        m_dense = values <= 4096 || expectedEntries * 8 >= values;
        m_vec.clear();
        m_map.clear();
        if (m_dense)
            m_vec.assign(values, none);
    }
    [[nodiscard]] T get(std::uint32_t v) const
    {
        if (m_dense)
            return v < m_vec.size() ? m_vec[v] : m_none;
        const auto it = m_map.find(v);
        return it == m_map.end() ? m_none : it->second;
    }
    T& at(std::uint32_t v) { return m_dense ? m_vec[v] : m_map.try_emplace(v, m_none).first->second; }
    /// Calls f(value index, payload) for every entry not equal to `none`.
    template <class F>
    void forEach(F f) const
    {
        if (m_dense) {
            for (std::uint32_t v = 0; v < m_vec.size(); ++v)
                if (m_vec[v] != m_none)
                    f(v, m_vec[v]);
        } else {
            for (const auto& [v, x] : m_map)
                if (x != m_none)
                    f(v, x);
        }
    }

private:
    bool m_dense = true;
    T m_none {};
    std::vector<T> m_vec;
    std::unordered_map<std::uint32_t, T> m_map;
};

/// PodTopologySpread: one DoNotSchedule constraint, counted.
struct SpreadState {
    const TopologySpreadConstraint* source = nullptr;
    const LabelColumn* column = nullptr;
    bool selfMatch = false;
    ValueMap<std::int32_t> counts; // by value index: matching pods on eligible nodes
    std::int32_t minMatch = 0;        // the global minimum, minDomains applied
    std::int32_t domains = 0;         // eligible domains found (at least up to minDomains)
};

/// InterPodAffinity: counts of matching pods by topology value for one term.
struct TermCounts {
    const PodAffinityTerm* source = nullptr;
    const LabelColumn* column = nullptr;
    ValueMap<std::int32_t> counts;   // by value index
    ValueMap<std::uint32_t> example; // by value index: a node holding a matching pod, kNone
    std::vector<std::uint32_t> groups;  // the label groups matching the term
};

/// Existing pods' anti-affinity: the topology values the pod may not join.
struct BlockedValues {
    const LabelColumn* column = nullptr;
    ValueMap<std::uint32_t> node;      // by value index: a node holding the blocking pod, kNone when free
    ValueMap<std::uint32_t> antiGroup; // by value index: that pod's anti-affinity group
};

} // namespace scheduling

struct PodFeasibility::Private {
    const PlanLedger* state = nullptr;
    const PlanLedger::Private* s = nullptr;
    const ClusterStore* store = nullptr;
    PodId pod;
    NodeId from; // the pod's node under the plan (taken off it for the judgement)
    StringId ns;
    std::uint32_t group = scheduling::kNone;
    std::uint32_t antiGroup = scheduling::kNone;
    std::vector<Reason> immovableReasons;
    // Which rules the pod has (feasible() skips the others).
    bool hasNodeAffinity = false, hasPorts = false, hasVolumes = false, hasInterPod = false;

    // NodeUnschedulable, readiness, TaintToleration
    bool toleratesUnschedulable = false;
    bool toleratesNotReady = false;    // node.kubernetes.io/not-ready:NoSchedule
    bool toleratesUnreachable = false; // node.kubernetes.io/unreachable:NoSchedule
    std::vector<scheduling::TaintVerdict> taintSets; // by the ledger's taint set

    // NodeAffinity
    std::vector<std::pair<const scheduling::LabelColumn*, std::uint32_t>> nodeSelector; // value index; kNoNodeHasIt: no node has it
    std::vector<std::pair<StringId, StringId>> nodeSelectorUnindexed;
    std::vector<scheduling::CompiledTerm> affinity;

    // NodeResourcesFit
    ResourceVector request;
    bool requestsNothing = false;
    std::int32_t gpuShare = 0;
    std::int32_t wholeGpus = 0;

    // VolumeBinding
    std::vector<std::vector<scheduling::CompiledTerm>> volumeAffinity;

    // PodTopologySpread
    std::vector<scheduling::SpreadState> spread;

    // InterPodAffinity
    std::vector<scheduling::BlockedValues> blocked;
    std::vector<scheduling::TermCounts> affinityTerms;
    bool anyAffinityMatch = false;
    bool selfMatchesAffinity = false;
    std::vector<scheduling::TermCounts> antiAffinityTerms;

    std::vector<scheduling::TaintVerdict> addedNodeTaints; // nodes added to the plan, judged when built
    [[nodiscard]] const scheduling::TaintVerdict& taintVerdict(NodeId n) const;
    [[nodiscard]] bool nodeAffinityPasses(NodeId n) const;
};

namespace scheduling {

using Ctx = PodFeasibility::Private;
using Reasons = std::vector<Reason>*;

scheduling::TaintVerdict judgeTaints(const Ctx& c, std::span<const Taint> taints);

// tainttoleration.cpp: NodeUnschedulable, node readiness, TaintToleration
void prepareTaints(Ctx& c);
bool checkUnschedulable(const Ctx& c, NodeId n, Reasons out);
bool checkReadiness(const Ctx& c, NodeId n, Reasons out);
bool checkTaints(const Ctx& c, NodeId n, Reasons out);
// nodeaffinity.cpp: NodeAffinity (nodeSelector, required terms, GPU model)
void prepareNodeAffinity(Ctx& c);
bool checkNodeAffinity(const Ctx& c, NodeId n, Reasons out);
// noderesources.cpp: NodePorts, NodeResourcesFit
void prepareResources(Ctx& c);
bool checkPorts(const Ctx& c, NodeId n, Reasons out);
bool checkResources(const Ctx& c, NodeId n, Reasons out);
/// How many copies of the pod node n's free resources hold, at most `limit` (NodeResourcesFit
/// for k copies; 1 at most with host ports).
std::int64_t resourceCopies(const Ctx& c, NodeId n, std::int64_t limit);
// volumes.cpp: VolumeBinding (PV node affinity), VolumeZone
void prepareVolumes(Ctx& c);
bool checkVolumes(const Ctx& c, NodeId n, Reasons out);
// podtopologyspread.cpp
void prepareSpread(Ctx& c);
bool checkSpread(const Ctx& c, NodeId n, Reasons out);
// interpodaffinity.cpp
void prepareInterPod(Ctx& c);
bool checkInterPod(const Ctx& c, NodeId n, Reasons out);

/// The label groups whose pods `selector` matches, in namespaces `nsOk` accepts.
std::vector<std::uint32_t> matchingGroups(const PlanLedger::Private& s, const InternedSelector& selector,
    const std::function<bool(StringId ns)>& namespaceOk);
/// The pod's share of group counts at a node: the moving pod does not count where it is.
std::int32_t countExcludingPod(const Ctx& c, std::uint32_t group, NodeId n);
/// "key=value" of a node for a topology key, or "key (missing)".
std::string domainText(const PlanLedger::Private& s, const LabelColumn& col, NodeId n);

} // namespace scheduling

} // namespace fleet::model
