// SPDX-License-Identifier: Apache-2.0
// Tests of model/domainpath.h: a topology domain named by its path of label pairs
// (`screenshot --focus`), parsed and found, with errors that say what exists.

#include "model/domainpath.h"

#include <QtTest>

#include <string>
#include <utility>
#include <vector>

using namespace fleet::model;

namespace {

const std::string kRegion = "topology.kubernetes.io/region";
const std::string kZone = "topology.kubernetes.io/zone";
const std::string kLayer1 = "topology.k8s.aws/network-node-layer-1";

struct Fleet {
    ClusterStore store;
    Topology topology;
};

// Two regions; the layer name "nn-1" exists in both zones of us-east-1 (ambiguous alone).
const Fleet& testFleet()
{
    static const Fleet f = [] {
        Fleet out;
        const std::vector<std::tuple<std::string, std::string, std::string>> nodes {
            { "us-east-1", "us-east-1a", "nn-1" },
            { "us-east-1", "us-east-1a", "nn-2" },
            { "us-east-1", "us-east-1b", "nn-1" },
            { "us-west-2", "us-west-2a", "nn-9" },
        };
        int i = 0;
        for (const auto& [region, zone, layer] : nodes) {
            NodeRecord r;
            r.name = "node-" + std::to_string(i++);
            r.labels = { { kRegion, region }, { kZone, zone }, { kLayer1, layer } };
            out.store.addNode(r);
        }
        out.store.finalize();
        out.topology = Topology::build(out.store);
        return out;
    }();
    return f;
}

} // namespace

class TestDomainPath : public QObject {
    Q_OBJECT
private slots:
    void parse_data();
    void parse();
    void find_data();
    void find();
    void roundTrip();
    void levelUserKeys();
};

void TestDomainPath::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("steps"); // "key|value" each; empty with an error
    QTest::addColumn<QString>("error");
    QTest::newRow("one") << "topology.kubernetes.io/zone=us-east-1a" << QStringList { "topology.kubernetes.io/zone|us-east-1a" } << "";
    QTest::newRow("two") << "topology.kubernetes.io/region=us-east-1/topology.kubernetes.io/zone=us-east-1a"
                         << QStringList { "topology.kubernetes.io/region|us-east-1", "topology.kubernetes.io/zone|us-east-1a" } << "";
    QTest::newRow("plain key") << "gpu-model=V100M16" << QStringList { "gpu-model|V100M16" } << "";
    QTest::newRow("empty") << "" << QStringList {} << "empty domain path";
    QTest::newRow("no equals") << "us-east-1a" << QStringList {} << "expected KEY=VALUE at offset 0";
    QTest::newRow("no value") << "zone=" << QStringList {} << "expected a value after '=' at offset 4";
    QTest::newRow("trailing slash") << "a=b/" << QStringList {} << "after the '/' at offset 3";
    QTest::newRow("second without equals") << "a=b/c" << QStringList {} << "expected KEY=VALUE at offset 4";
}

void TestDomainPath::parse()
{
    QFETCH(QString, text);
    QFETCH(QStringList, steps);
    QFETCH(QString, error);
    try {
        const auto parsed = parseDomainPath(text.toStdString());
        QVERIFY2(error.isEmpty(), "expected an error");
        QStringList got;
        for (const auto& [k, v] : parsed)
            got << QString::fromStdString(k + "|" + v);
        QCOMPARE(got, steps);
    } catch (const std::invalid_argument& e) {
        QVERIFY2(!error.isEmpty() && QString::fromUtf8(e.what()).contains(error), e.what());
    }
}

