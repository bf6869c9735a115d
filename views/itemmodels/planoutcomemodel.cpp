// SPDX-License-Identifier: Apache-2.0
#include "planoutcomemodel.h"

#include "importers/export/statediffformat.h"
#include "importers/plan/planevaluation.h"
#include "model/figures.h"

#include <QBrush>
#include <QColor>

namespace fleet::views {

namespace {
QString count(std::size_t n)
{
    return QString::fromStdString(model::formatCount(static_cast<std::int64_t>(n)));
}

QString dollars(double perHour)
{
    return QString::fromStdString(importers::dollarsPerHourExact(perHour));
}

QString reasonsText(const importers::ActionOutcome& a)
{
    QString why;
    for (const model::Reason& r : a.reasons) {
        if (!why.isEmpty())
            why += QStringLiteral("; ");
        why += QString::fromStdString(r.message.empty() ? r.code() : r.message);
    }
    return why;
}
} // namespace

PlanOutcomeModel::PlanOutcomeModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void PlanOutcomeModel::setOutcome(std::shared_ptr<const importers::PlanOutcome> outcome)
{
    beginResetModel();
    m_outcome = std::move(outcome);
    endResetModel();
}

int PlanOutcomeModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_outcome ? 0 : static_cast<int>(m_outcome->actions.size());
}

int PlanOutcomeModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString PlanOutcomeModel::outcomeText(importers::ActionOutcomeKind kind)
{
    switch (kind) {
    case importers::ActionOutcomeKind::CarriedOut:
        return tr("Carried out");
    case importers::ActionOutcomeKind::NotCarriedOut:
        return tr("Not carried out");
    case importers::ActionOutcomeKind::NoLongerPossible:
        return tr("No longer possible");
    }
    return {};
}

QVariant PlanOutcomeModel::data(const QModelIndex& index, int role) const
{
    if (!m_outcome || !index.isValid() || index.row() >= rowCount())
        return {};
    const importers::ActionOutcome& a = m_outcome->actions[static_cast<std::size_t>(index.row())];
    if (role == kOutcomeRole)
        return static_cast<int>(a.outcome);
    if (role == kNodeNameRole)
        return QString::fromStdString(a.action.node);
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case IndexColumn:
            // From 1, as `diff` and `plan check` number actions in text ("#1") and the Plan panel does.
            return role == Qt::DisplayRole ? QVariant(static_cast<qulonglong>(a.index + 1)) : QVariant(tr("The action's number in the plan (from 1)"));
        case ActionColumn:
            return QString::fromStdString(std::string(model::actionTypeName(a.action.type)) + ' ' + importers::planActionSubject(a.action));
        case OutcomeColumn:
            return outcomeText(a.outcome);
        case SeenColumn: {
            const QString why = reasonsText(a);
            const QString seen = QString::fromStdString(a.evidence);
            return why.isEmpty() ? seen : seen.isEmpty() ? why : seen + QStringLiteral("; ") + why;
        }
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && index.column() == OutcomeColumn && a.outcome == importers::ActionOutcomeKind::NoLongerPossible)
        return QBrush(QColor(0xb0, 0x1c, 0x1c));
    if (role == Qt::TextAlignmentRole && index.column() == IndexColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant PlanOutcomeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn:
        return tr("#");
    case ActionColumn:
        return tr("Action");
    case OutcomeColumn:
        return tr("Outcome");
    case SeenColumn:
        return tr("What was seen, and why not");
    default:
        return {};
    }
}

QString PlanOutcomeModel::summary(const importers::PlanOutcome& o, const QString& planLabel)
{
    // The label (a file name, from outside) is joined, never passed through arg() twice: a "%1"
    // in it stays as it is.
    const QString counts = tr("(%1 %2): %3 carried out, %4 not carried out, %5 no longer possible.")
                               .arg(count(o.actions.size()), o.actions.size() == 1 ? tr("action") : tr("actions"), count(o.carriedOut),
                                   count(o.notCarriedOut), count(o.noLongerPossible));
    const QString savings = tr("Savings planned %1, realised %2 (the %3 %4 it touched: %5 then, %6 now).")
                                .arg(dollars(o.plannedSavingsPerHour), dollars(o.realisedSavingsPerHour()), count(o.touchedNodes.size()),
                                    o.touchedNodes.size() == 1 ? tr("node") : tr("nodes"), dollars(o.touchedThenPerHour),
                                    dollars(o.touchedNowPerHour));
    return planLabel + QLatin1Char(' ') + counts + QLatin1Char(' ') + savings;
}

} // namespace fleet::views
