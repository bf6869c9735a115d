// SPDX-License-Identifier: Apache-2.0
#pragma once
// The simulated fleet's generator, shared by its two halves: simulatedcluster.cpp lays out
// regions, zones, the EC2 network hierarchy, node groups and nodes; workloadplacement.cpp
// defines the workloads (DaemonSets, training gangs, inference and CPU Deployments, batch
// Jobs) and places their pods on the nodes. Also the region table and network fan-outs
// both halves use. Internal to importers/simulated/; the public entry point is
// simulatedcluster.h.
//
// The what-if constraints, beside what simulatedcluster.h lists: a uid on every
// pod (version-4 shaped, from a hash); required pod anti-affinity on kubernetes.io/hostname
// against its own pods for a third of the inference Deployments (placed one replica a node);
// zone spread constraints (maxSkew 1) on half the Deployments: DoNotSchedule only for
// inference Deployments pinned to their node group (one zone, so never skewed),
// ScheduleAnyway otherwise; host ports on the host-network DaemonSets (aws-node 61678, node
// exporter 9100, fluent-bit 2020); a PodDisruptionBudget (minAvailable 1 or maxUnavailable
// "25%", no status) for 40% of the Deployments; do-not-disrupt on about 1 movable pod in 500;
// emptyDir on a fifth of the CPU Deployments and half the batch Jobs; PodFlagReady on Running
// pods. All drawn from hashes of each workload's salt, not from the generator's stream.
//
// Design note: the generator is written for speed (100,000 nodes and ~1.7 million pods in
// about a second). It works node group by node group: it lays the group's nodes into the
// network hierarchy, decides what runs where while tracking each node's free resources in a
// small local array, then appends the nodes and their pods. NodeRecord and PodRecord objects
// are reused so that their strings keep their buffers; each workload keeps one PodRecord
// template and only the pod name, node name and phase change from pod to pod.

#include "deterministicrng.h"
#include "instancecatalog.h"
#include "simulatedcluster.h"

#include "importers/importreport.h"
#include "importers/progressthrottle.h"
#include "model/clusterstore.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace fleet::importers::simulated {

// ---------------------------------------------------------------------------------------
// Regions and zones.

struct Region {
    const char* name;
    const char* dnsSuffix; // private DNS: ec2.internal in us-east-1, <region>.compute.internal elsewhere
    const char* zoneIdPrefix;
    const char* zoneLetters;
    std::uint32_t sharePerMille;
};

inline constexpr Region kRegions[] = {
    { "us-west-2", "us-west-2.compute.internal", "usw2-az", "abcd", 400 },
    { "us-east-1", "ec2.internal", "use1-az", "abcdf", 300 },
    { "us-east-2", "us-east-2.compute.internal", "use2-az", "abc", 200 },
    { "eu-west-1", "eu-west-1.compute.internal", "euw1-az", "abc", 100 },
};
inline constexpr std::size_t kRegionCount = std::size(kRegions);
static_assert(kRegionCount == kMaxSimulatedRegions);

// The EC2 network hierarchy: at most this many instances per layer-3 network node, layer-3
// nodes per layer-2, layer-2 nodes per layer-1 (our choice; EC2 does not publish fan-outs).
inline constexpr std::uint32_t kNodesPerLayer3 = 16;
inline constexpr std::uint32_t kLayer3PerLayer2 = 8;
inline constexpr std::uint32_t kLayer2PerLayer1 = 8;
inline constexpr std::uint32_t kNodesPerLayer2 = kNodesPerLayer3 * kLayer3PerLayer2;
inline constexpr std::uint32_t kNodesPerLayer1 = kNodesPerLayer2 * kLayer2PerLayer1;

// ---------------------------------------------------------------------------------------
// Workloads and planned nodes.

// The DaemonSets of kDaemonSets (workloadplacement.cpp).
inline constexpr std::size_t kDaemonSetCount = 9;

// One workload: a pod template and a name generator.
struct Workload {
    model::PodRecord pod; // template: namespace, owner, request, tolerations, selector
    Amounts request; // the same request in local units, for fit checks
    std::string podPrefix; // pod names are podPrefix + suffix
    std::uint64_t salt = 0; // for unique suffixes
    std::uint32_t made = 0; // pods made so far
    std::uint32_t target = 0; // pods to make
    bool indexed = false; // Job pods: "<job>-<index>-<suffix>"
    bool ordinal = false; // StatefulSet pods: "<sts>-<ordinal>"
    bool batch = false; // Job whose pods may end Succeeded or Failed
    bool antiAffinity = false; // required anti-affinity on kubernetes.io/hostname against its own pods
    std::uint16_t flags = 0; // PodFlag bits every pod of it has (emptyDir)
};

// A node of the group being generated, with its free resources while pods are placed.
struct PlannedNode {
    std::string name;
    bool notReady = false;
    bool cordoned = false;
    // Problems drawn from a hash of the node's index (not from the generator's stream, so
    // that the rest of the fleet is the same with or without them); see nodeProblemsFor().
    bool memoryPressure = false;
    bool diskPressure = false;
    bool unhealthyGpu = false; // one GPU fewer in allocatable than in capacity
    std::uint64_t hash = 0;
    Amounts free;
};

