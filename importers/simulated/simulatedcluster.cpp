#include "simulatedcluster.h"

#include "deterministicrng.h"
#include "importers/progressthrottle.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// Design note: the generator is written for speed (100,000 nodes and ~1.7 million pods in
// about a second). It works node group by node group: it lays the group's nodes into the
// network hierarchy, decides what runs where while tracking each node's free resources in a
// small local array, then appends the nodes and their pods. NodeRecord and PodRecord objects
// are reused so that their strings keep their buffers; each workload keeps one PodRecord
// template and only the pod name, node name and phase change from pod to pod.

namespace fleet::importers {
namespace {

using model::CoreResource;
using model::ResourceVector;
using model::TaintEffect;
using model::TolerationOperator;

constexpr std::int64_t kMiB = 1024 * 1024;
constexpr std::int64_t kGiB = 1024 * kMiB;

// ---------------------------------------------------------------------------------------
// Instance types. Shapes from aws.amazon.com/ec2/instance-types (accelerated computing,
// general purpose, compute and memory optimized); EFA interface counts from the EC2 user
// guide ("Supported instance types" for EFA); Trainium2: 16 chips of 8 NeuronCores.

enum class Role : std::uint8_t { Training, Mig, Inference, Cpu };

struct InstanceType {
    const char* name;
    const char* shortName; // for node group names
    const char* gpuProduct; // nvidia.com/gpu.product
    std::int64_t memoryGiB;
    std::int64_t rootVolumeGiB;
    int vcpu;
    int gpus; // NVIDIA GPUs
    int gpuMemoryMiB; // nvidia.com/gpu.memory
    int neuronDevices; // Trainium chips
    int efa; // vpc.amazonaws.com/efa
};

constexpr InstanceType kTypes[] = {
    { "p5.48xlarge", "p5", "NVIDIA-H100-80GB-HBM3", 2048, 500, 192, 8, 81559, 0, 32 },
    { "p5e.48xlarge", "p5e", "NVIDIA-H200", 2048, 500, 192, 8, 143771, 0, 32 },
    { "p5en.48xlarge", "p5en", "NVIDIA-H200", 2048, 500, 192, 8, 143771, 0, 16 },
    { "p6-b200.48xlarge", "p6b200", "NVIDIA-B200", 2048, 500, 192, 8, 183359, 0, 8 },
    { "trn2.48xlarge", "trn2", nullptr, 2048, 500, 192, 0, 0, 16, 16 },
    { "g5.xlarge", "g5xl", "NVIDIA-A10G", 16, 200, 4, 1, 23028, 0, 0 },
    { "g5.2xlarge", "g52xl", "NVIDIA-A10G", 32, 200, 8, 1, 23028, 0, 0 },
    { "g5.12xlarge", "g512xl", "NVIDIA-A10G", 192, 200, 48, 4, 23028, 0, 0 },
    { "g5.48xlarge", "g548xl", "NVIDIA-A10G", 768, 200, 192, 8, 23028, 0, 1 },
    { "g6e.xlarge", "g6exl", "NVIDIA-L40S", 32, 200, 4, 1, 46068, 0, 0 },
    { "g6e.12xlarge", "g6e12xl", "NVIDIA-L40S", 384, 200, 48, 4, 46068, 0, 0 },
    { "g6e.48xlarge", "g6e48xl", "NVIDIA-L40S", 1536, 200, 192, 8, 46068, 0, 4 },
    { "m7i.4xlarge", "m7i4xl", nullptr, 64, 100, 16, 0, 0, 0, 0 },
    { "m7i.8xlarge", "m7i8xl", nullptr, 128, 100, 32, 0, 0, 0, 0 },
    { "m7i.24xlarge", "m7i24xl", nullptr, 384, 100, 96, 0, 0, 0, 0 },
    { "c7i.8xlarge", "c7i8xl", nullptr, 64, 100, 32, 0, 0, 0, 0 },
    { "c7i.16xlarge", "c7i16xl", nullptr, 128, 100, 64, 0, 0, 0, 0 },
    { "r7i.8xlarge", "r7i8xl", nullptr, 256, 100, 32, 0, 0, 0, 0 },
};
constexpr std::size_t kP5 = 0;

// A pool kind: its role, the instance types it draws from, group sizes (nodes) and its
// share of the fleet's nodes (per mille).
struct PoolKind {
    Role role;
    std::array<std::uint8_t, 4> types; // indices into kTypes; 255 = unused
    std::uint32_t minNodes;
    std::uint32_t maxNodes;
    std::uint32_t sharePerMille;
};

// Training pools: p5, p5e, p5en, p6-b200, trn2; MIG: p5; inference: g5, g6e; CPU: m7i, c7i/r7i.
constexpr PoolKind kPools[] = {
    { Role::Training, { 0, 255, 255, 255 }, 32, 384, 180 },
    { Role::Training, { 1, 255, 255, 255 }, 32, 256, 60 },
    { Role::Training, { 2, 255, 255, 255 }, 32, 384, 100 },
    { Role::Training, { 3, 255, 255, 255 }, 32, 256, 60 },
    { Role::Training, { 4, 255, 255, 255 }, 32, 384, 100 },
    { Role::Mig, { kP5, 255, 255, 255 }, 8, 32, 20 },
    { Role::Inference, { 5, 6, 7, 8 }, 8, 96, 80 },
    { Role::Inference, { 9, 10, 11, 255 }, 8, 96, 80 },
    { Role::Cpu, { 12, 13, 14, 255 }, 16, 200, 170 },
    { Role::Cpu, { 15, 16, 17, 255 }, 16, 200, 150 },
};

// ---------------------------------------------------------------------------------------
// Regions and zones.

struct Region {
    const char* name;
    const char* dnsSuffix; // private DNS: ec2.internal in us-east-1, <region>.compute.internal elsewhere
    const char* zoneIdPrefix;
    const char* zoneLetters;
    std::uint32_t sharePerMille;
};

constexpr Region kRegions[] = {
    { "us-west-2", "us-west-2.compute.internal", "usw2-az", "abcd", 400 },
    { "us-east-1", "ec2.internal", "use1-az", "abcdf", 300 },
    { "us-east-2", "us-east-2.compute.internal", "use2-az", "abc", 200 },
    { "eu-west-1", "eu-west-1.compute.internal", "euw1-az", "abc", 100 },
};
constexpr std::size_t kRegionCount = std::size(kRegions);

// The EC2 network hierarchy: at most this many instances per layer-3 network node, layer-3
// nodes per layer-2, layer-2 nodes per layer-1 (our choice; EC2 does not publish fan-outs).
constexpr std::uint32_t kNodesPerLayer3 = 16;
constexpr std::uint32_t kLayer3PerLayer2 = 8;
constexpr std::uint32_t kLayer2PerLayer1 = 8;
constexpr std::uint32_t kNodesPerLayer2 = kNodesPerLayer3 * kLayer3PerLayer2;
constexpr std::uint32_t kNodesPerLayer1 = kNodesPerLayer2 * kLayer2PerLayer1;

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

// ---------------------------------------------------------------------------------------
// Names.

// Kubernetes' random-suffix alphabet (k8s.io/apimachinery/pkg/util/rand: no vowels, no
// look-alike digits).
constexpr std::string_view kSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";
constexpr std::uint64_t kSuffixBase = 27;

// A `length`-character suffix that is unique for each index below 27^length under one salt:
// (index * m + salt) mod 27^length is a bijection because m is not a multiple of 3.
void appendUniqueSuffix(std::string& out, std::uint64_t index, std::uint64_t salt, int length)
{
    std::uint64_t modulus = 1;
    for (int i = 0; i < length; ++i)
        modulus *= kSuffixBase;
    std::uint64_t v = (index % modulus * (7654321 % modulus) + salt % modulus) % modulus;
    char buf[16];
    for (int i = length - 1; i >= 0; --i) {
        buf[i] = kSuffixAlphabet[v % kSuffixBase];
        v /= kSuffixBase;
    }
    out.append(buf, static_cast<std::size_t>(length));
}

void appendHashSuffix(std::string& out, std::uint64_t hash, int length)
{
    for (int i = 0; i < length; ++i) {
        out.push_back(kSuffixAlphabet[hash % kSuffixBase]);
        hash /= kSuffixBase;
    }
}

void appendNumber(std::string& out, std::uint64_t v)
{
    char buf[24];
    const int n = std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
    out.append(buf, static_cast<std::size_t>(n));
}

// An EC2 network node id: "nn-" and 17 hex digits.
std::string networkNodeId(std::uint64_t seed, std::uint64_t level, std::uint64_t index)
{
    const std::uint64_t h = SplitMix64::mix(seed ^ SplitMix64::mix(level * 0x1000003ull + SplitMix64::mix(index)));
    char buf[32];
    std::snprintf(
        buf, sizeof buf, "nn-%01x%016llx", static_cast<unsigned>(SplitMix64::mix(h) & 0xf), static_cast<unsigned long long>(h));
    return buf;
}

// ---------------------------------------------------------------------------------------
// Resources.

// Extended resources the simulation uses, in a fixed order.
enum Ext : std::uint8_t { kEfa, kNeuron, kNeuronCore, kMig1g, kMig3g, kExtCount };
constexpr const char* kExtNames[kExtCount] = { "vpc.amazonaws.com/efa", "aws.amazon.com/neuron", "aws.amazon.com/neuroncore",
    "nvidia.com/mig-1g.10gb", "nvidia.com/mig-3g.40gb" };

struct Amounts {
    ResourceVector core;
    std::array<std::int64_t, kExtCount> ext {};

