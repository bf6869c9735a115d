// SPDX-License-Identifier: Apache-2.0
// Tests of the kubectl importer's what-if fields (kubejson.h) and their storage in the
// ClusterStore (interned sets): pod affinity, anti-affinity, spread constraints, host ports,
// volumes through PersistentVolumes, disruption budgets, namespaces, flags, uids; the errors
// for invalid values (file, line, JSON path); and that pods of one workload share their sets.
// Expected values come from the hand-written fixtures in tests/data/kube/scheduling-*.json and
// the API's rules (core/v1 PodAffinityTerm, TopologySpreadConstraint, ContainerPort; policy/v1
// PodDisruptionBudget).

#include "importers/clusterloader.h"
#include "importers/kube/kubejson.h"

#include <QTest>

#include <algorithm>
#include <string>

using namespace fleet::importers;
using namespace fleet::model;

namespace {

const std::string kData = FLEET_TEST_DATA_DIR "/kube/";

PodId findPod(const ClusterStore& s, std::string_view ns, std::string_view name)
{
    for (std::uint32_t i = 0; i < s.podCount(); ++i)
        if (s.podNamespace(PodId(i)) == ns && s.podName(PodId(i)) == name)
            return PodId(i);
    return {};
}

std::string selectorText(const ClusterStore& s, const InternedSelector& sel)
{
    if (sel.null)
        return "null";
    std::string out;
    for (const MatchRequirement& r : sel.requirements) {
        if (!out.empty())
            out += ",";
        out += std::string(s.str(r.key));
        out += r.op == MatchOperator::In ? " in (" : r.op == MatchOperator::NotIn ? " notin (" : r.op == MatchOperator::Exists ? " exists (" : " !exists (";
        for (std::size_t i = 0; i < r.values.size(); ++i)
            out += (i ? " " : "") + std::string(s.str(r.values[i]));
        out += ")";
    }
    return out;
}

LoadedCluster loadAll()
{
    // Pods before the PersistentVolumes: claims are bound once every file is read.
    return loadClusterFiles({ kData + "scheduling-pods.json", kData + "scheduling-nodes.json", kData + "scheduling-pvs.json",
        kData + "scheduling-pdbs.json", kData + "scheduling-namespaces.json" });
}

/// A PodList of `n` pods of one Deployment, each with the same anti-affinity and spread
/// constraint (or none), and distinct uids.
std::string workloadPods(int n, bool constraints)
{
    std::string json = R"({"kind": "PodList", "items": [)";
    for (int i = 0; i < n; ++i) {
        json += i ? "," : "";
        json += R"({"kind": "Pod", "metadata": {"name": "p)" + std::to_string(i) + R"(", "namespace": "ns", "uid": "uid-)"
            + std::to_string(1000000 + i) + R"(", "labels": {"app": "a"}}, "spec": {"containers": [{"name": "c"}])";
        if (constraints)
            json += R"(, "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector":
                {"matchLabels": {"app": "a"}}, "topologyKey": "kubernetes.io/hostname"}]}},
                "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "a"}}}])";
        json += "}}";
    }
    return json + "]}";
}

} // namespace

class TestKubeScheduling : public QObject {
    Q_OBJECT

private slots:
    void podFlagsAndUid();
    void podAffinityTerms();
    void spreadConstraints();
    void hostPorts();
    void volumesBoundAfterEveryFile();
    void disruptionBudgets();
    void namespaces();
    void namespaceListWithKindLast_data();
    void namespaceListWithKindLast();
    void undecidableItemsBeforeKind();
    void listsWithKindLast_data();
    void listsWithKindLast();
    void exactRequestFromJson();
    void workloadSharesSets();
    void invalidValues_data();
    void invalidValues();
};

