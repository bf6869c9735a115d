// SPDX-License-Identifier: Apache-2.0
#include "changesmodel.h"

#include "importers/export/exportquoting.h"
#include "importers/quotedtext.h"
#include "importers/export/statediffformat.h"
#include "model/figures.h"

#include <QRegularExpression>

#include <cstdlib>

namespace fleet::views {

namespace {

// internalId of a top-level row; a child's is its group + 1.
constexpr quintptr kTopLevel = 0;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString count(std::size_t n)
{
    return qs(model::formatCount(static_cast<std::int64_t>(n)));
}

// "+3", "-2", "0": a difference of counts.
QString signedCount(std::int64_t d)
{
    return (d > 0 ? QStringLiteral("+") : QString()) + qs(model::formatCount(d));
}

QString signedGpus(std::int64_t milli)
{
    const QString abs = qs(model::formatGpus(std::llabs(milli)));
    return milli > 0 ? QStringLiteral("+") + abs : milli < 0 ? QStringLiteral("-") + abs : abs;
}

QString signedDollars(double perHour)
{
    const QString text = qs(importers::dollarsPerHourExact(perHour));
    return text.startsWith(QLatin1Char('-')) || text == QLatin1String("$0.00/h") ? text : QStringLiteral("+") + text;
}

const std::vector<std::string>* nodeList(const importers::StateDiff& d, ChangesModel::Group g)
{
    switch (g) {
    case ChangesModel::NodesAdded:
        return &d.nodesAdded;
    case ChangesModel::NodesRemoved:
        return &d.nodesRemoved;
    case ChangesModel::NodesRelabelled:
        return &d.nodesRelabelled;
    case ChangesModel::NodesTainted:
        return &d.nodesTainted;
    default:
        return nullptr;
    }
}

// "3 moved, 1 created, 0 deleted" (", 2 stranded" when any): `fleetscope diff`'s words.
QString podChanges(std::size_t moved, std::size_t created, std::size_t deleted, std::size_t stranded)
{
    QString text = QStringLiteral("%1 moved, %2 created, %3 deleted").arg(count(moved), count(created), count(deleted));
    if (stranded)
        text += QStringLiteral(", %1 stranded").arg(count(stranded));
    return text;
}

} // namespace

ChangesModel::ChangesModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void ChangesModel::setDiff(std::shared_ptr<const importers::StateDiff> diff)
{
    beginResetModel();
    m_diff = std::move(diff);
    endResetModel();
}

QModelIndex ChangesModel::groupIndex(Group group, int column) const
{
    return index(group, column);
}

int ChangesModel::childCount(const importers::StateDiff& d, Group g)
{
    if (g == Totals)
        return TotalsRowCount;
    if (g == Workloads)
        return static_cast<int>(d.workloads.size());
    const auto* list = nodeList(d, g);
    return list ? static_cast<int>(list->size()) : 0;
}

QString ChangesModel::groupText(const importers::StateDiff& d, Group g, int column)
{
    static const char* const kTitles[] = { "Totals", "Nodes added", "Nodes removed", "Nodes relabelled", "Nodes tainted", "Pods by workload" };
    if (column == ChangeColumn)
        return tr(kTitles[g]);
    if (column != DifferenceColumn || g == Totals)
        return {};
    if (g == Workloads)
        return podChanges(d.podsMoved, d.podsCreated, d.podsDeleted, d.podsStranded);
    return count(static_cast<std::size_t>(childCount(d, g)));
}

QString ChangesModel::childText(const importers::StateDiff& d, Group g, int row, int column)
{
    if (row < 0 || row >= childCount(d, g))
        return {};
    if (g == Totals) {
        const importers::StateTotals& b = d.before;
        const importers::StateTotals& a = d.after;
        switch (static_cast<TotalsRow>(row)) {
        case NodesTotal: {
            const QString texts[] = { tr("Nodes"), count(b.nodes), count(a.nodes),
                signedCount(static_cast<std::int64_t>(a.nodes) - static_cast<std::int64_t>(b.nodes)) };
            return texts[column];
        }
        case PodsTotal: {
            const QString texts[] = { tr("Pods"), count(b.pods), count(a.pods),
                signedCount(static_cast<std::int64_t>(a.pods) - static_cast<std::int64_t>(b.pods)) };
            return texts[column];
        }
        case GpusAllocatedTotal: {
            const QString texts[] = { tr("GPUs allocated"), qs(model::formatGpus(b.gpusAllocatedMilli)), qs(model::formatGpus(a.gpusAllocatedMilli)),
                signedGpus(a.gpusAllocatedMilli - b.gpusAllocatedMilli) };
            return texts[column];
        }
        case CostTotal: {
            const QString texts[] = { tr("Cost per hour"), qs(importers::dollarsPerHourExact(b.dollarsPerHour)),
                qs(importers::dollarsPerHourExact(a.dollarsPerHour)), signedDollars(a.dollarsPerHour - b.dollarsPerHour) };
            return texts[column];
        }
        default:
            return {};
        }
    }
    if (g == Workloads) {
        const importers::WorkloadChanges& w = d.workloads[static_cast<std::size_t>(row)];
        if (column == ChangeColumn)
            return qs(importers::escapedText(w.namespaceName) + "/" + (w.kind.empty() ? std::string("Pod") : w.kind) + "/"
                + importers::escapedText(w.name));
        return column == DifferenceColumn ? podChanges(w.moved, w.created, w.deleted, w.stranded) : QString();
    }
    if (column != ChangeColumn)
        return {};
    return qs(importers::escapedText((*nodeList(d, g))[static_cast<std::size_t>(row)]));
}

QModelIndex ChangesModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!m_diff || column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < GroupCount ? createIndex(row, column, kTopLevel) : QModelIndex();
    if (parent.internalId() != kTopLevel || parent.column() != 0)
        return {};
    if (row >= childCount(*m_diff, static_cast<Group>(parent.row())))
        return {};
    return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex ChangesModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kTopLevel);
}

