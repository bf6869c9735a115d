// SPDX-License-Identifier: Apache-2.0
// Tests of model/topology.h: the tree of topology domains built from node labels.
//
// Levels (DESIGN.md): topology.kubernetes.io/region, topology.kubernetes.io/zone, then the
// EC2 network layers topology.k8s.aws/network-node-layer-1..3 (EKS adds these labels for
// instance topology); levels that no node carries are dropped; without any, GPU model then
// instance type.

#include "model/topology.h"

#include <QtTest>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace fleet::model;

namespace {

const std::string kRegion = "topology.kubernetes.io/region";
const std::string kZone = "topology.kubernetes.io/zone";
const std::string kLayer1 = "topology.k8s.aws/network-node-layer-1";
const std::string kLayer2 = "topology.k8s.aws/network-node-layer-2";
const std::string kLayer3 = "topology.k8s.aws/network-node-layer-3";

using Labels = std::vector<std::pair<std::string, std::string>>;

NodeId addNode(ClusterStore& store, const std::string& name, Labels labels, const std::string& gpuModel = {},
    const std::string& instanceType = {})
{
    NodeRecord r;
    r.name = name;
    r.labels = std::move(labels);
    r.gpuModel = gpuModel;
    r.gpuCount = gpuModel.empty() ? 0 : 8;
    r.instanceType = instanceType;
    return store.addNode(r);
}

std::vector<std::string> names(const ClusterStore& store, std::span<const NodeId> nodes)
{
    std::vector<std::string> out;
    for (NodeId n : nodes)
        out.emplace_back(store.nodeName(n));
    return out;
}

std::vector<std::string> childNames(const Topology& t, DomainId d)
{
    std::vector<std::string> out;
    for (DomainId c : t.domainChildren(d))
        out.push_back(t.domainName(c));
    return out;
}

// The path of domain names from the first level down to the leaf of node n.
std::vector<std::string> pathOf(const Topology& t, NodeId n)
{
    std::vector<std::string> out;
    for (DomainId d = t.nodeDomain(n); d != t.root(); d = t.domainParent(d))
        out.insert(out.begin(), t.domainName(d));
    return out;
}

// Checks the structural invariants of any topology over `store`; returns the first
// violation, or an empty string.
QString checkInvariants(const ClusterStore& store, const Topology& t)
{
    const auto ordered = t.orderedNodes();
    if (ordered.size() != store.nodeCount())
        return QStringLiteral("orderedNodes has %1 nodes, the store %2").arg(ordered.size()).arg(store.nodeCount());
    std::set<std::uint32_t> seen;
    for (NodeId n : ordered)
        seen.insert(n.value);
    if (seen.size() != store.nodeCount())
        return QStringLiteral("orderedNodes is not a permutation");
    if (t.domainName(t.root()) != "cluster" || t.domainLevel(t.root()) != 0 || t.domainParent(t.root()).isValid())
        return QStringLiteral("bad root");
    const auto all = t.domainNodes(t.root());
    if (all.data() != ordered.data() || all.size() != ordered.size())
        return QStringLiteral("root does not hold every node");
    for (std::uint32_t i = 0; i < t.domainCount(); ++i) {
        const DomainId d(i);
        const auto nodes = t.domainNodes(d);
        const auto children = t.domainChildren(d);
        if (nodes.empty())
            return QStringLiteral("domain %1 is empty").arg(i);
        if (children.empty()) {
            if (t.domainLevel(d) != static_cast<int>(t.levelKeys().size()))
                return QStringLiteral("leaf %1 at level %2, not the last").arg(i).arg(t.domainLevel(d));
            continue;
        }
        // Every domain's node range is the union (concatenation) of its children's.
        const NodeId* cursor = nodes.data();
        for (DomainId c : children) {
            if (t.domainParent(c) != d)
                return QStringLiteral("child %1 of %2 names another parent").arg(c.value).arg(i);
            if (t.domainLevel(c) != t.domainLevel(d) + 1)
                return QStringLiteral("child %1 of %2 skips a level").arg(c.value).arg(i);
            const auto childNodes = t.domainNodes(c);
            if (childNodes.data() != cursor)
                return QStringLiteral("child %1 of %2 does not start where its sibling ends").arg(c.value).arg(i);
            cursor += childNodes.size();
        }
        if (cursor != nodes.data() + nodes.size())
            return QStringLiteral("children of %1 do not cover it").arg(i);
        // Siblings have distinct names.
        std::set<std::string> siblingNames;
        for (DomainId c : children)
            if (!siblingNames.insert(t.domainName(c)).second)
                return QStringLiteral("two children of %1 are named %2").arg(i).arg(QString::fromStdString(t.domainName(c)));
    }
    // The leaf of each node contains it, and so does every ancestor.
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const NodeId n(i);
        const DomainId leaf = t.nodeDomain(n);
        if (!leaf.isValid() || !t.isLeaf(leaf))
            return QStringLiteral("node %1 has no leaf domain").arg(i);
        for (DomainId d = leaf; d.isValid(); d = t.domainParent(d)) {
            const auto nodes = t.domainNodes(d);
            if (std::find(nodes.begin(), nodes.end(), n) == nodes.end())
                return QStringLiteral("domain %1 does not contain node %2").arg(d.value).arg(i);
        }
    }
    return {};
}

