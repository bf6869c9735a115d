// SPDX-License-Identifier: Apache-2.0
#include "domainheatmap.h"

#include "domainaggregates.h"
#include "model/domainpath.h"
#include "model/figures.h"
#include "model/metrics/builtinmetrics.h"
#include "model/metrics/metric.h"
#include "model/metrics/planmetrics.h"
#include "views/map/colormap.h"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fleet::views {

namespace {
constexpr int kMargin = 4;
const model::CoreResource kResources[DomainHeatmap::kColumnCount]
    = { model::CoreResource::Cpu, model::CoreResource::Memory, model::CoreResource::Gpu };

/// The amount columns every fleet gets with a context: what is free, what is stranded, what
/// it costs, by domain.
struct AmountColumn {
    const char* id;
    const char* title;
    std::unique_ptr<model::Metric> (*make)();
};
const AmountColumn kAmounts[] = {
    { "gpu-unallocated", QT_TRANSLATE_NOOP("fleet::views::DomainHeatmap", "Unallocated GPUs"), &model::makeGpuUnallocatedMetric },
    { "gpu-fragmentation", QT_TRANSLATE_NOOP("fleet::views::DomainHeatmap", "Fragmented GPUs"), &model::makeGpuFragmentationMetric },
    { "cost", QT_TRANSLATE_NOOP("fleet::views::DomainHeatmap", "Cost $/h"), &model::makeCostMetric },
};

QString qs(const std::string& v)
{
    return QString::fromStdString(v);
}
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
    m_chosenWeights = shareWeights(m_chosenWeightBase); // over this store's nodes
    m_rows.clear();
    if (m_store && m_topology) {
        for (model::DomainId d : domainsAtLevel(*m_topology, level)) {
            Row row;
            row.domain = d;
            QStringList path;
            for (model::DomainId p = d; p.isValid() && p != m_topology->root(); p = m_topology->domainParent(p))
                path.prepend(qs(m_topology->domainName(p)));
            row.label = path.join(QStringLiteral(" / "));
            m_rows.push_back(std::move(row));
        }
    }
    rebuildColumns();
}

void DomainHeatmap::setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask)
{
    if (mask == m_mask)
        return;
    m_mask = std::move(mask);
    setCluster(m_store, m_topology, m_level); // the rows the mask keeps, their figures
}

void DomainHeatmap::setMetricContext(std::shared_ptr<const model::MetricContext> context)
{
    m_context = std::move(context);
    // Per node once per context: a metric change or another level only sums them again.
    m_amountValues.clear();
    m_amountUnits.clear();
    if (m_context) {
        const std::size_t nodes = m_context->store().nodeCount();
        for (const AmountColumn& a : kAmounts) {
            const std::unique_ptr<model::Metric> metric = a.make();
            std::vector<double> perNode(nodes);
            for (std::uint32_t n = 0; n < nodes; ++n)
                perNode[n] = metric->value(*m_context, model::NodeId(n));
            m_amountValues.push_back(std::move(perNode));
            m_amountUnits.push_back(qs(metric->unit()));
        }
    }
    rebuildColumns();
}

void DomainHeatmap::setChosenMetric(const model::Metric& metric, const model::MetricColumn& column)
{
    const bool categorical = metric.scale() == model::ScaleKind::Categorical;
    const QString id = categorical ? QString() : qs(metric.id());
    if (id != m_chosenId)
        m_sortColumn = -2; // another metric: the rows follow it, sorted by it once rebuilt
    m_chosenId = id;
    m_chosenTitle = qs(metric.title());
    m_chosenUnit = qs(metric.unit());
    m_chosenShare = metric.scale() == model::ScaleKind::Share;
    m_chosenValues = categorical ? std::vector<double> {} : column.values;
    m_chosenWeightBase = m_chosenShare ? QString::fromUtf8(model::planMetricBaseId(metric.id())) : QString();
    m_chosenWeights = shareWeights(m_chosenWeightBase);
    rebuildColumns();
}

