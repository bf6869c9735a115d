// Usage from Prometheus (usagequery.h).
#include "importers/prometheus/usagequery.h"

#include "importers/quotedtext.h"
#include "model/figures.h"

#include <cmath>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>
#include <unordered_map>
#include <tuple>

namespace fleet::importers::prometheus {

namespace {

struct Unmatched {
    std::size_t count = 0;
    std::string example;
    void add(std::string_view name)
    {
        if (count++ == 0)
            example = std::string(name);
    }
    void report(std::vector<std::string>* warnings, const std::string& what) const
    {
        if (warnings && count > 0)
            warnings->push_back(model::formatCount(static_cast<std::int64_t>(count)) + " " + what + ", e.g. " + quotedText(example, 60));
    }
};

// Pods by "namespace/name", built once per query (the store has no such index).
using PodIndex = std::unordered_map<std::string, model::PodId>;

PodIndex podIndex(const model::ClusterStore& store)
{
    PodIndex index;
    index.reserve(store.podCount());
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        if (!store.podIsTerminal(p))
            index.emplace(std::string(store.podNamespace(p)) + "/" + std::string(store.podName(p)), p);
    }
    return index;
}

// The pod a dcgm-exporter series names: exported_* when the scrape kept the exporter's own
// namespace/pod labels apart (honorLabels false), else namespace/pod.
model::PodId seriesPod(const PodIndex& pods, const PromSeries& s, Unmatched& unknownPods)
{
    std::string_view ns = s.label("exported_namespace"), pod = s.label("exported_pod");
    if (pod.empty()) {
        ns = s.label("namespace");
        pod = s.label("pod");
    }
    if (pod.empty())
        return {};
    const std::string key = std::string(ns) + "/" + std::string(pod);
    const auto it = pods.find(key);
    if (it == pods.end()) {
        unknownPods.add(key);
        return {};
    }
    return it->second;
}

void perNode(const model::ClusterStore& store, const PromResult& r, const std::string& label, double scale, std::vector<double>& out,
    Unmatched& unknown)
{
    for (const PromSeries& s : r.series) {
        const model::NodeId n = store.findNode(s.label(label));
        if (!n.isValid()) {
            unknown.add(s.label(label));
            continue;
        }
        if (!s.points.empty() && std::isfinite(s.points.back().value))
            out[n.index()] = (std::isnan(out[n.index()]) ? 0.0 : out[n.index()]) + s.points.back().value * scale;
    }
}

} // namespace

model::ClusterUsage queryClusterUsage(PrometheusClient& client, const model::ClusterStore& store, const UsageQueries& q, double time,
    std::vector<std::string>* warnings)
{
    model::ClusterUsage u(store.nodeCount());
    u.windowSeconds = q.windowSeconds;
    u.idleThreshold = q.idleThreshold;
    u.time = time;
    u.source = "Prometheus " + client.baseUrl();
    Unmatched cadvisorNodes, gpuNodes, gpuPods;

    perNode(store, client.instantQuery(q.cpu, time), q.cadvisorNodeLabel, 1000.0, u.cpuUsedMilli, cadvisorNodes);
    perNode(store, client.instantQuery(q.memory, time), q.cadvisorNodeLabel, 1.0, u.memoryUsedBytes, cadvisorNodes);

    // GPUs: the ratio if the exporter has the profiling field, else the percentage.
    std::string promql = q.gpuRatio;
    double scale = 1.0;
    PromResult range = client.rangeQuery(promql, time - q.windowSeconds, time, q.stepSeconds);
    if (range.series.empty()) {
        promql = q.gpuPercent;
        scale = 0.01;
        range = client.rangeQuery(promql, time - q.windowSeconds, time, q.stepSeconds);
    }
    // A sample is "now" when it is within one step of `time`; the window is covered when the
    // samples start within one step of its start and none is missing.
    const auto expected = static_cast<std::size_t>(std::floor(q.windowSeconds / q.stepSeconds + 1e-9)) + 1;
    std::vector<double> utilSum(store.nodeCount(), 0.0);
    std::map<std::tuple<std::uint32_t, std::string, std::string>, bool> devicesSeen; // (node, gpu, GPU_I_ID)
    std::optional<PodIndex> pods;
    for (const PromSeries& s : range.series) {
        const model::NodeId n = store.findNode(s.label(q.gpuNodeLabel));
        if (!n.isValid()) {
            gpuNodes.add(s.label(q.gpuNodeLabel));
            continue;
        }
        if (s.points.empty())
            continue;
        const auto key = std::make_tuple(n.value, std::string(s.label("gpu")), std::string(s.label("GPU_I_ID")));
        if (!devicesSeen.emplace(key, true).second)
            continue; // the same device twice (two scrapes): counted once
        const PromPoint& last = s.points.back();
        if (time - last.time <= q.stepSeconds && std::isfinite(last.value)) {
            utilSum[n.index()] += last.value * scale;
            ++u.gpusMeasured[n.index()];
        }
        if (u.idleAllocatedGpus[n.index()] < 0)
            u.idleAllocatedGpus[n.index()] = 0;
        if (!pods)
            pods = podIndex(store);
        const model::PodId p = seriesPod(*pods, s, gpuPods);
        if (!p.isValid())
            continue; // not allocated (no pod label), or a pod the store lacks
        const bool covers = s.points.size() >= expected && s.points.front().time <= time - q.windowSeconds + q.stepSeconds;
        if (!covers)
            continue;
        ++u.allocatedGpusMeasured;
        double peak = 0;
        for (const PromPoint& pt : s.points)
            peak = std::max(peak, std::isfinite(pt.value) ? pt.value * scale : 1.0);
        if (peak < q.idleThreshold) {
            ++u.idleAllocatedGpus[n.index()];
            const std::string_view gpu = s.label("gpu");
            u.idleGpus.push_back({ n, p, gpu.empty() ? -1 : std::atoi(std::string(gpu).c_str()), peak });
        }
    }
    for (std::size_t i = 0; i < store.nodeCount(); ++i)
        if (u.gpusMeasured[i] > 0)
            u.gpuUtilization[i] = utilSum[i] / u.gpusMeasured[i];
    std::sort(u.idleGpus.begin(), u.idleGpus.end(),
        [](const model::IdleGpu& a, const model::IdleGpu& b) { return std::tie(a.node, a.device) < std::tie(b.node, b.device); });
    cadvisorNodes.report(warnings, "cAdvisor series name nodes that are not in the cluster");
    gpuNodes.report(warnings, "GPU series (" + promql + ") name nodes by " + q.gpuNodeLabel + " that are not in the cluster");
    gpuPods.report(warnings, "GPU series name pods that are not in the cluster");
    return u;
}

std::shared_ptr<const model::ClusterUsage> loadClusterUsage(const UsageSource& source, const model::ClusterStore& store, ImportReport& report)
{
    const double time = source.time > 0
        ? source.time
        : std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    try {
        PrometheusClient client(source.server);
        std::vector<std::string> warnings;
        auto usage = std::make_shared<const model::ClusterUsage>(queryClusterUsage(client, store, source.queries, time, &warnings));
        for (std::string& w : warnings)
            report.warn("usage: " + w);
        return usage;
    } catch (const PrometheusError& e) {
        report.warn(std::string("usage: ") + e.what() + "; the usage metrics have no data");
        return nullptr;
    }
}

} // namespace fleet::importers::prometheus
