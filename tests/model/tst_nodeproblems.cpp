// SPDX-License-Identifier: Apache-2.0
// Tests of model/nodeproblems.h: each rule on a small store (table-driven), then real inputs:
// the EKS fixture (a healthy cluster: no problems), its pods alone (every pod on an unknown
// node) and the simulated fleet (NotReady, cordoned, MemoryPressure / DiskPressure, unhealthy
// GPUs, with the counts the generator promises).

#include "importers/clusterloader.h"
#include "model/nodeproblems.h"

#include <QtTest>

#include <map>

using namespace fleet;
using model::CoreResource;
using model::NodeProblemKind;
using model::Readiness;
Q_DECLARE_METATYPE(NodeProblemKind)

namespace {
const std::string kShared = FLEET_SHARED_DATA_DIR;
const std::string kHoneycomb = kShared + "/k8s-fixture-honeycomb-eks";

model::NodeRecord healthyNode(const std::string& name)
{
    model::NodeRecord r;
    r.name = name;
    r.ready = Readiness::True;
    r.allocatable.setCore(CoreResource::Cpu, 8000);
    r.allocatable.setCore(CoreResource::Memory, 32LL << 30);
    r.allocatable.setCore(CoreResource::Pods, 110);
    r.conditions = {{"MemoryPressure", Readiness::False, 100, "KubeletHasSufficientMemory", "ok"},
                    {"Ready", Readiness::True, 100, "KubeletReady", "kubelet is posting ready status"}};
    return r;
}
} // namespace

class TestNodeProblems : public QObject {
    Q_OBJECT
private slots:
    void rules_data();
    void rules();
    void sortedByKindThenNode();
    void eksFixtureIsHealthy();
    void podsWithoutTheirNodes();
    void simulatedFleet();
};

void TestNodeProblems::rules_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<NodeProblemKind>("kind");
    QTest::addColumn<QString>("detail");
    QTest::addColumn<qint64>("since");
    QTest::newRow("healthy") << "none" << NodeProblemKind::NotReady << "" << qint64(0);
    QTest::newRow("NotReady") << "notready" << NodeProblemKind::NotReady << "Ready=False: Kubelet stopped posting node status." << qint64(1700000000);
    QTest::newRow("NotReady without conditions") << "notready-bare" << NodeProblemKind::NotReady << "Ready=Unknown" << qint64(0);
    QTest::newRow("MemoryPressure") << "memory" << NodeProblemKind::Condition << "MemoryPressure=True: kubelet has insufficient memory available" << qint64(1700000500);
    QTest::newRow("NetworkUnavailable") << "network" << NodeProblemKind::Condition << "NetworkUnavailable=True: RouteController failed" << qint64(5);
    QTest::newRow("a problem detector's condition") << "kernel" << NodeProblemKind::Condition << "KernelDeadlock=True: DockerHung" << qint64(0);
    QTest::newRow("unhealthy GPU") << "gpu" << NodeProblemKind::UnhealthyDevices << "GPUs: 8 in capacity, 7 allocatable" << qint64(0);
    QTest::newRow("unhealthy Neuron device") << "neuron" << NodeProblemKind::UnhealthyDevices << "aws.amazon.com/neuron: 16 in capacity, 15 allocatable" << qint64(0);
    QTest::newRow("over-committed cpu") << "overcpu" << NodeProblemKind::OverCommitted << "cpu: 9.5 of 8 cores requested" << qint64(0);
    QTest::newRow("cordoned") << "cordon" << NodeProblemKind::Cordoned << "spec.unschedulable" << qint64(0);
}

