// SPDX-License-Identifier: Apache-2.0
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
#include <set>
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

// One GPU device of a node: the series seen (MIG instances, or the pods sharing it) and its samples.
struct Device {
    std::set<std::string> series; // "GPU_I_ID/pod id" seen
    model::GpuDeviceSamples samples;
};

// The idle window's bounds (UsageQueries), checked before any query and before the join,
// which casts the window's point count to an integer.
void checkIdleWindow(const UsageQueries& q, const std::string& source)
{
    if (!(q.stepSeconds > 0) || !(q.windowSeconds >= q.stepSeconds) || !(q.windowSeconds <= kMaxUsageWindowSeconds)
        || !(q.windowSeconds / q.stepSeconds < kMaxRangePoints))
        throw PrometheusError(source, "idle window",
            "expected 0 < step <= window <= 365 days and fewer than 11,000 steps, found window " + std::to_string(q.windowSeconds)
                + " s, step " + std::to_string(q.stepSeconds) + " s");
}

} // namespace

UsageSeries fetchUsageSeries(PrometheusClient& client, const UsageQueries& q, double time)
{
    checkIdleWindow(q, client.baseUrl()); // before any query
    UsageSeries r;
    r.time = time;
    r.source = "Prometheus " + client.baseUrl();
    r.cpu = client.instantQuery(q.cpu, time);
    r.memory = client.instantQuery(q.memory, time);
    // GPUs: the ratio if the exporter has the profiling field, else the percentage.
    r.gpuQuery = q.gpuRatio;
    r.gpu = client.rangeQuery(r.gpuQuery, time - q.windowSeconds, time, q.stepSeconds);
    if (r.gpu.series.empty()) {
        r.gpuQuery = q.gpuPercent;
        r.gpuScale = 0.01;
        r.gpu = client.rangeQuery(r.gpuQuery, time - q.windowSeconds, time, q.stepSeconds);
    }
    if (!q.neuron.empty())
        r.neuron = client.instantQuery(q.neuron, time);
    return r;
}

UsageSeries fetchUsageSeries(const UsageSource& source)
{
    const double time = source.time > 0
        ? source.time
        : std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    PrometheusClient client(source.server);
    return fetchUsageSeries(client, source.queries, time);
}

model::ClusterUsage queryClusterUsage(PrometheusClient& client, const model::ClusterStore& store, const UsageQueries& q, double time,
    std::vector<std::string>* warnings)
{
    return joinUsageSeries(fetchUsageSeries(client, q, time), store, q, warnings);
}

model::ClusterUsage joinUsageSeries(const UsageSeries& r, const model::ClusterStore& store, const UsageQueries& q,
    std::vector<std::string>* warnings)
{
    checkIdleWindow(q, r.source);
    const double time = r.time;
    model::ClusterUsage u(store.nodeCount());
    u.windowSeconds = q.windowSeconds;
    u.idleThreshold = q.idleThreshold;
    u.time = time;
    u.source = r.source;
    Unmatched cadvisorNodes, gpuNodes, gpuPods;

    perNode(store, r.cpu, q.cadvisorNodeLabel, 1000.0, u.cpuUsedMilli, cadvisorNodes);
    perNode(store, r.memory, q.cadvisorNodeLabel, 1.0, u.memoryUsedBytes, cadvisorNodes);

    const std::string& promql = r.gpuQuery;
    const double scale = r.gpuScale;
    const PromResult& range = r.gpu;
    // A sample is "now" when it is within one step of `time`; the window is covered when the
    // samples start within one step of its start and none is missing.
    const auto expected = static_cast<std::size_t>(std::floor(q.windowSeconds / q.stepSeconds + 1e-9)) + 1;
    std::map<std::pair<std::uint32_t, std::string>, Device> devices; // (node, gpu or UUID)
    std::optional<PodIndex> pods;
    for (const PromSeries& s : range.series) {
        const model::NodeId n = store.findNode(s.label(q.gpuNodeLabel));
        if (!n.isValid()) {
            gpuNodes.add(s.label(q.gpuNodeLabel));
            continue;
        }
        if (s.points.empty())
            continue;
        const std::string_view gpu = s.label("gpu");
        Device& d = devices[{ n.value, std::string(gpu.empty() ? s.label("UUID") : gpu) }];
        if (!pods)
            pods = podIndex(store);
        const model::PodId p = seriesPod(*pods, s, gpuPods);
        // One series per instance and pod; the same twice (two scrapes) counts once.
        if (!d.series.emplace(std::string(s.label("GPU_I_ID")) + "/" + std::to_string(p.isValid() ? p.value : ~0u)).second)
            continue;
        d.samples.device = gpu.empty() ? -1 : std::atoi(std::string(gpu).c_str());
        const PromPoint& last = s.points.back();
        const double now = time - last.time <= q.stepSeconds && std::isfinite(last.value) ? last.value * scale : model::ClusterUsage::kUnknown;
        double peak = 0;
        for (const PromPoint& pt : s.points)
            peak = std::max(peak, std::isfinite(pt.value) ? pt.value * scale : 1.0);
        // A pod (not a pod the store lacks) that held the instance for the whole window.
        const bool covers = p.isValid() && s.points.size() >= expected && s.points.front().time <= time - q.windowSeconds + q.stepSeconds;
        d.samples.addInstance(now, model::migComputeSlices(s.label("GPU_I_PROFILE")), peak, covers ? p : model::PodId {});
    }
    model::GpuUsageBuilder gpus(u);
    for (const auto& [key, d] : devices)
        gpus.addDevice(model::NodeId(key.first), d.samples);
    // Neuron: per NeuronCore, for the nodes dcgm-exporter did not name.
    Unmatched neuronNodes;
    if (!q.neuron.empty()) {
        std::vector<std::int32_t> cores(store.nodeCount(), 0);
        std::vector<double> coreSum(store.nodeCount(), 0.0);
        for (const PromSeries& s : r.neuron.series) {
            const model::NodeId n = store.findNode(s.label(q.neuronNodeLabel));
            if (!n.isValid()) {
                neuronNodes.add(s.label(q.neuronNodeLabel));
                continue;
            }
            if (gpus.measured(n) > 0)
                continue; // dcgm-exporter's figures stand
            if (!s.points.empty() && std::isfinite(s.points.back().value)) {
                coreSum[n.index()] += s.points.back().value;
                ++cores[n.index()];
            }
        }
        for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
            if (cores[i] > 0)
                gpus.setMeasured(model::NodeId(i), coreSum[i], cores[i]);
    }
    gpus.finish();
    cadvisorNodes.report(warnings, "cAdvisor series name nodes that are not in the cluster");
    gpuNodes.report(warnings, "GPU series (" + promql + ") name nodes by " + q.gpuNodeLabel + " that are not in the cluster");
    gpuPods.report(warnings, "GPU series name pods that are not in the cluster");
    neuronNodes.report(warnings, "Neuron series (" + q.neuron + ") name nodes by " + q.neuronNodeLabel + " that are not in the cluster");
    return u;
}

std::shared_ptr<const model::ClusterUsage> loadClusterUsage(const UsageSource& source, const model::ClusterStore& store, ImportReport& report)
{
    try {
        std::vector<std::string> warnings;
        auto usage = std::make_shared<const model::ClusterUsage>(joinUsageSeries(fetchUsageSeries(source), store, source.queries, &warnings));
        for (std::string& w : warnings)
            report.warn("usage: " + w);
        return usage;
    } catch (const PrometheusError& e) {
        report.warn(std::string("usage: ") + e.what() + "; the usage metrics have no data");
        return nullptr;
    }
}

} // namespace fleet::importers::prometheus
