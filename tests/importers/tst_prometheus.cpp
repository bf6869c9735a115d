// SPDX-License-Identifier: Apache-2.0
// Tests of importers/prometheus/prometheusclient.h: the API's answers parsed (vector, matrix,
// scalar, NaN and infinities, warnings) and refused with where and what; then a real
// Prometheus server (Debian's package, tests/importers/prometheusserver.h) on loopback, holding
// dcgm-exporter and cAdvisor history written by the test, answering instant and range queries
// at explicit times, and a bad query's error.

#include "importers/prometheus/prometheusclient.h"
#include "importers/prometheus/usageconfig.h"
#include "importers/prometheus/usagequery.h"
#include "model/metrics/usagemetrics.h"
#include "prometheusserver.h"

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace fleet::importers::prometheus;

namespace {
PrometheusSettings at(const std::string& url)
{
    PrometheusSettings s;
    s.baseUrl = url;
    return s;
}

using fleet::model::CoreResource;

void addNode(fleet::model::ClusterStore& s, const std::string& name, int gpus)
{
    fleet::model::NodeRecord r;
    r.name = name;
    r.allocatable.setCore(CoreResource::Cpu, 8000);
    r.allocatable.setCore(CoreResource::Memory, 32LL << 30);
    r.allocatable.setCore(CoreResource::Pods, 110);
    r.allocatable.setCore(CoreResource::Gpu, gpus * 1000);
    r.capacity = r.allocatable;
    r.ready = fleet::model::Readiness::True;
    r.gpuCount = gpus;
    s.addNode(r);
}

void addPod(fleet::model::ClusterStore& s, const std::string& node, const std::string& name, int gpus)
{
    fleet::model::PodRecord p;
    p.namespaceName = "ml";
    p.name = name;
    p.nodeName = node;
    p.phase = fleet::model::PodPhase::Running;
    p.request.setCore(CoreResource::Cpu, 1000);
    p.request.setCore(CoreResource::Memory, 1LL << 30);
    p.request.setCore(CoreResource::Gpu, gpus * 1000);
    s.addPod(p);
}

// Starts a Prometheus on the history `om` ("# EOF" added) and reads `store`'s usage at `last`
// with each of `queries`, the warnings of all in `warnings`. Empty, with `error` set, when the
// server does not start.
std::vector<fleet::model::ClusterUsage> usagesFrom(QByteArray om, const fleet::model::ClusterStore& store, qint64 last,
    const std::vector<UsageQueries>& queries, std::vector<std::string>& warnings, QString& error)
{
    PrometheusServer server(om + "# EOF\n");
    if (server.url().isEmpty()) {
        error = server.error();
        return {};
    }
    PrometheusClient client(at(server.url().toStdString()));
    std::vector<fleet::model::ClusterUsage> out;
    for (const UsageQueries& q : queries)
        out.push_back(queryClusterUsage(client, store, q, static_cast<double>(last), &warnings));
    return out;
}

QByteArray sample(const QString& series, double value, qint64 t)
{
    return QStringLiteral("%1 %2 %3\n").arg(series).arg(value, 0, 'g', 12).arg(t).toUtf8();
}
} // namespace

class TstPrometheus : public QObject {
    Q_OBJECT
private slots:
    void caErrorsUseThePrometheusWords();
    void parses();
    void refuses_data();
    void refuses();
    void realServer();
    void unreachable();
    void usageAndIdleGpus();
    void migAndNeuron();
    void usageConfig();
    void usageConfigRefuses_data();
    void usageConfigRefuses();
    void queryRefusesUnboundedWindow_data();
    void queryRefusesUnboundedWindow();
};

