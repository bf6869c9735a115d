// SPDX-License-Identifier: Apache-2.0
#include "nodeinspector.h"

#include "views/inspectors/podtableview.h"

#include "model/figures.h"
#include "views/itemmodels/idlegpusmodel.h"
#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/nodepodsmodel.h"
#include "views/itemmodels/noderesourcesmodel.h"
#include "views/itemmodels/problemsmodel.h"
#include "views/nodeview/plannodeview.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace fleet::views {

namespace {

QTableView* makeTable(QWidget* parent, QAbstractItemModel* model, QTableView* view = nullptr)
{
    if (!view)
        view = new QTableView(parent);
    view->setModel(model);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    return view;
}

QString s(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

/// How the node is bought, as its own label spells it: eks.amazonaws.com/capacityType
/// (ON_DEMAND, SPOT, CAPACITY_BLOCK), else karpenter.sh/capacity-type (on-demand, spot,
/// reserved), the labels model::nodeCapacityType() reads the price by; empty with neither.
/// Two nodes of one instance type at two prices differ here.
QString capacityLabelText(const model::ClusterStore& st, model::NodeId n)
{
    std::string_view eks, karpenter;
    for (const model::Label& l : st.nodeLabels(n)) {
        const std::string_view key = st.str(l.key);
        if (key == "eks.amazonaws.com/capacityType")
            eks = st.str(l.value);
        else if (key == "karpenter.sh/capacity-type")
            karpenter = st.str(l.value);
    }
    return s(eks.empty() ? karpenter : eks);
}

} // namespace

NodeInspector::NodeInspector(QWidget* parent)
    : QWidget(parent)
    , m_resources(new NodeResourcesModel(this))
    , m_pods(new NodePodsModel(this))
    , m_podsProxy(new QSortFilterProxyModel(this))
    , m_idle(new IdleGpusModel(this))
{
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(6, 6, 6, 6);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("nodeInspectorTitle"));
    QFont big = m_title->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_title->setFont(big);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A double-click selects the whole node name: a word selection stops at each '-' and '.'
    // of "ip-10-0-1-23.ec2.internal".
    m_title->installEventFilter(this);
    m_subtitle = new QLabel(this);
    m_subtitle->setWordWrap(true);
    m_subtitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_gpus = new QLabel(this);
    m_gpus->setObjectName(QStringLiteral("nodeInspectorGpus"));
    column->addWidget(m_title);
    column->addWidget(m_subtitle);
    column->addWidget(m_gpus);
    column->addStretch(0);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    m_resourcesView = makeTable(splitter, nullptr);
    auto* resourcesProxy = new QSortFilterProxyModel(this);
    resourcesProxy->setSortRole(kSortRole);
    resourcesProxy->setSourceModel(m_resources);
    m_resourcesView->setModel(resourcesProxy);
    m_resourcesView->setSortingEnabled(false); // resources keep their order: cpu, memory, gpu, ...
    splitter->addWidget(m_resourcesView);

    m_details = new QTreeWidget(splitter);
    m_details->setObjectName(QStringLiteral("nodeInspectorDetails"));
    m_details->setColumnCount(2);
    m_details->setHeaderLabels({ tr("Key"), tr("Value") });
    m_details->setRootIsDecorated(true);
    m_details->setAlternatingRowColors(true);
    splitter->addWidget(m_details);

