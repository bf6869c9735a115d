#include "nodetooltip.h"

#include "model/topology.h"

#include <QStringList>

#include <cmath>

namespace fleet::views {

using model::CoreResource;

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString row(const QString& key, const QString& value)
{
    return QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(key.toHtmlEscaped(), value.toHtmlEscaped());
}

QString ratio(double requested, double allocatable, int decimals, const QString& unit)
{
    QString text = QStringLiteral("%1 / %2 %3").arg(requested, 0, 'f', decimals).arg(allocatable, 0, 'f', decimals).arg(unit);
    if (allocatable > 0)
        text += QStringLiteral(" (%1%)").arg(100.0 * requested / allocatable, 0, 'f', 0);
    return text;
}

} // namespace

QString nodeToolTip(const model::ClusterStore& store, model::NodeId n, MapMetric metric, const model::Topology* topology)
{
    if (!n.isValid() || n.index() >= store.nodeCount())
        return {};
    const auto& req = store.nodeRequested(n);
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
        ratio(req[CoreResource::Cpu] / 1000.0, alloc[CoreResource::Cpu] / 1000.0, 1, QStringLiteral("cores")));
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    html += row(QStringLiteral("Memory"),
        ratio(req[CoreResource::Memory] / kGiB, alloc[CoreResource::Memory] / kGiB, 1, QStringLiteral("GiB")));
    if (alloc[CoreResource::Gpu] > 0 || req[CoreResource::Gpu] > 0)
        html += row(QStringLiteral("GPU"),
            ratio(req[CoreResource::Gpu] / 1000.0, alloc[CoreResource::Gpu] / 1000.0, 2, QStringLiteral("GPUs")));
    const MetricKeys keys = MetricKeys::find(store);
    for (const auto& [key, amount] : store.nodeExtendedAllocatable(n)) {
        if (!keys.isMig(key) || amount <= 0)
            continue;
        const auto requested = store.nodeExtendedRequested(n, key);
        html += row(qs(store.resources().name(key)),
            ratio(static_cast<double>(requested), static_cast<double>(amount), 0, QStringLiteral("slices")));
    }
    if (keys.neuron >= 0) {
        for (const auto& [key, amount] : store.nodeExtendedAllocatable(n)) {
            if (key != keys.neuron)
                continue;
            const auto requested = store.nodeExtendedRequested(n, key);
            html += row(QStringLiteral("Neuron"),
                ratio(static_cast<double>(requested), static_cast<double>(amount), 0, QStringLiteral("devices")));
        }
    }
    html += row(QStringLiteral("Pods"), QStringLiteral("%1 / %2").arg(store.nodePods(n).size()).arg(alloc[CoreResource::Pods]));
    html += row(QStringLiteral("Ready"), qs(model::readinessName(store.nodeReadiness(n))));
    html += row(QStringLiteral("Cordoned"), store.nodeUnschedulable(n) ? QStringLiteral("yes") : QStringLiteral("no"));
    const double share = nodeShare(store, n, metric, keys);
    html += row(QStringLiteral("Map shows"),
        QStringLiteral("%1 %2").arg(qs(nodeShareResource(store, n, metric, keys)),
            std::isnan(share) ? QStringLiteral("(no allocatable)") : QStringLiteral("%1%").arg(100.0 * share, 0, 'f', 0)));
    html += QStringLiteral("</table>");
    return html;
}

} // namespace fleet::views
