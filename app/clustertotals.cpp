#include "clustertotals.h"

#include <QLocale>

namespace fleet::app {

ClusterTotals computeTotals(const model::ClusterStore& store, const importers::ImportReport& report)
{
    using model::CoreResource;
    ClusterTotals t;
    t.nodes = store.nodeCount();
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        const model::NodeId n(i);
        if (store.nodeReadiness(n) == model::Readiness::True)
            ++t.nodesReady;
        else
            ++t.nodesNotReady;
        if (store.nodeUnschedulable(n))
            ++t.nodesCordoned;
    }
    t.pods = store.podCount();
    for (std::uint32_t i = 0; i < store.podCount(); ++i) {
        const model::PodId p(i);
        if (store.podIsCounted(p))
            ++t.podsCounted;
        else if (store.podIsPending(p))
            ++t.podsPending;
    }
    const model::ResourceVector alloc = store.totalAllocatable();
    const model::ResourceVector req = store.totalRequested();
    t.gpuAllocatableMilli = alloc[CoreResource::Gpu];
    t.gpuRequestedMilli = req[CoreResource::Gpu];
    t.cpuAllocatableMillicores = alloc[CoreResource::Cpu];
    t.cpuRequestedMillicores = req[CoreResource::Cpu];
    t.memoryAllocatableBytes = alloc[CoreResource::Memory];
    t.memoryRequestedBytes = req[CoreResource::Memory];
    t.warnings = report.warnings.size();
    return t;
}

namespace {

const QLocale& numberLocale()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates); // "100,000"
    return locale;
}

QString count(std::size_t n)
{
    return numberLocale().toString(static_cast<qulonglong>(n));
}

// Milli units as a short decimal: exact up to 2 decimals below 10,000 ("0.45", "15.82"),
// whole and grouped below a million ("360,464"), then millions ("12.80M").
QString milli(std::int64_t v)
{
    const double value = static_cast<double>(v) / 1000.0;
    if (value >= 1e6)
        return numberLocale().toString(value / 1e6, 'f', 2) + QLatin1Char('M');
    if (value >= 1e4)
        return numberLocale().toString(static_cast<qlonglong>(value + 0.5));
    QString s = QString::number(value, 'f', 2);
    while (s.contains(QLatin1Char('.')) && (s.endsWith(QLatin1Char('0')) || s.endsWith(QLatin1Char('.'))))
        s.chop(1);
    return s;
}

// Both amounts in the unit that suits `scale` (the allocatable): GiB, TiB or PiB, one decimal.
QString bytesPair(std::int64_t requested, std::int64_t scale)
{
    static const char* const kUnits[] = { "GiB", "TiB", "PiB" };
    double divisor = 1024.0 * 1024.0 * 1024.0;
    int unit = 0;
    while (unit < 2 && static_cast<double>(scale) / divisor >= 1024.0) {
        divisor *= 1024.0;
        ++unit;
    }
    return QStringLiteral("%1 of %2 %3")
        .arg(QString::number(static_cast<double>(requested) / divisor, 'f', 1),
            QString::number(static_cast<double>(scale) / divisor, 'f', 1), QLatin1String(kUnits[unit]));
}

} // namespace

QString formatClusterTotals(const ClusterTotals& t)
{
    return QStringLiteral("Nodes %1 (%2 ready, %3 NotReady, %4 cordoned) | Pods %5 (%6 counted, %7 pending) | "
                          "GPUs %8 of %9 requested | CPU %10 of %11 cores | Memory %12")
        .arg(count(t.nodes), count(t.nodesReady), count(t.nodesNotReady), count(t.nodesCordoned), count(t.pods),
            count(t.podsCounted), count(t.podsPending), milli(t.gpuRequestedMilli), milli(t.gpuAllocatableMilli))
        .arg(milli(t.cpuRequestedMillicores), milli(t.cpuAllocatableMillicores),
            bytesPair(t.memoryRequestedBytes, t.memoryAllocatableBytes));
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
