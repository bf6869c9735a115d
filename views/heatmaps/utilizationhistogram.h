// SPDX-License-Identifier: Apache-2.0
#pragma once
// A histogram of node utilization: how many nodes fall in each tenth of a share.

#include <QString>
#include <QWidget>

#include <array>
#include <span>

namespace fleet::views {

/// Ten bins of a share: bin i holds shares in [i/10, (i+1)/10), the last bin also 100% and
/// above (over-committed); NaN shares (no allocatable of the resource) are counted apart.
struct UtilizationBins {
    static constexpr int kBinCount = 10;
    std::array<std::size_t, kBinCount> counts {};
    std::size_t notApplicable = 0;
    /// Bins `shares`. O(n). Thread: any.
    [[nodiscard]] static UtilizationBins fromShares(std::span<const double> shares);
    /// The bin of one share (-1 for NaN).
    [[nodiscard]] static int binOf(double share) noexcept;
    [[nodiscard]] std::size_t maxCount() const noexcept;
};

/// Paints UtilizationBins with QPainter: one bar per bin, filled with the viridis colour of
/// the bin's centre share (colormap.h shareColor(0.05), ... shareColor(0.95)), its count
/// above it, the bins' ranges below, and a title ("GPU requested share of 1,024 nodes").
/// Plain widget (no OpenGL): renders offscreen too. Thread: GUI thread.
class UtilizationHistogram : public QWidget {
    Q_OBJECT
public:
    explicit UtilizationHistogram(QWidget* parent = nullptr);

    void setBins(const UtilizationBins& bins, const QString& title);
    [[nodiscard]] const UtilizationBins& bins() const noexcept { return m_bins; }
    [[nodiscard]] QString title() const { return m_title; }
    /// The rectangle of bin i's bar in widget coordinates at the current size (empty for a
    /// bin with no nodes). For tests.
    [[nodiscard]] QRect barRect(int bin) const;
    /// Where bin i's count is written: its whole text centred over the bar in the line just
    /// above the plot, kept inside the widget; a count that would overlap its left neighbour's
    /// goes one line up (up to kCountRows lines, the plot lower by as many); one that fits on none is left out
    /// (empty; the title's total still holds it). Empty for a bin with no nodes. For tests.
    [[nodiscard]] QRect countRect(int bin) const;
    static constexpr int kCountRows = 3;

    QSize sizeHint() const override { return { 360, 160 }; }
    QSize minimumSizeHint() const override { return { 200, 110 }; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    /// A count's text, left edge and width (widget x) and line (0 = just over its bar; -1 left out).
    struct CountLabel {
        QString text;
        int left = 0;
        int width = 0;
        int row = -1;
    };
    /// Every bin's count laid out across the plot's width (its height plays no part).
    [[nodiscard]] std::array<CountLabel, UtilizationBins::kBinCount> countLabels() const;
    QRect plotRect() const;

    UtilizationBins m_bins;
    QString m_title;
};

} // namespace fleet::views
