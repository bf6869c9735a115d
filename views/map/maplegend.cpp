#include "maplegend.h"

#include "views/map/colormap.h"

#include <QPainter>

namespace fleet::views {

namespace {
constexpr int kWidth = 150;
constexpr int kMargin = 8;
constexpr int kBarWidth = 18;
constexpr int kSwatch = 12;

QString metricCaption(MapMetric metric)
{
    switch (metric) {
    case MapMetric::GpuRequested:
        return QStringLiteral("requested / allocatable GPU; Neuron devices, else CPU, where a node has no GPU");
    case MapMetric::CpuRequested:
        return QStringLiteral("requested / allocatable CPU");
    case MapMetric::MemoryRequested:
        return QStringLiteral("requested / allocatable memory");
    }
    return {};
}
} // namespace

MapLegend::MapLegend(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, mapBackgroundColor());
    p.setColor(QPalette::WindowText, QColor(230, 232, 236));
    setPalette(p);
}

void MapLegend::setMetric(MapMetric metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    update();
}

QSize MapLegend::sizeHint() const
{
    return { kWidth, 360 };
}
QSize MapLegend::minimumSizeHint() const
{
    return { kWidth, 260 };
}

void MapLegend::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setPen(palette().color(QPalette::WindowText));
    const QFontMetrics fm = painter.fontMetrics();
    int y = kMargin;

    QFont bold = painter.font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.drawText(QRect(kMargin, y, width() - 2 * kMargin, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
        QString::fromLatin1(mapMetricLabel(m_metric).data(), static_cast<qsizetype>(mapMetricLabel(m_metric).size())));
    painter.setFont(font());
    y += fm.height() + 2;
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    painter.setFont(small);
    const QRect captionRect(kMargin, y, width() - 2 * kMargin, 4 * fm.height());
    const QRect used = painter.boundingRect(captionRect, Qt::TextWordWrap, metricCaption(m_metric));
    painter.drawText(captionRect, Qt::TextWordWrap, metricCaption(m_metric));
    painter.setFont(font());
    y += used.height() + 10;

    // The colour bar: one line per pixel row, 100% at the top, read from the same table
    // the rasteriser uses.
    const int swatchBlock = 3 * (kSwatch + 6) + 10;
    const int barHeight = std::max(60, height() - y - swatchBlock - kMargin - fm.height() / 2);
    const int barTop = y + fm.height() / 2;
    for (int i = 0; i < barHeight; ++i) {
        const double share = 1.0 - static_cast<double>(i) / std::max(1, barHeight - 1);
        painter.fillRect(kMargin, barTop + i, kBarWidth, 1, shareColor(share));
    }
    painter.drawRect(kMargin, barTop, kBarWidth, barHeight - 1);
    for (int tick = 0; tick <= 4; ++tick) {
        const int ty = barTop + (barHeight - 1) * (4 - tick) / 4;
        painter.drawLine(kMargin + kBarWidth, ty, kMargin + kBarWidth + 4, ty);
        painter.drawText(QRect(kMargin + kBarWidth + 8, ty - fm.height() / 2, 60, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
            QStringLiteral("%1%").arg(tick * 25));
    }
    y = barTop + barHeight + 10;

    const std::pair<QColor, QString> marks[] = {
        { notReadyColor(), QStringLiteral("NotReady") },
        { cordonedColor(), QStringLiteral("Cordoned") },
        { noDataColor(), QStringLiteral("No allocatable") },
    };
    for (const auto& [colour, text] : marks) {
        painter.fillRect(kMargin, y, kSwatch, kSwatch, colour);
        painter.drawText(QRect(kMargin + kSwatch + 8, y - 2, width() - kSwatch - 2 * kMargin, kSwatch + 4),
            Qt::AlignLeft | Qt::AlignVCenter, text);
        y += kSwatch + 6;
    }
}

} // namespace fleet::views