#define CHECK_INVARIANTS(store, topology)                                                                                        \
    do {                                                                                                                         \
        const QString violation = checkInvariants(store, topology);                                                              \
        QVERIFY2(violation.isEmpty(), qPrintable(violation));                                                                    \
    } while (false)

} // namespace

class TestTopology : public QObject {
    Q_OBJECT

private slots:
    void defaultKeys();
    void emptyStore();
    void fullFiveLevels();
    void absentLevelsDropped();
    void fallback_data();
    void fallback();
    void missingLabelGoesToNoKey();
    void naturalOrderOfNodeNames();
    void naturalOrderOfDomainNames();
    void customSpec();
    void invariantsOnALargerFleet();
};

void TestTopology::defaultKeys()
{
    const TopologySpec spec = TopologySpec::defaults();
    QCOMPARE(spec.levelKeys, (std::vector<std::string> { kRegion, kZone, kLayer1, kLayer2, kLayer3 }));
}

void TestTopology::emptyStore()
{
    ClusterStore store;
    const Topology t = Topology::build(store);
    QCOMPARE(t.domainCount(), std::size_t { 1 });
    QVERIFY(t.levelKeys().empty());
    QVERIFY(t.domainNodes(t.root()).empty());
    QVERIFY(t.isLeaf(t.root()));
}

void TestTopology::fullFiveLevels()
{
    ClusterStore store;
    const Labels base { { kRegion, "us-east-1" }, { kZone, "us-east-1a" }, { kLayer1, "nn-1" }, { kLayer2, "nn-2" } };
    auto with = [&](const std::string& l3) {
        Labels l = base;
        l.emplace_back(kLayer3, l3);
        return l;
    };
    const NodeId a = addNode(store, "a", with("nn-3a"));
    const NodeId b = addNode(store, "b", with("nn-3b"));
    const NodeId c = addNode(store, "c", with("nn-3a"));
    const Topology t = Topology::build(store);
    CHECK_INVARIANTS(store, t);
    QCOMPARE(t.levelKeys(), (std::vector<std::string> { kRegion, kZone, kLayer1, kLayer2, kLayer3 }));
    // root, region, zone, layer-1, layer-2, two layer-3 domains
    QCOMPARE(t.domainCount(), std::size_t { 7 });
    QCOMPARE(pathOf(t, a), (std::vector<std::string> { "us-east-1", "us-east-1a", "nn-1", "nn-2", "nn-3a" }));
    QCOMPARE(t.nodeDomain(a), t.nodeDomain(c));
    QVERIFY(t.nodeDomain(a) != t.nodeDomain(b));
    QCOMPARE(t.domainLevel(t.nodeDomain(b)), 5);
    QCOMPARE(names(store, t.domainNodes(t.nodeDomain(a))), (std::vector<std::string> { "a", "c" }));
    QCOMPARE(names(store, t.orderedNodes()), (std::vector<std::string> { "a", "c", "b" }));
}

