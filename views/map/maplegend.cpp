// SPDX-License-Identifier: Apache-2.0
#include "maplegend.h"

#include "model/figures.h"
#include "views/map/colormap.h"
#include "views/map/layers/markerlayer.h"
#include "views/map/layers/nodedetaillayer.h"
#include "views/map/layers/planlayer.h"

#include <QCoreApplication>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

#include <cmath>

namespace fleet::views {

namespace {
constexpr int kWidth = 170;
constexpr int kMargin = 8;
constexpr int kBarWidth = 18;
constexpr int kSwatch = 12;
constexpr int kTicks = 5;
// The colour bar's least height when the keys below it need the room (a short map), and when
// they do not.
constexpr int kMinBarShort = 30;
constexpr int kMinBar = 60;
constexpr int kMinimumHeight = 260;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString count(std::size_t n)
{
    return qs(model::formatCount(static_cast<std::int64_t>(n)));
}

QString formatValue(const model::Metric& metric, double v)
{
    const std::string unit = metric.unit();
    if (metric.scale() == model::ScaleKind::Share)
        return qs(model::formatShare(v));
    // A difference of shares (the plan's, a compared state's): -0.25 is "-25%", not "-0.25 % of allocatable".
    if (metric.scale() == model::ScaleKind::Diverging && unit.starts_with('%'))
        return legendSignedPercent(v);
    if (unit == "$/h")
        return qs(model::formatDollarsPerHour(v));
    if (unit.empty())
        return qs(model::formatSignificant(v));
    return qs(model::formatSignificant(v)) + QLatin1Char(' ') + qs(unit);
}

// What "not applicable" means for a metric, for its swatch.
QString notApplicableText(const model::Metric& metric)
{
    QString reason = QString::fromStdString(metric.notApplicableReason());
    if (reason.isEmpty())
        return QStringLiteral("Not applicable");
    reason[0] = reason[0].toUpper();
    return reason;
}
} // namespace

QString legendSignedPercent(double share)
{
    if (std::isnan(share))
        return QStringLiteral("n/a");
    const double percent = share * 100.0;
    if (std::abs(percent) < 5e-3)
        return QStringLiteral("0%");
    // As few decimals as the value needs (ticks are halves and quarters of a niceCeiling() step: 0.25% .. 100%).
    QString text = QString::number(std::abs(percent), 'f', 2);
    while (text.endsWith(QLatin1Char('0')))
        text.chop(1);
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return (percent < 0 ? QStringLiteral("-") : QStringLiteral("+")) + text + QLatin1Char('%');
}

QStringList legendScaleRange(const model::Metric& metric, const MetricColorScale& scale)
{
    if (scale.kind != model::ScaleKind::Diverging)
        return {};
    const QString extent = formatValue(metric, scale.hi).mid(metric.unit().starts_with('%') ? 1 : 0); // "80%", not "+80%"
    QStringList out;
    out << QStringLiteral("Changed: %1 nodes").arg(count(scale.changed));
    out << QStringLiteral("Scale \u00b1%1: %2 beyond, at the ends").arg(extent, count(scale.beyond));
    return out;
}

QStringList legendTickLabels(const model::Metric& metric, const MetricColorScale& scale)
{
    QStringList labels;
    for (int t = 0; t < kTicks; ++t)
        labels << formatValue(metric, scale.lo + (scale.hi - scale.lo) * t / (kTicks - 1));
    return labels;
}

MapLegend::MapLegend(QWidget* parent)
    : MapLegend(nullptr, parent)
{
}

MapLegend::MapLegend(MapMetricModel* metrics, QWidget* parent)
    : QWidget(parent)
    , m_model(metrics ? metrics : new MapMetricModel(this))
{
    connect(m_model, &MapMetricModel::contextChanged, this, &MapLegend::countMarks);
    connect(m_model, &MapMetricModel::contextChanged, this, &MapLegend::contextChanged);
    connect(m_model, &MapMetricModel::columnChanged, this, [this] {
        update();
        emit columnChanged();
    });
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, legendBackgroundColor());
    p.setColor(QPalette::WindowText, QColor(230, 232, 236));
    setPalette(p);
}

void MapLegend::setMetric(std::shared_ptr<const model::Metric> metric)
{
    m_model->setMetric(std::move(metric)); // the NotReady and cordoned counts are the store's, not the metric's
}

void MapLegend::setMetric(MapMetric metric)
{
    setMetric(mapMetric(metric));
}

MapMetric MapLegend::metric() const noexcept
{
    return m_model->mapMetric();
}

