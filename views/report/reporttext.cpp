// SPDX-License-Identifier: Apache-2.0
// The report's number and text formats (fleetreport.h): counts with the thousands separator
// model::formatCount() uses, millis, dollars, and names from the input made safe to print.
#include "fleetreport.h"

#include "importers/quotedtext.h"
#include "model/figures.h"

#include <cmath>
#include <cstdlib>

namespace fleet::views {

QString reportCount(std::int64_t n)
{
    return QString::fromStdString(model::formatCount(n));
}

QString reportCounted(std::int64_t n, const char* one, const char* many)
{
    return reportCount(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

QString reportMilli(std::int64_t milli)
{
    const bool negative = milli < 0;
    const std::int64_t m = negative ? -milli : milli;
    QString s = reportCount(m / 1000);
    if (const std::int64_t frac = m % 1000; frac != 0) {
        QString f = QStringLiteral(".%1").arg(frac, 3, 10, QLatin1Char('0'));
        while (f.endsWith(QLatin1Char('0')))
            f.chop(1);
        s += f;
    }
    return negative ? QStringLiteral("-") + s : s;
}

QString reportDollars(double dollars)
{
    const std::int64_t cents = std::llround(std::abs(dollars) * 100.0);
    return (dollars < 0 ? QStringLiteral("-$") : QStringLiteral("$")) + reportCount(cents / 100)
        + QStringLiteral(".%1").arg(cents % 100, 2, 10, QLatin1Char('0'));
}

QString reportSafeText(const QString& text)
{
    return QString::fromStdString(importers::escapedText(text.toStdString(), 4096));
}

} // namespace fleet::views
