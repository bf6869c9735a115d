// SPDX-License-Identifier: Apache-2.0
#pragma once
// The main window: the fleet map, its menus, the import progress and the totals.

#include "app/controllers/importcontroller.h"
#include "app/window/windowbanners.h" // withFullStop(), which the window's parts use
#include "app/window/windowstatusbar.h"

#include "importers/plan/planfile.h"

#include "views/map/fleetmapview.h"

#include <QHash>
#include <QMainWindow>

#include <cstdint>
#include <functional>
#include <utility>
#include <memory>

namespace fleet::importers::live {
class LiveFeed;
}
namespace fleet::model {
struct ClusterChangeBatch;
struct ClusterDiff;
}

class QAction;
class QActionGroup;
class QDockWidget;
class QFrame;
class QLabel;
class QTimer;
class QMenu;
class QUndoStack;

namespace fleet::views {
class MapLegend;
}

namespace fleet::app {

struct ClusterSource;

class ClusterOpener;
class EditActions;
class StatusField;
class ExplorePanels;
class PlanController;
class PlanOpener;
class PlanDocument;
class WindowDocument;
class PlansPanel;
class PlanAutosave;
class MetricSelection;
class LiveController;
class LiveSession;
class UsageController;
class StoreReaders;
class ConnectionPanel;

/// The main window, the composition root of the GUI: it makes the parts and wires them.
/// Central widget: the error and warning banners (WindowBanners, hidden until needed) above the
/// FleetMapView. Status bar: WindowStatusBar (the cluster totals, the node under the mouse,
/// the import's progress or last message, the what-if's messages). The plan: PlanController
/// (gestures, undo stack, Plan dock) and PlanDocument (File > Open / Save / Export Plan, the
/// unsaved-plan question). The exploring docks: ExplorePanels; the live cluster: LiveSession
/// (its LiveController) and ConnectionPanel; a watched cluster's usage: UsageController. The
/// window owns the count of store readers (StoreReaders) and hands it to every part that starts
/// a worker over the store or waits for them.
///
/// What to open (File > Open, Open Simulated Cluster, Connect to Cluster, the command line) is
/// ClusterOpener's, which also names the shown cluster's source for a saved plan; the colouring
/// of the map and the prices are MetricSelection's; the Edit menu and the Plan dock's undo
/// buttons EditActions'.
/// Imports run on a worker (ImportController); the window stays responsive and keeps
/// showing the previous cluster until a new one is ready. A failed import keeps the
/// previous cluster and shows the error (file and place) in the error banner; warnings
/// are counted in the status bar and listed by the warning banner's Details button.
///
/// The window can be made as small as kMinimumSize, whatever it shows: the status bar
/// fields shorten their text (full figures in their tooltips), the map's legend hides
/// while the map is too small for it, and the import progress bar narrows.
/// Thread: GUI thread.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// The smallest size of the window (also the smallest `screenshot --size`).
    static constexpr QSize kMinimumSize { 200, 150 };
    /// How long a message of the import (cancelled) stays in the status bar, in ms.
    static constexpr int kMessageMs = WindowStatusBar::kMessageMs;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Imports `paths` as one cluster on a worker: the path File > Open takes. `usage`: where
    /// this cluster's usage comes from (a Prometheus), for this import only; nullopt: none.
    void openFiles(const QStringList& paths, ImportController::Usage usage = std::nullopt);
    /// Generates a simulated cluster on a worker (File > Open Simulated Cluster); its usage is
    /// the simulated one unless `usage` names a Prometheus.
    /// `regions` as importers::SimulationSpec::regionCount (1: one regional cluster).
    void openSimulated(std::size_t nodeCount, std::uint64_t seed, ImportController::Usage usage = std::nullopt, std::size_t regions = 1);
    /// Lists a live cluster once on a worker (`--kubeconfig FILE --context NAME`; empty: as
    /// kubectl); `usage` as for openFiles() (File > Connect's Prometheus), this connection only.
    /// `input` and `requestTimeout` as ImportController::startLive() takes them.
    void openLive(const QString& kubeconfig, const QString& context, ImportController::Usage usage = std::nullopt,
                  importers::kube::KubeconfigInput input = importers::kube::KubeconfigInput::CommandLine,
                  std::chrono::milliseconds requestTimeout = importers::kube::kDefaultRequestTimeout);
    /// Opens what a command line names: files, a simulation or a live cluster (ClusterSource).
    void openSource(const ClusterSource& source);
    /// Cancels the running import (the Cancel button).
    void cancelImport();

