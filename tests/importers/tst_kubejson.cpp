// SPDX-License-Identifier: Apache-2.0
// Tests of the kubectl JSON importer (importers/kube/kubejson.h): the real EKS fixture, the
// list shapes kubectl and the API server produce, effective requests through JSON, extended
// resources, scheduling constraints, and every malformed input the importer must name with
// file, line and JSON path. The windowing is tested in tst_kubejsonwindow.cpp.

#include "importers/kube/kubejson.h"
#include "kubejsontext.h"
#include "model/clusterstore.h"

#include <QtTest>

#include <algorithm>
#include <string>

using namespace fleet;
using namespace fleet::testing;
using model::CoreResource;
using model::NodeId;
using model::PodId;

Q_DECLARE_METATYPE(std::string)

class TestKubeJson : public QObject {
    Q_OBJECT

private slots:
    void realFixture();
    void listShapes_data();
    void listShapes();
    void severalFilesIntoOneStore();
    void effectiveRequests_data();
    void effectiveRequests();
    void terminalAndPendingPods();
    void extendedResourcesAndNodeFields();
    void constraintsKept();
    void conditionsLabelsAndSchedulingFields_data();
    void conditionsLabelsAndSchedulingFields();
    void malformed_data();
    void malformed();
    void malformedFiles_data();
    void malformedFiles();
};

void TestKubeJson::realFixture()
{
    model::ClusterStore store;
    importers::ImportReport report;
    importers::importKubectlJsonFile(kShared + "nodes.json", store, report);
    importers::importKubectlJsonFile(kShared + "pods.json", store, report);
    store.finalize();
    QCOMPARE(store.nodeCount(), std::size_t { 2 });
    QCOMPARE(store.podCount(), std::size_t { 11 });
    QCOMPARE(report.nodesRead, std::size_t { 2 });
    QCOMPARE(report.podsRead, std::size_t { 11 });
    QVERIFY2(report.warnings.empty(), report.warnings.empty() ? "" : report.warnings.front().c_str());

    for (const char* name : { "duckboat-01", "duckboat-02" }) {
        const NodeId n = store.findNode(name);
        QVERIFY(n.isValid());
        QCOMPARE(store.nodeAllocatable(n)[CoreResource::Cpu], 7910);
        QCOMPARE(store.nodeAllocatable(n)[CoreResource::Memory], std::int64_t { 31127824 } * 1024);
        QCOMPARE(store.nodeAllocatable(n)[CoreResource::Pods], 58);
        QCOMPARE(store.nodeCapacity(n)[CoreResource::Cpu], 8000);
        QCOMPARE(store.nodeCapacity(n)[CoreResource::Memory], std::int64_t { 32144656 } * 1024);
        QCOMPARE(store.nodeLabels(n).size(), std::size_t { 8 });
        QCOMPARE(store.nodeInstanceType(n), std::string_view("m6gd.2xlarge"));
        QCOMPARE(store.nodeReadiness(n), model::Readiness::True);
        QVERIFY(!store.nodeUnschedulable(n));
        QCOMPARE(store.nodeGpuCount(n), 0);
        QCOMPARE(store.nodeTaints(n).size(), std::size_t { 1 });
        const model::Taint taint = store.nodeTaints(n)[0];
        QCOMPARE(store.str(taint.key), std::string_view("type"));
        QCOMPARE(store.str(taint.value), std::string_view("hound"));
        QCOMPARE(taint.effect, model::TaintEffect::NoSchedule);
    }
    const NodeId n1 = store.findNode("duckboat-01");
    const model::StringId zoneKey = store.strings().find("topology.kubernetes.io/zone");
    QCOMPARE(store.str(store.nodeLabel(n1, zoneKey)), std::string_view("us-east-1a"));

    // By hand from pods.json: speaker-cpxhz and controller-5c9894b5cd-r66xh request
    // cpu 100m, memory 100Mi each; calico-node-h2bjp requests cpu 250m; the rest nothing.
    QCOMPARE(store.nodePods(n1).size(), std::size_t { 11 });
    QCOMPARE(store.nodePods(store.findNode("duckboat-02")).size(), std::size_t { 0 });
    const model::ResourceVector requested = store.nodeRequested(n1);
    QCOMPARE(requested[CoreResource::Cpu], 450);
    QCOMPARE(requested[CoreResource::Memory], std::int64_t { 200 } * 1024 * 1024);
    QCOMPARE(requested[CoreResource::Pods], 11);
    QCOMPARE(requested[CoreResource::Gpu], 0);

    // Owners, priority and the DaemonSet's required node affinity (matchFields).
    PodId speaker, proxy;
    for (std::size_t i = 0; i < store.podCount(); ++i) {
        const PodId p(static_cast<std::uint32_t>(i));
        if (store.podName(p) == "speaker-cpxhz")
            speaker = p;
        if (store.podName(p) == "kube-proxy-cxkwh")
            proxy = p;
    }
    QVERIFY(speaker.isValid() && proxy.isValid());
    QCOMPARE(store.podNamespace(speaker), std::string_view("metallb-system"));
    QCOMPARE(store.podOwnerKind(speaker), model::OwnerKind::DaemonSet);
    QCOMPARE(store.podPriority(proxy), 2000001000);
    QCOMPARE(store.podTolerations(speaker).size(), std::size_t { 8 });
    QCOMPARE(store.podNodeSelector(speaker).size(), std::size_t { 1 });
    const auto affinity = store.podRequiredAffinity(speaker);
    QCOMPARE(affinity.size(), std::size_t { 1 });
    QCOMPARE(affinity[0].requirements.size(), std::size_t { 1 });
    QVERIFY(affinity[0].requirements[0].matchField);
    QCOMPARE(store.str(affinity[0].requirements[0].key), std::string_view("metadata.name"));
    QCOMPARE(store.str(affinity[0].requirements[0].values.at(0)), std::string_view("duckboat-01"));
}

