// SPDX-License-Identifier: Apache-2.0
// Tests of what model/clusterstore.h interns: label and taint strings through the pool (and
// the pool at scale), workloads per namespace, kind and name, pod label sets, constraint sets
// and scheduling constraints per workload, so that 2,000,000 pods stay compact.

#include "model/clusterstore.h"
#include "storerecords.h"

#include <QtTest>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

using namespace fleet::model;
using namespace fleet::testing;

class TestClusterStoreInterning : public QObject {
    Q_OBJECT

private slots:
    void labelsAndTaintsGoThroughThePool();
    void workloadsInternedPerNamespaceKindName();
    void constraintSetsInterned();
    void stringPoolAtScale();
    void podLabelSetsStayCompact();
    void schedulingConstraintsInternedPerWorkload();
    void podLikeAnotherIsThatPodsRecordAdded();
    void internBatchGivesInternsIds();
    void podsLikeAreThosePodsAddedOneByOne();
    void nodeInternedIsThatNodeAdded();
};

void TestClusterStoreInterning::labelsAndTaintsGoThroughThePool()
{
    ClusterStore store;
    NodeRecord r = node("n1", 1000, kGi, "us-east-1a");
    r.labels.emplace_back("node.kubernetes.io/instance-type", "m5.large");
    r.taints.emplace_back("nvidia.com/gpu", "present", TaintEffect::NoSchedule);
    r.taints.emplace_back("maintenance", "", TaintEffect::NoExecute);
    const NodeId n1 = store.addNode(r);
    const NodeId n2 = store.addNode(node("n2", 1000, kGi, "us-east-1a"));
    const NodeId n3 = store.addNode(node("n3", 1000, kGi));

    const auto labels = store.nodeLabels(n1);
    QCOMPARE(labels.size(), std::size_t { 2 });
    QCOMPARE(store.str(labels[0].key), std::string_view("topology.kubernetes.io/zone"));
    QCOMPARE(store.str(labels[0].value), std::string_view("us-east-1a"));
    QCOMPARE(store.str(labels[1].key), std::string_view("node.kubernetes.io/instance-type"));
    QCOMPARE(store.str(labels[1].value), std::string_view("m5.large"));
    // Equal strings are one id: the zone key and value of n1 and n2.
    QCOMPARE(store.nodeLabels(n2)[0], labels[0]);
    const StringId zoneKey = store.strings().find("topology.kubernetes.io/zone");
    QVERIFY(zoneKey.isValid());
    QCOMPARE(store.nodeLabel(n2, zoneKey), labels[0].value);
    QVERIFY(!store.nodeLabel(n3, zoneKey).isValid());
    QVERIFY(store.nodeLabels(n3).empty());

    const auto taints = store.nodeTaints(n1);
    QCOMPARE(taints.size(), std::size_t { 2 });
    QCOMPARE(store.str(taints[0].key), std::string_view("nvidia.com/gpu"));
    QCOMPARE(store.str(taints[0].value), std::string_view("present"));
    QCOMPARE(taints[0].effect, TaintEffect::NoSchedule);
    QCOMPARE(store.str(taints[1].key), std::string_view("maintenance"));
    QCOMPARE(taints[1].value.value, 0u); // the empty string is id 0
    QCOMPARE(taints[1].effect, TaintEffect::NoExecute);
    QVERIFY(store.nodeTaints(n2).empty());
    QCOMPARE(taintEffectName(TaintEffect::PreferNoSchedule), std::string_view("PreferNoSchedule"));
}