std::vector<double> DomainHeatmap::shareWeights(const QString& base) const
{
    // A requested share under the plan is requested / allocatable of one resource per node;
    // weighting each node's share by its allocatable sums its requests, so the domain's
    // figure is requested / allocatable over the nodes the plan leaves, as the GPU column
    // and the domain inspector count (a mean of the nodes' shares counts a half-used
    // 1-GPU node as much as a full 8-GPU one).
    std::vector<double> weights;
    if (!m_store || base.isEmpty())
        return weights;
    model::CoreResource r = base == QLatin1String("cpu") ? model::CoreResource::Cpu
        : base == QLatin1String("memory")                ? model::CoreResource::Memory
                                                         : model::CoreResource::Gpu;
    const std::size_t nodes = m_store->nodeCount();
    if (r == model::CoreResource::Gpu) {
        // The GPU metric reads CPU on a fleet without GPUs (planmetrics.h).
        bool gpus = false;
        for (std::uint32_t n = 0; n < nodes && !gpus; ++n)
            gpus = m_store->nodeAllocatable(model::NodeId(n))[model::CoreResource::Gpu] > 0;
        if (!gpus)
            r = model::CoreResource::Cpu;
    }
    weights.resize(nodes);
    for (std::uint32_t n = 0; n < nodes; ++n)
        weights[n] = static_cast<double>(m_store->nodeAllocatable(model::NodeId(n))[r]);
    return weights;
}

void DomainHeatmap::fillColumn(int column, const std::vector<double>& perNode, bool share, const std::vector<double>* weights)
{
    Column& c = m_columns[static_cast<std::size_t>(column)];
    c.maximum = 0;
    const bool weighted = share && weights && weights->size() == perNode.size();
    for (Row& row : m_rows) {
        double sum = 0;
        double counted = 0;
        for (const model::NodeId n : m_topology->domainNodes(row.domain))
            if (n.index() < perNode.size() && !std::isnan(perNode[n.index()])
                && (!m_mask || (n.index() < m_mask->size() && (*m_mask)[n.index()] != 0))) {
                const double w = weighted ? (*weights)[n.index()] : 1.0;
                sum += perNode[n.index()] * w;
                counted += w;
            }
        // A share's domain value is its nodes' mean (weighted: see shareWeights()); an
        // amount's is their sum.
        const double v = counted <= 0 ? std::nan("") : share ? sum / counted : sum;
        row.values[static_cast<std::size_t>(column)] = v;
        if (!std::isnan(v))
            c.maximum = std::max(c.maximum, v);
    }
}

void DomainHeatmap::rebuildColumns()
{
    m_columns.clear();
    m_chosen = -1;
    m_chosenAppended = false;
    for (const QString& t : { tr("CPU"), tr("Memory"), tr("GPU") })
        m_columns.push_back(Column { t, QString(), QString(), true, 1.0 });
    const bool contextFits = m_context && m_store && &m_context->store() == m_store.get() && m_amountValues.size() == std::size(kAmounts);
    if (contextFits)
        for (const AmountColumn& a : kAmounts)
            m_columns.push_back(Column { tr(a.title), QLatin1String(a.id), QString(), false, 0.0 });
    for (Row& row : m_rows)
        row.values.assign(m_columns.size(), std::nan(""));
    if (m_store && m_topology) {
        for (Row& row : m_rows) {
            const DomainAggregates a = DomainAggregates::compute(*m_store, *m_topology, row.domain, m_mask.get());
            row.nodes = a.nodes;
            for (int c = 0; c < kColumnCount; ++c)
                row.values[static_cast<std::size_t>(c)] = a.share(kResources[c]);
        }
        if (m_mask) // a domain the filter keeps no node of has no figures to rank
            std::erase_if(m_rows, [](const Row& row) { return row.nodes == 0; });
        if (contextFits)
            for (std::size_t i = 0; i < m_amountValues.size(); ++i) {
                m_columns[kColumnCount + i].unit = m_amountUnits[i];
                fillColumn(static_cast<int>(kColumnCount + i), m_amountValues[i], false);
            }
        if (!m_chosenId.isEmpty() && m_chosenValues.size() == m_store->nodeCount()) {
            const QStringList requested { QStringLiteral("cpu"), QStringLiteral("memory"), QStringLiteral("gpu") };
            m_chosen = static_cast<int>(requested.indexOf(m_chosenId));
            if (m_chosen < 0)
                m_chosen = columnOf(m_chosenId);
            if (m_chosen < 0) {
                m_columns.push_back(Column { m_chosenTitle, m_chosenId, m_chosenUnit, m_chosenShare, m_chosenShare ? 1.0 : 0.0 });
                m_chosen = columnCount() - 1;
                m_chosenAppended = true;
                for (Row& row : m_rows)
                    row.values.push_back(std::nan(""));
                fillColumn(m_chosen, m_chosenValues, m_chosenShare, &m_chosenWeights);
                if (m_chosenShare)
                    m_columns.back().maximum = 1.0;
            }
        }
    }
    // Widths: the header or the widest value, whichever is wider.
    const QFontMetrics fm(font());
    m_nameWidth = fm.horizontalAdvance(tr("Domain")) + 12;
    for (const Row& row : m_rows)
        m_nameWidth = std::max(m_nameWidth, std::min(360, fm.horizontalAdvance(row.label) + 12));
    m_cellWidths.assign(m_columns.size(), 0);
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics bfm(bold);
    for (int c = 0; c < columnCount(); ++c)
        m_cellWidths[static_cast<std::size_t>(c)] = cellWidth(c, fm, bfm);
    sortAsBefore();
}

