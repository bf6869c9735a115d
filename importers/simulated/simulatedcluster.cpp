// SPDX-License-Identifier: Apache-2.0
// The simulated fleet's orchestration and its public entry point: regions and zones, node
// groups laid into the EC2 network hierarchy, the nodes themselves (names, labels, taints,
// readiness) and the order in which the generator's parts run. The instance types come from
// instancecatalog.h; the workloads and their pods from workloadplacement.cpp.

#include "simulatedcluster.h"

#include "clustergenerator.h"
#include "simulatednames.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fleet::importers {
namespace simulated {

using model::CoreResource;
using model::TaintEffect;

namespace {

// Splits `total` by integer weights with the largest-remainder method (exact sum).
std::vector<std::size_t> apportion(std::size_t total, const std::vector<std::uint32_t>& weights)
{
    std::uint64_t sum = 0;
    for (auto w : weights)
        sum += w;
    std::vector<std::size_t> parts(weights.size(), 0);
    if (sum == 0 || weights.empty())
        return parts;
    std::vector<std::pair<std::uint64_t, std::size_t>> remainders;
    std::size_t given = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        const std::uint64_t exact = static_cast<std::uint64_t>(total) * weights[i];
        parts[i] = static_cast<std::size_t>(exact / sum);
        given += parts[i];
        remainders.emplace_back(exact % sum, i);
    }
    std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; given < total; ++k, ++given)
        ++parts[remainders[k % remainders.size()].second];
    return parts;
}

} // namespace

void ClusterGenerator::run()
{
    if (m_spec.nodeCount == 0)
        return;
    for (std::size_t e = 0; e < kExtCount; ++e)
        m_extKey[e] = m_store.resources().keyFor(kExtNames[e]);
    m_store.reserve(m_spec.nodeCount, m_spec.nodeCount * 18 + 1024);
    for (auto& salt : m_ipSalt)
        salt = m_rng.next();
    setUpDaemonSets();
    chooseUnhealthyNodes();

    std::vector<std::uint32_t> regionWeights;
    for (std::size_t r = 0; r < m_regions; ++r)
        regionWeights.push_back(kRegions[r].sharePerMille);
    const std::vector<std::size_t> perRegion = apportion(m_spec.nodeCount, regionWeights);
    std::size_t zoneGlobal = 0;
    for (std::size_t r = 0; r < m_regions; ++r) {
        const std::string_view letters = kRegions[r].zoneLetters;
        std::vector<std::uint32_t> zoneWeights;
        for (std::size_t z = 0; z < letters.size(); ++z)
            zoneWeights.push_back(static_cast<std::uint32_t>(m_rng.between(2, 5)));
        const std::vector<std::size_t> perZone = apportion(perRegion[r], zoneWeights);
        for (std::size_t z = 0; z < letters.size(); ++z, ++zoneGlobal) {
            if (perZone[z] == 0)
                continue;
            Zone zone { r, zoneGlobal, std::string(kRegions[r].name) + letters[z], kRegions[r].zoneIdPrefix };
            appendNumber(zone.zoneId, z + 1);
            generateZone(zone, perZone[z]);
        }
    }
    addPendingGangs();
    m_throttle.finish();
    m_report.nodesRead += m_store.nodeCount();
    m_report.podsRead += m_store.podCount();
}

// Picks exactly n/200 NotReady and 7n/1000 cordoned nodes (at least one of each from 50
// nodes up) by selection sampling (Knuth, TAOCP vol. 2, 3.4.2, Algorithm S).
void ClusterGenerator::chooseUnhealthyNodes()
{
    const std::size_t n = m_spec.nodeCount;
    m_unhealthy.assign(n, 0);
    std::size_t healthy = n;
    const auto pick = [&](std::size_t want, std::uint8_t mark) {
        want = std::min(want, healthy);
        std::size_t candidates = healthy;
        for (std::size_t i = 0; i < n && want > 0; ++i) {
            if (m_unhealthy[i] != 0)
                continue;
            if (m_rng.below(candidates) < want) {
                m_unhealthy[i] = mark;
                --want;
                --healthy;
            }
            --candidates;
        }
    };
    pick(n / 200 + (n >= 50 ? 1 : 0), 1);
    pick(n * 7 / 1000 + (n >= 50 ? 1 : 0), 2);
}

