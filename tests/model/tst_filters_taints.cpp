// SPDX-License-Identifier: Apache-2.0
// Tests of the NodeUnschedulable, node readiness and TaintToleration filters
// (model/scheduling/tainttoleration.cpp): a pod moved from node "home" to node "target",
// table-driven over taints, tolerations, cordons and readiness.

#include "tst_filters_fixture.h"

#include <QtTest>

using namespace fixture;

namespace {
struct TaintCase {
    std::vector<std::tuple<std::string, std::string, TaintEffect>> taints;
    std::vector<std::tuple<std::string, TolerationOperator, std::string, TaintEffect>> tolerations;
    bool unschedulable = false;
    Readiness ready = Readiness::True;
};
} // namespace
Q_DECLARE_METATYPE(TaintCase)

class TestFiltersTaints : public QObject {
    Q_OBJECT
private slots:
    void taints_data();
    void taints();
    void feasibilityAgreesWithVerdict();
    void notReadyNamesTheUntoleratedTaint();
};

void TestFiltersTaints::taints_data()
{
    using E = TaintEffect;
    using O = TolerationOperator;
    QTest::addColumn<TaintCase>("c");
    QTest::addColumn<QStringList>("expected");
    const auto row = [](const char* name, TaintCase c, QStringList expected) { QTest::newRow(name) << c << expected; };
    row("no taint", {}, {});
    row("NoSchedule untolerated", { { { "team", "ml", E::NoSchedule } }, {} }, { "untolerated-taint:team=ml:NoSchedule" });
    row("NoExecute untolerated", { { { "team", "ml", E::NoExecute } }, {} }, { "untolerated-taint:team=ml:NoExecute" });
    row("PreferNoSchedule never blocks", { { { "team", "ml", E::PreferNoSchedule } }, {} }, {});
    row("taint without value", { { { "dedicated", "", E::NoSchedule } }, {} }, { "untolerated-taint:dedicated:NoSchedule" });
    row("Equal, same value", { { { "team", "ml", E::NoSchedule } }, { { "team", O::Equal, "ml", E::NoSchedule } } }, {});
    row("Equal, other value", { { { "team", "ml", E::NoSchedule } }, { { "team", O::Equal, "web", E::NoSchedule } } },
        { "untolerated-taint:team=ml:NoSchedule" });
    row("Exists, any value", { { { "team", "ml", E::NoSchedule } }, { { "team", O::Exists, "", E::NoSchedule } } }, {});
    row("empty key with Exists tolerates all",
        { { { "team", "ml", E::NoSchedule }, { "gpu", "true", E::NoExecute } }, { { "", O::Exists, "", E::Any } } }, {});
    row("empty effect matches NoExecute", { { { "team", "ml", E::NoExecute } }, { { "team", O::Exists, "", E::Any } } }, {});
    row("NoSchedule toleration, NoExecute taint", { { { "team", "ml", E::NoExecute } }, { { "team", O::Exists, "", E::NoSchedule } } },
        { "untolerated-taint:team=ml:NoExecute" });
    row("the first untolerated taint only, as the plugin",
        { { { "a", "1", E::NoSchedule }, { "b", "2", E::NoExecute } }, {} }, { "untolerated-taint:a=1:NoSchedule" });
    row("tolerated first, untolerated second",
        { { { "a", "1", E::NoSchedule }, { "b", "2", E::NoExecute } }, { { "a", O::Exists, "", E::Any } } },
        { "untolerated-taint:b=2:NoExecute" });
    row("cordoned", { {}, {}, true }, { "node-unschedulable" });
    row("cordoned, unschedulable tolerated",
        { {}, { { "node.kubernetes.io/unschedulable", O::Exists, "", E::NoSchedule } }, true }, {});
    row("cordoned with its taint",
        { { { "node.kubernetes.io/unschedulable", "", E::NoSchedule } }, {}, true },
        { "node-unschedulable", "untolerated-taint:node.kubernetes.io/unschedulable:NoSchedule" });
    row("NotReady without taints", { {}, {}, false, Readiness::False }, { "node-not-ready" });
    row("Unknown without taints", { {}, {}, false, Readiness::Unknown }, { "node-not-ready" });
    row("NotReady, default NoExecute toleration only",
        { {}, { { "node.kubernetes.io/not-ready", O::Exists, "", E::NoExecute } }, false, Readiness::False }, { "node-not-ready" });
    row("NotReady, not-ready tolerated", { {}, { { "node.kubernetes.io/not-ready", O::Exists, "", E::Any } }, false, Readiness::False }, {});
    // The scheduler sees only the taints: TaintToleration reports the first untolerated one
    // ("node(s) had untolerated taint {node.kubernetes.io/not-ready: }"), readiness taints
    // included; Fleetscope's node-not-ready stands beside it.
    row("NotReady with the controller's taints",
        { { { "node.kubernetes.io/not-ready", "", E::NoSchedule }, { "node.kubernetes.io/not-ready", "", E::NoExecute } }, {}, false,
            Readiness::False },
        { "node-not-ready", "untolerated-taint:node.kubernetes.io/not-ready:NoSchedule" });
    row("Unknown with the controller's taints",
        { { { "node.kubernetes.io/unreachable", "", E::NoSchedule }, { "node.kubernetes.io/unreachable", "", E::NoExecute } }, {}, false,
            Readiness::Unknown },
        { "node-not-ready", "untolerated-taint:node.kubernetes.io/unreachable:NoSchedule" });
    row("NotReady and tainted: the first untolerated taint of the list",
        { { { "node.kubernetes.io/not-ready", "", E::NoSchedule }, { "team", "ml", E::NoSchedule } }, {}, false, Readiness::False },
        { "node-not-ready", "untolerated-taint:node.kubernetes.io/not-ready:NoSchedule" });
    row("NotReady, tainted first",
        { { { "team", "ml", E::NoSchedule }, { "node.kubernetes.io/not-ready", "", E::NoSchedule } }, {}, false, Readiness::False },
        { "node-not-ready", "untolerated-taint:team=ml:NoSchedule" });
    row("a not-ready taint on a Ready node: TaintToleration alone",
        { { { "node.kubernetes.io/not-ready", "", E::NoSchedule } }, {}, false, Readiness::True },
        { "untolerated-taint:node.kubernetes.io/not-ready:NoSchedule" });
    row("NotReady with its taint tolerated",
        { { { "node.kubernetes.io/not-ready", "", E::NoSchedule } }, { { "node.kubernetes.io/not-ready", O::Exists, "", E::NoSchedule } }, false,
            Readiness::False },
        {});
    row("cordoned, NotReady, tainted: plugin order",
        { { { "team", "ml", E::NoSchedule } }, {}, true, Readiness::Unknown },
        { "node-unschedulable", "node-not-ready", "untolerated-taint:team=ml:NoSchedule" });
}

