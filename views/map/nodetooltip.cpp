// SPDX-License-Identifier: Apache-2.0
#include "nodetooltip.h"

#include "model/figures.h"
#include "model/topology.h"
#include "views/nodeview/plannodeview.h"

#include <QStringList>

#include <cmath>

namespace fleet::views {

using model::CoreResource;

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Keys are short fixed words and never wrap: the values keep the width, so a long value
// (the domain path) wraps between words, not inside one.
QString row(const QString& key, const QString& value)
{
    return QStringLiteral("<tr><td nowrap>%1</td><td>%2</td></tr>").arg(key.toHtmlEscaped(), value.toHtmlEscaped());
}

QString share(std::int64_t requested, std::int64_t allocatable)
{
    if (allocatable <= 0)
        return {};
    return QStringLiteral(" (%1)").arg(qs(model::formatShare(static_cast<double>(requested) / static_cast<double>(allocatable))));
}

QString countText(std::int64_t n)
{
    return qs(model::formatCount(n));
}

} // namespace

QString metricValueText(const model::MetricContext& context, model::NodeId n, const model::Metric& metric)
{
    const double v = metric.value(context, n);
    if (std::isnan(v))
        return QStringLiteral("not applicable");
    if (metric.scale() == model::ScaleKind::Categorical)
        return qs(metric.categoryName(context, static_cast<std::int64_t>(v)));
    QString text;
    const std::string unit = metric.unit();
    if (metric.scale() == model::ScaleKind::Share)
        text = qs(model::formatShare(v));
    else if (unit == "$/h")
        text = qs(model::formatDollarsPerHour(v));
    else
        text = qs(model::formatSignificant(v)) + (unit.empty() ? QString() : QLatin1Char(' ') + qs(unit));
    if (metric.flags(context, n) & model::kMetricFlagPrepaid)
        text += QStringLiteral(" (prepaid)");
    return text;
}

QString mapShowsText(const model::MetricContext& context, model::NodeId n, const model::Metric& metric)
{
    if (metric.marksOverride())
        switch (nodeMark(context.store(), n)) {
        case NodeMark::NotReady:
            return QStringLiteral("NotReady");
        case NodeMark::Cordoned:
            return QStringLiteral("Cordoned");
        case NodeMark::None:
            break;
        }
    const bool cpuFallback = metric.id() == "gpu" && !context.fleetHasAccelerators();
    QString title = cpuFallback ? QStringLiteral("CPU requested") : qs(metric.title());
    const double v = metric.value(context, n);
    if (std::isnan(v)) {
        const QString reason = QString::fromStdString(metric.notApplicableReason());
        return title + QStringLiteral(": not applicable") + (reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason));
    }
    QString text = title + QLatin1Char(' ') + metricValueText(context, n, metric);
    if (metric.id() == "gpu" && !cpuFallback) {
        const std::string_view resource = nodeShareResource(context.store(), n, MapMetric::GpuRequested, context.keys());
        if (resource != "GPU")
            text += QStringLiteral(" (%1)").arg(qs(resource));
    }
    return text;
}

QString nodeToolTip(const model::ClusterStore& store, model::NodeId n, MapMetric metric, const model::Topology* topology)
{
    const model::MetricContext context(store);
    return nodeToolTip(context, n, *mapMetric(metric), topology);
}

