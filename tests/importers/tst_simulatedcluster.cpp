// SPDX-License-Identifier: Apache-2.0
// Tests of the simulated accelerator fleet: exact sizes, determinism, no overcommitted node,
// the labels and pods a real EKS fleet has, and the topology built over it.

#include "importers/simulated/deterministicrng.h"
#include "importers/simulated/simulatedcluster.h"
#include "model/topology.h"

#include "extendedamount.h"

#include <QtTest>

#include <map>
#include <set>

using namespace fleet;
using namespace fleet::importers;
using model::CoreResource;
using testing::extended;

namespace {

// FNV-1a over everything that makes a cluster: names, labels, taints, states, amounts.
class Digest {
public:
    void add(std::string_view s)
    {
        for (unsigned char c : s)
            step(c);
        step(0xff);
    }
    void add(std::int64_t v)
    {
        for (int i = 0; i < 8; ++i)
            step(static_cast<unsigned char>(static_cast<std::uint64_t>(v) >> (8 * i)));
    }
    std::uint64_t value() const { return m_h; }

private:
    void step(unsigned char c)
    {
        m_h ^= c;
        m_h *= 0x100000001b3ull;
    }
    std::uint64_t m_h = 0xcbf29ce484222325ull;
};

std::uint64_t digestOf(const model::ClusterStore& s)
{
    Digest d;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        d.add(s.nodeName(n));
        for (const auto& l : s.nodeLabels(n)) {
            d.add(s.str(l.key));
            d.add(s.str(l.value));
        }
        for (const auto& t : s.nodeTaints(n)) {
            d.add(s.str(t.key));
            d.add(static_cast<std::int64_t>(t.effect));
        }
        for (auto a : s.nodeAllocatable(n).amounts)
            d.add(a);
        for (auto a : s.nodeCapacity(n).amounts)
            d.add(a);
        for (const auto& [k, v] : s.nodeExtendedAllocatable(n)) {
            d.add(s.resources().name(k));
            d.add(v);
        }
        d.add(static_cast<std::int64_t>(s.nodeReadiness(n)));
        d.add(s.nodeUnschedulable(n) ? 1 : 0);
    }
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const model::PodId p(i);
        d.add(s.podNamespace(p));
        d.add(s.podName(p));
        d.add(s.podNodeName(p));
        d.add(static_cast<std::int64_t>(s.podPhase(p)));
        for (auto a : s.podRequest(p).amounts)
            d.add(a);
        for (const auto& [k, v] : s.podExtendedRequest(p)) {
            d.add(s.resources().name(k));
            d.add(v);
        }
        d.add(static_cast<std::int64_t>(s.podTolerations(p).size()));
        d.add(static_cast<std::int64_t>(s.podNodeSelector(p).size()));
    }
    return d.value();
}

std::string_view label(const model::ClusterStore& s, model::NodeId n, std::string_view key)
{
    const model::StringId k = s.strings().find(key);
    return k.isValid() ? s.str(s.nodeLabel(n, k)) : std::string_view();
}

class CancelAfterFirstCall final : public ImportProgress {
public:
    void progress(std::size_t done, std::size_t total) override
    {
        QVERIFY(done >= last);
        last = done;
        QCOMPARE(total, expectedTotal);
        ++calls;
    }
    bool isCancelled() const override { return cancelAfter > 0 && polls++ >= cancelAfter; }
    std::size_t expectedTotal = 0;
    std::size_t cancelAfter = 0;
    std::size_t calls = 0;
    std::size_t last = 0;
    mutable std::size_t polls = 0;
};

constexpr std::size_t kFleet = 100000;

} // namespace

class TstSimulatedCluster : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void rng();
    void nodeCountIsExact_data();
    void nodeCountIsExact();
    void sameSeedSameStore();
    void differentSeedDifferentStore();
    void oneRegionByDefault();
    void severalRegionsOnRequest();
    void noNodeOvercommitted();
    void allocatableBelowCapacity();
    void topologyLabelsOnEveryNode();
    void daemonSetPodsOnEveryNode();
    void instanceShapes_data();
    void instanceShapes();
    void trainingGangsStayInOneLayer2();
    void fleetHasRealProblems();
    void conditionsLabelsAndWorkloads();
    void topologyHierarchy();
    void progressAndCancel();
    void refusesNonEmptyStore();

