// SPDX-License-Identifier: Apache-2.0
#include "noderesourcesmodel.h"

#include "itemmodelroles.h"

#include "views/nodeview/plannodeview.h"

namespace fleet::views {

NodeResourcesModel::NodeResourcesModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void NodeResourcesModel::setNode(std::shared_ptr<const model::ClusterStore> store, model::NodeId node, const model::PlanLedger* plan)
{
    beginResetModel();
    m_store = std::move(store);
    m_rows.clear();
    if (m_store && PlanNodeView { m_store.get(), plan }.exists(node)) {
        const PlanNodeView shown { m_store.get(), plan };
        const model::NodeId spec = shown.specNode(node); // an added node: its template's figures
        const auto& alloc = m_store->nodeAllocatable(spec);
        const auto& cap = m_store->nodeCapacity(spec);
        const auto& req = shown.nodeRequested(node);
        for (std::size_t i = 0; i < model::kCoreResourceCount; ++i) {
            const auto r = static_cast<model::CoreResource>(i);
            // A CPU node has no GPU row: "0 of 0 GPUs" says nothing.
            if (r == model::CoreResource::Gpu && cap[r] == 0 && alloc[r] == 0 && req[r] == 0)
                continue;
            m_rows.push_back({ static_cast<model::ResourceKey>(i), alloc[r], cap[r], req[r] });
        }
        const auto extAlloc = m_store->nodeExtendedAllocatable(spec);
        const auto extCap = m_store->nodeExtendedCapacity(spec);
        for (std::size_t i = 0; i < extAlloc.size(); ++i) {
            const model::ResourceKey key = extAlloc[i].first;
            m_rows.push_back({ key, extAlloc[i].second, i < extCap.size() ? extCap[i].second : extAlloc[i].second,
                shown.nodeExtendedRequested(node, key) });
        }
    }
    endResetModel();
}

int NodeResourcesModel::rowOf(const QString& name) const
{
    if (!m_store)
        return -1;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (resourceName(*m_store, m_rows[i].key) == name)
            return static_cast<int>(i);
    return -1;
}

int NodeResourcesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int NodeResourcesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeResourcesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_store)
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() == ResourceColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != kSortRole)
        return {};
    const bool sort = role == kSortRole;
    switch (index.column()) {
    case ResourceColumn:
        return resourceName(*m_store, row.key);
    case AllocatableColumn:
        return sort ? QVariant(qint64(row.allocatable)) : QVariant(formatResourceAmount(*m_store, row.key, row.allocatable));
    case CapacityColumn:
        return sort ? QVariant(qint64(row.capacity)) : QVariant(formatResourceAmount(*m_store, row.key, row.capacity));
    case RequestedColumn:
        return sort ? QVariant(qint64(row.requested)) : QVariant(formatResourceAmount(*m_store, row.key, row.requested));
    case ShareColumn: {
        const double share = requestedShare(row.requested, row.allocatable);
        return sort ? QVariant(shareSortValue(share)) : QVariant(shareText(share));
    }
    default:
        return {};
    }
}

QVariant NodeResourcesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ResourceColumn:
        return tr("Resource");
    case AllocatableColumn:
        return tr("Allocatable");
    case CapacityColumn:
        return tr("Capacity");
    case RequestedColumn:
        return tr("Requested");
    case ShareColumn:
        return tr("Share");
    default:
        return {};
    }
}

} // namespace fleet::views
