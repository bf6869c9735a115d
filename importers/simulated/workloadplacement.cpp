// SPDX-License-Identifier: Apache-2.0
// The workloads of the simulated fleet and the placement of their pods: DaemonSets on every
// node, whole-node training gangs inside one layer-2 network, inference Deployments filling
// GPU and MIG nodes to random levels, CPU Deployments and batch Jobs, and pending pods
// (among them training gangs too large for any layer-2 network). Pods are bound only where
// they fit. Part of ClusterGenerator (clustergenerator.h).

#include "clustergenerator.h"
#include "simulatednames.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace fleet::importers::simulated {

using model::CoreResource;
using model::TaintEffect;
using model::TolerationOperator;

namespace {

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
static_assert(std::size(kDaemonSets) == kDaemonSetCount, "kDaemonSetCount (clustergenerator.h) counts kDaemonSets");

constexpr std::int32_t kSystemNodeCritical = 2000001000;

// Host ports of the DaemonSets that run on the host network (their charts' defaults).
constexpr std::pair<const char*, std::uint16_t> kDaemonSetHostPorts[] = {
    { "aws-node", 61678 },
    { "prometheus-node-exporter", 9100 },
    { "fluent-bit", 2020 },
};

// Writes a version-4-shaped UUID (8-4-4-4-12 lower-case hex) from two hashes into `out`.
void writeUid(std::string& out, std::uint64_t a, std::uint64_t b)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out.resize(36);
    a = (a & ~0xf000ull) | 0x4000ull;                        // version 4 (third group)
    b = (b & 0x3fffffffffffffffull) | 0x8000000000000000ull; // variant 10xx (fourth group)
    std::size_t at = 0;
    for (int i = 15; i >= 0; --i) {
        out[at++] = kHex[(a >> (i * 4)) & 0xf];
        if (at == 8 || at == 13)
            out[at++] = '-';
    }
    out[at++] = '-';
    for (int i = 15; i >= 0; --i) {
        out[at++] = kHex[(b >> (i * 4)) & 0xf];
        if (at == 23)
            out[at++] = '-';
    }
}

constexpr const char* kTrainingNames[] = { "llama3-70b-pretrain", "mixtral-8x22b-sft", "vit-h14-pretrain", "rlhf-ppo",
    "sdxl-finetune", "code-model-pretrain", "moe-1t-pretrain", "dpo-alignment", "speech-foundation", "video-gen-pretrain" };
constexpr const char* kInferenceNames[] = { "vllm-llama3-8b", "vllm-llama3-70b", "embedding-svc", "reranker", "whisper-asr",
    "triton-ensemble", "tts-service", "vision-ocr", "guardrails", "sd-turbo" };
constexpr const char* kCpuNames[] = { "checkout-api", "feature-store", "kafka-connect", "airflow-worker", "ray-head",
    "ingest-gateway", "auth-service", "search-api", "metrics-relay", "notebook-hub" };
constexpr const char* kBatchNames[]
    = { "etl-nightly", "data-prep", "eval-harness", "tokenize-shard", "dedup-corpus", "report-gen" };
constexpr const char* kCpuNamespaces[] = { "platform", "data", "web" };

} // namespace

void ClusterGenerator::setUpDaemonSets()
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
        // The labels a DaemonSet's pods carry (the controller adds the last two).
        std::string revision;
        appendHashSuffix(revision, SplitMix64::mix(m_spec.seed * 31 + d), 10);
        p.labels = { { "app.kubernetes.io/name", ds.name }, { "controller-revision-hash", revision },
            { "pod-template-generation", "1" } };
        for (const auto& [name, port] : kDaemonSetHostPorts)
            if (std::string_view(ds.name) == name)
                p.hostPorts.push_back({ port, model::PortProtocol::TCP, {} });
        w.podPrefix = std::string(ds.name) + "-";
        w.salt = m_rng.next();
    }
}

Amounts ClusterGenerator::daemonSetRequest(const InstanceType& type) const
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

