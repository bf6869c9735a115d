// SPDX-License-Identifier: Apache-2.0
#include "planactionsmodel.h"

#include "model/figures.h"
#include "views/itemmodels/itemmodelroles.h"

#include <QColor>

#include <algorithm>

namespace fleet::views {

namespace {

QString s(std::string_view v)
{
    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
}

QString count(std::int64_t n)
{
    return s(model::formatCount(n));
}

QString podName(const model::ClusterStore& store, model::PodId p)
{
    return s(store.podNamespace(p)) + QLatin1Char('/') + s(store.podName(p));
}

QString gpuText(const model::PlanTotals& t)
{
    const double share = t.gpus > 0 ? static_cast<double>(t.gpuMilliAllocated) / (static_cast<double>(t.gpus) * 1000.0) : 0.0;
    return s(model::formatGpus(t.gpuMilliAllocated)) + QStringLiteral(" (") + s(model::formatShare(share)) + QLatin1Char(')');
}

/// A domain path's innermost domain for a sentence: "us-west-2a (zone)" for
/// "topology.kubernetes.io/region=us-west-2/topology.kubernetes.io/zone=us-west-2a". The value
/// leads, since a narrow cell keeps only the sentence's start; the key is shortened to its name
/// (the part after its prefix). A label value holds no '/' or '='
/// (https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#syntax-and-character-set),
/// so the last '=' starts the value and the '/' after the one before it starts the key.
QString innermostDomainText(const std::string& path)
{
    const QString text = s(path);
    const qsizetype eq = text.lastIndexOf(QLatin1Char('='));
    if (eq < 0)
        return text;
    const qsizetype previous = eq > 0 ? text.lastIndexOf(QLatin1Char('='), eq - 1) : -1;
    const qsizetype keyStart = previous < 0 ? 0 : text.indexOf(QLatin1Char('/'), previous) + 1;
    const QString key = text.mid(keyStart, eq - keyStart);
    const QString name = key.mid(key.lastIndexOf(QLatin1Char('/')) + 1);
    return name.isEmpty() ? text.mid(eq + 1) : QStringLiteral("%1 (%2)").arg(text.mid(eq + 1), name);
}

} // namespace

QString beforeAfterText(std::int64_t before, std::int64_t after)
{
    QString text = count(before) + QStringLiteral(" \u2192 ") + count(after);
    if (after != before)
        text += QStringLiteral(" (%1%2)").arg(after > before ? QStringLiteral("+") : QStringLiteral("\u2212"), count(std::abs(after - before)));
    return text;
}

QString gpusAllocatedDefinition()
{
    return PlanActionsModel::tr(
        "GPUs allocated under the plan: the nvidia.com/gpu requested by the pods on the nodes present under the plan, of those "
        "nodes' allocatable nvidia.com/gpu (whole GPUs, as summary, diff and reports count them). The status bar's \"GPUs\" "
        "count physical devices instead (a MIG-partitioned GPU once, whole; Neuron devices apart), in the loaded state: its "
        "tooltip gives both. The GPU-idle legend's \"allocated GPUs\" counts only those with utilization figures for the "
        "whole window.");
}

QString planReasonsText(const std::vector<model::Reason>& reasons)
{
    QStringList parts;
    for (const model::Reason& r : reasons)
        parts << QStringLiteral("%1 (%2)").arg(s(r.message), s(r.code()));
    return parts.join(QStringLiteral("; "));
}

FailureCost& FailureCost::operator+=(const FailureCost& o)
{
    podsStranded += o.podsStranded;
    gpusLost += o.gpusLost;
    strandedGpuMilli += o.strandedGpuMilli;
    return *this;
}

FailureCost failureCost(const model::ClusterStore& store, const model::AppliedAction& applied)
{
    FailureCost cost;
    if (applied.action.type != model::ActionType::FailNode && applied.action.type != model::ActionType::FailDomain)
        return cost;
    cost.podsStranded = static_cast<std::int64_t>(applied.unplaced.size());
    cost.gpusLost = std::max<std::int64_t>(0, applied.before.gpus - applied.after.gpus);
    for (const auto& [pod, reasons] : applied.unplaced)
        if (pod.isValid() && pod.index() < store.podCount())
            cost.strandedGpuMilli += store.podRequest(pod)[model::CoreResource::Gpu];
    return cost;
}

QString failureCostText(const FailureCost& cost)
{
    QString text = QObject::tr("%1 pods stranded, %2 GPUs lost").arg(count(cost.podsStranded), count(cost.gpusLost));
    if (cost.strandedGpuMilli > 0)
        text += QObject::tr(" (%1 GPUs requested by stranded pods)").arg(s(model::formatGpus(cost.strandedGpuMilli)));
    return text;
}

QString planActionText(const model::ClusterStore& store, const model::AppliedAction& applied)
{
    const model::PlanAction& a = applied.action;
    const QString node = s(a.node);
    const auto moved = static_cast<std::int64_t>(applied.changes.size());
    const auto unplaced = static_cast<std::int64_t>(applied.unplaced.size());
    switch (a.type) {
    case model::ActionType::MovePod: {
        QString text = QObject::tr("Move %1/%2").arg(s(a.pod.namespaceName), s(a.pod.name));
        if (!applied.changes.empty() && applied.changes.front().from.isValid()
            && applied.changes.front().from.index() < store.nodeCount())
            text += QObject::tr(" from %1").arg(s(store.nodeName(applied.changes.front().from)));
        text += QObject::tr(" to %1").arg(node);
        if (a.override)
            text += QObject::tr(" (override)");
        return text;
    }
    case model::ActionType::DrainNode:
        // A consolidation moves a drained node's pods by move-pod actions just before its drain.
        if (moved == 0 && unplaced == 0)
            return QObject::tr("Drain %1: no pod left on it to move").arg(node);
        return QObject::tr("Drain %1: %2 %3 moved, %4 stay")
            .arg(node, count(moved), moved == 1 ? QObject::tr("pod") : QObject::tr("pods"), count(unplaced));
    case model::ActionType::FailNode:
        return QObject::tr("Fail %1: %2 pods re-placed; costs %3").arg(node, count(moved), failureCostText(failureCost(store, applied)));
    case model::ActionType::FailDomain:
        return QObject::tr("Fail %1: %2 nodes gone, %3 pods re-placed; costs %4")
            .arg(innermostDomainText(a.domain), count(static_cast<std::int64_t>(applied.nodesRemoved.size())), count(moved),
                failureCostText(failureCost(store, applied)));
    case model::ActionType::AddNode:
        // No domain: each copy goes where its template node is.
        return a.domain.empty() ? QObject::tr("Add %1 \u00d7 %2 (each beside the node it copies)").arg(count(a.count), s(a.instanceType))
                                : QObject::tr("Add %1 \u00d7 %2 in %3").arg(count(a.count), s(a.instanceType), s(a.domain));
    case model::ActionType::PlaceWorkload:
        return QObject::tr("Place %1 %2/%3 in %4: %5 pods placed, %6 not")
            .arg(s(a.workloadKind), s(a.workloadNamespace), s(a.workloadName), s(a.domain), count(moved), count(unplaced));
    case model::ActionType::PlacePods:
        return QObject::tr("Place %1 new pods like %2/%3 in %4")
            .arg(count(static_cast<std::int64_t>(applied.podsAdded.size())), s(a.pod.namespaceName), s(a.pod.name),
                s(applied.topologyDomains.empty() ? std::string() : applied.topologyDomains.front()));
    }
    return {};
}

PlanActionsModel::PlanActionsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void PlanActionsModel::setPlan(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::PlanEngine> engine)
{
    beginResetModel();
    m_store = std::move(store);
    m_stale.clear();
    m_engine = m_store ? std::move(engine) : nullptr;
    m_rows = m_engine ? static_cast<int>(m_engine->applied().size()) : 0;
    m_notApplied.clear();
    endResetModel();
}

void PlanActionsModel::setNotApplied(std::vector<std::pair<std::size_t, model::AppliedAction>> actions)
{
    beginResetModel();
    m_notApplied = m_engine ? std::move(actions) : decltype(m_notApplied) {};
    endResetModel();
}

void PlanActionsModel::setStale(std::vector<QString> whyByRow)
{
    m_stale = std::move(whyByRow);
    if (m_rows > 0)
        emit dataChanged(index(0, 0), index(m_rows - 1, ColumnCount - 1));
}

void PlanActionsModel::refresh()
{
    const int rows = m_engine ? static_cast<int>(m_engine->applied().size()) : 0;
    if (rows == m_rows + 1) {
        beginInsertRows({}, m_rows, m_rows);
        m_rows = rows;
        endInsertRows();
    } else if (rows == m_rows - 1) {
        beginRemoveRows({}, rows, rows);
        m_rows = rows;
        endRemoveRows();
    } else {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }
}

const model::AppliedAction* PlanActionsModel::actionAt(int row) const noexcept
{
    if (!m_engine || row < 0)
        return nullptr;
    if (row >= m_rows)
        return static_cast<std::size_t>(row - m_rows) < m_notApplied.size() ? &m_notApplied[static_cast<std::size_t>(row - m_rows)].second : nullptr;
    if (row >= static_cast<int>(m_engine->applied().size()))
        return nullptr;
    return &m_engine->applied()[static_cast<std::size_t>(row)];
}

int PlanActionsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows + static_cast<int>(m_notApplied.size());
}

int PlanActionsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {
/// The reasons a row's Reasons cell shows (its tooltip shows every one).
constexpr std::size_t kReasonsShown = 8;
}

QVariant PlanActionsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const model::AppliedAction* a = actionAt(index.row());
    if (!a)
        return {};
    const model::PlanTotals& b = a->before;
    const model::PlanTotals& t = a->after;
    const bool violation = a->action.override && a->action.type == model::ActionType::MovePod;
    const bool notApplied = index.row() >= m_rows;
    const QString stale = !notApplied && static_cast<std::size_t>(index.row()) < m_stale.size() ? m_stale[static_cast<std::size_t>(index.row())] : QString();
    if (role == Qt::ForegroundRole && index.column() == HoldsColumn)
        return !a->holds || violation || !stale.isEmpty() ? QVariant(QColor(180, 20, 20)) : QVariant();
    if (role == Qt::TextAlignmentRole)
        return index.column() >= NodesInUseColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != kSortRole)
        return {};
    const bool sort = role == kSortRole;
    switch (index.column()) {
    case ActionColumn:
        if (notApplied) {
            const std::size_t fileIndex = m_notApplied[static_cast<std::size_t>(index.row() - m_rows)].first;
            return sort ? QVariant(index.row()) : QVariant(tr("File #%1. ").arg(fileIndex + 1) + planActionText(*m_store, *a));
        }
        if (sort)
            return QVariant(index.row());
        // A failed domain's row names its innermost domain; the tooltip gives the whole path.
        if (role == Qt::ToolTipRole && a->action.type == model::ActionType::FailDomain)
            return QStringLiteral("%1. ").arg(index.row() + 1) + planActionText(*m_store, *a) + QLatin1Char('\n')
                + tr("Domain: %1").arg(s(a->action.domain));
        return QVariant(QStringLiteral("%1. ").arg(index.row() + 1) + planActionText(*m_store, *a));
    case HoldsColumn:
        if (notApplied)
            return tr("no (not applied)");
        if (!stale.isEmpty())
            return tr("stale");
        return violation ? tr("violation") : a->holds ? tr("yes") : tr("no");
    case ReasonsColumn: {
        std::vector<model::Reason> reasons = a->reasons;
        for (const auto& [pod, why] : a->unplaced) {
            if (role != Qt::ToolTipRole && reasons.size() > kReasonsShown)
                break;
            for (model::Reason r : why) {
                if (pod.isValid() && pod.index() < m_store->podCount())
                    r.message = podName(*m_store, pod).toStdString() + ": " + r.message;
                reasons.push_back(std::move(r));
            }
        }
        // The cell shows the first few: a zone's failure has thousands of reasons, and a cell of
        // that text took seconds to elide on each paint of the Plan dock. The tooltip lists all.
        bool more = false;
        if (role != Qt::ToolTipRole && reasons.size() > kReasonsShown) {
            reasons.resize(kReasonsShown);
            more = true;
        }
        const QString text = planReasonsText(reasons) + (more ? tr("; \u2026 (the tooltip lists every one)") : QString());
        if (stale.isEmpty())
            return text;
        return tr("Stale: %1").arg(stale) + (text.isEmpty() ? QString() : QStringLiteral("; ") + text);
    }
    case NodesInUseColumn:
        return sort ? QVariant(qint64(t.nodesInUse)) : QVariant(beforeAfterText(b.nodesInUse, t.nodesInUse));
    case EmptyNodesColumn:
        return sort ? QVariant(qint64(t.nodesEmpty)) : QVariant(beforeAfterText(b.nodesEmpty, t.nodesEmpty));
    case GpusColumn:
        return sort ? QVariant(qint64(t.gpuMilliAllocated)) : QVariant(gpuText(b) + QStringLiteral(" \u2192 ") + gpuText(t));
    case CostColumn:
        return sort ? QVariant(t.costPerHour)
                    : QVariant(s(model::formatDollarsPerHour(b.costPerHour)) + QStringLiteral(" \u2192 ")
                          + s(model::formatDollarsPerHour(t.costPerHour)));
    default:
        return {};
    }
}

QVariant PlanActionsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == GpusColumn)
        return gpusAllocatedDefinition();
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ActionColumn:
        return tr("Action");
    case HoldsColumn:
        return tr("Holds");
    case ReasonsColumn:
        return tr("Reasons");
    case NodesInUseColumn:
        return tr("Nodes in use");
    case EmptyNodesColumn:
        return tr("Empty nodes");
    case GpusColumn:
        return tr("GPUs allocated");
    case CostColumn:
        return tr("Cost per hour");
    default:
        return {};
    }
}

} // namespace fleet::views