void TestKubeScheduling::podFlagsAndUid()
{
    const LoadedCluster c = loadAll();
    const ClusterStore& s = *c.store;
    const PodId a = findPod(s, "shop", "web-a"), b = findPod(s, "shop", "web-b"), t = findPod(s, "ml", "train-0");
    QVERIFY(a.isValid() && b.isValid() && t.isValid());
    QCOMPARE(s.podUid(a), std::string_view("0d6f3c1e-4b1a-4c59-9d1e-000000000001"));
    QCOMPARE(s.podUid(t), std::string_view(""));
    QCOMPARE(s.podFlags(a), std::uint16_t(PodFlagDoNotDisrupt | PodFlagLocalStorage | PodFlagResourceClaims | PodFlagReady));
    QCOMPARE(s.podFlags(b), std::uint16_t(PodFlagNone)); // Ready False
    // safe-to-evict "false" stops an eviction; do-not-disrupt "false" does not undo it.
    QCOMPARE(s.podFlags(t), std::uint16_t(PodFlagDoNotDisrupt | PodFlagPodGroup));
    QVERIFY(s.hasPodAffinity());
}

void TestKubeScheduling::podAffinityTerms()
{
    const LoadedCluster c = loadAll();
    const ClusterStore& s = *c.store;
    const PodId a = findPod(s, "shop", "web-a");
    const auto anti = s.podAntiAffinity(a);
    QCOMPARE(anti.size(), std::size_t(1)); // the preferred term is not kept
    // matchLabelKeys folded with the pod's own value; a key the pod lacks is ignored.
    QCOMPARE(selectorText(s, anti[0].selector), std::string("app in (web),pod-template-hash in (abc12)"));
    QCOMPARE(s.str(anti[0].topologyKey), std::string_view("kubernetes.io/hostname"));
    QVERIFY(anti[0].namespaces.empty());
    QVERIFY(!anti[0].hasNamespaceSelector);

    const auto aff = s.podAffinity(a);
    QCOMPARE(aff.size(), std::size_t(2));
    // Values deduplicated (sorted by id); mismatchLabelKeys become NotIn.
    const std::string first = selectorText(s, aff[0].selector);
    QVERIFY2(first == "tier in (cache db),app notin (web)" || first == "tier in (db cache),app notin (web)", first.c_str());
    QCOMPARE(aff[0].namespaces.size(), std::size_t(2));
    QVERIFY(std::is_sorted(aff[0].namespaces.begin(), aff[0].namespaces.end()));
    QCOMPARE(s.str(aff[0].topologyKey), std::string_view("topology.kubernetes.io/zone"));
    QCOMPARE(selectorText(s, aff[1].selector), std::string("tier exists ()"));
    QVERIFY(aff[1].hasNamespaceSelector);
    QCOMPARE(selectorText(s, aff[1].namespaceSelector), std::string("team in (a)"));
}

void TestKubeScheduling::spreadConstraints()
{
    const LoadedCluster c = loadAll();
    const ClusterStore& s = *c.store;
    const auto spread = s.podSpreadConstraints(findPod(s, "shop", "web-a"));
    QCOMPARE(spread.size(), std::size_t(2));
    QCOMPARE(spread[0].maxSkew, 1);
    QCOMPARE(s.str(spread[0].topologyKey), std::string_view("topology.kubernetes.io/zone"));
    QCOMPARE(spread[0].whenUnsatisfiable, WhenUnsatisfiable::DoNotSchedule);
    QCOMPARE(selectorText(s, spread[0].selector), std::string("app in (web),pod-template-hash in (abc12)"));
    QCOMPARE(spread[0].minDomains, 3);
    QCOMPARE(spread[0].nodeAffinityPolicy, NodeInclusionPolicy::Honor); // API defaults
    QCOMPARE(spread[0].nodeTaintsPolicy, NodeInclusionPolicy::Ignore);
    QCOMPARE(spread[1].maxSkew, 2);
    QCOMPARE(spread[1].whenUnsatisfiable, WhenUnsatisfiable::ScheduleAnyway);
    QCOMPARE(spread[1].minDomains, 1);
    QCOMPARE(spread[1].nodeAffinityPolicy, NodeInclusionPolicy::Ignore);
    QCOMPARE(spread[1].nodeTaintsPolicy, NodeInclusionPolicy::Honor);
    QVERIFY(s.podSpreadConstraints(findPod(s, "shop", "db-0")).empty());
}