private:
    model::ClusterStore m_store;
};

void TstSimulatedCluster::initTestCase()
{
    ImportReport report;
    QElapsedTimer timer;
    timer.start();
    generateSimulatedCluster(SimulationSpec { kFleet, 1 }, m_store, report);
    const qint64 generateMs = timer.elapsed();
    m_store.finalize();
    // A figure for the report, not a timed test.
    qInfo("generated %zu nodes and %zu pods in %lld ms (finalize %lld ms)", m_store.nodeCount(), m_store.podCount(), generateMs,
        timer.elapsed() - generateMs);
    QCOMPARE(report.nodesRead, kFleet);
    QCOMPARE(report.podsRead, m_store.podCount());
}

void TstSimulatedCluster::rng()
{
    // xoshiro256** seeded by SplitMix64 is fixed by its definition; these values pin it so that a
    // change to the generator's randomness is never silent.
    DeterministicRng a(1), b(1), c(2);
    const std::uint64_t first = a.next();
    QCOMPARE(first, b.next());
    QVERIFY(first != c.next());
    DeterministicRng r(7);
    std::array<int, 6> histogram {};
    for (int i = 0; i < 60000; ++i) {
        const auto v = r.below(6);
        QVERIFY(v < 6);
        ++histogram[v];
    }
    for (int count : histogram)
        QVERIFY2(count > 9500 && count < 10500, "below(6) is not uniform");
    QCOMPARE(r.between(5, 5), std::int64_t { 5 });
    QCOMPARE(SplitMix64(0).next(), std::uint64_t { 0xe220a8397b1dcdafull }); // the reference value of SplitMix64(0)
}

void TstSimulatedCluster::nodeCountIsExact_data()
{
    QTest::addColumn<qulonglong>("nodes");
    QTest::newRow("0") << 0ULL;
    QTest::newRow("1") << 1ULL;
    QTest::newRow("7") << 7ULL;
    QTest::newRow("1000") << 1000ULL;
    QTest::newRow("12345") << 12345ULL;
}

void TstSimulatedCluster::nodeCountIsExact()
{
    QFETCH(qulonglong, nodes);
    model::ClusterStore store;
    ImportReport report;
    generateSimulatedCluster(SimulationSpec { nodes, 3 }, store, report);
    QCOMPARE(store.nodeCount(), std::size_t(nodes));
    store.finalize();
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
        QVERIFY(!store.nodePods(model::NodeId(i)).empty()); // at least its DaemonSet pods
}

void TstSimulatedCluster::sameSeedSameStore()
{
    QCOMPARE(m_store.nodeCount(), kFleet); // the 100,000-node fleet of initTestCase
    model::ClusterStore a, b;
    ImportReport report;
    generateSimulatedCluster(SimulationSpec { 5000, 42 }, a, report);
    generateSimulatedCluster(SimulationSpec { 5000, 42 }, b, report);
    QCOMPARE(a.podCount(), b.podCount());
    QCOMPARE(digestOf(a), digestOf(b));
}

void TstSimulatedCluster::differentSeedDifferentStore()
{
    model::ClusterStore a, b;
    ImportReport report;
    generateSimulatedCluster(SimulationSpec { 5000, 42 }, a, report);
    generateSimulatedCluster(SimulationSpec { 5000, 43 }, b, report);
    QCOMPARE(b.nodeCount(), std::size_t { 5000 });
    QVERIFY(digestOf(a) != digestOf(b));
    QVERIFY(a.nodeName(model::NodeId(0)) != b.nodeName(model::NodeId(0)));
}

