// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which filter turns a pod away when no node takes it (BlockingFilter, consolidation.h): the
// figure behind "no node passes every filter" in the nodes a consolidation keeps.
//
// Counting (kube-scheduler's FitError, pkg/scheduler/framework/types.go, counts each node under
// the status of the first filter that rejected it): every other present node (inside the
// keep-within domain when there is one) is judged by PodFeasibility::verdict() under the state
// of the refusal, and counted under the code of its first reason in plugin order (reasons.h:
// node-unschedulable, node-not-ready, untolerated-taint:<taint>, node-selector-mismatch, ...,
// insufficient-<resource>, ...); a node that would take the pod counts for no filter. The most
// common code wins, ties by the code's text.
//
// Cost: a PodFeasibility (milliseconds at 100,000 nodes, filters.h) and one verdict per node
// judged, with its messages. To keep that small at 100,000 nodes:
//  - at most `sample` nodes are judged (kBlockingFilterSample), every k-th of the eligible
//    nodes by node id; the counts are scaled to all of them (BlockingFilter::judged < of);
//  - BlockingFilterMemo judges the filters that read only the node and the pod's tolerations,
//    nodeSelector and required node affinity (NodeUnschedulable, readiness, TaintToleration,
//    NodeAffinity, the GPU model) once per eligibility class (pods with the same three, and
//    keep-within domain), at its first refusal; the sampled nodes those filters all pass (the
//    pod's pool) are judged again for each pod with all its filters, once per distinct
//    requests, ports, volumes, spread constraints, affinity, anti-affinity and namespace.
//    Counts are those of the first refusal's state. Once its budget of verdicts is spent, it
//    judges what is new on smaller samples (kBlockingFilterSpentSample nodes, of them
//    kBlockingFilterSpentPoolSample of the pool), so that every entry still names a filter; the
//    budget is counted in verdicts rather than seconds so that a busy machine gives the same
//    answers as an idle one.
// Thread: any reader of the PlanLedger; a memo belongs to one thread.

#include "model/search/consolidation.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace fleet::model {

/// The most nodes judged for one pod (the rest scaled from them): a share is off by about 2%
/// (one standard error at 50%). A verdict with its messages takes 5 to 10 us at 100,000 nodes.
inline constexpr std::size_t kBlockingFilterSample = 512;
/// Of those, the most judged again for each pod (its pool, below), the rest scaled from them.
inline constexpr std::size_t kBlockingFilterPoolSample = 48;
/// The same, for a class or pod first judged after BlockingFilterMemo's budget is spent (a share
/// off by up to about 9%, one standard error at 50% over 32 nodes).
inline constexpr std::size_t kBlockingFilterSpentSample = 32;
inline constexpr std::size_t kBlockingFilterSpentPoolSample = 8;

/// The filter that rejects pod `p` on the most other present nodes under `state` (rules above).
/// `from`: the node the pod is on (not counted); `domainOf`: per node id a domain index, and
/// when given (non-empty) only the nodes in `from`'s domain are counted. O(nodes) to count the
/// eligible nodes plus min(nodes, sample) verdicts.
[[nodiscard]] BlockingFilter tallyBlockingFilter(const PlanLedger& state, PodId p, NodeId from,
    const std::vector<std::uint32_t>& domainOf = {}, std::size_t sample = kBlockingFilterSample);

/// tallyBlockingFilter() per pod class, within a time budget (rules above).
class BlockingFilterMemo {
public:
    /// `budgetVerdicts`: the verdicts all tallies may take together (0: no limit), a measure of
    /// time that gives the same answers on a busy machine as on an idle one.
    explicit BlockingFilterMemo(std::int64_t budgetVerdicts = 0) : m_budget(budgetVerdicts) { }
    /// The pod's tally (computed now at the first call for its class and rules; on the smaller
    /// samples once the budget is spent). Empty only when no judged node rejects the pod.
    [[nodiscard]] BlockingFilter of(const PlanLedger& state, PodId p, NodeId from, const std::vector<std::uint32_t>& domainOf = {});
    /// Seconds spent in tallies so far, verdicts counted against the budget; eligibility classes
    /// and pod kinds judged.
    [[nodiscard]] double seconds() const noexcept { return m_seconds; }
    [[nodiscard]] std::int64_t verdicts() const noexcept { return m_verdicts; }
    [[nodiscard]] std::size_t classes() const noexcept { return m_classes.size(); }
    [[nodiscard]] std::size_t podKinds() const noexcept { return m_pods.size(); }

    /// One eligibility class's judgement of a sample of nodes.
    struct ClassTally {
        std::map<std::string, std::int64_t> counts; // first failing code -> nodes judged (node-only filters)
        std::vector<NodeId> podDependent;           // nodes judged that the node-only filters all pass
        std::int64_t of = 0, judged = 0;
    };
    [[nodiscard]] static ClassTally judgeClass(
        const PlanLedger& state, PodId p, NodeId from, const std::vector<std::uint32_t>& domainOf, std::size_t sample);
    /// The class's counts with pod p's verdicts on at most `poolSample` of its pod-dependent
    /// nodes (every k-th), best and runner-up.
    [[nodiscard]] static BlockingFilter forPod(const ClassTally& tally, const PlanLedger& state, PodId p, std::size_t poolSample);

private:
    std::int64_t m_budget;
    std::int64_t m_verdicts = 0;
    double m_seconds = 0;
    std::unordered_map<std::string, ClassTally> m_classes;
    std::unordered_map<std::string, BlockingFilter> m_pods;
    std::string m_key;
};

/// The clause a no-feasible-node message ends with: "; the most common blocking filter:
/// untolerated-taint:a=b:NoSchedule (rejects 7 of 10 other nodes; then insufficient-cpu: 3)",
/// "(rejects about 81,200 of 99,000 other nodes, 512 judged; then ...: about 9,000)" when
/// sampled; "" when the tally is empty. Thread: any.
[[nodiscard]] std::string blockingFilterClause(const BlockingFilter& b);

} // namespace fleet::model
