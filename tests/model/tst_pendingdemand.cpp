// SPDX-License-Identifier: Apache-2.0
// Tests of model/pendingdemand.h on real inputs: the Alibaba trace's default pod list (6,090
// pods waiting for a node: the trace places nothing), its gpuspec10 list (GPU models from
// gpu_spec), the EKS fixture (nothing pending) and the simulated fleet (pending gangs with the
// scheduler's message, one gang in four gated). Shape counts and totals must add up.

#include "importers/clusterloader.h"
#include "model/pendingdemand.h"

#include <QtTest>

#include <map>

using namespace fleet;
using model::CoreResource;

namespace {
const std::string kShared = FLEET_SHARED_DATA_DIR;
const std::string kOpenb = kShared + "/alibaba-gpu-v2023-openb/csv";

// Shapes partition the pending pods; totals add up to the store's pending total.
void checkAddsUp(const model::ClusterStore& store, const std::vector<model::PendingShape>& shapes)
{
    std::size_t pods = 0;
    model::ResourceVector total;
    for (const auto& s : shapes) {
        QCOMPARE(s.pods.size(), s.podCount);
        QVERIFY(s.podCount > 0);
        model::ResourceVector times;
        for (std::size_t i = 0; i < model::kCoreResourceCount; ++i)
            times.amounts[i] = s.request.amounts[i] * static_cast<std::int64_t>(s.podCount);
        QCOMPARE(s.total.amounts, times.amounts);
        for (const model::PodId p : s.pods) {
            QVERIFY(store.podIsPending(p));
            QCOMPARE(store.podRequest(p).amounts, s.request.amounts);
        }
        pods += s.podCount;
        total += s.total;
    }
    QCOMPARE(pods, store.counts().podsPending);
    QCOMPARE(total.amounts, store.totalPending().amounts);
    for (std::size_t i = 1; i < shapes.size(); ++i)
        QVERIFY(shapes[i - 1].podCount >= shapes[i].podCount);
}
} // namespace

class TestPendingDemand : public QObject {
    Q_OBJECT
private slots:
    void alibabaDefault();
    void alibabaGpuModels();
    void eksFixtureHasNoPendingPods();
    void simulatedGangs();
};

void TestPendingDemand::alibabaDefault()
{
    const auto c = importers::loadClusterFiles({kOpenb + "/openb_node_list_all_node.csv", kOpenb + "/openb_pod_list_default.csv"});
    QCOMPARE(c.store->counts().podsPending, std::size_t(6090));
    const auto shapes = model::groupPendingPods(*c.store);
    // Distinct (cpu_milli, memory_mib, num_gpu, num_gpu x gpu_milli) of the 6,090 pods.
    QCOMPARE(shapes.size(), std::size_t(139));
    checkAddsUp(*c.store, shapes);
    // The largest shape: 857 pods of 11.3 cores, 48 GiB, one whole GPU.
    QCOMPARE(shapes.front().podCount, std::size_t(857));
    QCOMPARE(shapes.front().request[CoreResource::Cpu], std::int64_t(11300));
    QCOMPARE(shapes.front().request[CoreResource::Memory], std::int64_t(49152) << 20);
    QCOMPARE(shapes.front().request[CoreResource::Gpu], std::int64_t(1000));
    QCOMPARE(shapes.front().gpuModel, std::string());
    QCOMPARE(c.store->totalPending()[CoreResource::Cpu], std::int64_t(71517364));
    QCOMPARE(c.store->totalPending()[CoreResource::Gpu], std::int64_t(3975170));
    for (const auto& s : shapes) {
        QCOMPARE(s.gatedPods, std::size_t(0));
        QVERIFY(s.reason.empty()); // a trace has no scheduler messages
    }
}

void TestPendingDemand::alibabaGpuModels()
{
    const auto c = importers::loadClusterFiles({kOpenb + "/openb_node_list_all_node.csv", kOpenb + "/openb_pod_list_gpuspec10.csv"});
    const auto shapes = model::groupPendingPods(*c.store);
    QCOMPARE(shapes.size(), std::size_t(283)); // gpu_spec "A|B|A" is the models A and B
    checkAddsUp(*c.store, shapes);
    std::map<std::string, std::size_t> byModel;
    for (const auto& s : shapes)
        byModel[s.gpuModel] += s.podCount;
    QCOMPARE(byModel["T4"], std::size_t(254));
    QCOMPARE(byModel["G2"], std::size_t(83));
    QCOMPARE(byModel["V100M16, V100M32"], std::size_t(49));
    QCOMPARE(byModel["G2, P100, T4, V100M16, V100M32"], std::size_t(12));
    QCOMPARE(byModel[""], std::size_t(6090 - 520));
}

void TestPendingDemand::eksFixtureHasNoPendingPods()
{
    const std::string dir = kShared + "/k8s-fixture-honeycomb-eks";
    const auto c = importers::loadClusterFiles({dir + "/nodes.json", dir + "/pods.json"});
    QVERIFY(model::groupPendingPods(*c.store).empty());
}

void TestPendingDemand::simulatedGangs()
{
    const auto c = importers::loadSimulatedCluster({20000, 1});
    const auto shapes = model::groupPendingPods(*c.store);
    QVERIFY(!shapes.empty());
    checkAddsUp(*c.store, shapes);
    std::size_t gated = 0, withReason = 0, gpuShapes = 0;
    for (const auto& s : shapes) {
        gated += s.gatedPods;
        withReason += s.reason.empty() ? 0 : 1;
        // Training gangs select their GPU product (inference pods select an instance type).
        if (s.request[CoreResource::Gpu] > 0 && c.store->podNamespace(s.pods.front()) == "ml-training") {
            ++gpuShapes;
            QVERIFY2(s.gpuModel.starts_with("NVIDIA-"), s.gpuModel.c_str());
        }
    }
    // 20,000 nodes: 5 pending gangs; the fourth is gated by Kueue.
    QVERIFY(gated > 128);
    QVERIFY(withReason >= 1);
    QVERIFY(gpuShapes >= 1);
    bool sawMessage = false;
    for (const auto& s : shapes)
        if (s.reason.find("nodes are available") != std::string::npos)
            sawMessage = true;
    QVERIFY(sawMessage);
}

QTEST_GUILESS_MAIN(TestPendingDemand)
#include "tst_pendingdemand.moc"