void TestKubeScheduling::hostPorts()
{
    const LoadedCluster c = loadAll();
    const ClusterStore& s = *c.store;
    const auto ports = s.podHostPorts(findPod(s, "shop", "web-a"));
    // The sidecar's 9090 is held; the plain init container's 7070 is not; containerPort 80
    // without hostPort takes nothing on the node.
    QCOMPARE(ports.size(), std::size_t(3));
    QCOMPARE(ports[0].port, std::uint16_t(9090));
    QCOMPARE(ports[1].port, std::uint16_t(8080));
    QCOMPARE(ports[1].protocol, PortProtocol::TCP);
    QCOMPARE(s.str(ports[1].hostIP), std::string_view(""));
    QCOMPARE(ports[2].port, std::uint16_t(53));
    QCOMPARE(ports[2].protocol, PortProtocol::UDP);
    QCOMPARE(s.str(ports[2].hostIP), std::string_view("10.0.0.1"));
}

void TestKubeScheduling::volumesBoundAfterEveryFile()
{
    const LoadedCluster c = loadAll();
    const ClusterStore& s = *c.store;
    const auto db = s.podVolumes(findPod(s, "shop", "db-0"));
    // pv-db-0 constrains (zones and node affinity); pv-logs has neither and is not stored.
    QCOMPARE(db.size(), std::size_t(1));
    QCOMPARE(s.str(db[0].volume), std::string_view("pv-db-0"));
    QCOMPARE(db[0].zoneLabels.size(), std::size_t(1));
    QCOMPARE(s.str(db[0].zoneLabels[0].first), std::string_view("topology.kubernetes.io/zone"));
    QCOMPARE(db[0].zoneLabels[0].second.size(), std::size_t(2)); // "us-east-1a__us-east-1b"
    QCOMPARE(s.str(db[0].zoneLabels[0].second[1]), std::string_view("us-east-1b"));
    QCOMPARE(db[0].nodeAffinity.size(), std::size_t(1));
    QCOMPARE(s.str(db[0].nodeAffinity[0].requirements[0].values[0]), std::string_view("node-1"));
    const auto web = s.podVolumes(findPod(s, "shop", "web-a"));
    QCOMPARE(web.size(), std::size_t(1));
    QVERIFY(web[0].zoneLabels.empty());
    QCOMPARE(s.str(web[0].volume), std::string_view("pv-web-a"));
    QVERIFY(c.report.warnings.empty());

    // Without the PV list claims constrain nothing, silently.
    const LoadedCluster bare = loadClusterFiles({ kData + "scheduling-pods.json", kData + "scheduling-nodes.json" });
    QVERIFY(bare.store->podVolumes(findPod(*bare.store, "shop", "db-0")).empty());
    QVERIFY(bare.report.warnings.empty());
}

void TestKubeScheduling::disruptionBudgets()
{
    const LoadedCluster c = loadAll();
    const ClusterStore& s = *c.store;
    const auto budgets = s.disruptionBudgets();
    QCOMPARE(budgets.size(), std::size_t(4));
    QCOMPARE(s.str(budgets[0].name), std::string_view("web"));
    QCOMPARE(budgets[0].minAvailable, (IntOrPercent { true, true, 50 }));
    QVERIFY(!budgets[0].maxUnavailable.set);
    QCOMPARE(budgets[0].disruptionsAllowed, 0);
    QCOMPARE(selectorText(s, budgets[0].selector), std::string("app in (web)"));
    QCOMPARE(budgets[1].maxUnavailable, (IntOrPercent { true, false, 1 }));
    QCOMPARE(budgets[1].disruptionsAllowed, -1); // no status
    QCOMPARE(budgets[2].maxUnavailable, (IntOrPercent { true, true, 0 }));
    QVERIFY(!budgets[2].selector.null && budgets[2].selector.requirements.empty()); // {}: every pod of ml
    QVERIFY(budgets[3].selector.null);                                              // absent: no pod
}