void TestDomainPath::find_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("found"); // domainPathText of the result, or empty with an error
    QTest::addColumn<QString>("error");
    QTest::newRow("region") << "topology.kubernetes.io/region=us-west-2" << "topology.kubernetes.io/region=us-west-2" << "";
    QTest::newRow("zone alone") << "topology.kubernetes.io/zone=us-east-1b"
                                << "topology.kubernetes.io/region=us-east-1/topology.kubernetes.io/zone=us-east-1b" << "";
    QTest::newRow("layer under zone") << "topology.kubernetes.io/zone=us-east-1b/topology.k8s.aws/network-node-layer-1=nn-1"
                                      << "topology.kubernetes.io/region=us-east-1/topology.kubernetes.io/zone=us-east-1b/"
                                         "topology.k8s.aws/network-node-layer-1=nn-1"
                                      << "";
    QTest::newRow("ambiguous") << "topology.k8s.aws/network-node-layer-1=nn-1" << "" << "names 2 domains";
    QTest::newRow("unknown key") << "kubernetes.io/hostname=x" << "" << "no topology level \"kubernetes.io/hostname\"; the levels are: "
                                                                       "topology.kubernetes.io/region";
    QTest::newRow("unknown value") << "topology.kubernetes.io/zone=us-east-1z" << "" << "no domain topology.kubernetes.io/zone=us-east-1z; there are: us-east-1a";
    QTest::newRow("value under the wrong parent") << "topology.kubernetes.io/region=us-west-2/topology.kubernetes.io/zone=us-east-1a" << ""
                                                  << "there are: us-west-2a";
    QTest::newRow("upward") << "topology.kubernetes.io/zone=us-east-1a/topology.kubernetes.io/region=us-east-1" << ""
                            << "is not below";
}

void TestDomainPath::find()
{
    QFETCH(QString, path);
    QFETCH(QString, found);
    QFETCH(QString, error);
    const Fleet& f = testFleet();
    try {
        const DomainId d = findDomainByPath(f.topology, parseDomainPath(path.toStdString()));
        QVERIFY2(error.isEmpty(), "expected an error");
        QCOMPARE(QString::fromStdString(domainPathText(f.topology, d)), found);
    } catch (const std::invalid_argument& e) {
        QVERIFY2(!error.isEmpty() && QString::fromUtf8(e.what()).contains(error), e.what());
    }
}

void TestDomainPath::roundTrip()
{
    // Every domain's path text finds that domain again.
    const Fleet& f = testFleet();
    for (std::uint32_t i = 1; i < f.topology.domainCount(); ++i) {
        const std::string text = domainPathText(f.topology, DomainId(i));
        QCOMPARE(findDomainByPath(f.topology, parseDomainPath(text)), DomainId(i));
    }
    QCOMPARE(domainPathText(f.topology, f.topology.root()), std::string());
}

// The level names a user reads (heatmap level chooser, domain inspector) are the ones
// --focus takes: label keys, and "gpu-model" / "instance-type" for the trace's fallback
// levels, never the internal "@gpu-model" (user trial).
void TestDomainPath::levelUserKeys()
{
    const Fleet& f = testFleet();
    QCOMPARE(levelUserKey(f.topology, 1), std::string(kRegion));
    ClusterStore trace;
    NodeRecord r;
    r.name = "trace-node";
    r.gpuModel = "V100M16";
    r.gpuCount = 8;
    r.instanceType = "ecs.gn6v";
    trace.addNode(r);
    trace.finalize();
    TopologySpec spec;
    spec.levelKeys = { TopologySpec::kGpuModelKey, TopologySpec::kInstanceTypeKey };
    const Topology t = Topology::build(trace, spec);
    QCOMPARE(t.levelKeys().size(), std::size_t(2));
    QCOMPARE(levelUserKey(t, 1), std::string("gpu-model"));
    QCOMPARE(levelUserKey(t, 2), std::string("instance-type"));
    QCOMPARE(findDomainByPath(t, parseDomainPath(levelUserKey(t, 1) + "=V100M16")), t.domainChildren(t.root()).front());
}

QTEST_GUILESS_MAIN(TestDomainPath)
#include "tst_domainpath.moc"