void TestClusterStoreInterning::workloadsInternedPerNamespaceKindName()
{
    ClusterStore store;
    auto owned = [&](const std::string& ns, const std::string& name, OwnerKind kind, const std::string& owner) {
        PodRecord p = pod(ns, name, "", 1, 1);
        p.ownerKind = kind;
        p.ownerName = owner;
        return store.addPod(p);
    };
    const PodId a1 = owned("ml", "a1", OwnerKind::ReplicaSet, "web-7d9f");
    const PodId a2 = owned("ml", "a2", OwnerKind::ReplicaSet, "web-7d9f");
    const PodId otherNs = owned("prod", "a3", OwnerKind::ReplicaSet, "web-7d9f");
    const PodId otherKind = owned("ml", "a4", OwnerKind::StatefulSet, "web-7d9f");
    const PodId otherName = owned("ml", "a5", OwnerKind::ReplicaSet, "web-5c2b");
    const PodId job = owned("ml", "j1", OwnerKind::Job, "train");
    const PodId bare = owned("ml", "bare", OwnerKind::None, "");
    const PodId nameless = owned("ml", "nameless", OwnerKind::Job, "");

    QCOMPARE(store.podWorkload(a1), store.podWorkload(a2));
    std::set<std::uint32_t> distinct;
    for (PodId p : { a1, otherNs, otherKind, otherName, job })
        distinct.insert(store.podWorkload(p).value);
    QCOMPARE(distinct.size(), std::size_t { 5 });
    QCOMPARE(store.workloadCount(), std::size_t { 5 });
    QVERIFY(!store.podWorkload(bare).isValid());
    QVERIFY(!store.podWorkload(nameless).isValid());
    QCOMPARE(store.podOwnerKind(bare), OwnerKind::None);

    const WorkloadId w = store.podWorkload(otherKind);
    QCOMPARE(store.workloadKind(w), OwnerKind::StatefulSet);
    QCOMPARE(store.workloadName(w), std::string_view("web-7d9f"));
    QCOMPARE(store.workloadNamespace(w), std::string_view("ml"));
    QCOMPARE(store.workloadNamespace(store.podWorkload(otherNs)), std::string_view("prod"));
    QCOMPARE(store.podOwnerKind(job), OwnerKind::Job);
    QCOMPARE(ownerKindFromName("DaemonSet"), OwnerKind::DaemonSet);
    QCOMPARE(ownerKindFromName("SparkApplication"), OwnerKind::Other);
    QCOMPARE(ownerKindName(OwnerKind::CronJob), std::string_view("CronJob"));
}

void TestClusterStoreInterning::constraintSetsInterned()
{
    ClusterStore store;
    auto constrained = [&](const std::string& name, bool gpuToleration, const std::string& zone,
                           const std::vector<std::string>& affinityZones) {
        PodRecord p = pod("ml", name, "", 1, 1);
        p.tolerations.emplace_back("node.kubernetes.io/not-ready", TolerationOperator::Exists, "", TaintEffect::NoExecute);
        if (gpuToleration)
            p.tolerations.emplace_back("nvidia.com/gpu", TolerationOperator::Equal, "present", TaintEffect::NoSchedule);
        if (!zone.empty())
            p.nodeSelector.emplace_back("topology.kubernetes.io/zone", zone);
        if (!affinityZones.empty()) {
            PodRecord::Requirement req;
            req.key = "topology.kubernetes.io/zone";
            req.op = SelectorOperator::In;
            req.values = affinityZones;
            PodRecord::Requirement gpu;
            gpu.key = "nvidia.com/gpu.product";
            gpu.op = SelectorOperator::Exists;
            p.requiredAffinityTerms.push_back({ req, gpu });
            PodRecord::Requirement byName;
            byName.key = "metadata.name";
            byName.values = { "n1" };
            byName.matchField = true;
            p.requiredAffinityTerms.push_back({ byName });
        }
        return store.addPod(p);
    };
    const PodId a = constrained("a", true, "us-east-1a", { "us-east-1a", "us-east-1b" });
    const PodId b = constrained("b", true, "us-east-1a", { "us-east-1a", "us-east-1b" });
    const PodId c = constrained("c", false, "us-east-1b", { "us-east-1b", "us-east-1a" });
    const PodId none = store.addPod(pod("ml", "none", "", 1, 1));

    // Equal sets share storage.
    QCOMPARE(store.podTolerations(a).data(), store.podTolerations(b).data());
    QCOMPARE(store.podNodeSelector(a).data(), store.podNodeSelector(b).data());
    QCOMPARE(store.podRequiredAffinity(a).data(), store.podRequiredAffinity(b).data());
    // Different sets do not (order of values counts as different here).
    QVERIFY(store.podTolerations(a).data() != store.podTolerations(c).data());
    QVERIFY(store.podNodeSelector(a).data() != store.podNodeSelector(c).data());
    QVERIFY(store.podRequiredAffinity(a).data() != store.podRequiredAffinity(c).data());
    QVERIFY(store.podTolerations(none).empty());
    QVERIFY(store.podNodeSelector(none).empty());
    QVERIFY(store.podRequiredAffinity(none).empty());
    // Spans stay valid and unchanged while more sets are added.
    const Toleration* before = store.podTolerations(a).data();
    for (int i = 0; i < 200; ++i)
        constrained("x" + std::to_string(i), i % 2, "zone-" + std::to_string(i), { "z" + std::to_string(i) });
    QCOMPARE(store.podTolerations(a).data(), before);

    // Contents, through the pool.
    const auto tolerations = store.podTolerations(a);
    QCOMPARE(tolerations.size(), std::size_t { 2 });
    QCOMPARE(store.str(tolerations[0].key), std::string_view("node.kubernetes.io/not-ready"));
    QCOMPARE(tolerations[0].op, TolerationOperator::Exists);
    QCOMPARE(tolerations[0].effect, TaintEffect::NoExecute);
    QCOMPARE(store.str(tolerations[1].value), std::string_view("present"));
    QCOMPARE(store.podTolerations(c).size(), std::size_t { 1 });
    const auto selector = store.podNodeSelector(c);
    QCOMPARE(selector.size(), std::size_t { 1 });
    QCOMPARE(store.str(selector[0].value), std::string_view("us-east-1b"));
    const auto terms = store.podRequiredAffinity(a);
    QCOMPARE(terms.size(), std::size_t { 2 });
    QCOMPARE(terms[0].requirements.size(), std::size_t { 2 });
    QCOMPARE(terms[0].requirements[0].op, SelectorOperator::In);
    QCOMPARE(terms[0].requirements[0].values.size(), std::size_t { 2 });
    QCOMPARE(store.str(terms[0].requirements[0].values[1]), std::string_view("us-east-1b"));
    QCOMPARE(terms[0].requirements[1].op, SelectorOperator::Exists);
    QVERIFY(terms[0].requirements[1].values.empty());
    QVERIFY(!terms[0].requirements[0].matchField);
    QVERIFY(terms[1].requirements[0].matchField);
    QCOMPARE(store.str(terms[1].requirements[0].key), std::string_view("metadata.name"));
    QCOMPARE(selectorOperatorName(SelectorOperator::DoesNotExist), std::string_view("DoesNotExist"));
}