void TestKubeJson::listShapes_data()
{
    QTest::addColumn<std::string>("json");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("pods");
    const std::string nodeNoKind = R"({"metadata":{"name":"a"},"status":{"capacity":{"cpu":"4"}}})";
    const std::string podNoKind = R"({"metadata":{"name":"p","namespace":"ns"},"spec":{"containers":[{"name":"c"}]}})";
    QTest::newRow("NodeList, items without kind") << std::string(
        R"({"kind":"NodeList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]})")
                                                  << 2 << 0;
    QTest::newRow("PodList, items without kind")
        << std::string(R"({"kind":"PodList","items":[{"metadata":{"name":"p","namespace":"ns"}}]})") << 0 << 1;
    QTest::newRow("List, kind after items (kubectl)") << "{\"apiVersion\":\"v1\",\"items\":[" + kNode1 + ","
            + podJson("\"containers\":[]") + "],\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"\"}}"
                                                      << 1 << 1;
    QTest::newRow("List, kinds inferred from fields")
        << "{\"kind\":\"List\",\"items\":[" + nodeNoKind + "," + podNoKind + "]}" << 1 << 1;
    QTest::newRow("single Node") << kNode1 << 1 << 0;
    QTest::newRow("single Pod") << podJson("\"containers\":[]") << 0 << 1;
    QTest::newRow("bare array") << "[" + kNode1 + "," + podJson("\"containers\":[]") + "]" << 1 << 1;
    QTest::newRow("empty list") << std::string(R"({"kind":"List","items":[]})") << 0 << 0;
    QTest::newRow("null items") << std::string(R"({"kind":"PodList","items":null})") << 0 << 0;
    QTest::newRow("mixed List with a Service")
        << "{\"kind\":\"List\",\"items\":[{\"kind\":\"Service\",\"metadata\":{\"name\":\"s\"},\"spec\":{\"ports\":[]}}," + kNode1
            + "]}"
        << 1 << 0;
    QTest::newRow("BOM and whitespace") << std::string("\xEF\xBB\xBF \n\t") + kNode1 + "\n\n" << 1 << 0;
}

void TestKubeJson::listShapes()
{
    QFETCH(std::string, json);
    QFETCH(int, nodes);
    QFETCH(int, pods);
    for (std::size_t window : { std::size_t { 0 }, std::size_t { 64 } }) {
        model::ClusterStore store;
        importers::ImportReport report;
        importText(json, store, report, window);
        QCOMPARE(static_cast<int>(store.nodeCount()), nodes);
        QCOMPARE(static_cast<int>(store.podCount()), pods);
        // An empty result is never silent; skipped kinds are reported.
        if (nodes + pods == 0 || json.find("Service") != std::string::npos)
            QCOMPARE(report.warnings.size(), std::size_t { 1 });
    }
}

void TestKubeJson::severalFilesIntoOneStore()
{
    model::ClusterStore store;
    importers::ImportReport report;
    importers::importKubectlJsonFile(kData + "mixed-list.json", store, report);
    importers::importKubectlJsonFile(kShared + "nodes.json", store, report);
    importers::importKubectlJsonFile(kShared + "pods.json", store, report);
    store.finalize();
    QCOMPARE(store.nodeCount(), std::size_t { 4 });
    QCOMPARE(store.podCount(), std::size_t { 13 });
    QCOMPARE(report.warnings.size(), std::size_t { 1 }); // the skipped Service
    QVERIFY(report.warnings[0].find("Service") != std::string::npos);
    QVERIFY(report.warnings[0].find("mixed-list.json") != std::string::npos);

    // The same nodes again: a duplicate, named with file, line and path.
    try {
        importers::importKubectlJsonFile(kShared + "nodes.json", store, report);
        QFAIL("a duplicate node was accepted");
    } catch (const importers::ImportError& e) {
        QVERIFY2(std::string(e.what()).find("nodes.json:10: items[0].metadata.name: duplicate node \"duckboat-01\"")
                != std::string::npos,
            e.what());
    }
}

void TestKubeJson::effectiveRequests_data()
{
    QTest::addColumn<std::string>("spec");
    QTest::addColumn<qint64>("cpu");
    QTest::addColumn<qint64>("memory");
    QTest::newRow("app containers add up") << std::string(
        R"("containers":[{"resources":{"requests":{"cpu":"100m","memory":"1Gi"}}},{"resources":{"requests":{"cpu":"200m"}}}])")
                                           << qint64(300) << qint64(1) * 1024 * 1024 * 1024;
    QTest::newRow("limits only: request defaults to limit")
        << std::string(R"("containers":[{"resources":{"limits":{"cpu":"1","memory":"2Gi"}}}])") << qint64(1000)
        << qint64(2) * 1024 * 1024 * 1024;
    QTest::newRow("init container larger than apps") << std::string(
        R"("containers":[{"resources":{"requests":{"cpu":"100m"}}}],"initContainers":[{"resources":{"requests":{"cpu":"2","memory":"10Mi"}}}])")
                                                     << qint64(2000) << qint64(10) * 1024 * 1024;
    // Sidecar 200m runs beside the app (300m in all); the later init container needs 250m + 200m.
    QTest::newRow("sidecar (restartPolicy Always)") << std::string(
        R"("containers":[{"resources":{"requests":{"cpu":"100m"}}}],"initContainers":[{"restartPolicy":"Always","resources":{"requests":{"cpu":"200m"}}},{"resources":{"requests":{"cpu":"250m"}}}])")
                                                    << qint64(450) << qint64(0);
    QTest::newRow("sidecar adds to the apps") << std::string(
        R"("containers":[{"resources":{"requests":{"cpu":"1"}}}],"initContainers":[{"restartPolicy":"Always","resources":{"requests":{"cpu":"500m"}}}])")
                                              << qint64(1500) << qint64(0);
    QTest::newRow("pod-level resources") << std::string(
        R"("containers":[{"resources":{"requests":{"cpu":"100m"}}}],"resources":{"requests":{"cpu":"2"},"limits":{"memory":"4Gi"}})")
                                         << qint64(2000) << qint64(4) * 1024 * 1024 * 1024;
    QTest::newRow("overhead") << std::string(
        R"("containers":[{"resources":{"requests":{"cpu":"100m"}}}],"overhead":{"cpu":"250m","memory":"120Mi"})")
                              << qint64(350) << qint64(120) * 1024 * 1024;
    QTest::newRow("JSON numbers as quantities")
        << std::string(R"("containers":[{"resources":{"requests":{"cpu":0.5,"memory":1073741824}}}])") << qint64(500)
        << qint64(1073741824);
    QTest::newRow("no resources") << std::string(R"("containers":[{"name":"c","image":"x"}])") << qint64(0) << qint64(0);
}

