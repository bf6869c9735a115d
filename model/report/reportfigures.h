// SPDX-License-Identifier: Apache-2.0
#pragma once
// The figures of a report (`fleetscope report`): the fleet before and after a plan, what the
// plan risks, why nodes stay, and where GPUs are wasted, computed once here so that the PDF
// says what `summary --format json` and `plan check --format json` say about the same input.
//
// Sources of each figure (so that they agree by construction):
//  - nodes, GPUs, GPUs allocated, cost per hour, pods without a node: PlanTotals of the plan
//    engine's ledger (PlanLedger::totalsBefore() / totals()), the same record `plan check`
//    writes as "before" and "after";
//  - pending pods before: ClusterCounts::podsPending (`summary`'s "pending_pods"); after: those
//    of them the plan left without a node;
//  - fragmented GPUs: FGD's fragmentation (Weng et al., USENIX ATC '23; placement/typicalpods.h)
//    summed over nodes, against MetricContext::gpuTypicalPods(): before as the map's
//    "gpu-fragmentation" legend totals it (gpuFragmentation()), after over the ledger;
//  - idle allocated GPUs: ClusterUsage::idleAllocatedGpuTotal() (usage is measured, not planned:
//    the report gives it once).
// A cost per month is 730 hours (365 x 24 / 12), as cloud price lists count a month.
//
// Thread: any (pure functions of their inputs; the store and ledger must not change meanwhile).

#include "model/clusterstore.h"
#include "model/metrics/metric.h"
#include "model/plan/plan.h"
#include "model/scheduling/planledger.h"
#include "model/topology.h"
#include "model/usage.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace fleet::model {

inline constexpr double kHoursPerMonth = 730;

/// The fleet's figures in one state (loaded, or under a plan).
struct FleetFigures {
    std::int64_t nodes = 0;             // PlanTotals::nodes
    std::int64_t nodesInUse = 0;        // PlanTotals::nodesInUse
    std::int64_t nodesEmpty = 0;        // PlanTotals::nodesEmpty
    std::int64_t gpus = 0;              // PlanTotals::gpus (whole GPUs)
    std::int64_t gpuMilliAllocated = 0; // PlanTotals::gpuMilliAllocated
    /// gpuMilliAllocated / (gpus x 1000); NaN without GPUs.
    double gpuAllocatedShare = std::numeric_limits<double>::quiet_NaN();
    /// FGD's expected fragmented GPUs (whole GPUs, fractional); NaN when the workload asks for
    /// no GPU or no node tracks its GPUs one by one.
    double fragmentedGpus = std::numeric_limits<double>::quiet_NaN();
    std::int64_t pendingPods = 0;       // pending pods without a node in this state
    std::int64_t podsWithoutNode = 0;   // PlanTotals::podsUnplaced
    std::int64_t podsRemovedWithNodes = 0; // PlanTotals::podsRemovedWithNodes (DaemonSet, mirror and terminating pods)
    /// Of podsRemovedWithNodes, the terminating pods (terminatingPodsRemovedWithNodes()); the
    /// rest are DaemonSet and mirror pods.
    std::int64_t terminatingRemovedWithNodes = 0;
    std::int64_t podsPlaced = 0;        // PlanTotals::podsPlaced
    double costPerHour = 0;             // PlanTotals::costPerHour ($/h; 0 without prices)
    std::int64_t idleAllocatedGpus = -1; // ClusterUsage::idleAllocatedGpuTotal(); -1 unknown
    [[nodiscard]] double costPerMonth() const noexcept { return costPerHour * kHoursPerMonth; }
};

/// FGD's expected fragmented GPUs of the loaded state (Weng et al., USENIX ATC '23), whole GPUs,
/// fractional: gpuFragmentation() summed over the store's nodes, as the map's "gpu-fragmentation"
/// legend totals it; NaN when no node has the figure (no GPU workload, no GPU tracked one by one).
/// `summary --format json`'s totals.fragmented_gpus, `plan check`'s before.fragmentedGpus and the
/// report's "Fragmented GPUs (FGD)" before the plan. O(nodes x typical pods). Thread: any.
[[nodiscard]] double loadedFragmentedGpus(const MetricContext& context);
/// ClusterUsage::idleAllocatedGpuTotal() where `usage` measured allocated GPUs, whole GPUs;
/// -1 unknown (no usage, or none measured). Thread: any.
[[nodiscard]] std::int64_t idleAllocatedGpus(const ClusterUsage* usage);

/// The loaded state's figures (the ledger's totalsBefore()). `usage` may be null. O(nodes x
/// typical pods + pods).
[[nodiscard]] FleetFigures figuresBefore(const PlanLedger& state, const MetricContext& context, const ClusterUsage* usage);
/// The figures under the plan the ledger holds (its totals()). O(nodes x typical pods + pods).
[[nodiscard]] FleetFigures figuresAfter(const PlanLedger& state, const MetricContext& context, const ClusterUsage* usage);

