#include "clustertotals.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

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

// Three significant digits of 0 <= v < 999.5, trailing zeros dropped ("0.45", "15.8", "304").
QString threeDigits(double v)
{
    if (v <= 0)
        return QStringLiteral("0");
    const int decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(v))));
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    return s;
}

// An exact decimal with thousands separators and at most `decimals` decimals ("8,437,551.25").
QString exact(double v, int decimals)
{
    QString s = numberLocale().toString(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    return s;
}

// Milli units (milli-GPU, millicores) as whole units.
double fromMilli(std::int64_t milli)
{
    return static_cast<double>(milli) / 1000.0;
}

struct MemoryUnit {
    double divisor;
    const char* name;
};

// GiB, TiB or PiB: the largest that keeps `allocatableBytes` at 1 or more (GiB at least).
MemoryUnit memoryUnit(std::int64_t allocatableBytes)
{
    static const MemoryUnit kUnits[] = { { 1024.0 * 1024 * 1024, "GiB" }, { 1024.0 * 1024 * 1024 * 1024, "TiB" },
        { 1024.0 * 1024 * 1024 * 1024 * 1024, "PiB" } };
    int unit = 0;
    while (unit < 2 && static_cast<double>(allocatableBytes) / kUnits[unit].divisor >= 1024.0)
        ++unit;
    return kUnits[unit];
}

QString pair(double requested, double allocatable)
{
    return formatAmount(requested) + QStringLiteral(" / ") + formatAmount(allocatable);
}

QString resourcesText(const ClusterTotals& t)
{
    const MemoryUnit unit = memoryUnit(t.memoryAllocatableBytes);
    return QStringLiteral("GPUs %1 | CPU %2 cores | Memory %3 %4")
        .arg(pair(fromMilli(t.gpuRequestedMilli), fromMilli(t.gpuAllocatableMilli)),
            pair(fromMilli(t.cpuRequestedMillicores), fromMilli(t.cpuAllocatableMillicores)),
            pair(static_cast<double>(t.memoryRequestedBytes) / unit.divisor,
                static_cast<double>(t.memoryAllocatableBytes) / unit.divisor),
            QLatin1String(unit.name));
}

} // namespace

QString formatAmount(double v)
{
    if (v < 0)
        return QStringLiteral("-") + formatAmount(-v);
    if (v < 999.5)
        return threeDigits(v);
    if (v < 999'999.5)
        return numberLocale().toString(static_cast<qlonglong>(std::llround(v)));
    static const char kSuffixes[] = { 'M', 'G', 'T', 'P', 'E' };
    double scaled = v / 1e6;
    std::size_t i = 0;
    while (scaled >= 999.5 && i + 1 < sizeof kSuffixes) {
        scaled /= 1000.0;
        ++i;
    }
    return threeDigits(scaled) + QLatin1Char(kSuffixes[i]);
}

QString formatClusterTotals(const ClusterTotals& t)
{
    return clusterTotalsVariants(t).front();
}

QStringList clusterTotalsVariants(const ClusterTotals& t)
{
    const QString resources = resourcesText(t);
    return {
        QStringLiteral("Nodes %1 (%2 ready, %3 NotReady, %4 cordoned) | Pods %5 (%6 counted, %7 pending) | %8")
            .arg(count(t.nodes), count(t.nodesReady), count(t.nodesNotReady), count(t.nodesCordoned), count(t.pods),
                count(t.podsCounted), count(t.podsPending), resources),
        QStringLiteral("Nodes %1 | Pods %2 | %3").arg(count(t.nodes), count(t.pods), resources),
        resources,
    };
}

QString clusterTotalsDetails(const ClusterTotals& t)
{
    const MemoryUnit gib = memoryUnit(0);
    return QStringLiteral("Nodes %1: %2 ready, %3 NotReady, %4 cordoned\n"
                          "Pods %5: %6 counted, %7 pending\n"
                          "GPUs requested / allocatable: %8 / %9\n"
                          "CPU requested / allocatable: %10 / %11 cores\n"
                          "Memory requested / allocatable: %12 / %13 GiB")
        .arg(count(t.nodes), count(t.nodesReady), count(t.nodesNotReady), count(t.nodesCordoned), count(t.pods),
            count(t.podsCounted), count(t.podsPending), exact(fromMilli(t.gpuRequestedMilli), 3),
            exact(fromMilli(t.gpuAllocatableMilli), 3))
        .arg(exact(fromMilli(t.cpuRequestedMillicores), 3), exact(fromMilli(t.cpuAllocatableMillicores), 3),
            exact(static_cast<double>(t.memoryRequestedBytes) / gib.divisor, 1),
            exact(static_cast<double>(t.memoryAllocatableBytes) / gib.divisor, 1));
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