void TestKubeScheduling::namespaces()
{
    const LoadedCluster c = loadAll();
    const ClusterStore& s = *c.store;
    QVERIFY(s.namespacesKnown());
    const auto shop = s.namespaceLabels(s.strings().find("shop"));
    QCOMPARE(shop.size(), std::size_t(2));
    QCOMPARE(s.str(shop[0].key), std::string_view("team"));
    QCOMPARE(s.str(shop[0].value), std::string_view("a"));
    QVERIFY(s.namespaceLabels(s.strings().find("ml")).empty());
}

void TestKubeScheduling::namespaceListWithKindLast_data()
{
    // What `kubectl get ns -o json | jq -S` makes: keys sorted, so "items" before "kind", and
    // the items without a kind of their own (a server's list answer has none). Whole, and in
    // windows small enough that the list's kind is read in a later window than the items.
    QTest::addColumn<int>("windowBytes");
    QTest::newRow("one window") << (4 << 20);
    QTest::newRow("64-byte windows") << 64;
}

void TestKubeScheduling::namespaceListWithKindLast()
{
    QFETCH(int, windowBytes);
    const std::string json = R"({
  "apiVersion": "v1",
  "items": [
    {
      "apiVersion": "v1",
      "metadata": {
        "labels": {
          "kubernetes.io/metadata.name": "shop",
          "team": "a"
        },
        "name": "shop",
        "resourceVersion": "17"
      },
      "spec": {
        "finalizers": [
          "kubernetes"
        ]
      },
      "status": {
        "phase": "Active"
      }
    },
    {
      "apiVersion": "v1",
      "metadata": {
        "name": "ml"
      },
      "spec": {
        "finalizers": [
          "kubernetes"
        ]
      },
      "status": {
        "phase": "Terminating"
      }
    }
  ],
  "kind": "NamespaceList",
  "metadata": {
    "resourceVersion": "42"
  }
}
)";
    ClusterStore store;
    ImportReport report;
    KubectlJsonOptions options;
    options.windowBytes = static_cast<std::size_t>(windowBytes);
    importKubectlJsonText(json, "ns.json", store, report, nullptr, options);
    QVERIFY(store.namespacesKnown());
    const auto shop = store.namespaceLabels(store.strings().find("shop"));
    QCOMPARE(shop.size(), std::size_t(2));
    const auto team = std::find_if(shop.begin(), shop.end(), [&](const Label& l) { return store.str(l.key) == "team"; });
    QVERIFY(team != shop.end());
    QCOMPARE(store.str(team->value), std::string_view("a"));
    QVERIFY(store.strings().find("ml").isValid());
    QCOMPARE(store.nodeCount(), std::size_t(0));
    QCOMPARE(store.podCount(), std::size_t(0));
    for (const std::string& w : report.warnings) // no "unrecognised status.phase", no "no items"
        QVERIFY2(w.find("phase") == std::string::npos && w.find("no items") == std::string::npos, w.c_str());
}

void TestKubeScheduling::undecidableItemsBeforeKind()
{
    // Items that are neither a Node nor a Pod, in a list whose kind (after them) names neither
    // a Namespace list: the first is the error, at its place.
    ClusterStore store;
    ImportReport report;
    try {
        importKubectlJsonText(R"({"items": [{"metadata": {"name": "x"}},
{"metadata": {"name": "y"}}], "kind": "List"})",
            "bad.json", store, report);
        QFAIL("no error");
    } catch (const ImportError& e) {
        QCOMPARE(e.line(), std::size_t(1));
        QCOMPARE(QString::fromStdString(e.path()), QStringLiteral("items[0]"));
        const QString message = QString::fromStdString(e.message());
        QVERIFY2(message.contains("cannot tell what kind of object this item is"), e.what());
        QVERIFY2(message.contains("\"List\") comes after its items and does not name their kind"), e.what());
        QVERIFY2(!message.contains("names neither"), e.what());
    }
}

