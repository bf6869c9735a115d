// SPDX-License-Identifier: Apache-2.0
#pragma once
// The resources of one node: allocatable, capacity, requested and the requested share.

#include "model/clusterstore.h"
#include "model/scheduling/planledger.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace fleet::views {

/// One row per resource of a node: the five core resources (cpu, memory, gpu, pods,
/// ephemeral-storage; gpu only where the node has GPU capacity), then its extended
/// resources (nvidia.com/mig-*, aws.amazon.com/neuron, vpc.amazonaws.com/efa, ...) in
/// registry order. Columns: resource, allocatable, capacity, requested (sum of the counted
/// pods' effective requests), share (requested / allocatable; "n/a" when allocatable is 0).
/// kSortRole: raw amounts in model units (millicores, bytes, milli-GPU, counts) and the
/// share as a double (-1 for n/a). Thread: GUI thread.
class NodeResourcesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ResourceColumn, AllocatableColumn, CapacityColumn, RequestedColumn, ShareColumn, ColumnCount };

    explicit NodeResourcesModel(QObject* parent = nullptr);

    /// Shows node `node` of `store` (null or invalid: no rows).
    /// Under `plan` when given (read here only): the requested column is the plan's, and a node
    /// the plan added (an id from the store's node count up) shows its template's allocatable
    /// and capacity (views/nodeview/plannodeview.h).
    void setNode(std::shared_ptr<const model::ClusterStore> store, model::NodeId node, const model::PlanLedger* plan = nullptr);
    /// The registry key of a row.
    [[nodiscard]] model::ResourceKey keyAt(int row) const noexcept { return m_rows[static_cast<std::size_t>(row)].key; }
    /// The row of resource `name` ("cpu", "nvidia.com/mig-1g.10gb"), or -1.
    [[nodiscard]] int rowOf(const QString& name) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        model::ResourceKey key = 0;
        std::int64_t allocatable = 0;
        std::int64_t capacity = 0;
        std::int64_t requested = 0;
    };
    std::shared_ptr<const model::ClusterStore> m_store;
    std::vector<Row> m_rows;
};

} // namespace fleet::views