int DomainHeatmap::cellWidth(int column, const QFontMetrics& fm, const QFontMetrics& bold) const
{
    // The header's widest word (a title wraps at its spaces, headerLines()) or the widest value,
    // whichever is wider.
    const QStringList words = (m_columns[static_cast<std::size_t>(column)].title + QStringLiteral(" \u25bc")).split(QLatin1Char(' '));
    int header = 0;
    for (qsizetype i = 0; i < words.size(); ++i)
        header = std::max(header, bold.horizontalAdvance(i + 2 == words.size() ? words[i] + QStringLiteral(" \u25bc") : words[i]));
    int w = std::max(header, fm.horizontalAdvance(QStringLiteral("100.0%")));
    for (int r = 0; r < rowCount(); ++r)
        w = std::max(w, fm.horizontalAdvance(valueText(r, column)));
    return w + 16;
}

void DomainHeatmap::sortAsBefore()
{
    if (m_sortColumn == -2 && m_chosen >= 0)
        sortByColumn(m_chosen, Qt::DescendingOrder);
    else if (m_sortColumn >= -1 && m_sortColumn < columnCount())
        sortByColumn(m_sortColumn, m_sortOrder);
    updateGeometry();
    resize(sizeHint());
    update();
}

void DomainHeatmap::setChosenValues(const model::Metric& metric, const model::MetricColumn& column)
{
    const bool categorical = metric.scale() == model::ScaleKind::Categorical;
    const QString id = categorical ? QString() : qs(metric.id());
    if (id.isEmpty() || id != m_chosenId || m_chosen < 0 || !m_store || column.values.size() != m_store->nodeCount()
        || m_chosenValues.size() != column.values.size() || qs(metric.title()) != m_chosenTitle || qs(metric.unit()) != m_chosenUnit
        || (metric.scale() == model::ScaleKind::Share) != m_chosenShare) {
        setChosenMetric(metric, column);
        return;
    }
    m_chosenValues = column.values;
    if (!m_chosenAppended)
        return; // a requested share or an amount column: the store's figures, which did not change
    // What rebuildColumns() does for the chosen metric's own column, the others as they are.
    fillColumn(m_chosen, m_chosenValues, m_chosenShare, &m_chosenWeights);
    if (m_chosenShare)
        m_columns[static_cast<std::size_t>(m_chosen)].maximum = 1.0;
    QFont bold = font();
    bold.setBold(true);
    m_cellWidths[static_cast<std::size_t>(m_chosen)] = cellWidth(m_chosen, QFontMetrics(font()), QFontMetrics(bold));
    sortAsBefore();
}

QString DomainHeatmap::columnTitle(int column) const
{
    return column >= 0 && column < columnCount() ? m_columns[static_cast<std::size_t>(column)].title : QString();
}

int DomainHeatmap::columnOf(const QString& metricId) const
{
    for (int c = 0; c < columnCount(); ++c)
        if (!metricId.isEmpty() && m_columns[static_cast<std::size_t>(c)].metricId == metricId)
            return c;
    return -1;
}

model::DomainId DomainHeatmap::domainAt(int row) const noexcept
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].domain : model::DomainId {};
}

QString DomainHeatmap::rowLabel(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)].label : QString();
}

double DomainHeatmap::cellShare(int row, int column) const noexcept
{
    if (column < 0 || column >= kColumnCount)
        return std::nan("");
    return cellValue(row, column);
}

double DomainHeatmap::cellValue(int row, int column) const noexcept
{
    if (row < 0 || row >= rowCount() || column < 0 || column >= columnCount())
        return std::nan("");
    return m_rows[static_cast<std::size_t>(row)].values[static_cast<std::size_t>(column)];
}

QString DomainHeatmap::valueText(int row, int column) const
{
    const double v = cellValue(row, column);
    const Column& c = m_columns[static_cast<std::size_t>(column)];
    if (std::isnan(v) || c.share)
        return QString::fromStdString(model::formatShare(v));
    if (c.unit == QLatin1String("$/h"))
        return QString::fromStdString(model::formatDollarsPerHour(v));
    // Amounts: whole units with thousands separators, one decimal below 10 (fragments).
    return v < 10 && std::abs(v - std::round(v)) > 1e-9 ? QString::number(v, 'f', 1)
                                                         : QString::fromStdString(model::formatCount(std::llround(v)));
}

