// SPDX-License-Identifier: Apache-2.0
// Tests of model/clusterstore.h: nodes, pods and workloads as columns, finalize() binding
// pods to nodes by spec.nodeName, counts and totals. What the store interns (strings, labels,
// workloads, constraint sets) is tested in tst_clusterstoreinterning.cpp.
//
// Rules checked (Kubernetes docs): a pod belongs to the node named in spec.nodeName;
// Succeeded and Failed pods use nothing ("Pod Lifecycle"); a pod without nodeName is
// pending demand; every pod takes one of the node's "pods" slots.

#include "model/clusterstore.h"
#include "storerecords.h"

#include <QtTest>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

using namespace fleet::model;
using namespace fleet::testing;

Q_DECLARE_METATYPE(fleet::model::PodPhase)

class TestClusterStore : public QObject {
    Q_OBJECT

private slots:
    void addNodesKeepsEverything();
    void capacityDefaultsToAllocatable();
    void addNodeRejectsBadNames_data();
    void addNodeRejectsBadNames();
    void addPodRejectsMissingNames_data();
    void addPodRejectsMissingNames();
    void podsBeforeFinalizeAreUnbound();
    void finalizeBindsByNodeName();
    void podCounting_data();
    void podCounting();
    void unknownNodeIsReportedAndCountedNowhere();
    void nodePodsRanges();
    void finalizeTwiceIsTheSame();
    void extendedResources();
    void mirrorPods();
    void totals();
    void moveKeepsEverything();
    void duplicatePodsFound();
    void countsPartitionPods();
    void overflowingTotalsThrow_data();
    void overflowingTotalsThrow();
    void conditionsKeptAsGiven();
    void podLabelsGatesAndMessage();
};

void TestClusterStore::addNodesKeepsEverything()
{
    ClusterStore store;
    NodeRecord r = node("gpu-1", 96000, 768 * kGi);
    r.allocatable.setCore(CoreResource::Gpu, 8000);
    r.unschedulable = true;
    r.ready = Readiness::False;
    r.gpuModel = "A100-SXM4-80GB";
    r.gpuCount = 8;
    r.instanceType = "p4d.24xlarge";
    const NodeId a = store.addNode(r);
    const NodeId b = store.addNode(node("cpu-1", 4000, 16 * kGi));
    QCOMPARE(a.value, 0u);
    QCOMPARE(b.value, 1u);
    QCOMPARE(store.nodeCount(), std::size_t { 2 });
    QCOMPARE(store.nodeName(a), std::string_view("gpu-1"));
    QCOMPARE(store.findNode("cpu-1"), b);
    QVERIFY(!store.findNode("nope").isValid());
    QVERIFY(!store.findNode("").isValid());
    COMPARE_VECTOR(store.nodeAllocatable(a), vec(96000, 768 * kGi, 8000, 110));
    QVERIFY(store.nodeUnschedulable(a));
    QVERIFY(!store.nodeUnschedulable(b));
    QCOMPARE(store.nodeReadiness(a), Readiness::False);
    QCOMPARE(store.nodeReadiness(b), Readiness::True);
    QCOMPARE(store.nodeGpuModel(a), std::string_view("A100-SXM4-80GB"));
    QCOMPARE(store.nodeGpuModel(b), std::string_view());
    QCOMPARE(store.nodeGpuCount(a), 8);
    QCOMPARE(store.nodeInstanceType(a), std::string_view("p4d.24xlarge"));
    COMPARE_VECTOR(store.nodeRequested(a), ResourceVector {});
    QVERIFY(store.nodePods(a).empty());
}

void TestClusterStore::capacityDefaultsToAllocatable()
{
    ClusterStore store;
    NodeRecord r = node("n", 3920, 15 * kGi);
    r.capacity.setCore(CoreResource::Cpu, 4000);
    const NodeId n = store.addNode(r);
    COMPARE_VECTOR(store.nodeCapacity(n), vec(4000, 15 * kGi, 0, 110));
    COMPARE_VECTOR(store.nodeAllocatable(n), vec(3920, 15 * kGi, 0, 110));
}

