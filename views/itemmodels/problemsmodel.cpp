// SPDX-License-Identifier: Apache-2.0
#include "problemsmodel.h"

#include "itemmodelroles.h"

#include <QDateTime>
#include <QStringList>

#include <algorithm>

namespace fleet::views {

QString domainPathText(const model::Topology* topology, model::DomainId d)
{
    if (!topology || !d.isValid() || d.index() >= topology->domainCount())
        return {};
    QStringList parts;
    for (model::DomainId at = d; at.isValid() && at != topology->root(); at = topology->domainParent(at))
        parts.prepend(QString::fromStdString(topology->domainName(at)));
    return parts.join(QStringLiteral(" > "));
}

QString domainPathText(const model::Topology* topology, model::NodeId n)
{
    if (!topology || !n.isValid() || n.index() >= topology->orderedNodes().size())
        return {};
    return domainPathText(topology, topology->nodeDomain(n));
}

QString isoTimeText(std::int64_t unixSeconds)
{
    if (unixSeconds == 0)
        return {};
    return QDateTime::fromSecsSinceEpoch(unixSeconds, Qt::UTC).toString(Qt::ISODate);
}

ProblemsModel::ProblemsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ProblemsModel::setProblems(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
    std::vector<model::NodeProblem> problems)
{
    beginResetModel();
    m_store = std::move(store);
    m_topology = std::move(topology);
    m_rows = m_store ? std::move(problems) : std::vector<model::NodeProblem> {};
    endResetModel();
}

const model::NodeProblem* ProblemsModel::problemAt(int row) const noexcept
{
    return row >= 0 && row < static_cast<int>(m_rows.size()) ? &m_rows[static_cast<std::size_t>(row)] : nullptr;
}

model::NodeId ProblemsModel::nodeAt(int row) const noexcept
{
    const model::NodeProblem* p = problemAt(row);
    return p ? p->node : model::NodeId {};
}

std::vector<model::NodeId> ProblemsModel::problemNodes() const
{
    std::vector<model::NodeId> nodes;
    nodes.reserve(m_rows.size());
    for (const auto& p : m_rows)
        if (p.node.isValid())
            nodes.push_back(p.node);
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

int ProblemsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ProblemsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_store)
        return {};
    if (role != Qt::DisplayRole && role != kSortRole && role != Qt::ToolTipRole)
        return {};
    const model::NodeProblem& p = m_rows[static_cast<std::size_t>(index.row())];
    const bool nodeOk = p.node.isValid() && p.node.index() < m_store->nodeCount();
    const bool podOk = p.pod.isValid() && p.pod.index() < m_store->podCount();
    switch (index.column()) {
    case NodeColumn:
        if (nodeOk)
            return QString::fromUtf8(m_store->nodeName(p.node));
        return podOk ? QString::fromUtf8(m_store->podNodeName(p.pod)) : QString();
    case ProblemColumn:
        return role == kSortRole ? QVariant(int(p.kind)) : QVariant(QString::fromUtf8(model::nodeProblemKindName(p.kind)));
    case DetailColumn: {
        QString detail = QString::fromStdString(p.detail);
        if (podOk)
            detail.prepend(QString::fromUtf8(m_store->podNamespace(p.pod)) + QLatin1Char('/')
                + QString::fromUtf8(m_store->podName(p.pod)) + QStringLiteral(": "));
        return detail;
    }
    case SinceColumn:
        return role == kSortRole ? QVariant(qint64(p.sinceUnixSeconds)) : QVariant(isoTimeText(p.sinceUnixSeconds));
    case DomainColumn:
        return nodeOk ? domainPathText(m_topology.get(), p.node) : QString();
    default:
        return {};
    }
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NodeColumn:
        return tr("Node");
    case ProblemColumn:
        return tr("Problem");
    case DetailColumn:
        return tr("Detail");
    case SinceColumn:
        return tr("Since");
    case DomainColumn:
        return tr("Domain");
    default:
        return {};
    }
}

} // namespace fleet::views