// One EKS cluster is regional: the default fleet's nodes all lie in us-west-2, over its four
// zones, so that no plan made on it moves a pod across a region.
void TstSimulatedCluster::oneRegionByDefault()
{
    const model::ClusterStore& s = m_store; // SimulationSpec's default regionCount
    std::map<std::string_view, std::size_t> perZone;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        QCOMPARE(label(s, n, "topology.kubernetes.io/region"), std::string_view("us-west-2"));
        QVERIFY(s.nodeName(n).ends_with(".us-west-2.compute.internal"));
        ++perZone[label(s, n, "topology.kubernetes.io/zone")];
    }
    QCOMPARE(perZone.size(), std::size_t { 4 });
    QVERIFY(perZone.count("us-west-2a") && perZone.count("us-west-2d"));
    // Zone weights are drawn from 2 to 5: no zone holds less than 2/17 of the nodes.
    for (const auto& [zone, nodes] : perZone)
        QVERIFY2(nodes >= kFleet * 2 / 17, zone.data());
}

// The multi-region fleet (several clusters' worth, for map scale tests) on request: the first
// regionCount of us-west-2, us-east-1, us-east-2, eu-west-1, split 40/30/20/10 per mille, each
// with its own share of 10.0.0.0/8; deterministic like the default fleet, and another fleet.
void TstSimulatedCluster::severalRegionsOnRequest()
{
    model::ClusterStore four, again, one, clamped;
    ImportReport report;
    generateSimulatedCluster(SimulationSpec { 20000, 1, 4 }, four, report);
    generateSimulatedCluster(SimulationSpec { 20000, 1, 4 }, again, report);
    QCOMPARE(digestOf(four), digestOf(again));
    generateSimulatedCluster(SimulationSpec { 5000, 42, 1 }, one, report);
    generateSimulatedCluster(SimulationSpec { 5000, 42, 0 }, clamped, report);
    QCOMPARE(digestOf(one), digestOf(clamped));

    std::map<std::string, std::size_t> perRegion;
    std::set<std::string_view> zones;
    for (std::uint32_t i = 0; i < four.nodeCount(); ++i) {
        const model::NodeId n(i);
        const std::string region(label(four, n, "topology.kubernetes.io/region"));
        ++perRegion[region];
        zones.insert(label(four, n, "topology.kubernetes.io/zone"));
        QVERIFY(label(four, n, "topology.kubernetes.io/zone").starts_with(region));
        // ip-10-<second octet>-...: region r owns 64 * r to 64 * r + 63.
        const std::string_view name = four.nodeName(n);
        const int octet = std::stoi(std::string(name.substr(6, name.find('-', 6) - 6)));
        const int r = region == "us-west-2" ? 0 : region == "us-east-1" ? 1 : region == "us-east-2" ? 2 : 3;
        QVERIFY2(octet / 64 == r, name.data());
        QVERIFY(name.ends_with(region == "us-east-1" ? ".ec2.internal" : "." + region + ".compute.internal"));
    }
    const std::map<std::string, std::size_t> expected {
        { "eu-west-1", 2000 }, { "us-east-1", 6000 }, { "us-east-2", 4000 }, { "us-west-2", 8000 } };
    QCOMPARE(perRegion, expected);
    QCOMPARE(zones.size(), std::size_t { 4 + 5 + 3 + 3 });
}