QString nodeToolTip(const model::MetricContext& context, model::NodeId n, const model::Metric& metric, const model::Topology* topology,
    const model::PlanLedger* plan)
{
    const model::ClusterStore& store = context.store();
    if (!n.isValid() || n.index() >= store.nodeCount())
        return {};
    const PlanNodeView shown { &store, plan };
    const auto& req = shown.nodeRequested(n);
    const auto& alloc = store.nodeAllocatable(n);
    QString html = QStringLiteral("<b>%1</b><table>").arg(qs(store.nodeName(n)).toHtmlEscaped());
    if (topology && n.index() < topology->orderedNodes().size()) {
        QStringList path;
        for (model::DomainId d = topology->nodeDomain(n); d.isValid() && d != topology->root(); d = topology->domainParent(d))
            path.prepend(qs(topology->domainName(d)));
        if (!path.isEmpty())
            html += row(QStringLiteral("Domain"), path.join(QStringLiteral(" / ")));
    }
    QString type = qs(store.nodeInstanceType(n));
    if (!store.nodeGpuModel(n).empty())
        type += (type.isEmpty() ? QString() : QStringLiteral(", "))
            + QStringLiteral("%1 x %2").arg(store.nodeGpuCount(n)).arg(qs(store.nodeGpuModel(n)));
    if (!type.isEmpty())
        html += row(QStringLiteral("Type"), type);
    html += row(QStringLiteral("CPU"),
        QStringLiteral("%1 / %2").arg(
            qs(model::formatCpuMillicores(req[CoreResource::Cpu])), qs(model::formatCpuMillicores(alloc[CoreResource::Cpu])))
            + share(req[CoreResource::Cpu], alloc[CoreResource::Cpu]));
    html += row(QStringLiteral("Memory"),
        QStringLiteral("%1 / %2").arg(
            qs(model::formatBytes(req[CoreResource::Memory])), qs(model::formatBytes(alloc[CoreResource::Memory])))
            + share(req[CoreResource::Memory], alloc[CoreResource::Memory]));

    const model::MetricKeys& keys = context.keys();
    const model::NodeAccelerators a = shown.accelerators(n, keys); // the plan's requests while a plan has actions
    switch (a.kind) {
    case model::AcceleratorKind::Gpu:
        html += row(QStringLiteral("GPUs"),
            QStringLiteral("%1 / %2 requested")
                    .arg(qs(model::formatGpuMilli(req[CoreResource::Gpu])), qs(model::formatGpuMilli(alloc[CoreResource::Gpu])))
                + share(req[CoreResource::Gpu], alloc[CoreResource::Gpu]));
        break;
    case model::AcceleratorKind::Mig: {
        html += row(QStringLiteral("GPUs"), QStringLiteral("%1 MIG-partitioned").arg(countText(a.devices)));
        QStringList profiles;
        for (const auto& [key, amount] : store.nodeExtendedAllocatable(n)) {
            if (!keys.isMig(key) || amount <= 0)
                continue;
            std::string_view name = store.resources().name(key);
            name.remove_prefix(std::string_view("nvidia.com/mig-").size());
            profiles
                << QStringLiteral("%1 %2 / %3").arg(qs(name), countText(shown.nodeExtendedRequested(n, key)), countText(amount));
        }
        html += row(QStringLiteral("MIG slices"),
            QStringLiteral("%1 / %2").arg(countText(a.migSlices.requested), countText(a.migSlices.allocatable))
                + share(a.migSlices.requested, a.migSlices.allocatable) + QStringLiteral(": ")
                + profiles.join(QStringLiteral(", ")));
        break;
    }
    case model::AcceleratorKind::Neuron:
        html += row(QStringLiteral("Neuron"),
            QStringLiteral("%1 / %2 devices").arg(countText(static_cast<std::int64_t>(a.requestedDevices)), countText(a.devices))
                + share(static_cast<std::int64_t>(a.requestedDevices), a.devices));
        if (a.neuronCores > 0)
            html += row(QStringLiteral("NeuronCores"),
                QStringLiteral("%1 / %2").arg(countText(a.neuronCoresRequested), countText(a.neuronCores))
                    + share(a.neuronCoresRequested, a.neuronCores));
        break;
    case model::AcceleratorKind::None:
        break;
    }
    if (a.kind != model::AcceleratorKind::None)
        html += row(QStringLiteral("Unallocated"),
            QStringLiteral("%1 of %2 %3")
                .arg(countText(a.unallocatedDevices), countText(a.devices),
                    a.kind == model::AcceleratorKind::Neuron ? QStringLiteral("devices") : QStringLiteral("GPUs")));

    html += row(QStringLiteral("Pods"),
        QStringLiteral("%1 / %2").arg(
            countText(static_cast<std::int64_t>(shown.nodePods(n).size())), countText(alloc[CoreResource::Pods])));
    QString state = qs(model::nodeStateName(model::nodeState(store, n)));
    if (store.nodeReadiness(n) != model::Readiness::True) {
        state += QStringLiteral(" (Ready %1)").arg(qs(model::readinessName(store.nodeReadiness(n))));
        if (store.nodeUnschedulable(n))
            state += QStringLiteral(", cordoned");
    }
    html += row(QStringLiteral("State"), state);
    if (const QString planned = shown.planStateText(n); !planned.isEmpty())
        html += row(QStringLiteral("Plan"), planned);
    const QString shows = mapShowsText(context, n, metric);
    html += row(QStringLiteral("Map shows"), shows);
    if (shows == QLatin1String("NotReady") || shows == QLatin1String("Cordoned"))
        html += row(QStringLiteral("Metric"), qs(metric.title()) + QLatin1Char(' ') + metricValueText(context, n, metric));
    html += QStringLiteral("</table>");
    return html;
}

} // namespace fleet::views