    auto* podsBox = new QWidget(splitter);
    auto* podsColumn = new QVBoxLayout(podsBox);
    podsColumn->setContentsMargins(0, 0, 0, 0);
    m_podsTitle = new QLabel(podsBox);
    m_podFilter = new QLineEdit(podsBox);
    m_podFilter->setObjectName(QStringLiteral("nodeInspectorPodFilter"));
    m_podFilter->setPlaceholderText(tr("Filter pods (namespace, name, workload, phase)"));
    m_podFilter->setClearButtonEnabled(true);
    m_podsProxy->setSourceModel(m_pods);
    m_podsProxy->setSortRole(kSortRole);
    m_podsProxy->setFilterKeyColumn(-1);
    m_podsProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_podFilter, &QLineEdit::textChanged, m_podsProxy, &QSortFilterProxyModel::setFilterFixedString);
    m_podsView = makeTable(podsBox, m_podsProxy, new PodTableView(podsBox));
    m_podsView->setObjectName(QStringLiteral("nodeInspectorPods"));
    m_podsView->sortByColumn(NodePodsModel::NamespaceColumn, Qt::AscendingOrder);
    connect(m_podsView, &QTableView::doubleClicked, this,
        [this](const QModelIndex& index) { emit podActivated(m_pods->podAt(m_podsProxy->mapToSource(index).row())); });
    podsColumn->addWidget(m_podsTitle);
    podsColumn->addWidget(m_podFilter);
    podsColumn->addWidget(m_podsView, 1);
    splitter->addWidget(podsBox);

    m_idleBox = new QWidget(splitter);
    m_idleBox->setObjectName(QStringLiteral("nodeInspectorIdleGpus"));
    auto* idleColumn = new QVBoxLayout(m_idleBox);
    idleColumn->setContentsMargins(0, 0, 0, 0);
    m_idleTitle = new QLabel(m_idleBox);
    m_idleTitle->setWordWrap(true);
    auto* idleProxy = new QSortFilterProxyModel(this);
    idleProxy->setSourceModel(m_idle);
    idleProxy->setSortRole(kSortRole);
    m_idleView = makeTable(m_idleBox, idleProxy);
    m_idleView->setObjectName(QStringLiteral("nodeInspectorIdleGpusTable"));
    m_idleView->sortByColumn(IdleGpusModel::GpusColumn, Qt::DescendingOrder);
    connect(m_idleView, &QTableView::doubleClicked, this,
        [this, idleProxy](const QModelIndex& index) { emit podActivated(m_idle->podAt(idleProxy->mapToSource(index).row())); });
    idleColumn->addWidget(m_idleTitle);
    idleColumn->addWidget(m_idleView, 1);
    splitter->addWidget(m_idleBox);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 3);
    splitter->setStretchFactor(3, 1);
    column->addWidget(splitter, 1);
    m_body = splitter;

    setNode(nullptr, nullptr, {});
}

NodeInspector::~NodeInspector() = default;

void NodeInspector::setNode(
    std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology, model::NodeId node)
{
    // A plan belongs to the cluster shown when it was set: another cluster drops it. The plan's
    // ledger may be over a copy of the shown store (Plan > Place Workload: the same ids, more
    // pods), so "another cluster" is a new store here, not a plan over another store.
    if (store != m_store || (m_plan && store && m_plan->store().nodeCount() != store->nodeCount()))
        m_plan.reset();
    m_store = std::move(store);
    m_topology = std::move(topology);
    // Under a plan over a copy, the copy is what is shown: the pods the plan added are only there.
    const std::shared_ptr<const model::ClusterStore> shown
        = m_plan && m_store && &m_plan->store() != m_store.get() ? std::shared_ptr<const model::ClusterStore>(m_plan, &m_plan->store()) : m_store;
    m_node = shown && PlanNodeView { shown.get(), m_plan.get() }.exists(node) ? node : model::NodeId {};
    m_resources->setNode(shown, m_node, m_plan.get());
    m_pods->setNode(shown, m_node, m_plan);
    m_idle->setNode(m_store, m_usage, m_node);
    m_resourcesView->resizeColumnsToContents();
    m_idleView->resizeColumnsToContents();
    m_podsView->resizeColumnsToContents();
    fillDetails();
}

void NodeInspector::setPlanState(std::shared_ptr<const model::PlanLedger> plan)
{
    m_plan = std::move(plan);
    setNode(m_store, m_topology, m_node);
}

void NodeInspector::setPrices(std::vector<double> pricePerHour)
{
    m_prices = std::move(pricePerHour);
    fillDetails();
}

void NodeInspector::setUsage(std::shared_ptr<const model::ClusterUsage> usage)
{
    m_usage = std::move(usage);
    setNode(m_store, m_topology, m_node);
}

QString NodeInspector::idleGpusText() const
{
    return m_idleBox->isHidden() ? QString() : m_idleTitle->text();
}

