// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Changes panel's model: what importers::diffStates() found between the shown state
// ("then") and a later one ("now"), as a two-level tree over the diff itself (no item per
// row is stored: a diff of 100,000 added nodes is 100,000 rows read from its name lists).
//
// Top-level rows (ChangesModel::Group), each with its children:
//   Totals             Nodes, Pods, GPUs allocated, Cost per hour: then, now, difference
//   Nodes added        one row per node name (sorted, as the diff lists them)
//   Nodes removed      "
//   Nodes relabelled   "
//   Nodes tainted      "
//   Pods by workload   one row per workload (namespace/Kind/name): "3 moved, 1 created, ..."
// Columns: Change, Then, Now, Difference. The figures are written as `fleetscope diff` writes
// them (model/figures.h: counts with thousands separators, GPUs from milli-GPU, dollars to the
// cent, importers::dollarsPerHourExact()), so the panel and the command line say the same.

#include "importers/document/statediff.h"

#include <QAbstractItemModel>
#include <QString>

#include <memory>
#include <string>

namespace fleet::views {

/// A read-only tree model over one importers::StateDiff (shared, immutable). Thread: GUI thread.
class ChangesModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Group : int { Totals = 0, NodesAdded, NodesRemoved, NodesRelabelled, NodesTainted, Workloads, GroupCount };
    enum Column : int { ChangeColumn = 0, ThenColumn, NowColumn, DifferenceColumn, ColumnCount };
    enum TotalsRow : int { NodesTotal = 0, PodsTotal, GpusAllocatedTotal, CostTotal, TotalsRowCount };
    /// A node row's node name (QString); invalid on other rows.
    static constexpr int kNodeNameRole = Qt::UserRole + 20;
    /// Every row's Group (int).
    static constexpr int kGroupRole = Qt::UserRole + 21;

    explicit ChangesModel(QObject* parent = nullptr);

    /// Shows `diff` (null: nothing; the model is reset).
    void setDiff(std::shared_ptr<const importers::StateDiff> diff);
    [[nodiscard]] const std::shared_ptr<const importers::StateDiff>& diff() const noexcept { return m_diff; }

    /// The top-level row of `group`.
    [[nodiscard]] QModelIndex groupIndex(Group group, int column = 0) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The number of children of `group` in `diff`.
    [[nodiscard]] static int childCount(const importers::StateDiff& diff, Group group);
    /// The text of a group's own row ("Nodes added", "", "", "12").
    [[nodiscard]] static QString groupText(const importers::StateDiff& diff, Group group, int column);
    /// The text of child `row` of `group`.
    [[nodiscard]] static QString childText(const importers::StateDiff& diff, Group group, int row, int column);

private:
    std::shared_ptr<const importers::StateDiff> m_diff;
};

/// The panel's rows as CSV (RFC 4180): a header
/// "section,change,then,now,difference,moved,created,deleted,stranded", then for each group its
/// own row (change empty) and its children, in the model's order. A figure of the then, now and
/// difference columns is the bare number a spreadsheet reads ("1,617,779" -> 1617779, "-2" ->
/// -2, "$1,234.56/h" -> 1234.56: the change column names the unit); other texts are the
/// model's, formula-neutralised (importers::csvTextField()). The pods' rows (the group's and
/// each workload's) also give their pods moved, created, deleted and stranded as numbers in the
/// last four columns (empty on other rows). What File > Export Changes writes for a .csv.
/// Thread: any.
[[nodiscard]] std::string changesCsv(const importers::StateDiff& diff);

} // namespace fleet::views