void MapLegend::setContext(std::shared_ptr<const model::MetricContext> context)
{
    m_model->setContext(std::move(context));
}

void MapLegend::setFleetHasAccelerators(bool has)
{
    if (has == m_fleetHasAccelerators)
        return;
    m_fleetHasAccelerators = has;
    update();
}

bool MapLegend::fleetHasAccelerators() const noexcept
{
    return m_model->context() ? m_model->context()->fleetHasAccelerators() : m_fleetHasAccelerators;
}

void MapLegend::setCountedNodes(std::shared_ptr<const std::vector<std::uint8_t>> nodes)
{
    m_counted = std::move(nodes);
    countMarks();
    update();
}

void MapLegend::countMarks()
{
    m_notReady = m_cordoned = 0;
    if (!m_model->context())
        return;
    const model::ClusterStore& store = m_model->context()->store();
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        if (m_counted && (i >= m_counted->size() || (*m_counted)[i] == 0))
            continue;
        switch (nodeMark(store, model::NodeId(i))) {
        case NodeMark::NotReady:
            ++m_notReady;
            break;
        case NodeMark::Cordoned:
            ++m_cordoned;
            break;
        case NodeMark::None:
            break;
        }
    }
}

QString MapLegend::title() const
{
    if (m_model->metric()->id() == "gpu")
        return QString::fromLatin1(model::gpuMetricTitle(fleetHasAccelerators()).data());
    return qs(m_model->metric()->title());
}

QString MapLegend::unit() const
{
    if (m_model->metric()->scale() == model::ScaleKind::Categorical)
        return {};
    return qs(m_model->metric()->unit());
}

QStringList MapLegend::tickLabels() const
{
    if (m_model->metric()->scale() == model::ScaleKind::Categorical)
        return {};
    return legendTickLabels(*m_model->metric(), MetricColorScale::forColumn(*m_model->metric(), m_model->column()));
}

std::vector<MapLegend::Swatch> MapLegend::swatches() const
{
    std::vector<Swatch> out;
    const MetricColorScale scale = MetricColorScale::forColumn(*m_model->metric(), m_model->column());
    if (scale.kind == model::ScaleKind::Categorical) {
        std::size_t other = 0;
        std::size_t otherValues = 0;
        for (std::size_t r = 0; r < m_model->column().categories.size(); ++r) {
            const model::MetricCategory& c = m_model->column().categories[r];
            if (scale.nodeState || r < static_cast<std::size_t>(kCategoryColors)) {
                out.push_back({ QColor::fromRgb(scale.color(static_cast<double>(c.code), static_cast<int>(r))),
                    QStringLiteral("%1: %2").arg(qs(c.name), count(c.nodes)) });
            } else {
                other += c.nodes;
                ++otherValues;
            }
        }
        if (otherValues > 0)
            out.push_back({ otherCategoryColor(), QStringLiteral("%1 other values: %2").arg(count(otherValues), count(other)) });
    }
    const bool countsKnown = m_model->context() != nullptr;
    if (!countsKnown || m_model->column().notApplicable > 0 || scale.kind != model::ScaleKind::Categorical) {
        QString text = notApplicableText(*m_model->metric());
        if (countsKnown && m_counted) {
            const std::vector<double>& values = m_model->column().values;
            std::size_t notApplicable = 0;
            for (std::size_t i = 0; i < values.size() && i < m_counted->size(); ++i)
                notApplicable += (*m_counted)[i] != 0 && std::isnan(values[i]) ? 1 : 0;
            text += QStringLiteral(": %1").arg(count(notApplicable));
        } else if (countsKnown) {
            text += QStringLiteral(": %1").arg(count(m_model->column().notApplicable));
        }
        if (!(m_model->metric()->id() == "gpu" && !fleetHasAccelerators()))
            out.push_back({ notApplicableColor(), text });
    }
    if (m_model->metric()->marksOverride()) {
        out.push_back({ notReadyColor(),
            countsKnown ? QStringLiteral("NotReady: %1").arg(count(m_notReady)) : QStringLiteral("NotReady") });
        out.push_back({ cordonedColor(),
            countsKnown ? QStringLiteral("Cordoned: %1").arg(count(m_cordoned)) : QStringLiteral("Cordoned") });
    }
    return out;
}

