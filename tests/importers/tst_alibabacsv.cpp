// SPDX-License-Identifier: Apache-2.0
// Tests of the Alibaba GPU trace importer on the real trace files (FLEET_SHARED_DATA_DIR) and on
// malformed fixtures (tests/data/alibaba). Expected figures are those of the trace's SOURCE.md.

#include "importers/traces/alibabacsv.h"
#include "importers/traces/csvreader.h"

#include "extendedamount.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace fleet;
using namespace fleet::importers;
using model::CoreResource;
using testing::extended;

namespace {

const std::string kCsvDir = std::string(FLEET_SHARED_DATA_DIR) + "/alibaba-gpu-v2023-openb/csv/";
const std::string kFixtureDir = std::string(FLEET_TEST_DATA_DIR) + "/alibaba/";
constexpr std::int64_t kMiB = 1024 * 1024;

class CancelAtOnce final : public ImportProgress {
public:
    void progress(std::size_t, std::size_t) override { }
    bool isCancelled() const override { return true; }
};

class RecordProgress final : public ImportProgress {
public:
    void progress(std::size_t done, std::size_t total) override
    {
        lastDone = done;
        lastTotal = total;
        ++calls;
    }
    bool isCancelled() const override { return false; }
    std::size_t lastDone = 0, lastTotal = 0, calls = 0;
};

} // namespace

class TstAlibabaCsv : public QObject {
    Q_OBJECT

private slots:
    void csvReader_data();
    void csvReader();
    void headerKind_data();
    void headerKind();
    void allNodeList();
    void gpuNodeList();
    void defaultPodList();
    void podListVariants_data();
    void podListVariants();
    void gpuSpecAffinity();
    void quotedFieldsAndCrlf();
    void malformed_data();
    void malformed();
    void everyBadValueListed_data();
    void everyBadValueListed();
    void unsafeInput_data();
    void unsafeInput();
    void duplicateNodeAcrossFiles();
    void missingFile();
    void cancelLeavesStoreUnchanged();
    void progressReachesTotal();
};

void TstAlibabaCsv::csvReader_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("records"); // fields joined by '|', records by ';'
    QTest::newRow("plain LF") << QByteArray("a,b\nc,d\n") << "a|b;c|d";
    QTest::newRow("CRLF") << QByteArray("a,b\r\nc,d\r\n") << "a|b;c|d";
    QTest::newRow("lone CR") << QByteArray("a,b\rc,d") << "a|b;c|d";
    QTest::newRow("no final newline") << QByteArray("a,b\nc,d") << "a|b;c|d";
    QTest::newRow("empty fields") << QByteArray(",,\n") << "||";
    QTest::newRow("quoted comma") << QByteArray("\"a,b\",c\n") << "a,b|c";
    QTest::newRow("escaped quote") << QByteArray("\"say \"\"hi\"\"\",x\n") << "say \"hi\"|x";
    QTest::newRow("quoted newline") << QByteArray("\"two\nlines\",x\ny,z\n") << "two\nlines|x;y|z";
    QTest::newRow("BOM") << QByteArray("\xEF\xBB\xBF"
                                       "a,b\n")
                         << "a|b";
    QTest::newRow("empty line") << QByteArray("a\n\nb\n") << "a;;b";
}

void TstAlibabaCsv::csvReader()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, records);
    CsvReader reader(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    std::vector<std::string_view> fields;
    QStringList got;
    while (reader.next(fields)) {
        QStringList f;
        for (auto v : fields)
            f << QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
        got << f.join('|');
    }
    QCOMPARE(got.join(';'), records);
}

void TstAlibabaCsv::headerKind_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<int>("kind");
    QTest::newRow("node") << QByteArray("sn,cpu_milli,memory_mib,gpu,model") << int(AlibabaCsvKind::NodeList);
    QTest::newRow("node CRLF") << QByteArray("sn,cpu_milli,memory_mib,gpu,model\r\n") << int(AlibabaCsvKind::NodeList);
    QTest::newRow("node BOM") << QByteArray("\xEF\xBB\xBFsn,cpu_milli,memory_mib,gpu,model") << int(AlibabaCsvKind::NodeList);
    QTest::newRow("pod") << QByteArray("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
                                       "deletion_time,scheduled_time")
                         << int(AlibabaCsvKind::PodList);
    QTest::newRow("short pod") << QByteArray("name,cpu_milli,memory_mib,num_gpu,gpu_milli") << int(AlibabaCsvKind::ShortPodList);
    QTest::newRow("json") << QByteArray("{\"kind\": \"List\",") << int(AlibabaCsvKind::Unknown);
    QTest::newRow("other csv") << QByteArray("sn,cpu,memory,gpu,model") << int(AlibabaCsvKind::Unknown);
    QTest::newRow("empty") << QByteArray("") << int(AlibabaCsvKind::Unknown);
}

