// SPDX-License-Identifier: Apache-2.0
#include "pendingshapesmodel.h"

#include "itemmodelroles.h"

#include "model/figures.h"

#include <QFont>

#include <limits>

namespace fleet::views {

namespace {
constexpr auto kCpu = static_cast<model::ResourceKey>(model::CoreResource::Cpu);
constexpr auto kMemory = static_cast<model::ResourceKey>(model::CoreResource::Memory);
constexpr auto kGpu = static_cast<model::ResourceKey>(model::CoreResource::Gpu);
} // namespace

PendingShapesModel::PendingShapesModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void PendingShapesModel::setShapes(std::shared_ptr<const model::ClusterStore> store, std::vector<model::PendingShape> shapes)
{
    beginResetModel();
    m_store = std::move(store);
    m_rows = m_store ? std::move(shapes) : std::vector<model::PendingShape> {};
    m_total = {};
    m_totalPods = 0;
    m_totalGated = 0;
    for (const auto& s : m_rows) {
        m_total += s.total;
        m_totalPods += s.podCount;
        m_totalGated += s.gatedPods;
    }
    endResetModel();
}

const model::PendingShape* PendingShapesModel::shapeAt(int row) const noexcept
{
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? &m_rows[static_cast<std::size_t>(row)] : nullptr;
}

int PendingShapesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_rows.empty() ? 0 : static_cast<int>(m_rows.size()) + 1;
}

int PendingShapesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PendingShapesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_store)
        return {};
    const int column = index.column();
    const bool totals = isTotalsRow(index.row());
    if (role == Qt::FontRole && totals) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::TextAlignmentRole)
        return column == GpuModelColumn || column == ReasonColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != kSortRole && role != Qt::ToolTipRole)
        return {};
    const bool sort = role == kSortRole;
    auto amount = [&](model::ResourceKey key, std::int64_t v) -> QVariant {
        return sort ? QVariant(qint64(v)) : QVariant(formatResourceAmount(*m_store, key, v));
    };
    auto count = [&](std::size_t v) -> QVariant {
        return sort ? QVariant(qint64(v)) : QVariant(QString::fromStdString(model::formatCount(static_cast<std::int64_t>(v))));
    };
    if (totals) {
        // Sorts after every shape in ascending order, whatever the column.
        if (sort && column != PodsColumn && column != TotalCpuColumn && column != TotalMemoryColumn && column != TotalGpuColumn
            && column != GatedColumn)
            return column == GpuModelColumn || column == ReasonColumn ? QVariant(QStringLiteral("\U0010FFFF"))
                                                                      : QVariant(std::numeric_limits<qint64>::max());
        switch (column) {
        case PodsColumn:
            return count(m_totalPods);
        case TotalCpuColumn:
            return amount(kCpu, m_total[model::CoreResource::Cpu]);
        case TotalMemoryColumn:
            return amount(kMemory, m_total[model::CoreResource::Memory]);
        case TotalGpuColumn:
            return amount(kGpu, m_total[model::CoreResource::Gpu]);
        case GatedColumn:
            return count(m_totalGated);
        case ReasonColumn:
            return m_rows.size() == 1 ? tr("Total (1 shape)") : tr("Total (%1 shapes)").arg(m_rows.size());
        default:
            return QString();
        }
    }
    const model::PendingShape& s = m_rows[static_cast<std::size_t>(index.row())];
    switch (column) {
    case PodsColumn:
        return count(s.podCount);
    case CpuColumn:
        return amount(kCpu, s.request[model::CoreResource::Cpu]);
    case MemoryColumn:
        return amount(kMemory, s.request[model::CoreResource::Memory]);
    case GpuColumn:
        if (!sort && s.request[model::CoreResource::Gpu] == 0)
            return QString();
        return amount(kGpu, s.request[model::CoreResource::Gpu]);
    case GpuModelColumn:
        return QString::fromStdString(s.gpuModel);
    case TotalCpuColumn:
        return amount(kCpu, s.total[model::CoreResource::Cpu]);
    case TotalMemoryColumn:
        return amount(kMemory, s.total[model::CoreResource::Memory]);
    case TotalGpuColumn:
        if (!sort && s.total[model::CoreResource::Gpu] == 0)
            return QString();
        return amount(kGpu, s.total[model::CoreResource::Gpu]);
    case ReasonColumn:
        if (!s.reason.empty())
            return QString::fromStdString(s.reason);
        // No PodScheduled message in the input: say what is known instead of nothing.
        if (s.gatedPods == s.podCount)
            return tr("Held by their scheduling gates (spec.schedulingGates): no scheduler has tried them");
        return tr("Unbound: no node in the input and no scheduler message (a trace binds no pod). "
                  "Plan > Consolidate places them first, or Plan > Place Workload");
    case GatedColumn:
        if (!sort && s.gatedPods == 0)
            return QString();
        return count(s.gatedPods);
    default:
        return {};
    }
}

QVariant PendingShapesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case PodsColumn:
        return tr("Pods");
    case CpuColumn:
        return tr("CPU / pod");
    case MemoryColumn:
        return tr("Memory / pod");
    case GpuColumn:
        return tr("GPU / pod");
    case GpuModelColumn:
        return tr("GPU model");
    case TotalCpuColumn:
        return tr("CPU total");
    case TotalMemoryColumn:
        return tr("Memory total");
    case TotalGpuColumn:
        return tr("GPU total");
    case ReasonColumn:
        return tr("Reason");
    case GatedColumn:
        return tr("Gated");
    default:
        return {};
    }
}

} // namespace fleet::views