QStringList MapLegend::totals() const
{
    QStringList out;
    if (!m_model->context())
        return out;
    out << legendScaleRange(*m_model->metric(), MetricColorScale::forColumn(*m_model->metric(), m_model->column()));
    const std::string unit = m_model->metric()->unit();
    if (unit == "$/h") {
        out << QStringLiteral("Fleet total: %1").arg(qs(model::formatDollarsPerHour(m_model->column().total)));
        if (m_model->column().prepaidTotal > 0)
            out << QStringLiteral("Prepaid: %1").arg(qs(model::formatDollarsPerHour(m_model->column().prepaidTotal)));
    } else if (unit == "GPUs") {
        out << QStringLiteral("Fleet total: %1 GPUs").arg(qs(model::formatCount(std::llround(m_model->column().total))));
    }
    return out;
}

QStringList MapLegend::entries() const
{
    QStringList out;
    if (!unit().isEmpty())
        out << unit();
    QStringList ticks = tickLabels();
    std::reverse(ticks.begin(), ticks.end());
    out << ticks;
    for (const Swatch& s : swatches())
        out << s.text;
    out << totals();
    const QStringList key = markerKeyTexts();
    if (!key.isEmpty())
        out << QStringLiteral("Markers") << key;
    const std::vector<std::pair<int, QString>> plan = planKeyRows();
    if (!plan.empty())
        out << QStringLiteral("Plan");
    for (const auto& row : plan)
        out << row.second;
    return out;
}

void MapLegend::setPlanMarkCounts(const std::array<std::size_t, 4>& counts)
{
    if (counts == m_planMarkCounts)
        return;
    m_planMarkCounts = counts;
    // The plan key's room: the window shows the legend only on a map at least this tall (a
    // hidden legend is not painted, so not from paintEvent() alone).
    setMinimumHeightPx(layoutFor(width(), height()).minimumHeight);
    update();
}

std::vector<std::pair<int, QString>> MapLegend::planKeyRows() const
{
    // Drained first: a consolidation's reader looks for the nodes it frees.
    // The two crosses (black: removed, white: emptied) differ by lightness alone: where either is
    // drawn both are keyed, so that a reader (and a caption naming both) can tell them apart.
    std::vector<std::pair<int, QString>> out;
    const bool crosses = m_planMarkCounts[static_cast<std::size_t>(PlanMarkKind::Removed)] > 0
        || m_planMarkCounts[static_cast<std::size_t>(PlanMarkKind::Emptied)] > 0;
    for (const PlanMarkKind kind : { PlanMarkKind::Removed, PlanMarkKind::Emptied, PlanMarkKind::Changed, PlanMarkKind::Violation }) {
        const std::size_t n = m_planMarkCounts[static_cast<std::size_t>(kind)];
        const bool cross = kind == PlanMarkKind::Removed || kind == PlanMarkKind::Emptied;
        if (n > 0 || (cross && crosses))
            out.emplace_back(static_cast<int>(kind), QStringLiteral("%1: %2").arg(PlanLayer::markMeaning(kind), count(static_cast<std::int64_t>(n))));
    }
    return out;
}

void MapLegend::setMarkerCounts(std::size_t notReady, std::size_t cordoned, std::size_t otherProblems)
{
    m_markerCountsKnown = true;
    m_markerCounts[static_cast<int>(NodeMarkerKind::NotReady)] = notReady;
    m_markerCounts[static_cast<int>(NodeMarkerKind::Cordoned)] = cordoned;
    m_markerCounts[static_cast<int>(NodeMarkerKind::Problem)] = otherProblems;
    update();
}

QStringList MapLegend::markerKeyTexts() const
{
    QStringList out;
    for (const NodeMarkerKind kind : { NodeMarkerKind::NotReady, NodeMarkerKind::Cordoned, NodeMarkerKind::Problem }) {
        const QString meaning = MarkerLayer::markerMeaning(kind);
        QString row = m_markerCountsKnown
            ? QStringLiteral("%1: %2").arg(meaning, count(static_cast<std::int64_t>(m_markerCounts[static_cast<int>(kind)])))
            : meaning;
        if (m_hiddenMarkerKinds & (1u << static_cast<unsigned>(kind)))
            row += QStringLiteral(" (hidden)");
        out << row;
    }
    // The plan layer's green square: only while a pod is dragged, so without a count.
    if (m_dragKeyShown)
        out << QStringLiteral("Fits dragged pod"); // markerMeaning(Feasible) is too wide for the key
    if (detailKeyShown())
        out << QStringLiteral("Box: one GPU, filled as allocated");
    return out;
}

bool MapLegend::detailKeyShown() const
{
    return m_detailKeyShown && fleetHasAccelerators();
}