void TestClusterStoreInterning::stringPoolAtScale()
{
    StringPool pool;
    QCOMPARE(pool.intern(""), StringId(0));
    QCOMPARE(pool.view(StringId(0)), std::string_view());
    QCOMPARE(pool.view(StringId {}), std::string_view()); // invalid id
    std::vector<std::string> texts;
    std::vector<StringId> idsOf;
    const std::string longA(300 * 1024, 'a');
    const std::string longB(2 * 1024 * 1024, 'b');
    for (int i = 0; i < 60000; ++i) {
        texts.push_back("pod-" + std::to_string(i) + "-" + std::string(static_cast<std::size_t>(i % 50), 'x'));
        if (i == 100)
            texts.push_back(longA);
        if (i == 30000)
            texts.push_back(longB);
    }
    std::vector<const char*> firstData;
    for (const auto& t : texts) {
        idsOf.push_back(pool.intern(t));
        firstData.push_back(pool.view(idsOf.back()).data());
    }
    QCOMPARE(pool.size(), texts.size() + 1);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        QCOMPARE(pool.view(idsOf[i]), std::string_view(texts[i]));
        // never moved: the addresses compared (QCOMPARE on two const char* compares C strings)
        QCOMPARE(static_cast<const void*>(pool.view(idsOf[i]).data()), static_cast<const void*>(firstData[i]));
        QCOMPARE(pool.find(texts[i]), idsOf[i]);
        QCOMPARE(pool.intern(texts[i]), idsOf[i]); // no duplicate
    }
    QVERIFY(!pool.find("pod-60000").isValid());
    QCOMPARE(pool.size(), texts.size() + 1);
    QVERIFY(pool.memoryBytes() >= longA.size() + longB.size());
}

void TestClusterStoreInterning::podLabelSetsStayCompact()
{
    ClusterStore store;
    PodRecord p;
    p.namespaceName = "ns";
    for (int i = 0; i < 200000; ++i) {
        p.name = "pod-" + std::to_string(i);
        p.labels = {{"app", "app-" + std::to_string(i % 1000)}, {"pod-template-hash", "h" + std::to_string(i % 1000)}};
        store.addPod(p);
    }
    QCOMPARE(store.podLabels(PodId(1)).data(), store.podLabels(PodId(1001)).data());
    QVERIFY(store.podLabels(PodId(1)).data() != store.podLabels(PodId(2)).data());
    // Compare with the same pods without labels: the labels cost a set id a pod (4 bytes)
    // plus 1,000 small sets, not a copy per pod.
    ClusterStore bare;
    PodRecord q;
    q.namespaceName = "ns";
    for (int i = 0; i < 200000; ++i) {
        q.name = "pod-" + std::to_string(i);
        bare.addPod(q);
    }
    const double perPod = (double(store.memoryBytes()) - double(bare.memoryBytes())) / 200000.0;
    QVERIFY2(perPod < 8.0, qPrintable(QString::number(perPod)));
}

