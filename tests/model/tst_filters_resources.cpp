// SPDX-License-Identifier: Apache-2.0
// Tests of NodeResourcesFit and NodePorts (model/scheduling/noderesources.cpp), the pods that
// never move and nodes the plan removed (model/scheduling/podfeasibility.cpp).

#include "tst_filters_fixture.h"

#include <QtTest>

using namespace fixture;

class TestFiltersResources : public QObject {
    Q_OBJECT
private slots:
    void fit_data();
    void fit();
    void gpuMessage();
    void zeroRequests_data();
    void zeroRequests();
    void sharedGpus_data();
    void sharedGpus();
    void hostPorts_data();
    void hostPorts();
    void neverMoves_data();
    void neverMoves();
    void nodeGone();
};

void TestFiltersResources::fit_data()
{
    // The target node: 4 cores, 16 GiB, 3 pods allowed, 7 MIG slices; a pod of 1 core and
    // 4 GiB and 1 slice already on it. The mover asks for what the row says.
    QTest::addColumn<qint64>("cpu");
    QTest::addColumn<qint64>("memory");
    QTest::addColumn<qint64>("slices");
    QTest::addColumn<int>("podsAlready");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("fits") << 1000LL << kGi << 0LL << 1 << QStringList {};
    QTest::newRow("cpu equal to free fits") << 3000LL << kGi << 0LL << 1 << QStringList {};
    QTest::newRow("cpu one milli over") << 3001LL << kGi << 0LL << 1 << QStringList { "insufficient-cpu" };
    QTest::newRow("memory equal to free fits") << 1000LL << 12 * kGi << 0LL << 1 << QStringList {};
    QTest::newRow("memory one byte over") << 1000LL << 12 * kGi + 1 << 0LL << 1 << QStringList { "insufficient-memory" };
    QTest::newRow("both over") << 4000LL << 16 * kGi << 0LL << 1 << QStringList { "insufficient-cpu", "insufficient-memory" };
    QTest::newRow("extended equal to free fits") << 100LL << kGi << 6LL << 1 << QStringList {};
    QTest::newRow("extended over") << 100LL << kGi << 7LL << 1 << QStringList { "insufficient-nvidia.com/mig-1g.10gb" };
    QTest::newRow("pod count at the limit") << 100LL << kGi << 0LL << 2 << QStringList {};
    QTest::newRow("pod count one past") << 100LL << kGi << 0LL << 3 << QStringList { "too-many-pods" };
    QTest::newRow("a pod requesting nothing: only the pod count") << 0LL << 0LL << 0LL << 3 << QStringList { "too-many-pods" };
    QTest::newRow("every resource, in plugin order")
        << 9000LL << 20 * kGi << 9LL << 3 << QStringList { "insufficient-cpu", "insufficient-memory", "insufficient-nvidia.com/mig-1g.10gb", "too-many-pods" };
}

void TestFiltersResources::fit()
{
    QFETCH(qint64, cpu);
    QFETCH(qint64, memory);
    QFETCH(qint64, slices);
    QFETCH(int, podsAlready);
    QFETCH(QStringList, expected);
    ClusterStore store;
    const ResourceKey mig = store.resources().keyFor("nvidia.com/mig-1g.10gb");
    store.addNode(node("home", 64000, 256 * kGi));
    NodeRecord target = node("target", 4000, 16 * kGi, 3);
    target.allocatable.set(mig, 7);
    target.capacity = target.allocatable;
    const NodeId t = store.addNode(target);
    PodRecord first = pod("resident", "target", 1000, 4 * kGi);
    first.request.set(mig, 1);
    store.addPod(first);
    for (int i = 1; i < podsAlready; ++i)
        store.addPod(pod("filler-" + std::to_string(i), "target", 0, 0));
    PodRecord mover = pod("mover", "home", cpu, memory);
    if (slices > 0)
        mover.request.set(mig, slices);
    const PodId id = store.addPod(mover);
    store.finalize();
    const PlanLedger state(store);
    const Verdict v = checkMove(state, id, t);
    QCOMPARE(codes(v), expected);
    QCOMPARE(PodFeasibility(state, id).feasible(t), expected.isEmpty());
}

