// SPDX-License-Identifier: Apache-2.0
#pragma once
// Feasibility as the kube-scheduler decides it: the filter plugins, each following its source
// exactly, evaluated over a PlanLedger (the loaded cluster with a plan applied).
//
// A move of pod P to node N is feasible when every filter passes with P taken off its current
// node first. "Fits" means fits without preempting anyone. A verdict lists every failing
// filter, in the kube-scheduler's plugin order (reasons.h), not only the first. DaemonSet and
// mirror pods never move. Each filter's rule and source file:
//   NodeUnschedulable  pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go
//   TaintToleration    pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go
//   NodeAffinity       pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go
//   NodePorts          pkg/scheduler/framework/plugins/nodeports/node_ports.go
//   NodeResourcesFit   pkg/scheduler/framework/plugins/noderesources/fit.go
//   VolumeBinding      pkg/scheduler/framework/plugins/volumebinding/ (PV node affinity only)
//   VolumeZone         pkg/scheduler/framework/plugins/volumezone/volume_zone.go
//   PodTopologySpread  pkg/scheduler/framework/plugins/podtopologyspread/filtering.go
//   InterPodAffinity   pkg/scheduler/framework/plugins/interpodaffinity/filtering.go
// and Fleetscope's: node readiness (the node lifecycle controller's not-ready / unreachable
// NoSchedule taint, added when the input lacks it; tolerable), the GPU model (a failing
// node-affinity term on alibabacloud.com/gpu-card-model), the per-GPU fit of shared GPUs, and
// node-gone (a node the plan failed or removed: its only reason). Each plugin's file in
// model/scheduling/ gives the rule in detail and what differs: TaintToleration reports the
// first untolerated taint of the node, readiness taints included; node-not-ready stands beside
// it on a node that is not Ready (docs/scheduler-rules.md).
// Messages are sentences for people ("needs 4 nvidia.com/gpu, gpu-7 has 2 free of 8"); codes
// are reasons.h's.
//
// Speed (tests/bench/bench_whatif, 100,000 simulated nodes): a PodFeasibility plus
// feasibleNodes() over every node takes 4.5 to 9 ms (median over pods, on 2 shared cores)
// with taints, node affinity, spread and inter-pod rules in play; checkMove() builds one, so
// judging many nodes for one pod should reuse a PodFeasibility.
//
// Thread: any reader of the PlanLedger (no filter mutates it). A PodFeasibility reads the
// state it was built on: rebuild it after the state changes.

#include "model/scheduling/planledger.h"
#include "model/scheduling/reasons.h"

#include <cstdint>
#include <vector>

namespace fleet::model {

/// The answer for one pod on one node.
struct Verdict {
    bool feasible = false;
    std::vector<Reason> reasons; // empty when feasible; sorted by sortReasons()
};

/// Whether pod `p` could move to node `to` under `state`, with every failing filter's reason.
/// Moving a pod to the node it is on is feasible (no change). Pods that never move (DaemonSet,
/// mirror) and unsupported features give their reason and nothing else.
[[nodiscard]] Verdict checkMove(const PlanLedger& state, PodId p, NodeId to);

/// The per-drag precomputation for one pod: everything that depends on the pod only (its
/// matching label sets for affinity / spread, the domain counts by topology value), so that
/// judging each node is a few lookups. Built in O(taint sets + the label groups and
/// anti-affinity terms its rules and labels can match (inverted indexes of the ledger) + the
/// nodes holding matching pods); not O(nodes) nor O(every group). bench_whatif's
/// move_apply_us builds one after each move (the re-evaluation of the moved pod).
class PodFeasibility {
public:
    PodFeasibility(const PlanLedger& state, PodId p);
    ~PodFeasibility();
    PodFeasibility(PodFeasibility&&) noexcept;
    PodFeasibility& operator=(PodFeasibility&&) noexcept;

    /// True when the pod can never move (DaemonSet, mirror, unsupported): every node fails.
    [[nodiscard]] bool immovable() const noexcept;
    /// The fast answer for one node (no reasons). Equal to checkMove(...).feasible.
    [[nodiscard]] bool feasible(NodeId to) const noexcept;
    /// How many copies of the pod the node takes at once, at most `limit`: 0 unless feasible(to),
    /// else what NodeResourcesFit allows for k copies (every requested resource's free amount
    /// over the request; shared GPUs per GPU, whole GPUs idle; 1 with host ports). The copies'
    /// rules among themselves (their own spread or anti-affinity) are not judged: the count is
    /// Kueue TAS's per-node capacity (pkg/cache/tas_flavor_snapshot.go fillInCounts), which
    /// counts requests only. O(resources).
    [[nodiscard]] std::int64_t copiesThatFit(NodeId to, std::int64_t limit) const noexcept;
    /// The full verdict for one node (for a tooltip or check-move).
    [[nodiscard]] Verdict verdict(NodeId to) const;
    /// One byte per node under the state (PlanLedger::nodeCount()): 1 feasible, 0 not, for
    /// the drag's shading. `out` is resized.
    void feasibleNodes(std::vector<std::uint8_t>& out) const;

    struct Private; // the precomputation the plugins read (filterplugins_p.h)

private:
    std::unique_ptr<Private> d;
};

} // namespace fleet::model