void TestClusterStore::addNodeRejectsBadNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("message");
    QTest::newRow("duplicate") << QStringLiteral("n1") << QStringLiteral("duplicate node \"n1\"");
    QTest::newRow("empty") << QString() << QStringLiteral("node without a name");
}

void TestClusterStore::addNodeRejectsBadNames()
{
    QFETCH(QString, name);
    QFETCH(QString, message);
    ClusterStore store;
    store.addNode(node("n1", 1000, kGi));
    try {
        store.addNode(node(name.toStdString(), 2000, kGi));
        QFAIL("no exception");
    } catch (const std::invalid_argument& e) {
        QCOMPARE(QString::fromUtf8(e.what()), message);
    }
    // Nothing half-added: one node, the first one's columns intact.
    QCOMPARE(store.nodeCount(), std::size_t { 1 });
    QCOMPARE(store.nodeAllocatable(NodeId(0))[CoreResource::Cpu], 1000);
    QCOMPARE(store.findNode("n1"), NodeId(0));
}

void TestClusterStore::addPodRejectsMissingNames_data()
{
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("name");
    QTest::newRow("no namespace") << QString() << QStringLiteral("p");
    QTest::newRow("no name") << QStringLiteral("default") << QString();
}

void TestClusterStore::addPodRejectsMissingNames()
{
    QFETCH(QString, ns);
    QFETCH(QString, name);
    ClusterStore store;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, store.addPod(pod(ns.toStdString(), name.toStdString(), "", 1, 1)));
    QCOMPARE(store.podCount(), std::size_t { 0 });
}

void TestClusterStore::podsBeforeFinalizeAreUnbound()
{
    ClusterStore store;
    store.addNode(node("n1", 1000, kGi));
    const PodId p = store.addPod(pod("default", "a", "n1", 100, 1));
    QVERIFY(!store.podNode(p).isValid());
    QVERIFY(!store.podIsCounted(p));
    QCOMPARE(store.podNodeName(p), std::string_view("n1"));
    QVERIFY(store.nodePods(NodeId(0)).empty());
}

void TestClusterStore::finalizeBindsByNodeName()
{
    ClusterStore store;
    const NodeId n1 = store.addNode(node("n1", 4000, 16 * kGi));
    const NodeId n2 = store.addNode(node("n2", 4000, 16 * kGi));
    const PodId a = store.addPod(pod("default", "a", "n2", 500, kGi));
    const PodId b = store.addPod(pod("default", "b", "n1", 250, 2 * kGi));
    const PodId c = store.addPod(pod("kube-system", "c", "n2", 100, kGi / 2));
    QCOMPARE(store.finalize(), std::size_t { 0 });
    QCOMPARE(store.podNode(a), n2);
    QCOMPARE(store.podNode(b), n1);
    QCOMPARE(store.podNode(c), n2);
    QCOMPARE(store.podNamespace(c), std::string_view("kube-system"));
    QCOMPARE(store.podName(c), std::string_view("c"));
    // Every pod takes one pod slot.
    COMPARE_VECTOR(store.podRequest(a), vec(500, kGi, 0, 1));
    COMPARE_VECTOR(store.nodeRequested(n1), vec(250, 2 * kGi, 0, 1));
    COMPARE_VECTOR(store.nodeRequested(n2), vec(600, kGi + kGi / 2, 0, 2));
}