void TestFiltersResources::gpuMessage()
{
    ClusterStore store;
    store.addNode(node("home"));
    NodeRecord target = node("gpu-node", 192000, 2048 * kGi);
    target.allocatable.setCore(CoreResource::Gpu, 8000);
    target.capacity = target.allocatable;
    target.gpuCount = 8;
    const NodeId t = store.addNode(target);
    PodRecord resident = pod("trainer", "gpu-node");
    resident.request.setCore(CoreResource::Gpu, 6000);
    store.addPod(resident);
    PodRecord mover = pod("mover", "home");
    mover.request.setCore(CoreResource::Gpu, 4000);
    const PodId id = store.addPod(mover);
    mover.name = "small";
    mover.request.setCore(CoreResource::Gpu, 2000);
    const PodId small = store.addPod(mover);
    store.finalize();
    const PlanLedger state(store);
    const Verdict v = checkMove(state, id, t);
    QCOMPARE(codes(v), QStringList { "insufficient-nvidia.com/gpu" });
    QCOMPARE(QString::fromStdString(v.reasons[0].message), QStringLiteral("needs 4 nvidia.com/gpu, gpu-node has 2 free of 8"));
    QVERIFY(checkMove(state, small, t).feasible); // equality fits
}

void TestFiltersResources::zeroRequests_data()
{
    // fitsRequest checks cpu, memory and ephemeral-storage only when the pod requests more than
    // 0, and skips an extended resource requested at 0; the pod count applies first. The target
    // is over-committed in everything: 4 cores holding 5, 4 GPUs (4 dropped out) holding 8,
    // 2 MIG slices holding 3, and room for exactly one more pod unless `full`.
    QTest::addColumn<qint64>("cpu");
    QTest::addColumn<qint64>("memory");
    QTest::addColumn<qint64>("gpuMilli");
    QTest::addColumn<qint64>("slices");
    QTest::addColumn<bool>("full");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("cpu 0 on a node over its cpu") << 0LL << kGi << -1LL << -1LL << false << QStringList {};
    QTest::newRow("cpu 1m on a node over its cpu") << 1LL << kGi << -1LL << -1LL << false << QStringList { "insufficient-cpu" };
    QTest::newRow("nvidia.com/gpu 0 on a node whose GPUs dropped") << 100LL << kGi << 0LL << -1LL << false << QStringList { "insufficient-cpu" };
    QTest::newRow("nvidia.com/gpu 0, cpu 0") << 0LL << kGi << 0LL << -1LL << false << QStringList {};
    QTest::newRow("nvidia.com/gpu 1 on a node whose GPUs dropped") << 0LL << kGi << 1000LL << -1LL << false
                                                                  << QStringList { "insufficient-nvidia.com/gpu" };
    QTest::newRow("an extended resource at 0") << 0LL << kGi << -1LL << 0LL << false << QStringList {};
    QTest::newRow("an extended resource at 1") << 0LL << kGi << -1LL << 1LL << false << QStringList { "insufficient-nvidia.com/mig-1g.10gb" };
    QTest::newRow("all 0 on a full node: the pod count still applies") << 0LL << 0LL << 0LL << 0LL << true << QStringList { "too-many-pods" };
    QTest::newRow("cpu 0 on a full node") << 0LL << kGi << -1LL << -1LL << true << QStringList { "too-many-pods" };
}

