// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the tests of `fleetscope report` (tests/app/tst_clireport*.cpp, the window's File >
// Export Report in tests/e2e/tst_e2e_report.cpp) compare a report's PDF with: its figures table
// against `plan check --format json` and `summary --format json`, written as the report writes
// them, and its pages' pixels (the map's colours, the plan's crosses over removed nodes' cells).
// The PDF is read with common/pdftext.h. Thread: the test's.

#include "model/figures.h"
#include "views/map/colormap.h"
#include "views/map/layers/planlayer.h"

#include <QImage>
#include <QJsonObject>
#include <QJsonValue>
#include <QRegularExpression>
#include <QString>

#include <cmath>
#include <cstdlib>
#include <utility>

namespace fleet::tests {

/// Dollars as the report writes them, without separators: "$12.50".
inline QString dollars(double v)
{
    return QStringLiteral("$") + QString::number(v, 'f', 2);
}

/// GPUs as the report, `plan check` and the window write them (model::formatGpus()), without
/// separators: 3975170 milli-GPU -> "3975", 15500 -> "15.5".
inline QString gpus(double milli)
{
    return QString::fromStdString(fleet::model::formatGpus(std::llround(milli))).remove(QLatin1Char(','));
}

/// FGD's fragmented GPUs as the report writes them, without separators: always two decimals,
/// rounded half up from the milli-GPU (31.293 -> "31.29", 0 -> "0.00").
inline QString fixedGpus(double v)
{
    const long long milli = std::llround(v * 1000.0);
    const long long hundredths = (std::llabs(milli) + 5) / 10;
    return (milli < 0 && hundredths > 0 ? QStringLiteral("-") : QString()) + QString::number(hundredths / 100) + QLatin1Char('.')
        + QStringLiteral("%1").arg(hundredths % 100, 2, 10, QLatin1Char('0'));
}

/// True when `text` (pdfText(): layout kept) has a row "LABEL  BEFORE  AFTER" of the figures
/// table: the label at the start of a line, the columns two spaces or more apart.
inline bool hasFiguresRow(const QString& text, const QString& label, const QString& before, const QString& after)
{
    const QRegularExpression re(QStringLiteral("^\\s*") + QRegularExpression::escape(label) + QStringLiteral("\\s{2,}")
            + QRegularExpression::escape(before) + QStringLiteral("\\s{2,}") + QRegularExpression::escape(after) + QStringLiteral("(\\s|$)"),
        QRegularExpression::MultilineOption);
    return re.match(text).hasMatch();
}

/// "" when the figures table of `text` (pdfText()) holds `check`'s (`plan check --format json`)
/// "before" and "after" nodes, nodes in use, GPUs, pods without a node, DaemonSet pods removed
/// with their nodes, GPUs allocated, cost per hour, pending pods, fragmented GPUs (FGD) and idle
/// allocated GPUs (before only: measured, not planned), and those of the loaded state are
/// `totals`' (`summary --format json --only totals`'s "totals": pending_pods, fragmented_gpus,
/// idle_allocated_gpus); else the first row or figure that does not agree, with what it should be.
inline QString figuresTableMismatch(const QString& text, const QJsonObject& check, const QJsonObject& totals)
{
    const QJsonObject before = check.value(QStringLiteral("before")).toObject();
    const QJsonObject after = check.value(QStringLiteral("after")).toObject();
    auto n = [](const QJsonObject& o, const char* key) { return QString::number(o.value(QLatin1String(key)).toInteger()); };
    auto row = [&](const QString& label, const QString& b, const QString& a) {
        return hasFiguresRow(text, label, b, a) ? QString() : QStringLiteral("no row \"%1  %2  %3\"").arg(label, b, a);
    };
    for (const auto& [label, key] : { std::pair { "Nodes", "nodes" }, std::pair { "Nodes in use", "nodesInUse" },
             std::pair { "GPUs", "gpus" }, std::pair { "Pods without a node", "podsUnplaced" },
             std::pair { "DaemonSet pods removed with their nodes", "daemonSetPodsRemovedWithNodes" } })
        if (QString why = row(QLatin1String(label), n(before, key), n(after, key)); !why.isEmpty())
            return why;
    const QString gpuBefore = gpus(before.value(QStringLiteral("gpuMilliAllocated")).toDouble());
    const QString gpuAfter = gpus(after.value(QStringLiteral("gpuMilliAllocated")).toDouble());
    if (!QRegularExpression(QStringLiteral("GPUs allocated\\s+") + QRegularExpression::escape(gpuBefore) + QStringLiteral(" \\([^)]*\\)\\s+")
            + QRegularExpression::escape(gpuAfter) + QStringLiteral(" \\("))
             .match(text)
             .hasMatch())
        return QStringLiteral("no row \"GPUs allocated  %1 (...)  %2 (...)\"").arg(gpuBefore, gpuAfter);
    if (QString why = row(QStringLiteral("Cost per hour"), dollars(before.value(QStringLiteral("costPerHour")).toDouble()),
            dollars(after.value(QStringLiteral("costPerHour")).toDouble()));
        !why.isEmpty())
        return why;
    // The loaded state's figures are the summary's too.
    for (const auto& [key, summaryKey] : { std::pair { "pendingPods", "pending_pods" }, std::pair { "fragmentedGpus", "fragmented_gpus" },
             std::pair { "idleAllocatedGpus", "idle_allocated_gpus" } }) {
        if (!totals.contains(QLatin1String(summaryKey)))
            return QStringLiteral("summary gives no totals.%1").arg(QLatin1String(summaryKey));
        const QJsonValue mine = before.value(QLatin1String(key));
        const QJsonValue theirs = totals.value(QLatin1String(summaryKey));
        // plan check leaves idleAllocatedGpus out without usage, where summary writes null.
        if (mine.isUndefined() ? !theirs.isNull() : mine.toDouble() != theirs.toDouble() || mine.isNull() != theirs.isNull())
            return QStringLiteral("plan check's before.%1 %2, summary's %3 %4")
                .arg(QLatin1String(key), mine.isUndefined() ? QStringLiteral("(none)") : QString::number(mine.toDouble()),
                    QLatin1String(summaryKey), theirs.isNull() ? QStringLiteral("null") : QString::number(theirs.toDouble()));
    }
    for (const char* key : { "pendingPods", "fragmentedGpus" })
        if (!before.contains(QLatin1String(key)) || !after.contains(QLatin1String(key)))
            return QStringLiteral("plan check gives no before and after %1").arg(QLatin1String(key));
    if (QString why = row(QStringLiteral("Pending pods"), n(before, "pendingPods"), n(after, "pendingPods")); !why.isEmpty())
        return why;
    auto fragmented = [](const QJsonValue& v) { return v.isNull() ? QStringLiteral("n/a (no GPU workload)") : fixedGpus(v.toDouble()); };
    if (QString why = row(QStringLiteral("Fragmented GPUs (FGD)"), fragmented(before.value(QStringLiteral("fragmentedGpus"))),
            fragmented(after.value(QStringLiteral("fragmentedGpus"))));
        !why.isEmpty())
        return why;
    const QJsonValue idle = before.value(QStringLiteral("idleAllocatedGpus"));
    if (idle.isUndefined()) {
        if (!QRegularExpression(QStringLiteral("^\\s*Idle allocated GPUs\\s{2,}no usage data(\\s|$)"), QRegularExpression::MultilineOption)
                 .match(text)
                 .hasMatch())
            return QStringLiteral("no row \"Idle allocated GPUs  no usage data\" (plan check gives no idleAllocatedGpus)");
    } else if (!QRegularExpression(QStringLiteral("^\\s*Idle allocated GPUs\\s{2,}%1\\s{2,}\\(measured,").arg(idle.toInteger()),
                    QRegularExpression::MultilineOption)
                    .match(text)
                    .hasMatch()) {
        // "(measured, not planned)" wraps in its column: its first words are matched.
        return QStringLiteral("no row \"Idle allocated GPUs  %1  (measured, not planned)\"").arg(idle.toInteger());
    }
    return {};
}

/// True when every channel of `a` and `b` differs by at most `tolerance` (0..255).
inline bool nearRgb(QRgb a, QRgb b, int tolerance)
{
    return std::abs(qRed(a) - qRed(b)) <= tolerance && std::abs(qGreen(a) - qGreen(b)) <= tolerance
        && std::abs(qBlue(a) - qBlue(b)) <= tolerance;
}

/// The pixels of `image` (Format_RGB32 or ARGB32) within `tolerance` of `colour`.
inline int countNear(const QImage& image, QRgb colour, int tolerance)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            n += nearRgb(line[x], colour, tolerance) ? 1 : 0;
    }
    return n;
}

/// The pixels of the plan's crosses over removed nodes (PlanLayer::removedColor(), within 24)
/// that have a pixel of a removed node's grey cell (notApplicableColor(), within 16) at most 2
/// pixels to the side or above or below: a cross drawn over its cell, not a cell of that colour.
inline int crossPixelsOnGreyCells(const QImage& page)
{
    const QRgb cross = fleet::views::PlanLayer::removedColor().rgb();
    const QRgb grey = fleet::views::notApplicableColor().rgb();
    int crossed = 0;
    for (int y = 2; y < page.height() - 2; ++y)
        for (int x = 2; x < page.width() - 2; ++x) {
            if (!nearRgb(page.pixel(x, y), cross, 24))
                continue;
            bool greyBeside = false;
            for (int d = -2; d <= 2 && !greyBeside; ++d)
                greyBeside = nearRgb(page.pixel(x + d, y), grey, 16) || nearRgb(page.pixel(x, y + d), grey, 16);
            crossed += greyBeside ? 1 : 0;
        }
    return crossed;
}

} // namespace fleet::tests