void ClusterGenerator::addDaemonSetPods(PlannedNode& n, const InstanceType& type)
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

void ClusterGenerator::setRequest(Workload& w, const Amounts& request)
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

void ClusterGenerator::emitPod(Workload& w, const std::string& nodeName, model::PodPhase phase)
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
    const std::uint64_t h = SplitMix64::mix(w.salt ^ (std::uint64_t { w.made } * 0x9e3779b97f4a7c15ull));
    writeUid(p.uid, h, SplitMix64::mix(h));
    // Running pods are Ready; about 1 pod in 500 that could move asks not to be disrupted.
    p.flags = w.flags | (phase == model::PodPhase::Running ? model::PodFlagReady : 0);
    if (p.ownerKind != model::OwnerKind::DaemonSet && (h >> 40) % 500 == 0)
        p.flags |= model::PodFlagDoNotDisrupt;
    m_store.addPod(p);
    ++w.made;
}

void ClusterGenerator::startWorkload(Workload& w, const char* ns, const char* baseName, model::OwnerKind kind)
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
    w.antiAffinity = false;
    w.flags = 0;
    if (kind == model::OwnerKind::ReplicaSet) {
        // A Deployment's pods belong to its ReplicaSet "<deployment>-<pod-template-hash>" and
        // carry that hash as a label (model/workloadname.h names the Deployment from it).
        std::string hash;
        appendHashSuffix(hash, SplitMix64::mix(w.salt), 10);
        p.labels = { { "app", name }, { "pod-template-hash", hash } };
        name += '-';
        name += hash;
    } else if (kind == model::OwnerKind::Job) {
        p.labels = { { "batch.kubernetes.io/job-name", name }, { "job-name", name } };
    } else {
        p.labels = { { "app", name } };
    }
    p.ownerName = name;
    w.podPrefix = name + "-";
    addDefaultTolerations(p.tolerations);
}