void TstAlibabaCsv::headerKind()
{
    QFETCH(QByteArray, line);
    QFETCH(int, kind);
    const std::string_view view(line.constData(), static_cast<std::size_t>(line.size()));
    QCOMPARE(int(alibabaCsvKind(view)), kind);
    QCOMPARE(isAlibabaCsvHeader(view), kind != int(AlibabaCsvKind::Unknown));
}

void TstAlibabaCsv::allNodeList()
{
    model::ClusterStore store;
    ImportReport report;
    importAlibabaCsvFile(kCsvDir + "openb_node_list_all_node.csv", store, report);
    QCOMPARE(store.nodeCount(), std::size_t { 1523 });
    QCOMPARE(store.podCount(), std::size_t { 0 });
    QCOMPARE(report.nodesRead, std::size_t { 1523 });
    QVERIFY(report.warnings.empty());

    std::int64_t gpus = 0, cpuMilli = 0, memoryBytes = 0;
    std::size_t cpuOnly = 0;
    std::map<std::string, std::int64_t> gpusByModel;
    const model::StringId modelLabel = store.strings().find("alibabacloud.com/gpu-card-model");
    QVERIFY(modelLabel.isValid());
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const model::NodeId n(i);
        const auto& alloc = store.nodeAllocatable(n);
        QCOMPARE(store.nodeCapacity(n), alloc);
        QCOMPARE(alloc[CoreResource::Gpu], std::int64_t { store.nodeGpuCount(n) } * 1000);
        QCOMPARE(alloc[CoreResource::Pods], std::int64_t { 1001 });
        QCOMPARE(extended(store, store.nodeExtendedAllocatable(n), "alibabacloud.com/gpu-count"),
            std::int64_t { store.nodeGpuCount(n) });
        QCOMPARE(store.nodeReadiness(n), model::Readiness::True);
        QCOMPARE(store.str(store.nodeLabel(n, modelLabel)), store.nodeGpuModel(n));
        gpus += store.nodeGpuCount(n);
        cpuMilli += alloc[CoreResource::Cpu];
        memoryBytes += alloc[CoreResource::Memory];
        if (store.nodeGpuCount(n) == 0)
            ++cpuOnly;
        else
            gpusByModel[std::string(store.nodeGpuModel(n))] += store.nodeGpuCount(n);
    }
    QCOMPARE(gpus, std::int64_t { 6212 });
    QCOMPARE(cpuMilli, std::int64_t { 125514 } * 1000);
    QCOMPARE(memoryBytes, std::int64_t { 612028416 } * kMiB);
    QCOMPARE(cpuOnly, std::size_t { 310 });
    const std::map<std::string, std::int64_t> expected { { "G2", 4392 }, { "T4", 842 }, { "G3", 312 }, { "P100", 265 },
        { "V100M32", 204 }, { "V100M16", 195 }, { "A10", 2 } };
    QCOMPARE(gpusByModel, expected);

    // First rows: "openb-node-0000,32000,262144,0," is CPU-only.
    const model::NodeId first = store.findNode("openb-node-0000");
    QVERIFY(first.isValid());
    QCOMPARE(store.nodeAllocatable(first)[CoreResource::Cpu], std::int64_t { 32000 });
    QCOMPARE(store.nodeAllocatable(first)[CoreResource::Memory], std::int64_t { 262144 } * kMiB);
    QCOMPARE(store.nodeGpuCount(first), 0);
    QVERIFY(!store.nodeLabel(first, modelLabel).isValid());
}