void TestKubeJson::effectiveRequests()
{
    QFETCH(std::string, spec);
    QFETCH(qint64, cpu);
    QFETCH(qint64, memory);
    model::ClusterStore store;
    importers::ImportReport report;
    importText("{\"kind\":\"List\",\"items\":[" + kNode1 + "," + podJson(spec) + "]}", store, report);
    store.finalize();
    QCOMPARE(store.podCount(), std::size_t { 1 });
    QCOMPARE(store.podRequest(PodId(0))[CoreResource::Cpu], cpu);
    QCOMPARE(store.podRequest(PodId(0))[CoreResource::Memory], memory);
    QCOMPARE(store.nodeRequested(NodeId(0))[CoreResource::Cpu], cpu);
}

void TestKubeJson::terminalAndPendingPods()
{
    const std::string spec = R"("containers":[{"resources":{"requests":{"cpu":"1"}}}])";
    const std::string pending
        = R"({"kind":"Pod","metadata":{"name":"w","namespace":"ns"},"spec":{"containers":[{"resources":{"requests":{"cpu":"3"}}}]},"status":{"phase":"Pending"}})";
    model::ClusterStore store;
    importers::ImportReport report;
    importText("{\"kind\":\"List\",\"items\":[" + kNode1 + "," + podJson(spec, "Running", "r") + ","
            + podJson(spec, "Succeeded", "s") + "," + podJson(spec, "Failed", "f") + "," + pending + "]}",
        store, report);
    store.finalize();
    QCOMPARE(store.podCount(), std::size_t { 4 });
    QCOMPARE(store.nodeRequested(NodeId(0))[CoreResource::Cpu], 1000);
    QCOMPARE(store.nodeRequested(NodeId(0))[CoreResource::Pods], 1);
    QCOMPARE(store.podPhase(PodId(1)), model::PodPhase::Succeeded);
    QCOMPARE(store.podPhase(PodId(2)), model::PodPhase::Failed);
    QVERIFY(store.podIsPending(PodId(3)));
    QCOMPARE(store.podNodeName(PodId(3)), std::string_view());
    QCOMPARE(store.totalPending()[CoreResource::Cpu], 3000);
}

void TestKubeJson::extendedResourcesAndNodeFields()
{
    model::ClusterStore store;
    importers::ImportReport report;
    importers::importKubectlJsonFile(kData + "mixed-list.json", store, report);
    store.finalize();
    QCOMPARE(store.nodeCount(), std::size_t { 2 });
    QCOMPARE(store.podCount(), std::size_t { 2 });

    const NodeId gpu = store.findNode("gpu-1");
    QCOMPARE(store.nodeAllocatable(gpu)[CoreResource::Gpu], 8000);
    QCOMPARE(store.nodeGpuCount(gpu), 8);
    QCOMPARE(store.nodeGpuModel(gpu), std::string_view("NVIDIA-A100-SXM4-40GB")); // nvidia.com/gpu.product wins
    QCOMPARE(store.nodeInstanceType(gpu), std::string_view("p4d.24xlarge"));
    QCOMPARE(store.nodeReadiness(gpu), model::Readiness::False);
    QVERIFY(store.nodeUnschedulable(gpu));
    QCOMPARE(store.nodeTaints(gpu).size(), std::size_t { 2 });
    QCOMPARE(store.nodeTaints(gpu)[1].effect, model::TaintEffect::PreferNoSchedule);
    const int mig = store.resources().find("nvidia.com/mig-1g.10gb");
    const int efa = store.resources().find("vpc.amazonaws.com/efa");
    QVERIFY(mig >= model::kFirstExtendedKey && efa >= model::kFirstExtendedKey);
    QCOMPARE(store.nodeExtendedAllocatable(gpu).size(), std::size_t { 2 });
    QCOMPARE(store.nodeExtendedRequested(gpu, static_cast<model::ResourceKey>(mig)), 3);

    const NodeId trn = store.findNode("trn-1");
    QCOMPARE(store.nodeInstanceType(trn), std::string_view("trn1.32xlarge")); // the beta label
    QCOMPARE(store.nodeReadiness(trn), model::Readiness::Unknown); // no Ready condition
    QCOMPARE(store.nodeGpuCount(trn), 0);

    const PodId trainer(0), neuron(1);
    QCOMPARE(store.podRequest(trainer)[CoreResource::Gpu], 2000);
    QCOMPARE(store.podRequest(trainer)[CoreResource::Cpu], 8000);
    QCOMPARE(extendedRequest(store, trainer, "nvidia.com/mig-1g.10gb"), 3);
    QCOMPARE(extendedRequest(store, trainer, "alibabacloud.com/gpu-count"), 1);
    QCOMPARE(extendedRequest(store, neuron, "aws.amazon.com/neuron"), 4);
    QCOMPARE(
        store.nodeExtendedRequested(trn, static_cast<model::ResourceKey>(store.resources().find("aws.amazon.com/neuron"))), 4);
    QCOMPARE(store.nodeRequested(gpu)[CoreResource::Gpu], 2000);
}