void DomainHeatmap::sortByColumn(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    const bool ascending = order == Qt::AscendingOrder;
    if (column < 0) {
        std::stable_sort(m_rows.begin(), m_rows.end(), [&](const Row& a, const Row& b) {
            const int c = QString::localeAwareCompare(a.label, b.label);
            return ascending ? c < 0 : c > 0;
        });
    } else if (column < columnCount()) {
        const auto i = static_cast<std::size_t>(column);
        std::stable_sort(m_rows.begin(), m_rows.end(), [&](const Row& a, const Row& b) {
            const double x = a.values[i], y = b.values[i];
            if (std::isnan(x) || std::isnan(y))
                return !std::isnan(x) && std::isnan(y); // n/a last
            return ascending ? x < y : x > y;
        });
    }
    update();
}

int DomainHeatmap::rowHeight() const
{
    return QFontMetrics(font()).height() + 8;
}
int DomainHeatmap::headerHeight() const
{
    return 2 * QFontMetrics(font()).height() + 8; // a title wraps to two lines
}

QRect DomainHeatmap::headerTextRect(int column) const
{
    // The part in view: a table wider than its dock scrolls, and a title centred on the whole
    // cell was cut by the dock's edge ("Unallocated GP").
    const QRect cell = headerRect(column);
    const QRect visible = visibleRegion().boundingRect();
    const QRect shown = visible.isEmpty() ? cell : cell.intersected(QRect(visible.left(), cell.top(), visible.width(), cell.height()));
    return shown.isEmpty() ? cell : shown.adjusted(column < 0 ? 4 : 2, 0, -2, 0);
}

QStringList DomainHeatmap::headerLines(int column) const
{
    const QString arrow = m_sortColumn == column ? (m_sortOrder == Qt::AscendingOrder ? QStringLiteral(" \u25b2") : QStringLiteral(" \u25bc")) : QString();
    const QString title = (column < 0 ? tr("Domain") : columnTitle(column)) + arrow;
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fm(bold);
    const int width = headerTextRect(column).width();
    if (fm.horizontalAdvance(title) <= width)
        return { title };
    // The longest first line that fits, broken at a space; the rest on the second line.
    const QStringList words = title.split(QLatin1Char(' '));
    QString first = words.front();
    int used = 1;
    for (; used < words.size(); ++used) {
        const QString longer = first + QLatin1Char(' ') + words[used];
        if (fm.horizontalAdvance(longer) > width)
            break;
        first = longer;
    }
    const QString second = words.mid(used).join(QLatin1Char(' '));
    QStringList lines { fm.elidedText(first, Qt::ElideRight, width) };
    if (!second.isEmpty())
        lines << fm.elidedText(second, Qt::ElideRight, width);
    return lines;
}

QRect DomainHeatmap::headerRect(int column) const
{
    if (column < 0)
        return QRect(kMargin, kMargin, m_nameWidth, headerHeight());
    const QRect cell = cellRect(0, column);
    return QRect(cell.left(), kMargin, cell.width() + 1, headerHeight());
}

QRect DomainHeatmap::cellRect(int row, int column) const
{
    const int y = kMargin + headerHeight() + row * rowHeight();
    if (column < 0)
        return QRect(kMargin, y, m_nameWidth, rowHeight() - 1);
    int x = kMargin + m_nameWidth;
    for (int c = 0; c < column && c < static_cast<int>(m_cellWidths.size()); ++c)
        x += m_cellWidths[static_cast<std::size_t>(c)];
    const int w = column < static_cast<int>(m_cellWidths.size()) ? m_cellWidths[static_cast<std::size_t>(column)] : 84;
    return QRect(x, y, w - 1, rowHeight() - 1);
}

int DomainHeatmap::rowAt(const QPoint& pos) const
{
    const int y = pos.y() - kMargin - headerHeight();
    const int right = kMargin + m_nameWidth + std::accumulate(m_cellWidths.begin(), m_cellWidths.end(), 0);
    if (y < 0 || pos.x() < kMargin || pos.x() >= right)
        return -1;
    const int row = y / rowHeight();
    return row < rowCount() ? row : -1;
}

QSize DomainHeatmap::sizeHint() const
{
    return QSize(2 * kMargin + m_nameWidth + std::accumulate(m_cellWidths.begin(), m_cellWidths.end(), 0),
        2 * kMargin + headerHeight() + std::max(1, rowCount()) * rowHeight());
}