// The what-if constraint lists (clusterstore_scheduling.cpp): interned sets shared by the pods
// of a workload, a volume set replaced after the pod was added, uids and flags per pod.

void TestClusterStoreInterning::schedulingConstraintsInternedPerWorkload()
{
    ClusterStore s;
    PodAffinityTerm anti;
    anti.selector = s.internSelector(false, { { "app", "web" } }, {});
    anti.topologyKey = s.strings().intern("kubernetes.io/hostname");
    TopologySpreadConstraint spread;
    spread.topologyKey = s.strings().intern("topology.kubernetes.io/zone");
    spread.selector = anti.selector;
    const std::size_t empty = s.memoryBytes();
    for (int i = 0; i < 1000; ++i) {
        PodRecord p = pod("shop", "web-" + std::to_string(i), "", 100, 0);
        p.uid = "uid-" + std::to_string(i);
        p.podAntiAffinity = { anti };
        p.spreadConstraints = { spread };
        p.hostPorts = { { 8080, PortProtocol::TCP, {} } };
        p.flags = PodFlagReady;
        s.addPod(p);
    }
    const PodId a(0), b(999);
    QCOMPARE(s.podUid(b), std::string_view("uid-999"));
    QCOMPARE(s.podAntiAffinity(a).data(), s.podAntiAffinity(b).data());
    QCOMPARE(s.podSpreadConstraints(a).data(), s.podSpreadConstraints(b).data());
    QCOMPARE(s.podHostPorts(b)[0].port, std::uint16_t(8080));
    QCOMPARE(s.podFlags(b), std::uint16_t(PodFlagReady));
    QVERIFY(s.podAffinity(a).empty());
    QVERIFY(s.hasPodAffinity());
    // Per pod: the core columns plus a few bytes of set ids, flags and uid, not a copy of the lists.
    const double perPod = static_cast<double>(s.memoryBytes() - empty) / 1000.0;
    ClusterStore plain;
    const std::size_t plainEmpty = plain.memoryBytes();
    for (int i = 0; i < 1000; ++i)
        plain.addPod(pod("shop", "web-" + std::to_string(i), "", 100, 0));
    const double plainPerPod = static_cast<double>(plain.memoryBytes() - plainEmpty) / 1000.0;
    QVERIFY2(perPod - plainPerPod < 24.0, qPrintable(QString::number(perPod - plainPerPod)));

    // Volumes resolved after the pod was added; the other lists stay.
    VolumeConstraint v;
    v.volume = s.strings().intern("pv-1");
    v.zoneLabels = { { s.strings().intern("topology.kubernetes.io/zone"), { s.strings().intern("us-east-1a") } } };
    s.setPodVolumes(a, std::vector<VolumeConstraint> { v });
    QCOMPARE(s.podVolumes(a).size(), std::size_t(1));
    QCOMPARE(s.str(s.podVolumes(a)[0].volume), std::string_view("pv-1"));
    QVERIFY(s.podVolumes(b).empty());
    QCOMPARE(s.podAntiAffinity(a).data(), s.podAntiAffinity(b).data());
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, s.setPodVolumes(PodId(5000), {}));

    PodRecord bad = pod("shop", "bad", "", 1, 0);
    bad.gpuShareMilli = 1000;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.addPod(bad));
    QCOMPARE(s.podCount(), std::size_t(1000)); // nothing of the refused pod was kept
    QCOMPARE(s.podUid(b), std::string_view("uid-999"));
}