void TestKubeJson::constraintsKept()
{
    model::ClusterStore store;
    importers::ImportReport report;
    importers::importKubectlJsonFile(kData + "mixed-list.json", store, report);
    const PodId trainer(0);
    QCOMPARE(store.podOwnerKind(trainer), model::OwnerKind::StatefulSet); // the controller, not the first owner
    QCOMPARE(store.workloadName(store.podWorkload(trainer)), std::string_view("trainer"));
    QVERIFY(store.podIsMirror(trainer));
    QCOMPARE(store.podPriority(trainer), 1000);
    QCOMPARE(store.podOwnerKind(PodId(1)), model::OwnerKind::Job);
    QVERIFY(!store.podIsMirror(PodId(1)));

    const auto tolerations = store.podTolerations(trainer);
    QCOMPARE(tolerations.size(), std::size_t { 3 });
    QCOMPARE(store.str(tolerations[0].key), std::string_view("nvidia.com/gpu"));
    QCOMPARE(tolerations[0].op, model::TolerationOperator::Exists);
    QCOMPARE(tolerations[0].effect, model::TaintEffect::NoSchedule);
    QCOMPARE(tolerations[1].op, model::TolerationOperator::Equal);
    QCOMPARE(store.str(tolerations[1].value), std::string_view("true"));
    QCOMPARE(tolerations[1].effect, model::TaintEffect::Any);
    QCOMPARE(store.str(tolerations[2].key), std::string_view());

    const auto selector = store.podNodeSelector(trainer);
    QCOMPARE(selector.size(), std::size_t { 1 });
    QCOMPARE(store.str(selector[0].value), std::string_view("p4d.24xlarge"));

    const auto terms = store.podRequiredAffinity(trainer); // preferred terms are not kept
    QCOMPARE(terms.size(), std::size_t { 2 });
    QCOMPARE(terms[0].requirements.size(), std::size_t { 2 });
    QCOMPARE(terms[0].requirements[0].op, model::SelectorOperator::In);
    QCOMPARE(terms[0].requirements[0].values.size(), std::size_t { 2 });
    QCOMPARE(store.str(terms[0].requirements[0].values[1]), std::string_view("NVIDIA-H100-80GB-HBM3"));
    QCOMPARE(terms[0].requirements[1].op, model::SelectorOperator::DoesNotExist);
    QCOMPARE(terms[1].requirements.size(), std::size_t { 2 });
    QCOMPARE(terms[1].requirements[0].op, model::SelectorOperator::Gt);
    QCOMPARE(terms[1].requirements[1].op, model::SelectorOperator::NotIn);
    QVERIFY(terms[1].requirements[1].matchField);
}

void TestKubeJson::conditionsLabelsAndSchedulingFields_data()
{
    QTest::addColumn<int>("window");
    QTest::addColumn<bool>("withKinds");
    QTest::newRow("whole") << 0 << true;
    QTest::newRow("no kinds") << 0 << false;
    QTest::newRow("window 97") << 97 << true;
    QTest::newRow("window 256, no kinds") << 256 << false;
}

void TestKubeJson::conditionsLabelsAndSchedulingFields()
{
    QFETCH(int, window);
    QFETCH(bool, withKinds);
    const std::string nodeKind = withKinds ? R"("kind":"Node",)" : "";
    const std::string podKind = withKinds ? R"("kind":"Pod",)" : "";
    const std::string json = R"({"kind":"List","items":[{)" + nodeKind
        + R"("metadata":{"name":"n1","labels":{"zone":"a"}},"status":{"allocatable":{"cpu":"8"},"conditions":[)"
          R"({"type":"MemoryPressure","status":"True","lastTransitionTime":"2024-05-01T10:20:30Z","reason":"KubeletHasInsufficientMemory","message":"kubelet has insufficient memory available"},)"
          R"({"type":"NetworkUnavailable","status":"False","lastTransitionTime":"2024-05-01T12:20:30.5+02:00","reason":"RouteCreated"},)"
          R"({"type":"Ready","status":"False","lastTransitionTime":null,"message":null}]}},)"
          R"({)" + podKind
        + R"("metadata":{"name":"p1","namespace":"ns","labels":{"app":"web","pod-template-hash":"abc12"},)"
          R"("ownerReferences":[{"kind":"ReplicaSet","name":"web-abc12","controller":true}]},)"
          R"("spec":{"containers":[{"name":"c"}],"schedulingGates":[{"name":"kueue.x-k8s.io/admission"}]},)"
          R"("status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/1 nodes are available: 1 Insufficient cpu."}]}},)"
          R"({)" + podKind
        + R"("metadata":{"name":"p2","namespace":"ns"},"spec":{"containers":[{"name":"c"}]},)"
          R"("status":{"phase":"Running","conditions":[{"type":"PodScheduled","status":"True","message":"ignored"}]}}]})";
    model::ClusterStore store;
    importers::ImportReport report;
    importText(json, store, report, static_cast<std::size_t>(window));
    store.finalize();
    QCOMPARE(store.nodeCount(), std::size_t(1));
    QCOMPARE(store.podCount(), std::size_t(2));
    const auto conditions = store.nodeConditions(model::NodeId(0));
    QCOMPARE(conditions.size(), std::size_t(3));
    QCOMPARE(store.str(conditions[0].type), std::string_view("MemoryPressure"));
    QCOMPARE(conditions[0].status, model::Readiness::True);
    QCOMPARE(conditions[0].lastTransitionUnixSeconds, std::int64_t(1714558830));
    QCOMPARE(store.str(conditions[0].reason), std::string_view("KubeletHasInsufficientMemory"));
    QCOMPARE(store.str(conditions[0].message), std::string_view("kubelet has insufficient memory available"));
    QCOMPARE(conditions[1].lastTransitionUnixSeconds, std::int64_t(1714558830)); // +02:00, fraction dropped
    QCOMPARE(store.str(conditions[1].message), std::string_view(""));
    QCOMPARE(conditions[2].lastTransitionUnixSeconds, std::int64_t(0));
    QCOMPARE(store.nodeReadiness(model::NodeId(0)), model::Readiness::False);
    QCOMPARE(store.nodeLabels(model::NodeId(0)).size(), std::size_t(1));
    const PodId p1(0), p2(1);
    QCOMPARE(store.podLabels(p1).size(), std::size_t(2));
    QCOMPARE(store.str(store.podLabels(p1)[0].key), std::string_view("app"));
    QVERIFY(store.podLabels(p2).empty());
    QCOMPARE(store.podSchedulingMessage(p1), std::string_view("0/1 nodes are available: 1 Insufficient cpu."));
    QVERIFY(store.podSchedulingMessage(p2).empty());
    QCOMPARE(store.podSchedulingGates(p1).size(), std::size_t(1));
    QCOMPARE(store.str(store.podSchedulingGates(p1)[0]), std::string_view("kueue.x-k8s.io/admission"));
    QVERIFY(store.podSchedulingGates(p2).empty());
    // The workload rule: the ReplicaSet's pods carry its pod-template-hash, so the Deployment.
    QCOMPARE(store.podOwnerKind(p1), model::OwnerKind::Deployment);
    QCOMPARE(store.workloadName(store.podWorkload(p1)), std::string_view("web"));
}

