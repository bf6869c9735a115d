// SPDX-License-Identifier: Apache-2.0
// Tests of the NodeAffinity filter with the GPU model check (model/scheduling/nodeaffinity.cpp):
// nodeSelector, required terms ORed with expressions ANDed, every operator, matchFields, and
// the trace's GPU model label. Table-driven: the target node's labels and the pod's rules.

#include "tst_filters_fixture.h"

#include <QtTest>

using namespace fixture;

namespace {
using Req = PodRecord::Requirement;
using Terms = std::vector<std::vector<Req>>;
using Labels = std::vector<std::pair<std::string, std::string>>;
constexpr const char* kGpuModel = "alibabacloud.com/gpu-card-model";
} // namespace
Q_DECLARE_METATYPE(Terms)
Q_DECLARE_METATYPE(Labels)

class TestFiltersNodeAffinity : public QObject {
    Q_OBJECT
private slots:
    void affinity_data();
    void affinity();
};

void TestFiltersNodeAffinity::affinity_data()
{
    using O = SelectorOperator;
    QTest::addColumn<Labels>("nodeLabels");
    QTest::addColumn<Labels>("nodeSelector");
    QTest::addColumn<Terms>("terms");
    QTest::addColumn<QStringList>("expected");
    const Labels gpuNode { { "instance-type", "p5.48xlarge" }, { "gpus", "8" }, { kGpuModel, "A100" } };
    const auto row = [](const char* name, Labels labels, Labels selector, Terms terms, QStringList expected) {
        QTest::newRow(name) << labels << selector << terms << expected;
    };
    row("no rules", gpuNode, {}, {}, {});
    row("nodeSelector matches", gpuNode, { { "instance-type", "p5.48xlarge" } }, {}, {});
    row("nodeSelector other value", gpuNode, { { "instance-type", "m7i.large" } }, {}, { "node-selector-mismatch" });
    row("nodeSelector missing label", gpuNode, { { "team", "ml" } }, {}, { "node-selector-mismatch" });
    row("In matches", gpuNode, {}, { { { "instance-type", O::In, { "x", "p5.48xlarge" } } } }, {});
    row("In misses", gpuNode, {}, { { { "instance-type", O::In, { "x" } } } }, { "node-affinity-mismatch" });
    row("terms ORed: second matches", gpuNode, {},
        { { { "instance-type", O::In, { "x" } } }, { { "gpus", O::Exists, {} } } }, {});
    row("expressions ANDed: one fails", gpuNode, {},
        { { { "instance-type", O::In, { "p5.48xlarge" } }, { "team", O::Exists, {} } } }, { "node-affinity-mismatch" });
    row("NotIn on a missing label passes", gpuNode, {}, { { { "team", O::NotIn, { "web" } } } }, {});
    row("NotIn on the value fails", gpuNode, {}, { { { "instance-type", O::NotIn, { "p5.48xlarge" } } } }, { "node-affinity-mismatch" });
    row("DoesNotExist on a missing label passes", gpuNode, {}, { { { "team", O::DoesNotExist, {} } } }, {});
    row("DoesNotExist on a present label fails", gpuNode, {}, { { { "gpus", O::DoesNotExist, {} } } }, { "node-affinity-mismatch" });
    row("Exists on a missing label fails", gpuNode, {}, { { { "team", O::Exists, {} } } }, { "node-affinity-mismatch" });
    row("Gt: 8 > 4", gpuNode, {}, { { { "gpus", O::Gt, { "4" } } } }, {});
    row("Gt: 8 > 8 fails", gpuNode, {}, { { { "gpus", O::Gt, { "8" } } } }, { "node-affinity-mismatch" });
    row("Lt: 8 < 9", gpuNode, {}, { { { "gpus", O::Lt, { "9" } } } }, {});
    row("Lt: 8 < -1 fails", gpuNode, {}, { { { "gpus", O::Lt, { "-1" } } } }, { "node-affinity-mismatch" });
    row("Gt on a non-integer label fails", gpuNode, {}, { { { "instance-type", O::Gt, { "1" } } } }, { "node-affinity-mismatch" });
    row("Gt on a missing label fails", gpuNode, {}, { { { "team", O::Gt, { "1" } } } }, { "node-affinity-mismatch" });
    row("Gt with a non-integer value fails", gpuNode, {}, { { { "gpus", O::Gt, { "four" } } } }, { "node-affinity-mismatch" });
    row("matchFields metadata.name In", gpuNode, {}, { { { "metadata.name", O::In, { "target" }, true } } }, {});
    row("matchFields metadata.name In other", gpuNode, {}, { { { "metadata.name", O::In, { "home" }, true } } }, { "node-affinity-mismatch" });
    row("matchFields metadata.name NotIn", gpuNode, {}, { { { "metadata.name", O::NotIn, { "home" }, true } } }, {});
    row("matchFields on another field matches nothing", gpuNode, {}, { { { "spec.podCIDR", O::In, { "target" }, true } } },
        { "node-affinity-mismatch" });
    row("an empty term matches nothing", gpuNode, {}, { {} }, { "node-affinity-mismatch" });
    row("GPU model accepted", gpuNode, {}, { { { kGpuModel, O::In, { "V100", "A100" } } } }, {});
    row("GPU model refused", gpuNode, {}, { { { kGpuModel, O::In, { "V100" } } } }, { "gpu-model-mismatch" });
    row("GPU model and another requirement fail", gpuNode, {},
        { { { kGpuModel, O::In, { "V100" } }, { "team", O::Exists, {} } } }, { "node-affinity-mismatch" });
    row("node without a GPU model", { { "instance-type", "m7i.large" } }, {}, { { { kGpuModel, O::In, { "V100" } } } },
        { "gpu-model-mismatch" });
    row("nodeSelector and affinity both fail", gpuNode, { { "team", "ml" } }, { { { "gpus", O::Lt, { "2" } } } },
        { "node-selector-mismatch", "node-affinity-mismatch" });
    // A requirement that labels.NewRequirement refuses makes its term match no node (the
    // lazy-error node selector), the other terms still ORed.
    row("In with a value that is not a label value", gpuNode, {}, { { { "instance-type", O::In, { "p5.48xlarge", "not a value!" } } } },
        { "node-affinity-mismatch" });
    row("NotIn with a value that is not a label value", gpuNode, {}, { { { "team", O::NotIn, { "web/api" } } } }, { "node-affinity-mismatch" });
    row("NotIn with a 64-character value", gpuNode, {}, { { { "team", O::NotIn, { std::string(64, 'a') } } } }, { "node-affinity-mismatch" });
    row("NotIn with a 63-character value", gpuNode, {}, { { { "team", O::NotIn, { std::string(63, 'a') } } } }, {});
    row("Exists with values", gpuNode, {}, { { { "gpus", O::Exists, { "8" } } } }, { "node-affinity-mismatch" });
    row("DoesNotExist on a key that is not a label key", gpuNode, {}, { { { "no such key!", O::DoesNotExist, {} } } },
        { "node-affinity-mismatch" });
    row("Lt with a negative value: not a label value", gpuNode, {}, { { { "gpus", O::Lt, { "-1" } } } }, { "node-affinity-mismatch" });
    row("Gt with two values", gpuNode, {}, { { { "gpus", O::Gt, { "1", "2" } } } }, { "node-affinity-mismatch" });
    row("an unparsable term, another term matches", gpuNode, {},
        { { { "instance-type", O::In, { "p5.48xlarge", "not a value!" } } }, { { "gpus", O::Gt, { "4" } } } }, {});
    row("an unparsable requirement fails its term although another requirement matches", gpuNode, {},
        { { { "instance-type", O::In, { "p5.48xlarge" } }, { "team", O::NotIn, { "a b" } } } }, { "node-affinity-mismatch" });
    row("a prefixed key", gpuNode, {}, { { { "example.com/team", O::DoesNotExist, {} } } }, {});
    row("an upper-case prefix is not a key", gpuNode, {}, { { { "Example.com/team", O::DoesNotExist, {} } } }, { "node-affinity-mismatch" });
}