void TstAlibabaCsv::gpuNodeList()
{
    model::ClusterStore store;
    ImportReport report;
    importAlibabaCsvFile(kCsvDir + "openb_node_list_gpu_node.csv", store, report);
    QCOMPARE(store.nodeCount(), std::size_t { 1213 });
    std::int64_t gpus = 0;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        QVERIFY(store.nodeGpuCount(model::NodeId(i)) > 0);
        gpus += store.nodeGpuCount(model::NodeId(i));
    }
    QCOMPARE(gpus, std::int64_t { 6212 });
    // "openb-node-0000,64000,262144,2,P100" (names differ from the all_node list).
    const model::NodeId first = store.findNode("openb-node-0000");
    QCOMPARE(store.nodeGpuModel(first), std::string_view("P100"));
    QCOMPARE(store.nodeAllocatable(first)[CoreResource::Cpu], std::int64_t { 64000 });
}

void TstAlibabaCsv::defaultPodList()
{
    model::ClusterStore store;
    ImportReport report;
    importAlibabaCsvFile(kCsvDir + "openb_pod_list_default.csv", store, report);
    QCOMPARE(store.podCount(), std::size_t { 8152 });
    QCOMPARE(report.podsRead, std::size_t { 8152 });
    store.finalize();

    std::map<std::int64_t, std::size_t> byGpuCount;
    std::map<model::PodPhase, std::size_t> byPhase;
    std::size_t sharing = 0;
    std::int64_t gpuMilli = 0;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        QCOMPARE(store.podNamespace(p), std::string_view("default"));
        QVERIFY(store.podNodeName(p).empty());
        QVERIFY(!store.podNode(p).isValid());
        QVERIFY(store.podRequiredAffinity(p).empty()); // no gpu_spec in the default list
        const std::int64_t count = extended(store, store.podExtendedRequest(p), "alibabacloud.com/gpu-count");
        const std::int64_t gpu = store.podRequest(p)[CoreResource::Gpu];
        ++byGpuCount[count];
        ++byPhase[store.podPhase(p)];
        if (count == 1 && gpu < 1000)
            ++sharing;
        gpuMilli += gpu;
    }
    const std::map<std::int64_t, std::size_t> expectedCounts { { 0, 1088 }, { 1, 6989 }, { 2, 16 }, { 4, 15 }, { 8, 44 } };
    QCOMPARE(byGpuCount, expectedCounts);
    QCOMPARE(sharing, std::size_t { 3078 });
    const std::map<model::PodPhase, std::size_t> expectedPhases { { model::PodPhase::Running, 5193 },
        { model::PodPhase::Failed, 1870 }, { model::PodPhase::Pending, 897 }, { model::PodPhase::Succeeded, 192 } };
    QCOMPARE(byPhase, expectedPhases);
    QCOMPARE(gpuMilli, std::int64_t { 6086800 }); // 6,086.8 GPUs
    // Pending pods are demand (no nodeName, not terminal); terminal pods are not.
    QCOMPARE(store.totalPending()[CoreResource::Pods], std::int64_t { 5193 + 897 });

    // "openb-pod-0001,6000,12288,1,460,,LS,Running,...": a GPU-sharing pod.
    const model::PodId second(1);
    QCOMPARE(store.podName(second), std::string_view("openb-pod-0001"));
    QCOMPARE(store.podRequest(second)[CoreResource::Cpu], std::int64_t { 6000 });
    QCOMPARE(store.podRequest(second)[CoreResource::Memory], std::int64_t { 12288 } * kMiB);
    QCOMPARE(store.podRequest(second)[CoreResource::Gpu], std::int64_t { 460 });
    QCOMPARE(store.podPhase(second), model::PodPhase::Running);
}