void TestNodeProblems::rules()
{
    QFETCH(QString, change);
    model::ClusterStore store;
    model::NodeRecord r = healthyNode("n1");
    if (change == "notready") {
        r.ready = Readiness::False;
        r.conditions[1] = {"Ready", Readiness::False, 1700000000, "NodeStatusUnknown", "Kubelet stopped posting node status."};
    } else if (change == "notready-bare") {
        r.ready = Readiness::Unknown;
        r.conditions.clear();
    } else if (change == "memory") {
        r.conditions[0] = {"MemoryPressure", Readiness::True, 1700000500, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available"};
    } else if (change == "network") {
        r.conditions.push_back({"NetworkUnavailable", Readiness::True, 5, "NoRouteCreated", "RouteController failed"});
    } else if (change == "kernel") {
        r.conditions.push_back({"KernelDeadlock", Readiness::True, 0, "DockerHung", ""});
    } else if (change == "gpu") {
        r.capacity.setCore(CoreResource::Gpu, 8000);
        r.allocatable.setCore(CoreResource::Gpu, 7000);
    } else if (change == "neuron") {
        const auto key = store.resources().keyFor("aws.amazon.com/neuron");
        r.capacity.set(key, 16);
        r.allocatable.set(key, 15);
    } else if (change == "cordon") {
        r.unschedulable = true;
    }
    store.addNode(r);
    if (change == "overcpu") {
        for (int i = 0; i < 2; ++i) {
            model::PodRecord p;
            p.namespaceName = "ns";
            p.name = "p" + std::to_string(i);
            p.nodeName = "n1";
            p.phase = model::PodPhase::Running;
            p.request.setCore(CoreResource::Cpu, 4750);
            store.addPod(p);
        }
    }
    store.finalize();
    const auto problems = model::findNodeProblems(store);
    if (change == "none") {
        QVERIFY(problems.empty());
        return;
    }
    QCOMPARE(problems.size(), std::size_t(1));
    QTEST(problems[0].kind, "kind");
    QTEST(QString::fromStdString(problems[0].detail), "detail");
    QTEST(qint64(problems[0].sinceUnixSeconds), "since");
    QCOMPARE(problems[0].node, model::NodeId(0));
}

void TestNodeProblems::sortedByKindThenNode()
{
    model::ClusterStore store;
    model::NodeRecord a = healthyNode("a");
    a.unschedulable = true;
    model::NodeRecord b = healthyNode("b");
    b.ready = Readiness::False;
    b.unschedulable = true;
    store.addNode(a);
    store.addNode(b);
    model::PodRecord p;
    p.namespaceName = "default";
    p.name = "web-1";
    p.nodeName = "node-gone";
    p.phase = model::PodPhase::Running;
    store.addPod(p);
    store.finalize();
    const auto problems = model::findNodeProblems(store);
    QCOMPARE(problems.size(), std::size_t(4));
    QCOMPARE(problems[0].kind, NodeProblemKind::NotReady);
    QCOMPARE(problems[1].kind, NodeProblemKind::Cordoned);
    QCOMPARE(problems[1].node, model::NodeId(0));
    QCOMPARE(problems[2].node, model::NodeId(1));
    QCOMPARE(problems[3].kind, NodeProblemKind::PodOnUnknownNode);
    QVERIFY(!problems[3].node.isValid());
    QCOMPARE(problems[3].pod, model::PodId(0));
    QCOMPARE(problems[3].detail, std::string("default/web-1 on node-gone"));
}

void TestNodeProblems::eksFixtureIsHealthy()
{
    const auto c = importers::loadClusterFiles({kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json"});
    QVERIFY(model::findNodeProblems(*c.store).empty());
    // The conditions the problems are read from: four per node, times as the input says.
    const auto conditions = c.store->nodeConditions(model::NodeId(0));
    QCOMPARE(conditions.size(), std::size_t(4));
    QCOMPARE(c.store->str(conditions[3].type), std::string_view("Ready"));
    QCOMPARE(conditions[0].lastTransitionUnixSeconds, std::int64_t(1638928008)); // 2021-12-08T01:46:48Z
    QCOMPARE(conditions[3].lastTransitionUnixSeconds, std::int64_t(1638928031)); // 2021-12-08T01:47:11Z
    QCOMPARE(c.store->str(conditions[3].reason), std::string_view("KubeletReady"));
}

void TestNodeProblems::podsWithoutTheirNodes()
{
    const auto c = importers::loadClusterFiles({kHoneycomb + "/pods.json"});
    const auto problems = model::findNodeProblems(*c.store);
    QCOMPARE(problems.size(), std::size_t(11));
    for (const auto& p : problems)
        QCOMPARE(p.kind, NodeProblemKind::PodOnUnknownNode);
}

void TestNodeProblems::simulatedFleet()
{
    constexpr std::size_t kNodes = 20000;
    const auto c = importers::loadSimulatedCluster({kNodes, 1});
    const auto problems = model::findNodeProblems(*c.store);
    std::map<NodeProblemKind, std::size_t> byKind;
    std::map<std::string, std::size_t> conditions;
    for (const auto& p : problems) {
        ++byKind[p.kind];
        if (p.kind == NodeProblemKind::Condition) {
            conditions[p.detail.substr(0, p.detail.find('='))]++;
            QVERIFY(p.sinceUnixSeconds > 1796040000 - 7 * 3600 && p.sinceUnixSeconds < 1796040000);
        }
        if (p.kind == NodeProblemKind::UnhealthyDevices)
            QVERIFY2(p.detail.starts_with("GPUs: ") && p.detail.find("in capacity") != std::string::npos, p.detail.c_str());
    }
    QCOMPARE(byKind[NodeProblemKind::NotReady], kNodes / 200 + 1);
    QCOMPARE(byKind[NodeProblemKind::Cordoned], kNodes * 7 / 1000 + 1);
    QVERIFY2(conditions["MemoryPressure"] > 20 && conditions["MemoryPressure"] < 100, qPrintable(QString::number(conditions["MemoryPressure"])));
    QVERIFY2(conditions["DiskPressure"] > 10 && conditions["DiskPressure"] < 70, qPrintable(QString::number(conditions["DiskPressure"])));
    QVERIFY2(byKind[NodeProblemKind::UnhealthyDevices] > 5, qPrintable(QString::number(byKind[NodeProblemKind::UnhealthyDevices])));
    // Only a node whose GPU turned unhealthy under running pods is over-committed, in GPUs.
    QVERIFY(byKind[NodeProblemKind::OverCommitted] > 0);
    QVERIFY(byKind[NodeProblemKind::OverCommitted] <= byKind[NodeProblemKind::UnhealthyDevices]);
    for (const auto& p : problems)
        if (p.kind == NodeProblemKind::OverCommitted)
            QVERIFY2(p.detail.starts_with("gpu: ") && p.detail.ends_with(" GPUs requested"), p.detail.c_str());
    QCOMPARE(byKind[NodeProblemKind::PodOnUnknownNode], std::size_t(0));
}

QTEST_GUILESS_MAIN(TestNodeProblems)
#include "tst_nodeproblems.moc"
