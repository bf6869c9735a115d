// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exploring docks of the main window (inspectors, problems, pending demand, heatmaps)
// and the search / filter toolbar, wired to the fleet map.

#include "model/clusterchange.h"
#include "model/nodeproblems.h"
#include "model/pendingdemand.h"
#include "app/window/clustertotals.h"
#include "model/topology.h"

#include <QElapsedTimer>
#include <QObject>
#include <QSize>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

class QDockWidget;
class QMainWindow;
class QTimer;
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
class PlanLedger;
class SearchIndex;
} // namespace fleet::model

namespace fleet::app {

class StoreReaders;

/// What the Node dock's title calls a node named `name`: a DNS-style name
/// (ip-10-1-2-3.us-west-2.compute.internal) by its host part, which tells nodes apart (whole,
/// it filled the dock's tab bar; the inspector's header has the full name); other names whole.
/// Thread: any.
[[nodiscard]] QString nodeTitleName(const QString& name);

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
    /// `readers` (not null): the window's count of store readers, where the analysis' worker
    /// is counted while it reads the shown store.
    ExplorePanels(QMainWindow* window, views::FleetMapView* map, std::shared_ptr<StoreReaders> readers);
    ~ExplorePanels() override;

    /// Every tab of the window's stacked docks fits in its tab bar (the Node dock's beside Domain
    /// and Changes): elided in the middle where the bar is short, never scrolled out of view
    /// behind arrows. Applied to each tab bar the window makes (QEvent::ChildPolished).
    bool eventFilter(QObject* watched, QEvent* event) override;

    /// Shows a new cluster in every panel (null pointers clear them).
    void setCluster(std::shared_ptr<const model::ClusterStore> store, std::shared_ptr<const model::Topology> topology);
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
        std::shared_ptr<const model::SearchIndex> index; // null: keep the one shown
        std::shared_ptr<const ClusterTotals> totals;      // null: no totals function
        std::shared_ptr<model::ClusterStore> liveCopy;    // live: the copy analysed, kept for the next
        bool copyFailed = false;                          // the copy refused a batch (nothing else set)
    };

    /// A live batch changed the store in place (no node added, removed or relabelled): the
    /// problems, the pending shapes, the map's markers and (with setTotalsFunction()) the
    /// status bar's totals are computed again on one worker over one state of the store, so
    /// every count the window shows of the same thing agrees; the search index too when
    /// `names` (pods added or removed). The worker reads a copy of the store that it keeps up
    /// to date with `batch` (the one just applied to the store) and those before it: the copy
    /// is taken once under a StoreReadGuard, after which no batch waits for an analysis. At
    /// most one such worker runs, started at most once a second (kLiveRefreshIntervalMs);
    /// batches meanwhile make it run once more when it ends, so the last batch is always
    /// shown, about a second and an analysis behind; the search index is sorted again at most
    /// every 10 s (kLiveIndexIntervalMs), so a pod added live is found at most that much later.
    void refreshAnalysis(bool names, const model::ClusterChangeBatch& batch);
    /// A live feed is about to change the store: the analysis' copy is taken now (a refresh
    /// starts, unless one runs), so that the feed's first batches wait for the copy while the
    /// pod name index is built (LiveController::start()), not after it.
    void followLiveStore();
    /// The status bar's totals, computed by the analysis worker over the state it reads (empty:
    /// none); analysedTotals() gives them once analysisApplied().
    void setTotalsFunction(std::function<ClusterTotals(const model::ClusterStore&)> totals);
    /// The plan's state (PlanController::planState(); null: no plan), for the Pending panel's
    /// "under the plan" line and its dock's title ("Pending (344 pods, 222 left by the plan)").
    /// `copiedFrom`: the store the plan's store copies (PlanController::shownStore() while the
    /// engine reads a placement's copy of it), or null (PendingPanel::setPlanState()).
    void setPlanState(std::shared_ptr<const model::PlanLedger> plan, std::shared_ptr<const model::ClusterStore> copiedFrom = nullptr);
    /// The totals of the last analysis applied (null without a totals function).
    [[nodiscard]] std::shared_ptr<const ClusterTotals> analysedTotals() const { return m_analysedTotals; }

signals:
    /// The worker's results are in the panels (problems, pending, search) and, with a totals
    /// function, analysedTotals() holds the status bar's totals over the same state.
    void analysisApplied();

private:
    void selectAndZoom(model::NodeId node);
    void showNode(model::NodeId node);
    void showDomain(model::DomainId domain);
    /// Puts an analysis in the panels a part a turn of the event loop (`stage` 0: the problems;
    /// 1: the map's markers; 2: the pending shapes; 3: the search index, then analysisApplied):
    /// all in one turn held the GUI thread about 140 ms at 100,000 nodes. The stages of an
    /// analysis of a cluster since replaced are dropped.
    void applyAnalysis(std::shared_ptr<const Analysis> analysis, int stage = 0);
    /// "Problems (N)", or "Problems (N of M, filtered)" under the label filter.
    void updateProblemsTitle();
    void updatePendingTitle();
    /// `dock` (Problems, Pending or Heatmap) opened beside the Plan dock ("planDock", in the same
    /// area, side by side): the two share the width in halves, so a wide table never squeezes
    /// the plan's actions to a sliver.
    void shareWidthWithPlan(QDockWidget* dock);

    QMainWindow* m_window = nullptr;
    views::FleetMapView* m_map = nullptr;
    std::shared_ptr<const model::ClusterStore> m_store;
    std::shared_ptr<StoreReaders> m_readers;
    std::shared_ptr<const model::Topology> m_topology;
    std::shared_ptr<const std::vector<std::uint8_t>> m_filterMask; // the label filter's (null: none)
    std::uint64_t m_generation = 0;
    std::uint64_t m_pendingGeneration = 0;
    /// Starts the analysis worker over m_store (the index when `index`), or over m_liveCopy
    /// when `onLiveCopy` (made first if there is none).
    void startAnalysis(bool index, bool onLiveCopy);
    /// Starts the refresh refreshAnalysis() asked for, unless one runs or one started less
    /// than kLiveRefreshIntervalMs ago (then on m_refreshTimer).
    void scheduleRefresh();
    static constexpr qint64 kLiveRefreshIntervalMs = 1000;
    static constexpr qint64 kLiveIndexIntervalMs = 10000; // the search index's, live
    QElapsedTimer m_lastIndexStart;
    QTimer* m_indexTimer = nullptr; // the names left unsorted by the last refresh
    bool m_analysisRunning = false;
    bool m_analysisAgain = false, m_namesAgain = false; // batches came since the last start
    QElapsedTimer m_lastAnalysisStart;
    QTimer* m_refreshTimer = nullptr;
    // The live analysis' copy of m_store (null: none yet, or a worker has it) and the batches
    // applied to m_store that it lacks, in order. GUI thread; a worker owns the copy while it runs.
    std::shared_ptr<model::ClusterStore> m_liveCopy;
    std::vector<model::ClusterChangeBatch> m_liveBatches;
    std::function<ClusterTotals(const model::ClusterStore&)> m_totals;
    std::shared_ptr<const ClusterTotals> m_analysedTotals;

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
