// SPDX-License-Identifier: Apache-2.0
#pragma once
// A list of nodes (the nodes of a domain, a search result, any id list) as a table.

#include "model/clusterstore.h"

#include <QAbstractTableModel>

#include <memory>
#include <span>
#include <vector>

namespace fleet::views {

/// One row per node id given. Columns: name, ready (the Ready condition: "True", "False",
/// "Unknown"), cordoned ("Yes" / ""), requested share of cpu, memory and GPU (requested /
/// allocatable; "n/a" where allocatable is 0), GPUs (whole GPUs of the node) and pods
/// (counted on the node). kSortRole: shares as doubles (-1 for n/a), counts as integers,
/// readiness 0 True / 1 False / 2 Unknown, cordoned 0 / 1. Thread: GUI thread; O(1) per cell,
/// so a domain of 100,000 nodes costs its 400 KB row map only.
class NodeTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        ReadyColumn,
        CordonedColumn,
        CpuShareColumn,
        MemoryShareColumn,
        GpuShareColumn,
        GpusColumn,
        PodsColumn,
        ColumnCount
    };

    explicit NodeTableModel(QObject* parent = nullptr);

    /// Shows `nodes` of `store` in the given order (null store: no rows).
    void setNodes(std::shared_ptr<const model::ClusterStore> store, std::span<const model::NodeId> nodes);
    [[nodiscard]] model::NodeId nodeAt(int row) const noexcept;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const model::ClusterStore> m_store;
    std::vector<model::NodeId> m_rows;
};

} // namespace fleet::views