void TestKubeJson::malformed_data()
{
    QTest::addColumn<std::string>("json");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("words");

    auto podWith = [](const std::string& requests) {
        return "{\n\"kind\": \"PodList\",\n\"items\": [\n{\"metadata\": {\"name\": \"a\", \"namespace\": \"n\"}},\n"
               "{\"metadata\": {\"name\": \"b\", \"namespace\": \"n\"},\n\"spec\": {\"containers\": [\n{\"name\": \"c\", "
               "\"resources\": {\"requests\": "
            + requests + "}}]}}\n]\n}\n";
    };
    const QString cpuPath = "items[1].spec.containers[0].resources.requests.cpu";
    QTest::newRow("empty text") << std::string() << 0 << QString() << QStringList { "empty file" };
    // A key given twice: kubectl never writes one, and readers differ on which value counts (this
    // importer took the last: a node silently renamed).
    QTest::newRow("node name twice") << std::string("{\"kind\": \"NodeList\", \"items\": [\n{\"metadata\": {\"name\": \"a\",\n\"name\": \"b\"}}]}")
                                     << 3 << QString("items[0].metadata") << QStringList { "the key \"name\" is given twice in one object" };
    QTest::newRow("item field twice") << std::string("{\"kind\": \"PodList\", \"items\": [\n{\"metadata\": {\"name\": \"a\", \"namespace\": \"n\"},\n"
                                                     "\"spec\": {\"nodeName\": \"x\"},\n\"spec\": {\"nodeName\": \"y\"}}]}")
                                      << 4 << QString("items[0]") << QStringList { "the key \"spec\" is given twice in one object" };
    {
        std::string labels;
        for (int i = 0; i < 20; ++i)
            labels += "\"k" + std::to_string(i) + "\": \"v\", ";
        QTest::newRow("label twice in a large object")
            << std::string("{\"kind\": \"NodeList\", \"items\": [\n{\"metadata\": {\"name\": \"a\", \"labels\": {") + labels
                + "\n\"k3\": \"w\"}}}]}"
            << 3 << QString("items[0].metadata.labels") << QStringList { "the key \"k3\" is given twice in one object" };
    }
    QTest::newRow("bad lastTransitionTime")
        << std::string("{\"kind\": \"NodeList\", \"items\": [\n{\"metadata\": {\"name\": \"a\"}, \"status\": {\"conditions\": [\n"
                       "{\"type\": \"Ready\", \"status\": \"True\", \"lastTransitionTime\": \"yesterday\"}]}}]}")
        << 3 << QString("items[0].status.conditions[0].lastTransitionTime") << QStringList { "RFC 3339", "\"yesterday\"" };
    QTest::newRow("only whitespace") << std::string(" \n\t\n") << 0 << QString() << QStringList { "only whitespace" };
    QTest::newRow("kubectl log line before the JSON")
        << std::string("I1130 12:00:00.000000   48213 request.go:697] Waited for 1.1s due to client-side "
                       "throttling\n{\"kind\":\"List\",\"items\":[]}")
        << 1 << QString() << QStringList { "not JSON", "I1130 12:00:00.000000", "2>/dev/null" };
    QTest::newRow("YAML") << std::string("apiVersion: v1\nkind: List\nitems: []\n") << 1 << QString()
                          << QStringList { "not JSON", "YAML" };
    QTest::newRow("HTML") << std::string("\n\n<html><body>502 Bad Gateway</body></html>") << 3 << QString()
                          << QStringList { "HTML page", "502 Bad Gateway" };
    QTest::newRow("truncated") << std::string("{\n\"kind\": \"List\",\n\"items\": [\n{\"kind\": \"Node\", \"metadata\": "
                                              "{\"name\": \"a\"}},\n{\"kind\": \"Node\", \"metadata\": {")
                               << 5 << QString("items[1].metadata") << QStringList { "truncated" };
    QTest::newRow("truncated inside a string")
        << std::string("{\"kind\": \"List\", \"items\": [{\"kind\": \"Node\", \"metadata\": {\"name\": \"a") << -1 << QString()
        << QStringList { "truncated" };
    QTest::newRow("log line inside the JSON")
        << std::string("{\n\"kind\": \"List\",\n\"items\": [\n{\"kind\": \"Node\", \"metadata\": {\"name\": \"a\"}},\nE1130 "
                       "12:00:01.000 x.go:1] oops\n{\"kind\": \"Node\", \"metadata\": {\"name\": \"b\"}}\n]}")
        << 5 << QString("items[1]") << QStringList { "malformed JSON", "E1130 12:00:01.000" };
    QTest::newRow("invalid UTF-8 in a name")
        << std::string("{\n\"kind\": \"NodeList\",\n\"items\": [\n{\"metadata\": {\"name\": \"a\xff\xfe\"}}\n]\n}\n") << 4
        << QString() << QStringList { "not valid UTF-8" };
    QTest::newRow("text after the JSON") << std::string("{\"kind\": \"List\", \"items\": []}\nW1130 done\n") << 2 << QString()
                                         << QStringList { "after the end", "W1130 done" };
    QTest::newRow("text after a one-line document")
        << std::string("{\"kind\": \"List\", \"items\": []} trailing garbage\n") << 1 << QString()
        << QStringList { "after the end of the JSON document: \"trailing garbage\"" };
    QTest::newRow("long text after the end")
        << std::string("{\n\"kind\": \"List\",\n\"items\": []\n}   ") + std::string(30, 'x') + std::string(30, 'y') << 4
        << QString() << QStringList { "document: \"" + QString(30, 'x') + QString(10, 'y') + "...\"" };
    QTest::newRow("text after a bare array") << std::string("[]  [1]") << 1 << QString() << QStringList { "document: \"[1]\"" };
    QTest::newRow("control bytes after the end")
        << std::string("{\"items\": []}\x1b[2J\x07") << 1 << QString() << QStringList { "document: \"\\x1B[2J\\x07\"" };
    const QString binary = ", not kubectl JSON or a trace CSV";
    QTest::newRow("ELF") << std::string("\x7f"
                                        "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0>\0",
        20) << 0 << QString()
                         << QStringList { "binary file (looks like ELF)" + binary };
    QTest::newRow("PNG") << std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << 0 << QString()
                         << QStringList { "binary file (looks like PNG)" + binary };
    QTest::newRow("zip") << std::string("PK\x03\x04\x14\0\0\0\x08\0", 10) << 0 << QString()
                         << QStringList { "binary file (looks like zip)" + binary };
    QTest::newRow("gzip") << std::string("\x1f\x8b\x08\0\0\0\0\0\0\x03", 10) << 0 << QString()
                          << QStringList { "binary file (looks like gzip)" + binary };
    QTest::newRow("NUL inside the JSON") << std::string("{\"kind\": \"List\",\n\"items\": [\0]}", 30) << 0 << QString()
                                         << QStringList { "binary file (it holds NUL bytes)" + binary };
    QTest::newRow("UTF-16") << std::string("\xFF\xFE{\0\"\0k\0", 8) << 0 << QString() << QStringList { "UTF-16 text" };
    QTest::newRow("terminal colours before the JSON")
        << std::string("\x1b[31mERROR\x1b[0m cannot connect\n{\"items\": []}") << 1 << QString()
        << QStringList { "not JSON", "\"\\x1B[31mERROR\\x1B[0m cannot connect\"" };
    QTest::newRow("escape in a quantity") << podWith(R"({"cpu": "\u001b[2J"})") << 7 << cpuPath
                                          << QStringList { "invalid quantity \"\\x1B[2J\"" };
    QTest::newRow("escape in a negative quantity")
        << podWith(R"({"cpu": "-1\u0007"})") << 7 << cpuPath << QStringList { "quantity \"-1\\x07\"" };
    QTest::newRow("escape in a taint effect")
        << std::string("{\"kind\":\"NodeList\",\"items\":[{\"metadata\":{\"name\":\"a\"},"
                       "\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"\\u001b]0;x\\u0007\"}]}}]}")
        << 1 << QString("items[0].spec.taints[0].effect") << QStringList { "unknown taint effect \"\\x1B]0;x\\x07\"" };
    QTest::newRow("escape in a Status message")
        << std::string(R"({"kind":"Status","status":"Failure","message":"no\u001b[2J","reason":"Forbidden","code":403})") << 1
        << QString() << QStringList { "Forbidden", ": no\\x1B[2J" };
    QTest::newRow("bidi override in a resource name")
        << podWith("{\"x\xE2\x80\xAE\": -1}") << 7
        << QString("items[1].spec.containers[0].resources.requests[\"x\\xE2\\x80\\xAE\"]") << QStringList { "negative quantity" };
    QTest::newRow("escape in a kind") << std::string(R"({"kind":"Deploy\u001bment","metadata":{"name":"d"}})") << 1 << QString()
                                      << QStringList { "got kind Deploy\\x1Bment" };
    QTest::newRow("Status Forbidden") << std::string(
        R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes is forbidden: User \"bob\" cannot list resource \"nodes\"","reason":"Forbidden","code":403})")
                                      << 1 << QString() << QStringList { "Status", "Forbidden", "cannot list resource", "403" };
    QTest::newRow("labels is an array") << std::string(
        "{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"a\",\n\"labels\":[\"x\"]}}]}")
                                        << 3 << QString("items[0].metadata.labels")
                                        << QStringList { "expected an object", "got an array" };
    QTest::newRow("items is an object") << std::string("{\"kind\":\"List\",\n\"items\":{}}") << 2 << QString("items")
                                        << QStringList { "expected an array", "got an object" };
    QTest::newRow("name is a number") << std::string("{\"kind\":\"NodeList\",\"items\":[{\"metadata\":{\"name\":42}}]}") << 1
                                      << QString("items[0].metadata.name") << QStringList { "expected a string", "got a number" };
    QTest::newRow("quantity 2GB") << podWith(R"({"cpu": "2GB"})") << 7 << cpuPath << QStringList { "invalid quantity", "2GB" };
    QTest::newRow("quantity 64K") << podWith(R"({"cpu": "64K"})") << 7 << cpuPath << QStringList { "invalid quantity", "64K" };
    QTest::newRow("quantity 1e3m") << podWith(R"({"cpu": "1e3m"})") << 7 << cpuPath << QStringList { "invalid quantity", "1e3m" };
    QTest::newRow("quantity empty") << podWith(R"({"cpu": ""})") << 7 << cpuPath << QStringList { "invalid quantity" };
    QTest::newRow("quantity is true") << podWith(R"({"cpu": true})") << 7 << cpuPath
                                      << QStringList { "expected a quantity", "got a boolean" };
    QTest::newRow("negative request") << podWith(R"({"memory": "-1Gi"})") << 7
                                      << QString("items[1].spec.containers[0].resources.requests.memory")
                                      << QStringList { "negative quantity", "-1Gi" };
    QTest::newRow("negative number") << podWith(R"({"nvidia.com/gpu": -1})") << 7
                                     << QString("items[1].spec.containers[0].resources.requests[\"nvidia.com/gpu\"]")
                                     << QStringList { "negative quantity" };
    // An extended resource counts whole units: the API server refuses "1.5" GPUs (once taken as 2).
    QTest::newRow("fractional GPU request") << podWith(R"({"nvidia.com/gpu": "1.5"})") << 7
                                            << QString("items[1].spec.containers[0].resources.requests[\"nvidia.com/gpu\"]")
                                            << QStringList { "invalid quantity \"1.5\"", "must be an integer" };
    QTest::newRow("fractional extended request") << podWith(R"({"example.com/foo": "500m"})") << 7
                                                 << QString("items[1].spec.containers[0].resources.requests[\"example.com/foo\"]")
                                                 << QStringList { "\"example.com/foo\": must be an integer" };
    QTest::newRow("fractional GPU allocatable") << std::string(
        "{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"g\"},\"status\":{\"allocatable\":{\n\"nvidia.com/gpu\": \"7.5\"}}}]}")
                                                << 3 << QString("items[0].status.allocatable[\"nvidia.com/gpu\"]")
                                                << QStringList { "invalid quantity \"7.5\"", "must be an integer" };
    QTest::newRow("node without a name") << std::string(
        "{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"labels\":{}},\"status\":{}}]}")
                                         << 2 << QString("items[0].metadata") << QStringList { "node without a name" };
    QTest::newRow("duplicate node") << std::string(
        "{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"a\"}},\n{\"metadata\":{\"name\":\"a\"}}]}")
                                    << 3 << QString("items[1].metadata.name") << QStringList { "duplicate node \"a\"" };
    QTest::newRow("pod without a namespace") << std::string("{\"kind\":\"PodList\",\"items\":[{\"metadata\":{\"name\":\"a\"}}]}")
                                             << 1 << QString("items[0].metadata") << QStringList { "without a namespace" };
    QTest::newRow("unknown taint effect") << std::string("{\"kind\":\"NodeList\",\"items\":[{\"metadata\":{\"name\":\"a\"},"
                                                         "\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoWay\"}]}}]}")
                                          << 1 << QString("items[0].spec.taints[0].effect")
                                          << QStringList { "unknown taint effect", "NoWay" };
    QTest::newRow("unknown selector operator") << podWith("{}").replace(podWith("{}").find("\"name\": \"c\""), 11,
        "\"name\": \"c\"}], \"affinity\": {\"nodeAffinity\": {\"requiredDuringSchedulingIgnoredDuringExecution\": "
        "{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"k\", \"operator\": \"Like\"}]}]}}}, \"x\": [{\"y\": 1")
                                               << 7
                                               << QString("items[1].spec.affinity.nodeAffinity."
                                                          "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]."
                                                          "matchExpressions[0].operator")
                                               << QStringList { "unknown node selector operator", "Like" };
    QTest::newRow("neither Node nor Pod") << std::string("{\"kind\":\"List\",\"items\":[{\"metadata\":{\"name\":\"a\"}}]}") << 1
                                          << QString("items[0]") << QStringList { "cannot tell whether" };
    QTest::newRow("single Deployment") << std::string("{\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"}}") << 1 << QString()
                                       << QStringList { "got kind Deployment" };
    // No Kubernetes name or label holds a control character (DNS-1123, label syntax): a name with
    // one is refused where it stands, never carried on to a terminal, a CSV or a script.
    QTest::newRow("node name with ESC") << std::string("{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"a\\u001b[2J\"}}]}")
                                        << 2 << QString("items[0].metadata.name")
                                        << QStringList { "the name \"a\\x1B[2J\" holds the control character \\x1B (byte 2), which no Kubernetes name or label holds" };
    QTest::newRow("node name with NUL") << std::string("{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"a\\u0000b\"}}]}")
                                        << 2 << QString("items[0].metadata.name") << QStringList { "holds the control character \\x00 (byte 2)" };
    QTest::newRow("pod name with CR") << std::string("{\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"namespace\":\"n\",\n\"name\":\"p\\r\"}}]}")
                                      << 3 << QString("items[0].metadata.name") << QStringList { "the name \"p\\x0D\" holds the control character \\x0D" };
    QTest::newRow("namespace with C1 CSI") << std::string("{\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"name\":\"p\",\n\"namespace\":\"n\\u009b2J\"}}]}")
                                           << 3 << QString("items[0].metadata.namespace") << QStringList { "the namespace", "holds the control character U+009B" };
    QTest::newRow("label value with BEL") << std::string("{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"a\",\n\"labels\":{\"zone\":\"z\\u0007\"}}}]}")
                                          << 3 << QString("items[0].metadata.labels.zone") << QStringList { "the label value \"z\\x07\" holds the control character \\x07" };
    QTest::newRow("label key with LF") << std::string("{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"a\",\n\"labels\":{\"zo\\nne\":\"z\"}}}]}")
                                       << 3 << QString("items[0].metadata.labels[\"zo\\nne\"]") << QStringList { "the label key \"zo\\x0Ane\" holds the control character \\x0A" };
    QTest::newRow("pod node name with ESC") << std::string("{\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"name\":\"p\",\"namespace\":\"n\"},\n\"spec\":{\"nodeName\":\"x\\u001b]0;t\\u0007\",\"containers\":[]}}]}")
                                            << 3 << QString("items[0].spec.nodeName") << QStringList { "the node name \"x\\x1B]0;t\\x07\" holds the control character \\x1B" };
    // Names as the API server validates them by kind (ValidateNodeName, ValidatePodName,
    // ValidateNamespaceName): a node, a pod and spec.nodeName are DNS-1123 subdomains, a
    // namespace a DNS-1123 label. No cluster holds another, so the file is refused at the name.
    QTest::newRow("node name upper case") << std::string("{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"Node-1\"}}]}")
                                          << 2 << QString("items[0].metadata.name")
                                          << QStringList { "the node name \"Node-1\" is not a valid Kubernetes name: it holds \"N\" (byte 1), and a DNS-1123 subdomain holds only lower-case letters, digits, '-' and '.'" };
    QTest::newRow("node name ends with '-'") << std::string("{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"a.b-\"}}]}")
                                             << 2 << QString("items[0].metadata.name")
                                             << QStringList { "the node name \"a.b-\"", "each dot-separated part of a DNS-1123 subdomain starts and ends" };
    QTest::newRow("node name 254 characters") << ("{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"" + std::string(254, 'a') + "\"}}]}")
                                              << 2 << QString("items[0].metadata.name")
                                              << QStringList { "it is 254 characters long, and a DNS-1123 subdomain has at most 253" };
    QTest::newRow("pod name with '_'") << std::string("{\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"namespace\":\"n\",\n\"name\":\"web_1\"},\"spec\":{\"containers\":[]}}]}")
                                       << 3 << QString("items[0].metadata.name")
                                       << QStringList { "the pod name \"web_1\" is not a valid Kubernetes name", "holds \"_\" (byte 4)" };
    QTest::newRow("pod namespace with '.'") << std::string("{\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"name\":\"p\",\n\"namespace\":\"team.a\"},\"spec\":{\"containers\":[]}}]}")
                                            << 3 << QString("items[0].metadata.namespace")
                                            << QStringList { "the namespace \"team.a\" is not a valid Kubernetes name: it holds \".\" (byte 5), and a DNS-1123 label holds only lower-case letters, digits and '-'" };
    QTest::newRow("pod namespace 64 characters") << ("{\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"name\":\"p\",\n\"namespace\":\"" + std::string(64, 'n') + "\"},\"spec\":{\"containers\":[]}}]}")
                                                 << 3 << QString("items[0].metadata.namespace")
                                                 << QStringList { "it is 64 characters long, and a DNS-1123 label has at most 63" };
    QTest::newRow("pod node name with ':'") << std::string("{\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"name\":\"p\",\"namespace\":\"n\"},\n\"spec\":{\"nodeName\":\"host:1\",\"containers\":[]}}]}")
                                            << 3 << QString("items[0].spec.nodeName")
                                            << QStringList { "the node name \"host:1\" is not a valid Kubernetes name" };
    QTest::newRow("Namespace name with '.'") << std::string("{\"kind\":\"NamespaceList\",\"items\":[\n{\"metadata\":{\"name\":\"a.b\"}}]}")
                                             << 2 << QString("items[0].metadata.name")
                                             << QStringList { "the namespace name \"a.b\" is not a valid Kubernetes name", "DNS-1123 label" };
    QTest::newRow("second node invalid") << std::string("{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"ok\"}},\n{\"metadata\":{\"name\":\"-bad\"}}]}")
                                         << 3 << QString("items[1].metadata.name")
                                         << QStringList { "the node name \"-bad\"" };
    QTest::newRow("trailing comma") << std::string("{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"a\"}},\n]}")
                                    << 3 << QString("items[1]") << QStringList { "malformed JSON" };
    QTest::newRow("two commas") << std::string(
        "{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"a\"}},\n,{\"metadata\":{\"name\":\"b\"}}]}")
                                << 3 << QString("items[1]") << QStringList { "malformed JSON" };
    QTest::newRow("comma first") << std::string("{\"kind\":\"NodeList\",\"items\":[\n,{\"metadata\":{\"name\":\"a\"}}]}") << 2
                                 << QString("items[0]") << QStringList { "malformed JSON" };
    QTest::newRow("missing comma") << std::string(
        "{\"kind\":\"NodeList\",\"items\":[\n{\"metadata\":{\"name\":\"a\"}}\n{\"metadata\":{\"name\":\"b\"}}]}")
                                   << 3 << QString("items") << QStringList { "malformed JSON" };
}

