// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pods of one node as a table: a thin model over the store's pod columns.

#include "model/clusterstore.h"
#include "model/scheduling/planledger.h"

#include <QAbstractTableModel>
#include <QString>

#include <memory>
#include <vector>

namespace fleet::views {

/// The pods counted on one node (ClusterStore::nodePods), one row each. Columns: namespace,
/// name, workload ("Kind/name" of the controller, "" when none), phase, the effective
/// request of cpu, memory and GPU, then one column per extended resource that some pod of
/// the node requests (registry order), then priority. Display text by model/figures.h;
/// kSortRole gives the raw amount (millicores, bytes, milli-GPU, whole units, priority).
/// Holds a row-to-PodId map and a shared reference to the store (never edits it).
/// Thread: GUI thread.
class NodePodsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NamespaceColumn,
        NameColumn,
        WorkloadColumn,
        PhaseColumn,
        CpuColumn,
        MemoryColumn,
        GpuColumn,
        FirstExtendedColumn
    };

    explicit NodePodsModel(QObject* parent = nullptr);

    /// Shows the pods of node `node` of `store` (a null store or an invalid id: no rows); under
    /// `plan` when given (read here only: views/nodeview/plannodeview.h), so a pod the plan moved
    /// lists on its new node (a node the plan added too) and a node the plan drained or failed
    /// has no rows. Pods the plan added (place-pods) are rows too, with their own name, their
    /// template's namespace, workload and requests, and the phase "Planned"; they cannot be
    /// dragged (podAt() is invalid for them).
    /// The model holds `plan` (and through it the store it reads) while it shows it.
    void setNode(
        std::shared_ptr<const model::ClusterStore> store, model::NodeId node, std::shared_ptr<const model::PlanLedger> plan = {});
    [[nodiscard]] model::NodeId node() const noexcept { return m_node; }
    /// The pod of a row (an invalid id outside the rows, and for a pod the plan added).
    [[nodiscard]] model::PodId podAt(int row) const noexcept;
    /// The column of priority (after the extended resources' columns).
    [[nodiscard]] int priorityColumn() const noexcept { return FirstExtendedColumn + static_cast<int>(m_extended.size()); }
    /// The registry keys of the extended columns, in column order.
    [[nodiscard]] const std::vector<model::ResourceKey>& extendedKeys() const noexcept { return m_extended; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// Rows are drag-enabled: a pod can be dragged onto the fleet map (what-if).
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    /// kPodMimeType (podmime.h).
    QStringList mimeTypes() const override;
    /// The pod of the first index's row (makePodMimeData()); null for no valid index.
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    Qt::DropActions supportedDragActions() const override { return Qt::MoveAction | Qt::CopyAction; }

private:
    std::int64_t amount(model::PodId pod, int column) const noexcept;

    std::shared_ptr<const model::PlanLedger> m_plan; // the plan shown under, or null
    std::shared_ptr<const model::ClusterStore> m_store;
    model::NodeId m_node;
    std::vector<model::PodId> m_rows;
    std::vector<model::PodId> m_specs;  // the store pod each row's columns come from (a template for added pods)
    std::vector<QString> m_addedNames; // a pod the plan added: its name (empty for store pods)
    std::vector<model::ResourceKey> m_extended;
};

} // namespace fleet::views