void TestTopology::absentLevelsDropped()
{
    ClusterStore store;
    // No region and no layer-2 on any node; layer-1 on one node only (kept).
    addNode(store, "a", { { kZone, "us-west-2b" }, { kLayer1, "nn-7" }, { kLayer3, "nn-9" } });
    addNode(store, "b", { { kZone, "us-west-2a" }, { kLayer3, "nn-8" } });
    const Topology t = Topology::build(store);
    CHECK_INVARIANTS(store, t);
    QCOMPARE(t.levelKeys(), (std::vector<std::string> { kZone, kLayer1, kLayer3 }));
    QCOMPARE(childNames(t, t.root()), (std::vector<std::string> { "us-west-2a", "us-west-2b" }));
    QCOMPARE(pathOf(t, NodeId(1)), (std::vector<std::string> { "us-west-2a", "(no " + kLayer1 + ")", "nn-8" }));
}

void TestTopology::fallback_data()
{
    QTest::addColumn<bool>("gpuModels");
    QTest::addColumn<bool>("instanceTypes");
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QStringList>("rootChildren");
    const QString gpu = QString::fromLatin1(TopologySpec::kGpuModelKey);
    const QString instance = QString::fromLatin1(TopologySpec::kInstanceTypeKey);
    QTest::newRow("GPU model, then instance type")
        << true << true << QStringList { gpu, instance } << QStringList { "A100", "CPU only", "H100" };
    QTest::newRow("GPU model only") << true << false << QStringList { gpu } << QStringList { "A100", "CPU only", "H100" };
    QTest::newRow("instance type only") << false << true << QStringList { instance }
                                        << QStringList { "c5.xlarge", "p4d.24xlarge", "p5.48xlarge" };
    QTest::newRow("nothing: one flat root") << false << false << QStringList {} << QStringList {};
}

void TestTopology::fallback()
{
    QFETCH(bool, gpuModels);
    QFETCH(bool, instanceTypes);
    QFETCH(QStringList, keys);
    QFETCH(QStringList, rootChildren);
    ClusterStore store;
    // Labels unrelated to the topology do not count as levels.
    const Labels other { { "kubernetes.io/os", "linux" } };
    addNode(store, "h1", other, gpuModels ? "H100" : "", instanceTypes ? "p5.48xlarge" : "");
    addNode(store, "a1", other, gpuModels ? "A100" : "", instanceTypes ? "p4d.24xlarge" : "");
    addNode(store, "c1", other, "", instanceTypes ? "c5.xlarge" : "");
    addNode(store, "h2", other, gpuModels ? "H100" : "", instanceTypes ? "p5.48xlarge" : "");
    const Topology t = Topology::build(store);
    CHECK_INVARIANTS(store, t);
    QStringList gotKeys;
    for (const auto& k : t.levelKeys())
        gotKeys << QString::fromStdString(k);
    QCOMPARE(gotKeys, keys);
    QStringList gotChildren;
    for (const auto& c : childNames(t, t.root()))
        gotChildren << QString::fromStdString(c);
    QCOMPARE(gotChildren, rootChildren);
    if (keys.isEmpty()) {
        QCOMPARE(t.nodeDomain(NodeId(0)), t.root());
        QCOMPARE(names(store, t.orderedNodes()), (std::vector<std::string> { "a1", "c1", "h1", "h2" }));
    }
}

