// SPDX-License-Identifier: Apache-2.0
#pragma once
// File > Compare With...: the shown state ("then") against a later one ("now": a .fleet
// document, cluster files, or a simulation for benchmarks), compared as `fleetscope diff`
// compares them (importers/document/statediff.h) and listed in the Changes dock
// (views/panels/changespanel.h); the map marks the nodes added and removed
// (views/map/layers/comparednodelayer.h); File > Export Changes writes what the dock lists.
// File > Compare With Live Cluster... takes the later state from a live cluster now (one LIST,
// read-only, as `fleetscope diff BEFORE --kubeconfig FILE` reads it). When a plan is open (made
// on the shown state), the dock's Plan Outcome tab says what of it happened in the later state
// (importers/document/planoutcome.h, as `fleetscope diff --plan`).
//
// Threads: the later state is read and the diff computed as a LongJob (app/controllers/longjob.h)
// on a worker (a thread of its own, not Qt's global pool, which the raster engine waits on)
// holding a StoreReadGuard from start to end (a live batch never changes the shown store under
// it; a live cluster's batches wait for the whole comparison, the read of the later state
// included); a progress dialog with Cancel shows after half a second, its figures polled ten
// times a second; a comparison cancelled or replaced is dropped at once (its result never shown). The later state's store is freed off
// the GUI thread (releaseOffGuiThread()). On the GUI thread only the model's reset and the
// dock: O(1) in the size of the diff. A new cluster shown clears the dock (its "then" is gone).

#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <string>
#include <memory>

class QAction;
class QDockWidget;
class QMenu;
class QTimer;

namespace fleet::importers {
struct StateDiff;
struct PlanOutcome;
}
namespace fleet::model {
class PlanEngine;
}
namespace fleet::views {
class ChangesPanel;
}

namespace fleet::app {

class LongJob;
class MainWindow;
struct ComparedState;

class CompareController : public QObject {
    Q_OBJECT
public:
    /// Adds File > Compare With... (objectName "actionCompareWith"), Compare With Live
    /// Cluster... ("actionCompareWithLive"), Export Changes... ("actionExportChanges") and Export
    /// Plan Outcome... ("actionExportPlanOutcome") to `file`, and the Changes dock ("changesDock",
    /// hidden until a comparison is shown) to `window`.
    CompareController(MainWindow* window, QMenu* file);
    ~CompareController() override;

    /// Compares the shown state with the one read from `paths` (one .fleet document, or
    /// cluster files as File > Open reads them) on a worker. False when nothing started (no
    /// cluster shown yet: a message says so). A comparison running is cancelled first.
    bool compareWithFiles(const QStringList& paths);
    /// The same against a simulated cluster (`nodeCount` nodes from `seed`): for benchmarks.
    bool compareWithSimulated(std::size_t nodeCount, std::uint64_t seed);
    /// The same against the live cluster now: one LIST of nodes, pods, PDBs and namespaces with
    /// `kubeconfig` ("" : KUBECONFIG or ~/.kube/config, as kubectl) and `context` ("": its
    /// current-context), bounded by kube::kDefaultRequestTimeout per request. Never writes to
    /// the cluster. Cancel drops the result at once; the LIST itself ends within its timeout.
    bool compareWithLive(const QString& kubeconfig, const QString& context);
    /// Cancels the running comparison (nothing is shown; the dock keeps what it had).
    void cancel();
    [[nodiscard]] bool isRunning() const noexcept;

    /// Writes the comparison shown to `path` through the atomic writer
    /// (importers/output/outputfile.h) on the comparison's worker: `.json` as `fleetscope diff
    /// --format json`, `.csv` the dock's rows (views::changesCsv()), anything else as `fleetscope
    /// diff`'s text (every name listed). The target is checked first (a .fleet document, a
    /// folder or a shown input is refused). False when nothing started; changesExported()
    /// follows either way. Errors are also shown in a message box when `interactive`.
    bool exportTo(const QString& path, bool interactive = false);

    /// Adds "Difference to the Compared State" (objectName "actionCompareMetric", checkable) to
    /// the Metric menu `metric`: while checked and a comparison is shown, the map colours the
    /// chosen metric's later value minus now (model/metrics/comparedmetric.h); choosing another
    /// metric in the menu, or a new cluster, unchecks it.
    void addMetricAction(QMenu* metric);
    /// Whether the map shows the compared difference now.
    [[nodiscard]] bool isShowingDifference() const;