QTEST_GUILESS_MAIN(TestClusterStoreInterning)
// addPodLike() makes what addPod() makes of the same record with another name, node, phase,
// flags and uid (the .fleet reader's path), and refuses what addPod() refuses.
void TestClusterStoreInterning::podLikeAnotherIsThatPodsRecordAdded()
{
    auto record = [](ClusterStore& s, const std::string& name, const std::string& node, PodPhase phase, std::uint16_t flags,
                     const std::string& uid) {
        PodRecord p = pod("shop", name, node, 250, 1);
        p.ownerKind = OwnerKind::ReplicaSet;
        p.ownerName = "web-7f9c";
        p.priority = 7;
        p.labels = { { "app", "web" }, { "pod-template-hash", "7f9c" } };
        p.tolerations = { { "gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule } };
        p.nodeSelector = { { "pool", "a" } };
        p.request.extended = { { s.resources().keyFor("example.com/fpga"), 2 } };
        p.schedulingGates = { "wait" };
        PodAffinityTerm anti;
        anti.selector = s.internSelector(false, { { "app", "web" } }, {});
        anti.topologyKey = s.strings().intern("kubernetes.io/hostname");
        p.podAntiAffinity = { anti };
        p.hostPorts = { { 8080, PortProtocol::TCP, {} } };
        p.gpuShareMilli = 500;
        p.name = name;
        p.nodeName = node;
        p.phase = phase;
        p.flags = flags;
        p.uid = uid;
        return p;
    };
    ClusterStore viaRecord, viaLike;
    for (ClusterStore* s : { &viaRecord, &viaLike }) {
        NodeRecord n;
        n.name = "n1";
        s->addNode(n);
        s->addPod(record(*s, "web-0", "n1", PodPhase::Running, PodFlagReady, "uid-0"));
    }
    viaRecord.addPod(record(viaRecord, "web-1", "", PodPhase::Pending, 0, "uid-1"));
    viaRecord.addPod(record(viaRecord, "web-2", "n1", PodPhase::Succeeded, PodFlagReady, ""));
    viaLike.addPodLike(PodId(0), viaLike.strings().intern("web-1"), StringId(0), PodPhase::Pending, 0, "uid-1");
    viaLike.addPodLike(PodId(0), viaLike.strings().intern("web-2"), viaLike.strings().intern("n1"), PodPhase::Succeeded, PodFlagReady, "");
    QCOMPARE(viaRecord.finalize(), viaLike.finalize());
    QCOMPARE(viaLike.podCount(), std::size_t(3));
    for (std::uint32_t i = 0; i < 3; ++i) {
        const PodId p(i);
        QCOMPARE(viaLike.podName(p), viaRecord.podName(p));
        QCOMPARE(viaLike.podNamespace(p), viaRecord.podNamespace(p));
        QCOMPARE(viaLike.podNodeName(p), viaRecord.podNodeName(p));
        QCOMPARE(viaLike.podNode(p), viaRecord.podNode(p));
        QCOMPARE(viaLike.podPhase(p), viaRecord.podPhase(p));
        QCOMPARE(viaLike.podFlags(p), viaRecord.podFlags(p));
        QCOMPARE(viaLike.podUid(p), viaRecord.podUid(p));
        QCOMPARE(viaLike.podPriority(p), viaRecord.podPriority(p));
        QCOMPARE(viaLike.podRequest(p), viaRecord.podRequest(p));
        QVERIFY(std::ranges::equal(viaLike.podExtendedRequest(p), viaRecord.podExtendedRequest(p)));
        QCOMPARE(viaLike.workloadName(viaLike.podWorkload(p)), viaRecord.workloadName(viaRecord.podWorkload(p)));
        QCOMPARE(viaLike.podOwnerKind(p), viaRecord.podOwnerKind(p));
        QCOMPARE(viaLike.podLabels(p).size(), viaRecord.podLabels(p).size());
        QCOMPARE(viaLike.podTolerations(p).size(), std::size_t(1));
        QCOMPARE(viaLike.podNodeSelector(p).size(), std::size_t(1));
        QCOMPARE(viaLike.podSchedulingGates(p).size(), std::size_t(1));
        QCOMPARE(viaLike.podAntiAffinity(p).size(), std::size_t(1));
        QCOMPARE(viaLike.podHostPorts(p).size(), std::size_t(1));
        QCOMPARE(viaLike.podGpuShareMilli(p), 500);
        QCOMPARE(viaLike.podIsPending(p), viaRecord.podIsPending(p));
        QCOMPARE(viaLike.podIsCounted(p), viaRecord.podIsCounted(p));
    }
    // The pods share their sets with the one they copy, as interning gives.
    QCOMPARE(viaLike.podLabels(PodId(2)).data(), viaLike.podLabels(PodId(0)).data());
    QCOMPARE(viaLike.nodeRequested(NodeId(0)), viaRecord.nodeRequested(NodeId(0)));
    QCOMPARE(viaLike.counts().podsPending, std::size_t(1));

    // Refused, before any column holds a pod.
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, viaLike.addPodLike(PodId(3), StringId(1), StringId(0), PodPhase::Running, 0, ""));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, viaLike.addPodLike(PodId {}, StringId(1), StringId(0), PodPhase::Running, 0, ""));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range,
        viaLike.addPodLike(PodId(0), StringId(static_cast<std::uint32_t>(viaLike.strings().size())), StringId(0), PodPhase::Running, 0, ""));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range,
        viaLike.addPodLike(PodId(0), StringId(1), StringId(static_cast<std::uint32_t>(viaLike.strings().size())), PodPhase::Running, 0, ""));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, viaLike.addPodLike(PodId(0), StringId(0), StringId(0), PodPhase::Running, 0, ""));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, viaLike.addPodLike(PodId(0), StringId(1), StringId(0), static_cast<PodPhase>(9), 0, ""));
    QCOMPARE(viaLike.podCount(), std::size_t(3));
}