void TestFiltersResources::zeroRequests()
{
    QFETCH(qint64, cpu);
    QFETCH(qint64, memory);
    QFETCH(qint64, gpuMilli);
    QFETCH(qint64, slices);
    QFETCH(bool, full);
    QFETCH(QStringList, expected);
    ClusterStore store;
    const ResourceKey mig = store.resources().keyFor("nvidia.com/mig-1g.10gb");
    const ResourceKey gpu = store.resources().keyFor("nvidia.com/gpu");
    store.addNode(node("home", 64000, 256 * kGi));
    NodeRecord target = node("target", 4000, 64 * kGi, full ? 2 : 3);
    target.allocatable.setCore(CoreResource::Gpu, 4000);
    target.allocatable.set(mig, 2);
    target.capacity = target.allocatable;
    target.capacity.setCore(CoreResource::Gpu, 8000);
    target.gpuCount = 8;
    const NodeId t = store.addNode(target);
    PodRecord resident = pod("trainer", "target", 5000, 8 * kGi);
    resident.request.setCore(CoreResource::Gpu, 8000);
    store.addPod(resident);
    resident = pod("inference", "target", 0, 0);
    resident.request.set(mig, 3);
    store.addPod(resident);
    PodRecord mover = pod("mover", "home", cpu, memory);
    if (gpuMilli >= 0)
        mover.request.set(gpu, gpuMilli); // model units: milli-GPU
    if (slices >= 0)
        mover.request.set(mig, slices);
    const PodId id = store.addPod(mover);
    store.finalize();
    const PlanLedger state(store);
    const Verdict v = checkMove(state, id, t);
    QCOMPARE(codes(v), expected);
    const PodFeasibility f(state, id);
    QCOMPARE(f.feasible(t), expected.isEmpty());
    QCOMPARE(f.copiesThatFit(t, 10), expected.isEmpty() ? 1 : 0); // one pod of room
}

void TestFiltersResources::sharedGpus_data()
{
    // A node of 2 GPUs holding shares of 600 and 600 milli-GPU: best fit puts them on
    // different GPUs (600 + 600 > 1000), leaving 400 free on each, 800 in all.
    QTest::addColumn<int>("share");
    QTest::addColumn<qint64>("wholeGpuMilli");
    QTest::addColumn<bool>("feasible");
    QTest::newRow("a share that fits one GPU") << 400 << 0LL << true;
    QTest::newRow("a share that fits the sum only") << 500 << 0LL << false;
    QTest::newRow("a whole GPU on two shared GPUs") << 0 << 1000LL << false;
}

void TestFiltersResources::sharedGpus()
{
    QFETCH(int, share);
    QFETCH(qint64, wholeGpuMilli);
    QFETCH(bool, feasible);
    ClusterStore store;
    store.addNode(node("home"));
    NodeRecord target = node("shared", 96000, 512 * kGi);
    target.allocatable.setCore(CoreResource::Gpu, 2000);
    target.capacity = target.allocatable;
    target.gpuCount = 2;
    const NodeId t = store.addNode(target);
    for (const char* name : { "share-a", "share-b" }) {
        PodRecord p = pod(name, "shared");
        p.request.setCore(CoreResource::Gpu, 600);
        p.gpuShareMilli = 600;
        store.addPod(p);
    }
    PodRecord mover = pod("mover", "home");
    mover.request.setCore(CoreResource::Gpu, share > 0 ? share : wholeGpuMilli);
    mover.gpuShareMilli = share;
    const PodId id = store.addPod(mover);
    store.finalize();
    const PlanLedger state(store);
    const auto shares = state.nodeGpuShares(t);
    QCOMPARE(std::vector<std::int32_t>(shares.begin(), shares.end()), (std::vector<std::int32_t> { 600, 600 }));
    const Verdict v = checkMove(state, id, t);
    QCOMPARE(v.feasible, feasible);
    if (!feasible)
        QCOMPARE(codes(v), QStringList { "insufficient-nvidia.com/gpu" });
}