void TstPrometheus::parses()
{
    const PromResult v = parsePrometheusResponse(
        R"({"status":"success","data":{"resultType":"vector","result":[
            {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","Hostname":"n1","gpu":"0"},"value":[1796170706.5,"97"]},
            {"metric":{"gpu":"1"},"value":[1796170706,"NaN"]},
            {"metric":{},"value":[1796170706,"+Inf"]}]},"warnings":["partial"]})",
        "http://p", "/api/v1/query");
    QCOMPARE(v.resultType, std::string("vector"));
    QCOMPARE(v.series.size(), std::size_t(3));
    QCOMPARE(v.series[0].label("Hostname"), std::string_view("n1"));
    QCOMPARE(v.series[0].label("absent"), std::string_view());
    QCOMPARE(v.series[0].points[0].time, 1796170706.5);
    QCOMPARE(v.series[0].points[0].value, 97.0);
    QVERIFY(std::isnan(v.series[1].points[0].value));
    QVERIFY(std::isinf(v.series[2].points[0].value));
    QCOMPARE(v.warnings, std::vector<std::string> { "partial" });

    const PromResult m = parsePrometheusResponse(
        R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"pod":"a"},"values":[[10,"0.5"],[70,"-1e-3"]]}]}})",
        "http://p", "/api/v1/query_range");
    QCOMPARE(m.series.at(0).points.size(), std::size_t(2));
    QCOMPARE(m.series[0].points[1].value, -0.001);

    const PromResult s = parsePrometheusResponse(R"({"status":"success","data":{"resultType":"scalar","result":[5,"2"]}})", "p", "q");
    QCOMPARE(s.series.at(0).points.at(0).value, 2.0);
}

void TstPrometheus::refuses_data()
{
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("message");
    QTest::newRow("API error") << R"({"status":"error","errorType":"bad_data","error":"parse error"})"
                               << "http://p: /api/v1/query: bad_data: parse error";
    QTest::newRow("not JSON") << "<html>proxy</html>" << "http://p: /api/v1/query: the answer is not JSON";
    QTest::newRow("no status") << R"({"data":{}})" << "status: missing (not a Prometheus API answer)";
    QTest::newRow("value not a number") << R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"abc"]}]}})"
                                        << "data.result[0].value[1]: not a number: \"abc\"";
    QTest::newRow("value not a pair") << R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1]}]}})"
                                      << "data.result[0].value: expected [time, \"value\"]";
    QTest::newRow("label not a string") << R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":1},"value":[1,"1"]}]}})"
                                        << "data.result[0].metric.a: expected a string";
    QTest::newRow("matrix without values") << R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{}}]}})"
                                           << "data.result[0].values: missing";
    QTest::newRow("string result") << R"({"status":"success","data":{"resultType":"string","result":[1,"x"]}})"
                                   << "data.resultType: \"string\" is not a vector, matrix or scalar";
}

void TstPrometheus::refuses()
{
    QFETCH(QString, body);
    QFETCH(QString, message);
    try {
        (void)parsePrometheusResponse(body.toStdString(), "http://p", "/api/v1/query");
        QFAIL("accepted");
    } catch (const PrometheusError& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
    }
}

