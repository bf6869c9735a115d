// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Problems panel: every node problem (and pod on an unknown node) in a sortable table.

// fleetmapview.h declares NodeId as a metatype; every moc that uses NodeId must see it first.
#include "model/nodeproblems.h"
#include "model/topology.h"
#include "views/map/fleetmapview.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace fleet::views {

class ProblemsModel;

/// A ProblemsModel behind a sorting, filtering proxy (the line edit matches any column),
/// with a summary line ("501 NotReady · 701 cordoned · ..."). A click on a row with a node
/// emits nodeActivated (the app selects it and zooms the map to it). Thread: GUI thread.
class ProblemsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProblemsPanel(QWidget* parent = nullptr);

    void setProblems(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
        std::vector<model::NodeProblem> problems);
    [[nodiscard]] ProblemsModel* problemsModel() const noexcept { return m_model; }
    [[nodiscard]] QSortFilterProxyModel* proxy() const noexcept { return m_proxy; }
    [[nodiscard]] QTableView* view() const noexcept { return m_view; }
    /// The label filter's node mask (FilterField::maskChanged; null: every node): only the
    /// problems of the nodes it keeps are listed (a pod on an unknown node has none and is
    /// left out), and the summary starts with "Label filter: N of M problems".
    void setNodeMask(std::shared_ptr<const std::vector<std::uint8_t>> mask);
    /// The number of problems listed.
    [[nodiscard]] int problemCount() const;
    /// The number of problems of the whole cluster (with or without a filter).
    [[nodiscard]] int totalProblemCount() const noexcept { return static_cast<int>(m_all.size()); }
    [[nodiscard]] QString summaryText() const;

signals:
    void nodeActivated(fleet::model::NodeId node);

private:
    void refill();

    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::Topology> m_topology;
    std::vector<model::NodeProblem> m_all;
    std::shared_ptr<const std::vector<std::uint8_t>> m_mask;
    ProblemsModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_summary = nullptr;
    QTableView* m_view = nullptr;
};

} // namespace fleet::views