void MapLegend::setDetailKeyShown(bool shown)
{
    if (shown == m_detailKeyShown)
        return;
    m_detailKeyShown = shown;
    setMinimumHeightPx(layoutFor(width(), height()).minimumHeight);
    update();
}

void MapLegend::setHiddenMarkerKinds(unsigned kinds)
{
    if (kinds == m_hiddenMarkerKinds)
        return;
    m_hiddenMarkerKinds = kinds;
    update();
}

void MapLegend::setDragKeyShown(bool shown)
{
    if (shown == m_dragKeyShown)
        return;
    m_dragKeyShown = shown;
    update();
}

QSize MapLegend::sizeHint() const
{
    return { kWidth, 380 };
}
QSize MapLegend::minimumSizeHint() const
{
    return { kWidth, m_minimumHeight };
}

QString MapLegend::rowTextAt(const QPoint& pos) const
{
    for (const PaintedRow& r : m_rows)
        if (r.rect.contains(pos))
            return r.text;
    return {};
}

bool MapLegend::rowElidedAt(const QPoint& pos) const
{
    for (const PaintedRow& r : m_rows)
        if (r.rect.contains(pos))
            return r.elided;
    return false;
}

bool MapLegend::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const QString text = rowTextAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void MapLegend::setMinimumHeightPx(int heightPx)
{
    if (heightPx == m_minimumHeight)
        return;
    m_minimumHeight = heightPx;
    updateGeometry();
    // updateGeometry() tells the parent nothing while the legend is hidden, and the window may
    // have hidden it for want of room that it no longer needs.
    if (isHidden() && parentWidget())
        QCoreApplication::postEvent(parentWidget(), new QEvent(QEvent::LayoutRequest));
}

QFont MapLegend::boldFont() const
{
    QFont bold = font();
    bold.setBold(true);
    return bold;
}

QFont MapLegend::captionFont() const
{
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    return small;
}

QString MapLegend::captionText() const
{
    if (m_model->metric()->id() == "gpu" && !fleetHasAccelerators())
        return QStringLiteral("requested / allocatable CPU: no node has GPUs, MIG slices or Neuron devices");
    return qs(m_model->metric()->description());
}

MapLegend::Layout MapLegend::layoutFor(int widthPx, int heightPx) const
{
    const QFontMetrics fm(font());
    const int textWidth = widthPx - 2 * kMargin;
    auto paragraphHeight = [&](const QString& text, const QFont& f) {
        return QFontMetrics(f).boundingRect(QRect(kMargin, 0, textWidth, 6 * fm.height()), Qt::TextWordWrap, text).height() + 2;
    };
    const int labelWidth = widthPx - kSwatch - 2 * kMargin - 6;
    auto labelHeight = [&](const QString& label) {
        return fm.boundingRect(QRect(0, 0, labelWidth, 8 * fm.height()), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, label).height();
    };
    const QStringList sums = totals();
    const std::vector<std::pair<int, QString>> planKey = planKeyRows();
    const QStringList key = markerKeyTexts();
    const int titleBlock = kMargin + paragraphHeight(title(), boldFont()) + (unit().isEmpty() ? 0 : paragraphHeight(unit(), font()));
    const int captionBlock = paragraphHeight(captionText(), captionFont());
    int swatchRows = 0;
    for (const Swatch& sw : swatches())
        swatchRows += std::max(kSwatch + 6, labelHeight(sw.text) + 6);
    int totalsBlock = 0;
    for (const QString& t : sums)
        totalsBlock += paragraphHeight(t, font());
    const int planHead = planKey.empty() ? 0 : 6 + fm.height() + 2;
    int planWrapped = planHead;
    for (const auto& row : planKey)
        planWrapped += std::max(kSwatch + 6, labelHeight(row.second) + 6);
    const int planOneLine = planHead + static_cast<int>(planKey.size()) * (kSwatch + 6);
    const int markerBlock = key.isEmpty() ? 0 : 6 + fm.height() + 2 + static_cast<int>(key.size()) * (kSwatch + 6);
    const bool hasBar = MetricColorScale::forColumn(*m_model->metric(), m_model->column()).kind != model::ScaleKind::Categorical;
    const int barFrame = hasBar ? fm.height() / 2 + 10 : 0;
    auto below = [&](const Layout& l) {
        return swatchRows + 4 + (l.totals ? totalsBlock : 0) + (l.markers ? markerBlock : 0) + (l.wrapPlan ? planWrapped : planOneLine);
    };
    auto heightOf = [&](const Layout& l) {
        return titleBlock + (l.caption ? captionBlock : 0) + 8 + (hasBar ? barFrame + l.bar : 0) + below(l) + kMargin;
    };
    Layout fit;
    if (planKey.empty()) {
        // No plan key: the colour bar keeps its least height and the marker key shows if it fits.
        fit = { kMinBar, !key.isEmpty(), true, true, true, 0, kMinimumHeight };
        fit.markers = fit.markers && heightOf(fit) <= heightPx;
    } else {
        const std::vector<Layout> tries = {
            { kMinBar, !key.isEmpty(), true, true, true, 0, 0 },
            { kMinBarShort, !key.isEmpty(), true, true, true, 0, 0 },
            { kMinBarShort, false, true, true, true, 0, 0 },
            { kMinBarShort, false, false, true, true, 0, 0 },
            { kMinBarShort, false, false, false, true, 0, 0 },
            { kMinBarShort, false, false, false, false, 0, 0 },
        };
        fit = tries.back();
        for (const Layout& l : tries)
            if (heightOf(l) <= heightPx) {
                fit = l;
                break;
            }
        fit.minimumHeight = std::max(kMinimumHeight, heightOf(tries.back()));
    }
    fit.belowBar = below(fit);
    return fit;
}

