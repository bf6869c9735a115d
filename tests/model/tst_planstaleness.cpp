// SPDX-License-Identifier: Apache-2.0
// Tests of findStaleActions() (model/plan/planstaleness.h): which applied actions of a plan a
// live batch makes stale, and why. Cluster: planfixture's webCluster (n1, n2 in zone a, n3 in
// zone b; web-0..2 on n1; a DaemonSet pod per node).

#include "model/plan/planstaleness.h"

#include "planfixture.h"

#include <QtTest>

#include <functional>

using namespace fleet::model;
using namespace planfixture;

namespace {

/// A batch that upserts pod `name` of `store` as `edit` leaves its record.
ClusterChangeBatch podEdit(const ClusterStore& store, const std::string& name, const std::function<void(PodRecord&)>& edit)
{
    ClusterChangeBatch b;
    PodRecord r = store.podRecord(store.findPod("default", name));
    edit(r);
    b.upserted.addPod(r, store);
    return b;
}

} // namespace

class TestPlanStaleness : public QObject {
    Q_OBJECT
private slots:
    void staleActions()
    {
        Cluster c = webCluster();
        c.finish();
        PlanEngine engine(*c.store, *c.topology);
        engine.apply(move("default", "web-0", "n3")); // action 0
        PlanAction drain;
        drain.type = ActionType::DrainNode;
        drain.node = "n2";
        engine.apply(drain); // action 1: n2 has only its DaemonSet pod
        const ClusterStore& s = *c.store;
        const auto& applied = engine.applied();
        QCOMPARE(applied.size(), std::size_t(2));

        auto check = [&](const ClusterChangeBatch& b, std::vector<std::pair<std::size_t, std::string>> expected) {
            const std::vector<StaleAction> stale = findStaleActions(applied, s, b);
            QCOMPARE(stale.size(), expected.size());
            for (std::size_t i = 0; i < stale.size(); ++i) {
                QCOMPARE(stale[i].index, expected[i].first);
                QVERIFY2(stale[i].why.find(expected[i].second) != std::string::npos, stale[i].why.c_str());
            }
        };
        ClusterChangeBatch deleted;
        deleted.deletedPods.emplace_back("default", "web-0");
        check(deleted, { { 0, "pod default/web-0 was deleted" } });
        check(podEdit(s, "web-1", [](PodRecord&) {}), {}); // another pod: nothing stale
        check(podEdit(s, "web-0", [](PodRecord& r) { r.phase = PodPhase::Succeeded; }), { { 0, "is now Succeeded" } });
        check(podEdit(s, "web-0", [](PodRecord& r) { r.uid = "another"; }), { { 0, "recreated" } });
        // The destination of the move fails; the drained node is deleted.
        ClusterChangeBatch nodes;
        NodeRecord n3 = s.nodeRecord(s.findNode("n3"));
        n3.ready = Readiness::False;
        nodes.upserted.addNode(n3, s);
        nodes.deletedNodes.emplace_back("n2");
        check(nodes, { { 0, "node n3 is now NotReady" }, { 1, "node n2 was deleted" } });
        // A relist that holds everything unchanged: nothing stale; without web-0: gone.
        ClusterChangeBatch relist;
        relist.replacesAll = true;
        for (std::uint32_t n = 0; n < s.nodeCount(); ++n)
            relist.upserted.addNode(s.nodeRecord(NodeId(n)), s);
        for (std::uint32_t p = 0; p < s.podCount(); ++p)
            if (s.podName(PodId(p)) != "web-0")
                relist.upserted.addPod(s.podRecord(PodId(p)), s);
        check(relist, { { 0, "pod default/web-0 is gone (relist)" } });
    }
};

QTEST_APPLESS_MAIN(TestPlanStaleness)
#include "tst_planstaleness.moc"
