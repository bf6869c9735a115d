// SPDX-License-Identifier: Apache-2.0
#include "nodepodsmodel.h"

#include "itemmodelroles.h"
#include "views/map/podmime.h"

#include "views/nodeview/plannodeview.h"

#include <algorithm>

namespace fleet::views {

NodePodsModel::NodePodsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void NodePodsModel::setNode(
    std::shared_ptr<const model::ClusterStore> store, model::NodeId node, std::shared_ptr<const model::PlanLedger> planLedger)
{
    beginResetModel();
    m_plan = std::move(planLedger);
    const model::PlanLedger* plan = m_plan.get();
    m_store = std::move(store);
    // A plan over a copy of the store with its template pods (Plan > Place Workload,
    // ClusterStore::clone(): the same ids and more pods): the added pods' specs are read there.
    // The pointer to that copy shares the plan's ownership, so the model keeps what it reads.
    if (plan && m_store && &plan->store() != m_store.get())
        m_store = std::shared_ptr<const model::ClusterStore>(m_plan, &plan->store());
    m_node = node;
    m_rows.clear();
    m_specs.clear();
    m_addedNames.clear();
    m_extended.clear();
    if (m_store && PlanNodeView { m_store.get(), plan }.exists(node)) {
        m_rows = PlanNodeView { m_store.get(), plan }.nodePods(node, true);
        for (model::PodId p : m_rows) {
            const bool added = plan && plan->podAdded(p);
            m_specs.push_back(added ? plan->podTemplate(p) : p);
            m_addedNames.push_back(added ? QString::fromUtf8(plan->podName(p).data(), static_cast<qsizetype>(plan->podName(p).size())) : QString());
        }
        for (model::PodId p : m_specs)
            for (const auto& [key, amount] : m_store->podExtendedRequest(p))
                if (std::find(m_extended.begin(), m_extended.end(), key) == m_extended.end())
                    m_extended.push_back(key);
        std::sort(m_extended.begin(), m_extended.end());
    } else {
        m_node = {};
    }
    endResetModel();
}

model::PodId NodePodsModel::podAt(int row) const noexcept
{
    if (row < 0 || row >= static_cast<int>(m_rows.size()) || !m_addedNames[static_cast<std::size_t>(row)].isEmpty())
        return {};
    return m_rows[static_cast<std::size_t>(row)];
}

int NodePodsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int NodePodsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : priorityColumn() + 1;
}

std::int64_t NodePodsModel::amount(model::PodId pod, int column) const noexcept
{
    const auto& req = m_store->podRequest(pod);
    switch (column) {
    case CpuColumn:
        return req[model::CoreResource::Cpu];
    case MemoryColumn:
        return req[model::CoreResource::Memory];
    case GpuColumn:
        return req[model::CoreResource::Gpu];
    default:
        break;
    }
    const model::ResourceKey key = m_extended[static_cast<std::size_t>(column - FirstExtendedColumn)];
    for (const auto& [k, v] : m_store->podExtendedRequest(pod))
        if (k == key)
            return v;
    return 0;
}

QVariant NodePodsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_store)
        return {};
    const model::PodId pod = m_specs[static_cast<std::size_t>(index.row())]; // the columns' pod
    const QString& addedName = m_addedNames[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column >= CpuColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    if (role != Qt::DisplayRole && role != kSortRole && role != Qt::ToolTipRole)
        return {};
    switch (column) {
    case NamespaceColumn:
        return QString::fromUtf8(m_store->podNamespace(pod));
    case NameColumn:
        return addedName.isEmpty() ? QString::fromUtf8(m_store->podName(pod)) : addedName;
    case WorkloadColumn: {
        const model::WorkloadId w = m_store->podWorkload(pod);
        if (!w.isValid())
            return QString();
        return QString::fromUtf8(model::ownerKindName(m_store->workloadKind(w))) + QLatin1Char('/')
            + QString::fromUtf8(m_store->workloadName(w));
    }
    case PhaseColumn:
        if (!addedName.isEmpty())
            return tr("Planned (added by the plan)");
        // As kubectl's STATUS column: a pod with a deletionTimestamp is "Terminating" whatever
        // its phase; the tooltip keeps the phase.
        if (m_store->podFlags(pod) & model::PodFlagTerminating)
            return role == Qt::ToolTipRole ? tr("Terminating (deletionTimestamp set; phase %1)").arg(QString::fromUtf8(model::podPhaseName(m_store->podPhase(pod))))
                                           : tr("Terminating");
        return QString::fromUtf8(model::podPhaseName(m_store->podPhase(pod)));
    default:
        break;
    }
    if (column == priorityColumn())
        return role == kSortRole ? QVariant(qint64(m_store->podPriority(pod)))
                                 : QVariant(QString::number(m_store->podPriority(pod)));
    const std::int64_t v = amount(pod, column);
    if (role == kSortRole)
        return qint64(v);
    const model::ResourceKey key = column < FirstExtendedColumn
        ? static_cast<model::ResourceKey>(column == CpuColumn ? model::CoreResource::Cpu
                : column == MemoryColumn                      ? model::CoreResource::Memory
                                                              : model::CoreResource::Gpu)
        : m_extended[static_cast<std::size_t>(column - FirstExtendedColumn)];
    return formatResourceAmount(*m_store, key, v);
}

Qt::ItemFlags NodePodsModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && podAt(index.row()).isValid())
        f |= Qt::ItemIsDragEnabled;
    return f;
}

QStringList NodePodsModel::mimeTypes() const
{
    return { QString::fromLatin1(kPodMimeType) };
}

QMimeData* NodePodsModel::mimeData(const QModelIndexList& indexes) const
{
    for (const QModelIndex& index : indexes)
        if (index.isValid() && index.model() == this && m_store && podAt(index.row()).isValid())
            return makePodMimeData(*m_store, podAt(index.row()));
    return nullptr;
}

QVariant NodePodsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NamespaceColumn:
        return tr("Namespace");
    case NameColumn:
        return tr("Name");
    case WorkloadColumn:
        return tr("Workload");
    case PhaseColumn:
        return tr("Phase");
    case CpuColumn:
        return tr("CPU");
    case MemoryColumn:
        return tr("Memory");
    case GpuColumn:
        return tr("GPU");
    default:
        break;
    }
    if (section == priorityColumn())
        return tr("Priority");
    if (!m_store)
        return {};
    return resourceName(*m_store, m_extended[static_cast<std::size_t>(section - FirstExtendedColumn)]);
}

} // namespace fleet::views