void TstAlibabaCsv::podListVariants_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<qlonglong>("pods");
    QTest::addColumn<qlonglong>("gpuMilli");
    QTest::addColumn<qlonglong>("withGpuSpec");
    // Row counts from SOURCE.md; GPU totals its "total GPU request" figures, summed exactly.
    QTest::newRow("cpu0") << "openb_pod_list_cpu0.csv" << 7064LL << 6086800LL << 0LL;
    QTest::newRow("cpu300") << "openb_pod_list_cpu300.csv" << 10094LL << 6086800LL << 0LL;
    QTest::newRow("gpushare20") << "openb_pod_list_gpushare20.csv" << 8152LL << 6531500LL << 0LL;
    QTest::newRow("gpushare100") << "openb_pod_list_gpushare100.csv" << 8152LL << 3952670LL << 0LL;
    QTest::newRow("gpuspec05") << "openb_pod_list_gpuspec05.csv" << 8152LL << 6086800LL << 369LL;
    QTest::newRow("gpuspec10") << "openb_pod_list_gpuspec10.csv" << 8152LL << 6086800LL << 732LL;
    QTest::newRow("gpuspec20") << "openb_pod_list_gpuspec20.csv" << 8152LL << 6086800LL << 1444LL;
    QTest::newRow("gpuspec25") << "openb_pod_list_gpuspec25.csv" << 8152LL << 6086800LL << 1759LL;
    QTest::newRow("gpuspec33") << "openb_pod_list_gpuspec33.csv" << 8152LL << 6086800LL << 2388LL;
    QTest::newRow("multigpu20") << "openb_pod_list_multigpu20.csv" << 8324LL << 7086800LL << 0LL;
    QTest::newRow("multigpu50") << "openb_pod_list_multigpu50.csv" << 9061LL << 11358800LL << 0LL;
}

void TstAlibabaCsv::podListVariants()
{
    QFETCH(QString, file);
    QFETCH(qlonglong, pods);
    QFETCH(qlonglong, gpuMilli);
    QFETCH(qlonglong, withGpuSpec);
    model::ClusterStore store;
    ImportReport report;
    importAlibabaCsvFile(kCsvDir + file.toStdString(), store, report);
    QCOMPARE(static_cast<qlonglong>(store.podCount()), pods);
    qlonglong gpu = 0, spec = 0;
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        gpu += store.podRequest(model::PodId(i))[CoreResource::Gpu];
        spec += store.podRequiredAffinity(model::PodId(i)).empty() ? 0 : 1;
    }
    QCOMPARE(gpu, gpuMilli);
    QCOMPARE(spec, withGpuSpec);
    if (file.contains("multigpu")) // the short header has no phase: demand, Pending
        QCOMPARE(store.podPhase(model::PodId(0)), model::PodPhase::Pending);
}

void TstAlibabaCsv::gpuSpecAffinity()
{
    model::ClusterStore store;
    ImportReport report;
    importAlibabaCsvFile(kCsvDir + "openb_pod_list_gpuspec33.csv", store, report);
    // Line 11: "openb-pod-0009,12000,16384,1,1000,V100M16|V100M32,LS,Running,...".
    const model::PodId p(9);
    QCOMPARE(store.podName(p), std::string_view("openb-pod-0009"));
    const auto terms = store.podRequiredAffinity(p);
    QCOMPARE(terms.size(), std::size_t { 1 });
    QCOMPARE(terms[0].requirements.size(), std::size_t { 1 });
    const auto& req = terms[0].requirements[0];
    QCOMPARE(store.str(req.key), std::string_view("alibabacloud.com/gpu-card-model"));
    QCOMPARE(req.op, model::SelectorOperator::In);
    QCOMPARE(req.values.size(), std::size_t { 2 });
    QCOMPARE(store.str(req.values[0]), std::string_view("V100M16"));
    QCOMPARE(store.str(req.values[1]), std::string_view("V100M32"));
    QVERIFY(store.podRequiredAffinity(model::PodId(0)).empty());
}

void TstAlibabaCsv::quotedFieldsAndCrlf()
{
    model::ClusterStore store;
    ImportReport report;
    importAlibabaCsvFile(kFixtureDir + "quoted_crlf.csv", store, report);
    QCOMPARE(store.podCount(), std::size_t { 3 });
    QCOMPARE(store.podName(model::PodId(0)), std::string_view("openb-pod-0000"));
    QCOMPARE(store.podRequiredAffinity(model::PodId(0)).front().requirements.front().values.size(), std::size_t { 2 });
    QCOMPARE(store.podName(model::PodId(1)), std::string_view("odd \"quoted\", name"));
    QCOMPARE(store.podPhase(model::PodId(1)), model::PodPhase::Succeeded);
    QCOMPARE(store.podRequest(model::PodId(1))[CoreResource::Gpu], std::int64_t { 0 });
    QCOMPARE(store.podName(model::PodId(2)), std::string_view("openb-pod-0002"));
    QCOMPARE(store.podRequest(model::PodId(2))[CoreResource::Gpu], std::int64_t { 8000 });
    QCOMPARE(store.podPhase(model::PodId(2)), model::PodPhase::Pending);
}