void TstPrometheus::realServer()
{
    // An hour of history, a sample a minute, ending a minute ago: GPU 0 of n1 busy (97%) and
    // GPU 1 idle (0%), by dcgm-exporter's field names; a cAdvisor working set per container,
    // with the pod-level row (container="") that usage must leave out.
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const qint64 last = now - 60;
    QByteArray om = "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n";
    for (int gpu = 0; gpu < 2; ++gpu)
        for (int i = 59; i >= 0; --i)
            om += QStringLiteral("DCGM_FI_DEV_GPU_UTIL{gpu=\"%1\",Hostname=\"n1\",exported_namespace=\"ml\",exported_pod=\"train-%1\"} %2 %3\n")
                      .arg(gpu)
                      .arg(gpu == 0 ? 97 : 0)
                      .arg(last - i * 60)
                      .toUtf8();
    om += "# TYPE container_memory_working_set_bytes gauge\n";
    for (int i = 59; i >= 0; --i) {
        om += QStringLiteral("container_memory_working_set_bytes{namespace=\"ml\",pod=\"train-0\",container=\"main\",node=\"n1\"} %1 %2\n")
                  .arg(1073741824 + i)
                  .arg(last - i * 60)
                  .toUtf8();
        om += QStringLiteral("container_memory_working_set_bytes{namespace=\"ml\",pod=\"train-0\",container=\"\",node=\"n1\"} 9 %1\n")
                  .arg(last - i * 60)
                  .toUtf8();
    }
    om += "# EOF\n";
    PrometheusServer server(om);
    QVERIFY2(!server.url().isEmpty(), qPrintable(server.error()));

    PrometheusClient client(at(server.url().toStdString()));
    // Instant, at the last sample (an instant query looks back 5 minutes only).
    const PromResult util = client.instantQuery("DCGM_FI_DEV_GPU_UTIL", static_cast<double>(last));
    QCOMPARE(util.resultType, std::string("vector"));
    QCOMPARE(util.series.size(), std::size_t(2));
    for (const PromSeries& s : util.series) {
        QCOMPARE(s.label("Hostname"), std::string_view("n1"));
        QCOMPARE(s.points.at(0).time, static_cast<double>(last));
        QCOMPARE(s.points[0].value, s.label("gpu") == "0" ? 97.0 : 0.0);
    }
    // Two hours after the history, the same instant query finds nothing.
    QVERIFY(client.instantQuery("DCGM_FI_DEV_GPU_UTIL", static_cast<double>(now + 7200)).series.empty());
    // The idle rule's question: the highest utilization over the hour, per GPU.
    const PromResult peak = client.instantQuery("max_over_time(DCGM_FI_DEV_GPU_UTIL[1h])", static_cast<double>(last));
    QCOMPARE(peak.series.size(), std::size_t(2));
    // PromQL with characters a URL must encode ({, ", =, !, spaces).
    const PromResult memory
        = client.instantQuery(R"(sum by (namespace, pod) (container_memory_working_set_bytes{container!=""}))", static_cast<double>(last));
    QCOMPARE(memory.series.size(), std::size_t(1));
    QCOMPARE(memory.series[0].label("pod"), std::string_view("train-0"));
    QCOMPARE(memory.series[0].points.at(0).value, 1073741824.0);
    // Range: 10 minutes at a 1-minute step: 11 points per GPU, in time order.
    const PromResult range
        = client.rangeQuery("DCGM_FI_DEV_GPU_UTIL{gpu=\"1\"}", static_cast<double>(last - 600), static_cast<double>(last), 60);
    QCOMPARE(range.resultType, std::string("matrix"));
    QCOMPARE(range.series.size(), std::size_t(1));
    QCOMPARE(range.series[0].points.size(), std::size_t(11));
    QVERIFY(range.series[0].points.front().time < range.series[0].points.back().time);
    // A bad query: the server's 400 with its error type and message.
    try {
        (void)client.instantQuery("sum(", static_cast<double>(last));
        QFAIL("a bad query was accepted");
    } catch (const PrometheusError& e) {
        QCOMPARE(e.status(), 400u);
        QVERIFY2(QString::fromStdString(e.what()).contains(QLatin1String("/api/v1/query: HTTP 400: bad_data:")), e.what());
    }
    try {
        (void)client.rangeQuery("up", 10, 5, 60);
        QFAIL("an empty range was accepted");
    } catch (const PrometheusError& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(QLatin1String("end >= start")), e.what());
    }
}

void TstPrometheus::unreachable()
{
    try {
        PrometheusClient client(at("http://127.0.0.1:1"));
        (void)client.instantQuery("up", 0);
        QFAIL("no error from a closed port");
    } catch (const PrometheusError& e) {
        QCOMPARE(e.status(), 0u);
        QVERIFY2(QString::fromStdString(e.what()).startsWith(QLatin1String("http://127.0.0.1:1: /api/v1/query: ")), e.what());
    }
    try {
        PrometheusClient client(at("ftp://x"));
        QFAIL("an ftp URL was accepted");
    } catch (const PrometheusError& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(QLatin1String("not an http:// or https:// URL")), e.what());
    }
}

