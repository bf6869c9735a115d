// SPDX-License-Identifier: Apache-2.0
#include "heatmappanel.h"

#include "model/domainpath.h"
#include "domainaggregates.h"
#include "domainheatmap.h"
#include "utilizationhistogram.h"
#include "views/map/maplegend.h"

#include "model/figures.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace fleet::views {

namespace {
// The table's scroll area asks for its whole width up to this much: more would squeeze a dock
// beside the Heatmap (the Plan dock, to about 140 px in a trial); the table scrolls beyond.
constexpr int kMinTableWidthPx = 480;
} // namespace

HeatmapPanel::HeatmapPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 4, 4, 4);
    auto* left = new QVBoxLayout;
    auto* chooser = new QHBoxLayout;
    auto* label = new QLabel(tr("Domains by"), this);
    m_level = new QComboBox(this);
    m_level->setObjectName(QStringLiteral("heatmapLevel"));
    chooser->addWidget(label);
    chooser->addWidget(m_level, 1);
    left->addLayout(chooser);
    m_scope = new QLabel(this);
    m_scope->setObjectName(QStringLiteral("heatmapScope"));
    m_scope->setWordWrap(true);
    m_scope->hide();
    left->addWidget(m_scope);
    m_heatmap = new DomainHeatmap(this);
    m_heatmap->setObjectName(QStringLiteral("domainHeatmap"));
    m_scroll = new QScrollArea(this);
    m_scroll->setWidget(m_heatmap);
    m_scroll->setWidgetResizable(false);
    // The header's titles are drawn in the part of each column in view (headerTextRect()): a
    // scroll moves them, which the scroll's copy of the pixels does not.
    connect(m_scroll->horizontalScrollBar(), &QScrollBar::valueChanged, m_heatmap, [this] {
        m_heatmap->update(0, 0, m_heatmap->width(), m_heatmap->headerRect(-1).bottom() + 1);
    });
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    left->addWidget(m_scroll, 1);
    row->addLayout(left, 0);
    m_histogram = new UtilizationHistogram(this);
    m_histogram->setObjectName(QStringLiteral("fleetHistogram"));
    row->addWidget(m_histogram, 1);
    connect(m_level, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            setLevel(index + 1);
    });
    connect(m_heatmap, &DomainHeatmap::domainActivated, this, &HeatmapPanel::domainActivated);
    m_liveRefresh = new QTimer(this);
    m_liveRefresh->setSingleShot(true);
    m_liveRefresh->setInterval(kLiveRefreshMs);
    connect(m_liveRefresh, &QTimer::timeout, this, [this] {
        if (m_figuresStale && isVisible())
            refreshFigures(); // hidden: showEvent() computes them when the panel is next shown
    });
}

void HeatmapPanel::setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology)
{
    m_store = std::move(store);
    m_topology = std::move(topology);
    const QSignalBlocker block(m_level);
    m_level->clear();
    int initial = 1;
    if (m_topology) {
        const auto& keys = m_topology->levelKeys();
        for (std::size_t i = 0; i < keys.size(); ++i)
            m_level->addItem(QString::fromStdString(model::levelUserKey(*m_topology, static_cast<int>(i) + 1)));
        // The first level that splits the fleet (one region says nothing).
        for (int l = 1; l <= static_cast<int>(keys.size()); ++l)
            if (domainsAtLevel(*m_topology, l).size() > 1) {
                initial = l;
                break;
            }
    }
    if (m_level->count() > 0)
        m_level->setCurrentIndex(initial - 1);
    setLevel(initial);
    updateHistogram();
}

void HeatmapPanel::updateHistogram()
{
    if (m_store && m_topology) {
        const std::vector<double> shares = domainNodeShares(*m_store, *m_topology, m_topology->root());
        const bool accelerators = fleetHasAccelerators(*m_store, MetricKeys::find(*m_store));
        m_histogram->setBins(UtilizationBins::fromShares(shares),
            (shares.size() == 1 ? tr("%1 of %2 node") : tr("%1 of all %2 nodes"))
                .arg(QString::fromUtf8(mapMetricTitle(MapMetric::GpuRequested, accelerators)),
                    QString::fromStdString(model::formatCount(static_cast<std::int64_t>(shares.size())))));
    } else {
        m_histogram->setBins({}, QString());
    }
}

void HeatmapPanel::refreshFigures()
{
    m_figuresStale = false;
    if (m_legend && m_legend->context())
        m_heatmap->setMetricContext(m_legend->context());
    updateHistogram();
}

void HeatmapPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_figuresStale)
        refreshFigures();
}

void HeatmapPanel::followLegend(MapLegend* legend)
{
    disconnect(m_legendConnection);
    disconnect(m_contextConnection);
    m_legend = legend;
    m_legendContext = nullptr;
    if (!legend)
        return;
    auto follow = [this] {
        if (!m_legend)
            return;
        bool storeChanged = std::exchange(m_storeChanged, false);
        if (m_legend->context().get() != m_legendContext) {
            m_legendContext = m_legend->context().get();
            storeChanged = true;
            m_heatmap->setMetricContext(m_legend->context());
        }
        // The same fleet and store, new values of the metric (a plan change): only its column.
        if (storeChanged)
            m_heatmap->setChosenMetric(m_legend->currentMetric(), m_legend->column());
        else
            m_heatmap->setChosenValues(m_legend->currentMetric(), m_legend->column());
        m_scroll->setMinimumWidth(std::min(m_heatmap->sizeHint().width() + 24, kMinTableWidthPx));
    };
    m_legendConnection = connect(legend, &MapLegend::columnChanged, this, follow);
    // The same context set again: its store changed (a live batch). A new context is
    // follow()'s, at once.
    m_contextConnection = connect(legend, &MapLegend::contextChanged, this, [this] {
        if (!m_legend || m_legend->context().get() != m_legendContext)
            return;
        m_storeChanged = true; // the columnChanged() that follows sums every column again
        m_figuresStale = true;
        if (!m_liveRefresh->isActive())
            m_liveRefresh->start();
    });
    m_storeChanged = true; // another legend: every column
    follow();
}

void HeatmapPanel::setLevel(int level)
{
    m_heatmap->setCluster(m_store, m_topology, level);
    m_heatmap->resize(m_heatmap->sizeHint());
    m_scroll->setMinimumWidth(std::min(m_heatmap->sizeHint().width() + 24, kMinTableWidthPx));
}

void HeatmapPanel::setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask)
{
    if (mask) {
        const auto kept = static_cast<std::int64_t>(std::count_if(mask->begin(), mask->end(), [](std::uint8_t m) { return m != 0; }));
        m_scope->setText(tr("Label filter: the domains' figures are over the %1 nodes it keeps (the histogram: every node).")
                             .arg(QString::fromStdString(model::formatCount(kept))));
    } else {
        m_scope->clear();
    }
    m_scope->setVisible(mask != nullptr);
    m_heatmap->setNodeMask(std::move(mask));
    m_heatmap->resize(m_heatmap->sizeHint());
}

QString HeatmapPanel::scopeText() const
{
    return m_scope->text();
}

} // namespace fleet::views
