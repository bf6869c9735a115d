// SPDX-License-Identifier: Apache-2.0
#pragma once
// Plan-aware metrics: what the fleet map colours by while a plan exists. They read
// a PlanLedger (the loaded cluster with the plan applied) besides the MetricContext, so
// they are not in the built-in registry: the app makes them for its plan and hands them to
// the map (FleetMapView::setMetric / refreshMetric) while a plan has actions.
//
//   "plan-gpu", "plan-cpu", "plan-memory"            requested share under the plan (Share)
//   "plan-diff-gpu", "plan-diff-cpu", "plan-diff-memory"  after minus before (Diverging)
//
// The GPU share follows the "gpu" metric's rule (whole GPUs; CPU on a fleet without
// accelerators; a node without GPUs not applicable), except that MIG slices and Neuron
// devices, which the ledger keeps as extended resources, are read through the ledger too.
// A node the plan drained or failed is not applicable "after" (it is gone) and its
// difference is minus its share before. Thread: as Metric (immutable); the state must not be
// mutated while a column is being computed (the GUI thread applies plans and recomputes).

#include "model/metrics/metric.h"
#include "model/scheduling/planledger.h"

#include <memory>

namespace fleet::model {

enum class PlanMetricKind : std::uint8_t { After, Difference };

/// The plan-aware metric of `baseId` ("gpu", "cpu" or "memory") over `state`; null for any
/// other id or a null state. Throws std::bad_alloc only.
[[nodiscard]] std::shared_ptr<const Metric> makePlanMetric(
    std::shared_ptr<const PlanLedger> state, std::string_view baseId, PlanMetricKind kind);

/// "gpu" for "plan-gpu" and "plan-diff-gpu" (likewise cpu, memory); "" for other ids.
[[nodiscard]] std::string_view planMetricBaseId(std::string_view id) noexcept;

} // namespace fleet::model
