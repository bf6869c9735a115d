// SPDX-License-Identifier: Apache-2.0
// The loader (format detection, all-or-nothing import, finalize, topology) and the
// `summary` JSON, on the real fixtures of ../shared/data.

#include "importers/clusterloader.h"
#include "importers/export/summaryjson.h"
#include "shareddata.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>

#include <sys/stat.h>
#include <sstream>

using namespace fleet;

namespace {
const std::string kShared = FLEET_SHARED_DATA_DIR;
const std::string kHoneycomb = kShared + "/k8s-fixture-honeycomb-eks";
const std::string kOpenb = kShared + "/alibaba-gpu-v2023-openb/csv";

QJsonObject summaryOf(const importers::LoadedCluster& c)
{
    std::ostringstream out;
    importers::writeSummaryJson(*c.store, c.report, out);
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(out.str()), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << "summary JSON does not parse:" << error.errorString() << "at" << error.offset;
    return doc.object();
}

std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}
} // namespace

class TestClusterLoader : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { FLEET_REQUIRE_SHARED_DATA(); }

    void detectsFormats_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("format");
        QTest::newRow("nodes.json") << QString::fromStdString(kHoneycomb + "/nodes.json") << int(importers::FileFormat::KubectlJson);
        QTest::newRow("node csv") << QString::fromStdString(kOpenb + "/openb_node_list_all_node.csv") << int(importers::FileFormat::AlibabaCsv);
        QTest::newRow("pod csv") << QString::fromStdString(kOpenb + "/openb_pod_list_default.csv") << int(importers::FileFormat::AlibabaCsv);
        QTest::newRow("multigpu csv") << QString::fromStdString(kOpenb + "/openb_pod_list_multigpu50.csv")
                                      << int(importers::FileFormat::AlibabaCsv);
    }
    void detectsFormats()
    {
        QFETCH(QString, path);
        QFETCH(int, format);
        QCOMPARE(int(importers::detectFileFormat(path.toStdString())), format);
    }

    void honeycombSummary()
    {
        const auto c = importers::loadClusterFiles({kHoneycomb + "/pods.json", kHoneycomb + "/nodes.json"});
        QCOMPARE(c.store->nodeCount(), std::size_t(2));
        QCOMPARE(c.store->podCount(), std::size_t(11));
        QCOMPARE(c.sourceLabel, std::string("pods.json + nodes.json"));
        QVERIFY(c.report.warnings.empty());
        const QJsonObject s = summaryOf(c);
        const QJsonArray nodes = s["nodes"].toArray();
        QCOMPARE(nodes.size(), 2);
        const QJsonObject n0 = nodes[0].toObject();
        QCOMPARE(n0["name"].toString(), QString("duckboat-01"));
        QCOMPARE(n0["ready"].toString(), QString("True"));
        QCOMPARE(n0["cordoned"].toBool(), false);
        QCOMPARE(n0["allocatable"].toObject()["cpu_millicores"].toInteger(), 7910);
        QCOMPARE(n0["allocatable"].toObject()["memory_bytes"].toInteger(), 31127824LL * 1024);
        QCOMPARE(n0["requested"].toObject()["pods"].toInteger(), 11);
        QCOMPARE(nodes[1].toObject()["requested"].toObject()["pods"].toInteger(), 0);
        const QJsonArray pods = s["pods"].toArray();
        QCOMPARE(pods.size(), 11);
        for (const auto& p : pods) {
            QCOMPARE(p.toObject()["node"].toString(), QString("duckboat-01"));
            QVERIFY(p.toObject()["counted"].toBool());
        }
        const QJsonObject totals = s["totals"].toObject();
        QCOMPARE(totals["nodes"].toInt(), 2);
        QCOMPARE(totals["counted_pods"].toInt(), 11);
        QCOMPARE(totals["pending_pods"].toInt(), 0);
        QCOMPARE(totals["allocatable"].toObject()["cpu_millicores"].toInteger(), 2 * 7910);
        // The topology uses region and zone: each node in its own zone.
        QCOMPARE(c.topology->levelKeys().size(), std::size_t(2));
    }

    void podsWithoutNodesWarn()
    {
        const auto c = importers::loadClusterFiles({kHoneycomb + "/pods.json"});
        QCOMPARE(c.store->podCount(), std::size_t(11));
        QCOMPARE(c.report.warnings.size(), std::size_t(2)); // unknown node + no nodes at all
        // The warning names what it is about: the first pods by name, then a count.
        const QString w = QString::fromStdString(c.report.warnings[0]);
        QVERIFY2(w.startsWith("11 pods name nodes that are not in the input (spec.nodeName): metallb-system/speaker-cpxhz on "
                              "duckboat-01, utils/seashell-ptsqm on duckboat-01, "),
                 qPrintable(w));
        QVERIFY2(w.contains(", and 8 more (1 node missing)"), qPrintable(w));
        std::ostringstream text;
        importers::writeSummaryText(*c.store, c.report, text);
        QVERIFY2(QString::fromStdString(text.str()).contains("11 (0 counted on nodes, 0 pending, 11 on nodes not in the input, 0 succeeded"),
                 text.str().c_str());
        for (std::uint32_t p = 0; p < c.store->podCount(); ++p)
            QVERIFY(!c.store->podIsCounted(model::PodId(p)));
        const QJsonObject s = summaryOf(c);
        QCOMPARE(s["warnings"].toArray().size(), 2);
    }

    void onePodNamingAMissingNodeIsSingular()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string pods = writeFile(dir, "pods.json",
            R"({"kind": "PodList", "items": [{"kind": "Pod", "metadata": {"name": "p", "namespace": "n"},
              "spec": {"nodeName": "ghost", "containers": [{"name": "c"}]}, "status": {"phase": "Running"}}]})");
        const std::string nodes = writeFile(dir, "nodes.json",
            R"({"kind": "NodeList", "items": [{"kind": "Node", "metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "1"}}}]})");
        const auto c = importers::loadClusterFiles({ nodes, pods });
        QCOMPARE(c.report.warnings.size(), std::size_t(1));
        const QString w = QString::fromStdString(c.report.warnings[0]);
        QVERIFY2(w.startsWith("1 pod names a node that is not in the input (spec.nodeName): n/p on ghost (1 node missing)"), qPrintable(w));
    }

    // A pod with metadata.deletionTimestamp is terminating: its phase stays Running (the kubelet
    // has not stopped it yet), so the summary says so apart, only for such pods.
    void terminatingPodIsMarked()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string nodes = writeFile(dir, "nodes.json",
            R"({"kind": "NodeList", "items": [{"kind": "Node", "metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4", "pods": "110"}}}]})");
        const std::string pods = writeFile(dir, "pods.json",
            R"({"kind": "PodList", "items": [
              {"kind": "Pod", "metadata": {"name": "old", "namespace": "n", "deletionTimestamp": "2026-12-06T04:00:00Z"},
               "spec": {"nodeName": "n1", "containers": [{"name": "c"}]}, "status": {"phase": "Running"}},
              {"kind": "Pod", "metadata": {"name": "new", "namespace": "n"},
               "spec": {"nodeName": "n1", "containers": [{"name": "c"}]}, "status": {"phase": "Running"}}]})");
        const auto c = importers::loadClusterFiles({ nodes, pods });
        const QJsonArray list = summaryOf(c)["pods"].toArray();
        QCOMPARE(list.size(), 2);
        for (const QJsonValue& v : list) {
            const QJsonObject pod = v.toObject();
            QCOMPARE(pod["phase"].toString(), QStringLiteral("Running"));
            if (pod["name"].toString() == QLatin1String("old"))
                QCOMPARE(pod["terminating"], QJsonValue(true));
            else
                QVERIFY2(!pod.contains("terminating"), "only a terminating pod carries the key");
        }
    }

    // Names in the warning come from the input: a control sequence in one is escaped, so that it
    // never drives the operator's terminal or splits the line.
    void podsWithHostileNamesRefusedEscaped()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string json = std::string("{'apiVersion':'v1','kind':'PodList','items':[{'apiVersion':'v1','kind':'Pod',")
            + "'metadata':{'name':'p\\u001b]0;OWNED\\u0007','namespace':'ns\\u001b[2J','uid':'u1'},"
            + "'spec':{'nodeName':'n\\nx','containers':[{'name':'c'}]},'status':{'phase':'Running'}}]}";
        std::string quoted = json;
        std::replace(quoted.begin(), quoted.end(), '\'', '"');
        const std::string pods = writeFile(dir, "pods.json", quoted);
        // No Kubernetes name holds a control character: the pod is refused, its name escaped.
        try {
            (void)importers::loadClusterFiles({ pods });
            QFAIL("a pod name with ESC was loaded");
        } catch (const importers::ImportError& e) {
            const std::string w = e.what();
            QVERIFY2(w.find('\x1b') == std::string::npos && w.find('\x07') == std::string::npos && w.find('\n') == std::string::npos,
                w.c_str());
            QVERIFY2(w.find("the name \"p\\x1B]0;OWNED\\x07\" holds the control character \\x1B") != std::string::npos, w.c_str());
        }
    }

    void alibabaTrace()
    {
        const auto c = importers::loadClusterFiles({kOpenb + "/openb_node_list_all_node.csv", kOpenb + "/openb_pod_list_default.csv"});
        QCOMPARE(c.store->nodeCount(), std::size_t(1523));
        QCOMPARE(c.store->podCount(), std::size_t(8152));
        QCOMPARE(c.store->totalAllocatable()[model::CoreResource::Gpu], 6212 * 1000LL);
        QCOMPARE(c.store->totalRequested()[model::CoreResource::Gpu], 0LL); // the trace places nothing
        // No zone labels: the topology falls back to GPU model (7 models + CPU only).
        QCOMPARE(c.topology->levelKeys().front(), std::string(model::TopologySpec::kGpuModelKey));
        QCOMPARE(c.topology->domainChildren(c.topology->root()).size(), std::size_t(8));
    }

    void allOrNothing_data()
    {
        QTest::addColumn<QString>("goodText");
        QTest::addColumn<QString>("badText");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bad second file") << R"({"kind":"NodeList","items":[{"metadata":{"name":"a"},"status":{"allocatable":{"cpu":"1"}}}]})"
                                         << "{\"kind\":\"PodList\",\"items\":[" << "bad.json";
        QTest::newRow("empty lists") << R"({"kind":"NodeList","items":[]})" << R"({"kind":"PodList","items":[]})"
                                     << "no nodes and no pods";
        // An empty PodDisruptionBudget list alone is said as what it is, with what to load.
        QTest::newRow("empty budget lists") << R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudgetList","items":[]})"
                                            << R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudgetList","items":[]})"
                                            << "the input holds no nodes and no pods (a PodDisruptionBudget, PersistentVolume or Namespace list, "
                                               "or an empty list, describes no cluster by itself): load the node and pod lists too "
                                               "(kubectl get nodes -o json; kubectl get pods -A -o json)";
    }
    void allOrNothing()
    {
        QFETCH(QString, goodText);
        QFETCH(QString, badText);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string good = writeFile(dir, "good.json", goodText.toStdString());
        const std::string bad = writeFile(dir, "bad.json", badText.toStdString());
        try {
            const auto c = importers::loadClusterFiles({good, bad});
            QFAIL("expected an ImportError");
        } catch (const importers::ImportError& e) {
            QVERIFY2(QString(e.what()).contains(expected), e.what());
        }
    }

    void rejectedInputs_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::addColumn<QString>("expected");
        const QString nodes = R"({"kind":"NodeList","items":[{"metadata":{"name":"a"},"status":{"allocatable":{"cpu":"1","memory":"6E"}}},)"
                              R"({"metadata":{"name":"b"},"status":{"allocatable":{"cpu":"1","memory":"6E"}}}]})";
        const QString pod = R"({"kind":"PodList","items":[{"metadata":{"namespace":"ns","name":"p"},"spec":{"containers":[]}}]})";
        QTest::newRow("same pod twice") << pod << pod << "pod ns/p appears twice";
        QTest::newRow("allocatable overflows") << nodes << pod << "exceeds the range of a 64-bit integer";
        QTest::newRow("csv with another header") << "id,cpu,mem\n1,2,3\n" << pod << "first.txt:1: unknown header \"id,cpu,mem\"";
    }
    void rejectedInputs()
    {
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string a = writeFile(dir, "first.txt", first.toStdString());
        const std::string b = writeFile(dir, "second.json", second.toStdString());
        try {
            const auto c = importers::loadClusterFiles({a, b});
            QFAIL("expected an ImportError");
        } catch (const importers::ImportError& e) {
            QVERIFY2(QString(e.what()).contains(expected), e.what());
        }
    }

    // What a user trial gave the CLI: a binary file and a node list that is not UTF-8, through
    // format detection. The error names the place and quotes no raw bytes.
    void binaryAndNonUtf8Files_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ELF (this test)") << QCoreApplication::applicationFilePath()
                                         << ": binary file (looks like ELF), not kubectl JSON or a trace CSV";
        QTest::newRow("non-UTF-8 node list") << QString(FLEET_TEST_DATA_DIR) + "/alibaba/nonutf8.csv"
                                             << "nonutf8.csv:3: column 1 (sn): not valid UTF-8: \"openb-node-00\\xFF1\"";
    }
    void binaryAndNonUtf8Files()
    {
        QFETCH(QString, path);
        QFETCH(QString, expected);
        try {
            const auto c = importers::loadClusterFiles({path.toStdString()});
            QFAIL("expected an ImportError");
        } catch (const importers::ImportError& e) {
            QVERIFY2(QString(e.what()).contains(expected), e.what());
            QVERIFY2(QUtf8StringView(e.what()).isValidUtf8(), e.what());
        }
    }

    void notRegularFiles()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("pipe").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        for (const auto& [path, expected] : {std::pair{fifo, "not a regular file"}, std::pair{dir.path().toStdString(), "is a folder"}}) {
            try {
                const auto c = importers::loadClusterFiles({path});
                QFAIL("expected an ImportError");
            } catch (const importers::ImportError& e) {
                QVERIFY2(QString(e.what()).contains(expected), e.what());
                QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path)), e.what());
            }
        }
    }

    void textSummary()
    {
        const auto c = importers::loadClusterFiles({kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json"});
        std::ostringstream out;
        importers::writeSummaryText(*c.store, c.report, out);
        const QString text = QString::fromStdString(out.str());
        QVERIFY2(text.contains("nodes:     2 (2 ready, 0 not ready, 0 cordoned)"), qPrintable(text));
        QVERIFY2(text.contains("pods:      11 (11 counted on nodes, 0 pending, 0 succeeded or failed)"), qPrintable(text));
        // 450m of 2 x 7910m; 200Mi of 2 x 31127824Ki
        // Figures by model/figures.h, as the status bar writes them (not 0.5 vs 0.45 cores).
        QVERIFY2(text.contains(QRegularExpression(R"(cpu\s+0.45 cores\s+15.8 cores\s+2.8%)")), qPrintable(text));
        QVERIFY2(text.contains(QRegularExpression(R"(memory\s+200 MiB\s+59.4 GiB\s+0.3%)")), qPrintable(text));
    }

    void missingFile()
    {
        try {
            const auto c = importers::loadClusterFiles({"/nonexistent/nodes.json"});
            QFAIL("expected an ImportError");
        } catch (const importers::ImportError& e) {
            QVERIFY2(QString(e.what()).contains("/nonexistent/nodes.json"), e.what());
        }
    }

    void simulatedIsFinalized()
    {
        const auto c = importers::loadSimulatedCluster({2000, 7});
        QCOMPARE(c.store->nodeCount(), std::size_t(2000));
        QVERIFY(c.store->totalRequested()[model::CoreResource::Gpu] > 0);
        QVERIFY(c.topology->domainCount() > 10);
        QVERIFY(c.sourceLabel.find("2000") != std::string::npos);
    }

    void mixingFormatsWarns()
    {
        const auto c = importers::loadClusterFiles({kHoneycomb + "/nodes.json", kOpenb + "/openb_node_list_all_node.csv"});
        QCOMPARE(c.store->nodeCount(), std::size_t(2 + 1523));
        bool warned = false;
        for (const auto& w : c.report.warnings)
            warned = warned || (w.starts_with("mixing formats: nodes.json is kubectl JSON and openb_node_list_all_node.csv is an Alibaba trace CSV"));
        QVERIFY(warned);
        // One format: no such warning.
        const auto one = importers::loadClusterFiles({kHoneycomb + "/nodes.json", kHoneycomb + "/pods.json"});
        for (const auto& w : one.report.warnings)
            QVERIFY2(!w.starts_with("mixing formats"), w.c_str());
    }

    // Several invalid quantities: one error listing each (file, line, JSON path, value); past 20, "and N more".
    void everyInvalidQuantityListed_data()
    {
        QTest::addColumn<int>("bad");
        QTest::addColumn<int>("listed");
        QTest::newRow("three") << 3 << 3;
        QTest::newRow("twenty") << 20 << 20;
        QTest::newRow("twenty-five") << 25 << 20;
    }
    void everyInvalidQuantityListed()
    {
        QFETCH(int, bad);
        QFETCH(int, listed);
        QTemporaryDir dir;
        std::string json = "{\"kind\": \"PodList\", \"items\": [\n";
        for (int i = 0; i < bad + 2; ++i) {
            // Every other pod after the first two is fine; the bad ones ask for "<i>GB" of memory.
            const std::string memory = i < 2 ? "1Gi" : std::to_string(i) + "GB";
            json += std::string(i ? ",\n" : "") + "{\"metadata\": {\"name\": \"p" + std::to_string(i)
                + "\", \"namespace\": \"ns\"}, \"spec\": {\"containers\": [{\"name\": \"c\", \"resources\": {\"requests\": "
                  "{\"memory\": \"" + memory + "\"}}}]}}";
        }
        json += "\n]}\n";
        const std::string path = writeFile(dir, "pods.json", json);
        try {
            const auto c = importers::loadClusterFiles({path});
            QFAIL("expected an ImportError");
        } catch (const importers::ImportError& e) {
            const QString what = QString::fromUtf8(e.what());
            QCOMPARE(int(e.line()), 4); // the first bad value: items[2], on line 4
            QCOMPARE(QString::fromStdString(e.path()), QString("items[2].spec.containers[0].resources.requests.memory"));
            QVERIFY2(what.contains(QString("; %1 invalid values in all:").arg(bad)), qPrintable(what));
            for (int i = 2; i < 2 + listed; ++i)
                QVERIFY2(what.contains(QString("\n  %1:%2: items[%3].spec.containers[0].resources.requests.memory: invalid quantity \"%3GB\"")
                                           .arg(QString::fromStdString(path)).arg(i + 2).arg(i)),
                         qPrintable(what));
            QCOMPARE(what.count(QStringLiteral("\n  ")), listed + (bad > listed ? 1 : 0));
            if (bad > listed)
                QVERIFY2(what.endsWith(QString("\n  and %1 more").arg(bad - listed)), qPrintable(what));
        }
    }

    // summary --only: the parts asked for, the warnings always; accelerators in the totals.
    void summaryParts()
    {
        const auto c = importers::loadSimulatedCluster({2000, 1});
        std::ostringstream out;
        importers::writeSummaryJson(*c.store, c.report, out, importers::SummaryParts { false, false, true });
        const QJsonObject s = QJsonDocument::fromJson(QByteArray::fromStdString(out.str())).object();
        QCOMPARE(s.keys(), QStringList({ "totals", "warnings" }));
        QVERIFY(out.str().size() < 4000);
        const QJsonObject full = summaryOf(c);
        QCOMPARE(s["totals"].toObject(), full["totals"].toObject());
        const QJsonObject a = s["totals"].toObject()["accelerators"].toObject();
        // Physical GPUs: whole ones plus MIG-partitioned ones, each once.
        std::int64_t gpus = 0, mig = 0;
        for (std::uint32_t i = 0; i < c.store->nodeCount(); ++i)
            gpus += c.store->nodeGpuCount(model::NodeId(i));
        const int migKey = c.store->resources().find("nvidia.com/mig-1g.10gb");
        const int mig3Key = c.store->resources().find("nvidia.com/mig-3g.40gb");
        for (std::uint32_t i = 0; i < c.store->nodeCount(); ++i)
            for (const auto& [key, amount] : c.store->nodeExtendedAllocatable(model::NodeId(i)))
                if (int(key) == migKey || int(key) == mig3Key)
                    mig += amount;
        QVERIFY(mig > 0);
        QCOMPARE(a["mig_slices"].toInteger(), mig);
        QVERIFY(a["neuron_devices"].toInteger() > 0);
        QCOMPARE(a["neuron_cores"].toInteger(), 8 * a["neuron_devices"].toInteger());
        // Unhealthy GPUs are in capacity, not allocatable: physical allocatable GPUs are at most the GPU count.
        QVERIFY(a["gpus"].toDouble() <= double(gpus));
        QVERIFY(a["gpus"].toDouble() >= double(gpus) - 20);
        QVERIFY(a["mig_partitioned_gpus"].toInteger() > 0);
        // Nodes and pods alone, too.
        std::ostringstream nodes;
        importers::writeSummaryJson(*c.store, c.report, nodes, importers::SummaryParts { true, false, false });
        const QJsonObject n = QJsonDocument::fromJson(QByteArray::fromStdString(nodes.str())).object();
        QCOMPARE(n.keys(), QStringList({ "nodes", "warnings" }));
        QCOMPARE(n["nodes"].toArray().size(), 2000);
        // The text summary counts physical accelerators with MIG slices and NeuronCores beside them.
        std::ostringstream text;
        importers::writeSummaryText(*c.store, c.report, text);
        QVERIFY2(QString::fromStdString(text.str()).contains(QRegularExpression(R"(\nMIG slices\s+[0-9,]+\s+[0-9,]+)")), text.str().c_str());
        QVERIFY2(QString::fromStdString(text.str()).contains(QRegularExpression(R"(\nNeuron devices\s+[0-9,]+\s+[0-9,]+)")), text.str().c_str());
        QVERIFY2(QString::fromStdString(text.str()).contains(QRegularExpression(R"(\nNeuronCores\s+[0-9,]+\s+[0-9,]+)")), text.str().c_str());
    }

    void milliDecimal_data()
    {
        QTest::addColumn<qlonglong>("milli");
        QTest::addColumn<QString>("text");
        QTest::newRow("0") << 0LL << "0";
        QTest::newRow("460") << 460LL << "0.46";
        QTest::newRow("8000") << 8000LL << "8";
        QTest::newRow("1005") << 1005LL << "1.005";
        QTest::newRow("-1500") << -1500LL << "-1.5";
    }
    void milliDecimal()
    {
        QFETCH(qlonglong, milli);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(importers::formatMilliDecimal(milli)), text);
    }
};

QTEST_GUILESS_MAIN(TestClusterLoader)
#include "tst_clusterloader.moc"
