// SPDX-License-Identifier: Apache-2.0
// ClusterStore::clone() (model/clusterstore.h): a copy of a finalized store, live tombstones
// included, has the same rows under the same ids, the same strings under the same StringIds (so
// a Topology of the source holds for it) in characters of its own, the same sums, budgets,
// namespace labels and scheduling constraints; a pod added to the copy by a change batch (as Plan
// > Place Workload adds its template pod) leaves the source as it was.

#include "model/clusterchange.h"

#include "common/units.h"

#include <QtTest>

using namespace fleet::model;

namespace {

using fleet::testing::kGi;

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
        if (i == 1) // a string longer than a quarter of the pool's block: a block of its own
            r.labels.emplace_back("note", std::string(300 * 1024, 'x'));
        if (i == 2)
            r.hostPorts.push_back({ 9100, PortProtocol::TCP, StringId() });
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
    void outlivesItsSource();
};

void TestStoreCopy::sameRowsUnderTheSameIds()
{
    const ClusterStore s = source();
    QCOMPARE(s.deletedPodCount(), std::size_t(1));
    ClusterStore c = s.clone();
    QCOMPARE(c.nodeCount(), s.nodeCount());
    QCOMPARE(c.podCount(), s.podCount());
    QCOMPARE(c.workloadCount(), s.workloadCount());
    QCOMPARE(c.strings().size(), s.strings().size());
    for (std::uint32_t i = 0; i < s.strings().size(); ++i) {
        QCOMPARE(c.str(StringId(i)), s.str(StringId(i)));
        QCOMPARE(c.strings().find(s.str(StringId(i))), StringId(i)); // the lookup table holds too
        if (!s.str(StringId(i)).empty())
            QVERIFY(c.str(StringId(i)).data() != s.str(StringId(i)).data()); // its own characters
    }
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
        QVERIFY(std::ranges::equal(c.podLabels(p), s.podLabels(p)));
        QVERIFY(std::ranges::equal(c.podHostPorts(p), s.podHostPorts(p)));
        QCOMPARE(c.podUid(p), s.podUid(p));
        if (!s.podIsDeleted(p))
            QCOMPARE(c.podName(p), s.podName(p));
    }
    QCOMPARE(c.totalRequested(), s.totalRequested());
    QCOMPARE(c.disruptionBudgets().size(), std::size_t(1));
    QCOMPARE(c.disruptionBudgets()[0].selector, s.disruptionBudgets()[0].selector);
    QVERIFY(std::ranges::equal(c.namespaceLabels(s.strings().find("ml")), s.namespaceLabels(s.strings().find("ml"))));

    QCOMPARE(c.findPod("ml", "p1"), s.findPod("ml", "p1"));
    QVERIFY(!c.findPod("default", "p4").isValid());

    // As Plan > Place Workload does: one more pod by a change batch; the source is untouched.
    const std::size_t sourcePods = s.podCount();
    const auto sourceStrings = s.strings().size();
    ClusterStore more = s.clone();
    ClusterChangeBatch add;
    PodRecord extra;
    extra.namespaceName = "default";
    extra.name = "template";
    extra.request.setCore(CoreResource::Gpu, 8000);
    add.upserted.addPod(extra);
    PodRecord moved = s.podRecord(s.findPod("ml", "p2")); // and a changed pod: its scheduling columns
    moved.hostPorts = { { 9200, PortProtocol::TCP, StringId() } };
    add.upserted.addPod(moved, s); // its ids are the source's: translated
    const ClusterDiff diff = applyChanges(more, add);
    QCOMPARE(diff.podsAdded.size(), std::size_t(1));
    QCOMPARE(more.podHostPorts(more.findPod("ml", "p2")).front().port, std::uint16_t(9200));
    QCOMPARE(s.podHostPorts(s.findPod("ml", "p2")).front().port, std::uint16_t(9100));
    QCOMPARE(diff.podsAdded.front(), PodId(static_cast<std::uint32_t>(sourcePods)));
    QCOMPARE(s.podCount(), sourcePods);
    QCOMPARE(s.strings().size(), sourceStrings);
    QVERIFY(!s.findPod("default", "template").isValid());
    QCOMPARE(more.findPod("default", "template"), diff.podsAdded.front());
    QCOMPARE(more.podCount(), s.podCount() + 1);
    QCOMPARE(more.deletedPodCount(), s.deletedPodCount());
    QCOMPARE(more.deletedNodeCount(), s.deletedNodeCount());
    QCOMPARE(more.counts().podsPending, s.counts().podsPending + 1);
    QCOMPARE(more.counts().podsCounted, s.counts().podsCounted);
    QCOMPARE(more.totalRequested(), s.totalRequested());
}

void TestStoreCopy::outlivesItsSource()
{
    ClusterStore c = [] {
        const ClusterStore s = source();
        return s.clone();
    }();
    QCOMPARE(c.podName(c.findPod("ml", "p1")), std::string_view("p1"));
    const auto labels = c.podLabels(c.findPod("ml", "p1"));
    QCOMPARE(labels.size(), std::size_t(2));
    QCOMPARE(c.str(labels[1].value).size(), std::size_t(300 * 1024));
    QCOMPARE(c.disruptionBudgets().size(), std::size_t(1));
    QCOMPARE(c.namespaceLabels(c.strings().find("ml")).size(), std::size_t(1));
    QCOMPARE(c.podHostPorts(c.findPod("ml", "p2")).size(), std::size_t(1)); // the scheduling columns are its own
    QCOMPARE(c.podUid(c.findPod("ml", "p2")), std::string_view("u2"));
}

QTEST_GUILESS_MAIN(TestStoreCopy)
#include "tst_storecopy.moc"
