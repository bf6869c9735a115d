#include "maplegend.h"

#include "views/map/colormap.h"

#include <QPainter>

namespace fleet::views {

namespace {
constexpr int kWidth = 150;
constexpr int kMargin = 8;
constexpr int kBarWidth = 18;
constexpr int kSwatch = 12;

QString metricCaption(MapMetric metric, bool fleetHasAccelerators)
{
    switch (metric) {
    case MapMetric::GpuRequested:
        if (!fleetHasAccelerators)
            return QStringLiteral("requested / allocatable CPU: no node has GPUs, MIG slices or Neuron devices");
        return QStringLiteral("requested / allocatable GPU; MIG slices, else Neuron devices, else CPU, where a node has no GPU");
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

void MapLegend::setFleetHasAccelerators(bool has)
{
    if (has == m_fleetHasAccelerators)
        return;
    m_fleetHasAccelerators = has;
    update();
}

QString MapLegend::title() const
{
    const std::string_view t = mapMetricTitle(m_metric, m_fleetHasAccelerators);
    return QString::fromLatin1(t.data(), static_cast<qsizetype>(t.size()));
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
    const QRect titleRect(kMargin, y, width() - 2 * kMargin, 2 * fm.height());
    const QRect titleUsed = painter.boundingRect(titleRect, Qt::TextWordWrap, title());
    painter.drawText(titleRect, Qt::TextWordWrap, title());
    painter.setFont(font());
    y += titleUsed.height() + 2;
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    painter.setFont(small);
    const QRect captionRect(kMargin, y, width() - 2 * kMargin, 4 * fm.height());
    const QString caption = metricCaption(m_metric, m_fleetHasAccelerators);
    const QRect used = painter.boundingRect(captionRect, Qt::TextWordWrap, caption);
    painter.drawText(captionRect, Qt::TextWordWrap, caption);
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