void TestKubeJson::malformed()
{
    QFETCH(std::string, json);
    QFETCH(int, line);
    QFETCH(QString, path);
    QFETCH(QStringList, words);
    // The same error whatever the window size: a cut item is never blamed for the cut.
    std::vector<std::size_t> windows { 0 };
    for (std::size_t w = 64; w <= json.size() + 1; ++w)
        windows.push_back(w);
    std::string firstMessage;
    for (std::size_t window : windows) {
        model::ClusterStore store;
        importers::ImportReport report;
        try {
            importText(json, store, report, window);
            QFAIL(qPrintable(QString("accepted (window %1)").arg(window)));
        } catch (const importers::ImportError& e) {
            const QString what = QString::fromStdString(e.what());
            if (window == 0) {
                firstMessage = e.what();
                QVERIFY2(what.startsWith("case.json"), qPrintable(what));
                QCOMPARE(e.file(), std::string("case.json"));
                if (line >= 0)
                    QVERIFY2(static_cast<int>(e.line()) == line, qPrintable(QString("line %1: %2").arg(e.line()).arg(what)));
                QVERIFY2(QString::fromStdString(e.path()) == path, qPrintable(QString("path: ") + what));
                for (const QString& word : words)
                    QVERIFY2(what.contains(word), qPrintable(QString("missing \"%1\" in: %2").arg(word, what)));
                // Input is quoted safely: the message is printable, valid UTF-8.
                QVERIFY2(QUtf8StringView(firstMessage).isValidUtf8(), qPrintable(what));
                QVERIFY2(std::none_of(firstMessage.begin(), firstMessage.end(),
                             [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }),
                    qPrintable(what));
            } else {
                QVERIFY2(firstMessage == e.what(),
                    qPrintable(QString("window %1 gives \"%2\", the whole text \"%3\"")
                                   .arg(window)
                                   .arg(what, QString::fromStdString(firstMessage))));
            }
        }
    }
}

