// SPDX-License-Identifier: Apache-2.0
#pragma once
// A deterministic simulated accelerator fleet, shaped like a large Amazon EKS cluster
// (DESIGN.md, "Data sources: Simulated").
//
// What it holds, for any node count:
// - Nodes in one region, us-west-2, spread over its four zones, as one EKS cluster (a cluster
//   is regional: its nodes and pods never cross a region). SimulationSpec::regionCount adds
//   us-east-1, us-east-2 and eu-west-1: several clusters' worth of nodes in one store, for
//   tests of the map's scale, not a fleet a plan could act on as one. Also the
//   EC2 network hierarchy (labels topology.k8s.aws/network-node-layer-1..3, as the EC2
//   DescribeInstanceTopology API and EKS report it: layer-1 spine blocks hold layer-2
//   networks, which hold layer-3 groups of at most 16 instances). Node groups of one instance
//   type fill consecutive layer-3 groups of one zone, like EKS managed node groups or EC2
//   capacity blocks. Names are the instances' private DNS names
//   (ip-10-12-34-56.us-west-2.compute.internal; ec2.internal in us-east-1).
// - Instance types with their published shapes (aws.amazon.com/ec2/instance-types):
//   p5.48xlarge (8 H100, 32 EFA), p5e.48xlarge and p5en.48xlarge (8 H200), p6-b200.48xlarge
//   (8 B200), trn2.48xlarge (16 Trainium2: aws.amazon.com/neuron 16, neuroncore 128),
//   g5 and g6e (1 to 8 A10G / L40S), and CPU nodes m7i, c7i, r7i. Allocatable is capacity
//   minus the kubelet reservations of the EKS optimized AMI (kube-reserved CPU by the
//   6% / 1% / 0.5% / 0.25% per-core rule, memory 255 MiB + 11 MiB per pod, eviction-hard
//   memory.available 100Mi and nodefs.available 10%); max pods 110 below 30 vCPUs, else 250
//   (EKS "maximum Pods per node" with prefix delegation). Some p5 nodes are partitioned with
//   MIG (mixed strategy: nvidia.com/mig-1g.10gb 56 or nvidia.com/mig-3g.40gb 16, no
//   nvidia.com/gpu). GPU nodes carry the nvidia.com/gpu.product label and the taint
//   nvidia.com/gpu=true:NoSchedule; Trainium nodes aws.amazon.com/neuron=true:NoSchedule.
// - About 0.5% NotReady nodes (with the node.kubernetes.io/not-ready taints) and about 0.7%
//   cordoned ones (spec.unschedulable, node.kubernetes.io/unschedulable taint).
// - Pods: DaemonSet pods on every node (kube-proxy, aws-node, ebs-csi-node,
//   prometheus node exporter; nvidia-device-plugin on NVIDIA nodes, neuron-device-plugin on
//   Trainium nodes, efa device plugin where EFA is present) with the tolerations their charts
//   set; training gangs (Jobs and StatefulSets in ml-training, each pod taking a whole
//   accelerator node, all pods of a gang on nodes of one layer-2 network); inference
//   Deployments (1 to 4 GPUs a pod, or one MIG slice); batch Jobs with Succeeded and Failed
//   pods; CPU Deployments; pending pods (no nodeName), among them training gangs larger than
//   any layer-2 network and than their node group's idle nodes, which therefore cannot be
//   placed together. Some accelerator nodes
//   are left idle (about 1 layer-2 network in 16 of a training group between jobs, whole:
//   128 idle nodes); inference nodes are filled to random levels, so many are fragmented.
// - Pods are bound only where they fit: on no node does the sum of the requests of its
//   counted pods exceed its allocatable, for every core and extended resource.
//
// Determinism: everything comes from DeterministicRng (own xoshiro256** and range mapping),
// seeded from SimulationSpec::seed, and nothing depends on hash-table order, so the same
// spec gives the same store on every platform.

#include "importers/importreport.h"
#include "model/clusterstore.h"

#include <cstddef>
#include <cstdint>

namespace fleet::importers {

/// What to simulate.
struct SimulationSpec {
    std::size_t nodeCount = 100000;
    std::uint64_t seed = 1;
    /// Regions, 1 to kMaxSimulatedRegions: 1 is one cluster (us-west-2 and its zones); more
    /// add us-east-1, us-east-2 and eu-west-1 in that order, the nodes split 40/30/20/10 per
    /// mille (renormalized over the regions taken). The same seed and region count give the
    /// same fleet; regionCount 4 is the fleet every simulation was before the one-region
    /// default (but for a pending gang its node group's idle nodes could hold, which is now
    /// one layer-3 block larger than them). Values outside the range are clamped.
    std::size_t regionCount = 1;
};

/// The most regions a simulation spans (us-west-2, us-east-1, us-east-2, eu-west-1).
inline constexpr std::size_t kMaxSimulatedRegions = 4;

/// Appends a deterministic simulated accelerator fleet of exactly spec.nodeCount nodes (and
/// their pods, on average about 17 a node) to `store`, which must be empty (the names of a
/// simulated fleet are not made to be unique against another cluster). No finalize().
/// Node and pod names are unique up to about ten million nodes (with regionCount 3, about
/// nine million: each region has 2^22 addresses).
/// Progress is reported in nodes (done, spec.nodeCount), at most about ten times a second.
/// Throws std::invalid_argument when `store` is not empty, and ImportCancelled when
/// `progress` asks to stop, after which `store` is empty again.
/// Speed: about 1.2 s for 100,000 nodes and 1.7 million pods on one core (tst_simulatedcluster
/// prints the figure); most of it is interning strings into the store.
/// Thread: any one thread that owns `store`.
void generateSimulatedCluster(
    const SimulationSpec& spec, model::ClusterStore& store, ImportReport& report, ImportProgress* progress = nullptr);

} // namespace fleet::importers