void TstSimulatedCluster::noNodeOvercommitted()
{
    const model::ClusterStore& s = m_store;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        // A node with an unhealthy GPU (allocatableBelowCapacity) lost it under running pods:
        // its GPU requests stay within capacity.
        model::ResourceVector alloc = s.nodeAllocatable(n);
        alloc[CoreResource::Gpu] = s.nodeCapacity(n)[CoreResource::Gpu];
        const auto& req = s.nodeRequested(n);
        for (std::size_t r = 0; r < model::kCoreResourceCount; ++r)
            QVERIFY2(req.amounts[r] <= alloc.amounts[r],
                qPrintable(QString("%1 overcommits %2")
                               .arg(QString::fromUtf8(s.nodeName(n).data(), qsizetype(s.nodeName(n).size())))
                               .arg(r)));
        for (const auto& [key, value] : s.nodeExtendedAllocatable(n))
            QVERIFY(s.nodeExtendedRequested(n, key) <= value);
    }
    // Every extended request of a bound pod is for a resource its node has (otherwise the
    // store could not count it and an overcommit would hide).
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const model::PodId p(i);
        if (!s.podIsCounted(p))
            continue;
        for (const auto& [key, value] : s.podExtendedRequest(p)) {
            bool found = false;
            for (const auto& [nk, nv] : s.nodeExtendedAllocatable(s.podNode(p)))
                found = found || (nk == key && nv > 0);
            QVERIFY(found);
        }
        QVERIFY(s.podRequest(p)[CoreResource::Gpu] == 0 || s.nodeCapacity(s.podNode(p))[CoreResource::Gpu] > 0);
    }
}

void TstSimulatedCluster::allocatableBelowCapacity()
{
    const model::ClusterStore& s = m_store;
    std::size_t unhealthy = 0, gpuNodes = 0;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        QVERIFY(s.nodeAllocatable(n)[CoreResource::Cpu] < s.nodeCapacity(n)[CoreResource::Cpu]);
        QVERIFY(s.nodeAllocatable(n)[CoreResource::Memory] < s.nodeCapacity(n)[CoreResource::Memory]);
        QVERIFY(s.nodeAllocatable(n)[CoreResource::EphemeralStorage] < s.nodeCapacity(n)[CoreResource::EphemeralStorage]);
        // A GPU node may have one unhealthy GPU, left out of allocatable (about 1 in 250).
        const auto missing = s.nodeCapacity(n)[CoreResource::Gpu] - s.nodeAllocatable(n)[CoreResource::Gpu];
        QVERIFY2(missing == 0 || missing == 1000, qPrintable(QString::number(missing)));
        unhealthy += missing != 0;
        gpuNodes += s.nodeCapacity(n)[CoreResource::Gpu] > 0;
    }
    QVERIFY2(unhealthy > 0 && unhealthy < gpuNodes / 100, qPrintable(QString("%1 of %2").arg(unhealthy).arg(gpuNodes)));
}

void TstSimulatedCluster::topologyLabelsOnEveryNode()
{
    const model::ClusterStore& s = m_store;
    std::set<std::string_view> names;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        for (const auto& spec : model::TopologySpec::defaults().levelKeys)
            QVERIFY2(!label(s, n, spec).empty(), spec.c_str());
        QVERIFY(label(s, n, "topology.kubernetes.io/zone").starts_with(label(s, n, "topology.kubernetes.io/region")));
        QCOMPARE(label(s, n, "node.kubernetes.io/instance-type"), s.nodeInstanceType(n));
        QCOMPARE(label(s, n, "kubernetes.io/hostname"), s.nodeName(n));
        const std::string_view name = s.nodeName(n);
        QVERIFY(name.starts_with("ip-10-"));
        QVERIFY(name.ends_with(".compute.internal") || name.ends_with(".ec2.internal"));
        names.insert(name);
    }
    QCOMPARE(names.size(), s.nodeCount());
}

void TstSimulatedCluster::daemonSetPodsOnEveryNode()
{
    const model::ClusterStore& s = m_store;
    std::size_t gpuNodes = 0;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        std::map<std::string_view, int> daemonPods;
        for (const model::PodId p : s.nodePods(n)) {
            if (s.podOwnerKind(p) != model::OwnerKind::DaemonSet)
                continue;
            ++daemonPods[s.workloadName(s.podWorkload(p))];
            QVERIFY(!s.podTolerations(p).empty());
        }
        QCOMPARE(daemonPods["kube-proxy"], 1);
        QCOMPARE(daemonPods["aws-node"], 1);
        QCOMPARE(daemonPods["prometheus-node-exporter"], 1);
        if (s.nodeGpuCount(n) > 0) {
            ++gpuNodes;
            QCOMPARE(daemonPods["nvidia-device-plugin-daemonset"], 1);
        } else {
            QCOMPARE(daemonPods["nvidia-device-plugin-daemonset"], 0);
        }
    }
    QVERIFY(gpuNodes > 0);
}