    [[nodiscard]] bool fitsIn(const Amounts& free) const noexcept
    {
        for (std::size_t i = 0; i < model::kCoreResourceCount; ++i)
            if (core.amounts[i] > free.core.amounts[i])
                return false;
        for (std::size_t i = 0; i < kExtCount; ++i)
            if (ext[i] > free.ext[i])
                return false;
        return true;
    }
    void subtractFrom(Amounts& free) const noexcept
    {
        free.core -= core;
        for (std::size_t i = 0; i < kExtCount; ++i)
            free.ext[i] -= ext[i];
    }
};

// kube-reserved CPU of the EKS optimized AMI (amazon-eks-ami, bootstrap "get_cpu_millicores_to_reserve"):
// 6% of the first core, 1% of the second, 0.5% of the next two, 0.25% of every core above four.
std::int64_t reservedCpuMilli(int vcpu)
{
    std::int64_t tenthsOfMilli = 0; // in 0.1 millicores, to keep the 0.25% exact
    for (int core = 1; core <= vcpu; ++core)
        tenthsOfMilli += core == 1 ? 600 : core == 2 ? 100 : core <= 4 ? 50 : 25;
    return (tenthsOfMilli + 9) / 10;
}

int maxPodsFor(const InstanceType& t)
{
    return t.vcpu < 30 ? 110 : 250;
}

struct NodeShape {
    Amounts capacity;
    Amounts allocatable;
};

NodeShape shapeFor(const InstanceType& t, int migProfile /* 0 none, 1 = 1g.10gb, 3 = 3g.40gb */)
{
    NodeShape s;
    const int maxPods = maxPodsFor(t);
    // The kernel keeps part of the nominal memory: MemTotal is about 96.5% of it.
    const std::int64_t memCapacity = t.memoryGiB * kGiB / 1000 * 965 / 4096 * 4096;
    const std::int64_t rootBytes = t.rootVolumeGiB * kGiB;
    s.capacity.core[CoreResource::Cpu] = std::int64_t { t.vcpu } * 1000;
    s.capacity.core[CoreResource::Memory] = memCapacity;
    s.capacity.core[CoreResource::Pods] = maxPods;
    s.capacity.core[CoreResource::EphemeralStorage] = rootBytes;
    s.capacity.core[CoreResource::Gpu] = migProfile ? 0 : std::int64_t { t.gpus } * 1000;
    s.capacity.ext[kEfa] = t.efa;
    s.capacity.ext[kNeuron] = t.neuronDevices;
    s.capacity.ext[kNeuronCore] = std::int64_t { t.neuronDevices } * 8;
    s.capacity.ext[kMig1g] = migProfile == 1 ? std::int64_t { t.gpus } * 7 : 0;
    s.capacity.ext[kMig3g] = migProfile == 3 ? std::int64_t { t.gpus } * 2 : 0;
    s.allocatable = s.capacity;
    s.allocatable.core[CoreResource::Cpu] -= reservedCpuMilli(t.vcpu);
    // kube-reserved memory 255 MiB + 11 MiB per pod; eviction-hard memory.available 100Mi.
    s.allocatable.core[CoreResource::Memory] -= (255 + 11 * std::int64_t { maxPods }) * kMiB + 100 * kMiB;
    // kube-reserved ephemeral-storage 1Gi; eviction-hard nodefs.available 10%.
    s.allocatable.core[CoreResource::EphemeralStorage] -= kGiB + rootBytes / 10;
    return s;
}

// ---------------------------------------------------------------------------------------
// Pods.

using TolerationList = std::vector<std::tuple<std::string, TolerationOperator, std::string, TaintEffect>>;

// Added to every pod by the DefaultTolerationSeconds admission plugin.
void addDefaultTolerations(TolerationList& t)
{
    t.emplace_back("node.kubernetes.io/not-ready", TolerationOperator::Exists, "", TaintEffect::NoExecute);
    t.emplace_back("node.kubernetes.io/unreachable", TolerationOperator::Exists, "", TaintEffect::NoExecute);
}

// Added to every DaemonSet pod by the DaemonSet controller
// (kubernetes.io/docs/concepts/workloads/controllers/daemonset/#taints-and-tolerations).
void addDaemonSetTolerations(TolerationList& t)
{
    addDefaultTolerations(t);
    t.emplace_back("node.kubernetes.io/disk-pressure", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
    t.emplace_back("node.kubernetes.io/memory-pressure", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
    t.emplace_back("node.kubernetes.io/pid-pressure", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
    t.emplace_back("node.kubernetes.io/unschedulable", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
}

enum class DaemonSetFor : std::uint8_t { All, Nvidia, Neuron, Efa };

struct DaemonSetSpec {
    const char* name;
    const char* ns;
    std::int64_t cpuMilli;
    std::int64_t memoryMiB;
    DaemonSetFor target;
    bool toleratesAll; // operator: Exists with no key
};

// Requests as the EKS add-ons and common charts set them.
constexpr DaemonSetSpec kDaemonSets[] = {
    { "kube-proxy", "kube-system", 100, 0, DaemonSetFor::All, true },
    { "aws-node", "kube-system", 50, 0, DaemonSetFor::All, true },
    { "ebs-csi-node", "kube-system", 30, 120, DaemonSetFor::All, true },
    { "prometheus-node-exporter", "monitoring", 50, 64, DaemonSetFor::All, true },
    { "fluent-bit", "amazon-cloudwatch", 50, 25, DaemonSetFor::All, true },
    { "nvidia-device-plugin-daemonset", "kube-system", 0, 0, DaemonSetFor::Nvidia, false },
    { "dcgm-exporter", "monitoring", 100, 128, DaemonSetFor::Nvidia, false },
    { "neuron-device-plugin-daemonset", "kube-system", 0, 0, DaemonSetFor::Neuron, false },
    { "aws-efa-k8s-device-plugin-daemonset", "kube-system", 0, 0, DaemonSetFor::Efa, false },
};
constexpr std::size_t kDaemonSetCount = std::size(kDaemonSets);

constexpr std::int32_t kSystemNodeCritical = 2000001000;

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
};

constexpr const char* kTrainingNames[] = { "llama3-70b-pretrain", "mixtral-8x22b-sft", "vit-h14-pretrain", "rlhf-ppo",
    "sdxl-finetune", "code-model-pretrain", "moe-1t-pretrain", "dpo-alignment", "speech-foundation", "video-gen-pretrain" };
constexpr const char* kInferenceNames[] = { "vllm-llama3-8b", "vllm-llama3-70b", "embedding-svc", "reranker", "whisper-asr",
    "triton-ensemble", "tts-service", "vision-ocr", "guardrails", "sd-turbo" };
constexpr const char* kCpuNames[] = { "checkout-api", "feature-store", "kafka-connect", "airflow-worker", "ray-head",
    "ingest-gateway", "auth-service", "search-api", "metrics-relay", "notebook-hub" };
constexpr const char* kBatchNames[]
    = { "etl-nightly", "data-prep", "eval-harness", "tokenize-shard", "dedup-corpus", "report-gen" };
constexpr const char* kCpuNamespaces[] = { "platform", "data", "web" };

// ---------------------------------------------------------------------------------------

struct PlannedNode {
    std::string name;
    bool notReady = false;
    bool cordoned = false;
    Amounts free;
};

class Generator {
public:
    Generator(const SimulationSpec& spec, model::ClusterStore& store, ImportReport& report, ImportProgress* progress)
        : m_spec(spec)
        , m_store(store)
        , m_report(report)
        , m_rng(spec.seed)
        , m_throttle(progress, spec.nodeCount)
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

    void setUpDaemonSets();
    void chooseUnhealthyNodes();
    void generateZone(const Zone& zone, std::size_t nodes);
    void generateGroup(const Zone& zone, const PoolKind& pool, std::size_t typeIndex, int migProfile, std::size_t count,
        std::uint64_t firstSlot);
    void addNode(const Zone& zone, PlannedNode& n, std::uint64_t slot, const InstanceType& type, const NodeShape& shape,
        int migProfile, const std::string& group, bool capacityBlock);
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

    const SimulationSpec& m_spec;
    model::ClusterStore& m_store;
    ImportReport& m_report;
    DeterministicRng m_rng;
    ProgressThrottle m_throttle;

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
    std::vector<std::pair<std::size_t, std::string>> m_trainingGroups; // (type index, node group name)
};

void Generator::run()
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
    for (const auto& r : kRegions)
        regionWeights.push_back(r.sharePerMille);
    const std::vector<std::size_t> perRegion = apportion(m_spec.nodeCount, regionWeights);
    std::size_t zoneGlobal = 0;
    for (std::size_t r = 0; r < kRegionCount; ++r) {
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

void Generator::setUpDaemonSets()
{
    for (std::size_t d = 0; d < kDaemonSetCount; ++d) {
        const DaemonSetSpec& ds = kDaemonSets[d];
        Workload& w = m_daemonSets[d];
        model::PodRecord& p = w.pod;
        p.namespaceName = ds.ns;
        p.ownerKind = model::OwnerKind::DaemonSet;
        p.ownerName = ds.name;
        p.phase = model::PodPhase::Running;
        p.priority = kSystemNodeCritical;
        Amounts request;
        request.core[CoreResource::Cpu] = ds.cpuMilli;
        request.core[CoreResource::Memory] = ds.memoryMiB * kMiB;
        setRequest(w, request);
        if (ds.toleratesAll) {
            p.tolerations.emplace_back("", TolerationOperator::Exists, "", TaintEffect::Any);
        } else {
            addDaemonSetTolerations(p.tolerations);
            p.tolerations.emplace_back("CriticalAddonsOnly", TolerationOperator::Exists, "", TaintEffect::Any);
            if (ds.target != DaemonSetFor::Neuron)
                p.tolerations.emplace_back("nvidia.com/gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
            if (ds.target != DaemonSetFor::Nvidia)
                p.tolerations.emplace_back("aws.amazon.com/neuron", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
        }
        if (ds.target == DaemonSetFor::Nvidia)
            p.nodeSelector.emplace_back("nvidia.com/gpu.present", "true");
        if (ds.target == DaemonSetFor::Efa)
            p.nodeSelector.emplace_back("vpc.amazonaws.com/efa.present", "true");
        if (ds.target == DaemonSetFor::Neuron) {
            model::PodRecord::Requirement req;
            req.key = "node.kubernetes.io/instance-type";
            req.values = { "trn1.32xlarge", "trn2.48xlarge" };
            p.requiredAffinityTerms.push_back({ req });
        }
        w.podPrefix = std::string(ds.name) + "-";
        w.salt = m_rng.next();
    }
}

// Picks exactly n/200 NotReady and 7n/1000 cordoned nodes (at least one of each from 50
// nodes up) by selection sampling (Knuth, TAOCP vol. 2, 3.4.2, Algorithm S).
void Generator::chooseUnhealthyNodes()
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

void Generator::generateZone(const Zone& zone, std::size_t nodes)
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

void Generator::generateGroup(
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
    const bool capacityBlock = pool.role == Role::Training && m_rng.chancePerMille(400);
    if (pool.role == Role::Training)
        m_trainingGroups.emplace_back(typeIndex, group);

    m_planned.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        PlannedNode& n = m_planned[i];
        const std::uint8_t health = m_unhealthy[m_nodesMade + i];
        n.notReady = health == 1;
        n.cordoned = health == 2;
        n.free = shape.allocatable;
        addNode(zone, n, firstSlot + i, type, shape, migProfile, group, capacityBlock);
        addDaemonSetPods(n, type);
    }
    Amounts budget = shape.allocatable;
    daemonSetRequest(type).subtractFrom(budget);
    switch (pool.role) {
    case Role::Training:
        placeTraining(m_planned, type, budget);
        break;
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

void Generator::addNode(const Zone& zone, PlannedNode& n, std::uint64_t slot, const InstanceType& type, const NodeShape& shape,
    int migProfile, const std::string& group, bool capacityBlock)
{
    const Region& region = kRegions[zone.region];
    // Private IPv4 in 10.0.0.0/8: each region owns 64 values of the second octet; a
    // multiplicative bijection modulo 2^22 scatters the addresses (unique up to 4 million
    // nodes a region).
    const std::uint64_t addr = (m_ipCounter[zone.region]++ * 0x9E3779B1ull + m_ipSalt[zone.region]) & ((1u << 22) - 1);
    n.name = "ip-10-";
    appendNumber(n.name, zone.region * 64 + (addr >> 16));
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
    r.gpuModel = type.gpus > 0 ? type.gpuProduct : "";
    r.gpuCount = type.gpus;
    r.instanceType = type.name;
    m_store.addNode(r);
}

Amounts Generator::daemonSetRequest(const InstanceType& type) const
{
    Amounts sum;
    for (std::size_t d = 0; d < kDaemonSetCount; ++d) {
        const DaemonSetFor target = kDaemonSets[d].target;
        if ((target == DaemonSetFor::Nvidia && type.gpus == 0) || (target == DaemonSetFor::Neuron && type.neuronDevices == 0)
            || (target == DaemonSetFor::Efa && type.efa == 0))
            continue;
        sum.core += m_daemonSets[d].request.core;
        sum.core[CoreResource::Pods] += 1;
    }
    return sum;
}

void Generator::addDaemonSetPods(PlannedNode& n, const InstanceType& type)
{
    for (std::size_t d = 0; d < kDaemonSetCount; ++d) {
        const DaemonSetFor target = kDaemonSets[d].target;
        if ((target == DaemonSetFor::Nvidia && type.gpus == 0) || (target == DaemonSetFor::Neuron && type.neuronDevices == 0)
            || (target == DaemonSetFor::Efa && type.efa == 0))
            continue;
        Workload& w = m_daemonSets[d];
        // Every node has room for its DaemonSet pods (checked by tst_simulatedcluster).
        w.request.subtractFrom(n.free);
        emitPod(w, n.name, model::PodPhase::Running);
    }
}

void Generator::setRequest(Workload& w, const Amounts& request)
{
    w.request = request;
    w.request.core[CoreResource::Pods] = 1;
    model::ResourceList& list = w.pod.request;
    list.clear();
    for (std::size_t i = 0; i < model::kCoreResourceCount; ++i)
        if (request.core.amounts[i] > 0 && static_cast<CoreResource>(i) != CoreResource::Pods)
            list.setCore(static_cast<CoreResource>(i), request.core.amounts[i]);
    for (std::size_t e = 0; e < kExtCount; ++e)
        if (request.ext[e] > 0)
            list.set(m_extKey[e], request.ext[e]);
}

void Generator::emitPod(Workload& w, const std::string& nodeName, model::PodPhase phase)
{
    model::PodRecord& p = w.pod;
    p.name = w.podPrefix;
    if (w.ordinal) {
        appendNumber(p.name, w.made);
    } else {
        if (w.indexed) {
            appendNumber(p.name, w.made);
            p.name += '-';
        }
        appendUniqueSuffix(p.name, w.made, w.salt, 5);
    }
    p.nodeName = nodeName;
    p.phase = phase;
    m_store.addPod(p);
    ++w.made;
}

void Generator::startWorkload(Workload& w, const char* ns, const char* baseName, model::OwnerKind kind)
{
    model::PodRecord& p = w.pod;
    p.clear();
    p.namespaceName = ns;
    p.ownerKind = kind;
    std::string name = baseName;
    name += '-';
    appendNumber(name, ++m_workloadCounter);
    w.salt = m_rng.next();
    w.made = 0;
    w.indexed = kind == model::OwnerKind::Job;
    w.ordinal = kind == model::OwnerKind::StatefulSet;
    w.batch = false;
    if (kind == model::OwnerKind::ReplicaSet) {
        // A Deployment's pods belong to its ReplicaSet "<deployment>-<pod-template-hash>".
        name += '-';
        appendHashSuffix(name, SplitMix64::mix(w.salt), 10);
    }
    p.ownerName = name;
    w.podPrefix = name + "-";
    addDefaultTolerations(p.tolerations);
}

void Generator::makeTrainingGang(Workload& w, const InstanceType& type, const Amounts& budget, std::uint32_t size)
{
    const bool statefulSet = m_rng.chancePerMille(250);
    startWorkload(w, "ml-training", kTrainingNames[m_rng.below(std::size(kTrainingNames))],
        statefulSet ? model::OwnerKind::StatefulSet : model::OwnerKind::Job);
    w.target = size;
    w.pod.priority = 1000;
    if (type.gpus > 0)
        w.pod.tolerations.emplace_back("nvidia.com/gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
    if (type.neuronDevices > 0)
        w.pod.tolerations.emplace_back("aws.amazon.com/neuron", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
    w.pod.nodeSelector.emplace_back("node.kubernetes.io/instance-type", type.name);
    Amounts request;
    request.core[CoreResource::Cpu] = budget.core[CoreResource::Cpu] * m_rng.between(60, 95) / 100 / 1000 * 1000;
    request.core[CoreResource::Memory] = budget.core[CoreResource::Memory] * m_rng.between(50, 90) / 100 / kGiB * kGiB;
    request.core[CoreResource::Gpu] = std::int64_t { type.gpus } * 1000;
    request.ext[kNeuron] = type.neuronDevices;
    request.ext[kEfa] = type.efa;
    setRequest(w, request);
}

void Generator::makeInference(Workload& w, const InstanceType& type, int migProfile, const Amounts& budget)
{
    startWorkload(w, "inference", kInferenceNames[m_rng.below(std::size(kInferenceNames))], model::OwnerKind::ReplicaSet);
    w.target = static_cast<std::uint32_t>(m_rng.between(2, 40));
    w.pod.priority = 10000;
    w.pod.tolerations.emplace_back("nvidia.com/gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
    Amounts request;
    std::int64_t units = 0; // GPUs (or MIG slices) per pod
    std::int64_t unitsPerNode = 0;
    if (migProfile) {
        w.pod.nodeSelector.emplace_back("nvidia.com/mig.config", migProfile == 1 ? "all-1g.10gb" : "all-3g.40gb");
        units = 1;
        unitsPerNode = migProfile == 1 ? budget.ext[kMig1g] : budget.ext[kMig3g];
        request.ext[migProfile == 1 ? kMig1g : kMig3g] = 1;
    } else {
        w.pod.nodeSelector.emplace_back("node.kubernetes.io/instance-type", type.name);
        static constexpr std::int64_t kChoices[] = { 1, 1, 1, 2, 4 };
        units = std::min<std::int64_t>(kChoices[m_rng.below(std::size(kChoices))], type.gpus);
        unitsPerNode = type.gpus;
        request.core[CoreResource::Gpu] = units * 1000;
    }
    const std::int64_t cpu = budget.core[CoreResource::Cpu] / unitsPerNode * units * m_rng.between(30, 80) / 100;
    const std::int64_t memory = budget.core[CoreResource::Memory] / unitsPerNode * units * m_rng.between(30, 80) / 100;
    request.core[CoreResource::Cpu] = std::max<std::int64_t>(100, cpu / 100 * 100);
    request.core[CoreResource::Memory] = std::max<std::int64_t>(256 * kMiB, memory / (256 * kMiB) * (256 * kMiB));
    setRequest(w, request);
}

void Generator::makeCpuDeployment(Workload& w)
{
    startWorkload(w, kCpuNamespaces[m_rng.below(std::size(kCpuNamespaces))], kCpuNames[m_rng.below(std::size(kCpuNames))],
        model::OwnerKind::ReplicaSet);
    w.target = static_cast<std::uint32_t>(m_rng.between(3, 60));
    static constexpr std::uint32_t kCpuWeights[] = { 20, 30, 25, 15, 7, 3 };
    static constexpr std::int64_t kCpuMilli[] = { 100, 250, 500, 1000, 2000, 4000 };
    static constexpr std::int64_t kMiBPerCore[] = { 1024, 2048, 4096 };
    Amounts request;
    const std::int64_t cpu = kCpuMilli[m_rng.weighted(kCpuWeights, std::size(kCpuWeights))];
    request.core[CoreResource::Cpu] = cpu;
    request.core[CoreResource::Memory] = std::max<std::int64_t>(128, cpu * kMiBPerCore[m_rng.below(3)] / 1000) * kMiB;
    setRequest(w, request);
}

void Generator::makeBatchJob(Workload& w)
{
    startWorkload(w, "batch", kBatchNames[m_rng.below(std::size(kBatchNames))], model::OwnerKind::Job);
    w.target = static_cast<std::uint32_t>(m_rng.between(4, 50));
    w.batch = true;
    static constexpr std::int64_t kCpuMilli[] = { 500, 1000, 2000, 4000 };
    Amounts request;
    const std::int64_t cpu = kCpuMilli[m_rng.below(std::size(kCpuMilli))];
    request.core[CoreResource::Cpu] = cpu;
    request.core[CoreResource::Memory] = cpu * m_rng.between(2, 8) * kMiB * 1024 / 1000;
    request.core[CoreResource::EphemeralStorage] = m_rng.between(1, 20) * kGiB;
    setRequest(w, request);
}

// Training: whole-node gangs inside one layer-2 network; about 8% of healthy nodes stay idle
// as spares; NotReady and cordoned nodes get no gang pods.
void Generator::placeTraining(std::vector<PlannedNode>& nodes, const InstanceType& type, const Amounts& budget)
{
    static constexpr std::uint32_t kSizeWeights[] = { 0, 10, 25, 30, 20, 10, 5 };
    std::vector<std::size_t> eligible;
    Workload gang;
    // The group started on a fresh layer-2 node, so every 128 nodes of it are one layer-2 network.
    for (std::size_t begin = 0; begin < nodes.size(); begin += kNodesPerLayer2) {
        const std::size_t end = std::min(nodes.size(), begin + kNodesPerLayer2);
        eligible.clear();
        for (std::size_t i = begin; i < end; ++i)
            if (!nodes[i].notReady && !nodes[i].cordoned)
                eligible.push_back(i);
        std::size_t k = 0;
        while (k < eligible.size()) {
            if (m_rng.chancePerMille(80)) {
                ++k;
                continue;
            }
            const std::size_t remaining = eligible.size() - k;
            std::size_t size = std::size_t { 1 } << m_rng.weighted(kSizeWeights, std::size(kSizeWeights));
            while (size > remaining)
                size >>= 1;
            makeTrainingGang(gang, type, budget, static_cast<std::uint32_t>(size));
            for (std::size_t m = 0; m < size; ++m) {
                PlannedNode& n = nodes[eligible[k + m]];
                if (!gang.request.fitsIn(n.free))
                    continue; // cannot happen: the request is a share of this node type's budget
                gang.request.subtractFrom(n.free);
                emitPod(gang, n.name, model::PodPhase::Running);
            }
            k += size;
        }
    }
}

// Inference: each node is filled to a random level (some idle, most fragmented) with pods of
// a few Deployments at a time; a Deployment that ends may leave replicas pending.
void Generator::fillInference(std::vector<PlannedNode>& nodes, const InstanceType& type, int migProfile, const Amounts& budget)
{
    constexpr std::size_t kActive = 3;
    std::array<Workload, kActive> active;
    for (auto& w : active)
        makeInference(w, type, migProfile, budget);
    const std::int64_t unitsPerNode = migProfile == 1 ? budget.ext[kMig1g] : migProfile == 3 ? budget.ext[kMig3g] : type.gpus;
    for (PlannedNode& n : nodes) {
        if (n.notReady)
            continue;
        std::int64_t target = m_rng.chancePerMille(120) ? 0 : m_rng.between(1, unitsPerNode);
        int failures = 0;
        while (target > 0 && failures < 4) {
            Workload& w = active[m_rng.below(kActive)];
            const std::int64_t units = migProfile ? 1 : w.request.core[CoreResource::Gpu] / 1000;
            if (units <= target && w.request.fitsIn(n.free)) {
                w.request.subtractFrom(n.free);
                emitPod(w, n.name, model::PodPhase::Running);
                target -= units;
            } else {
                ++failures;
            }
            if (w.made >= w.target) {
                if (m_rng.chancePerMille(150)) {
                    const auto pending = m_rng.between(1, 3);
                    for (std::int64_t i = 0; i < pending; ++i)
                        emitPod(w, m_emptyName, model::PodPhase::Pending);
                }
                makeInference(w, type, migProfile, budget);
            }
        }
    }
}

// CPU nodes: Deployments and batch Jobs up to a random CPU level; Job pods may have ended
// (Succeeded, Failed: bound but using nothing), and a Job may leave pods pending.
void Generator::fillCpu(std::vector<PlannedNode>& nodes, const Amounts& budget)
{
    constexpr std::size_t kDeployments = 3;
    constexpr std::size_t kJobs = 2;
    std::array<Workload, kDeployments> deployments;
    std::array<Workload, kJobs> jobs;
    for (auto& w : deployments)
        makeCpuDeployment(w);
    for (auto& w : jobs)
        makeBatchJob(w);
    for (PlannedNode& n : nodes) {
        if (n.notReady)
            continue;
        const std::int64_t target = m_rng.chancePerMille(60) ? 0 : budget.core[CoreResource::Cpu] * m_rng.between(20, 95) / 100;
        std::int64_t used = 0;
        int failures = 0;
        int ended = 0;
        while (used < target && failures < 4) {
            const bool job = m_rng.chancePerMille(300);
            Workload& w = job ? jobs[m_rng.below(kJobs)] : deployments[m_rng.below(kDeployments)];
            model::PodPhase phase = model::PodPhase::Running;
            if (w.batch) {
                const auto roll = m_rng.below(100);
                phase = roll < 55 ? model::PodPhase::Running : roll < 85 ? model::PodPhase::Succeeded : model::PodPhase::Failed;
            }
            if (phase != model::PodPhase::Running) {
                if (ended < 6) {
                    ++ended;
                    emitPod(w, n.name, phase);
                } else {
                    ++failures;
                }
            } else if (w.request.fitsIn(n.free)) {
                w.request.subtractFrom(n.free);
                used += w.request.core[CoreResource::Cpu];
                emitPod(w, n.name, phase);
            } else {
                ++failures;
            }
            if (w.made >= w.target) {
                if (w.batch) {
                    if (m_rng.chancePerMille(150)) {
                        const auto pending = m_rng.between(1, 4);
                        for (std::int64_t i = 0; i < pending; ++i)
                            emitPod(w, m_emptyName, model::PodPhase::Pending);
                    }
                    makeBatchJob(w);
                } else {
                    makeCpuDeployment(w);
                }
            }
        }
    }
}

// Pending training gangs larger than a layer-2 network (128 nodes): they cannot be placed
// on nodes of one network layer, nor in the busy node group they ask for.
void Generator::addPendingGangs()
{
    if (m_spec.nodeCount < 50)
        return;
    const std::size_t gangs = std::max<std::size_t>(1, m_spec.nodeCount / 4000);
    static constexpr std::size_t kTrainingTypes[] = { 0, 1, 2, 3, 4 };
    Workload gang;
    for (std::size_t g = 0; g < gangs; ++g) {
        // A gang asks for the node group (capacity block) it was submitted to; that group is
        // busy with running gangs, so the pending gang waits.
        const std::pair<std::size_t, std::string>* group
            = m_trainingGroups.empty() ? nullptr : &m_trainingGroups[m_rng.below(m_trainingGroups.size())];
        const InstanceType& type = kTypes[group ? group->first : kTrainingTypes[m_rng.below(std::size(kTrainingTypes))]];
        Amounts budget = shapeFor(type, 0).allocatable;
        daemonSetRequest(type).subtractFrom(budget);
        const auto size = static_cast<std::uint32_t>(m_rng.between(kNodesPerLayer2 + 16, 2 * kNodesPerLayer2));
        makeTrainingGang(gang, type, budget, size);
        if (group)
            gang.pod.nodeSelector.emplace_back("eks.amazonaws.com/nodegroup", group->second);
        for (std::uint32_t i = 0; i < size; ++i)
            emitPod(gang, m_emptyName, model::PodPhase::Pending);
    }
}

} // namespace

void generateSimulatedCluster(
    const SimulationSpec& spec, model::ClusterStore& store, ImportReport& report, ImportProgress* progress)
{
    if (store.nodeCount() != 0 || store.podCount() != 0)
        throw std::invalid_argument("generateSimulatedCluster: the store must be empty");
    try {
        Generator(spec, store, report, progress).run();
    } catch (const ImportCancelled&) {
        store = model::ClusterStore();
        throw;
    }
}

} // namespace fleet::importers