QSize DomainHeatmap::minimumSizeHint() const
{
    return QSize(2 * kMargin + m_nameWidth + std::accumulate(m_cellWidths.begin(), m_cellWidths.end(), 0), headerHeight() + rowHeight());
}

void DomainHeatmap::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    p.fillRect(event->rect(), palette().base());
    const QFontMetrics fm(font());
    const QColor text = palette().text().color();
    // Header: the sorted column carries its arrow; the chosen metric's is underlined.
    p.setPen(text);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(headerTextRect(-1), Qt::AlignLeft | Qt::AlignVCenter, headerLines(-1).join(QLatin1Char('\n')));
    for (int c = 0; c < columnCount(); ++c) {
        QFont f = bold;
        f.setUnderline(c == m_chosen);
        p.setFont(f);
        p.drawText(headerTextRect(c), Qt::AlignCenter, headerLines(c).join(QLatin1Char('\n')));
    }
    p.setFont(font());
    if (m_rows.empty()) {
        p.setPen(palette().placeholderText().color());
        p.drawText(cellRect(0, -1).adjusted(4, 0, 300, 0), Qt::AlignLeft | Qt::AlignVCenter, tr("No domains at this level"));
        return;
    }
    const int first = std::max(0, (event->rect().top() - kMargin - headerHeight()) / rowHeight());
    const int last = std::min(rowCount() - 1, (event->rect().bottom() - kMargin - headerHeight()) / rowHeight());
    for (int r = first; r <= last; ++r) {
        const Row& row = m_rows[static_cast<std::size_t>(r)];
        p.setPen(text);
        const QRect nameRect = cellRect(r, -1).adjusted(4, 0, -4, 0);
        p.drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(row.label, Qt::ElideMiddle, nameRect.width()));
        for (int c = 0; c < columnCount(); ++c) {
            const Column& column = m_columns[static_cast<std::size_t>(c)];
            const double v = row.values[static_cast<std::size_t>(c)];
            const QRect cell = cellRect(r, c);
            const double share = column.share ? v : (column.maximum > 0 ? v / column.maximum : 0.0);
            const QColor fill = std::isnan(v) ? noDataColor() : shareColor(share);
            p.fillRect(cell, fill);
            p.setPen(qGray(fill.rgb()) > 140 ? Qt::black : Qt::white);
            p.drawText(cell, Qt::AlignCenter, valueText(r, c));
        }
    }
}

void DomainHeatmap::mousePressEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (event->button() == Qt::LeftButton) {
        for (int c = -1; c < columnCount(); ++c)
            if (headerRect(c).contains(pos)) {
                // Amounts and shares rank highest first; a second click turns the order.
                const Qt::SortOrder first = c < 0 ? Qt::AscendingOrder : Qt::DescendingOrder;
                const Qt::SortOrder other = first == Qt::AscendingOrder ? Qt::DescendingOrder : Qt::AscendingOrder;
                sortByColumn(c, m_sortColumn == c && m_sortOrder == first ? other : first);
                QWidget::mousePressEvent(event);
                return;
            }
        if (const int row = rowAt(pos); row >= 0)
            emit domainActivated(domainAt(row));
    }
    QWidget::mousePressEvent(event);
}

QString DomainHeatmap::rowToolTip(int row) const
{
    if (row < 0 || row >= rowCount() || !m_topology)
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(row)];
    QStringList lines;
    lines << qs(model::domainPathText(*m_topology, r.domain));
    lines << tr("%1 nodes").arg(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(r.nodes))));
    QStringList figures;
    for (int c = 0; c < columnCount(); ++c)
        figures << QStringLiteral("%1 %2").arg(m_columns[static_cast<std::size_t>(c)].title, valueText(row, c));
    lines << figures.join(QStringLiteral(" \u00b7 "));
    lines << tr("Click to zoom the map to it");
    return lines.join(QLatin1Char('\n'));
}

void DomainHeatmap::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    const int row = rowAt(pos);
    int header = -2;
    for (int c = -1; c < columnCount() && header == -2; ++c)
        if (headerRect(c).contains(pos))
            header = c;
    if (row >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), rowToolTip(row), this);
    else if (header >= -1) // the whole title, however the header is cut
        QToolTip::showText(event->globalPosition().toPoint(),
            (header < 0 ? tr("Domain") : columnTitle(header)) + QLatin1Char('\n') + tr("Click to sort by it"), this);
    else
        QToolTip::hideText();
    QWidget::mouseMoveEvent(event);
}

} // namespace fleet::views