void TestClusterStore::podCounting_data()
{
    QTest::addColumn<QString>("nodeName");
    QTest::addColumn<PodPhase>("phase");
    QTest::addColumn<bool>("bound"); // podNode() valid
    QTest::addColumn<bool>("counted"); // uses the node's resources
    QTest::addColumn<bool>("pending"); // waiting for a node
    QTest::addColumn<bool>("terminal");

    QTest::newRow("Running on a node") << QStringLiteral("n1") << PodPhase::Running << true << true << false << false;
    QTest::newRow("Pending, already bound") << QStringLiteral("n1") << PodPhase::Pending << true << true << false << false;
    QTest::newRow("Unknown phase on a node") << QStringLiteral("n1") << PodPhase::Unknown << true << true << false << false;
    QTest::newRow("Succeeded on a node") << QStringLiteral("n1") << PodPhase::Succeeded << true << false << false << true;
    QTest::newRow("Failed on a node") << QStringLiteral("n1") << PodPhase::Failed << true << false << false << true;
    QTest::newRow("no nodeName") << QStringLiteral("") << PodPhase::Pending << false << false << true << false;
    QTest::newRow("no nodeName, Failed") << QStringLiteral("") << PodPhase::Failed << false << false << false << true;
    QTest::newRow("unknown node") << QStringLiteral("gone") << PodPhase::Running << false << false << false << false;
}

void TestClusterStore::podCounting()
{
    QFETCH(QString, nodeName);
    QFETCH(PodPhase, phase);
    QFETCH(bool, bound);
    QFETCH(bool, counted);
    QFETCH(bool, pending);
    QFETCH(bool, terminal);
    ClusterStore store;
    const NodeId n1 = store.addNode(node("n1", 4000, 16 * kGi));
    const PodId p = store.addPod(pod("default", "p", nodeName.toStdString(), 700, kGi, phase));
    store.finalize();
    QCOMPARE(store.podPhase(p), phase);
    QCOMPARE(store.podNode(p).isValid(), bound);
    QCOMPARE(store.podIsCounted(p), counted);
    QCOMPARE(store.podIsPending(p), pending);
    QCOMPARE(store.podIsTerminal(p), terminal);
    COMPARE_VECTOR(store.nodeRequested(n1), counted ? vec(700, kGi, 0, 1) : ResourceVector {});
    QCOMPARE(store.nodePods(n1).size(), std::size_t { counted ? 1u : 0u });
    COMPARE_VECTOR(store.totalRequested(), counted ? vec(700, kGi, 0, 1) : ResourceVector {});
    COMPARE_VECTOR(store.totalPending(), pending ? vec(700, kGi, 0, 1) : ResourceVector {});
}

void TestClusterStore::unknownNodeIsReportedAndCountedNowhere()
{
    ClusterStore store;
    const NodeId n1 = store.addNode(node("n1", 4000, 16 * kGi));
    store.addPod(pod("default", "ok", "n1", 100, kGi));
    const PodId lost1 = store.addPod(pod("default", "lost-1", "n9", 200, kGi));
    const PodId lost2 = store.addPod(pod("default", "lost-2", "n8", 300, kGi));
    QCOMPARE(store.finalize(), std::size_t { 2 });
    for (PodId p : { lost1, lost2 }) {
        QVERIFY(!store.podNode(p).isValid());
        QVERIFY(!store.podIsCounted(p));
        QVERIFY(!store.podIsPending(p));
    }
    QCOMPARE(store.podNodeName(lost1), std::string_view("n9"));
    COMPARE_VECTOR(store.nodeRequested(n1), vec(100, kGi, 0, 1));
    COMPARE_VECTOR(store.totalRequested(), vec(100, kGi, 0, 1));
    COMPARE_VECTOR(store.totalPending(), ResourceVector {});
    // The node "n9" is not created by a pod naming it.
    QVERIFY(!store.findNode("n9").isValid());
}

