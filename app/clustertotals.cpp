#include "clustertotals.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace fleet::app {

ClusterTotals computeTotals(const model::ClusterStore& store, const importers::ImportReport& report)
{
    using model::CoreResource;
    ClusterTotals t;
    static_cast<model::ClusterCounts&>(t) = store.counts();
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

// "15.80" -> "15.8", "2.00" -> "2"; integers are left alone.
QString withoutTrailingZeros(QString s)
{
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    return s;
}

// Three significant digits of 0 <= v < 999.5, trailing zeros dropped ("0.45", "15.8", "304").
QString threeDigits(double v)
{
    if (v <= 0)
        return QStringLiteral("0");
    const int decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(v))));
    QString s = QString::number(v, 'f', decimals);
    return withoutTrailingZeros(s);
}

// An exact decimal with thousands separators and at most `decimals` decimals ("8,437,551.25").
QString exact(double v, int decimals)
{
    QString s = numberLocale().toString(v, 'f', decimals);
    return withoutTrailingZeros(s);
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

constexpr double kKiB = 1024.0;
const MemoryUnit kMemoryUnits[] = { { 1.0, "B" }, { kKiB, "KiB" }, { kKiB * kKiB, "MiB" }, { kKiB * kKiB * kKiB, "GiB" },
    { kKiB * kKiB * kKiB * kKiB, "TiB" }, { kKiB * kKiB * kKiB * kKiB * kKiB, "PiB" } };
constexpr int kGiB = 3; // index in kMemoryUnits
constexpr int kLargest = 5;

// GiB, TiB or PiB: the largest that keeps `allocatableBytes` at 1 or more (GiB at least).
MemoryUnit memoryUnit(std::int64_t allocatableBytes)
{
    int unit = kGiB;
    while (unit < kLargest && static_cast<double>(allocatableBytes) / kMemoryUnits[unit].divisor >= 1024.0)
        ++unit;
    return kMemoryUnits[unit];
}

// "Memory 69.9 / 111 PiB"; a requested amount under 1 of the allocatable's unit in the unit
// that suits it (the largest from B to that unit that keeps it at 1 or more), as the summary
// command prints it: "Memory 200 MiB / 59.4 GiB". Zero stays "0 / 59.4 GiB".
QString memoryText(std::int64_t requestedBytes, std::int64_t allocatableBytes)
{
    const MemoryUnit unit = memoryUnit(allocatableBytes);
    const double requested = static_cast<double>(requestedBytes);
    const QString allocatable = formatAmount(static_cast<double>(allocatableBytes) / unit.divisor);
    if (requestedBytes <= 0 || requested / unit.divisor >= 1.0)
        return QStringLiteral("Memory %1 / %2 %3")
            .arg(formatAmount(requested / unit.divisor), allocatable, QLatin1String(unit.name));
    int small = 0;
    while (kMemoryUnits[small + 1].divisor < unit.divisor && requested >= kMemoryUnits[small + 1].divisor)
        ++small;
    return QStringLiteral("Memory %1 %2 / %3 %4")
        .arg(formatAmount(requested / kMemoryUnits[small].divisor), QLatin1String(kMemoryUnits[small].name), allocatable,
            QLatin1String(unit.name));
}

QString pair(double requested, double allocatable)
{
    return formatAmount(requested) + QStringLiteral(" / ") + formatAmount(allocatable);
}

QString gpuText(const ClusterTotals& t)
{
    return QStringLiteral("GPUs %1").arg(pair(fromMilli(t.gpuRequestedMilli), fromMilli(t.gpuAllocatableMilli)));
}

QString cpuText(const ClusterTotals& t)
{
    return QStringLiteral("CPU %1 cores").arg(pair(fromMilli(t.cpuRequestedMillicores), fromMilli(t.cpuAllocatableMillicores)));
}

// ", 2 on unknown nodes" when there are any.
QString unknownNodesPart(const ClusterTotals& t)
{
    return t.podsOnUnknownNodes > 0 ? QStringLiteral(", %1 on unknown nodes").arg(count(t.podsOnUnknownNodes)) : QString();
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
    const QString sep = QStringLiteral(" | ");
    const QString nodes = QStringLiteral("Nodes %1").arg(count(t.nodes));
    const QString pods = QStringLiteral("Pods %1").arg(count(t.pods));
    const QString resources = gpuText(t) + sep + cpuText(t) + sep + memoryText(t.memoryRequestedBytes, t.memoryAllocatableBytes);
    // The most basic figures go last: breakdowns, then memory, CPU, GPUs, pods.
    return {
        QStringLiteral("Nodes %1 (%2 ready, %3 NotReady, %4 cordoned) | Pods %5 (%6 counted, %7 pending%8) | %9")
            .arg(count(t.nodes), count(t.nodesReady), count(t.nodesNotReady), count(t.nodesCordoned), count(t.pods),
                count(t.podsCounted), count(t.podsPending), unknownNodesPart(t), resources),
        nodes + sep + pods + sep + resources,
        nodes + sep + pods + sep + gpuText(t) + sep + cpuText(t),
        nodes + sep + pods + sep + gpuText(t),
        nodes + sep + pods,
        nodes,
    };
}

QString clusterTotalsDetails(const ClusterTotals& t)
{
    const MemoryUnit gib = memoryUnit(0);
    return QStringLiteral("Nodes %1: %2 ready, %3 NotReady, %4 cordoned\n"
                          "Pods %5: %6 counted, %7 pending%14\n"
                          "GPUs requested / allocatable: %8 / %9\n"
                          "CPU requested / allocatable: %10 / %11 cores\n"
                          "Memory requested / allocatable: %12 / %13 GiB")
        .arg(count(t.nodes), count(t.nodesReady), count(t.nodesNotReady), count(t.nodesCordoned), count(t.pods),
            count(t.podsCounted), count(t.podsPending), exact(fromMilli(t.gpuRequestedMilli), 3),
            exact(fromMilli(t.gpuAllocatableMilli), 3))
        .arg(exact(fromMilli(t.cpuRequestedMillicores), 3), exact(fromMilli(t.cpuAllocatableMillicores), 3),
            exact(static_cast<double>(t.memoryRequestedBytes) / gib.divisor, 1),
            exact(static_cast<double>(t.memoryAllocatableBytes) / gib.divisor, 1), unknownNodesPart(t));
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
