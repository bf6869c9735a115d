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

// One GPU device of a node: its series (MIG instances, or the pods sharing it).
struct Device {
    std::set<std::string> series;  // "GPU_I_ID/pod id" seen
    std::int32_t device = -1;
    double weightedLast = 0;       // sum of last value x slices over series with a recent sample
    double weight = 0;
    double peak = 0;               // the highest sample of any series of the device
    std::vector<model::PodId> pods; // the pods holding it for the whole window (sorted, unique)
};

// The compute slices of a MIG profile ("3g.40gb" -> 3, "1g.10gb+me" -> 1); 1 for none.
double migSlices(std::string_view profile) noexcept
{
    int slices = 0;
    std::size_t i = 0;
    while (i < profile.size() && profile[i] >= '0' && profile[i] <= '9' && slices < 1000)
        slices = slices * 10 + (profile[i++] - '0');
    return i < profile.size() && profile[i] == 'g' && slices > 0 ? slices : 1.0;
}

} // namespace

UsageSeries fetchUsageSeries(PrometheusClient& client, const UsageQueries& q, double time)
{
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
        d.device = gpu.empty() ? -1 : std::atoi(std::string(gpu).c_str());
        const PromPoint& last = s.points.back();
        if (time - last.time <= q.stepSeconds && std::isfinite(last.value)) {
            const double w = migSlices(s.label("GPU_I_PROFILE"));
            d.weightedLast += last.value * scale * w;
            d.weight += w;
        }
        for (const PromPoint& pt : s.points)
            d.peak = std::max(d.peak, std::isfinite(pt.value) ? pt.value * scale : 1.0);
        if (!p.isValid())
            continue; // not allocated (no pod label), or a pod the store lacks
        const bool covers = s.points.size() >= expected && s.points.front().time <= time - q.windowSeconds + q.stepSeconds;
        if (covers && std::find(d.pods.begin(), d.pods.end(), p) == d.pods.end())
            d.pods.insert(std::upper_bound(d.pods.begin(), d.pods.end(), p), p);
    }
    std::vector<double> utilSum(store.nodeCount(), 0.0);
    for (const auto& [key, d] : devices) {
        const model::NodeId n(key.first);
        if (u.idleAllocatedGpus[n.index()] < 0)
            u.idleAllocatedGpus[n.index()] = 0;
        if (d.weight > 0) {
            utilSum[n.index()] += d.weightedLast / d.weight;
            ++u.gpusMeasured[n.index()];
        }
        if (d.pods.empty())
            continue; // no pod held it for the whole window
        ++u.allocatedGpusMeasured;
        if (d.peak < q.idleThreshold) {
            ++u.idleAllocatedGpus[n.index()];
            // Every pod holding the device is listed; the device counts once (sharedBy).
            for (const model::PodId p : d.pods)
                u.idleGpus.push_back({ n, p, d.device, d.peak, static_cast<std::int32_t>(d.pods.size()) });
        }
    }
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
            if (u.gpusMeasured[n.index()] > 0)
                continue; // dcgm-exporter's figures stand
            if (!s.points.empty() && std::isfinite(s.points.back().value)) {
                coreSum[n.index()] += s.points.back().value;
                ++cores[n.index()];
            }
        }
        for (std::size_t i = 0; i < store.nodeCount(); ++i)
            if (cores[i] > 0) {
                utilSum[i] = coreSum[i];
                u.gpusMeasured[i] = cores[i];
            }
    }
    for (std::size_t i = 0; i < store.nodeCount(); ++i)
        if (u.gpusMeasured[i] > 0)
            u.gpuUtilization[i] = utilSum[i] / u.gpusMeasured[i];
    std::sort(u.idleGpus.begin(), u.idleGpus.end(),
        [](const model::IdleGpu& a, const model::IdleGpu& b) { return std::tie(a.node, a.device, a.pod) < std::tie(b.node, b.device, b.pod); });
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