void TestFiltersTaints::taints()
{
    QFETCH(TaintCase, c);
    QFETCH(QStringList, expected);
    ClusterStore store;
    store.addNode(node("home"));
    NodeRecord target = node("target");
    target.taints = c.taints;
    target.unschedulable = c.unschedulable;
    target.ready = c.ready;
    const NodeId t = store.addNode(target);
    PodRecord p = pod("web-1", "home");
    p.tolerations = c.tolerations;
    const PodId id = store.addPod(p);
    store.finalize();
    const PlanLedger state(store);
    const Verdict v = checkMove(state, id, t);
    QCOMPARE(codes(v), expected);
    QCOMPARE(v.feasible, expected.isEmpty());
    for (const Reason& r : v.reasons)
        QVERIFY2(!r.message.empty(), r.code().c_str());
    QCOMPARE(PodFeasibility(state, id).feasible(t), expected.isEmpty());
}

void TestFiltersTaints::feasibilityAgreesWithVerdict()
{
    // Every node kind at once, shaded in one pass: the shading equals each node's verdict.
    ClusterStore store;
    store.addNode(node("home"));
    NodeRecord n = node("gpu");
    n.taints = { { "nvidia.com/gpu", "true", TaintEffect::NoSchedule } };
    store.addNode(n);
    n = node("cordoned");
    n.unschedulable = true;
    store.addNode(n);
    n = node("down");
    n.ready = Readiness::False;
    store.addNode(n);
    n = node("soft");
    n.taints = { { "spot", "true", TaintEffect::PreferNoSchedule } };
    store.addNode(n);
    const PodId p = store.addPod(pod("web-1", "home"));
    store.finalize();
    const PlanLedger state(store);
    const PodFeasibility f(state, p);
    std::vector<std::uint8_t> mask;
    f.feasibleNodes(mask);
    QCOMPARE(mask, (std::vector<std::uint8_t> { 1, 0, 0, 0, 1 }));
    for (std::uint32_t i = 0; i < mask.size(); ++i)
        QCOMPARE(f.verdict(NodeId(i)).feasible, mask[i] == 1);
}

void TestFiltersTaints::notReadyNamesTheUntoleratedTaint()
{
    // A pod that tolerates not-ready:NoSchedule but not the not-ready:NoExecute the node also
    // carries: node-not-ready names the NoExecute taint, never the one the pod tolerates. Without
    // the taints in the input, it names the NoSchedule taint the lifecycle controller would add.
    ClusterStore store;
    store.addNode(node("home"));
    NodeRecord tainted = node("nr2");
    tainted.ready = Readiness::False;
    tainted.taints = { { "node.kubernetes.io/not-ready", "", TaintEffect::NoSchedule },
        { "node.kubernetes.io/not-ready", "", TaintEffect::NoExecute } };
    const NodeId t = store.addNode(tainted);
    NodeRecord bare = node("nr3");
    bare.ready = Readiness::False;
    const NodeId b = store.addNode(bare);
    PodRecord p = pod("tol", "home");
    p.tolerations = { { "node.kubernetes.io/not-ready", TolerationOperator::Exists, "", TaintEffect::NoSchedule } };
    const PodId tol = store.addPod(p);
    const PodId plain = store.addPod(pod("plain", "home"));
    store.finalize();
    const PlanLedger state(store);
    auto message = [&](const Verdict& v, const char* code) {
        for (const Reason& r : v.reasons)
            if (r.code() == code)
                return QString::fromStdString(r.message);
        return QString();
    };
    const Verdict v = checkMove(state, tol, t);
    QCOMPARE(codes(v), (QStringList { "node-not-ready", "untolerated-taint:node.kubernetes.io/not-ready:NoExecute" }));
    const QString notReady = message(v, "node-not-ready");
    QVERIFY2(notReady.contains("does not tolerate its taint node.kubernetes.io/not-ready:NoExecute"), qPrintable(notReady));
    QVERIFY2(!notReady.contains("NoSchedule"), qPrintable(notReady));
    const QString missing = message(checkMove(state, plain, b), "node-not-ready");
    QVERIFY2(missing.contains("does not tolerate node.kubernetes.io/not-ready:NoSchedule, which the node lifecycle controller"),
        qPrintable(missing));
}

QTEST_GUILESS_MAIN(TestFiltersTaints)
#include "tst_filters_taints.moc"
