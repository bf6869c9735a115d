// SPDX-License-Identifier: Apache-2.0
// The pods holding a node's allocated-but-idle GPUs (idlegpusmodel.h).
#include "views/itemmodels/idlegpusmodel.h"

#include "model/figures.h"
#include "model/metrics/usagemetrics.h"
#include "views/itemmodels/itemmodelroles.h"
#include "views/itemmodels/problemsmodel.h"

#include <algorithm>
#include <cmath>

namespace fleet::views {

IdleGpusModel::IdleGpusModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void IdleGpusModel::setNode(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::ClusterUsage> usage, model::NodeId node)
{
    beginResetModel();
    m_store = std::move(store);
    m_usage = std::move(usage);
    m_rows.clear();
    m_idleCount = -1;
    m_hasNode = m_store && node.isValid() && node.index() < m_store->nodeCount();
    if (m_store && m_usage && node.isValid() && m_usage->nodeCount() == m_store->nodeCount() && node.index() < m_usage->nodeCount()) {
        m_idleCount = m_usage->idleAllocatedGpus[node.index()];
        // idleGpus is sorted by node: the node's range, grouped by pod.
        const auto& all = m_usage->idleGpus;
        const auto first = std::lower_bound(
            all.begin(), all.end(), node, [](const model::IdleGpu& g, model::NodeId n) { return g.node < n; });
        const auto last
            = std::upper_bound(first, all.end(), node, [](model::NodeId n, const model::IdleGpu& g) { return n < g.node; });
        for (auto it = first; it != last; ++it) {
            if (it->pod.index() >= m_store->podCount())
                continue; // a usage read for another snapshot: nothing guessed
            auto row = std::find_if(m_rows.begin(), m_rows.end(), [&](const Row& r) { return r.pod == it->pod; });
            if (row == m_rows.end()) {
                row = m_rows.insert(m_rows.end(), Row {});
                row->pod = it->pod;
            }
            ++row->gpus;
            row->sharedGpus += it->sharedBy > 1 ? 1 : 0;
            row->peak = std::max(row->peak, it->peakUtilization);
            if (it->device >= 0)
                row->devices.push_back(it->device);
        }
        std::sort(m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) { return a.pod < b.pod; });
        for (Row& r : m_rows)
            std::sort(r.devices.begin(), r.devices.end());
    }
    endResetModel();
}

model::PodId IdleGpusModel::podAt(int row) const noexcept
{
    return row >= 0 && static_cast<std::size_t>(row) < m_rows.size() ? m_rows[static_cast<std::size_t>(row)].pod : model::PodId {};
}

int IdleGpusModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int IdleGpusModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IdleGpusModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || (role != Qt::DisplayRole && role != kSortRole && role != Qt::ToolTipRole))
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    const auto text = [](std::string_view v) { return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size())); };
    const auto since = static_cast<std::int64_t>(std::floor(m_usage->time - m_usage->windowSeconds));
    if (role == Qt::ToolTipRole)
        return tr("Every sample of these GPUs from %1 to %2 stayed below %3 utilization (usage from %4)")
            .arg(isoTimeText(since), isoTimeText(static_cast<std::int64_t>(std::floor(m_usage->time))),
                QString::fromStdString(model::idleThresholdText(*m_usage)), QString::fromStdString(m_usage->source));
    switch (index.column()) {
    case NamespaceColumn: return text(m_store->podNamespace(r.pod));
    case PodColumn: return text(m_store->podName(r.pod));
    case HeldColumn: {
        const std::int64_t milli = m_store->podRequest(r.pod)[model::CoreResource::Gpu];
        return role == kSortRole ? QVariant(static_cast<qint64>(milli)) : QVariant(QString::fromStdString(model::formatGpus(milli)));
    }
    case GpusColumn: {
        if (role == kSortRole)
            return r.gpus;
        const QString count = QString::fromStdString(model::formatCount(r.gpus));
        return r.sharedGpus > 0 ? tr("%1 (%2 shared)").arg(count, QString::fromStdString(model::formatCount(r.sharedGpus))) : count;
    }
    case PeakColumn: return role == kSortRole ? QVariant(r.peak) : QVariant(QString::fromStdString(model::formatShare(r.peak)));
    case DevicesColumn: {
        if (role == kSortRole)
            return r.devices.empty() ? -1 : r.devices.front();
        QStringList names;
        for (const std::int32_t d : r.devices)
            names << QString::number(d);
        return names.join(QStringLiteral(", "));
    }
    case IdleForColumn:
        if (role == kSortRole)
            return m_usage->windowSeconds;
        return tr("%1 or more").arg(QString::fromStdString(model::idleWindowText(*m_usage)));
    default: return {};
    }
}

QString IdleGpusModel::idleGpusText() const
{
    if (!m_hasNode)
        return {};
    if (!m_usage)
        return tr("unknown (no usage source)");
    if (m_idleCount < 0)
        return tr("unknown (no usage data for this node's GPUs)");
    const QString rule = tr("below %1 for %2").arg(QString::fromStdString(model::idleThresholdText(*m_usage)),
        QString::fromStdString(model::idleWindowText(*m_usage)));
    if (m_idleCount == 0)
        return tr("none (%1)").arg(rule);
    const int pods = rowCount();
    return tr("%1, held by %2 (%3 or more)")
        .arg(QString::fromStdString(model::formatCount(m_idleCount)), pods == 1 ? tr("1 pod") : tr("%1 pods").arg(pods), rule);
}

QVariant IdleGpusModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NamespaceColumn: return tr("Namespace");
    case PodColumn: return tr("Pod");
    case HeldColumn: return tr("GPUs held");
    case GpusColumn: return tr("Idle GPUs");
    case PeakColumn: return tr("Max utilization");
    case DevicesColumn: return tr("Devices");
    case IdleForColumn: return tr("Idle for");
    default: return {};
    }
}

} // namespace fleet::views