void TstSimulatedCluster::instanceShapes_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<qlonglong>("vcpu");
    QTest::addColumn<qlonglong>("memoryGiB");
    QTest::addColumn<qlonglong>("gpus");
    QTest::addColumn<QString>("product");
    QTest::addColumn<qlonglong>("neuron");
    QTest::addColumn<qlonglong>("efa");
    QTest::newRow("p5") << "p5.48xlarge" << 192LL << 2048LL << 8LL << "NVIDIA-H100-80GB-HBM3" << 0LL << 32LL;
    QTest::newRow("p5e") << "p5e.48xlarge" << 192LL << 2048LL << 8LL << "NVIDIA-H200" << 0LL << 32LL;
    QTest::newRow("p5en") << "p5en.48xlarge" << 192LL << 2048LL << 8LL << "NVIDIA-H200" << 0LL << 16LL;
    QTest::newRow("p6-b200") << "p6-b200.48xlarge" << 192LL << 2048LL << 8LL << "NVIDIA-B200" << 0LL << 8LL;
    QTest::newRow("trn2") << "trn2.48xlarge" << 192LL << 2048LL << 0LL << "" << 16LL << 16LL;
    QTest::newRow("g5.xlarge") << "g5.xlarge" << 4LL << 16LL << 1LL << "NVIDIA-A10G" << 0LL << 0LL;
    QTest::newRow("g6e.12xlarge") << "g6e.12xlarge" << 48LL << 384LL << 4LL << "NVIDIA-L40S" << 0LL << 0LL;
    QTest::newRow("m7i.8xlarge") << "m7i.8xlarge" << 32LL << 128LL << 0LL << "" << 0LL << 0LL;
}

void TstSimulatedCluster::instanceShapes()
{
    QFETCH(QString, type);
    QFETCH(qlonglong, vcpu);
    QFETCH(qlonglong, memoryGiB);
    QFETCH(qlonglong, gpus);
    QFETCH(QString, product);
    QFETCH(qlonglong, neuron);
    QFETCH(qlonglong, efa);
    const model::ClusterStore& s = m_store;
    std::size_t seen = 0;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        if (QString::fromUtf8(s.nodeInstanceType(n).data(), qsizetype(s.nodeInstanceType(n).size())) != type)
            continue;
        // Nodes with an unhealthy GPU (allocatableBelowCapacity) have one GPU fewer.
        if (s.nodeAllocatable(n)[CoreResource::Gpu] < s.nodeCapacity(n)[CoreResource::Gpu])
            continue;
        ++seen;
        const auto& cap = s.nodeCapacity(n);
        QCOMPARE(cap[CoreResource::Cpu], vcpu * 1000);
        QVERIFY(cap[CoreResource::Memory] < memoryGiB * 1024 * 1024 * 1024);
        QVERIFY(cap[CoreResource::Memory] > memoryGiB * 1024 * 1024 * 1024 * 9 / 10);
        QCOMPARE(s.nodeGpuCount(n), int(gpus));
        QCOMPARE(extended(s, s.nodeExtendedAllocatable(n), "aws.amazon.com/neuron"), neuron);
        QCOMPARE(extended(s, s.nodeExtendedAllocatable(n), "aws.amazon.com/neuroncore"), neuron * 8);
        QCOMPARE(extended(s, s.nodeExtendedAllocatable(n), "vpc.amazonaws.com/efa"), efa);
        QCOMPARE(QString::fromUtf8(
                     label(s, n, "nvidia.com/gpu.product").data(), qsizetype(label(s, n, "nvidia.com/gpu.product").size())),
            product);
        const bool mig = !label(s, n, "nvidia.com/mig.config").empty();
        QCOMPARE(s.nodeAllocatable(n)[CoreResource::Gpu], mig ? 0 : gpus * 1000);
        if (mig)
            QVERIFY(extended(s, s.nodeExtendedAllocatable(n), "nvidia.com/mig-1g.10gb") == 56
                || extended(s, s.nodeExtendedAllocatable(n), "nvidia.com/mig-3g.40gb") == 16);
        bool gpuTaint = false, neuronTaint = false;
        for (const auto& t : s.nodeTaints(n)) {
            gpuTaint = gpuTaint || (s.str(t.key) == "nvidia.com/gpu" && t.effect == model::TaintEffect::NoSchedule);
            neuronTaint = neuronTaint || (s.str(t.key) == "aws.amazon.com/neuron" && t.effect == model::TaintEffect::NoSchedule);
        }
        QCOMPARE(gpuTaint, gpus > 0);
        QCOMPARE(neuronTaint, neuron > 0);
    }
    QVERIFY2(seen > 0, "no node of this type in the fleet");
}