void TestClusterStore::nodePodsRanges()
{
    ClusterStore store;
    for (int n = 0; n < 4; ++n)
        store.addNode(node("n" + std::to_string(n), 64000, 256 * kGi));
    // Pods spread over nodes 0, 1 and 3 in an interleaved order; node 2 gets none.
    const char* placement[] = { "n3", "n0", "n1", "n3", "", "n0", "n3", "n1", "gone", "n3" };
    std::vector<std::vector<std::uint32_t>> expected(4);
    for (std::uint32_t i = 0; i < std::size(placement); ++i) {
        const PodPhase phase = i == 6 ? PodPhase::Succeeded : PodPhase::Running;
        store.addPod(pod("default", "p" + std::to_string(i), placement[i], 10, 1, phase));
        const std::string name = placement[i];
        if (name.size() == 2 && phase == PodPhase::Running)
            expected[static_cast<std::size_t>(name[1] - '0')].push_back(i);
    }
    QCOMPARE(store.finalize(), std::size_t { 1 });
    std::size_t total = 0;
    const PodId* previousEnd = nullptr;
    for (std::uint32_t n = 0; n < 4; ++n) {
        const auto pods = store.nodePods(NodeId(n));
        // In pod id order, exactly the counted pods of the node.
        QCOMPARE(ids(pods), expected[n]);
        for (PodId p : pods)
            QCOMPARE(store.podNode(p), NodeId(n));
        // The ranges of consecutive nodes are adjacent slices of one array.
        if (previousEnd)
            QCOMPARE(pods.data(), previousEnd);
        previousEnd = pods.data() + pods.size();
        total += pods.size();
        QCOMPARE(store.nodeRequested(NodeId(n))[CoreResource::Pods], static_cast<std::int64_t>(pods.size()));
    }
    QCOMPARE(total, std::size_t { 7 });
    QVERIFY(store.nodePods(NodeId(2)).empty());
}

void TestClusterStore::finalizeTwiceIsTheSame()
{
    ClusterStore store;
    const NodeId n1 = store.addNode(node("n1", 4000, 16 * kGi));
    store.addPod(pod("default", "a", "n1", 100, kGi));
    store.addPod(pod("default", "b", "missing", 100, kGi));
    QCOMPARE(store.finalize(), std::size_t { 1 });
    QCOMPARE(store.finalize(), std::size_t { 1 });
    COMPARE_VECTOR(store.nodeRequested(n1), vec(100, kGi, 0, 1));
    QCOMPARE(store.nodePods(n1).size(), std::size_t { 1 });
    // Adding more and finalizing again takes the new pods and nodes in.
    const NodeId n2 = store.addNode(node("missing", 4000, 16 * kGi));
    store.addPod(pod("default", "c", "n1", 50, kGi));
    QCOMPARE(store.finalize(), std::size_t { 0 });
    COMPARE_VECTOR(store.nodeRequested(n1), vec(150, 2 * kGi, 0, 2));
    COMPARE_VECTOR(store.nodeRequested(n2), vec(100, kGi, 0, 1));
}