void ClusterGenerator::generateZone(const Zone& zone, std::size_t nodes)
{
    std::uint32_t weights[std::size(kPools)];
    for (std::size_t i = 0; i < std::size(kPools); ++i)
        weights[i] = kPools[i].sharePerMille * 1000 / ((kPools[i].minNodes + kPools[i].maxNodes) / 2);
    // A slot is a position in the zone's network: slot / 16 is its layer-3 node, slot / 128
    // its layer-2 node, slot / 1024 its layer-1 node. Groups start on a fresh layer-3 node,
    // training groups on a fresh layer-2 node.
    std::uint64_t slot = 0;
    std::size_t left = nodes;
    while (left > 0) {
        const PoolKind& pool = kPools[m_rng.weighted(weights, std::size(kPools))];
        std::size_t typeCount = 0;
        while (typeCount < pool.types.size() && pool.types[typeCount] != 255)
            ++typeCount;
        const std::size_t typeIndex = pool.types[m_rng.below(typeCount)];
        const int migProfile = pool.role == Role::Mig ? (m_rng.chancePerMille(700) ? 1 : 3) : 0;
        std::size_t count = static_cast<std::size_t>(m_rng.between(pool.minNodes, pool.maxNodes));
        if (pool.role == Role::Training) {
            count = (count + kNodesPerLayer3 - 1) / kNodesPerLayer3 * kNodesPerLayer3;
            slot = (slot + kNodesPerLayer2 - 1) / kNodesPerLayer2 * kNodesPerLayer2;
        } else {
            slot = (slot + kNodesPerLayer3 - 1) / kNodesPerLayer3 * kNodesPerLayer3;
        }
        count = std::min(count, left);
        generateGroup(zone, pool, typeIndex, migProfile, count, slot);
        slot += count;
        left -= count;
    }
}

void ClusterGenerator::generateGroup(
    const Zone& zone, const PoolKind& pool, std::size_t typeIndex, int migProfile, std::size_t count, std::uint64_t firstSlot)
{
    const InstanceType& type = kTypes[typeIndex];
    const NodeShape shape = shapeFor(type, migProfile);
    std::string group = type.shortName;
    group += pool.role == Role::Training ? "-train-"
        : pool.role == Role::Mig         ? "-mig-"
        : pool.role == Role::Inference   ? "-infer-"
                                         : "-general-";
    group += zone.name;
    group += "-";
    appendNumber(group, ++m_groupCounter);
    m_groupName = group;
    const bool capacityBlock = pool.role == Role::Training && m_rng.chancePerMille(400);
    if (pool.role == Role::Training) {
        m_trainingGroups.emplace_back(typeIndex, group);
        m_trainingGroupNodes.push_back(count);
    }

    m_planned.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        PlannedNode& n = m_planned[i];
        const std::uint8_t health = m_unhealthy[m_nodesMade + i];
        n.notReady = health == 1;
        n.cordoned = health == 2;
        // Node problems beside NotReady and cordoned, from a hash of the node's index (so the
        // rest of the fleet is drawn as before them): about 1 node in 400 under
        // MemoryPressure, 1 in 600 under DiskPressure (Ready nodes: the kubelet still
        // reports), and 1 GPU node in 250 with an unhealthy GPU, which the NVIDIA device
        // plugin leaves out of allocatable. The GPU failed after the node's pods were placed:
        // they keep running, so such a node's GPU requests may exceed its allocatable, as on
        // a real cluster (findNodeProblems reports it as over-committed).
        n.hash = SplitMix64::mix(m_spec.seed * 0x9e3779b97f4a7c15ull + m_nodesMade + i + 1);
        n.memoryPressure = !n.notReady && n.hash % 400 == 7;
        n.diskPressure = !n.notReady && (n.hash >> 16) % 600 == 11;
        n.unhealthyGpu = type.gpus > 0 && migProfile == 0 && (n.hash >> 32) % 250 == 3;
        n.free = shape.allocatable;
        addNode(zone, n, firstSlot + i, type, shape, migProfile, group, capacityBlock);
        addDaemonSetPods(n, type);
    }
    Amounts budget = shape.allocatable;
    daemonSetRequest(type).subtractFrom(budget);
    switch (pool.role) {
    case Role::Training: {
        placeTraining(m_planned, type, budget);
        // The group's nodes a pending gang could take: Ready, schedulable, no accelerator in use.
        std::size_t idle = 0;
        for (const PlannedNode& n : m_planned)
            idle += !n.notReady && !n.cordoned && n.free.core[CoreResource::Gpu] == shape.allocatable.core[CoreResource::Gpu]
                && n.free.ext == shape.allocatable.ext;
        m_trainingGroupIdle.push_back(idle);
        break;
    }
    case Role::Mig:
    case Role::Inference:
        fillInference(m_planned, type, migProfile, budget);
        break;
    case Role::Cpu:
        fillCpu(m_planned, budget);
        break;
    }
    m_nodesMade += count;
    m_throttle.tick(m_nodesMade);
}