void TstSimulatedCluster::trainingGangsStayInOneLayer2()
{
    const model::ClusterStore& s = m_store;
    std::map<std::uint32_t, std::set<std::string_view>> layersByGang;
    std::size_t gangPods = 0;
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const model::PodId p(i);
        if (s.podNamespace(p) != "ml-training" || !s.podIsCounted(p))
            continue;
        ++gangPods;
        const model::NodeId n = s.podNode(p);
        layersByGang[s.podWorkload(p).value].insert(label(s, n, "topology.k8s.aws/network-node-layer-2"));
        // Each gang pod takes the whole node's accelerators.
        QCOMPARE(s.podRequest(p)[CoreResource::Gpu], s.nodeCapacity(n)[CoreResource::Gpu]); // capacity: a GPU may have failed since
        QCOMPARE(extended(s, s.podExtendedRequest(p), "aws.amazon.com/neuron"),
            extended(s, s.nodeExtendedAllocatable(n), "aws.amazon.com/neuron"));
        // Gangs are JobSets (their pods carry the JobSet's label) or LeaderWorkerSets.
        QVERIFY(s.podOwnerKind(p) == model::OwnerKind::JobSet || s.podOwnerKind(p) == model::OwnerKind::LeaderWorkerSet);
    }
    QVERIFY(gangPods > 1000);
    // Most gangs span several nodes (whole-node pods), yet never more than one layer-2 network.
    QVERIFY(gangPods > 2 * layersByGang.size());
    for (const auto& [gang, layers] : layersByGang)
        QCOMPARE(layers.size(), std::size_t { 1 });
}