void NodeInspector::fillDetails()
{
    m_details->clear();
    // Shown for a node with GPUs, its state "unknown" where no usage judged them (docs/usage.md:
    // no data is unknown, never idle); a node without GPUs has nothing to say here.
    m_idleBox->setVisible(m_node.isValid() && m_node.index() < m_store->nodeCount()
        && (m_store->nodeGpuCount(m_node) > 0 || m_store->nodeAllocatable(m_node)[model::CoreResource::Gpu] > 0 || m_idle->idleGpuCount() >= 0));
    if (!m_node.isValid()) {
        m_title->setText(tr("No node selected"));
        m_subtitle->setText(tr("Click a node on the map, or search for a node or pod by name."));
        m_gpus->clear();
        m_podsTitle->setText(tr("Pods"));
        m_body->hide(); // empty tables say nothing
        return;
    }
    m_body->show();
    // A plan over a copy of the store (setNode()) is read on that copy: the same nodes, more pods.
    const model::ClusterStore& st = m_plan ? m_plan->store() : *m_store;
    const PlanNodeView shown { &st, m_plan.get() };
    const bool added = shown.added(m_node);
    // An added node's store columns are its template's (allocatable, type, GPUs, price).
    const model::NodeId spec = shown.specNode(m_node);
    m_title->setText(shown.nodeName(m_node));
    QStringList facts;
    const QString path = added ? QString() : domainPathText(m_topology.get(), m_node);
    if (!path.isEmpty())
        facts << path;
    // "p5.48xlarge - CAPACITY_BLOCK - $44.24/h": the type, how it is bought, what it costs,
    // together, since the price follows from the other two.
    QStringList bought;
    if (!st.nodeInstanceType(spec).empty())
        bought << s(st.nodeInstanceType(spec));
    if (const QString capacity = capacityLabelText(st, spec); !capacity.isEmpty())
        bought << capacity;
    if (spec.index() < m_prices.size() && m_prices[spec.index()] > 0)
        bought << (added ? tr("$%1/h (its template's price)") : tr("$%1/h")).arg(m_prices[spec.index()], 0, 'f', 2);
    if (!bought.isEmpty())
        facts << bought.join(QStringLiteral(" - "));
    const model::Readiness ready = added ? m_plan->nodeReadiness(m_node) : st.nodeReadiness(m_node);
    facts << (ready == model::Readiness::True ? tr("Ready") : tr("NotReady (Ready %1)").arg(s(model::readinessName(ready))));
    if (!added && st.nodeUnschedulable(m_node))
        facts << tr("cordoned");
    if (const QString planned = shown.planStateText(m_node); !planned.isEmpty())
        facts << planned;
    m_subtitle->setText(facts.join(QStringLiteral(" \u00b7 ")));

    // GPUs: whole nvidia.com/gpu where allocatable; else the accelerator resources the node
    // advertises instead (MIG slices, Neuron devices), each as requested of allocatable.
    const std::int32_t gpuCount = st.nodeGpuCount(spec);
    const std::int64_t gpuAllocatable = st.nodeAllocatable(spec)[model::CoreResource::Gpu];
    QString gpuLine;
    if (gpuCount > 0 || gpuAllocatable > 0 || !st.nodeGpuModel(spec).empty()) {
        gpuLine = gpuCount == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(gpuCount);
        if (!st.nodeGpuModel(spec).empty())
            gpuLine += QStringLiteral(" (") + s(st.nodeGpuModel(spec)) + QLatin1Char(')');
        if (gpuAllocatable > 0)
            gpuLine += tr(", %1 allocated of %2 allocatable")
                           .arg(QString::fromStdString(model::formatGpuMilli(shown.nodeRequested(m_node)[model::CoreResource::Gpu])),
                               QString::fromStdString(model::formatGpuMilli(gpuAllocatable)));
    }
    QStringList devices;
    for (const auto& [key, allocatable] : st.nodeExtendedAllocatable(spec)) {
        const std::string& name = st.resources().name(key);
        const bool accelerator
            = name.starts_with("nvidia.com/mig-") || name == "aws.amazon.com/neuron" || name == "aws.amazon.com/neurondevice";
        if (accelerator && allocatable > 0)
            devices << tr("%1 %2 of %3 allocated")
                           .arg(QString::fromStdString(name),
                               QString::fromStdString(model::formatCount(shown.nodeExtendedRequested(m_node, key))),
                               QString::fromStdString(model::formatCount(allocatable)));
    }
    if (!devices.isEmpty())
        gpuLine += (gpuLine.isEmpty() ? QString() : QStringLiteral("; ")) + devices.join(QStringLiteral("; "));
    m_gpus->setText(gpuLine.isEmpty() ? tr("No GPUs") : gpuLine);
    m_gpus->setWordWrap(true);

    auto section = [this](const QString& title, int count) {
        auto* item = new QTreeWidgetItem(m_details, { QStringLiteral("%1 (%2)").arg(title).arg(count) });
        QFont f = item->font(0);
        f.setBold(true);
        item->setFont(0, f);
        item->setFirstColumnSpanned(true);
        item->setExpanded(count > 0);
        return item;
    };
    const auto labels = shown.labels(m_node);
    QTreeWidgetItem* labelItem = section(tr("Labels"), static_cast<int>(labels.size()));
    for (const auto& [key, value] : labels)
        new QTreeWidgetItem(labelItem, { key, value });
    const auto taints = shown.taints(m_node); // with the plan's cordon, when it drained the node
    QTreeWidgetItem* taintItem = section(tr("Taints"), static_cast<int>(taints.size()));
    for (const auto& [key, value] : taints)
        new QTreeWidgetItem(taintItem, { key, value });
    // An added node has no status of its own: its template's conditions are not its.
    const auto conditions = added ? std::span<const model::NodeCondition> {} : st.nodeConditions(m_node);
    QTreeWidgetItem* conditionItem = section(tr("Conditions"), static_cast<int>(conditions.size()));
    for (const model::NodeCondition& c : conditions) {
        QString value = s(model::readinessName(c.status));
        if (!st.str(c.reason).empty())
            value += QStringLiteral(" (") + s(st.str(c.reason)) + QLatin1Char(')');
        if (c.lastTransitionUnixSeconds != 0)
            value += QStringLiteral(" since ") + isoTimeText(c.lastTransitionUnixSeconds);
        if (!st.str(c.message).empty())
            value += QStringLiteral(": ") + s(st.str(c.message));
        auto* item = new QTreeWidgetItem(conditionItem, { s(st.str(c.type)), value });
        item->setToolTip(1, value);
    }
    m_details->resizeColumnToContents(0);
    m_idleTitle->setText(tr("Allocated but idle GPUs: %1").arg(m_idle->idleGpusText()));
    m_idleView->setVisible(m_idle->rowCount() > 0);
    m_podsTitle->setText(tr("Pods (%1)").arg(QString::fromStdString(model::formatCount(m_pods->rowCount()))));
}