// internBatch() gives the ids intern() gives one after another: new strings, strings seen
// before (in an earlier batch and in the same one), batches longer than its prefetch batch, a
// table that grows meanwhile (no reserve()).
void TestClusterStoreInterning::internBatchGivesInternsIds()
{
    std::vector<std::string> texts;
    for (int i = 0; i < 5000; ++i)
        texts.push_back(i % 7 == 3 ? "label-" + std::to_string(i % 11) : "pod-" + std::to_string(i) + std::string(static_cast<std::size_t>(i % 40), 'y'));
    texts.push_back(""); // the empty string is always id 0
    StringPool one, batched;
    std::vector<StringId> expected;
    for (const std::string& t : texts)
        expected.push_back(one.intern(t));
    std::vector<std::string_view> views(texts.begin(), texts.end());
    std::vector<StringId> ids(views.size());
    for (std::size_t at = 0; at < views.size(); at += 37) { // uneven batches
        const std::size_t n = std::min<std::size_t>(37, views.size() - at);
        batched.internBatch(std::span(views).subspan(at, n), std::span(ids).subspan(at, n));
    }
    QVERIFY(ids == expected);
    QCOMPARE(batched.size(), one.size());
    QCOMPARE(expected.back(), StringId(0));
    for (std::size_t i = 0; i < texts.size(); ++i)
        QCOMPARE(batched.find(texts[i]), expected[i]);
}