void TestFiltersResources::hostPorts_data()
{
    QTest::addColumn<int>("usedProtocol");
    QTest::addColumn<QString>("usedIp");
    QTest::addColumn<int>("wantedProtocol");
    QTest::addColumn<QString>("wantedIp");
    QTest::addColumn<bool>("conflict");
    const int tcp = static_cast<int>(PortProtocol::TCP), udp = static_cast<int>(PortProtocol::UDP);
    QTest::newRow("same port, any IP") << tcp << "" << tcp << "" << true;
    QTest::newRow("other protocol") << tcp << "" << udp << "" << false;
    QTest::newRow("0.0.0.0 in use, a specific IP wanted") << tcp << "0.0.0.0" << tcp << "10.0.0.1" << true;
    QTest::newRow("a specific IP in use, any wanted") << tcp << "10.0.0.1" << tcp << "" << true;
    QTest::newRow("two specific IPs") << tcp << "10.0.0.1" << tcp << "10.0.0.2" << false;
    QTest::newRow("the same specific IP") << udp << "10.0.0.1" << udp << "10.0.0.1" << true;
}

void TestFiltersResources::hostPorts()
{
    QFETCH(int, usedProtocol);
    QFETCH(QString, usedIp);
    QFETCH(int, wantedProtocol);
    QFETCH(QString, wantedIp);
    QFETCH(bool, conflict);
    ClusterStore store;
    store.addNode(node("home"));
    const NodeId t = store.addNode(node("target"));
    PodRecord resident = pod("ingress", "target");
    resident.hostPorts = { { 8080, static_cast<PortProtocol>(usedProtocol), store.strings().intern(usedIp.toStdString()) } };
    store.addPod(resident);
    PodRecord mover = pod("mover", "home");
    mover.hostPorts = { { 8080, static_cast<PortProtocol>(wantedProtocol), store.strings().intern(wantedIp.toStdString()) },
        { 9090, PortProtocol::TCP, {} } };
    const PodId id = store.addPod(mover);
    store.finalize();
    const PlanLedger state(store);
    QCOMPARE(codes(checkMove(state, id, t)), conflict ? QStringList { "host-port:8080" } : QStringList {});
}

void TestFiltersResources::neverMoves_data()
{
    QTest::addColumn<int>("kind"); // 0 DaemonSet, 1 mirror, 2 resource claims
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("DaemonSet") << 0 << QStringList { "daemonset-pod" };
    QTest::newRow("mirror") << 1 << QStringList { "mirror-pod" };
    QTest::newRow("resource claims") << 2 << QStringList { "unsupported:dynamic-resource-allocation" };
}

void TestFiltersResources::neverMoves()
{
    QFETCH(int, kind);
    QFETCH(QStringList, expected);
    ClusterStore store;
    store.addNode(node("home"));
    NodeRecord target = node("target", 10); // it would fail resources too: only the one reason shows
    const NodeId t = store.addNode(target);
    PodRecord p = pod("agent", "home", 500);
    if (kind == 0)
        p.ownerKind = OwnerKind::DaemonSet;
    if (kind == 1) {
        p.ownerKind = OwnerKind::Node;
        p.mirror = true;
    }
    if (kind == 2)
        p.flags = PodFlagResourceClaims;
    const PodId id = store.addPod(p);
    store.finalize();
    const PlanLedger state(store);
    QCOMPARE(codes(checkMove(state, id, t)), expected);
    const PodFeasibility f(state, id);
    QVERIFY(f.immovable());
    std::vector<std::uint8_t> mask;
    f.feasibleNodes(mask);
    QCOMPARE(mask, (std::vector<std::uint8_t> { 0, 0 }));
}

void TestFiltersResources::nodeGone()
{
    ClusterStore store;
    store.addNode(node("home"));
    const NodeId t = store.addNode(node("target"));
    const PodId id = store.addPod(pod("web-1", "home"));
    store.finalize();
    PlanLedger state(store);
    QVERIFY(checkMove(state, id, t).feasible);
    QVERIFY(state.setNodePresent(t, false));
    QCOMPARE(codes(checkMove(state, id, t)), QStringList { "node-gone" });
    QVERIFY(!state.movePod(id, t));
    QVERIFY(state.setNodePresent(t, true));
    QVERIFY(checkMove(state, id, t).feasible);
}

QTEST_GUILESS_MAIN(TestFiltersResources)
#include "tst_filters_resources.moc"