void TstSimulatedCluster::fleetHasRealProblems()
{
    const model::ClusterStore& s = m_store;
    std::size_t notReady = 0, cordoned = 0, idleGpuNodes = 0, fragmentedGpuNodes = 0;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        notReady += s.nodeReadiness(n) != model::Readiness::True;
        cordoned += s.nodeUnschedulable(n);
        const auto gpu = s.nodeAllocatable(n)[CoreResource::Gpu];
        const auto used = s.nodeRequested(n)[CoreResource::Gpu];
        if (gpu > 0 && used == 0)
            ++idleGpuNodes;
        if (gpu > 0 && used > 0 && used < gpu)
            ++fragmentedGpuNodes;
    }
    QCOMPARE(notReady, kFleet / 200 + 1);
    QCOMPARE(cordoned, kFleet * 7 / 1000 + 1);
    QVERIFY(idleGpuNodes > 100);
    QVERIFY(fragmentedGpuNodes > 100);

    std::map<model::PodPhase, std::size_t> phases;
    std::map<std::uint32_t, std::size_t> pendingByWorkload;
    std::size_t pending = 0, mig = 0;
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const model::PodId p(i);
        ++phases[s.podPhase(p)];
        if (s.podIsPending(p)) {
            ++pending;
            QVERIFY(s.podNodeName(p).empty());
            if (s.podNamespace(p) == "ml-training")
                ++pendingByWorkload[s.podWorkload(p).value];
        }
        mig += extended(s, s.podExtendedRequest(p), "nvidia.com/mig-1g.10gb") > 0;
    }
    QVERIFY(pending > 0);
    QVERIFY(mig > 0);
    QVERIFY(phases[model::PodPhase::Succeeded] > 0);
    QVERIFY(phases[model::PodPhase::Failed] > 0);
    // Pending gangs bigger than one layer-2 network (128 nodes).
    QCOMPARE(pendingByWorkload.size(), kFleet / 4000);
    const model::StringId nodegroupKey = s.strings().find("eks.amazonaws.com/nodegroup");
    for (const auto& [gang, pods] : pendingByWorkload) {
        QVERIFY(pods > 128);
        // The gang asks for one node group, which has fewer free nodes than the gang has pods.
        model::StringId group;
        for (std::uint32_t i = 0; i < s.podCount() && !group.isValid(); ++i)
            if (s.podWorkload(model::PodId(i)).value == gang)
                for (const auto& sel : s.podNodeSelector(model::PodId(i)))
                    if (sel.key == nodegroupKey)
                        group = sel.value;
        QVERIFY(group.isValid());
        std::size_t freeNodes = 0, groupNodes = 0;
        for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
            const model::NodeId n(i);
            if (s.nodeLabel(n, nodegroupKey) != group)
                continue;
            ++groupNodes;
            const int neuronKey = s.resources().find("aws.amazon.com/neuron");
            const bool acceleratorsFree = s.nodeRequested(n)[CoreResource::Gpu] == 0
                && (neuronKey < 0 || s.nodeExtendedRequested(n, model::ResourceKey(neuronKey)) == 0);
            if (acceleratorsFree && s.nodeReadiness(n) == model::Readiness::True && !s.nodeUnschedulable(n))
                ++freeNodes;
        }
        QVERIFY(groupNodes > 0);
        QVERIFY2(freeNodes < pods, qPrintable(QString("%1 free nodes for %2 pods").arg(freeNodes).arg(pods)));
    }
    const double podsPerNode = double(s.podCount()) / double(s.nodeCount());
    QVERIFY2(podsPerNode >= 10 && podsPerNode <= 20, qPrintable(QString::number(podsPerNode)));
    std::set<std::string_view> namespaces;
    for (std::uint32_t i = 0; i < s.podCount(); ++i)
        namespaces.insert(s.podNamespace(model::PodId(i)));
    for (const char* ns : { "kube-system", "ml-training", "inference", "batch" })
        QVERIFY2(namespaces.count(ns) == 1, ns);
}

// Every node reports the kubelet's four conditions; a few are under memory or disk pressure
// (tainted as the node lifecycle controller does); pods carry their workload's labels, and the
// workload rule finds Deployments, CronJobs, JobSets and LeaderWorkerSets among them.
void TstSimulatedCluster::conditionsLabelsAndWorkloads()
{
    const model::ClusterStore& s = m_store;
    std::size_t memoryPressure = 0, diskPressure = 0;
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const model::NodeId n(i);
        const auto conditions = s.nodeConditions(n);
        QCOMPARE(conditions.size(), std::size_t(4));
        QCOMPARE(s.str(conditions[3].type), std::string_view("Ready"));
        QCOMPARE(conditions[3].status, s.nodeReadiness(n));
        for (const auto& c : conditions) {
            QVERIFY(c.lastTransitionUnixSeconds > 1796040000 - 61 * 86400 && c.lastTransitionUnixSeconds < 1796040000);
            if (c.status != model::Readiness::True || s.str(c.type) == "Ready")
                continue;
            const bool memory = s.str(c.type) == "MemoryPressure";
            memoryPressure += memory;
            diskPressure += !memory;
            bool tainted = false;
            for (const auto& t : s.nodeTaints(n))
                tainted = tainted || s.str(t.key) == (memory ? "node.kubernetes.io/memory-pressure" : "node.kubernetes.io/disk-pressure");
            QVERIFY(tainted);
        }
    }
    QVERIFY2(memoryPressure > kFleet / 800 && memoryPressure < kFleet / 200, qPrintable(QString::number(memoryPressure)));
    QVERIFY2(diskPressure > kFleet / 1200 && diskPressure < kFleet / 300, qPrintable(QString::number(diskPressure)));
    std::map<model::OwnerKind, std::size_t> kinds;
    std::size_t withoutLabels = 0;
    for (std::uint32_t w = 0; w < s.workloadCount(); ++w)
        ++kinds[s.workloadKind(model::WorkloadId(w))];
    for (std::uint32_t i = 0; i < s.podCount(); ++i)
        withoutLabels += s.podLabels(model::PodId(i)).empty();
    QCOMPARE(withoutLabels, std::size_t(0));
    for (auto kind : { model::OwnerKind::DaemonSet, model::OwnerKind::Deployment, model::OwnerKind::Job, model::OwnerKind::CronJob,
             model::OwnerKind::JobSet, model::OwnerKind::LeaderWorkerSet })
        QVERIFY2(kinds[kind] > 0, model::ownerKindName(kind).data());
    QCOMPARE(kinds[model::OwnerKind::ReplicaSet], std::size_t(0)); // every ReplicaSet's pods carry pod-template-hash
}