// Usage of a small cluster from a real server: cAdvisor cpu (a counter: 2 cores) and memory
// (the pod-level container="" row left out), dcgm-exporter utilization per GPU with the pods
// holding them, and the idle rule: below 5% at every sample of the whole hour.
void TstPrometheus::usageAndIdleGpus()
{
    fleet::model::ClusterStore store;
    addNode(store, "n1", 4);
    addNode(store, "n2", 1);
    addNode(store, "cpu", 0);
    addPod(store, "n1", "train-0", 1);
    addPod(store, "n1", "train-1", 1);
    addPod(store, "n2", "infer-0", 1);
    store.finalize();

    const qint64 last = QDateTime::currentSecsSinceEpoch() - 60;
    QByteArray om = "# TYPE container_cpu_usage_seconds counter\n";
    for (int i = 60; i >= 0; --i)
        om += sample(QStringLiteral("container_cpu_usage_seconds_total{namespace=\"ml\",pod=\"train-0\",container=\"main\",node=\"n1\"}"),
            2.0 * (3600 - i * 60), last - i * 60);
    om += "# TYPE container_memory_working_set_bytes gauge\n";
    for (int i = 60; i >= 0; --i) {
        om += sample(QStringLiteral("container_memory_working_set_bytes{namespace=\"ml\",pod=\"train-0\",container=\"main\",node=\"n1\"}"),
            1073741824.0, last - i * 60);
        om += sample(QStringLiteral("container_memory_working_set_bytes{namespace=\"ml\",pod=\"train-0\",container=\"\",node=\"n1\"}"),
            5e9, last - i * 60);
    }
    om += "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n";
    const QString gpu = QStringLiteral("DCGM_FI_DEV_GPU_UTIL{gpu=\"%1\",Hostname=\"%2\"%3}");
    const QString held = QStringLiteral(",exported_namespace=\"ml\",exported_pod=\"%1\"");
    for (int i = 60; i >= 0; --i) {
        const qint64 t = last - i * 60;
        om += sample(gpu.arg(0).arg(QStringLiteral("n1")).arg(held.arg(QStringLiteral("train-0"))), 97, t); // busy
        om += sample(gpu.arg(1).arg(QStringLiteral("n1")).arg(held.arg(QStringLiteral("train-1"))), i % 4, t); // idle: 0-3%
        om += sample(gpu.arg(2).arg(QStringLiteral("n1")).arg(QString()), 0, t); // no pod: free, not "allocated but idle"
        if (i <= 30) // held for the last half hour only: not idle for the window
            om += sample(gpu.arg(0).arg(QStringLiteral("n2")).arg(held.arg(QStringLiteral("infer-0"))), 0, t);
        om += sample(gpu.arg(0).arg(QStringLiteral("gone-node")).arg(QString()), 50, t);
    }
    std::vector<std::string> warnings;
    QString error;
    const auto usages = usagesFrom(om, store, last, { UsageQueries {} }, warnings, error);
    QVERIFY2(!usages.empty(), qPrintable(error));
    const fleet::model::ClusterUsage& u = usages[0];

    const auto n1 = store.findNode("n1"), n2 = store.findNode("n2"), cpu = store.findNode("cpu");
    QVERIFY2(std::abs(u.cpuUsedMilli[n1.index()] - 2000) < 1, qPrintable(QString::number(u.cpuUsedMilli[n1.index()])));
    QCOMPARE(u.memoryUsedBytes[n1.index()], 1073741824.0);
    QVERIFY(std::isnan(u.cpuUsedMilli[n2.index()])); // no cAdvisor series: unknown, not 0
    QCOMPARE(u.gpusMeasured[n1.index()], 3);
    QVERIFY(std::abs(u.gpuUtilization[n1.index()] - (0.97 + 0.0 + 0.0) / 3) < 0.011); // the idle GPU's last sample is 0-3%
    QCOMPARE(u.idleAllocatedGpus[n1.index()], 1);
    QCOMPARE(u.idleAllocatedGpus[n2.index()], 0);
    QCOMPARE(u.idleAllocatedGpus[cpu.index()], -1);
    QCOMPARE(u.allocatedGpusMeasured, std::int64_t(2)); // train-0 and train-1; infer-0 not for the whole window
    QCOMPARE(u.idleGpus.size(), std::size_t(1));
    QCOMPARE(store.podName(u.idleGpus[0].pod), std::string_view("train-1"));
    QCOMPARE(u.idleGpus[0].device, 1);
    QVERIFY(u.idleGpus[0].peakUtilization < 0.05 && u.idleGpus[0].peakUtilization >= 0.02);
    QCOMPARE(fleet::model::idleGpuSentence(u), std::string("1 of 2 allocated GPUs idle for 1 h (below 5%)"));
    QCOMPARE(warnings.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(warnings[0]).contains(QLatin1String("\"gone-node\"")), warnings[0].c_str());

    // The usage metrics over it: shares of allocatable, unknown as not applicable.
    const auto shared = std::make_shared<const fleet::model::ClusterUsage>(u);
    const fleet::model::MetricContext context(store);
    const auto cpuUsed = fleet::model::makeUsageMetric(shared, fleet::model::UsageMetricKind::CpuUsed);
    QVERIFY(std::abs(cpuUsed->value(context, n1) - 0.25) < 1e-3);
    QVERIFY(std::isnan(cpuUsed->value(context, n2)));
    const auto idle = fleet::model::makeUsageMetric(shared, fleet::model::UsageMetricKind::GpuIdle);
    QCOMPARE(idle->value(context, n1), 1.0);
    QVERIFY(std::isnan(idle->value(context, cpu)));
    QCOMPARE(idle->notApplicableReason(), std::string("no GPUs or no usage data"));
    QCOMPARE(cpuUsed->notApplicableReason(), std::string("no usage data"));
}