/// The terminating pods (PodFlagTerminating) that go with the nodes `state` removed or failed:
/// counted on a node when loaded, still there under the plan (nothing moves a pod that is
/// leaving: movesWithDrain()), and that node no longer present. They are among
/// PlanTotals::podsRemovedWithNodes, which the DaemonSet and mirror pods make up otherwise.
/// `state` is over `store`. O(pods); thread: any.
[[nodiscard]] std::int64_t terminatingPodsRemovedWithNodes(const ClusterStore& store, const PlanLedger& state) noexcept;

/// What a plan risks: budgets it spends, pods that asked not to be disrupted, gangs it moves,
/// nodes it cordons and drains, and what its failures cost.
struct PlanRisks {
    struct Budget {
        std::string name;          // namespace/name
        std::int32_t spent = 0;    // evictions of pods it guards, by the plan
        std::int32_t allowed = 0;  // disruptionsAllowed before the plan (DisruptionBudgets)
    };
    // Budgets, do-not-disrupt pods and gangs count the plan's evictions (drains, moves), never
    // a failure's displaced pods: budgets do not apply to failures (plan-v1).
    std::vector<Budget> budgets;   // the budgets the plan spends, most spent first
    std::int64_t doNotDisruptPods = 0; // pods moved or evicted with PodFlagDoNotDisrupt
    std::vector<std::string> doNotDisruptExamples; // their names, the first few
    std::int64_t gangPodsMoved = 0;
    std::int64_t gangsMoved = 0;       // distinct workloads of those pods
    std::vector<std::string> gangExamples; // namespace/name of the first few gangs
    std::int64_t nodesCordoned = 0;    // nodes the plan drains (cordon, then evict)
    std::int64_t nodesFailed = 0;      // nodes a failure what-if removes
    std::int64_t podsStranded = 0;     // pods a failure left without a node
    std::int64_t gpuMilliLost = 0;     // allocatable milli-GPU of the failed nodes
    std::int64_t podsReplaced = 0;     // pods of failed nodes placed elsewhere
    std::int64_t failureActions = 0;   // fail-node and fail-domain actions
};
/// The risks of the applied actions `applied` (PlanEngine::applied() or an evaluation's) over
/// `store`. O(changes + budgets x label sets).
[[nodiscard]] PlanRisks planRisks(const ClusterStore& store, const std::vector<AppliedAction>& applied);

/// What holds the nodes the plan does not remove, by reason code: the reason of an action on the
/// node that did not hold, the first pod whose eviction is refused (evictionrules.h), "prepaid"
/// capacity (saves nothing when emptied), "destination" for a node that receives pods the plan
/// moves or pending pods it places (the message says which: a pending pod is placed, not
/// moved), else "not-in-plan". Codes grouped by keptGroupCode() (model/search/keptgroups.h).
/// This is not the consolidation search's kept list (model/search/keptreplay.h replays the
/// search for that); a report shows it, under another name, for a plan whose drains no search
/// gives on the state.
struct StayReason {
    std::string code;
    std::int64_t nodes = 0;
    std::vector<std::pair<std::string, std::string>> examples; // node name, message (first few)
};
/// Every present store node the plan keeps, grouped (most nodes first). Only nodes of the store
/// (not added ones). `examplesPerCode` examples each. O(nodes + pods of kept nodes).
[[nodiscard]] std::vector<StayReason> whyNodesStay(const PlanLedger& state, const std::vector<AppliedAction>& applied,
    const MetricContext& context, std::size_t examplesPerCode = 3);

/// One topology domain's wasted GPUs (loaded state).
struct DomainWaste {
    DomainId domain;
    std::int64_t nodes = 0;
    std::int64_t gpus = 0;
    double fragmentedGpus = 0;       // FGD, as FleetFigures
    std::int64_t idleAllocatedGpus = -1; // -1 unknown
    std::int64_t unallocatedGpus = 0; // whole GPUs with nothing requested (milli / 1000 of free)
};
/// The `limit` leaf domains (the deepest topology level) with the most fragmented plus idle
/// GPUs, most first; domains with neither left out. O(nodes x typical pods).
[[nodiscard]] std::vector<DomainWaste> gpuWasteByDomain(
    const Topology& topology, const MetricContext& context, const ClusterUsage* usage, std::size_t limit = 10);

/// How much a plan changes one topology domain.
struct DomainChange {
    DomainId domain;
    std::int64_t nodes = 0;      // the domain's store nodes
    std::int64_t nodesFreed = 0; // its nodes the plan drains or fails
    std::int64_t podsMoved = 0;  // pods the plan takes off its nodes (moved or evicted)
    std::int64_t pendingPlaced = 0; // pending pods of the store the plan places on its nodes (not moved: they had no node)
    std::int64_t podsAdded = 0;  // pods the plan adds (place-pods) and places on its nodes
};
/// The `limit` domains the plan `applied` changes most (most nodes freed, then most pods
/// moved, then most pending or added pods placed; none unchanged), for maps zoomed to them. The level: the shallowest whose largest
/// domain holds at most `maxNodes` nodes (a map of it shows each node's cell) and not every
/// node (a regional cluster's one region is no zoom), else the deepest. O(changes + domains).
[[nodiscard]] std::vector<DomainChange> domainsChangedMost(const ClusterStore& store, const Topology& topology,
    const std::vector<AppliedAction>& applied, std::size_t limit = 3, std::size_t maxNodes = 2000);

} // namespace fleet::model
