// SPDX-License-Identifier: Apache-2.0
#include "domaininspector.h"

#include "model/domainpath.h"
#include "model/figures.h"
#include "views/heatmaps/utilizationhistogram.h"
#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/nodetablemodel.h"
#include "views/itemmodels/problemsmodel.h"
#include "views/map/mapmetric.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace fleet::views {

namespace {
QString count(std::int64_t n)
{
    return QString::fromStdString(model::formatCount(n));
}
QString share(double v)
{
    return QString::fromStdString(model::formatShare(v));
}
} // namespace

DomainInspector::DomainInspector(QWidget* parent)
    : QWidget(parent)
    , m_nodes(new NodeTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(6, 6, 6, 6);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("domainInspectorTitle"));
    QFont big = m_title->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_title->setFont(big);
    m_title->setWordWrap(true);
    m_figures = new QLabel(this);
    m_figures->setObjectName(QStringLiteral("domainInspectorFigures"));
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_histogram = new UtilizationHistogram(this);
    m_histogram->setMinimumHeight(140);
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter nodes by name"));
    m_filter->setClearButtonEnabled(true);
    m_proxy->setSourceModel(m_nodes);
    m_proxy->setSortRole(kSortRole);
    m_proxy->setFilterKeyColumn(NodeTableModel::NameColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("domainInspectorNodes"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(NodeTableModel::NameColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    connect(m_view, &QTableView::doubleClicked, this,
        [this](const QModelIndex& index) { emit nodeActivated(m_nodes->nodeAt(m_proxy->mapToSource(index).row())); });
    column->addWidget(m_title);
    column->addWidget(m_figures);
    column->addWidget(m_histogram);
    column->addWidget(m_filter);
    column->addWidget(m_view, 1);
    setDomain(nullptr, nullptr, {});
}

DomainInspector::~DomainInspector() = default;

void DomainInspector::setDomain(
    std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology, model::DomainId domain)
{
    m_store = std::move(store);
    m_topology = std::move(topology);
    const bool ok = m_store && m_topology && domain.isValid() && domain.index() < m_topology->domainCount();
    m_domain = ok ? domain : model::DomainId {};
    if (!ok) {
        m_aggregates = {};
        m_title->setText(tr("No domain selected"));
        m_figures->setText(tr("Click a domain's label on the map, or a row of the heatmap."));
        m_histogram->setBins({}, QString());
        m_nodes->setNodes(nullptr, {});
        return;
    }
    showAggregates();
    const QString path = domainPathText(m_topology.get(), m_domain);
    const int level = m_topology->domainLevel(m_domain);
    if (path.isEmpty())
        m_title->setText(tr("Cluster"));
    else
        m_title->setText(path + QStringLiteral("  (")
            + QString::fromStdString(model::levelUserKey(*m_topology, level)) + QLatin1Char(')'));

    const std::vector<double> shares = domainNodeShares(*m_store, *m_topology, m_domain);
    const bool accelerators = fleetHasAccelerators(*m_store, MetricKeys::find(*m_store));
    m_histogram->setBins(UtilizationBins::fromShares(shares),
        (shares.size() == 1 ? tr("%1 of %2 node") : tr("%1 of %2 nodes"))
            .arg(QString::fromUtf8(mapMetricTitle(MapMetric::GpuRequested, accelerators)),
                count(static_cast<std::int64_t>(shares.size()))));
    m_nodes->setNodes(m_store, m_topology->domainNodes(m_domain));
    if (m_nodes->rowCount() <= 2000) // resizing to contents reads every row
        m_view->resizeColumnsToContents();
}

void DomainInspector::setPlanState(std::shared_ptr<const model::PlanLedger> plan, std::shared_ptr<const model::ClusterStore> copiedFrom)
{
    m_plan = std::move(plan);
    m_planCopiedFrom = copiedFrom;
    if (m_domain.isValid())
        showAggregates();
}

void DomainInspector::showAggregates()
{
    // A plan over a copy of the shown store (a placement's: the same nodes, more pods) is read
    // with that copy, where the pods it added are.
    const bool overCopy = m_plan && &m_plan->store() != m_store.get() && m_planCopiedFrom.lock() == m_store
        && m_plan->store().nodeCount() == m_store->nodeCount();
    const model::PlanLedger* plan = m_plan && (&m_plan->store() == m_store.get() || overCopy) ? m_plan.get() : nullptr;
    m_aggregates = DomainAggregates::compute(overCopy ? m_plan->store() : *m_store, *m_topology, m_domain, nullptr, plan);
    m_figures->setText(plan ? tr("Under the plan:\n%1").arg(aggregatesText()) : aggregatesText());
}

QString DomainInspector::titleText() const
{
    return m_title->text();
}

QString DomainInspector::aggregatesText() const
{
    const DomainAggregates& a = m_aggregates;
    QStringList lines;
    lines << tr("Nodes: %1 (%2 Ready, %3 cordoned)")
                 .arg(count(static_cast<std::int64_t>(a.nodes)), count(static_cast<std::int64_t>(a.ready)),
                     count(static_cast<std::int64_t>(a.cordoned)));
    if (a.neuronDevices > 0)
        lines << tr("GPUs: %1 · Neuron devices: %2 · pods: %3")
                     .arg(count(a.gpus), count(a.neuronDevices), count(static_cast<std::int64_t>(a.pods)));
    else
        lines << tr("GPUs: %1 · pods: %2").arg(count(a.gpus), count(static_cast<std::int64_t>(a.pods)));
    lines << tr("CPU requested: %1 (%2 of %3)")
                 .arg(share(a.share(model::CoreResource::Cpu)),
                     QString::fromStdString(model::formatCpuMillicores(a.requested[model::CoreResource::Cpu])),
                     QString::fromStdString(model::formatCpuMillicores(a.allocatable[model::CoreResource::Cpu])));
    lines << tr("Memory requested: %1 (%2 of %3)")
                 .arg(share(a.share(model::CoreResource::Memory)),
                     QString::fromStdString(model::formatBytes(a.requested[model::CoreResource::Memory])),
                     QString::fromStdString(model::formatBytes(a.allocatable[model::CoreResource::Memory])));
    if (a.allocatable[model::CoreResource::Gpu] > 0)
        lines << tr("GPU requested: %1 (%2 of %3)")
                     .arg(share(a.share(model::CoreResource::Gpu)),
                         QString::fromStdString(model::formatGpuMilli(a.requested[model::CoreResource::Gpu])),
                         QString::fromStdString(model::formatGpuMilli(a.allocatable[model::CoreResource::Gpu])));
    if (a.gpus + a.neuronDevices > 0) // the Heatmap's and the map's "gpu-unallocated": the same figure
        lines << tr("Unallocated GPUs: %1 (devices with nothing requested; a partly requested one counts as allocated)")
                     .arg(count(a.unallocatedDevices));
    return lines.join(QLatin1Char('\n'));
}

} // namespace fleet::views