void TestFiltersNodeAffinity::affinity()
{
    QFETCH(Labels, nodeLabels);
    QFETCH(Labels, nodeSelector);
    QFETCH(Terms, terms);
    QFETCH(QStringList, expected);
    ClusterStore store;
    store.addNode(node("home"));
    NodeRecord target = node("target");
    target.labels.insert(target.labels.end(), nodeLabels.begin(), nodeLabels.end());
    const NodeId t = store.addNode(target);
    PodRecord p = pod("web-1", "home");
    p.nodeSelector = nodeSelector;
    for (const auto& term : terms) {
        p.requiredAffinityTerms.emplace_back();
        for (const Req& r : term)
            p.requiredAffinityTerms.back().push_back(r);
    }
    const PodId id = store.addPod(p);
    store.finalize();
    const PlanLedger state(store);
    const Verdict v = checkMove(state, id, t);
    QCOMPARE(codes(v), expected);
    QCOMPARE(PodFeasibility(state, id).feasible(t), expected.isEmpty());
    // The pod's own node is always feasible (no change), whatever its rules say.
    QVERIFY(checkMove(state, id, NodeId(0)).feasible);
}

QTEST_GUILESS_MAIN(TestFiltersNodeAffinity)
#include "tst_filters_nodeaffinity.moc"
