// SPDX-License-Identifier: Apache-2.0
#include "utilizationhistogram.h"

#include "model/figures.h"
#include "views/map/colormap.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fleet::views {

int UtilizationBins::binOf(double share) noexcept
{
    if (std::isnan(share))
        return -1;
    if (share <= 0)
        return 0;
    return std::min(kBinCount - 1, static_cast<int>(share * kBinCount));
}

UtilizationBins UtilizationBins::fromShares(std::span<const double> shares)
{
    UtilizationBins bins;
    for (double s : shares) {
        const int b = binOf(s);
        if (b < 0)
            ++bins.notApplicable;
        else
            ++bins.counts[static_cast<std::size_t>(b)];
    }
    return bins;
}

std::size_t UtilizationBins::maxCount() const noexcept
{
    return *std::max_element(counts.begin(), counts.end());
}

UtilizationHistogram::UtilizationHistogram(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void UtilizationHistogram::setBins(const UtilizationBins& bins, const QString& title)
{
    m_bins = bins;
    m_title = title;
    update();
}

std::array<UtilizationHistogram::CountLabel, UtilizationBins::kBinCount> UtilizationHistogram::countLabels() const
{
    // Counts of thousands are wider than a bin at a dock's width: each is written whole,
    // centred over its bar in the lines above the plot, a line up where it would run into its
    // neighbour
    // (a trial read "1,224" over "4,973" and ",07" for 1,076).
    std::array<CountLabel, UtilizationBins::kBinCount> labels;
    const QFontMetrics fm(font());
    const int left = 8;
    const int plotWidth = std::max(10, width() - 16);
    const double slot = plotWidth / double(UtilizationBins::kBinCount);
    std::array<int, kCountRows> rowRight;
    rowRight.fill(std::numeric_limits<int>::min());
    for (int b = 0; b < UtilizationBins::kBinCount; ++b) {
        if (m_bins.counts[static_cast<std::size_t>(b)] == 0)
            continue;
        CountLabel& l = labels[static_cast<std::size_t>(b)];
        l.text = QString::fromStdString(model::formatCount(static_cast<std::int64_t>(m_bins.counts[static_cast<std::size_t>(b)])));
        l.width = fm.horizontalAdvance(l.text) + 2;
        const int centre = left + static_cast<int>(std::lround((b + 0.5) * slot));
        l.left = std::clamp(centre - l.width / 2, 0, std::max(0, width() - l.width));
        for (int row = 0; row < kCountRows && l.row < 0; ++row)
            if (l.left >= rowRight[static_cast<std::size_t>(row)] + 3) {
                l.row = row;
                rowRight[static_cast<std::size_t>(row)] = l.left + l.width;
            }
    }
    return labels;
}

QRect UtilizationHistogram::countRect(int bin) const
{
    const QRect bar = barRect(bin);
    if (bar.isEmpty())
        return {};
    const CountLabel l = countLabels()[static_cast<std::size_t>(bin)];
    if (l.row < 0)
        return {};
    // Lines over the plot, the first just above it: a bar's count stays clear of every other
    // count (a line up is above all counts of the line below, whatever their bars' heights).
    const int h = QFontMetrics(font()).height();
    return QRect(l.left, plotRect().top() - 1 - (l.row + 1) * h, l.width, h);
}

QRect UtilizationHistogram::plotRect() const
{
    const QFontMetrics fm(font());
    int rows = 1;
    for (const CountLabel& l : countLabels())
        rows = std::max(rows, l.row + 1);
    const int top = fm.height() * (1 + rows) + 6; // title, then the counts' lines above the bars
    const int bottom = fm.height() + 6; // bin ranges
    return QRect(8, top, std::max(10, width() - 16), std::max(10, height() - top - bottom));
}

QRect UtilizationHistogram::barRect(int bin) const
{
    const std::size_t maxCount = m_bins.maxCount();
    if (bin < 0 || bin >= UtilizationBins::kBinCount || maxCount == 0 || m_bins.counts[static_cast<std::size_t>(bin)] == 0)
        return {};
    const QRect plot = plotRect();
    const double slot = plot.width() / double(UtilizationBins::kBinCount);
    const int x0 = plot.left() + static_cast<int>(std::lround(bin * slot)) + 2;
    const int x1 = plot.left() + static_cast<int>(std::lround((bin + 1) * slot)) - 2;
    // Every non-empty bin at least 2 px high, so one node among thousands still shows.
    const int h = std::max(2,
        static_cast<int>(std::lround(plot.height() * double(m_bins.counts[static_cast<std::size_t>(bin)]) / double(maxCount))));
    return QRect(x0, plot.bottom() - h + 1, std::max(1, x1 - x0), h);
}

void UtilizationHistogram::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QFontMetrics fm(font());
    p.setPen(palette().text().color());
    QString title = m_title;
    if (m_bins.notApplicable > 0)
        title += tr(" (%1 without it)")
                     .arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(m_bins.notApplicable))));
    p.drawText(QRect(8, 2, width() - 16, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(title, Qt::ElideRight, width() - 16));
    const QRect plot = plotRect();
    const double slot = plot.width() / double(UtilizationBins::kBinCount);
    const auto labels = countLabels();
    for (int b = 0; b < UtilizationBins::kBinCount; ++b) {
        const QRect bar = barRect(b);
        if (bar.isEmpty())
            continue;
        p.fillRect(bar, shareColor((b + 0.5) / UtilizationBins::kBinCount));
        if (const QRect r = countRect(b); !r.isEmpty()) {
            p.setPen(palette().text().color());
            p.drawText(r, Qt::AlignHCenter | Qt::AlignBottom, labels[static_cast<std::size_t>(b)].text);
        }
    }
    // Boundary labels 0% ... 100%, every other one when the bins are narrow, kept inside the
    // widget (the first left-aligned, the last right-aligned).
    const int step = slot > fm.horizontalAdvance(QStringLiteral("100%")) + 6 ? 1 : 2;
    p.setPen(palette().placeholderText().color());
    for (int b = 0; b <= UtilizationBins::kBinCount; b += step) {
        const int x = plot.left() + static_cast<int>(std::lround(b * slot));
        const QString label = QString::number(b * 10) + QLatin1Char('%');
        const int w = fm.horizontalAdvance(label) + 2;
        QRect r(x - w / 2, plot.bottom() + 3, w, fm.height());
        if (r.left() < 0)
            r.moveLeft(0);
        if (r.right() >= width())
            r.moveRight(width() - 1);
        p.drawText(r, Qt::AlignCenter, label);
    }
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
}

} // namespace fleet::views