// MIG instances of one device (GPU_I_ID), weighted by their profile's slices; a shared device
// is idle only when every instance of it is; Neuron utilization per NeuronCore by `node`.
void TstPrometheus::migAndNeuron()
{
    fleet::model::ClusterStore store;
    addNode(store, "mig", 2);
    addNode(store, "trn", 0);
    addNode(store, "cpu", 0);
    addPod(store, "mig", "a", 0); // MIG slices of device 0
    addPod(store, "mig", "b", 0);
    addPod(store, "mig", "c", 0); // MIG slices of device 1
    addPod(store, "mig", "d", 0);
    addPod(store, "mig", "e", 0); // a slice of device 1 for the last half hour only
    store.finalize();

    const qint64 last = QDateTime::currentSecsSinceEpoch() - 60;
    QByteArray om = "# TYPE DCGM_FI_PROF_GR_ENGINE_ACTIVE gauge\n";
    const QString mig = QStringLiteral(
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"%1\",GPU_I_ID=\"%2\",GPU_I_PROFILE=\"%3\",Hostname=\"mig\",exported_namespace=\"ml\",exported_pod=\"%4\"}");
    for (int i = 60; i >= 0; --i) {
        const qint64 t = last - i * 60;
        // Device 0: instance 1 idle, instance 2 busy: the device is not idle.
        om += sample(mig.arg(0).arg(1).arg(QStringLiteral("3g.40gb")).arg(QStringLiteral("a")), 0.01, t);
        om += sample(mig.arg(0).arg(2).arg(QStringLiteral("1g.10gb")).arg(QStringLiteral("b")), 0.8, t);
        // Device 1: both instances idle: one idle GPU.
        om += sample(mig.arg(1).arg(1).arg(QStringLiteral("4g.40gb")).arg(QStringLiteral("c")), 0.02, t);
        om += sample(mig.arg(1).arg(2).arg(QStringLiteral("3g.40gb")).arg(QStringLiteral("d")), 0.0, t);
        if (i <= 30)
            om += sample(mig.arg(1).arg(3).arg(QStringLiteral("1g.10gb")).arg(QStringLiteral("e")), 0.0, t);
    }
    om += "# TYPE neuroncore_utilization_ratio gauge\n";
    for (int i = 5; i >= 0; --i) {
        const qint64 t = last - i * 60;
        for (int core = 0; core < 4; ++core)
            om += sample(QStringLiteral("neuroncore_utilization_ratio{instance_type=\"trn1.32xlarge\",neuroncore=\"%1\",node=\"%2\"}")
                             .arg(core)
                             .arg(QStringLiteral("trn")),
                0.2 * core, t);
        om += sample(QStringLiteral("neuroncore_utilization_ratio{neuroncore=\"0\",node=\"gone\"}"), 0.5, t);
    }
    UsageQueries noNeuron;
    noNeuron.neuron.clear();
    std::vector<std::string> warnings;
    QString error;
    const auto usages = usagesFrom(om, store, last, { UsageQueries {}, noNeuron }, warnings, error);
    QVERIFY2(usages.size() == 2, qPrintable(error));
    const fleet::model::ClusterUsage& u = usages[0];

    const auto m = store.findNode("mig"), trn = store.findNode("trn"), cpu = store.findNode("cpu");
    QCOMPARE(u.gpusMeasured[m.index()], 2); // two devices, whatever their instances
    // Device 0: (0.01 x 3 + 0.8 x 1) / 4; device 1: (0.02 x 4 + 0 + 0) / 8; the node's mean of both.
    const double expected = ((0.03 + 0.8) / 4 + 0.08 / 8) / 2;
    QVERIFY2(std::abs(u.gpuUtilization[m.index()] - expected) < 1e-9, qPrintable(QString::number(u.gpuUtilization[m.index()])));
    QCOMPARE(u.allocatedGpusMeasured, std::int64_t(2));
    QCOMPARE(u.idleAllocatedGpus[m.index()], 1);
    // Device 1 once in the count, listed for both pods that held it the whole hour (not e).
    QCOMPARE(u.idleGpus.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
        QCOMPARE(u.idleGpus[i].device, 1);
        QCOMPARE(u.idleGpus[i].sharedBy, 2);
        QCOMPARE(u.idleGpus[i].peakUtilization, 0.02);
    }
    QCOMPARE(store.podName(u.idleGpus[0].pod), std::string_view("c"));
    QCOMPARE(store.podName(u.idleGpus[1].pod), std::string_view("d"));
    QCOMPARE(fleet::model::idleGpuSentence(u), std::string("1 of 2 allocated GPUs idle for 1 h (below 5%)"));

    // Neuron: the mean of the node's NeuronCores, no idle figure (no pod label): unknown.
    QCOMPARE(u.gpusMeasured[trn.index()], 4);
    QVERIFY(std::abs(u.gpuUtilization[trn.index()] - 0.3) < 1e-9);
    QCOMPARE(u.idleAllocatedGpus[trn.index()], -1);
    QVERIFY(std::isnan(u.gpuUtilization[cpu.index()]));
    QCOMPARE(warnings.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(warnings[0]).contains(QLatin1String("Neuron series")), warnings[0].c_str());
    QVERIFY2(QString::fromStdString(warnings[0]).contains(QLatin1String("\"gone\"")), warnings[0].c_str());

    // Neuron off: the node has no figure.
    QVERIFY(std::isnan(usages[1].gpuUtilization[trn.index()]));
}