void TstAlibabaCsv::malformed_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("place"); // expected ImportError::path()
    QTest::addColumn<QString>("message"); // a part of the expected message
    QTest::newRow("column count") << "bad_column_count.csv" << 3 << ""
                                  << "expected 11 columns";
    QTest::newRow("non-integer") << "bad_integer.csv" << 3 << "column 2 (cpu_milli)"
                                 << "expected a non-negative integer, found \"12.5\"";
    QTest::newRow("empty number") << "empty_number.csv" << 2 << "column 3 (memory_mib)"
                                  << "found an empty field";
    QTest::newRow("negative") << "negative_value.csv" << 2 << "column 3 (memory_mib)"
                              << "negative value \"-5\"";
    QTest::newRow("unknown header") << "unknown_header.csv" << 1 << ""
                                    << "expected one of the Alibaba GPU trace headers \"sn,cpu_milli,memory_mib,gpu,model\"";
    QTest::newRow("empty file") << "empty.csv" << 1 << ""
                                << "expected a header line";
    QTest::newRow("phase") << "bad_phase.csv" << 3 << "column 8 (pod_phase)"
                           << "expected a pod phase";
    QTest::newRow("multi-GPU share") << "bad_gpu_milli.csv" << 2 << "column 5 (gpu_milli)"
                                     << "only one-GPU pods share a GPU";
    // libFuzzer (UBSan): the rejected row's num_gpu * gpu_milli overflowed 64 bits.
    QTest::newRow("multi-GPU share, huge") << "bad_gpu_milli_huge.csv" << 2 << "column 5 (gpu_milli)"
                                           << "found \"262143333334252\"";
    QTest::newRow("unclosed quote") << "unclosed_quote.csv" << 2 << "character 35"
                                    << "quoted field is not closed";
    QTest::newRow("duplicate node") << "duplicate_node.csv" << 4 << "column 1 (sn)"
                                    << "first on line 2";
    QTest::newRow("gpu_spec") << "bad_gpu_spec.csv" << 2 << "column 6 (gpu_spec)"
                              << "empty model";
    // No Kubernetes name holds a control character: a name with one is refused, quoted escaped.
    QTest::newRow("node name with ESC") << "control_name.csv" << 3 << "column 1 (sn)"
                                        << "the node name \"openb-node-0001\\x1B[2J\\x07\" holds the control character \\x1B (byte 16), which no Kubernetes name or label holds";
    QTest::newRow("pod name with CR") << "control_pod_name.csv" << 3 << "column 1 (name)"
                                      << "the pod name \"openb-pod\\x0D0001\" holds the control character \\x0D (byte 10)";
    QTest::newRow("not UTF-8") << "nonutf8.csv" << 3 << "column 1 (sn)"
                               << "not valid UTF-8: \"openb-node-00\\xFF1\"";
}

void TstAlibabaCsv::malformed()
{
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(QString, place);
    QFETCH(QString, message);
    model::ClusterStore store;
    ImportReport report;
    const std::string path = kFixtureDir + file.toStdString();
    try {
        importAlibabaCsvFile(path, store, report);
        QFAIL("no error for a malformed file");
    } catch (const ImportError& e) {
        QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(path));
        QCOMPARE(int(e.line()), line);
        QCOMPARE(QString::fromStdString(e.path()), place);
        QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(QString::fromStdString(path)), e.what());
    }
    // Nothing partial: rows before the bad one were not added.
    QCOMPARE(store.nodeCount(), std::size_t { 0 });
    QCOMPARE(store.podCount(), std::size_t { 0 });
}

void TstAlibabaCsv::everyBadValueListed_data()
{
    // A node list of valid rows with `bad` invalid values among them, two to a row (cpu_milli
    // then memory_mib), each bad row followed by a valid one.
    QTest::addColumn<int>("bad");
    QTest::newRow("one") << 1;
    QTest::newRow("three, two in one row") << 3;
    QTest::newRow("25: 20 listed, and 5 more") << 25;
}

