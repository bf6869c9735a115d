// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pending demand (model::groupPendingPods) as a table: one row per shape, then totals.

#include "model/pendingdemand.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace fleet::views {

/// One row per model::PendingShape in the order given, then one totals row ("Total", the
/// sums of pods, total cpu / memory / GPU and gated pods; a shape's per-pod columns empty).
/// Columns: pods (count), cpu, memory and GPU of one pod (GPU as a count of GPUs or a share
/// of one, "0.5 GPU"), GPU model, total cpu, total memory, total GPU, gated (pods with
/// scheduling gates), reason (the scheduler's PodScheduled message; last, as it is long). kSortRole: model units; the
/// totals row sorts last in ascending order (isTotalsRow()). Thread: GUI thread.
class PendingShapesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        PodsColumn,
        CpuColumn,
        MemoryColumn,
        GpuColumn,
        GpuModelColumn,
        TotalCpuColumn,
        TotalMemoryColumn,
        TotalGpuColumn,
        GatedColumn,
        ReasonColumn,
        ColumnCount
    };

    explicit PendingShapesModel(QObject* parent = nullptr);

    /// Shows `shapes` (of `store`, which only needs to be non-null; amounts are the shapes').
    void setShapes(std::shared_ptr<const model::ClusterStore> store, std::vector<model::PendingShape> shapes);
    /// The number of pending pods over all shapes.
    [[nodiscard]] std::size_t pendingPodCount() const noexcept { return m_totalPods; }
    [[nodiscard]] std::size_t shapeCount() const noexcept { return m_rows.size(); }
    [[nodiscard]] bool isTotalsRow(int row) const noexcept { return row == static_cast<int>(m_rows.size()); }
    [[nodiscard]] const model::PendingShape* shapeAt(int row) const noexcept;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const model::ClusterStore> m_store;
    std::vector<model::PendingShape> m_rows;
    model::ResourceVector m_total;
    std::size_t m_totalPods = 0;
    std::size_t m_totalGated = 0;
};

} // namespace fleet::views