// importers/prometheus/usageconfig.h: every setting read; defaults kept for the rest.
void TstPrometheus::usageConfig()
{
    QTemporaryDir dir;
    QFile token(dir.filePath(QStringLiteral("token")));
    QVERIFY(token.open(QIODevice::WriteOnly) && token.write("abc\n") == 4);
    token.close();
    const std::string path = dir.filePath(QStringLiteral("usage.yaml")).toStdString();
    const UsageSource s = parseUsageConfig("prometheus:\n  url: https://prom:9090/p\n  bearerTokenFile: token\n  certificateAuthority: ca.pem\n"
                                           "  insecureSkipTlsVerify: true\nqueries:\n  cpu: up\n  gpuNodeLabel: node_name\n  neuron: \"\"\n"
                                           "idle:\n  window: 2h\n  threshold: 10%\n  step: 30s\ntime: 2026-12-01T10:00:00Z\n",
        path);
    QCOMPARE(s.server.baseUrl, std::string("https://prom:9090/p"));
    QCOMPARE(s.server.bearerToken, std::string("abc"));
    QCOMPARE(s.server.certificateAuthority, dir.filePath(QStringLiteral("ca.pem")).toStdString());
    QVERIFY(s.server.insecureSkipTlsVerify);
    QCOMPARE(s.queries.cpu, std::string("up"));
    QCOMPARE(s.queries.memory, UsageQueries {}.memory);
    QCOMPARE(s.queries.gpuNodeLabel, std::string("node_name"));
    QVERIFY(s.queries.neuron.empty());
    QCOMPARE(s.queries.windowSeconds, 7200.0);
    QCOMPARE(s.queries.idleThreshold, 0.1);
    QCOMPARE(s.queries.stepSeconds, 30.0);
    QCOMPARE(s.time, 1796119200.0);
    QCOMPARE(parseUsageConfig("prometheus: {url: http://x}\nidle: {threshold: 0.05}\n", path).queries.idleThreshold, 0.05);
}