void TestKubeScheduling::listsWithKindLast_data()
{
    // Every list kind as `jq -S` writes a server's answer: "items" before "kind", items
    // without a kind of their own. Each is read as when its kind comes first; in windows small
    // enough that the list's kind is read in a later window than its items too.
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("item");
    QTest::addColumn<int>("windowBytes");
    const QString budget = R"({"metadata": {"name": "app-pdb", "namespace": "default"},
      "spec": {"maxUnavailable": 0, "selector": {"matchLabels": {"app": "app"}}},
      "status": {"conditions": [{"lastTransitionTime": "2024-05-01T10:20:30Z", "status": "False", "type": "DisruptionAllowed"}],
                 "disruptionsAllowed": 0}})";
    const QString volume = R"({"metadata": {"labels": {"topology.kubernetes.io/zone": "us-west-2a"}, "name": "pv-db-0"},
      "spec": {"accessModes": ["ReadWriteOnce"], "capacity": {"storage": "10Gi"},
               "claimRef": {"name": "data-db-0", "namespace": "default"}},
      "status": {"phase": "Bound"}})";
    const QString claim = R"({"metadata": {"name": "data-db-0", "namespace": "default"},
      "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}}, "volumeName": "pv-db-0"},
      "status": {"accessModes": ["ReadWriteOnce"], "capacity": {"storage": "10Gi"}, "phase": "Bound"}})";
    const QString storageClass = R"({"metadata": {"name": "gp3"}, "provisioner": "ebs.csi.aws.com"})";
    for (const int window : { 4 << 20, 64 }) {
        const QByteArray suffix = window == 64 ? " in 64-byte windows" : "";
        QTest::newRow("PodDisruptionBudgetList" + suffix) << "PodDisruptionBudgetList" << budget << window;
        QTest::newRow("PersistentVolumeList" + suffix) << "PersistentVolumeList" << volume << window;
        QTest::newRow("PersistentVolumeClaimList" + suffix) << "PersistentVolumeClaimList" << claim << window;
        QTest::newRow("StorageClassList" + suffix) << "StorageClassList" << storageClass << window;
    }
}

void TestKubeScheduling::listsWithKindLast()
{
    QFETCH(QString, kind);
    QFETCH(QString, item);
    QFETCH(int, windowBytes);
    const std::string json
        = QString(R"({"apiVersion": "v1", "items": [%1], "kind": "%2", "metadata": {"resourceVersion": "42"}})").arg(item, kind).toStdString();
    ClusterStore store;
    ImportReport report;
    KubectlJsonOptions options;
    options.windowBytes = static_cast<std::size_t>(windowBytes);
    KubectlJsonSession session;
    importKubectlJsonText(json, "list.json", store, report, nullptr, options, session);
    std::string warnings;
    for (const std::string& w : report.warnings)
        warnings += w + "\n";
    QCOMPARE(store.nodeCount(), std::size_t(0));
    QCOMPARE(store.podCount(), std::size_t(0));
    QVERIFY(store.resources().find("storage") < 0); // a claim's capacity is no Node's
    if (kind == "PodDisruptionBudgetList") {
        QCOMPARE(store.disruptionBudgets().size(), std::size_t(1));
        QCOMPARE(store.str(store.disruptionBudgets()[0].name), std::string_view("app-pdb"));
        QCOMPARE(store.disruptionBudgets()[0].disruptionsAllowed, 0);
        QVERIFY2(report.warnings.empty(), warnings.c_str());
    } else if (kind == "PersistentVolumeList") {
        QCOMPARE(session.volumes.size(), std::size_t(1));
        QCOMPARE(session.volumes[0].name, std::string("pv-db-0"));
        QCOMPARE(session.volumes[0].claimName, std::string("data-db-0"));
        QVERIFY(session.sawVolumeList);
        QVERIFY2(report.warnings.empty(), warnings.c_str());
    } else {
        // Kinds the what-if does not read are skipped, as when their kind comes first.
        QCOMPARE(report.warnings.size(), std::size_t(1));
        QVERIFY2(report.warnings[0].find("skipped 1 item(s) of kind " + kind.chopped(4).toStdString()) != std::string::npos,
            report.warnings[0].c_str());
    }
}