    // ---- live -----------------------------------------------------------------
    /// Makes the shown cluster live: `feed` (any LiveFeed: the simulated feed, the Kubernetes
    /// watch) starts on its own thread and each of its batches is applied to the shown store
    /// as one transaction on this thread (LiveController), then the map, the status bar, the
    /// panels and the plan follow (LiveSession). The connection dock shows the feed's status.
    /// Returns false (and starts nothing) before the first cluster is shown. A new import
    /// stops the feed. While a plan has actions the batches are held (the plan marks its
    /// actions they make stale) and applied once the plan is cleared.
    bool startLiveFeed(std::unique_ptr<importers::live::LiveFeed> feed);
    /// Stops the live feed, if any (the store keeps what was applied).
    void stopLiveFeed();
    /// Whether a cluster listed from kubeconfig is then watched (importers/live/kubewatchfeed.h);
    /// on by default, off for `screenshot` (one LIST, no watch).
    void setWatchLiveClusters(bool on);
    /// The live session, its controller and the connection panel (never null).
    [[nodiscard]] LiveSession* liveSession() const noexcept { return m_liveSession; }
    [[nodiscard]] LiveController* liveController() const;
    [[nodiscard]] ConnectionPanel* connectionPanel() const noexcept { return m_connectionPanel; }
    /// The status bar's partial-view notice ("Partial view: pods of 1 of 2 namespaces (not
    /// listed: cache), ..."), or "" while the view is whole (ConnectionPanel::partialView()).
    [[nodiscard]] QString partialViewNotice() const;
    /// While a live cluster whose usage comes from a Prometheus is watched, its usage is
    /// queried again every `ms` (default UsageController::kDefaultRefreshMs; tests shorten it):
    /// the queries on a worker, the join to the store by node and pod names on this thread,
    /// between batches, so that the usage's ids are the store's now (UsageController). Takes
    /// effect at the next watch.
    void setUsageRefreshInterval(int ms) noexcept;
    /// Usage refreshes joined since the window was made.
    [[nodiscard]] std::uint64_t usageRefreshes() const noexcept;
    /// Live diffs applied to the shown cluster since the window was made.
    [[nodiscard]] std::uint64_t liveDiffsShown() const noexcept;
    /// The usage refresh of a watched cluster (never null).
    [[nodiscard]] UsageController* usageController() const noexcept { return m_usage; }
    /// The window's count of workers that read its store (never null): a worker holds a
    /// StoreReadGuard on it while it reads; live batches wait for them.
    [[nodiscard]] const std::shared_ptr<StoreReaders>& storeReaders() const noexcept { return m_storeReaders; }