void TstPrometheus::usageConfigRefuses_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown key") << QByteArray("prometheus:\n  url: http://x\n  tokn: a\n") << "c.yaml:3: prometheus.tokn: unknown setting";
    QTest::newRow("top key") << QByteArray("prometheus: {url: http://x}\nquery: {}\n") << "c.yaml:2: query: unknown setting";
    QTest::newRow("no url") << QByteArray("idle: {window: 1h}\n") << "prometheus.url: the Prometheus to read usage from is needed";
    QTest::newRow("not http") << QByteArray("prometheus:\n  url: prom:9090\n") << "c.yaml:2: prometheus.url: expected an http:// or https:// URL";
    QTest::newRow("not http, with a password")
        << QByteArray("prometheus:\n  url: ftp://bob:s3cret@prom/?token=s3cret\n")
        << "c.yaml:2: prometheus.url: expected an http:// or https:// URL, found \"ftp://REDACTED@prom/?REDACTED\"";
    QTest::newRow("threshold") << QByteArray("prometheus: {url: http://x}\nidle:\n  threshold: lots\n")
                               << "c.yaml:3: idle.threshold: expected a ratio 0..1 or a percentage (5%), found \"lots\"";
    QTest::newRow("window") << QByteArray("prometheus: {url: http://x}\nidle:\n  window: -1h\n") << "c.yaml:3: idle.window: expected a duration above 0";
    QTest::newRow("step") << QByteArray("prometheus: {url: http://x}\nidle: {window: 1m, step: 1h}\n") << "idle.step: the step is longer than the window";
    QTest::newRow("huge window") << QByteArray("prometheus: {url: http://x}\nidle:\n  window: 1e20\n")
                                 << "c.yaml:3: idle.window: expected a duration of at most 365d, found \"1e20\"";
    QTest::newRow("overflowing window") << QByteArray("prometheus: {url: http://x}\nidle:\n  window: 1e307d\n")
                                        << "c.yaml:3: idle.window: expected a duration of at most 365d";
    QTest::newRow("too many steps") << QByteArray("prometheus: {url: http://x}\nidle: {window: 30d, step: 1m}\n")
                                    << "idle.step: the window holds more than 11,000 points at this step";
    QTest::newRow("empty query") << QByteArray("prometheus: {url: http://x}\nqueries:\n  cpu: \"\"\n") << "c.yaml:3: queries.cpu: expected a PromQL query";
    QTest::newRow("list") << QByteArray("prometheus: [a]\n") << "c.yaml:1: prometheus: expected a mapping of settings";
    QTest::newRow("yaml") << QByteArray("prometheus: {url: [\n") << "not valid YAML";
    QTest::newRow("flag") << QByteArray("prometheus: {url: http://x, insecureSkipTlsVerify: maybe}\n")
                          << "prometheus.insecureSkipTlsVerify: expected true or false";
    QTest::newRow("token twice") << QByteArray("prometheus: {url: http://x, bearerToken: s3cret, bearerTokenFile: /dev/null}\n")
                                 << "give bearerToken or bearerTokenFile, not both";
    QTest::newRow("token file") << QByteArray("prometheus: {url: http://x, bearerTokenFile: /nonexistent/t}\n")
                                << "prometheus.bearerTokenFile: \"/nonexistent/t\" does not exist";
    QTest::newRow("twice") << QByteArray("prometheus:\n  url: http://x\n  url: http://y\n") << "c.yaml:3: prometheus.url: the key \"url\" is given twice in one mapping (lines 2 and 3)";
    QTest::newRow("time") << QByteArray("prometheus: {url: http://x}\ntime: soon\n") << "c.yaml:2: time: expected seconds since the epoch (decimal digits, e.g. 1796170706) or an ISO 8601 time (2026-12-01T10:00:00Z), from 2000-01-01 to a day from now";
}

