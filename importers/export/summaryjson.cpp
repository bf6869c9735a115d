// SPDX-License-Identifier: Apache-2.0
#include "summaryjson.h"

#include "importers/terminaltext.h"

#include "model/accelerators.h"
#include "model/clustertotals.h"
#include "model/figures.h"
#include "model/metrics/metric.h"
#include "model/quantity.h"
#include "model/report/reportfigures.h"

#include <cmath>
#include <cstdio>

namespace fleet::importers {
namespace {

using model::CoreResource;
using model::ResourceKey;
using model::ResourceVector;

// JSON string escaping (RFC 8259 section 7).
void writeString(std::ostream& out, std::string_view s)
{
    out << '"';
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out << "\\\""; break;
        case '\\': out << "\\\\"; break;
        case '\n': out << "\\n"; break;
        case '\r': out << "\\r"; break;
        case '\t': out << "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out << buf;
            } else {
                out << ch;
            }
        }
    }
    out << '"';
}

using Extended = std::vector<std::pair<ResourceKey, std::int64_t>>;

void writeResources(std::ostream& out, const model::ClusterStore& store, const ResourceVector& r, const Extended& extended)
{
    out << "{\"cpu_millicores\": " << r[CoreResource::Cpu] << ", \"memory_bytes\": " << r[CoreResource::Memory]
        << ", \"gpu\": " << formatMilliDecimal(r[CoreResource::Gpu]) << ", \"pods\": " << r[CoreResource::Pods];
    out << ", \"ephemeral-storage\": " << r[CoreResource::EphemeralStorage];
    for (const auto& [key, value] : extended) {
        out << ", ";
        writeString(out, store.resources().name(key));
        out << ": " << value;
    }
    out << '}';
}

} // namespace

std::string formatMilliDecimal(std::int64_t milli)
{
    const bool negative = milli < 0;
    const std::uint64_t m = negative ? 0 - static_cast<std::uint64_t>(milli) : static_cast<std::uint64_t>(milli);
    std::string s = std::to_string(m / 1000);
    if (const std::uint64_t frac = m % 1000; frac != 0) {
        char buf[8];
        std::snprintf(buf, sizeof buf, ".%03u", static_cast<unsigned>(frac));
        std::string f(buf);
        while (f.back() == '0')
            f.pop_back();
        s += f;
    }
    return negative ? "-" + s : s;
}

