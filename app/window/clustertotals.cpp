// SPDX-License-Identifier: Apache-2.0
#include "clustertotals.h"

#include "model/figures.h"

#include <QStringList>

#include <string>

namespace fleet::app {

using model::CoreResource;

ClusterTotals computeTotals(const model::ClusterStore& store, const importers::ImportReport& report)
{
    ClusterTotals t;
    static_cast<model::ClusterTotals&>(t) = model::computeClusterTotals(store);
    t.warnings = report.warnings.size();
    return t;
}

namespace {

QString count(std::size_t n)
{
    return QString::fromStdString(model::formatCount(static_cast<std::int64_t>(n)));
}

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

// "Memory 200 MiB / 59.4 GiB": each side by model::formatBytes(), so the status bar writes
// memory as `summary` and the tooltip do.
QString memoryText(std::int64_t requestedBytes, std::int64_t allocatableBytes)
{
    return QStringLiteral("Memory %1 / %2").arg(text(model::formatBytes(requestedBytes)), text(model::formatBytes(allocatableBytes)));
}

// "GPUs 322,935 / 371,000 (MIG slices 61,000 / 76,904), Neuron 200,000 / 219,344 devices
// (0 / 1,754,752 cores)": one part of the line (the status bar drops parts whole); the
// shorter variants keep "GPUs r / a" alone, as they drop the node and pod breakdowns. Physical devices, each once, with their slices and cores beside them.
// Totals computed without accelerators (a hand-made ClusterTotals) fall back to the gpu resource.
QString gpuText(const ClusterTotals& t, bool detailed)
{
    const model::AcceleratorTotals& a = t.accelerators;
    const bool known = a.wholeGpuAllocatableMilli != 0 || a.migPartitionedGpus != 0 || a.neuronDevicesAllocatable != 0
        || a.neuronCoresAllocatable != 0;
    const std::int64_t requested = known ? a.physicalGpusRequestedMilli() : t.requested[CoreResource::Gpu];
    const std::int64_t allocatable = known ? a.physicalGpusMilli() : t.allocatable[CoreResource::Gpu];
    QString s = QStringLiteral("GPUs %1 / %2").arg(text(model::formatGpus(requested)), text(model::formatGpus(allocatable)));
    if (!detailed)
        return s;
    if (a.migSlicesAllocatable > 0)
        s += QStringLiteral(" (MIG slices %1 / %2)")
                 .arg(text(model::formatDevices(a.migSlicesRequested)), text(model::formatDevices(a.migSlicesAllocatable)));
    if (a.neuronDevicesAllocatable > 0 || a.neuronCoresAllocatable > 0)
        s += QStringLiteral(", Neuron %1 / %2 devices (%3 / %4 cores)")
                 .arg(text(model::formatDevices(a.neuronDevicesRequested)), text(model::formatDevices(a.neuronDevicesAllocatable)),
                     text(model::formatDevices(a.neuronCoresRequested)), text(model::formatDevices(a.neuronCoresAllocatable)));
    return s;
}

QString cpuText(const ClusterTotals& t)
{
    return QStringLiteral("CPU %1 / %2 cores")
        .arg(text(model::formatCores(t.requested[CoreResource::Cpu])), text(model::formatCores(t.allocatable[CoreResource::Cpu])));
}

// ", 2 on unknown nodes" when there are any.
QString unknownNodesPart(const ClusterTotals& t)
{
    return t.podsOnUnknownNodes > 0 ? QStringLiteral(", %1 on unknown nodes").arg(count(t.podsOnUnknownNodes)) : QString();
}

// An exact decimal of milli units with thousands separators ("8,437,551.25").
QString exactMilli(std::int64_t milli)
{
    const std::int64_t whole = milli / 1000;
    std::int64_t frac = milli % 1000;
    QString s = text(model::formatCount(whole));
    if (frac != 0) {
        if (frac < 0)
            frac = -frac;
        QString f = QStringLiteral("%1").arg(frac, 3, 10, QLatin1Char('0'));
        while (f.endsWith(QLatin1Char('0')))
            f.chop(1);
        if (milli < 0 && whole == 0)
            s = QStringLiteral("-0");
        s += QLatin1Char('.') + f;
    }
    return s;
}

// The tooltip's accelerator lines, where the cluster has MIG slices or Neuron devices.
QString acceleratorDetails(const ClusterTotals& t)
{
    const model::AcceleratorTotals& a = t.accelerators;
    QString s;
    // The status bar counts physical GPUs; the line above, `summary`, `diff` and the reports count
    // the nvidia.com/gpu resource. They differ by the MIG-partitioned GPUs: say which is which.
    if (a.migPartitionedGpus > 0)
        s += QStringLiteral("Physical GPUs in use / on the nodes: %1 / %2 (the status bar's GPUs, summary's accelerators.gpus: "
                            "a MIG-partitioned GPU counts once, whole; %3 GPUs are partitioned into MIG slices. The line above "
                            "counts allocatable nvidia.com/gpu, whole GPUs only, without them: the GPUs of reports, plan check "
                            "and diff)\n")
                 .arg(text(model::formatGpus(a.physicalGpusRequestedMilli())), text(model::formatGpus(a.physicalGpusMilli())),
                     text(model::formatCount(a.migPartitionedGpus)));
    if (a.migSlicesAllocatable > 0)
        s += QStringLiteral("MIG slices requested / allocatable: %1 / %2 (on %3 GPUs)\n")
                 .arg(text(model::formatCount(a.migSlicesRequested)), text(model::formatCount(a.migSlicesAllocatable)),
                     text(model::formatCount(a.migPartitionedGpus)));
    if (a.neuronDevicesAllocatable > 0 || a.neuronCoresAllocatable > 0)
        s += QStringLiteral("Neuron devices requested / allocatable: %1 / %2 (NeuronCores %3 / %4)\n")
                 .arg(text(model::formatCount(a.neuronDevicesRequested)), text(model::formatCount(a.neuronDevicesAllocatable)),
                     text(model::formatCount(a.neuronCoresRequested)), text(model::formatCount(a.neuronCoresAllocatable)));
    return s;
}

} // namespace

QString formatClusterTotals(const ClusterTotals& t)
{
    return clusterTotalsVariants(t).front();
}

QStringList clusterTotalsVariants(const ClusterTotals& t)
{
    const QString sep = QStringLiteral(" | ");
    const QString nodes = QStringLiteral("Nodes %1").arg(count(t.nodes));
    const QString pods = QStringLiteral("Pods %1").arg(count(t.pods));
    const QString memory = memoryText(t.requested[CoreResource::Memory], t.allocatable[CoreResource::Memory]);
    const QString detailed = gpuText(t, true) + sep + cpuText(t) + sep + memory;
    const QString resources = gpuText(t, false) + sep + cpuText(t) + sep + memory;
    // The most basic figures go last: breakdowns, then memory, CPU, GPUs, pods.
    return {
        QStringLiteral("Nodes %1 (%2 ready, %3 NotReady, %4 cordoned) | Pods %5 (%6 counted, %7 pending%8) | %9")
            .arg(count(t.nodes), count(t.nodesReady), count(t.nodesNotReady), count(t.nodesCordoned), count(t.pods),
                count(t.podsCounted), count(t.podsPending), unknownNodesPart(t), detailed),
        nodes + sep + pods + sep + resources,
        nodes + sep + pods + sep + gpuText(t, false) + sep + cpuText(t),
        nodes + sep + pods + sep + gpuText(t, false),
        nodes + sep + pods,
        nodes,
    };
}

QString clusterTotalsDetails(const ClusterTotals& t)
{
    return QStringLiteral("Nodes %1: %2 ready, %3 NotReady, %4 cordoned\n"
                          "Pods %5: %6 counted, %7 pending%8\n"
                          "GPUs requested / allocatable: %9 / %10\n")
               .arg(count(t.nodes), count(t.nodesReady), count(t.nodesNotReady), count(t.nodesCordoned), count(t.pods),
                   count(t.podsCounted), count(t.podsPending), unknownNodesPart(t), exactMilli(t.requested[CoreResource::Gpu]))
               .arg(exactMilli(t.allocatable[CoreResource::Gpu]))
        + acceleratorDetails(t)
        + QStringLiteral("CPU requested / allocatable: %1 / %2 cores\n"
                         "Memory requested / allocatable: %3 / %4 bytes")
              .arg(exactMilli(t.requested[CoreResource::Cpu]), exactMilli(t.allocatable[CoreResource::Cpu]),
                  text(model::formatCount(t.requested[CoreResource::Memory])), text(model::formatCount(t.allocatable[CoreResource::Memory])));
}

QString formatTotals(const ClusterTotals& t)
{
    return formatClusterTotals(t) + QStringLiteral(" | ") + formatWarningCount(t.warnings);
}

QString formatWarningCount(std::size_t warnings)
{
    return warnings == 1 ? QStringLiteral("1 warning") : QStringLiteral("%1 warnings").arg(count(warnings));
}

} // namespace fleet::app