void TstPrometheus::usageConfigRefuses()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QString, message);
    try {
        (void)parseUsageConfig(yaml.toStdString(), "c.yaml");
        QFAIL("accepted");
    } catch (const fleet::importers::ImportError& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
        QVERIFY2(!QString::fromStdString(e.what()).contains(QLatin1String("s3cret")), e.what());
    }
    QVERIFY_THROWS_EXCEPTION(fleet::importers::ImportError, (void)readUsageConfig("/nonexistent/usage.yaml"));
}

void TstPrometheus::queryRefusesUnboundedWindow_data()
{
    QTest::addColumn<double>("window");
    QTest::addColumn<double>("step");
    QTest::newRow("infinite window") << std::numeric_limits<double>::infinity() << 60.0;
    QTest::newRow("NaN step") << 3600.0 << std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("zero step") << 3600.0 << 0.0;
    QTest::newRow("step above window") << 60.0 << 3600.0;
    QTest::newRow("11,000 steps") << 11000.0 << 1.0;
}

// Queries built in code (not through parseUsageConfig) meet the same bounds, refused before any
// request: the URL below has no server, so a query sent would fail with a different message.
void TstPrometheus::queryRefusesUnboundedWindow()
{
    QFETCH(double, window);
    QFETCH(double, step);
    fleet::model::ClusterStore store;
    addNode(store, "gpu-1", 8);
    UsageQueries q;
    q.windowSeconds = window;
    q.stepSeconds = step;
    PrometheusClient client(at("http://127.0.0.1:1"));
    try {
        (void)queryClusterUsage(client, store, q, 1.0e9);
        QFAIL("accepted");
    } catch (const PrometheusError& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(QLatin1String("fewer than 11,000 steps")), e.what());
    }
}

QTEST_GUILESS_MAIN(TstPrometheus)
// The transport is the Kubernetes client's: its refusals of a CA are said in the words of the
// Prometheus settings, never of a kubeconfig's cluster.
void TstPrometheus::caErrorsUseThePrometheusWords()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string empty = dir.filePath(QStringLiteral("empty.pem")).toStdString();
    QVERIFY(QFile(QString::fromStdString(empty)).open(QIODevice::WriteOnly));
    auto errorOf = [](const PrometheusSettings& settings) -> std::string {
        try {
            PrometheusClient client(settings);
        } catch (const PrometheusError& e) {
            return e.message();
        }
        return "accepted";
    };
    PrometheusSettings s;
    s.baseUrl = "https://127.0.0.1:1";
    s.certificateAuthority = empty;
    QCOMPARE(errorOf(s), "the Prometheus CA file " + empty + " (--prometheus-ca) holds no PEM certificate (it is empty)");
    s.certificateAuthority = dir.path().toStdString();
    QCOMPARE(errorOf(s), "the Prometheus CA file " + dir.path().toStdString() + " (--prometheus-ca) is a folder, not a PEM file of CA certificates");
    s.certificateAuthority = empty;
    s.insecureSkipTlsVerify = true;
    const std::string both = errorOf(s);
    QVERIFY2(both.starts_with("the Prometheus settings set insecureSkipTlsVerify together with a CA file (--prometheus-ca)"), both.c_str());
    for (const std::string& e : { errorOf(s), both })
        QVERIFY2(e.find("cluster") == std::string::npos && e.find("kubeconfig") == std::string::npos, e.c_str());
}

#include "tst_prometheus.moc"
