// SPDX-License-Identifier: Apache-2.0
#include "placedpodsmodel.h"

#include <algorithm>

#include "model/figures.h"

namespace fleet::views {

namespace {

QString qs(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

} // namespace

PlacedPodsModel::PlacedPodsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void PlacedPodsModel::setPlan(std::shared_ptr<const model::PlanEngine> engine)
{
    m_engine = std::move(engine);
    m_scanned = 0;
    refresh();
}

void PlacedPodsModel::refresh(std::size_t unchangedBefore)
{
    beginResetModel();
    const std::size_t applied = m_engine ? m_engine->applied().size() : 0;
    const std::size_t from = std::min({ unchangedBefore, m_scanned, applied });
    while (!m_rows.empty() && m_rows.back().action >= from)
        m_rows.pop_back();
    if (m_engine)
        for (std::size_t i = from; i < applied; ++i)
            for (const model::PodId p : m_engine->applied()[i].podsAdded)
                m_rows.push_back({ p, i });
    m_scanned = applied;
    endResetModel();
}

model::PodId PlacedPodsModel::podAt(int row) const noexcept
{
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? m_rows[static_cast<std::size_t>(row)].pod : model::PodId {};
}

int PlacedPodsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int PlacedPodsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlacedPodsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_engine
        || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const model::PlanLedger& state = m_engine->state();
    const model::ClusterStore& store = state.store();
    const model::AppliedAction& a = m_engine->applied()[row.action];
    const model::PodId spec = state.podTemplate(row.pod);
    switch (index.column()) {
    case PodColumn:
        return qs(store.podNamespace(spec)) + QLatin1Char('/') + qs(state.podName(row.pod));
    case NodeColumn: {
        const model::NodeId n = state.podNode(row.pod);
        return n.isValid() ? qs(state.nodeName(n)) : tr("(none)");
    }
    case DomainColumn:
        return a.topologyDomains.size() == 1 ? QString::fromStdString(a.topologyDomains.front())
                                             : tr("%1: %2 domains").arg(QString::fromStdString(a.topologyLevel)).arg(a.topologyDomains.size());
    case RequestsColumn: {
        const model::ResourceVector& r = store.podRequest(spec);
        QString text = tr("%1 CPU, %2").arg(qs(model::formatCpuMillicores(r[model::CoreResource::Cpu])), qs(model::formatBytes(r[model::CoreResource::Memory])));
        if (r[model::CoreResource::Gpu] > 0)
            text += tr(", %1 GPU").arg(qs(model::formatGpus(r[model::CoreResource::Gpu])));
        return text;
    }
    case ActionColumn:
        return static_cast<qlonglong>(row.action + 1);
    default:
        return {};
    }
}

QVariant PlacedPodsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case PodColumn:
        return tr("Placed pod");
    case NodeColumn:
        return tr("Node");
    case DomainColumn:
        return tr("Domain");
    case RequestsColumn:
        return tr("Requests");
    case ActionColumn:
        return tr("Action");
    default:
        return {};
    }
}

} // namespace fleet::views
