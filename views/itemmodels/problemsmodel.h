// SPDX-License-Identifier: Apache-2.0
#pragma once
// The problems of a cluster's nodes (model::findNodeProblems) as a table.

#include "model/nodeproblems.h"
#include "model/topology.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace fleet::views {

/// One row per model::NodeProblem, in the order given. Columns: node (its name; for a pod
/// on an unknown node the missing node's name from spec.nodeName), problem
/// (nodeProblemKindName), detail (the problem's detail, prefixed "namespace/name: " for a
/// pod), since (ISO 8601 UTC, "2026-12-01T14:00:00Z"; "" when the input does not say) and
/// the node's domain path ("us-east-1 > us-east-1a > ..."; "" without topology or node).
/// kSortRole: the kind's order for the problem column, Unix seconds for since.
/// Thread: GUI thread.
class ProblemsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NodeColumn, ProblemColumn, DetailColumn, SinceColumn, DomainColumn, ColumnCount };

    explicit ProblemsModel(QObject* parent = nullptr);

    /// Shows `problems` found in `store` (laid out by `topology`, which may be null).
    void setProblems(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
        std::vector<model::NodeProblem> problems);
    [[nodiscard]] const model::NodeProblem* problemAt(int row) const noexcept;
    /// The node of a row (invalid for a pod on an unknown node, or outside the rows).
    [[nodiscard]] model::NodeId nodeAt(int row) const noexcept;
    /// The distinct nodes with a problem, in id order (what the map marks).
    [[nodiscard]] std::vector<model::NodeId> problemNodes() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::Topology> m_topology;
    std::vector<model::NodeProblem> m_rows;
};

/// The domain path of node `n`, outermost level first, joined by " > "
/// ("us-east-1 > us-east-1a > nn-1"); "" for an invalid node or a null topology.
[[nodiscard]] QString domainPathText(const model::Topology* topology, model::NodeId n);
/// The path of domain `d` the same way (the root gives "").
[[nodiscard]] QString domainPathText(const model::Topology* topology, model::DomainId d);
/// Unix seconds as ISO 8601 UTC ("2026-12-01T14:00:00Z"); "" for 0.
[[nodiscard]] QString isoTimeText(std::int64_t unixSeconds);

} // namespace fleet::views
