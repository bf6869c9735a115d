// SPDX-License-Identifier: Apache-2.0
#pragma once
// Topology-aware placement of a new workload: N pods of one spec placed inside the network
// topology, with the semantics of Kueue's Topology Aware Scheduling (KEP-2724,
// kubernetes-sigs/kueue keps/2724-topology-aware-scheduling; the algorithm of
// pkg/cache/tas_flavor_snapshot.go, findTopologyAssignment):
//   phase 1  each node's capacity (how many copies of the pod fit: PodFeasibility, the
//            what-if's filters, and PodFeasibility::copiesThatFit), summed up the levels; with
//            slices, a slice-level domain holds floor(pods / sliceSize) slices and the levels
//            above sum slices.
//   phase 2a the level: among the domains of the requested level (sorted by capacity, most
//            first, ties by their label values), BestFit takes the one with the least capacity
//            that still holds the workload (findBestFitDomainIdx). None: a required level
//            fails; a preferred level climbs one level up and tries again; at the top level
//            the workload spreads over domains, most capacity first, the last one by best fit
//            (the last resort).
//   phase 2b down to the nodes: in each chosen domain, its children sorted the same way take
//            its count, most capacity first, the last one by best fit (updateCountsToMinimum);
//            at and above the slice level the counts are slices, below it pods, so that every
//            slice lies whole inside one slice-level domain.
// What differs from Kueue, on purpose: a chosen domain's count is split among its own children
// (Kueue pools the children of every chosen domain; the same when one domain is chosen, the
// required and preferred cases); the levels are Fleetscope's topology (levelKeys(), e.g.
// region, zone, network-node-layer-1..3) plus network-node-layer-4 where nodes carry it and any
// requested key (nvidia.com/gpu.clique). A node must carry every level down to the requested
// one (else it is not in the topology, as a node without the Topology's labels is not in a
// Kueue TAS flavor); below it a missing level is the node's bottom (a p5 node has layers 1-3,
// a node with layer 4 has 4): it stands for its deepest domain at that level.
// A gang is all or nothing (Kueue admits a PodSet whole); without gang, as many pods as the
// chosen domains hold are placed.
//
// Speed (tests/bench/bench_gang, 100,000 simulated nodes): one call is O(nodes x levels) for
// the tree and the capacities plus O(domains log domains) for the sorting.
// Thread: a pure function of the state (any thread that may read it).

#include "model/scheduling/planledger.h"
#include "model/scheduling/reasons.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fleet::model {

class Topology;

/// What to place and how (Kueue's PodSet topology request: podset-required-topology,
/// podset-preferred-topology, podset-slice-required-topology, podset-slice-size).
struct TopologyRequest {
    std::int32_t pods = 0;      // N >= 1
    std::string requiredLevel;  // a level's label key: all pods in one domain of it, or none
    std::string preferredLevel; // a level's label key: the smallest domain that fits, from it up
    std::int32_t sliceSize = 0; // 0: no slices; else divides `pods`
    std::string sliceLevel;     // with sliceSize: each slice inside one domain of this (lower) level
    bool gang = true;           // all or nothing
    /// A level's label key the pods never spread over: a preferred level (or none: the deepest)
    /// climbs no higher than it, and at it one domain must hold them all, as at a required
    /// level (a cluster's region, say, for a fleet of several). "" (the default): the climb may
    /// reach the top level and spread there. It must be the request's level or above it; a
    /// required level at or below it implies it.
    std::string keepWithinLevel;
};

/// Why a level did not hold the pods: its domain that came closest and what it lacks.
struct LevelShortfall {
    std::string levelKey;
    std::string closestDomain;       // its path (domainpath.h syntax); "" when the level has none
    std::int32_t podsFit = 0;        // pods the closest domain holds
    std::int32_t slicesFit = 0;      // whole slices it holds (with slices)
    std::int32_t nodes = 0;          // its nodes in the topology
    std::int32_t nodesFull = 0;      // of them, nodes that take no pod
    Reason reason;                   // topology-domain:<levelKey>, a sentence with the above
    std::vector<std::pair<std::string, std::int32_t>> nodeReasons; // why its nodes take no pod: code, nodes
};

/// The placement found (or why there is none).
struct TopologyPlacement {
    bool fits = false;                                 // every pod placed (gang: else none)
    std::int32_t podsPlaced = 0;
    std::string levelKey;                              // the level the pods were fit at
    std::vector<std::string> domains;                  // the chosen domains at that level (paths)
    std::vector<std::pair<NodeId, std::int32_t>> nodes; // pods per node, in topology order
    std::vector<LevelShortfall> shortfalls;            // when it does not fit: per level tried
    std::vector<Reason> reasons;                       // the shortfalls' reasons (or a bad request's)
    std::int32_t nodesOutsideTopology = 0;             // nodes lacking a level's label down to the request
};

/// The levels a request may name over `state` (outermost first; topology's user keys).
[[nodiscard]] std::vector<std::string> topologyPlacementLevels(const PlanLedger& state, const Topology& topology,
    const TopologyRequest& request = {});

/// Finds where `request.pods` pods like `podSpec` (a pod of the state: its template's spec for an
/// added one; a pending pod is judged off every node) go under `state`, without changing it.
/// Throws std::invalid_argument, naming the problem and the levels there are, when the request
/// is malformed (pods < 1, both levels, an unknown level, a slice size that does not divide
/// pods, a slice level not below the request's level, a keep-within level below the request's).
[[nodiscard]] TopologyPlacement findTopologyPlacement(
    const PlanLedger& state, const Topology& topology, PodId podSpec, const TopologyRequest& request);

/// The most pods like `podSpec` one domain of `request`'s required (else preferred) level holds,
/// with its slices (a multiple of sliceSize): phase 1 alone. For the largest gang that fits.
[[nodiscard]] std::int32_t largestTopologyFit(
    const PlanLedger& state, const Topology& topology, PodId podSpec, const TopologyRequest& request);

} // namespace fleet::model