    /// The map and the import controller, owned by the window (never null).
    [[nodiscard]] views::FleetMapView* mapView() const noexcept { return m_map; }
    [[nodiscard]] ImportController* importController() const noexcept { return m_imports; }
    /// The exploring docks and toolbar (inspectors, problems, pending, heatmap, search, filter).
    [[nodiscard]] ExplorePanels* explorePanels() const noexcept { return m_explore; }
    /// The what-if plan of the shown cluster, its undo stack (Edit menu) and dock.
    [[nodiscard]] PlanController* planController() const noexcept { return m_plan; }
    /// The source a plan saved now names (resources/schemas/plan-v1.md): the shown files with
    /// their SHA-256 (read now), the simulation, or the live cluster's server and
    /// resourceVersion. Throws importers::PlanFileError when a shown file cannot be read.
    [[nodiscard]] importers::PlanSource planSource() const;
    [[nodiscard]] QUndoStack* undoStack() const noexcept { return m_undoStack; }
    /// The plan's status line (a refused drop's reasons, what an action did), or empty.
    [[nodiscard]] QString planStatusText() const;
    /// The cluster shown, or null before the first import finished.
    [[nodiscard]] std::shared_ptr<const ImportedCluster> cluster() const noexcept { return m_cluster; }
    /// The status bar's totals text in full, as formatTotals() (empty before the first cluster).
    [[nodiscard]] QString totalsText() const;
    /// The status bar totals' tooltip: the figures in full (clusterTotalsDetails()).
    [[nodiscard]] QString totalsToolTip() const;
    /// The totals as the status bar shows them at the current width (maybe shortened).
    [[nodiscard]] QString displayedTotalsText() const;
    /// The error banner's text (plain), or empty when it is hidden.
    [[nodiscard]] QString errorText() const;
    /// The warning banner's text, or empty when it is hidden.
    [[nodiscard]] QString warningText() const;
    /// The import field's full text: "Importing… 36%" while an import runs, then a message
    /// such as "Import of X cancelled." for kMessageMs, else empty.
    [[nodiscard]] QString importStatusText() const;
    /// The status bar's name of the node under the pointer, or empty (none, the pointer left
    /// the map, or the cluster was replaced since).
    [[nodiscard]] QString hoverText() const;
    /// Milliseconds that the last FleetMapView::setCluster() took on the GUI thread (layout, raster).
    [[nodiscard]] qint64 lastSetClusterMs() const noexcept { return m_lastSetClusterMs; }

    // ---- the plan as a document (PlanDocument, WindowDocument) ---------------------------
    /// True when the plan differs from what was last saved or opened: the undo stack is not at
    /// its clean state (QUndoStack::isClean()). A new cluster starts with a clean stack.
    [[nodiscard]] bool isPlanModified() const;
    /// File > Open Plan: re-evaluates plan file `path` against the shown cluster on a worker
    /// (PlanOpener: progress and Cancel after half a second) and shows it as the plan, every
    /// action with holds / does not hold in the Plan dock. Asks first (Save / Discard / Cancel)
    /// when the current plan is modified. False when nothing started (no what-if ready yet, the
    /// user cancelled, or an open runs).
    bool openPlanFile(const QString& path);
    [[nodiscard]] PlanOpener* planOpener() const;
    /// The window's .fleet document: the cluster shown and its plans (File > Save, Save As, Open
    /// Recent, the title, the Plans list); never null.
    [[nodiscard]] WindowDocument* document() const noexcept { return m_document; }
    /// The Plans dock and menu (never null).
    [[nodiscard]] PlansPanel* plansPanel() const noexcept { return m_plansPanel; }
    /// The files the shown cluster was read from (empty for a simulation or a live cluster).
    [[nodiscard]] QStringList shownFiles() const;
    /// Remembers the window's geometry and dock layout between runs (QSettings): restores them
    /// now and saves them when the window closes. Off unless called (tests start the default layout).
    void rememberSession();
    /// Shrinks and moves the window into its screen's free area (its frame allowed for) where it
    /// does not fit. Thread: GUI thread.
    void fitToScreen();
    /// Autosaves the shown plan every `intervalMs` into the user's data folder and, once the
    /// first what-if is ready, offers back a plan left by a run that did not quit cleanly
    /// (PlanAutosave). Off unless called.
    void startAutosave(int intervalMs);
    /// The plan file last saved to or opened ("" when none): where the quit prompt's Save writes.
    [[nodiscard]] QString planPath() const;
    /// Writes the plan to `path` (naming planSource()); on success the stack's clean state is
    /// now and planPath() is `path`. Returns "" or the error for people.
    QString savePlanTo(const QString& path);
    /// The source of the shown cluster as planSource() names it, as a function to run on a
    /// worker (the files' digests are read there; File > Open Plan).
    [[nodiscard]] std::function<importers::PlanSource()> planSourceOnWorker() const;
    /// After a dialog closed: activates the window again and gives the map the keyboard
    /// focus. Without a window manager (Xvfb, some kiosk setups) nothing re-activates the
    /// window, and its shortcuts stayed dead until the map was clicked (user trial).
    void restoreMapFocus();

