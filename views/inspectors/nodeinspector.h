// SPDX-License-Identifier: Apache-2.0
#pragma once
// The node inspector: everything about one node, opened by a click on the map.

// fleetmapview.h declares NodeId as a metatype; every moc that uses NodeId must see it first.
#include "model/clusterstore.h"
#include "model/scheduling/planledger.h"
#include "model/topology.h"
#include "model/usage.h"
#include "views/map/fleetmapview.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTreeWidget;

namespace fleet::views {

class IdleGpusModel;
class NodePodsModel;
class NodeResourcesModel;

/// Shows one node: a header (name, domain path, instance type, Ready, cordoned), its GPUs
/// (count, model, allocated: whole GPUs requested of allocatable), its labels, taints and
/// conditions (a tree, one section each), its resources (NodeResourcesModel: allocatable,
/// capacity, requested, share per resource, extended ones included) and its pods
/// (NodePodsModel behind a sorting proxy; the filter line edit matches any column,
/// case-insensitively). With a usage source (setUsage()), the pods holding the node's
/// allocated-but-idle GPUs (IdleGpusModel: the usage source's idle rule, the one the map's
/// "gpu-idle" metric counts), shown for nodes with GPUs ("unknown" without figures). Thread: GUI thread.
class NodeInspector : public QWidget {
    Q_OBJECT
public:
    explicit NodeInspector(QWidget* parent = nullptr);
    ~NodeInspector() override;

    /// Shows node `node` (an invalid id or a null store: "No node selected"). A node the plan
    /// added (an id from the store's node count up, under setPlanState()'s plan) is shown with
    /// its template's allocatable, capacity, instance type and GPUs, its own labels, the taints
    /// it copies, the pods the plan put on it and its template's price; it has no conditions.
    void setNode(
        std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology, model::NodeId node);
    [[nodiscard]] model::NodeId node() const noexcept { return m_node; }
    /// The plan's ledger (null: the loaded state): the resources' requested column, the GPU
    /// line, the pods table and the header show the node under it (views/nodeview/plannodeview.h).
    /// Refreshes the node shown; call again after the plan changed.
    void setPlanState(std::shared_ptr<const model::PlanLedger> plan);
    /// Node prices in $/h by store NodeId (PlanController::nodePrices(); empty: unknown), shown
    /// in the header; an added node costs its template's (PlanLedger's rule).
    void setPrices(std::vector<double> pricePerHour);
    /// The usage of the shown cluster (null: none): the idle GPUs section. Refreshes the node
    /// shown; a usage for another node count shows no section.
    void setUsage(std::shared_ptr<const model::ClusterUsage> usage);

    /// Selects pod `pod`'s row in the pods table (clearing its filter line when that hides the
    /// row) and scrolls to it; false when the shown node has no such pod.
    bool selectPod(model::PodId pod);
    /// The pod of the pods table's current row (invalid when none).
    [[nodiscard]] model::PodId selectedPod() const;
    /// The part of the node's name selected in the header (a double-click selects it whole).
    [[nodiscard]] QString selectedTitleText() const;

    /// The parts, for tests and for the app to tune.
    [[nodiscard]] NodeResourcesModel* resourcesModel() const noexcept { return m_resources; }
    [[nodiscard]] NodePodsModel* podsModel() const noexcept { return m_pods; }
    [[nodiscard]] QSortFilterProxyModel* podsProxy() const noexcept { return m_podsProxy; }
    [[nodiscard]] QLineEdit* podFilter() const noexcept { return m_podFilter; }
    [[nodiscard]] QTreeWidget* detailsTree() const noexcept { return m_details; }
    [[nodiscard]] IdleGpusModel* idleGpusModel() const noexcept { return m_idle; }
    /// The idle GPUs section's title (IdleGpusModel::idleGpusText()): "Allocated but idle GPUs:
    /// 2, held by 1 pod (below 5% for 1 h or more)", "... unknown (no usage source)"; "" while
    /// hidden (no node, or a node without GPUs).
    [[nodiscard]] QString idleGpusText() const;
    /// The header's text (plain): "duckboat-01" then the details line.
    [[nodiscard]] QString headerText() const;
    /// The GPU line: "8 GPUs (NVIDIA-H100-80GB-HBM3), 5 GPUs allocated", or "No GPUs".
    [[nodiscard]] QString gpuText() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    /// A pod row was double-clicked.
    void podActivated(fleet::model::PodId pod);

private:
    void fillDetails();

    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::Topology> m_topology;
    std::shared_ptr<const model::PlanLedger> m_plan;
    std::vector<double> m_prices;
    std::shared_ptr<const model::ClusterUsage> m_usage;
    model::NodeId m_node;
    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QLabel* m_gpus = nullptr;
    QTreeWidget* m_details = nullptr;
    NodeResourcesModel* m_resources = nullptr;
    QTableView* m_resourcesView = nullptr;
    NodePodsModel* m_pods = nullptr;
    QSortFilterProxyModel* m_podsProxy = nullptr;
    QLineEdit* m_podFilter = nullptr;
    QTableView* m_podsView = nullptr;
    QLabel* m_podsTitle = nullptr;
    IdleGpusModel* m_idle = nullptr;
    QTableView* m_idleView = nullptr;
    QLabel* m_idleTitle = nullptr;
    QWidget* m_idleBox = nullptr; // hidden for a node without GPUs
    QWidget* m_body = nullptr; // the tables, hidden while no node is shown
};

} // namespace fleet::views
