// SPDX-License-Identifier: Apache-2.0
#pragma once
// The text the fleet map shows for one node (hover tooltip).

#include "views/map/mapmetric.h"

#include <QString>

namespace fleet::model {
class PlanLedger;
class Topology;
}

namespace fleet::views {

/// Rich text (a small HTML table, two columns, the left one short fixed words so that the
/// values keep the width) naming node n and its figures: name; its whole topology domain
/// path when `topology` is given ("us-east-1 / us-east-1a / nn-1 / nn-2 / nn-3", outermost
/// first, every ancestor but the root); instance type and GPU model; requested /
/// allocatable CPU, memory; its physical accelerators (model::nodeAccelerators(): GPUs,
/// a MIG-partitioned GPU once with its MIG slices by profile beside it, Neuron devices
/// with their NeuronCores) and how many are unallocated; pods (counted / allocatable);
/// its state (Ready, NotReady, cordoned); and what the map shows for it: the state for a
/// NotReady or cordoned cell (when the metric's colour gives way to the marks), else the
/// metric's title and value in its unit ("not applicable" with the reason for NaN), and
/// the metric's value beside the state in the former case. Figures through
/// model/figures.h. Under a plan (`plan` given) the requested figures, the GPUs
/// requested, the pod count and the state are the plan's (views/nodeview/plannodeview.h), and a
/// "Plan" row says what the plan did to the node; the accelerator breakdown (MIG slices,
/// Neuron) stays the loaded state's. Thread: any (reads the context's store, `topology` and
/// `plan` only, which must have been built over that store).
[[nodiscard]] QString nodeToolTip(const model::MetricContext& context, model::NodeId n, const model::Metric& metric,
    const model::Topology* topology = nullptr, const model::PlanLedger* plan = nullptr);

/// nodeToolTip() for a share metric on a context built here (O(nodes): for tests).
[[nodiscard]] QString nodeToolTip(
    const model::ClusterStore& store, model::NodeId n, MapMetric metric, const model::Topology* topology = nullptr);

/// What the map shows for node n under `metric`, as the tooltip's "Map shows" cell says
/// it: "NotReady", "Cordoned", "GPU requested 75%", "Cost $98.32/h", "Instance type
/// p5.48xlarge", "GPU requested: not applicable (no GPUs)". Thread: any.
[[nodiscard]] QString mapShowsText(const model::MetricContext& context, model::NodeId n, const model::Metric& metric);

/// Node n's value of `metric` in its unit ("75.0%", "$98.32/h", "3 GPUs", "p5.48xlarge"),
/// or "not applicable". Thread: any.
[[nodiscard]] QString metricValueText(const model::MetricContext& context, model::NodeId n, const model::Metric& metric);

} // namespace fleet::views
