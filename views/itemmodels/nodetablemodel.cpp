// SPDX-License-Identifier: Apache-2.0
#include "nodetablemodel.h"

#include "itemmodelroles.h"

#include "model/figures.h"

namespace fleet::views {

NodeTableModel::NodeTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void NodeTableModel::setNodes(std::shared_ptr<const model::ClusterStore> store, std::span<const model::NodeId> nodes)
{
    beginResetModel();
    m_store = std::move(store);
    m_rows.clear();
    if (m_store)
        for (model::NodeId n : nodes)
            if (n.isValid() && n.index() < m_store->nodeCount())
                m_rows.push_back(n);
    endResetModel();
}

model::NodeId NodeTableModel::nodeAt(int row) const noexcept
{
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? m_rows[static_cast<std::size_t>(row)] : model::NodeId {};
}

int NodeTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int NodeTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NodeTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_store)
        return {};
    const model::NodeId n = m_rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column >= CpuShareColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    if (role != Qt::DisplayRole && role != kSortRole)
        return {};
    const bool sort = role == kSortRole;
    auto share = [&](model::CoreResource r) -> QVariant {
        const double s = requestedShare(m_store->nodeRequested(n)[r], m_store->nodeAllocatable(n)[r]);
        return sort ? QVariant(shareSortValue(s)) : QVariant(shareText(s));
    };
    switch (column) {
    case NameColumn:
        return QString::fromUtf8(m_store->nodeName(n));
    case ReadyColumn:
        return sort ? QVariant(int(m_store->nodeReadiness(n)))
                    : QVariant(QString::fromUtf8(model::readinessName(m_store->nodeReadiness(n))));
    case CordonedColumn:
        return sort ? QVariant(int(m_store->nodeUnschedulable(n)))
                    : QVariant(m_store->nodeUnschedulable(n) ? tr("Yes") : QString());
    case CpuShareColumn:
        return share(model::CoreResource::Cpu);
    case MemoryShareColumn:
        return share(model::CoreResource::Memory);
    case GpuShareColumn:
        return share(model::CoreResource::Gpu);
    case GpusColumn:
        return sort ? QVariant(qint64(m_store->nodeGpuCount(n)))
                    : QVariant(QString::fromStdString(model::formatCount(m_store->nodeGpuCount(n))));
    case PodsColumn: {
        const auto pods = static_cast<qint64>(m_store->nodePods(n).size());
        return sort ? QVariant(pods) : QVariant(QString::fromStdString(model::formatCount(pods)));
    }
    default:
        return {};
    }
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Node");
    case ReadyColumn:
        return tr("Ready");
    case CordonedColumn:
        return tr("Cordoned");
    case CpuShareColumn:
        return tr("CPU requested");
    case MemoryShareColumn:
        return tr("Memory requested");
    case GpuShareColumn:
        return tr("GPU requested");
    case GpusColumn:
        return tr("GPUs");
    case PodsColumn:
        return tr("Pods");
    default:
        return {};
    }
}

} // namespace fleet::views