void TstSimulatedCluster::topologyHierarchy()
{
    const model::Topology t = model::Topology::build(m_store);
    QCOMPARE(t.levelKeys(), model::TopologySpec::defaults().levelKeys);
    std::map<int, std::size_t> perLevel;
    for (std::uint32_t d = 0; d < t.domainCount(); ++d) {
        const model::DomainId id(d);
        ++perLevel[t.domainLevel(id)];
        if (t.domainLevel(id) == 2) // a zone lies in its region
            QVERIFY(t.domainName(id).starts_with(t.domainName(t.domainParent(id))));
    }
    QCOMPARE(perLevel.size(), std::size_t { 6 }); // root, region, zone, layer-1, -2, -3
    QCOMPARE(perLevel[1], std::size_t { 1 }); // one region: one cluster
    QCOMPARE(perLevel[2], std::size_t { 4 }); // its four zones
    for (int level = 1; level < 5; ++level)
        QVERIFY2(perLevel[level] < perLevel[level + 1], qPrintable(QString("level %1").arg(level)));
    // Layer-3 groups hold at most 16 nodes.
    for (std::uint32_t d = 0; d < t.domainCount(); ++d)
        if (t.domainLevel(model::DomainId(d)) == 5)
            QVERIFY(t.domainNodes(model::DomainId(d)).size() <= 16);
}

void TstSimulatedCluster::progressAndCancel()
{
    {
        model::ClusterStore store;
        ImportReport report;
        CancelAfterFirstCall progress;
        progress.expectedTotal = 20000;
        generateSimulatedCluster(SimulationSpec { 20000, 5 }, store, report, &progress);
        QVERIFY(progress.calls > 0);
        QCOMPARE(progress.last, std::size_t { 20000 });
    }
    {
        model::ClusterStore store;
        ImportReport report;
        CancelAfterFirstCall progress;
        progress.expectedTotal = 20000;
        progress.cancelAfter = 3;
        QVERIFY_THROWS_EXCEPTION(
            ImportCancelled, generateSimulatedCluster(SimulationSpec { 20000, 5 }, store, report, &progress));
        QCOMPARE(store.nodeCount(), std::size_t { 0 });
        QCOMPARE(store.podCount(), std::size_t { 0 });
    }
}

void TstSimulatedCluster::refusesNonEmptyStore()
{
    model::ClusterStore store;
    ImportReport report;
    generateSimulatedCluster(SimulationSpec { 10, 1 }, store, report);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateSimulatedCluster(SimulationSpec { 10, 1 }, store, report));
    QCOMPARE(store.nodeCount(), std::size_t { 10 });
}

QTEST_GUILESS_MAIN(TstSimulatedCluster)
#include "tst_simulatedcluster.moc"
