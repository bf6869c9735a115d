// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exploring docks of the main window (inspectors, problems, pending demand, heatmaps)
// and the search / filter toolbar, wired to the fleet map.

#include "model/nodeproblems.h"
#include "model/pendingdemand.h"
#include "model/topology.h"

#include <QObject>
#include <QSize>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <vector>

class QDockWidget;
class QMainWindow;
class QToolBar;
class QWidget;

namespace fleet::views {
class DomainInspector;
class FilterField;
class FleetMapView;
class HeatmapPanel;
class NodeInspector;
class PendingPanel;
class ProblemsPanel;
class SearchField;
} // namespace fleet::views

namespace fleet::model {
class SearchIndex;
} // namespace fleet::model

namespace fleet::app {

/// Builds and owns (through the window) the exploring docks and toolbar of `window` and
/// wires them to `map`:
/// Every dock starts hidden, so the map has the whole window until asked: the toolbar holds
/// toggles for Problems, Pending and Heatmap (with their counts in the text).
/// - right, tabbed: the node inspector (opened by a click on a node: nodeActivated selects it,
///   selectionChanged shows it) and the domain inspector (domainActivated, or a heatmap row);
/// - bottom, tabbed: Problems (N) (a click selects the node and zooms to it; the problem
///   nodes go to FleetMapView::setProblemNodes), Pending (N pods) and Heatmap (a click on a
///   row zooms to the domain);
/// - a toolbar with the search field (Ctrl+F) (a node or pod name; the node found is selected and
///   zoomed to) and the filter field (Ctrl+L; FleetMapView::setNodeMask).
/// setCluster() computes the problems, pending shapes and the search index on a worker
/// (QtConcurrent) and applies them when they arrive; a result for a replaced cluster is
/// dropped (generation counter). Thread: GUI thread.
class ExplorePanels : public QObject {
    Q_OBJECT
public:
    ExplorePanels(QMainWindow* window, views::FleetMapView* map);
    ~ExplorePanels() override;

    /// Shows a new cluster in every panel (null pointers clear them).
    void setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology);
    /// Shows or hides every exploring dock (not the toolbar); `screenshot` without `--panel`
    /// may hide them so that the image is the map.
    void setDocksVisible(bool visible);
    /// True while the worker of the last setCluster() has not reported.
    [[nodiscard]] bool isIndexing() const noexcept { return m_pendingGeneration != 0; }

    [[nodiscard]] views::NodeInspector* nodeInspector() const noexcept { return m_nodeInspector; }
    [[nodiscard]] views::DomainInspector* domainInspector() const noexcept { return m_domainInspector; }
    [[nodiscard]] views::ProblemsPanel* problemsPanel() const noexcept { return m_problems; }
    [[nodiscard]] views::PendingPanel* pendingPanel() const noexcept { return m_pending; }
    [[nodiscard]] views::HeatmapPanel* heatmapPanel() const noexcept { return m_heatmap; }
    [[nodiscard]] views::SearchField* searchField() const noexcept { return m_search; }
    [[nodiscard]] views::FilterField* filterField() const noexcept { return m_filter; }
    [[nodiscard]] QDockWidget* nodeDock() const noexcept { return m_nodeDock; }
    [[nodiscard]] QDockWidget* domainDock() const noexcept { return m_domainDock; }
    [[nodiscard]] QDockWidget* problemsDock() const noexcept { return m_problemsDock; }
    [[nodiscard]] QDockWidget* pendingDock() const noexcept { return m_pendingDock; }
    [[nodiscard]] QDockWidget* heatmapDock() const noexcept { return m_heatmapDock; }

    /// What the worker computes for one cluster.
    struct Analysis {
        std::uint64_t generation = 0;
        std::vector<model::NodeProblem> problems;
        std::vector<model::PendingShape> shapes;
        std::shared_ptr<const model::SearchIndex> index;
    };

signals:
    /// The worker's results are in the panels (problems, pending, search).
    void analysisApplied();

private:
    void selectAndZoom(model::NodeId node);
    void showNode(model::NodeId node);
    void showDomain(model::DomainId domain);
    void applyAnalysis(const Analysis& analysis);

    QMainWindow* m_window = nullptr;
    views::FleetMapView* m_map = nullptr;
    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<const model::Topology> m_topology;
    std::uint64_t m_generation = 0;
    std::uint64_t m_pendingGeneration = 0;

    views::NodeInspector* m_nodeInspector = nullptr;
    views::DomainInspector* m_domainInspector = nullptr;
    views::ProblemsPanel* m_problems = nullptr;
    views::PendingPanel* m_pending = nullptr;
    views::HeatmapPanel* m_heatmap = nullptr;
    views::SearchField* m_search = nullptr;
    views::FilterField* m_filter = nullptr;
    QToolBar* m_toolbar = nullptr;
    QDockWidget* m_nodeDock = nullptr;
    QDockWidget* m_domainDock = nullptr;
    QDockWidget* m_problemsDock = nullptr;
    QDockWidget* m_pendingDock = nullptr;
    QDockWidget* m_heatmapDock = nullptr;
};

/// The names `screenshot --panel` takes: "problems", "pending", "heatmap".
[[nodiscard]] QStringList screenshotPanelNames();
/// A new top-level panel widget for `name` (screenshotPanelNames()) filled from `store` and
/// `topology` synchronously (problems: model::findNodeProblems; pending:
/// model::groupPendingPods; heatmap: HeatmapPanel), laid out at `size` (logical pixels) and
/// ready for QWidget::render() or grab() into an image; plain widgets, so no OpenGL is
/// needed. Null for an unknown name or a null store. The caller owns the widget.
/// Thread: GUI thread.
[[nodiscard]] std::unique_ptr<QWidget> createScreenshotPanel(const QString& name,
    std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology, QSize size);

} // namespace fleet::app