void TestClusterStore::extendedResources()
{
    ClusterStore store;
    const ResourceKey mig = store.resources().keyFor("nvidia.com/mig-1g.10gb");
    const ResourceKey efa = store.resources().keyFor("vpc.amazonaws.com/efa");
    const ResourceKey neuron = store.resources().keyFor("aws.amazon.com/neuron");
    QVERIFY(mig >= kFirstExtendedKey);
    QCOMPARE(store.resources().keyFor("nvidia.com/mig-1g.10gb"), mig);
    QCOMPARE(store.resources().find("aws.amazon.com/neuron"), static_cast<int>(neuron));
    QCOMPARE(store.resources().find("nope"), -1);
    QCOMPARE(store.resources().keyFor("nvidia.com/gpu"), static_cast<ResourceKey>(CoreResource::Gpu));

    NodeRecord r = node("p5", 192000, 2048 * kGi);
    r.allocatable.set(mig, 7);
    r.allocatable.set(efa, 32);
    r.capacity.set(mig, 7);
    r.capacity.set(neuron, 16); // in capacity only: allocatable 0
    const NodeId n = store.addNode(r);
    const NodeId plain = store.addNode(node("plain", 4000, 16 * kGi));

    auto extended = [&](PodRecord p, std::initializer_list<std::pair<ResourceKey, std::int64_t>> e) {
        for (const auto& [k, v] : e)
            p.request.set(k, v);
        return store.addPod(p);
    };
    const PodId a = extended(pod("ml", "a", "p5", 1000, kGi), { { mig, 2 }, { efa, 1 } });
    extended(pod("ml", "b", "p5", 1000, kGi), { { mig, 3 } });
    extended(pod("ml", "done", "p5", 1000, kGi, PodPhase::Succeeded), { { mig, 1 } });
    extended(pod("ml", "pending", "", 1000, kGi), { { mig, 1 } });
    extended(pod("ml", "elsewhere", "plain", 1000, kGi), { { efa, 4 } });
    store.finalize();

    const auto podExt = store.podExtendedRequest(a);
    QCOMPARE(podExt.size(), std::size_t { 2 });
    QCOMPARE(podExt[0], (std::pair<ResourceKey, std::int64_t> { mig, 2 }));
    QCOMPARE(podExt[1], (std::pair<ResourceKey, std::int64_t> { efa, 1 }));

    const auto alloc = store.nodeExtendedAllocatable(n);
    const auto cap = store.nodeExtendedCapacity(n);
    QCOMPARE(alloc.size(), std::size_t { 3 });
    QCOMPARE(cap.size(), std::size_t { 3 });
    QCOMPARE(alloc[0], (std::pair<ResourceKey, std::int64_t> { mig, 7 }));
    QCOMPARE(alloc[1], (std::pair<ResourceKey, std::int64_t> { efa, 32 }));
    QCOMPARE(alloc[2], (std::pair<ResourceKey, std::int64_t> { neuron, 0 }));
    QCOMPARE(cap[0], (std::pair<ResourceKey, std::int64_t> { mig, 7 }));
    QCOMPARE(cap[1], (std::pair<ResourceKey, std::int64_t> { efa, 32 })); // defaults to allocatable
    QCOMPARE(cap[2], (std::pair<ResourceKey, std::int64_t> { neuron, 16 }));
    QCOMPARE(store.nodeExtendedRequested(n, mig), 5);
    QCOMPARE(store.nodeExtendedRequested(n, efa), 1);
    QCOMPARE(store.nodeExtendedRequested(n, neuron), 0);
    QVERIFY(store.nodeExtendedAllocatable(plain).empty());
    QCOMPARE(store.nodeExtendedRequested(plain, efa), 0); // the node has no efa to count against
}

void TestClusterStore::mirrorPods()
{
    ClusterStore store;
    PodRecord byOwner = pod("kube-system", "kube-proxy-n1", "", 1, 1);
    byOwner.ownerKind = OwnerKind::Node;
    byOwner.ownerName = "n1";
    PodRecord byAnnotation = pod("kube-system", "etcd-n1", "", 1, 1);
    byAnnotation.mirror = true;
    const PodId a = store.addPod(byOwner);
    const PodId b = store.addPod(byAnnotation);
    const PodId c = store.addPod(pod("default", "plain", "", 1, 1));
    QVERIFY(store.podIsMirror(a));
    QVERIFY(store.podIsMirror(b));
    QVERIFY(!store.podIsMirror(c));
}

void TestClusterStore::totals()
{
    ClusterStore store;
    NodeRecord g = node("g", 96000, 1024 * kGi);
    g.allocatable.setCore(CoreResource::Gpu, 8000);
    g.allocatable.setCore(CoreResource::EphemeralStorage, 100 * kGi);
    store.addNode(g);
    store.addNode(node("c", 4000, 16 * kGi));
    PodRecord train = pod("ml", "train", "g", 8000, 64 * kGi);
    train.request.setCore(CoreResource::Gpu, 4000);
    train.request.setCore(CoreResource::EphemeralStorage, 10 * kGi);
    store.addPod(train);
    store.addPod(pod("web", "w", "c", 500, kGi));
    store.addPod(pod("web", "done", "c", 500, kGi, PodPhase::Succeeded));
    PodRecord waiting = pod("ml", "waiting", "", 16000, 128 * kGi);
    waiting.request.setCore(CoreResource::Gpu, 500);
    store.addPod(waiting);
    store.addPod(pod("ml", "waiting-done", "", 16000, 128 * kGi, PodPhase::Failed));
    store.finalize();
    COMPARE_VECTOR(store.totalAllocatable(), vec(100000, 1040 * kGi, 8000, 220, 100 * kGi));
    COMPARE_VECTOR(store.totalRequested(), vec(8500, 65 * kGi, 4000, 2, 10 * kGi));
    COMPARE_VECTOR(store.totalPending(), vec(16000, 128 * kGi, 500, 1));
    QVERIFY(store.memoryBytes() > 0);
}