void TstAlibabaCsv::everyBadValueListed()
{
    QFETCH(int, bad);
    std::string text = "sn,cpu_milli,memory_mib,gpu,model\n";
    std::vector<std::string> expected; // "case.csv:LINE: column ...: message part", in file order
    int line = 1;
    for (int k = 0; k < bad; ++line) {
        const std::string cpu = "c" + std::to_string(k), node = "n" + std::to_string(line);
        expected.push_back("case.csv:" + std::to_string(line + 1) + ": column 2 (cpu_milli): expected a non-negative integer, found \"" + cpu + "\"");
        ++k;
        std::string memory = "1024";
        if (k < bad) {
            memory = "-" + std::to_string(k);
            expected.push_back("case.csv:" + std::to_string(line + 1) + ": column 3 (memory_mib): expected a non-negative integer, found the negative value \"" + memory + "\"");
            ++k;
        }
        text += node + "," + cpu + "," + memory + ",0,\n";
        ++line;
        text += "ok" + std::to_string(line) + ",96000,1024,8,A100\n";
    }
    model::ClusterStore store;
    ImportReport report;
    try {
        importAlibabaCsvText(text, "case.csv", store, report);
        QFAIL("no error for a file with bad values");
    } catch (const ImportError& e) {
        // At the first bad value, listing every one (the first 20), then how many more.
        QCOMPARE(int(e.line()), 2);
        QCOMPARE(QString::fromStdString(e.path()), QStringLiteral("column 2 (cpu_milli)"));
        const QString message = QString::fromStdString(e.message());
        QVERIFY2(message.startsWith(QStringLiteral("expected a non-negative integer, found \"c0\"")), e.what());
        const QStringList lines = message.split(QLatin1Char('\n'));
        if (bad == 1) {
            QCOMPARE(lines.size(), 1);
        } else {
            QVERIFY2(lines.front().endsWith(QStringLiteral("; %1 invalid values in all:").arg(bad)), e.what());
            const int listed = std::min(bad, 20);
            QCOMPARE(lines.size(), 1 + listed + (bad > 20 ? 1 : 0));
            for (int i = 0; i < listed; ++i)
                QCOMPARE(lines[i + 1], QStringLiteral("  ") + QString::fromStdString(expected[static_cast<std::size_t>(i)]));
            if (bad > 20)
                QCOMPARE(lines.back(), QStringLiteral("  and %1 more").arg(bad - 20));
        }
    }
    // The whole file refused: not the valid rows either.
    QCOMPARE(store.nodeCount(), std::size_t { 0 });
    QCOMPARE(report.nodesRead, std::size_t { 0 });
}

void TstAlibabaCsv::unsafeInput_data()
{
    // Input bytes that must never reach the terminal raw: binary files, control bytes,
    // invalid UTF-8 anywhere in the file.
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("place");
    QTest::addColumn<QString>("message"); // a part of the expected message
    const QByteArray nodeHeader = "sn,cpu_milli,memory_mib,gpu,model\n";
    const QByteArray podHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
                                 "deletion_time,scheduled_time\n";
    const QString binary = ", not kubectl JSON or a trace CSV";
    QTest::newRow("ELF") << QByteArray("\x7f"
                                       "ELF\x02\x01\x01\0\0\0sn,cpu\n",
        16) << 0 << ""
                         << "binary file (looks like ELF)" + binary;
    QTest::newRow("PNG") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << 0 << ""
                         << "binary file (looks like PNG)" + binary;
    QTest::newRow("zip") << QByteArray("PK\x03\x04\x14\0\0\0", 8) << 0 << ""
                         << "binary file (looks like zip)" + binary;
    QTest::newRow("gzip") << QByteArray("\x1f\x8b\x08\0", 4) << 0 << ""
                          << "binary file (looks like gzip)" + binary;
    QTest::newRow("NUL in a row") << nodeHeader + QByteArray("n1,1\0,1,0,\n", 11) << 0 << ""
                                  << "binary file (it holds NUL bytes)" + binary;
    QTest::newRow("ESC in a number") << nodeHeader + "n1,\x1b[2J,1,0,\n"
                                     << 2 << "column 2 (cpu_milli)"
                                     << "found \"\\x1B[2J\"";
    QTest::newRow("invalid UTF-8 in the model") << nodeHeader + "n1,1,1,1,T4\n" + "n2,1,1,1,T4\xC3\n"
                                                << 3 << "column 5 (model)"
                                                << "not valid UTF-8: \"T4\\xC3\"";
    QTest::newRow("overlong in a pod name") << podHeader + "p\xC0\xAF,1,1,0,0,,LS,Running,,,\n"
                                            << 2 << "column 1 (name)"
                                            << "not valid UTF-8: \"p\\xC0\\xAF\"";
    QTest::newRow("invalid UTF-8 in a quoted field") << nodeHeader + "\"n\n\xFF\",1,1,0,\n"
                                                     << 2 << "column 1 (sn)"
                                                     << "not valid UTF-8: \"n\\x0A\\xFF\"";
    QTest::newRow("invalid UTF-8 after a bad number") << nodeHeader + "n1,x,1,0,\nn\xFF,1,1,0,\n"
                                                      << 2 << "column 2 (cpu_milli)"
                                                      << "found \"x\"";
    QTest::newRow("high bytes as the header") << QByteArray(200, '\x80') + "\n"
                                              << 1 << ""
                                              << "unknown header \"" + QString("\\x80").repeated(60) + "...\"";
}