// The four conditions the kubelet reports on every node, as `kubectl get node -o json` shows
// them (reasons and messages from the kubelet's setters in pkg/kubelet/nodestatus), with
// lastTransitionTime before kSnapshotUnixSeconds: healthy conditions up to 60 days before,
// problems within the last 6 hours.
void ClusterGenerator::setConditions(model::NodeRecord& r, const PlannedNode& n)
{
    r.conditions.resize(4);
    const std::int64_t healthySince = kSnapshotUnixSeconds - static_cast<std::int64_t>((n.hash >> 8) % (60 * 86400));
    const std::int64_t problemSince = kSnapshotUnixSeconds - static_cast<std::int64_t>((n.hash >> 24) % (6 * 3600)) - 60;
    const auto set = [&](std::size_t i, const char* type, model::Readiness status, std::int64_t since, const char* reason,
                         const char* message) {
        model::NodeConditionRecord& c = r.conditions[i];
        c.type.assign(type);
        c.status = status;
        c.lastTransitionUnixSeconds = since;
        c.reason.assign(reason);
        c.message.assign(message);
    };
    using model::Readiness;
    if (n.memoryPressure)
        set(0, "MemoryPressure", Readiness::True, problemSince, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available");
    else
        set(0, "MemoryPressure", Readiness::False, healthySince, "KubeletHasSufficientMemory", "kubelet has sufficient memory available");
    if (n.diskPressure)
        set(1, "DiskPressure", Readiness::True, problemSince, "KubeletHasDiskPressure", "kubelet has disk pressure");
    else
        set(1, "DiskPressure", Readiness::False, healthySince, "KubeletHasNoDiskPressure", "kubelet has no disk pressure");
    set(2, "PIDPressure", Readiness::False, healthySince, "KubeletHasSufficientPID", "kubelet has sufficient PID available");
    if (r.ready == Readiness::True)
        set(3, "Ready", Readiness::True, healthySince, "KubeletReady", "kubelet is posting ready status");
    else if (r.ready == Readiness::False)
        set(3, "Ready", Readiness::False, problemSince, "KubeletNotReady",
            "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized");
    else
        set(3, "Ready", Readiness::Unknown, problemSince, "NodeStatusUnknown", "Kubelet stopped posting node status.");
}

void ClusterGenerator::addNode(const Zone& zone, PlannedNode& n, std::uint64_t slot, const InstanceType& type, const NodeShape& shape,
    int migProfile, const std::string& group, bool capacityBlock)
{
    const Region& region = kRegions[zone.region];
    // Private IPv4 in 10.0.0.0/8: each region owns an equal power-of-two share of the second
    // octet (all 256 values for one region, 64 each for three or four); a multiplicative
    // bijection modulo the region's address count scatters the addresses (unique up to 16
    // million nodes in one region, 4 million a region among four).
    const std::uint64_t addr = (m_ipCounter[zone.region]++ * 0x9E3779B1ull + m_ipSalt[zone.region]) & ((1ull << m_addressBits) - 1);
    n.name = "ip-10-";
    appendNumber(n.name, (zone.region << (m_addressBits - 16)) + (addr >> 16));
    n.name += '-';
    appendNumber(n.name, (addr >> 8) & 255);
    n.name += '-';
    appendNumber(n.name, addr & 255);
    n.name += '.';
    n.name += region.dnsSuffix;

    // Network node ids, cached while consecutive nodes share them.
    if (m_lastLayerZone != zone.globalIndex) {
        m_lastLayerZone = zone.globalIndex;
        for (auto& i : m_lastLayerIndex)
            i = ~0ull;
    }
    const std::uint64_t layerIndex[3] = { slot / kNodesPerLayer1, slot / kNodesPerLayer2, slot / kNodesPerLayer3 };
    for (int l = 0; l < 3; ++l) {
        if (m_lastLayerIndex[l] != layerIndex[l]) {
            m_lastLayerIndex[l] = layerIndex[l];
            m_lastLayerId[l]
                = networkNodeId(m_spec.seed, static_cast<std::uint64_t>(l + 1), zone.globalIndex << 32 | layerIndex[l]);
        }
    }

    model::NodeRecord& r = m_node;
    m_labelCount = 0;
    const auto label = [&](std::string_view key, std::string_view value) {
        if (m_labelCount == r.labels.size())
            r.labels.emplace_back();
        r.labels[m_labelCount].first.assign(key);
        r.labels[m_labelCount].second.assign(value);
        ++m_labelCount;
    };
    r.name = n.name;
    label("kubernetes.io/arch", "amd64");
    label("kubernetes.io/hostname", n.name);
    label("kubernetes.io/os", "linux");
    label("node.kubernetes.io/instance-type", type.name);
    label("topology.kubernetes.io/region", region.name);
    label("topology.kubernetes.io/zone", zone.name);
    label("topology.k8s.aws/zone-id", zone.zoneId);
    label("topology.k8s.aws/network-node-layer-1", m_lastLayerId[0]);
    label("topology.k8s.aws/network-node-layer-2", m_lastLayerId[1]);
    label("topology.k8s.aws/network-node-layer-3", m_lastLayerId[2]);
    label("eks.amazonaws.com/nodegroup", group);
    label("eks.amazonaws.com/capacityType", capacityBlock ? "CAPACITY_BLOCK" : "ON_DEMAND");
    char number[24];
    if (type.gpus > 0) {
        label("nvidia.com/gpu.present", "true");
        label("nvidia.com/gpu.product", type.gpuProduct);
        std::snprintf(number, sizeof number, "%d", type.gpus);
        label("nvidia.com/gpu.count", number);
        std::snprintf(number, sizeof number, "%d", type.gpuMemoryMiB);
        label("nvidia.com/gpu.memory", number);
        if (migProfile) {
            label("nvidia.com/mig.strategy", "mixed");
            label("nvidia.com/mig.config", migProfile == 1 ? "all-1g.10gb" : "all-3g.40gb");
        }
    }
    if (type.efa > 0)
        label("vpc.amazonaws.com/efa.present", "true");
    r.labels.resize(m_labelCount);

    r.taints.clear();
    if (type.gpus > 0)
        r.taints.emplace_back("nvidia.com/gpu", "true", TaintEffect::NoSchedule);
    if (type.neuronDevices > 0)
        r.taints.emplace_back("aws.amazon.com/neuron", "true", TaintEffect::NoSchedule);
    r.ready = model::Readiness::True;
    if (n.notReady) {
        // The node lifecycle controller: Ready False -> not-ready taints; Unknown (the
        // kubelet stopped reporting) -> unreachable taints.
        const bool unknown = m_rng.chancePerMille(500);
        r.ready = unknown ? model::Readiness::Unknown : model::Readiness::False;
        const char* key = unknown ? "node.kubernetes.io/unreachable" : "node.kubernetes.io/not-ready";
        r.taints.emplace_back(key, "", TaintEffect::NoSchedule);
        r.taints.emplace_back(key, "", TaintEffect::NoExecute);
    }
    r.unschedulable = n.cordoned;
    if (n.cordoned)
        r.taints.emplace_back("node.kubernetes.io/unschedulable", "", TaintEffect::NoSchedule);
    // The node lifecycle controller taints nodes by condition (TaintNodesByCondition).
    if (n.memoryPressure)
        r.taints.emplace_back("node.kubernetes.io/memory-pressure", "", TaintEffect::NoSchedule);
    if (n.diskPressure)
        r.taints.emplace_back("node.kubernetes.io/disk-pressure", "", TaintEffect::NoSchedule);
    setConditions(r, n);

    const auto fill = [&](model::ResourceList& list, const Amounts& a) {
        list.clear();
        for (std::size_t i = 0; i < model::kCoreResourceCount; ++i)
            list.setCore(static_cast<CoreResource>(i), a.core.amounts[i]);
        for (std::size_t e = 0; e < kExtCount; ++e)
            if (a.ext[e] > 0)
                list.set(m_extKey[e], a.ext[e]);
    };
    fill(r.allocatable, shape.allocatable);
    fill(r.capacity, shape.capacity);
    if (n.unhealthyGpu)
        r.allocatable.setCore(CoreResource::Gpu, shape.allocatable.core[CoreResource::Gpu] - 1000);
    r.gpuModel = type.gpus > 0 ? type.gpuProduct : "";
    r.gpuCount = type.gpus;
    r.instanceType = type.name;
    m_store.addNode(r);
}

} // namespace simulated

void generateSimulatedCluster(
    const SimulationSpec& spec, model::ClusterStore& store, ImportReport& report, ImportProgress* progress)
{
    if (store.nodeCount() != 0 || store.podCount() != 0)
        throw std::invalid_argument("generateSimulatedCluster: the store must be empty");
    try {
        simulated::ClusterGenerator(spec, store, report, progress).run();
    } catch (const ImportCancelled&) {
        store = model::ClusterStore();
        throw;
    }
}

} // namespace fleet::importers
