// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Changes panel's "Plan Outcome" table: the window's plan, made on the shown state ("then"),
// checked against the later state it was compared with (importers::comparePlanOutcome(), the
// rules in importers/document/planoutcome.h): one row per action with its outcome, what was seen
// and why it is no longer possible, as `fleetscope diff THEN NOW --plan PLAN` prints them.

#include "importers/document/planoutcome.h"

#include <QAbstractTableModel>
#include <QString>

#include <memory>

namespace fleet::views {

/// A read-only table over one importers::PlanOutcome (shared, immutable): columns #, Action,
/// Outcome, Seen. No item per row is stored (a consolidation of 26,000 actions is 26,000 rows
/// read from the outcome). Thread: GUI thread.
class PlanOutcomeModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column : int { IndexColumn = 0, ActionColumn, OutcomeColumn, SeenColumn, ColumnCount };
    /// A row's importers::ActionOutcomeKind (int).
    static constexpr int kOutcomeRole = Qt::UserRole + 30;
    /// The node a row names (the move's destination, the drained or failed node; QString, "" for others).
    static constexpr int kNodeNameRole = Qt::UserRole + 31;

    explicit PlanOutcomeModel(QObject* parent = nullptr);

    /// Shows `outcome` (null: nothing; the model is reset).
    void setOutcome(std::shared_ptr<const importers::PlanOutcome> outcome);
    [[nodiscard]] const std::shared_ptr<const importers::PlanOutcome>& outcome() const noexcept { return m_outcome; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The outcome in a sentence, as the panel's line above the table shows it: "The window's
    /// plan (3 actions): 2 carried out, 0 not carried out, 1 no longer possible. Savings planned
    /// $12.34/h, realised $10.00/h (the 2 nodes it touched: $20.00/h then, $10.00/h now)."
    /// Figures as `fleetscope diff --plan` writes them. Thread: any.
    [[nodiscard]] static QString summary(const importers::PlanOutcome& outcome, const QString& planLabel);
    /// The text a row's Outcome cell shows: "Carried out", "Not carried out", "No longer possible".
    [[nodiscard]] static QString outcomeText(importers::ActionOutcomeKind kind);

private:
    std::shared_ptr<const importers::PlanOutcome> m_outcome;
};

} // namespace fleet::views
