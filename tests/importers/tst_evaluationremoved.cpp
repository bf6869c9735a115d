// SPDX-License-Identifier: Apache-2.0
// `plan check`'s totals (importers/export/evaluationformat.h) give the pods that go with the
// nodes a plan removes in two parts, the DaemonSet and mirror pods and the terminating pods,
// and neither among the pods left without a node. The cluster is a kubectl List read by the
// importer from a real file.

#include "importers/clusterloader.h"
#include "importers/export/evaluationformat.h"
#include "importers/plan/planfile.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace fleet;

namespace {

// Two 4-cpu nodes. On node-a: a ReplicaSet's pod (work, re-placed on node-b when node-a goes),
// a DaemonSet's pod, a mirror (static) pod and a ReplicaSet's pod that is terminating. node-b
// holds a DaemonSet pod of its own.
const char kCluster[] = R"({"apiVersion": "v1", "kind": "List", "items": [
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-a", "labels": {"kubernetes.io/hostname": "node-a",
  "topology.kubernetes.io/zone": "us-east-1a"}}, "spec": {},
  "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}, "conditions": [{"type": "Ready", "status": "True"}]}},
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-b", "labels": {"kubernetes.io/hostname": "node-b",
  "topology.kubernetes.io/zone": "us-east-1a"}}, "spec": {},
  "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}, "conditions": [{"type": "Ready", "status": "True"}]}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "default", "name": "web-0", "uid": "u-web-0",
  "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web", "uid": "o-web", "controller": true}]},
  "spec": {"nodeName": "node-a", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "default", "name": "web-old", "uid": "u-web-old",
  "deletionTimestamp": "2026-12-06T04:00:00Z",
  "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web", "uid": "o-web", "controller": true}]},
  "spec": {"nodeName": "node-a", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "kube-system", "name": "agent-a", "uid": "u-agent-a",
  "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "agent", "uid": "o-agent", "controller": true}]},
  "spec": {"nodeName": "node-a", "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "kube-system", "name": "agent-b", "uid": "u-agent-b",
  "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "agent", "uid": "o-agent", "controller": true}]},
  "spec": {"nodeName": "node-b", "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
{"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "kube-system", "name": "proxy-node-a", "uid": "u-proxy-a",
  "annotations": {"kubernetes.io/config.mirror": "abc"}},
  "spec": {"nodeName": "node-a", "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}]},
  "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}}
]})";

} // namespace

class TestEvaluationRemoved : public QObject {
    Q_OBJECT
private slots:
    void removedPodsAreCountedByKind_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("fail-node") << static_cast<int>(model::ActionType::FailNode);
        QTest::newRow("drain-node") << static_cast<int>(model::ActionType::DrainNode);
    }

    void removedPodsAreCountedByKind()
    {
        QFETCH(int, type);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("cluster.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.write(kCluster) == qint64(sizeof kCluster - 1));
        }
        const importers::LoadedCluster c = importers::loadClusterFiles({ path.toStdString() });
        importers::PlanDocument plan;
        model::PlanAction a;
        a.type = static_cast<model::ActionType>(type);
        a.node = "node-a";
        plan.actions.push_back(a);
        const importers::PlanEvaluation e = importers::evaluatePlan(*c.store, *c.topology, plan);
        QVERIFY(e.allHold());
        // web-0 found node-b; what goes with node-a is no pod left without a node.
        QCOMPARE(e.after.podsUnplaced, std::int64_t(0));
        QCOMPARE(e.after.podsRemovedWithNodes, std::int64_t(3));

        const std::string text = importers::evaluationText("plan.json", e, *c.store);
        QVERIFY2(text.find("before: ") != std::string::npos
                && text.find("evicted with no node 0, DaemonSet and mirror pods removed with their nodes 0, cost") != std::string::npos,
            text.c_str());
        QVERIFY2(text.find("evicted with no node 0, DaemonSet and mirror pods removed with their nodes 2, terminating pods removed with their "
                           "nodes 1, cost")
                != std::string::npos,
            text.c_str());

        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(importers::evaluationJson("plan.json", e, *c.store))).object();
        const QJsonObject after = o.value(QStringLiteral("after")).toObject();
        QCOMPARE(after.value(QStringLiteral("podsUnplaced")).toInteger(-1), 0);
        QCOMPARE(after.value(QStringLiteral("podsRemovedWithNodes")).toInteger(-1), 3);
        QCOMPARE(after.value(QStringLiteral("daemonSetPodsRemovedWithNodes")).toInteger(-1), 2);
        QCOMPARE(after.value(QStringLiteral("terminatingPodsRemovedWithNodes")).toInteger(-1), 1);
        const QJsonObject before = o.value(QStringLiteral("before")).toObject();
        QCOMPARE(before.value(QStringLiteral("daemonSetPodsRemovedWithNodes")).toInteger(-1), 0);
        QCOMPARE(before.value(QStringLiteral("terminatingPodsRemovedWithNodes")).toInteger(-1), 0);
    }

    void aTerminatingPodMovedOffIsNotRemovedWithItsNode()
    {
        // A move of the terminating pod to node-b before node-a fails: it no longer goes with
        // node-a (the ledger's rule: still on the removed node under the plan).
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cluster.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.write(kCluster) == qint64(sizeof kCluster - 1));
        }
        const importers::LoadedCluster c = importers::loadClusterFiles({ path.toStdString() });
        importers::PlanDocument plan;
        model::PlanAction move;
        move.type = model::ActionType::MovePod;
        move.pod = { "default", "web-old", "" };
        move.node = "node-b";
        plan.actions.push_back(move);
        model::PlanAction fail;
        fail.type = model::ActionType::FailNode;
        fail.node = "node-a";
        plan.actions.push_back(fail);
        const importers::PlanEvaluation e = importers::evaluatePlan(*c.store, *c.topology, plan);
        QVERIFY(e.allHold());
        QCOMPARE(e.after.podsRemovedWithNodes, std::int64_t(2));
        QCOMPARE(importers::terminatingPodsRemovedWithNodes(e, *c.store), std::int64_t(0));
        const std::string text = importers::evaluationText("plan.json", e, *c.store);
        QVERIFY2(text.find("DaemonSet and mirror pods removed with their nodes 2, cost") != std::string::npos, text.c_str());
    }
};

QTEST_GUILESS_MAIN(TestEvaluationRemoved)
#include "tst_evaluationremoved.moc"