void TestKubeScheduling::exactRequestFromJson()
{
    // web-a: cpu 300u (app) + 300u (sidecar) = 600u -> 1m; memory 1.5 + 1.5 = 3 bytes.
    const LoadedCluster c = loadAll();
    const ClusterStore& s = *c.store;
    const PodId a = findPod(s, "shop", "web-a");
    QCOMPARE(s.podRequest(a)[CoreResource::Cpu], std::int64_t(1));
    QCOMPARE(s.podRequest(a)[CoreResource::Memory], std::int64_t(3));
}

void TestKubeScheduling::workloadSharesSets()
{
    const LoadedCluster c = loadAll();
    const ClusterStore& s = *c.store;
    const PodId a = findPod(s, "shop", "web-a"), b = findPod(s, "shop", "web-b");
    QCOMPARE(s.podAntiAffinity(a).data(), s.podAntiAffinity(b).data());
    QCOMPARE(s.podAffinity(a).data(), s.podAffinity(b).data());
    QCOMPARE(s.podSpreadConstraints(a).data(), s.podSpreadConstraints(b).data());

    // Memory: constraints shared by 4000 pods cost (almost) nothing per pod.
    auto bytes = [](int n, bool constraints) {
        ClusterStore store;
        ImportReport report;
        importKubectlJsonText(workloadPods(n, constraints), "pods.json", store, report);
        return static_cast<double>(store.memoryBytes());
    };
    const double plain = bytes(4000, false), shared = bytes(4000, true);
    QVERIFY2(shared - plain < 4096, qPrintable(QString::number(shared - plain)));
    // And the constraint columns are counted: uids take memory.
    QVERIFY(bytes(4000, false) > bytes(2000, false) + 2000 * 10);
}

