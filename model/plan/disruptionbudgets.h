// SPDX-License-Identifier: Apache-2.0
#pragma once
// PodDisruptionBudgets as a plan spends them: every voluntary eviction of the plan (a drain, a
// move of a running pod) draws on the budgets across the whole plan, not per node.
//
// Rules, each from its source:
//  - Which budgets guard a pod: those of its namespace whose selector is neither null nor empty
//    and matches the pod's labels. The eviction API ignores an empty selector ("should match
//    nothing, not everything"; getPodDisruptionBudgets in
//    pkg/registry/core/pod/storage/eviction.go). A pod guarded by more than one budget cannot be
//    evicted: the eviction API refuses it ("This pod has more than one PodDisruptionBudget").
//  - Pods whose phase is Pending, Succeeded or Failed are evicted without a budget check
//    (canIgnorePDB, same file).
//  - A budget's disruptionsAllowed is status.disruptionsAllowed where the input has a status,
//    else computed as the disruption controller does (pkg/controller/disruption/disruption.go,
//    getExpectedPodCount and updatePdbStatus): over the pods it selects (policy/v1: an empty
//    selector selects every pod of the namespace, a null one none),
//      currentHealthy = the selected pods that are Ready (PodFlagReady);
//      maxUnavailable set:        desiredHealthy = max(0, expected - ceil(maxUnavailable of expected))
//      minAvailable an integer:   desiredHealthy = minAvailable, expected = the selected pods
//      minAvailable a percentage: desiredHealthy = ceil(minAvailable of expected)
//      disruptionsAllowed = max(0, currentHealthy - desiredHealthy), 0 when expected is 0.
//    Percentages are rounded up (intstr.GetScaledValueFromIntOrPercent with roundUp true). The
//    controller's `expected` is the replica count of the pods' controllers (their scale); the
//    store has no replica counts, so `expected` is approximated by the selected pods that are not
//    Succeeded or Failed. A budget with neither field allows nothing (expected 0).
//  - An eviction of a Ready pod spends one disruption (checkAndDecrement). A pod that is not
//    Ready is evicted without spending when currentHealthy - spent >= desiredHealthy > 0 (the
//    default unhealthyPodEvictionPolicy IfHealthyBudget); with only a status (no
//    currentHealthy / desiredHealthy in the input) it spends like a Ready pod, which is
//    conservative. unhealthyPodEvictionPolicy AlwaysAllow is not modelled.
//
// Thread: one thread mutates (spend / unspend); const methods from many while none mutates.

#include "model/clusterstore.h"
#include "model/scheduling/reasons.h"

#include <cstdint>
#include <span>
#include <vector>

namespace fleet::model {

class DisruptionBudgets {
public:
    /// What a budget allows before the plan spends any of it.
    struct Status {
        std::int32_t expected = 0;
        std::int32_t currentHealthy = -1; // -1: only status.disruptionsAllowed is known
        std::int32_t desiredHealthy = -1;
        std::int32_t disruptionsAllowed = 0;
        bool fromStatus = false; // status.disruptionsAllowed given by the input
    };
    /// The answer for one eviction.
    struct Decision {
        bool allowed = true;
        std::int32_t spend = -1;     // the budget (index) the eviction spends, -1 for none
        std::vector<Reason> reasons; // disruption-budget:<ns>/<name> when refused
    };

    /// Matches every budget of `store` against its pods: O(pods + budgets x label sets).
    explicit DisruptionBudgets(const ClusterStore& store);

    [[nodiscard]] std::size_t count() const noexcept { return m_status.size(); }
    [[nodiscard]] const Status& status(std::size_t budget) const noexcept { return m_status[budget]; }
    /// Disruptions the plan has spent from the budget.
    [[nodiscard]] std::int32_t spent(std::size_t budget) const noexcept { return m_spent[budget]; }
    /// The budgets that guard pod p (the eviction API's rule above), as indices.
    [[nodiscard]] std::span<const std::uint32_t> guarding(PodId p) const noexcept;
    /// Whether evicting pod p now is allowed by its budgets, and what it would spend.
    [[nodiscard]] Decision check(PodId p) const;
    /// Records / takes back one disruption of a budget (the plan's apply and undo).
    void spend(std::int32_t budget) noexcept;
    void unspend(std::int32_t budget) noexcept;

private:
    const ClusterStore& m_store;
    std::vector<Status> m_status;
    std::vector<std::int32_t> m_spent;
    // Per pod, the guarding budgets: CSR over m_guards.
    std::vector<std::uint32_t> m_guardBegin;
    std::vector<std::uint32_t> m_guards;
};

} // namespace fleet::model