// The pool behind every name: many strings (the table grows), very long ones (a block of
// their own), and views that stay valid throughout.
void TestClusterStore::moveKeepsEverything()
{
    ClusterStore store;
    store.addNode(node("n1", 1000, kGi, "us-east-1a"));
    PodRecord p = pod("default", "a", "n1", 100, kGi);
    p.nodeSelector.emplace_back("topology.kubernetes.io/zone", "us-east-1a");
    store.addPod(p);
    store.finalize();
    const ClusterStore moved = std::move(store);
    QCOMPARE(moved.nodeName(NodeId(0)), std::string_view("n1"));
    QCOMPARE(moved.str(moved.nodeLabels(NodeId(0))[0].value), std::string_view("us-east-1a"));
    QCOMPARE(moved.str(moved.podNodeSelector(PodId(0))[0].key), std::string_view("topology.kubernetes.io/zone"));
    QCOMPARE(moved.findNode("n1"), NodeId(0));
    QCOMPARE(moved.nodePods(NodeId(0)).size(), std::size_t { 1 });
}

void TestClusterStore::duplicatePodsFound()
{
    ClusterStore store;
    store.addNode(node("n1", 4000, 1 << 30));
    store.addPod(pod("a", "p", "n1", 100, 0));
    store.addPod(pod("b", "p", "n1", 100, 0)); // same name, other namespace: fine
    store.addPod(pod("a", "q", "", 100, 0));
    QVERIFY(!store.findDuplicatePod().first.isValid());
    store.addPod(pod("a", "q", "n1", 100, 0));
    const auto [dup, first] = store.findDuplicatePod();
    QCOMPARE(dup.value, 3u);
    QCOMPARE(first.value, 2u);
}

void TestClusterStore::countsPartitionPods()
{
    ClusterStore store;
    NodeRecord cordoned = node("n2", 4000, 1 << 30);
    cordoned.unschedulable = true;
    cordoned.ready = Readiness::Unknown;
    store.addNode(node("n1", 4000, 1 << 30));
    store.addNode(cordoned);
    store.addPod(pod("a", "counted", "n1", 100, 0));
    store.addPod(pod("a", "pending", "", 100, 0));
    store.addPod(pod("a", "elsewhere", "gone", 100, 0));
    store.addPod(pod("a", "done", "n1", 100, 0, PodPhase::Succeeded));
    store.addPod(pod("a", "failed", "", 100, 0, PodPhase::Failed));
    store.finalize();
    const ClusterCounts c = store.counts();
    QCOMPARE(c.nodes, std::size_t(2));
    QCOMPARE(c.nodesReady, std::size_t(1));
    QCOMPARE(c.nodesNotReady, std::size_t(1));
    QCOMPARE(c.nodesCordoned, std::size_t(1));
    QCOMPARE(c.pods, std::size_t(5));
    QCOMPARE(c.podsCounted, std::size_t(1));
    QCOMPARE(c.podsPending, std::size_t(1));
    QCOMPARE(c.podsOnUnknownNodes, std::size_t(1));
    QCOMPARE(c.podsTerminal, std::size_t(2));
    QVERIFY(store.podIsOnUnknownNode(PodId(2)));
    QVERIFY(!store.podIsOnUnknownNode(PodId(1)));
}

