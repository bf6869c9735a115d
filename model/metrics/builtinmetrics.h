// SPDX-License-Identifier: Apache-2.0
#pragma once
// The built-in metrics, one small file each (named after the metric); the registry
// (metricregistry.h) lists them. Each factory returns a new immutable metric.
// Throws std::bad_alloc only. Thread: any.

#include "model/metrics/metric.h"

#include <memory>
#include <string_view>

namespace fleet::model {

/// "gpu": the accelerator share of a node (nodeAcceleratorShare(): GPU, else MIG slices,
/// else Neuron devices). A node without accelerators is not applicable (NaN) when the fleet
/// has accelerators; on a fleet with none at all the metric shows every node's CPU share
/// (titled "CPU requested (no GPU nodes)" by gpuMetricTitle()). Share scale.
[[nodiscard]] std::unique_ptr<Metric> makeGpuRequestedMetric();
/// "cpu": requested / allocatable CPU millicores. Share scale.
[[nodiscard]] std::unique_ptr<Metric> makeCpuRequestedMetric();
/// "memory": requested / allocatable memory bytes. Share scale.
[[nodiscard]] std::unique_ptr<Metric> makeMemoryRequestedMetric();
/// "gpu-unallocated": physical accelerators with nothing requested
/// (NodeAccelerators::unallocatedDevices: a MIG-partitioned GPU once, a Neuron device
/// once); NaN on nodes without accelerators. Amount scale, unit "GPUs".
[[nodiscard]] std::unique_ptr<Metric> makeGpuUnallocatedMetric();
/// "gpu-fragmentation": FGD's fragmentation of a node (Weng et al., USENIX ATC '23, section
/// 4; placement/typicalpods.h nodeFragmentation()) against the loaded workload's typical GPU
/// pods (MetricContext::gpuTypicalPods()), in GPUs (milli-GPU / 1000): the free GPU capacity
/// that a typical pod, drawn by its share of the workload, is expected not to be able to use
/// (it does not fit the node's free cpu or free GPUs, or its GPU model is another). The
/// node's GPUs are taken device by device as loaded (gpudevices.h, the ledger's rule). NaN
/// on nodes whose GPUs are not tracked one by one (CPU nodes, MIG slices) and on a fleet
/// whose workload asks for no GPU. Amount scale, unit "GPUs"; the legend's total is the
/// fleet's expected fragmented GPUs. O(typical pods x GPUs) per node.
[[nodiscard]] std::unique_ptr<Metric> makeGpuFragmentationMetric();
/// The "gpu-fragmentation" value of node n (see above). Thread: any.
[[nodiscard]] double gpuFragmentation(const MetricContext& context, NodeId n) noexcept;
/// "cost": the node's price, MetricContext::nodeDollarsPerHour(); NaN when unknown.
/// Amount scale, unit "$/h". Prepaid capacity is flagged kMetricFlagPrepaid.
[[nodiscard]] std::unique_ptr<Metric> makeCostMetric();
/// "cost-unallocated": the price of the node's capacity that no pod requests; see
/// unallocatedDollarsPerHour(). Amount scale, unit "$/h".
[[nodiscard]] std::unique_ptr<Metric> makeCostUnallocatedMetric();
/// "state": Ready (0), NotReady (1, Ready condition False or Unknown), cordoned (2, Ready
/// and spec.unschedulable). Categorical, in this fixed order.
[[nodiscard]] std::unique_ptr<Metric> makeNodeStateMetric();
/// "label:KEY": the node's value of label KEY as a category (NaN when the node has no
/// such label); categories ordered by node count. Title "Node group" for
/// eks.amazonaws.com/nodegroup, "Capacity type" for eks.amazonaws.com/capacityType and
/// karpenter.sh/capacity-type, "Instance type" for node.kubernetes.io/instance-type, else
/// "Label KEY".
[[nodiscard]] std::unique_ptr<Metric> makeLabelMetric(std::string_view labelKey);

/// The "gpu" metric's title on a fleet: "GPU requested", or "CPU requested (no GPU
/// nodes)" when the fleet has no accelerators.
[[nodiscard]] std::string_view gpuMetricTitle(bool fleetHasAccelerators) noexcept;

/// The share of node n the "cost-unallocated" metric counts as allocated: on a node with
/// accelerators their share (nodeAcceleratorShare()), else the larger of the requested
/// CPU and memory shares; clamped to [0, 1]; NaN when the node has none of them.
[[nodiscard]] double allocatedPrimaryShare(const MetricContext& context, NodeId n) noexcept;

/// The one formula for the cost of unallocated capacity, in $/h:
///     unallocated = price x (1 - allocatedPrimaryShare(n))
/// where price is MetricContext::nodeDollarsPerHour(n). NaN when the price or the share is
/// unknown. For prepaid capacity (capacity blocks, reservations: isPrepaid()) the figure
/// is the same, but the metric flags it kMetricFlagPrepaid: the money is spent already,
/// so the legend shows it apart from the cost an operator can still save.
[[nodiscard]] double unallocatedDollarsPerHour(const MetricContext& context, NodeId n) noexcept;

/// Node states of the "state" metric, as its category codes.
enum class NodeState : std::uint8_t { Ready = 0, NotReady = 1, Cordoned = 2 };
inline constexpr int kNodeStateCount = 3;
/// Node n's state: NotReady when the Ready condition is not True (kubectl shows False and
/// Unknown as NotReady), else Cordoned when spec.unschedulable, else Ready.
[[nodiscard]] NodeState nodeState(const ClusterStore& store, NodeId n) noexcept;
/// "Ready", "NotReady", "Cordoned".
[[nodiscard]] std::string_view nodeStateName(NodeState s) noexcept;

} // namespace fleet::model