// The time the simulated snapshot is taken (2026-11-30T12:00:00Z), in Unix seconds: the
// conditions' lastTransitionTime lie before it.
inline constexpr std::int64_t kSnapshotUnixSeconds = 1796040000;

// Generates one fleet into a store (see generateSimulatedCluster). Thread: the store's.
class ClusterGenerator {
public:
    ClusterGenerator(const SimulationSpec& spec, model::ClusterStore& store, ImportReport& report, ImportProgress* progress)
        : m_spec(spec)
        , m_store(store)
        , m_report(report)
        , m_rng(spec.seed)
        , m_throttle(progress, spec.nodeCount)
        , m_regions(std::clamp<std::size_t>(spec.regionCount, 1, kRegionCount))
        , m_addressBits(m_regions == 1 ? 24 : m_regions == 2 ? 23 : 22)
    {
    }

    void run();

private:
    struct Zone {
        std::size_t region;
        std::size_t globalIndex;
        std::string name; // us-west-2a
        std::string zoneId; // usw2-az1
    };

    // Fleet layout and nodes (simulatedcluster.cpp).
    void chooseUnhealthyNodes();
    void generateZone(const Zone& zone, std::size_t nodes);
    void generateGroup(const Zone& zone, const PoolKind& pool, std::size_t typeIndex, int migProfile, std::size_t count,
        std::uint64_t firstSlot);
    void addNode(const Zone& zone, PlannedNode& n, std::uint64_t slot, const InstanceType& type, const NodeShape& shape,
        int migProfile, const std::string& group, bool capacityBlock);
    void setConditions(model::NodeRecord& r, const PlannedNode& n);

    // Workloads and pod placement (workloadplacement.cpp).
    void setUpDaemonSets();
    void addDaemonSetPods(PlannedNode& n, const InstanceType& type);
    [[nodiscard]] Amounts daemonSetRequest(const InstanceType& type) const;
    void emitPod(Workload& w, const std::string& nodeName, model::PodPhase phase);

    void placeTraining(std::vector<PlannedNode>& nodes, const InstanceType& type, const Amounts& budget);
    void fillInference(std::vector<PlannedNode>& nodes, const InstanceType& type, int migProfile, const Amounts& budget);
    void fillCpu(std::vector<PlannedNode>& nodes, const Amounts& budget);
    void addPendingGangs();

    void startWorkload(Workload& w, const char* ns, const char* baseName, model::OwnerKind kind);
    void makeTrainingGang(Workload& w, const InstanceType& type, const Amounts& budget, std::uint32_t size);
    void makeInference(Workload& w, const InstanceType& type, int migProfile, const Amounts& budget);
    void makeCpuDeployment(Workload& w);
    void makeBatchJob(Workload& w);
    void setRequest(Workload& w, const Amounts& request);
    // What-if constraints (workloadplacement.cpp), drawn from a hash of the workload's salt,
    // not from the generator's stream, so the rest of the fleet is drawn as without them.
    void addSpreadAndBudget(Workload& w, std::uint64_t hash, bool pinToGroup);
    [[nodiscard]] model::InternedSelector appSelector(const Workload& w);

    const SimulationSpec& m_spec;
    model::ClusterStore& m_store;
    ImportReport& m_report;
    DeterministicRng m_rng;
    ProgressThrottle m_throttle;
    std::size_t m_regions; // the first m_regions of kRegions
    unsigned m_addressBits; // bits of a region's share of 10.0.0.0/8

    std::array<model::ResourceKey, kExtCount> m_extKey {};
    model::NodeRecord m_node;
    std::size_t m_labelCount = 0;
    std::array<Workload, kDaemonSetCount> m_daemonSets;
    std::string m_emptyName;
    std::string m_lastLayerId[3];
    std::uint64_t m_lastLayerIndex[3] = { ~0ull, ~0ull, ~0ull };
    std::uint64_t m_lastLayerZone = ~0ull;

    std::vector<std::uint8_t> m_unhealthy; // per node in creation order: 0 healthy, 1 NotReady, 2 cordoned
    std::vector<PlannedNode> m_planned;
    std::size_t m_nodesMade = 0;
    std::array<std::uint64_t, kRegionCount> m_ipCounter {};
    std::array<std::uint64_t, kRegionCount> m_ipSalt {};
    std::uint64_t m_workloadCounter = 0;
    std::uint64_t m_groupCounter = 0;
    std::string m_groupName; // the node group being generated
    std::vector<std::pair<std::size_t, std::string>> m_trainingGroups; // (type index, node group name)
    std::vector<std::size_t> m_trainingGroupNodes; // nodes of each of m_trainingGroups
    std::vector<std::size_t> m_trainingGroupIdle; // of them, Ready schedulable nodes with no accelerator in use
};

} // namespace fleet::importers::simulated