void TestTopology::missingLabelGoesToNoKey()
{
    ClusterStore store;
    addNode(store, "n1", { { kRegion, "eu-west-1" }, { kZone, "eu-west-1b" } });
    addNode(store, "n2", { { kRegion, "eu-west-1" } }); // no zone
    addNode(store, "n3", { { kZone, "eu-west-1a" } }); // no region
    addNode(store, "n4", { { kRegion, "eu-west-1" }, { kZone, "" } }); // empty value counts as missing
    addNode(store, "n5", { { kRegion, "eu-west-1" }, { kZone, "eu-west-1a" } });
    const Topology t = Topology::build(store);
    CHECK_INVARIANTS(store, t);
    QCOMPARE(t.levelKeys(), (std::vector<std::string> { kRegion, kZone }));
    const std::string noZone = "(no " + kZone + ")";
    const std::string noRegion = "(no " + kRegion + ")";
    // Missing values sort after present ones at each level.
    QCOMPARE(childNames(t, t.root()), (std::vector<std::string> { "eu-west-1", noRegion }));
    QCOMPARE(childNames(t, t.domainChildren(t.root())[0]), (std::vector<std::string> { "eu-west-1a", "eu-west-1b", noZone }));
    QCOMPARE(pathOf(t, NodeId(1)), (std::vector<std::string> { "eu-west-1", noZone }));
    QCOMPARE(pathOf(t, NodeId(2)), (std::vector<std::string> { noRegion, "eu-west-1a" }));
    QCOMPARE(t.nodeDomain(NodeId(3)), t.nodeDomain(NodeId(1)));
    QCOMPARE(names(store, t.orderedNodes()), (std::vector<std::string> { "n5", "n1", "n2", "n4", "n3" }));
}

void TestTopology::naturalOrderOfNodeNames()
{
    ClusterStore store;
    for (const char* name : { "node-10", "node-9", "node-100", "node-1", "gpu-2-b", "gpu-2-a", "gpu-10-a", "node-010" })
        addNode(store, name, { { kZone, "z" } });
    const Topology t = Topology::build(store);
    CHECK_INVARIANTS(store, t);
    const auto order = names(store, t.orderedNodes());
    // node-010 and node-10 are equal numerically; byte order decides, not insertion order.
    QCOMPARE(order,
        (std::vector<std::string> { "gpu-2-a", "gpu-2-b", "gpu-10-a", "node-1", "node-9", "node-010", "node-10", "node-100" }));
}

void TestTopology::naturalOrderOfDomainNames()
{
    ClusterStore store;
    for (int i : { 12, 3, 1, 20, 2 })
        addNode(store, "n" + std::to_string(i), { { kLayer1, "nn-" + std::to_string(i) } });
    const Topology t = Topology::build(store);
    CHECK_INVARIANTS(store, t);
    QCOMPARE(childNames(t, t.root()), (std::vector<std::string> { "nn-1", "nn-2", "nn-3", "nn-12", "nn-20" }));

    // Values equal but for leading zeros stay distinct domains, each one contiguous.
    ClusterStore zeros;
    addNode(zeros, "a", { { kLayer1, "nn-1" } });
    addNode(zeros, "b", { { kLayer1, "nn-01" } });
    addNode(zeros, "c", { { kLayer1, "nn-1" } });
    addNode(zeros, "d", { { kLayer1, "nn-001" } });
    const Topology z = Topology::build(zeros);
    CHECK_INVARIANTS(zeros, z);
    QCOMPARE(childNames(z, z.root()), (std::vector<std::string> { "nn-001", "nn-01", "nn-1" }));
    QCOMPARE(names(zeros, z.orderedNodes()), (std::vector<std::string> { "d", "b", "a", "c" }));
}