void TstAlibabaCsv::unsafeInput()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, place);
    QFETCH(QString, message);
    model::ClusterStore store;
    ImportReport report;
    try {
        importAlibabaCsvText(std::string_view(text.constData(), text.size()), "case.csv", store, report);
        QFAIL("no error for unsafe input");
    } catch (const ImportError& e) {
        QCOMPARE(int(e.line()), line);
        QCOMPARE(QString::fromStdString(e.path()), place);
        QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
        const std::string what = e.what();
        QVERIFY2(QUtf8StringView(what).isValidUtf8(), e.what());
        // A raw newline is only the error's own list layout (input newlines are quoted as \x0A).
        for (const char c : what)
            QVERIFY2(c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && c != 0x7F), e.what());
    }
    QCOMPARE(store.nodeCount(), std::size_t { 0 });
    QCOMPARE(store.podCount(), std::size_t { 0 });
}

void TstAlibabaCsv::duplicateNodeAcrossFiles()
{
    model::ClusterStore store;
    ImportReport report;
    importAlibabaCsvFile(kCsvDir + "openb_node_list_gpu_node.csv", store, report);
    QVERIFY_THROWS_EXCEPTION(ImportError, importAlibabaCsvFile(kCsvDir + "openb_node_list_all_node.csv", store, report));
    QCOMPARE(store.nodeCount(), std::size_t { 1213 });
}

void TstAlibabaCsv::missingFile()
{
    model::ClusterStore store;
    ImportReport report;
    const std::string path = kFixtureDir + "does_not_exist.csv";
    try {
        importAlibabaCsvFile(path, store, report);
        QFAIL("no error for a missing file");
    } catch (const ImportError& e) {
        QCOMPARE(e.file(), path);
        QVERIFY(e.message().find("cannot open") != std::string::npos);
    }
}

void TstAlibabaCsv::cancelLeavesStoreUnchanged()
{
    model::ClusterStore store;
    ImportReport report;
    CancelAtOnce cancel;
    QVERIFY_THROWS_EXCEPTION(
        ImportCancelled, importAlibabaCsvFile(kCsvDir + "openb_pod_list_default.csv", store, report, &cancel));
    QCOMPARE(store.podCount(), std::size_t { 0 });
}

void TstAlibabaCsv::progressReachesTotal()
{
    model::ClusterStore store;
    ImportReport report;
    RecordProgress progress;
    importAlibabaCsvFile(kCsvDir + "openb_pod_list_default.csv", store, report, &progress);
    QVERIFY(progress.calls > 0);
    QCOMPARE(progress.lastTotal, std::size_t { 575468 }); // bytes, SOURCE.md
    QCOMPARE(progress.lastDone, progress.lastTotal);
}

QTEST_GUILESS_MAIN(TstAlibabaCsv)
#include "tst_alibabacsv.moc"