    /// The diff shown (null before the first comparison or after a new cluster).
    [[nodiscard]] std::shared_ptr<const importers::StateDiff> diff() const;
    /// The open plan against the later state (null when no plan was open at the comparison).
    [[nodiscard]] std::shared_ptr<const importers::PlanOutcome> planOutcome() const;
    /// Writes the plan outcome shown to `path` through the atomic writer: `.json` as `fleetscope
    /// diff --plan --format json`, anything else as its text. The same checks and signals as
    /// exportTo() (changesExported()).
    bool exportOutcomeTo(const QString& path, bool interactive = false);
    /// After each change of the plan (kOutcomeSettleMs at rest), the Plan Outcome is checked
    /// again on a worker, of a copy of the plan's actions made on the GUI thread a slice of at
    /// most kOutcomeCopySliceMs at a time (a change meanwhile starts it again): at once, the copy
    /// of a consolidation's 200,000 actions held the GUI thread for hundreds of ms after every
    /// gesture. A step undone or redone in slices is waited for.
    static constexpr int kOutcomeCopySliceMs = 10;
    /// At most `n` actions copied per slice (0: as many as kOutcomeCopySliceMs allows; tests).
    void setMaxOutcomeActionsPerSlice(int n) { m_maxCopyPerSlice = n; }
    [[nodiscard]] views::ChangesPanel* panel() const noexcept { return m_panel; }
    [[nodiscard]] QDockWidget* dock() const noexcept { return m_dock; }
    /// The last comparison's outcome for people ("Compared with B.fleet: ...", an error, "cancelled").
    [[nodiscard]] QString lastMessage() const { return m_lastMessage; }

    struct OpenPlan; // the plan shown, as a worker checks it (comparecontroller.cpp)

signals:
    /// A comparison ended: shown (`ok`), failed or cancelled; `message` says which.
    void compareFinished(bool ok, const QString& message);
    /// The Plan Outcome was checked again after the plan changed (`ok`: shown; false: failed).
    void outcomeChecked(bool ok);
    /// After each slice of the plan's copy for the outcome's check: `copied` of `total` actions.
    void outcomeCopyProgressed(int copied, int total);
    /// An export ended: written (`ok`) or refused / failed; `message` says which (lastMessage()).
    void changesExported(bool ok, const QString& message);

private:
    struct Outcome;
    template <class Load>
    bool start(const QString& label, Load load, const QString& outcomeLabel = {});
    void showDialog();
    /// The plan shown (actions copied), or null without one.
    [[nodiscard]] std::shared_ptr<const OpenPlan> openPlan() const;
    /// The plan shown without its actions (its label, store, topology), or null without one.
    [[nodiscard]] std::shared_ptr<OpenPlan> describePlan() const;
    /// Checks the plan shown against the compared state again, on the comparison's worker,
    /// once copyOutcomeSlice() has copied its actions.
    void refreshOutcome();
    void copyOutcomeSlice();
    void checkOutcome(std::shared_ptr<const OpenPlan> open, std::uint64_t generation);
    void showLiveDialog();
    void showExportOutcomeDialog();
    /// Writes `bytes(...)` to `path` on the comparison's worker; changesExported() follows.
    bool writeOnWorker(const QString& path, bool interactive, std::function<std::string(const QString& suffix)> bytes);
    void showExportDialog();
    void finish(std::shared_ptr<ComparedState> result, const QString& error, bool cancelled);
    void clear();
    void selectNode(const QString& name);
    /// Colours the map by the compared difference of the chosen metric (`on`), or by the chosen
    /// metric again; false (and unchecked) when the metric has no difference or nothing is compared.
    bool showDifference(bool on);

    MainWindow* m_window;
    views::ChangesPanel* m_panel = nullptr;
    QDockWidget* m_dock = nullptr;
    LongJob* m_job; // the comparison running
    std::shared_ptr<ComparedState> m_shown;
    bool m_placed = false; // the dock tabified beside the node inspector
    QString m_lastMessage;
    QString m_lastDir;
    QString m_lastKubeconfig, m_lastContext;
    std::shared_ptr<const importers::PlanOutcome> m_outcome; // of the plan shown, against m_shown's later state
    QString m_outcomeLabel, m_outcomeNote;
    std::uint64_t m_outcomeGeneration = 0;
    bool m_outcomeStale = false; // the plan changed while a comparison ran
    QTimer* m_outcomeTimer = nullptr;
    std::shared_ptr<OpenPlan> m_copying; // the plan's actions being copied for the outcome's check
    std::weak_ptr<const model::PlanEngine> m_copyEngine; // the engine they are copied from
    std::uint64_t m_copyGeneration = 0;
    int m_maxCopyPerSlice = 0;
    QAction* m_metricAction = nullptr;
};

} // namespace fleet::app
