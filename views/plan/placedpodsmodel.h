// SPDX-License-Identifier: Apache-2.0
#pragma once
// The plan panel's list of the pods the plan placed (place-pods actions: Plan > Place Workload,
// `plan place`), one row a pod.

#include "model/plan/plan.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace fleet::views {

/// Rows: every pod the engine's applied place-pods actions added, in action order then as
/// placed (topology order). Columns: the pod (namespace/name: its template's namespace, its own
/// name), its node under the plan, the level and domain its action fit it in (the action's
/// domain when it used one, else "N domains"), its requests (cpu, memory, GPUs: the
/// template's), and the plan panel row of its action (1-based). refresh() after every apply or
/// undo (rows reset). Holds the engine (and so its store). Thread: GUI thread.
class PlacedPodsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { PodColumn, NodeColumn, DomainColumn, RequestsColumn, ActionColumn, ColumnCount };

    explicit PlacedPodsModel(QObject* parent = nullptr);

    void setPlan(std::shared_ptr<const model::PlanEngine> engine);
    /// After an apply or undo. `unchangedBefore`: the engine's applied actions below this index
    /// are those of the last refresh (PlanEngineHost::takeUnchangedBefore()), so only the rows of
    /// the actions from there on are made again: O(changed actions), where reading every action
    /// took about 6 ms per change at 199,262 actions. 0 (the default): every row made again.
    void refresh(std::size_t unchangedBefore = 0);
    /// The pod of a row (an id of the engine's state), invalid outside the rows.
    [[nodiscard]] model::PodId podAt(int row) const noexcept;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        model::PodId pod;
        std::size_t action = 0; // index in applied()
    };
    std::shared_ptr<const model::PlanEngine> m_engine;
    std::vector<Row> m_rows;   // in action order
    std::size_t m_scanned = 0; // the applied actions m_rows was made from
};

} // namespace fleet::views