void writeSummaryJson(const model::ClusterStore& store, const ImportReport& report, std::ostream& out, const SummaryParts& parts,
                      const model::ClusterUsage* usage)
{
    const char* separator = "{";
    auto key = [&](const char* name) {
        out << separator << '"' << name << "\": ";
        separator = ",\n";
    };

    if (parts.nodes) {
        key("nodes");
        out << '[';
        Extended alloc, req;
        for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
            const model::NodeId n(i);
            alloc.clear();
            req.clear();
            for (const auto& [rkey, value] : store.nodeExtendedAllocatable(n)) {
                alloc.emplace_back(rkey, value);
                req.emplace_back(rkey, store.nodeExtendedRequested(n, rkey));
            }
            out << (i ? ",\n  " : "\n  ") << "{\"name\": ";
            writeString(out, store.nodeName(n));
            out << ", \"ready\": \"" << model::readinessName(store.nodeReadiness(n)) << "\", \"cordoned\": "
                << (store.nodeUnschedulable(n) ? "true" : "false") << ", \"allocatable\": ";
            writeResources(out, store, store.nodeAllocatable(n), alloc);
            out << ", \"requested\": ";
            writeResources(out, store, store.nodeRequested(n), req);
            out << '}';
        }
        out << ']';
    }
    if (parts.pods) {
        key("pods");
        out << '[';
        Extended podExt;
        for (std::uint32_t i = 0; i < store.podCount(); ++i) {
            const model::PodId p(i);
            podExt.assign(store.podExtendedRequest(p).begin(), store.podExtendedRequest(p).end());
            const bool isCounted = store.podIsCounted(p);
            out << (i ? ",\n  " : "\n  ") << "{\"namespace\": ";
            writeString(out, store.podNamespace(p));
            out << ", \"name\": ";
            writeString(out, store.podName(p));
            out << ", \"node\": ";
            if (store.podNodeName(p).empty())
                out << "null";
            else
                writeString(out, store.podNodeName(p));
            out << ", \"phase\": \"" << model::podPhaseName(store.podPhase(p)) << '"';
            if ((store.podFlags(p) & model::PodFlagTerminating) != 0)
                out << ", \"terminating\": true";
            out << ", \"counted\": " << (isCounted ? "true" : "false") << ", \"request\": ";
            writeResources(out, store, store.podRequest(p), podExt);
            out << '}';
        }
        out << ']';
    }
    if (parts.totals) {
        // The one computation of the totals (model/clustertotals.h), as the status bar's.
        const model::ClusterTotals t = model::computeClusterTotals(store);
        key("totals");
        out << "{\"nodes\": " << t.nodes << ", \"ready_nodes\": " << t.nodesReady << ", \"cordoned_nodes\": "
            << t.nodesCordoned << ", \"pods\": " << t.pods << ", \"counted_pods\": " << t.podsCounted
            << ", \"pending_pods\": " << t.podsPending << ",\n  \"allocatable\": ";
        writeResources(out, store, t.allocatable, t.extendedAllocatable);
        out << ",\n  \"requested\": ";
        writeResources(out, store, t.requested, t.extendedRequested);
        out << ",\n  \"pending\": ";
        writeResources(out, store, t.pending, t.extendedPending);
        const model::AcceleratorTotals& a = t.accelerators;
        out << ",\n  \"accelerators\": {\"gpus\": " << formatMilliDecimal(a.physicalGpusMilli())
            << ", \"gpus_requested\": " << formatMilliDecimal(a.physicalGpusRequestedMilli())
            << ", \"mig_partitioned_gpus\": " << a.migPartitionedGpus << ", \"mig_slices\": " << a.migSlicesAllocatable
            << ", \"mig_slices_requested\": " << a.migSlicesRequested << ", \"neuron_devices\": " << a.neuronDevicesAllocatable
            << ", \"neuron_devices_requested\": " << a.neuronDevicesRequested << ", \"neuron_cores\": " << a.neuronCoresAllocatable
            << ", \"neuron_cores_requested\": " << a.neuronCoresRequested << "}";
        // The report's figures of the loaded state, from the same functions (reportfigures.h).
        const model::MetricContext context(store);
        const double fragmented = model::loadedFragmentedGpus(context);
        out << ",\n  \"fragmented_gpus\": ";
        if (std::isnan(fragmented))
            out << "null";
        else
            out << formatMilliDecimal(std::llround(fragmented * 1000.0));
        out << ", \"idle_allocated_gpus\": ";
        if (const std::int64_t idle = model::idleAllocatedGpus(usage); idle >= 0)
            out << idle;
        else
            out << "null";
        out << '}';
    }
    key("warnings");
    out << '[';
    for (std::size_t i = 0; i < report.warnings.size(); ++i) {
        out << (i ? ", " : "");
        writeString(out, report.warnings[i]);
    }
    out << "]}\n";
}

namespace {

std::string groupThousands(std::size_t v)
{
    return model::formatCount(static_cast<std::int64_t>(v));
}

std::string percentText(std::int64_t part, std::int64_t whole)
{
    if (whole <= 0)
        return "-";
    return model::formatShare(static_cast<double>(part) / static_cast<double>(whole));
}

} // namespace

namespace {

// Cores in the same style as the GPUs of the same table: model/figures.h's rule for counted
// things (three significant digits below 1,000, whole with thousands separators from there:
// "0.45 cores", "147,316 cores"), not the status bar's k and M suffixes beside "6,629 GPUs".
std::string coresText(std::int64_t millicores)
{
    return model::formatGpus(millicores) + (millicores == 1000 ? " core" : " cores");
}

} // namespace