void TestTopology::customSpec()
{
    ClusterStore store;
    addNode(store, "a", { { "rack", "r2" }, { kZone, "z1" } }, "H100");
    addNode(store, "b", { { "rack", "r1" }, { kZone, "z1" } }, "A100");
    addNode(store, "c", { { "rack", "r1" }, { kZone, "z1" } }, "H100");
    TopologySpec spec;
    spec.levelKeys = { TopologySpec::kGpuModelKey, "rack", "not-there" };
    const Topology t = Topology::build(store, spec);
    CHECK_INVARIANTS(store, t);
    QCOMPARE(t.levelKeys(), (std::vector<std::string> { TopologySpec::kGpuModelKey, "rack" }));
    QCOMPARE(pathOf(t, NodeId(0)), (std::vector<std::string> { "H100", "r2" }));
    QCOMPARE(names(store, t.orderedNodes()), (std::vector<std::string> { "b", "c", "a" }));

    // A GPU model level over nodes without GPUs is absent like any other.
    ClusterStore cpuOnly;
    addNode(cpuOnly, "x", { { "rack", "r1" } });
    addNode(cpuOnly, "y", { { "rack", "r2" } });
    const Topology c = Topology::build(cpuOnly, spec);
    CHECK_INVARIANTS(cpuOnly, c);
    QCOMPARE(c.levelKeys(), (std::vector<std::string> { "rack" }));
}

void TestTopology::invariantsOnALargerFleet()
{
    // 2 regions x 3 zones x 4 layer-1 x 2 layer-2 x 3 layer-3 blocks, 2 nodes each, with some
    // labels missing, in a scrambled insertion order.
    ClusterStore store;
    std::vector<std::pair<std::string, Labels>> nodes;
    int serial = 0;
    for (int r = 0; r < 2; ++r)
        for (int z = 0; z < 3; ++z)
            for (int l1 = 0; l1 < 4; ++l1)
                for (int l2 = 0; l2 < 2; ++l2)
                    for (int l3 = 0; l3 < 3; ++l3)
                        for (int k = 0; k < 2; ++k) {
                            Labels labels { { kRegion, "region-" + std::to_string(r) },
                                { kZone, "zone-" + std::to_string(r) + char('a' + z) },
                                { kLayer1, "nn-" + std::to_string(r * 100 + z * 10 + l1) },
                                { kLayer2, "nn-" + std::to_string(1000 + l1 * 10 + l2) },
                                { kLayer3, "nn-" + std::to_string(5000 + l2 * 10 + l3) } };
                            if (serial % 17 == 3)
                                labels.erase(labels.begin() + 3); // no layer-2
                            if (serial % 29 == 5)
                                labels.erase(labels.begin() + 1); // no zone
                            nodes.emplace_back("ip-10-0-" + std::to_string(serial), std::move(labels));
                            ++serial;
                        }
    // Deterministic scramble.
    for (std::size_t i = 0; i < nodes.size(); ++i)
        std::swap(nodes[i], nodes[(i * 7919 + 13) % nodes.size()]);
    for (auto& [name, labels] : nodes)
        addNode(store, name, labels);
    const Topology t = Topology::build(store);
    CHECK_INVARIANTS(store, t);
    QCOMPARE(t.levelKeys().size(), std::size_t { 5 });
    QCOMPARE(childNames(t, t.root()), (std::vector<std::string> { "region-0", "region-1" }));
    // Each node's path reads its own labels (or the "(no ...)" domain).
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const NodeId n(i);
        const auto path = pathOf(t, n);
        const std::vector<std::string> keys = { kRegion, kZone, kLayer1, kLayer2, kLayer3 };
        for (std::size_t l = 0; l < keys.size(); ++l) {
            const StringId value = store.nodeLabel(n, store.strings().find(keys[l]));
            const std::string expected = value.isValid() ? std::string(store.str(value)) : "(no " + keys[l] + ")";
            QCOMPARE(path[l], expected);
        }
    }
}

QTEST_GUILESS_MAIN(TestTopology)
#include "tst_topology.moc"