    /// Colours the map by `metric` or by the metric with `id` (MetricSelection::setMetric()).
    void setMetric(views::MapMetric metric);
    bool setMetric(const QString& id);
    /// Prices for the cost metrics (MetricSelection::setPriceOverrideFile()).
    bool setPriceOverrideFile(const QString& overrideFile, QString& error);
    /// The prices in use for the cost metrics and the plan's costs (never null once the menus exist).
    [[nodiscard]] std::shared_ptr<const model::PriceTable> prices() const noexcept;
    /// The id of the metric chosen in the Metric menu ("gpu", "cost", ...).
    [[nodiscard]] QString metricId() const;

    /// Whether a failed import is also logged as a warning (category "fleet.app", so on
    /// stderr by default) besides the error banner. On by default; the screenshot command,
    /// which reports the error itself, turns it off.
    void setLogImportErrors(bool log) noexcept { m_logImportErrors = log; }

signals:
    /// A new cluster is on the map (after FleetMapView::setCluster() returned).
    void clusterShown();
    /// Live diffs are on the map (after it was recoloured, once for the diffs of one turn of the
    /// event loop, or laid out again).
    void liveDiffShown();
    /// A usage refresh was joined to the shown cluster (cluster()->usage is the new one), or
    /// failed (`error`: the server's message; the usage shown stays).
    void usageRefreshed(const QString& error);
    /// An import failed; `message` names the file and the place. The previous cluster stays.
    void importFailed(const QString& message);

private:
    void createMenus();
    void onImportStarted(const QString& label);
    void onProgress(int permille);
    void onImportFinished(std::shared_ptr<const ImportedCluster> cluster);
    void onImportFailed(const QString& message);
    void onImportCancelled();
    void onNodeHovered(model::NodeId node);
    void updateLegendVisibility();
    /// The live session, the Connection dock and Plan > Pause Live Updates, wired.
    void createLivePanel();
    /// The status bar's totals and their tooltip from m_cluster->totals (at load and after each
    /// live change, so the tooltip's figures are the bar's).
    void showTotals();
    /// Shows or hides the partial-view notice as the connection panel says (on each status).
    void updatePartialView();
    /// The shown cluster's LIST view to the connection panel and the notice (a new cluster).
    void showListedView();
    /// Shows `usage` as the shown cluster's (the metric, the node inspector).
    void showUsage(std::shared_ptr<const model::ClusterUsage> usage);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    /// Closing the window (Ctrl+Q, File > Quit, the window manager) with unsaved changes asks
    /// Save / Discard / Cancel first (WindowDocument::confirmClose(): the document, or a plan
    /// alone); Cancel, or a save that fails or is cancelled, keeps the window open.
    void closeEvent(QCloseEvent* event) override;

private:
    std::shared_ptr<StoreReaders> m_storeReaders; // first: every part below may count a reader in it
    ImportController* m_imports = nullptr;
    views::FleetMapView* m_map = nullptr;
    ExplorePanels* m_explore = nullptr;
    QUndoStack* m_undoStack = nullptr;
    PlanController* m_plan = nullptr;
    EditActions* m_editActions = nullptr; // Edit > Undo, Redo, Copy Node Name; the Plan dock's buttons
    ClusterOpener* m_opener = nullptr; // File > Open, Simulate, Connect; the shown cluster's source
    PlanDocument* m_planDocument = nullptr;
    WindowDocument* m_document = nullptr;
    PlansPanel* m_plansPanel = nullptr;
    PlanAutosave* m_autosave = nullptr;
    bool m_rememberSession = false;
    WindowStatusBar* m_status = nullptr;
    std::shared_ptr<const ImportedCluster> m_cluster;
    QString m_pendingLabel;
    qint64 m_lastSetClusterMs = 0;
    bool m_logImportErrors = true;

    WindowBanners* m_banners = nullptr; // the error and warning banners above the map
    views::MapLegend* m_legend = nullptr; // the map's own, hidden while the map is too small
    MetricSelection* m_metrics = nullptr; // the metric chosen, the prices, the Metric menu

    LiveSession* m_liveSession = nullptr;
    UsageController* m_usage = nullptr;
    ConnectionPanel* m_connectionPanel = nullptr;
    QDockWidget* m_connectionDock = nullptr;
    /// Starts the WATCH of the shown live cluster (after its LIST); a feed that cannot start is a warning.
    void startKubeWatch();
};

} // namespace fleet::app