// addPodsLike() makes the pods addPodLike() makes one by one (two templates, one with an
// extended request; uids of any length, none among them), and refuses a run with one bad pod
// whole: nothing of it is kept.
void TestClusterStoreInterning::podsLikeAreThosePodsAddedOneByOne()
{
    ClusterStore one, many;
    const auto fpgaOne = one.resources().keyFor("example.com/fpga");
    const auto fpgaMany = many.resources().keyFor("example.com/fpga");
    QCOMPARE(fpgaOne, fpgaMany);
    for (ClusterStore* s : { &one, &many }) {
        NodeRecord n = node("n1", 64000, 1 << 30);
        n.allocatable.extended = { { fpgaOne, 8 } };
        s->addNode(n);
        PodRecord web = pod("shop", "web-0", "n1", 250, 1);
        web.ownerKind = OwnerKind::ReplicaSet;
        web.ownerName = "web-7f9c";
        web.labels = { { "app", "web" } };
        web.request.extended = { { fpgaOne, 2 } };
        web.uid = "uid-web-0";
        s->addPod(web);
        PodRecord db = pod("data", "db-0", "", 500, 2);
        db.priority = 9;
        db.tolerations = { { "gpu", TolerationOperator::Exists, "", TaintEffect::NoSchedule } };
        s->addPod(db);
    }
    struct Pod {
        std::uint32_t like;
        const char* name;
        const char* nodeName;
        PodPhase phase;
        std::uint16_t flags;
        const char* uid;
    };
    const Pod pods[] = {
        { 0, "web-1", "n1", PodPhase::Running, PodFlagReady, "0b6f4c2e-1d3a-4b5c-8d7e-9f0a1b2c3d4e" },
        { 1, "db-1", "", PodPhase::Pending, 0, "" },
        { 0, "web-2", "n1", PodPhase::Succeeded, 0, "u" },
        { 1, "db-2", "n1", PodPhase::Running, PodFlagReady, "uid-db-2" },
    };
    std::vector<PodId> like;
    std::vector<StringId> names, nodeNames;
    std::vector<PodPhase> phases;
    std::vector<std::uint16_t> flags;
    std::string uids;
    std::vector<std::uint32_t> uidEnds;
    for (const Pod& p : pods) {
        one.addPodLike(PodId(p.like), one.strings().intern(p.name), one.strings().intern(p.nodeName), p.phase, p.flags, p.uid);
        like.push_back(PodId(p.like));
        names.push_back(many.strings().intern(p.name));
        nodeNames.push_back(many.strings().intern(p.nodeName));
        phases.push_back(p.phase);
        flags.push_back(p.flags);
        uids += p.uid;
        uidEnds.push_back(static_cast<std::uint32_t>(uids.size()));
    }
    const PodsLike run { like, names, nodeNames, phases, flags, uids, uidEnds };
    many.addPodsLike(run);
    QCOMPARE(many.finalize(), one.finalize());
    QCOMPARE(many.podCount(), std::size_t(6));
    for (std::uint32_t i = 0; i < 6; ++i) {
        const PodId p(i);
        QCOMPARE(many.podName(p), one.podName(p));
        QCOMPARE(many.podNamespace(p), one.podNamespace(p));
        QCOMPARE(many.podNodeName(p), one.podNodeName(p));
        QCOMPARE(many.podNode(p), one.podNode(p));
        QCOMPARE(many.podPhase(p), one.podPhase(p));
        QCOMPARE(many.podFlags(p), one.podFlags(p));
        QCOMPARE(many.podUid(p), one.podUid(p));
        QCOMPARE(many.podPriority(p), one.podPriority(p));
        QCOMPARE(many.podRequest(p), one.podRequest(p));
        QVERIFY(std::ranges::equal(many.podExtendedRequest(p), one.podExtendedRequest(p)));
        QCOMPARE(many.podWorkload(p).isValid(), one.podWorkload(p).isValid()); // db-*: no owner
        if (one.podWorkload(p).isValid())
            QCOMPARE(many.workloadName(many.podWorkload(p)), one.workloadName(one.podWorkload(p)));
        QCOMPARE(many.podLabels(p).size(), one.podLabels(p).size());
        QCOMPARE(many.podTolerations(p).size(), one.podTolerations(p).size());
        QCOMPARE(many.podGpuShareMilli(p), one.podGpuShareMilli(p));
        QCOMPARE(many.podIsPending(p), one.podIsPending(p));
        QCOMPARE(many.podIsCounted(p), one.podIsCounted(p));
    }
    QCOMPARE(many.podUid(PodId(2)), std::string_view("0b6f4c2e-1d3a-4b5c-8d7e-9f0a1b2c3d4e"));
    QCOMPARE(many.podExtendedRequest(PodId(4)).size(), std::size_t(1));
    QCOMPARE(many.nodeRequested(NodeId(0)), one.nodeRequested(NodeId(0)));
    QCOMPARE(many.nodeExtendedRequested(NodeId(0), fpgaMany), one.nodeExtendedRequested(NodeId(0), fpgaOne));
    QCOMPARE(many.counts().podsPending, one.counts().podsPending);

    // One bad pod refuses the run whole, before any column holds a pod of it.
    auto refusedWith = [&](auto change) {
        std::vector<PodId> l = like;
        std::vector<StringId> n = names, nn = nodeNames;
        std::vector<PodPhase> ph = phases;
        std::vector<std::uint32_t> ends = uidEnds;
        change(l, n, nn, ph, ends);
        many.addPodsLike(PodsLike { l, n, nn, ph, flags, uids, ends });
    };
    const auto bigId = StringId(static_cast<std::uint32_t>(many.strings().size()));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, refusedWith([](auto& l, auto&, auto&, auto&, auto&) { l[3] = PodId(99); }));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, refusedWith([&](auto&, auto& n, auto&, auto&, auto&) { n[2] = bigId; }));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, refusedWith([&](auto&, auto&, auto& nn, auto&, auto&) { nn[1] = bigId; }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, refusedWith([](auto&, auto& n, auto&, auto&, auto&) { n[3] = StringId(0); }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
        refusedWith([](auto&, auto&, auto&, auto& ph, auto&) { ph[1] = static_cast<PodPhase>(9); }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, refusedWith([](auto&, auto&, auto&, auto&, auto& e) { e[1] = e[0] - 1; }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, refusedWith([&](auto&, auto&, auto&, auto&, auto& e) { e[3] = static_cast<std::uint32_t>(uids.size() + 1); }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, refusedWith([](auto& l, auto&, auto&, auto&, auto&) { l.pop_back(); }));
    QCOMPARE(many.podCount(), std::size_t(6));
    many.addPodsLike(PodsLike {}); // none: nothing
    QCOMPARE(many.podCount(), std::size_t(6));
}

// addNodeInterned() makes the node addNode() makes of the same texts (a capacity that was not
// reported taken as allocatable, extended resources, conditions), and refuses what addNode()
// refuses and an id that is not one of the store's strings, keeping nothing of it.
void TestClusterStoreInterning::nodeInternedIsThatNodeAdded()
{
    ClusterStore byText, byIds;
    const auto fpga = byText.resources().keyFor("example.com/fpga");
    QCOMPARE(byIds.resources().keyFor("example.com/fpga"), fpga);
    NodeRecord r = node("gpu-1", 96000, std::int64_t { 1 } << 36, "us-east-1a");
    r.labels.push_back({ "nvidia.com/gpu.present", "true" });
    r.taints = { { "nvidia.com/gpu", "true", TaintEffect::NoSchedule }, { "spot", "", TaintEffect::PreferNoSchedule } };
    r.allocatable.extended = { { fpga, 4 } };
    r.capacity.extended = { { fpga, 8 } };
    r.ready = Readiness::False;
    r.unschedulable = true;
    r.gpuModel = "NVIDIA-H100";
    r.gpuCount = 8;
    r.instanceType = "p5.48xlarge";
    r.conditions = { { "Ready", Readiness::False, 1700000000, "KubeletNotReady", "runtime down" }, { "DiskPressure", Readiness::True, 0, "", "" } };
    const NodeId a = byText.addNode(r);

    StringPool& pool = byIds.strings();
    InternedNodeRecord ir;
    ir.name = pool.intern(r.name);
    for (const auto& [k, v] : r.labels)
        ir.labels.push_back({ pool.intern(k), pool.intern(v) });
    for (const auto& [k, v, e] : r.taints)
        ir.taints.push_back({ pool.intern(k), pool.intern(v), e });
    ir.allocatable = r.allocatable;
    ir.capacity = r.capacity;
    ir.ready = r.ready;
    ir.unschedulable = r.unschedulable;
    ir.gpuModel = pool.intern(r.gpuModel);
    ir.gpuCount = r.gpuCount;
    ir.instanceType = pool.intern(r.instanceType);
    for (const NodeConditionRecord& c : r.conditions)
        ir.conditions.push_back({ pool.intern(c.type), c.status, c.lastTransitionUnixSeconds, pool.intern(c.reason), pool.intern(c.message) });
    const NodeId b = byIds.addNodeInterned(ir);
    QCOMPARE(byIds.nodeName(b), byText.nodeName(a));
    QCOMPARE(byIds.findNode("gpu-1"), b);
    QCOMPARE(byIds.nodeLabels(b).size(), byText.nodeLabels(a).size());
    for (std::size_t i = 0; i < byText.nodeLabels(a).size(); ++i) {
        QCOMPARE(byIds.str(byIds.nodeLabels(b)[i].key), byText.str(byText.nodeLabels(a)[i].key));
        QCOMPARE(byIds.str(byIds.nodeLabels(b)[i].value), byText.str(byText.nodeLabels(a)[i].value));
    }
    QCOMPARE(byIds.nodeTaints(b).size(), std::size_t(2));
    QCOMPARE(byIds.str(byIds.nodeTaints(b)[1].key), std::string_view("spot"));
    QCOMPARE(byIds.nodeTaints(b)[1].effect, TaintEffect::PreferNoSchedule);
    QCOMPARE(byIds.nodeAllocatable(b), byText.nodeAllocatable(a));
    QCOMPARE(byIds.nodeCapacity(b), byText.nodeCapacity(a));
    QVERIFY(std::ranges::equal(byIds.nodeExtendedAllocatable(b), byText.nodeExtendedAllocatable(a)));
    QVERIFY(std::ranges::equal(byIds.nodeExtendedCapacity(b), byText.nodeExtendedCapacity(a)));
    QCOMPARE(byIds.nodeReadiness(b), Readiness::False);
    QCOMPARE(byIds.nodeUnschedulable(b), true);
    QCOMPARE(byIds.nodeGpuModel(b), std::string_view("NVIDIA-H100"));
    QCOMPARE(byIds.nodeGpuCount(b), 8);
    QCOMPARE(byIds.nodeInstanceType(b), byText.nodeInstanceType(a));
    QCOMPARE(byIds.nodeConditions(b).size(), std::size_t(2));
    QCOMPARE(byIds.str(byIds.nodeConditions(b)[0].message), std::string_view("runtime down"));
    QCOMPARE(byIds.nodeConditions(b)[0].lastTransitionUnixSeconds, std::int64_t(1700000000));

    // Refused, and nothing kept: a used name, no name, an id past the pool.
    const std::size_t strings = pool.size();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, byIds.addNodeInterned(ir));
    InternedNodeRecord unnamed = ir;
    unnamed.name = StringId(0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, byIds.addNodeInterned(unnamed));
    InternedNodeRecord outside = ir;
    outside.name = pool.intern("gpu-2");
    outside.conditions[1].reason = StringId(static_cast<std::uint32_t>(pool.size()));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, byIds.addNodeInterned(outside));
    outside.conditions[1].reason = StringId {};
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, byIds.addNodeInterned(outside));
    QCOMPARE(byIds.nodeCount(), std::size_t(1));
    QVERIFY(!byIds.findNode("gpu-2").isValid());
    QCOMPARE(pool.size(), strings + 1); // "gpu-2", interned by this test
}

#include "tst_clusterstoreinterning.moc"