void TestKubeScheduling::invalidValues_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    const QString pod = R"({"kind": "Pod", "metadata": {"name": "p", "namespace": "n"}, "spec": {"containers": [{"name": "c"%1}]%2}})";
    const QString spread = pod.arg("", R"(, "topologySpreadConstraints": [{%1}])");
    QTest::newRow("maxSkew 0") << spread.arg(R"("maxSkew": 0, "topologyKey": "z", "whenUnsatisfiable": "DoNotSchedule")")
                               << "spec.topologySpreadConstraints[0].maxSkew" << "expected an integer of at least 1, found 0";
    QTest::newRow("unknown whenUnsatisfiable")
        << spread.arg(R"("maxSkew": 1, "topologyKey": "z", "whenUnsatisfiable": "Sometimes")")
        << "spec.topologySpreadConstraints[0].whenUnsatisfiable" << "unknown whenUnsatisfiable \"Sometimes\"";
    QTest::newRow("spread without topologyKey") << spread.arg(R"("maxSkew": 1, "whenUnsatisfiable": "DoNotSchedule")")
                                                << "spec.topologySpreadConstraints[0]" << "without a topologyKey";
    QTest::newRow("minDomains with ScheduleAnyway")
        << spread.arg(R"("maxSkew": 1, "topologyKey": "z", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 2)")
        << "spec.topologySpreadConstraints[0]" << "minDomains can only be set";
    QTest::newRow("bad nodeTaintsPolicy")
        << spread.arg(R"("maxSkew": 1, "topologyKey": "z", "whenUnsatisfiable": "DoNotSchedule", "nodeTaintsPolicy": "Maybe")")
        << "spec.topologySpreadConstraints[0].nodeTaintsPolicy" << "unknown node inclusion policy";
    QTest::newRow("hostPort out of range") << pod.arg(R"(, "ports": [{"containerPort": 1, "hostPort": 70000}])", "")
                                           << "spec.containers[0].ports[0].hostPort" << "expected a port number from 0 to 65535";
    QTest::newRow("unknown protocol") << pod.arg(R"(, "ports": [{"hostPort": 80, "protocol": "HTTP"}])", "")
                                      << "spec.containers[0].ports[0].protocol" << "unknown protocol \"HTTP\"";
    const QString anti = pod.arg("", R"(, "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [%1]}})");
    QTest::newRow("unknown selector operator")
        << anti.arg(R"({"labelSelector": {"matchExpressions": [{"key": "a", "operator": "Contains", "values": ["x"]}]}, "topologyKey": "h"})")
        << "labelSelector.matchExpressions[0].operator" << "unknown label selector operator \"Contains\"";
    QTest::newRow("In without values")
        << anti.arg(R"({"labelSelector": {"matchExpressions": [{"key": "a", "operator": "In"}]}, "topologyKey": "h"})")
        << "labelSelector.matchExpressions[0]" << "In or NotIn needs values";
    QTest::newRow("term without topologyKey") << anti.arg(R"({"labelSelector": {}})")
                                              << "requiredDuringSchedulingIgnoredDuringExecution[0]" << "without a topologyKey";
    QTest::newRow("matchLabelKeys without selector") << anti.arg(R"({"topologyKey": "h", "matchLabelKeys": ["a"]})")
                                                     << "requiredDuringSchedulingIgnoredDuringExecution[0]" << "need a labelSelector";
    QTest::newRow("claim without a name") << pod.arg("", R"(, "volumes": [{"name": "v", "persistentVolumeClaim": {}}])")
                                          << "spec.volumes[0].persistentVolumeClaim" << "without a claimName";
    const QString pdb = R"({"kind": "PodDisruptionBudget", "metadata": {"name": "b"%1}, "spec": {%2}})";
    QTest::newRow("budget over 100%") << pdb.arg(R"(, "namespace": "n")", R"("minAvailable": "150%")") << "spec.minAvailable"
                                      << "a percentage from \"0%\" to \"100%\", found \"150%\"";
    QTest::newRow("budget negative") << pdb.arg(R"(, "namespace": "n")", R"("maxUnavailable": -1)") << "spec.maxUnavailable"
                                     << "non-negative integer";
    QTest::newRow("budget with both") << pdb.arg(R"(, "namespace": "n")", R"("minAvailable": 1, "maxUnavailable": 1)") << "spec"
                                      << "both minAvailable and maxUnavailable";
    QTest::newRow("budget without namespace") << pdb.arg("", R"("minAvailable": 1)") << "metadata" << "without a namespace";
    QTest::newRow("kind after metadata")
        << R"({"kind": "List", "items": [{"metadata": {"name": "v"}, "kind": "PersistentVolume"}]})" << "items[0].kind"
        << "comes after the item's metadata";
}

void TestKubeScheduling::invalidValues()
{
    QFETCH(QString, json);
    QFETCH(QString, path);
    QFETCH(QString, message);
    ClusterStore store;
    ImportReport report;
    try {
        importKubectlJsonText(json.toStdString(), "bad.json", store, report);
        QFAIL("no error");
    } catch (const ImportError& e) {
        QCOMPARE(QString::fromStdString(e.file()), QStringLiteral("bad.json"));
        QVERIFY(e.line() >= 1);
        QVERIFY2(QString::fromStdString(e.path()).endsWith(path), e.what());
        QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
    }
}

QTEST_GUILESS_MAIN(TestKubeScheduling)
#include "tst_kubescheduling.moc"
