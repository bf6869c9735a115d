// copyStore() (model/storecopy.h): a copy of a finalized store, live tombstones included, has the
// same rows under the same ids, the same strings under the same StringIds (so a Topology of the
// source holds for it), the same sums, budgets and namespace labels; adding a pod to the copy
// leaves the source as it was.

#include "model/clusterchange.h"
#include "model/storecopy.h"

#include <QtTest>

using namespace fleet::model;

namespace {

constexpr std::int64_t kGi = std::int64_t { 1 } << 30;

ClusterStore source()
{
    ClusterStore s;
    for (int i = 0; i < 3; ++i) {
        NodeRecord r;
        r.name = "n" + std::to_string(i);
        r.allocatable.setCore(CoreResource::Cpu, 4000);
        r.allocatable.setCore(CoreResource::Memory, 16 * kGi);
        r.allocatable.set(s.resources().keyFor("example.com/fpga"), 2);
        r.labels.emplace_back("topology.kubernetes.io/zone", i == 2 ? "b" : "a");
        r.taints.emplace_back("nvidia.com/gpu", "", TaintEffect::NoSchedule);
        r.ready = Readiness::True;
        s.addNode(r);
    }
    for (int i = 0; i < 6; ++i) {
        PodRecord r;
        r.namespaceName = i < 3 ? "ml" : "default";
        r.name = "p" + std::to_string(i);
        r.uid = "u" + std::to_string(i);
        r.nodeName = i == 5 ? "" : "n" + std::to_string(i % 3);
        r.phase = i == 5 ? PodPhase::Pending : PodPhase::Running;
        r.request.setCore(CoreResource::Cpu, 100 * (i + 1));
        r.request.setCore(CoreResource::Memory, kGi);
        r.request.extended.emplace_back(s.resources().keyFor("example.com/fpga"), 1);
        r.labels.emplace_back("app", i < 3 ? "train" : "web");
        r.ownerKind = OwnerKind::Job;
        r.ownerName = i < 3 ? "train" : "web";
        r.tolerations.emplace_back("nvidia.com/gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule);
        s.addPod(r);
    }
    s.setNamespaceLabels("ml", { { "team", "research" } });
    DisruptionBudgetRecord b;
    b.namespaceName = "ml";
    b.name = "train-pdb";
    b.matchLabels = { { "app", "train" } };
    b.maxUnavailable = { true, false, 1 };
    s.addDisruptionBudget(b);
    s.finalize();
    ClusterChangeBatch gone; // a live cluster: one pod and one node deleted (tombstones)
    gone.deletedPods.emplace_back("default", "p4");
    gone.deletedNodes.push_back("n2");
    applyChanges(s, gone);
    return s;
}

} // namespace

class TestStoreCopy : public QObject {
    Q_OBJECT
private slots:
    void sameRowsUnderTheSameIds();
    void cancelledCopyThrows();
};

void TestStoreCopy::cancelledCopyThrows()
{
    const ClusterStore s = source();
    std::atomic<bool> cancel { true };
    QVERIFY_THROWS_EXCEPTION(StoreCopyCancelled, (void)copyStore(s, true, &cancel));
    cancel = false;
    QCOMPARE(copyStore(s, true, &cancel).podCount(), s.podCount());
}

void TestStoreCopy::sameRowsUnderTheSameIds()
{
    const ClusterStore s = source();
    QCOMPARE(s.deletedPodCount(), std::size_t(1));
    ClusterStore c = copyStore(s);
    QCOMPARE(c.nodeCount(), s.nodeCount());
    QCOMPARE(c.podCount(), s.podCount());
    QCOMPARE(c.workloadCount(), s.workloadCount());
    QCOMPARE(c.strings().size() >= s.strings().size(), true);
    for (std::uint32_t i = 0; i < s.strings().size(); ++i)
        QCOMPARE(c.str(StringId(i)), s.str(StringId(i)));
    QCOMPARE(c.resources().size(), s.resources().size());
    QCOMPARE(c.deletedNodeCount(), s.deletedNodeCount());
    QCOMPARE(c.deletedPodCount(), s.deletedPodCount());
    for (std::uint32_t i = 0; i < s.nodeCount(); ++i) {
        const NodeId n(i);
        QCOMPARE(c.nodeIsDeleted(n), s.nodeIsDeleted(n));
        if (s.nodeIsDeleted(n))
            continue;
        QCOMPARE(c.nodeName(n), s.nodeName(n));
        QVERIFY(std::ranges::equal(c.nodeLabels(n), s.nodeLabels(n)));
        QVERIFY(std::ranges::equal(c.nodeTaints(n), s.nodeTaints(n)));
        QCOMPARE(c.nodeAllocatable(n), s.nodeAllocatable(n));
        QCOMPARE(c.nodeRequested(n), s.nodeRequested(n));
        QVERIFY(std::ranges::equal(c.nodePods(n), s.nodePods(n)));
    }
    for (std::uint32_t i = 0; i < s.podCount(); ++i) {
        const PodId p(i);
        QCOMPARE(c.podIsDeleted(p), s.podIsDeleted(p));
        QCOMPARE(c.podNamespace(p), s.podNamespace(p));
        QCOMPARE(c.podIsCounted(p), s.podIsCounted(p));
        QCOMPARE(c.podIsPending(p), s.podIsPending(p));
        QCOMPARE(c.podRequest(p), s.podRequest(p));
        QCOMPARE(c.podWorkload(p), s.podWorkload(p));
        QVERIFY(std::ranges::equal(c.podTolerations(p), s.podTolerations(p)));
        if (!s.podIsDeleted(p))
            QCOMPARE(c.podName(p), s.podName(p));
    }
    QCOMPARE(c.totalRequested(), s.totalRequested());
    QCOMPARE(c.disruptionBudgets().size(), std::size_t(1));
    QCOMPARE(c.disruptionBudgets()[0].selector, s.disruptionBudgets()[0].selector);
    QVERIFY(std::ranges::equal(c.namespaceLabels(s.strings().find("ml")), s.namespaceLabels(s.strings().find("ml"))));

    // As Plan > Place Workload does: a copy not finalized, one more pod, finalize, tombstones.
    ClusterStore more = copyStore(s, false);
    PodRecord extra;
    extra.namespaceName = "default";
    extra.name = "template";
    more.addPod(extra);
    more.finalize();
    deleteCopiedTombstones(more, s);
    QCOMPARE(more.podCount(), s.podCount() + 1);
    QCOMPARE(more.deletedPodCount(), s.deletedPodCount());
    QCOMPARE(more.deletedNodeCount(), s.deletedNodeCount());
    QCOMPARE(more.counts().podsPending, s.counts().podsPending + 1);
    QCOMPARE(more.counts().podsCounted, s.counts().podsCounted);
    QCOMPARE(more.totalRequested(), s.totalRequested());
}

QTEST_GUILESS_MAIN(TestStoreCopy)
#include "tst_storecopy.moc"