void writeSummaryText(const model::ClusterStore& store, const ImportReport& report, std::ostream& out)
{
    const model::ClusterTotals totals = model::computeClusterTotals(store);
    const model::ClusterCounts& c = totals;
    const ResourceVector& alloc = totals.allocatable;
    const ResourceVector& req = totals.requested;
    const ResourceVector& pend = totals.pending;
    out << "nodes:     " << groupThousands(store.nodeCount()) << " ("
        << groupThousands(c.nodesReady) << " ready, "
        << groupThousands(c.nodesNotReady) << " not ready, "
        << groupThousands(c.nodesCordoned) << " cordoned)\n";
    out << "pods:      " << groupThousands(store.podCount()) << " ("
        << groupThousands(c.podsCounted) << " counted on nodes, "
        << groupThousands(c.podsPending) << " pending, ";
    if (c.podsOnUnknownNodes > 0)
        out << groupThousands(c.podsOnUnknownNodes) << " on nodes not in the input, ";
    out << groupThousands(c.podsTerminal) << " succeeded or failed)\n";
    out << "workloads: " << groupThousands(store.workloadCount())
        << " (by their pods' controller and labels: Deployments, StatefulSets, DaemonSets, Jobs, CronJobs, "
           "JobSets, ...)\n\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-14s %18s %18s %8s %18s\n", "resource", "requested", "allocatable", "share", "pending");
    out << line;
    auto row = [&](const char* name, const std::string& r, const std::string& a, std::int64_t rv, std::int64_t av, const std::string& p) {
        std::snprintf(line, sizeof line, "%-14s %18s %18s %8s %18s\n", name, r.c_str(), a.c_str(), percentText(rv, av).c_str(), p.c_str());
        out << line;
    };
    const auto cpu = CoreResource::Cpu, mem = CoreResource::Memory, gpu = CoreResource::Gpu, pods = CoreResource::Pods;
    // Figures by model/figures.h, the rule the status bar and the map's tooltip use; cores as
    // counted things, as the GPUs (coresText()).
    using model::formatBytes;
    using model::formatCount;
    using model::formatGpuMilli;
    row("cpu", coresText(req[cpu]), coresText(alloc[cpu]), req[cpu], alloc[cpu], coresText(pend[cpu]));
    row("memory", formatBytes(req[mem]), formatBytes(alloc[mem]), req[mem], alloc[mem], formatBytes(pend[mem]));
    row("gpu", formatGpuMilli(req[gpu]), formatGpuMilli(alloc[gpu]), req[gpu], alloc[gpu], formatGpuMilli(pend[gpu]));
    row("pods", formatCount(req[pods]), formatCount(alloc[pods]), req[pods], alloc[pods], formatCount(pend[pods]));
    // Physical accelerators, each once (model/accelerators.h), with MIG slices and NeuronCores.
    const model::AcceleratorTotals& a = totals.accelerators;
    if (a.migSlicesAllocatable > 0 || a.neuronDevicesAllocatable > 0 || a.neuronCoresAllocatable > 0) {
        out << "\naccelerators (each device once: a MIG-partitioned GPU is one GPU, a Neuron device one device):\n";
        auto device = [&](const char* name, std::int64_t r, std::int64_t al) {
            row(name, model::formatDevices(r), model::formatDevices(al), r, al, "");
        };
        row("GPUs", model::formatGpus(a.physicalGpusRequestedMilli()), model::formatGpus(a.physicalGpusMilli()),
            a.physicalGpusRequestedMilli(), a.physicalGpusMilli(), "");
        if (a.migSlicesAllocatable > 0) {
            device("  MIG GPUs", a.migPartitionedGpusRequested, a.migPartitionedGpus);
            device("MIG slices", a.migSlicesRequested, a.migSlicesAllocatable);
        }
        if (a.neuronDevicesAllocatable > 0 || a.neuronCoresAllocatable > 0) {
            device("Neuron devices", a.neuronDevicesRequested, a.neuronDevicesAllocatable);
            device("NeuronCores", a.neuronCoresRequested, a.neuronCoresAllocatable);
        }
    }
    for (const auto& w : report.warnings)
        out << "warning: " << terminalLine(w) << "\n"; // kept escaped by ImportReport::warn(); escaped again for any other writer
}

} // namespace fleet::importers