void TestClusterStore::overflowingTotalsThrow_data()
{
    QTest::addColumn<qlonglong>("nodeMemory");
    QTest::addColumn<qlonglong>("podCpu");
    QTest::addColumn<QString>("expected");
    const qlonglong big = std::numeric_limits<std::int64_t>::max() / 2 + 1;
    QTest::newRow("allocatable total") << big << 1LL << "total allocatable or capacity, summed up to node \"n2\", exceeds";
    QTest::newRow("requests on a node") << 1LL << big << "sum of pod requests on node \"n1\"";
}

void TestClusterStore::overflowingTotalsThrow()
{
    QFETCH(qlonglong, nodeMemory);
    QFETCH(qlonglong, podCpu);
    QFETCH(QString, expected);
    ClusterStore store;
    store.addNode(node("n1", 4000, nodeMemory));
    store.addNode(node("n2", 4000, nodeMemory));
    store.addPod(pod("a", "p1", "n1", podCpu, 0));
    store.addPod(pod("a", "p2", "n1", podCpu, 0));
    try {
        store.finalize();
        QFAIL("expected std::overflow_error");
    } catch (const std::overflow_error& e) {
        QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
}

void TestClusterStore::conditionsKeptAsGiven()
{
    ClusterStore store;
    NodeRecord r = node("n1", 1000, kGi);
    r.conditions.push_back({"MemoryPressure", Readiness::True, 1700000000, "KubeletHasInsufficientMemory", "kubelet has insufficient memory"});
    r.conditions.push_back({"Ready", Readiness::True, 1690000000, "KubeletReady", ""});
    const NodeId a = store.addNode(r);
    const NodeId b = store.addNode(node("n2", 1000, kGi));
    QCOMPARE(store.nodeConditions(a).size(), std::size_t(2));
    const NodeCondition& c = store.nodeConditions(a)[0];
    QCOMPARE(store.str(c.type), std::string_view("MemoryPressure"));
    QCOMPARE(c.status, Readiness::True);
    QCOMPARE(c.lastTransitionUnixSeconds, std::int64_t(1700000000));
    QCOMPARE(store.str(c.reason), std::string_view("KubeletHasInsufficientMemory"));
    QCOMPARE(store.str(c.message), std::string_view("kubelet has insufficient memory"));
    QCOMPARE(store.str(store.nodeConditions(a)[1].message), std::string_view(""));
    QVERIFY(store.nodeConditions(b).empty());
}

void TestClusterStore::podLabelsGatesAndMessage()
{
    ClusterStore store;
    PodRecord p = pod("ns", "p1", "", 100, 1);
    p.labels = {{"app", "web"}, {"tier", "front"}};
    p.schedulingGates = {"kueue.x-k8s.io/admission", "example.com/quota"};
    p.schedulingMessage = "0/3 nodes are available: 3 Insufficient cpu.";
    const PodId a = store.addPod(p);
    const PodId b = store.addPod(pod("ns", "p2", "", 100, 1));
    QCOMPARE(store.podLabels(a).size(), std::size_t(2));
    QCOMPARE(store.str(store.podLabels(a)[1].value), std::string_view("front"));
    QCOMPARE(store.podSchedulingGates(a).size(), std::size_t(2));
    QCOMPARE(store.str(store.podSchedulingGates(a)[0]), std::string_view("kueue.x-k8s.io/admission"));
    QCOMPARE(store.podSchedulingMessage(a), std::string_view("0/3 nodes are available: 3 Insufficient cpu."));
    QVERIFY(store.podLabels(b).empty());
    QVERIFY(store.podSchedulingGates(b).empty());
    QVERIFY(store.podSchedulingMessage(b).empty());
}

// 200,000 pods of 1,000 workloads: one label set per workload, not per pod.
QTEST_GUILESS_MAIN(TestClusterStore)
#include "tst_clusterstore.moc"