void TestKubeJson::malformedFiles_data()
{
    QTest::addColumn<std::string>("file");
    QTest::addColumn<int>("line");
    QTest::addColumn<QStringList>("words");
    QTest::newRow("empty.json") << std::string("empty.json") << 0 << QStringList { "empty file" };
    QTest::newRow("kubectl-warning.json") << std::string("kubectl-warning.json") << 1
                                          << QStringList { "not JSON", "W1130 12:00:00.000000", "warnings.go:70" };
    QTest::newRow("status-forbidden.json") << std::string("status-forbidden.json") << 1
                                           << QStringList { "Status", "reason Forbidden", "alice@example.com" };
    QTest::newRow("login.html") << std::string("login.html") << 1 << QStringList { "HTML page", "<!DOCTYPE html>" };
    QTest::newRow("truncated.json") << std::string("truncated.json") << 44 << QStringList { "truncated" };
    QTest::newRow("bad-quantity.json") << std::string("bad-quantity.json") << 101
                                       << QStringList { "items[4].spec.containers[0].resources.requests.cpu", "2GB" };
}

void TestKubeJson::malformedFiles()
{
    QFETCH(std::string, file);
    QFETCH(int, line);
    QFETCH(QStringList, words);
    model::ClusterStore store;
    importers::ImportReport report;
    try {
        importers::importKubectlJsonFile(kData + file, store, report);
        QFAIL("accepted");
    } catch (const importers::ImportError& e) {
        const QString what = QString::fromStdString(e.what());
        QVERIFY2(what.startsWith(QString::fromStdString(kData + file)), qPrintable(what));
        QVERIFY2(static_cast<int>(e.line()) == line, qPrintable(QString("line %1: %2").arg(e.line()).arg(what)));
        for (const QString& word : words)
            QVERIFY2(what.contains(word), qPrintable(QString("missing \"%1\" in: %2").arg(word, what)));
    }
}

QTEST_GUILESS_MAIN(TestKubeJson)
#include "tst_kubejson.moc"