int ChangesModel::rowCount(const QModelIndex& parent) const
{
    if (!m_diff)
        return 0;
    if (!parent.isValid())
        return GroupCount;
    if (parent.internalId() != kTopLevel || parent.column() != 0)
        return 0;
    return childCount(*m_diff, static_cast<Group>(parent.row()));
}

int ChangesModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant ChangesModel::data(const QModelIndex& index, int role) const
{
    if (!m_diff || !index.isValid())
        return {};
    const bool top = index.internalId() == kTopLevel;
    const auto group = static_cast<Group>(top ? index.row() : static_cast<int>(index.internalId() - 1));
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: // the whole text where the column cuts a long node or workload name
        return top ? groupText(*m_diff, group, index.column()) : childText(*m_diff, group, index.row(), index.column());
    case Qt::TextAlignmentRole:
        return index.column() == ChangeColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case kGroupRole:
        return static_cast<int>(group);
    case kNodeNameRole:
        if (!top) {
            if (const auto* list = nodeList(*m_diff, group))
                return QString::fromStdString((*list)[static_cast<std::size_t>(index.row())]);
        }
        return {};
    default:
        return {};
    }
}

QVariant ChangesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ChangeColumn:
        return tr("Change");
    case ThenColumn:
        return tr("Then");
    case NowColumn:
        return tr("Now");
    case DifferenceColumn:
        return tr("Difference");
    default:
        return {};
    }
}

namespace {

/// A cell that is a figure ("1,234", "+3", "-2", "12.5", "$1,234.56/h", "-$3.00/h") as the bare
/// number ("1234", "3", "-2", "12.5", "1234.56", "-3.00"), which a spreadsheet reads as a number;
/// any other text as a text field (formula-neutralised).
std::string csvCell(const QString& text)
{
    static const QRegularExpression figure(QStringLiteral("^([+-]?)\\$?([0-9][0-9,]*(?:\\.[0-9]+)?)(?:/h)?$"));
    if (const QRegularExpressionMatch m = figure.match(text); m.hasMatch())
        return ((m.captured(1) == QLatin1String("-") ? QStringLiteral("-") : QString()) + m.captured(2).remove(QLatin1Char(','))).toStdString();
    return importers::csvTextField(text.toStdString());
}

} // namespace

std::string changesCsv(const importers::StateDiff& diff)
{
    std::string out = "section,change,then,now,difference,moved,created,deleted,stranded\n";
    // The pods' rows (the group's and each workload's) give their counts in columns of their
    // own, which a spreadsheet can sum; the difference column keeps the model's text.
    auto podCounts = [](std::size_t moved, std::size_t created, std::size_t deleted, std::size_t stranded) {
        return "," + importers::csvNumberField(static_cast<std::int64_t>(moved)) + "," + importers::csvNumberField(static_cast<std::int64_t>(created))
            + "," + importers::csvNumberField(static_cast<std::int64_t>(deleted)) + ","
            + importers::csvNumberField(static_cast<std::int64_t>(stranded));
    };
    auto row = [&out](const QString& section, auto cell, const std::string& counts) {
        out += importers::csvTextField(section.toStdString());
        for (int c = 0; c < ChangesModel::ColumnCount; ++c)
            out += "," + (c == ChangesModel::ChangeColumn ? importers::csvTextField(cell(c).toStdString()) : csvCell(cell(c)));
        out += (counts.empty() ? std::string(",,,,") : counts) + "\n";
    };
    for (int g = 0; g < ChangesModel::GroupCount; ++g) {
        const auto group = static_cast<ChangesModel::Group>(g);
        const bool pods = group == ChangesModel::Workloads;
        const QString section = ChangesModel::groupText(diff, group, ChangesModel::ChangeColumn);
        row(section, [&](int c) { return c == ChangesModel::ChangeColumn ? QString() : ChangesModel::groupText(diff, group, c); },
            pods ? podCounts(diff.podsMoved, diff.podsCreated, diff.podsDeleted, diff.podsStranded) : std::string());
        for (int r = 0; r < ChangesModel::childCount(diff, group); ++r) {
            std::string counts;
            if (pods) {
                const importers::WorkloadChanges& w = diff.workloads[static_cast<std::size_t>(r)];
                counts = podCounts(w.moved, w.created, w.deleted, w.stranded);
            }
            row(section, [&](int c) { return ChangesModel::childText(diff, group, r, c); }, counts);
        }
    }
    return out;
}

} // namespace fleet::views
