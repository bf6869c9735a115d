// SPDX-License-Identifier: Apache-2.0
#pragma once
// A live cluster in the window: the LiveController that applies a LiveFeed's batches to the
// shown store, whether they are held (Plan > Pause Live Updates, or a plan with actions), and
// what each applied diff makes the map, the exploring panels and the plan do.
//
// What is built from the store at load, and what a diff does to it:
// - topology, the map's layout, the exploring analysis (problems, pending shapes, search):
//   rebuilt when nodes were added, deleted or relabelled (the layout depends on them);
// - the map's colours (every metric reads the columns): recoloured once per turn of the event
//   loop that applied diffs (FleetMapView::refreshMetric(), one pass over the nodes), so the map
//   redraws at most once per batch; the controller applies batches for at most 12 ms a turn;
// - the problems, pending shapes, problem markers and the status bar's totals: computed again
//   after the diffs on one worker over one state (ExplorePanels::refreshAnalysis(): at most one
//   start a second, over the analysis' own copy of the store, which the worker brings up to
//   date with the batches applied since; only taking the copy, once, holds the batches), so
//   the legend's marker key, the markers, the status bar and the Problems and Pending titles
//   give the same counts;
// - the plan engine (the what-if ledger, PlanLedger): built over one state, so it is
//   dropped on every diff and rebuilt on a worker once the feed paused for 3 s (its build holds
//   the batches) (PlanController::storeChanged()); while a plan has actions the batches are held
//   instead and the plan marks the actions they make stale (PlanController::checkStale());
// - usage (the simulated usage or Prometheus'): kept by node and pod id as read; pods added
//   live have no usage (unknown), which the usage metrics say (UsageController refreshes it).
// Workers that read the store hold a StoreReadGuard on it; its batches wait for them
// (LiveController).

#include "app/controllers/importcontroller.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>

class QAction;
class QMenu;
class QTimer;

namespace fleet::importers::live {
class LiveFeed;
}
namespace fleet::model {
struct ClusterChangeBatch;
struct ClusterDiff;
}
namespace fleet::views {
class FleetMapView;
}

namespace fleet::app {

class ExplorePanels;
class LiveController;
class PlanController;
class StoreReaders;

/// Owns the LiveController and the live state of one window: running or not, paused by the
/// user, held for a plan, the diffs shown, the one recolour posted per turn, the totals timer.
/// The window's shown cluster stays the window's: the session reads it through `shown` and,
/// when a diff makes a new version of it (a new topology, new totals), hands that version out
/// (topologyRebuilt(), totalsUpdated()) for the window to show. Thread: GUI thread.
class LiveSession : public QObject {
    Q_OBJECT
public:
    /// What a diff drives (none null; each outlives the session).
    struct Parts {
        views::FleetMapView* map = nullptr;
        ExplorePanels* explore = nullptr;
        PlanController* plan = nullptr;
    };
    /// `readers`: the window's count of store readers, which batches wait for. `shown`: the
    /// window's cluster now (null before the first).
    LiveSession(Parts parts, std::shared_ptr<StoreReaders> readers, std::function<std::shared_ptr<const ImportedCluster>()> shown,
        QObject* parent);
    ~LiveSession() override;

    /// The controller that applies the batches (never null).
    [[nodiscard]] LiveController* controller() const noexcept { return m_live; }
    /// Adds Plan > Pause Live Updates (Ctrl+Shift+L) to `menu`: enabled while a feed runs.
    void addPauseAction(QMenu* menu);

    /// Starts `feed` (not null) over `store` (the shown one; from now on changed only by the
    /// controller, on this thread). Batches are held at once if a plan has actions.
    void start(std::unique_ptr<importers::live::LiveFeed> feed, std::shared_ptr<model::ClusterStore> store);
    /// Stops the feed (joins its thread; the store keeps what was applied) and forgets the
    /// pause. Idempotent.
    void stop();
    [[nodiscard]] bool isRunning() const;

    /// Plan > Pause Live Updates: while paused the batches wait (LiveController::setHeld())
    /// and the what-if is built on the state held; resumed, they apply (unless a plan holds them).
    /// No-op without a running feed.
    void setPaused(bool paused);
    /// Holds the batches while the plan has actions, or the undo stack has steps to redo (the
    /// user's undone work, which applying a batch would drop with the engine it acts on), or the
    /// user paused; else lets them apply, in the next turn of the event loop (says so when a plan
    /// that held them emptied). Call when the plan changes.
    void updateHold();
    /// Plan > Apply Waiting Live Updates: the plan is empty and only Redo's history holds the
    /// batches; drops that history and applies them (unless paused). No-op while the plan has
    /// actions.
    void applyWaitingUpdates();
    /// A new cluster is shown: the import's totals stand until a live diff (the analysis
    /// computes no totals until then).
    void resetTotals();

    /// Whether a cluster listed from kubeconfig is then watched (importers/live/kubewatchfeed.h);
    /// on by default, off for `screenshot` (one LIST, no watch).
    void setWatchListedClusters(bool on) noexcept { m_watchListed = on; }
    [[nodiscard]] bool watchesListedClusters() const noexcept { return m_watchListed; }
    /// Live diffs applied to the shown cluster since the session was made.
    [[nodiscard]] std::uint64_t diffsShown() const noexcept { return m_diffsShown; }

signals:
    /// Nodes were added, deleted or relabelled: `cluster` is the shown one with the topology
    /// built again. The window shows it (the map, the exploring panels) before the plan hears of
    /// the diff.
    void topologyRebuilt(std::shared_ptr<const fleet::app::ImportedCluster> cluster);
    /// `cluster` is the shown one with the totals of the store's state now.
    void totalsUpdated(std::shared_ptr<const fleet::app::ImportedCluster> cluster);
    /// Live diffs are on the map (after it was recoloured, once for the diffs of one turn of the
    /// event loop, or laid out again).
    void diffShown();
    /// A sentence for the status bar (the pause, the resume, the hold's end).
    void message(const QString& text);

private:
    void onDiff(const model::ClusterDiff& diff, const model::ClusterChangeBatch& batch);
    void updateTotals();
    /// True while the plan has actions or Redo can bring some back.
    [[nodiscard]] bool planWorkExists() const;
    /// The deferred end of a hold for the plan (updateHold()).
    void releaseHold();
    void updateApplyAction();

    Parts m_parts;
    std::function<std::shared_ptr<const ImportedCluster>()> m_shown;
    LiveController* m_live = nullptr;
    QAction* m_pause = nullptr;    // Plan > Pause Live Updates (null until addPauseAction())
    QTimer* m_totalsTimer = nullptr; // the O(pods) totals at most once a second while live
    bool m_paused = false;
    QAction* m_apply = nullptr;    // Plan > Apply Waiting Live Updates (null until addPauseAction())
    bool m_heldByPlan = false; // the batches are held for the plan's work (its actions, or Redo's)
    bool m_releasePosted = false; // releaseHold() is posted for the next turn
    bool m_recolourPosted = false;
    bool m_watchListed = true;
    std::uint64_t m_diffsShown = 0;
    const void* m_totalsFor = nullptr; // the store the analysis' totals function was made for
};

} // namespace fleet::app
