// SPDX-License-Identifier: Apache-2.0
#include "domainheatmap.h"

#include "domainaggregates.h"

#include "model/figures.h"
#include "views/map/colormap.h"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace fleet::views {

namespace {
constexpr int kMargin = 4;
const model::CoreResource kResources[DomainHeatmap::kColumnCount]
    = { model::CoreResource::Cpu, model::CoreResource::Memory, model::CoreResource::Gpu };
} // namespace

DomainHeatmap::DomainHeatmap(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setCursor(Qt::PointingHandCursor);
}

void DomainHeatmap::setCluster(
    std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology, int level)
{
    m_store = std::move(store);
    m_topology = std::move(topology);
    m_level = level;
    m_rows.clear();
    const QFontMetrics fm(font());
    m_nameWidth = fm.horizontalAdvance(tr("Domain")) + 12;
    m_cellWidth = std::max(fm.horizontalAdvance(QStringLiteral("100.0%")), fm.horizontalAdvance(tr("Memory"))) + 24;
    if (m_store && m_topology) {
        for (model::DomainId d : domainsAtLevel(*m_topology, level)) {
            const DomainAggregates a = DomainAggregates::compute(*m_store, *m_topology, d);
            Row row;
            row.domain = d;
            row.name = QString::fromStdString(m_topology->domainName(d));
            row.nodes = a.nodes;
            for (int c = 0; c < kColumnCount; ++c)
                row.shares[static_cast<std::size_t>(c)] = a.share(kResources[c]);
            m_nameWidth = std::max(m_nameWidth, std::min(320, fm.horizontalAdvance(row.name) + 12));
            m_rows.push_back(std::move(row));
        }
    }
    updateGeometry();
    resize(sizeHint());
    update();
}

model::DomainId DomainHeatmap::domainAt(int row) const noexcept
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].domain : model::DomainId {};
}

double DomainHeatmap::cellShare(int row, int column) const noexcept
{
    if (row < 0 || row >= rowCount() || column < 0 || column >= kColumnCount)
        return std::nan("");
    return m_rows[static_cast<std::size_t>(row)].shares[static_cast<std::size_t>(column)];
}

int DomainHeatmap::rowHeight() const
{
    return QFontMetrics(font()).height() + 8;
}
int DomainHeatmap::headerHeight() const
{
    return QFontMetrics(font()).height() + 8;
}

QRect DomainHeatmap::cellRect(int row, int column) const
{
    const int y = kMargin + headerHeight() + row * rowHeight();
    if (column < 0)
        return QRect(kMargin, y, m_nameWidth, rowHeight() - 1);
    return QRect(kMargin + m_nameWidth + column * m_cellWidth, y, m_cellWidth - 1, rowHeight() - 1);
}

int DomainHeatmap::rowAt(const QPoint& pos) const
{
    const int y = pos.y() - kMargin - headerHeight();
    if (y < 0 || pos.x() < kMargin || pos.x() >= kMargin + m_nameWidth + kColumnCount * m_cellWidth)
        return -1;
    const int row = y / rowHeight();
    return row < rowCount() ? row : -1;
}

QSize DomainHeatmap::sizeHint() const
{
    return QSize(2 * kMargin + m_nameWidth + kColumnCount * m_cellWidth,
        2 * kMargin + headerHeight() + std::max(1, rowCount()) * rowHeight());
}

QSize DomainHeatmap::minimumSizeHint() const
{
    return QSize(2 * kMargin + m_nameWidth + kColumnCount * m_cellWidth, headerHeight() + rowHeight());
}

void DomainHeatmap::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    p.fillRect(event->rect(), palette().base());
    const QFontMetrics fm(font());
    const QColor text = palette().text().color();
    // Header.
    p.setPen(text);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const QRect head(kMargin, kMargin, m_nameWidth, headerHeight());
    p.drawText(head.adjusted(4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, tr("Domain"));
    const QString names[kColumnCount] = { tr("CPU"), tr("Memory"), tr("GPU") };
    for (int c = 0; c < kColumnCount; ++c)
        p.drawText(
            QRect(kMargin + m_nameWidth + c * m_cellWidth, kMargin, m_cellWidth, headerHeight()), Qt::AlignCenter, names[c]);
    p.setFont(font());
    if (m_rows.empty()) {
        p.setPen(palette().placeholderText().color());
        p.drawText(cellRect(0, -1).adjusted(4, 0, kColumnCount * m_cellWidth, 0), Qt::AlignLeft | Qt::AlignVCenter,
            tr("No domains at this level"));
        return;
    }
    const int first = std::max(0, (event->rect().top() - kMargin - headerHeight()) / rowHeight());
    const int last = std::min(rowCount() - 1, (event->rect().bottom() - kMargin - headerHeight()) / rowHeight());
    for (int r = first; r <= last; ++r) {
        const Row& row = m_rows[static_cast<std::size_t>(r)];
        p.setPen(text);
        const QRect nameRect = cellRect(r, -1).adjusted(4, 0, -4, 0);
        p.drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(row.name, Qt::ElideMiddle, nameRect.width()));
        for (int c = 0; c < kColumnCount; ++c) {
            const double share = row.shares[static_cast<std::size_t>(c)];
            const QRect cell = cellRect(r, c);
            const QColor fill = std::isnan(share) ? noDataColor() : shareColor(share);
            p.fillRect(cell, fill);
            p.setPen(qGray(fill.rgb()) > 140 ? Qt::black : Qt::white);
            p.drawText(cell, Qt::AlignCenter, QString::fromStdString(model::formatShare(share)));
        }
    }
}

void DomainHeatmap::mousePressEvent(QMouseEvent* event)
{
    const int row = rowAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && row >= 0)
        emit domainActivated(domainAt(row));
    QWidget::mousePressEvent(event);
}

void DomainHeatmap::mouseMoveEvent(QMouseEvent* event)
{
    const int row = rowAt(event->position().toPoint());
    if (row >= 0) {
        const Row& r = m_rows[static_cast<std::size_t>(row)];
        QToolTip::showText(event->globalPosition().toPoint(),
            tr("%1: %2 nodes\nCPU %3 · memory %4 · GPU %5 requested\nClick to zoom the map to it")
                .arg(r.name, QString::fromStdString(model::formatCount(static_cast<std::int64_t>(r.nodes))),
                    QString::fromStdString(model::formatShare(r.shares[0])),
                    QString::fromStdString(model::formatShare(r.shares[1])),
                    QString::fromStdString(model::formatShare(r.shares[2]))),
            this);
    } else {
        QToolTip::hideText();
    }
    QWidget::mouseMoveEvent(event);
}

} // namespace fleet::views