void ClusterGenerator::makeTrainingGang(Workload& w, const InstanceType& type, const Amounts& budget, std::uint32_t size)
{
    const bool statefulSet = m_rng.chancePerMille(250);
    startWorkload(w, "ml-training", kTrainingNames[m_rng.below(std::size(kTrainingNames))],
        statefulSet ? model::OwnerKind::StatefulSet : model::OwnerKind::Job);
    w.target = size;
    w.pod.priority = 1000;
    if (!statefulSet) {
        // A JobSet "<name>" of one replicated job "workers": its Job is "<name>-workers-0";
        // every pod carries the JobSet's labels (kubernetes-sigs/jobset).
        const std::string jobSet = w.pod.ownerName;
        w.pod.ownerName = jobSet + "-workers-0";
        w.podPrefix = w.pod.ownerName + "-";
        w.pod.labels = { { "batch.kubernetes.io/job-name", w.pod.ownerName }, { "job-name", w.pod.ownerName },
            { "jobset.sigs.k8s.io/jobset-name", jobSet }, { "jobset.sigs.k8s.io/replicatedjob-name", "workers" } };
    } else {
        // A LeaderWorkerSet: the leader StatefulSet has the LWS's name and label.
        w.pod.labels.emplace_back("leaderworkerset.sigs.k8s.io/name", w.pod.ownerName);
    }
    if (type.gpus > 0)
        w.pod.tolerations.emplace_back("nvidia.com/gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
    if (type.neuronDevices > 0)
        w.pod.tolerations.emplace_back("aws.amazon.com/neuron", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
    w.pod.nodeSelector.emplace_back("node.kubernetes.io/instance-type", type.name);
    if (type.gpus > 0)
        w.pod.nodeSelector.emplace_back("nvidia.com/gpu.product", type.gpuProduct);
    Amounts request;
    request.core[CoreResource::Cpu] = budget.core[CoreResource::Cpu] * m_rng.between(60, 95) / 100 / 1000 * 1000;
    request.core[CoreResource::Memory] = budget.core[CoreResource::Memory] * m_rng.between(50, 90) / 100 / kGiB * kGiB;
    request.core[CoreResource::Gpu] = std::int64_t { type.gpus } * 1000;
    request.ext[kNeuron] = type.neuronDevices;
    request.ext[kEfa] = type.efa;
    setRequest(w, request);
}

void ClusterGenerator::makeInference(Workload& w, const InstanceType& type, int migProfile, const Amounts& budget)
{
    startWorkload(w, "inference", kInferenceNames[m_rng.below(std::size(kInferenceNames))], model::OwnerKind::ReplicaSet);
    w.target = static_cast<std::uint32_t>(m_rng.between(2, 40));
    w.pod.priority = 10000;
    // A third of the inference Deployments keep one replica per node (required anti-affinity
    // on the hostname, against their own pods); fillInference() places them so.
    const std::uint64_t h = SplitMix64::mix(w.salt ^ 0x1f3a5c7e9b2d4f60ull);
    if (h % 3 == 0) {
        w.antiAffinity = true;
        model::PodAffinityTerm term;
        term.selector = appSelector(w);
        term.topologyKey = m_store.strings().intern("kubernetes.io/hostname");
        w.pod.podAntiAffinity.push_back(std::move(term));
    }
    addSpreadAndBudget(w, h >> 8, true);
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

void ClusterGenerator::makeCpuDeployment(Workload& w)
{
    startWorkload(w, kCpuNamespaces[m_rng.below(std::size(kCpuNamespaces))], kCpuNames[m_rng.below(std::size(kCpuNames))],
        model::OwnerKind::ReplicaSet);
    w.target = static_cast<std::uint32_t>(m_rng.between(3, 60));
    const std::uint64_t h = SplitMix64::mix(w.salt ^ 0x2c4e6a8b0d1f3e57ull);
    if (h % 5 == 0)
        w.flags |= model::PodFlagLocalStorage; // an emptyDir scratch volume
    addSpreadAndBudget(w, h >> 8, false);
    static constexpr std::uint32_t kCpuWeights[] = { 20, 30, 25, 15, 7, 3 };
    static constexpr std::int64_t kCpuMilli[] = { 100, 250, 500, 1000, 2000, 4000 };
    static constexpr std::int64_t kMiBPerCore[] = { 1024, 2048, 4096 };
    Amounts request;
    const std::int64_t cpu = kCpuMilli[m_rng.weighted(kCpuWeights, std::size(kCpuWeights))];
    request.core[CoreResource::Cpu] = cpu;
    request.core[CoreResource::Memory] = std::max<std::int64_t>(128, cpu * kMiBPerCore[m_rng.below(3)] / 1000) * kMiB;
    setRequest(w, request);
}

void ClusterGenerator::makeBatchJob(Workload& w)
{
    startWorkload(w, "batch", kBatchNames[m_rng.below(std::size(kBatchNames))], model::OwnerKind::Job);
    if (m_workloadCounter % 3 == 0) {
        // A third of the batch Jobs come from CronJobs: the CronJob controller names each Job
        // "<cronjob>-<scheduled time in minutes since the epoch>".
        const std::string cronJob = w.pod.ownerName;
        w.pod.ownerName = cronJob + "-";
        appendNumber(w.pod.ownerName, static_cast<std::uint64_t>(kSnapshotUnixSeconds / 60) - (m_workloadCounter % 1440));
        w.podPrefix = w.pod.ownerName + "-";
        w.pod.labels = { { "batch.kubernetes.io/job-name", w.pod.ownerName }, { "job-name", w.pod.ownerName } };
    }
    w.target = static_cast<std::uint32_t>(m_rng.between(4, 50));
    w.batch = true;
    if (SplitMix64::mix(w.salt ^ 0x3d5f7b9a1c2e4d68ull) % 2 == 0)
        w.flags |= model::PodFlagLocalStorage; // an emptyDir scratch volume
    static constexpr std::int64_t kCpuMilli[] = { 500, 1000, 2000, 4000 };
    Amounts request;
    const std::int64_t cpu = kCpuMilli[m_rng.below(std::size(kCpuMilli))];
    request.core[CoreResource::Cpu] = cpu;
    request.core[CoreResource::Memory] = cpu * m_rng.between(2, 8) * kMiB * 1024 / 1000;
    request.core[CoreResource::EphemeralStorage] = m_rng.between(1, 20) * kGiB;
    setRequest(w, request);
}

model::InternedSelector ClusterGenerator::appSelector(const Workload& w)
{
    // The Deployment's own pods: its "app" label (startWorkload sets it first).
    return m_store.internSelector(false, { w.pod.labels.front() }, {});
}

// Zone spread and a PodDisruptionBudget for some services. A DoNotSchedule constraint goes
// only to a Deployment pinned to its node group (nodeSelector eks.amazonaws.com/nodegroup),
// whose nodes are all in one zone: its one domain cannot be skewed, so the fleet as placed
// satisfies it (a Deployment here fills one node group). Others get ScheduleAnyway, which
// never blocks. Budgets: minAvailable 1 or maxUnavailable "25%", without a status, so the
// planner computes disruptionsAllowed from the Ready pods.
void ClusterGenerator::addSpreadAndBudget(Workload& w, std::uint64_t h, bool pinToGroup)
{
    const std::uint64_t spread = h % 10;
    if (spread < 5) {
        model::TopologySpreadConstraint c;
        c.maxSkew = 1;
        c.topologyKey = m_store.strings().intern("topology.kubernetes.io/zone");
        c.selector = appSelector(w);
        c.whenUnsatisfiable = pinToGroup && spread < 2 ? model::WhenUnsatisfiable::DoNotSchedule : model::WhenUnsatisfiable::ScheduleAnyway;
        if (c.whenUnsatisfiable == model::WhenUnsatisfiable::DoNotSchedule)
            w.pod.nodeSelector.emplace_back("eks.amazonaws.com/nodegroup", m_groupName);
        w.pod.spreadConstraints.push_back(std::move(c));
    }
    const std::uint64_t budget = (h >> 8) % 10;
    if (budget < 4) {
        model::DisruptionBudgetRecord b;
        b.namespaceName = w.pod.namespaceName;
        b.name = w.pod.labels.front().second;
        b.matchLabels = { w.pod.labels.front() };
        if (budget < 2)
            b.minAvailable = { true, false, 1 };
        else
            b.maxUnavailable = { true, true, 25 };
        m_store.addDisruptionBudget(b);
    }
}

// Training: whole-node gangs inside one layer-2 network; about 8% of healthy nodes stay idle
// as spares; NotReady and cordoned nodes get no gang pods.
void ClusterGenerator::placeTraining(std::vector<PlannedNode>& nodes, const InstanceType& type, const Amounts& budget)
{
    static constexpr std::uint32_t kSizeWeights[] = { 0, 10, 25, 30, 20, 10, 5 };
    std::vector<std::size_t> eligible;
    Workload gang;
    // The group started on a fresh layer-2 node, so every 128 nodes of it are one layer-2 network.
    for (std::size_t begin = 0; begin < nodes.size(); begin += kNodesPerLayer2) {
        const std::size_t end = std::min(nodes.size(), begin + kNodesPerLayer2);
        // About 1 layer-2 network in 16 sits idle between jobs: its job ended and the next one
        // has not started, so its blocks of 16 nodes are whole and free (what a large gang with
        // slices per layer-3 block needs; bench_gang's gang_pods). The gangs are still drawn, and
        // the choice comes from a hash, so the rest of the fleet is drawn as before.
        const bool betweenJobs = SplitMix64::mix(m_spec.seed * 0xd1b54a32d192ed03ull + m_groupCounter * 4096 + begin / kNodesPerLayer2) % 16 == 5;
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
            for (std::size_t m = 0; m < size && !betweenJobs; ++m) {
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
void ClusterGenerator::fillInference(std::vector<PlannedNode>& nodes, const InstanceType& type, int migProfile, const Amounts& budget)
{
    constexpr std::size_t kActive = 3;
    std::array<Workload, kActive> active;
    for (auto& w : active)
        makeInference(w, type, migProfile, budget);
    const std::int64_t unitsPerNode = migProfile == 1 ? budget.ext[kMig1g] : migProfile == 3 ? budget.ext[kMig3g] : type.gpus;
    std::vector<std::uint64_t> antiHere; // salts of the anti-affinity workloads on this node
    for (PlannedNode& n : nodes) {
        if (n.notReady)
            continue;
        std::int64_t target = m_rng.chancePerMille(120) ? 0 : m_rng.between(1, unitsPerNode);
        int failures = 0;
        antiHere.clear();
        while (target > 0 && failures < 4) {
            Workload& w = active[m_rng.below(kActive)];
            const std::int64_t units = migProfile ? 1 : w.request.core[CoreResource::Gpu] / 1000;
            const bool repelled = w.antiAffinity && std::find(antiHere.begin(), antiHere.end(), w.salt) != antiHere.end();
            if (units <= target && !repelled && w.request.fitsIn(n.free)) {
                w.request.subtractFrom(n.free);
                emitPod(w, n.name, model::PodPhase::Running);
                if (w.antiAffinity)
                    antiHere.push_back(w.salt);
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
void ClusterGenerator::fillCpu(std::vector<PlannedNode>& nodes, const Amounts& budget)
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
void ClusterGenerator::addPendingGangs()
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
        auto size = static_cast<std::uint32_t>(m_rng.between(kNodesPerLayer2 + 16, 2 * kNodesPerLayer2));
        // It waits because its group cannot hold it: never fewer pods than the group's idle
        // nodes (a large group of one big zone idles more than a layer-2 network between
        // jobs), one layer-3 block more. Unchanged where the draw is larger already.
        if (group) {
            const std::size_t idle = m_trainingGroupIdle[static_cast<std::size_t>(group - m_trainingGroups.data())];
            if (size <= idle)
                size = static_cast<std::uint32_t>(idle + kNodesPerLayer3);
        }
        makeTrainingGang(gang, type, budget, size);
        if (group)
            gang.pod.nodeSelector.emplace_back("eks.amazonaws.com/nodegroup", group->second);
        // What the scheduler says about it (the PodScheduled condition's message), or, for one
        // gang in four, the gate a queue (Kueue) holds it with until it is admitted.
        const std::size_t nodes = m_store.nodeCount();
        if (g % 4 == 3) {
            gang.pod.schedulingGates = { "kueue.x-k8s.io/admission" };
            gang.pod.schedulingMessage = "Scheduling is blocked due to non-empty scheduling gates";
        } else {
            const std::size_t inGroup = group ? m_trainingGroupNodes[static_cast<std::size_t>(group - m_trainingGroups.data())] : 0;
            const char* resource = type.neuronDevices > 0 ? "aws.amazon.com/neuron" : "nvidia.com/gpu";
            std::string& m = gang.pod.schedulingMessage;
            m = "0/";
            appendNumber(m, nodes);
            m += " nodes are available: ";
            if (inGroup > 0) {
                appendNumber(m, inGroup);
                m += " Insufficient ";
                m += resource;
                m += ", ";
            }
            appendNumber(m, nodes - inGroup);
            m += " node(s) didn't match Pod's node affinity/selector. preemption: 0/";
            appendNumber(m, nodes);
            m += " nodes are available: ";
            appendNumber(m, nodes);
            m += " Preemption is not helpful for scheduling.";
        }
        for (std::uint32_t i = 0; i < size; ++i)
            emitPod(gang, m_emptyName, model::PodPhase::Pending);
    }
}

} // namespace fleet::importers::simulated
