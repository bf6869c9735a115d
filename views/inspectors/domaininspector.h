// SPDX-License-Identifier: Apache-2.0
#pragma once
// The domain inspector: a topology domain's aggregates, utilization histogram and nodes.

// fleetmapview.h declares NodeId as a metatype; every moc that uses NodeId must see it first.
#include "model/topology.h"
#include "views/heatmaps/domainaggregates.h"
#include "views/map/fleetmapview.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace fleet::views {

class NodeTableModel;
class UtilizationHistogram;

/// Shows one domain (a region, zone, network layer, GPU model group, or the whole cluster):
/// its path, aggregates (nodes, Ready, cordoned, GPUs, pods, requested share of cpu, memory
/// and GPU over the domain), a histogram of its nodes' share under the map's GPU metric
/// (GPU, else MIG slices, else Neuron, else CPU; 10 bins) and its node table (NodeTableModel
/// behind a sorting, filtering proxy). Thread: GUI thread.
class DomainInspector : public QWidget {
    Q_OBJECT
public:
    explicit DomainInspector(QWidget* parent = nullptr);
    ~DomainInspector() override;

    void setDomain(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology,
        model::DomainId domain);
    /// The open plan's ledger (null: the loaded state): the aggregates show the domain under it
    /// (DomainAggregates::compute()), as the node inspector shows a node under it. Refreshes the
    /// domain shown; call again after the plan changed. A ledger over another store than the
    /// domain's is not used, unless that store is a copy of the domain's (`copiedFrom`, as
    /// PendingPanel::setPlanState(): a placement's copy, the same node ids): then the aggregates
    /// are those of the copy under the plan.
    void setPlanState(std::shared_ptr<const model::PlanLedger> plan, std::shared_ptr<const model::ClusterStore> copiedFrom = nullptr);
    [[nodiscard]] model::DomainId domain() const noexcept { return m_domain; }
    [[nodiscard]] const DomainAggregates& aggregates() const noexcept { return m_aggregates; }
    [[nodiscard]] NodeTableModel* nodesModel() const noexcept { return m_nodes; }
    [[nodiscard]] QSortFilterProxyModel* nodesProxy() const noexcept { return m_proxy; }
    [[nodiscard]] UtilizationHistogram* histogram() const noexcept { return m_histogram; }
    /// The title: the domain's path ("us-east-1 > us-east-1a"), "Cluster" for the root.
    [[nodiscard]] QString titleText() const;
    /// The aggregates as shown, one "name: value" per line.
    [[nodiscard]] QString aggregatesText() const;

signals:
    /// A node row was double-clicked.
    void nodeActivated(fleet::model::NodeId node);

private:
    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::Topology> m_topology;
    std::shared_ptr<const model::PlanLedger> m_plan;
    std::weak_ptr<const model::ClusterStore> m_planCopiedFrom; // only compared: a freed store matches none
    model::DomainId m_domain;
    DomainAggregates m_aggregates;
    void showAggregates();
    QLabel* m_title = nullptr;
    QLabel* m_figures = nullptr;
    UtilizationHistogram* m_histogram = nullptr;
    NodeTableModel* m_nodes = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QLineEdit* m_filter = nullptr;
    QTableView* m_view = nullptr;
};

} // namespace fleet::views