void MapLegend::paintEvent(QPaintEvent*)
{
    m_rows.clear();
    QPainter painter(this);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const QColor text = palette().color(QPalette::WindowText);
    painter.setPen(text);
    const QFontMetrics fm = painter.fontMetrics();
    const int textWidth = width() - 2 * kMargin;
    const Layout fit = layoutFor(width(), height());
    setMinimumHeightPx(fit.minimumHeight);
    const QFont bold = boldFont(), small = captionFont();
    const std::vector<Swatch> marks = swatches();
    const QStringList sums = totals();
    const std::vector<std::pair<int, QString>> planKey = planKeyRows();
    const QStringList key = markerKeyTexts();
    const MetricColorScale scale = MetricColorScale::forColumn(*m_model->metric(), m_model->column());
    const bool hasBar = scale.kind != model::ScaleKind::Categorical;
    const int barFrame = hasBar ? fm.height() / 2 + 10 : 0;
    // A swatch's label wraps under itself when it is wider than the legend (never elided: a
    // printed legend has no tooltip to give the rest).
    const int labelWidth = width() - kSwatch - 2 * kMargin - 6;
    auto labelHeight = [&](const QString& label) {
        return painter.boundingRect(QRect(0, 0, labelWidth, 8 * fm.height()), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, label).height();
    };

    int y = kMargin;
    auto paragraph = [&](const QString& s, const QFont& f) {
        painter.setFont(f);
        const QRect r(kMargin, y, textWidth, 6 * fm.height());
        const QRect used = painter.boundingRect(r, Qt::TextWordWrap, s);
        painter.drawText(r, Qt::TextWordWrap, s);
        y += used.height() + 2;
    };
    paragraph(title(), bold);
    if (!unit().isEmpty())
        paragraph(unit(), font());
    if (fit.caption)
        paragraph(captionText(), small);
    painter.setFont(font());
    y += 8;
    const int belowBar = fit.belowBar;
    if (hasBar) {
        // The colour bar: one line per pixel row, the highest value at the top, read from
        // the table the rasteriser uses.
        const int barHeight = std::max(fit.bar, height() - y - belowBar - kMargin - barFrame);
        const int barTop = y + fm.height() / 2;
        const ColorTable& table = colorTable(scale.kind);
        for (int i = 0; i < barHeight; ++i) {
            const double t = 1.0 - static_cast<double>(i) / std::max(1, barHeight - 1);
            painter.fillRect(
                kMargin, barTop + i, kBarWidth, 1, QColor::fromRgb(table[static_cast<std::size_t>(shareColorIndex(t))]));
        }
        painter.setPen(QColor(160, 164, 172));
        painter.drawRect(kMargin - 1, barTop - 1, kBarWidth + 1, barHeight + 1); // around the bar, not over its end rows
        painter.setPen(text);
        const QStringList ticks = tickLabels();
        for (int tick = 0; tick < ticks.size(); ++tick) {
            const int ty = barTop + (barHeight - 1) * (kTicks - 1 - tick) / (kTicks - 1);
            painter.drawLine(kMargin + kBarWidth, ty, kMargin + kBarWidth + 4, ty);
            painter.drawText(
                QRect(kMargin + kBarWidth + 8, ty - fm.height() / 2, width() - kBarWidth - 2 * kMargin - 8, fm.height()),
                Qt::AlignLeft | Qt::AlignVCenter, ticks[tick]);
        }
        y = barTop + barHeight + 10;
    }
    for (const Swatch& s : marks) {
        painter.fillRect(kMargin, y, kSwatch, kSwatch, s.colour);
        painter.setPen(QColor(160, 164, 172));
        painter.drawRect(kMargin, y, kSwatch - 1, kSwatch - 1);
        painter.setPen(text);
        const int rowHeight = std::max(kSwatch + 6, labelHeight(s.text) + 6);
        painter.drawText(QRect(kMargin + kSwatch + 6, y - 2, labelWidth, rowHeight - 2),
            rowHeight > kSwatch + 6 ? Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap : Qt::AlignLeft | Qt::AlignVCenter, s.text);
        m_rows.push_back({ QRect(0, y - 3, width(), rowHeight), s.text, false });
        y += rowHeight;
    }
    y += 4;
    // Totals wrap (user trial: "of which prepaid: $152k/h" was cut at the right edge; it is
    // "Prepaid: ..." now, which fits).
    if (fit.totals)
        for (const QString& t : sums)
            paragraph(t, font());
    // The marker key: the shapes the map draws over cells at every zoom.
    if (fit.markers) {
        y += 6;
        paragraph(QStringLiteral("Markers"), bold);
        painter.setFont(font());
        const NodeMarkerKind kinds[] = { NodeMarkerKind::NotReady, NodeMarkerKind::Cordoned, NodeMarkerKind::Problem, NodeMarkerKind::Feasible };
        for (int i = 0; i < key.size(); ++i) {
            // The detailed cells' device box, last: drawn half allocated, as the map draws one.
            const bool box = detailKeyShown() && i == key.size() - 1;
            // A kind the map does not draw now: its row greyed.
            const bool hidden = !box && (m_hiddenMarkerKinds & (1u << static_cast<unsigned>(kinds[i]))) != 0;
            painter.setOpacity(hidden ? 0.45 : 1.0);
            if (box)
                NodeDetailLayer::drawDeviceTile(painter, QRectF(kMargin + 1, y + 1, kSwatch - 2, kSwatch - 2), 0.5);
            else
                MarkerLayer::drawMarker(painter, kinds[i], QPointF(kMargin + kSwatch / 2.0, y + kSwatch / 2.0));
            painter.setPen(hidden ? palette().color(QPalette::Disabled, QPalette::WindowText) : text);
            const QString shown = fm.elidedText(key[i], Qt::ElideMiddle, width() - kSwatch - 2 * kMargin - 6);
            painter.drawText(QRect(kMargin + kSwatch + 6, y - 2, width() - kSwatch - 2 * kMargin - 6, kSwatch + 4),
                Qt::AlignLeft | Qt::AlignVCenter, shown);
            m_rows.push_back({ QRect(0, y - 3, width(), kSwatch + 6), key[i], shown != key[i] });
            y += kSwatch + 6;
        }
        painter.setOpacity(1.0);
    }
    // The plan's marks, each drawn over a not-applicable cell as a drained node shows under the
    // plan. A label wraps under itself as a swatch's does (a printed legend has no tooltip).
    // On a short map (layoutFor()) each row on one line, elided in the middle with its whole
    // text in the tooltip.
    if (!planKey.empty()) {
        const bool wrap = fit.wrapPlan;
        y += 6;
        paragraph(QStringLiteral("Plan"), bold);
        painter.setFont(font());
        for (const auto& [kind, row] : planKey) {
            const QRectF cell(kMargin, y, kSwatch, kSwatch);
            painter.fillRect(cell, notApplicableColor());
            PlanLayer::drawMark(painter, static_cast<PlanMarkKind>(kind), cell);
            painter.setPen(text);
            const int rowHeight = wrap ? std::max(kSwatch + 6, labelHeight(row) + 6) : kSwatch + 6;
            const QString shown = wrap ? row : fm.elidedText(row, Qt::ElideMiddle, labelWidth);
            painter.drawText(QRect(kMargin + kSwatch + 6, y - 2, labelWidth, rowHeight - 2),
                rowHeight > kSwatch + 6 ? Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap : Qt::AlignLeft | Qt::AlignVCenter, shown);
            m_rows.push_back({ QRect(0, y - 3, width(), rowHeight), row, shown != row });
            y += rowHeight;
        }
    }
}

} // namespace fleet::views