QString NodeInspector::headerText() const
{
    return m_title->text() + QLatin1Char('\n') + m_subtitle->text();
}

QString NodeInspector::gpuText() const
{
    return m_gpus->text();
}

bool NodeInspector::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_title && event->type() == QEvent::MouseButtonDblClick
        && static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton && m_node.isValid()) {
        m_title->setSelection(0, static_cast<int>(m_title->text().size()));
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

QString NodeInspector::selectedTitleText() const
{
    return m_title->selectedText();
}

bool NodeInspector::selectPod(model::PodId pod)
{
    if (!pod.isValid())
        return false;
    for (int row = 0; row < m_pods->rowCount(); ++row) {
        if (m_pods->podAt(row) != pod)
            continue;
        QModelIndex shown = m_podsProxy->mapFromSource(m_pods->index(row, 0));
        if (!shown.isValid()) { // hidden by the filter line: the pod asked for comes first
            m_podFilter->clear();
            shown = m_podsProxy->mapFromSource(m_pods->index(row, 0));
        }
        if (!shown.isValid())
            return false;
        m_podsView->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_podsView->scrollTo(shown, QAbstractItemView::PositionAtCenter);
        return true;
    }
    return false;
}

model::PodId NodeInspector::selectedPod() const
{
    const QModelIndex current = m_podsView->selectionModel()->currentIndex();
    if (!current.isValid())
        return {};
    return m_pods->podAt(m_podsProxy->mapToSource(current).row());
}

} // namespace fleet::views
