// SPDX-License-Identifier: Apache-2.0
#pragma once
// Plan > Consolidate in the window: the consolidation (model/search/consolidation.h) of the
// shown cluster under its current plan, computed on a worker with progress and cancel, its drain-node actions applied there too, then taken by the window as one
// undo step (PlanController::adoptStep(): Undo reverts the whole consolidation, Redo puts it back), with the
// nodes that stay and why in a dialog beside the lower bound and the Karpenter baseline. The LP
// bound (model/search/packingrelaxation.h, solved by COIN-OR Clp) is computed after the plan, on
// a worker with a time limit (kLpBoundSeconds), and shown beside the volume bound when it comes,
// with its own time and the plan's ratio to the better of the two.

#include "app/controllers/plancontroller.h"
#include "model/search/consolidation.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QAction;
class QDialog;
class QMainWindow;
class QProgressDialog;

namespace fleet::views {
class KeptNodesPanel;
}

namespace fleet::app {

/// Owns the Plan menu's Consolidate action. Thread: GUI thread; the computation runs on a
/// QtConcurrent worker over its own PlanEngine (the shown cluster is immutable), started from
/// the window's current plan; a result for a cluster no longer shown is dropped.
class ConsolidateController : public QObject {
    Q_OBJECT
public:
    /// Adds "Consolidate…" (objectName actionConsolidate) to the window's Plan menu (objectName
    /// menuPlan, made when missing).
    ConsolidateController(QMainWindow* window, PlanController* plan);
    ~ConsolidateController() override;

    [[nodiscard]] QAction* action() const noexcept { return m_action; }
    /// Starts the computation (progress dialog, Cancel). False when no engine is ready or one runs.
    bool start();
    /// Asks the running computation to stop: nothing is applied ("Consolidate cancelled: the plan
    /// is as it was."), and finished(-1) follows.
    void cancel();
    [[nodiscard]] bool isRunning() const noexcept { return m_running; }
    /// The last result applied (empty before), and the dialog that shows it.
    [[nodiscard]] const model::ConsolidationResult& lastResult() const noexcept { return m_last; }
    [[nodiscard]] QDialog* resultDialog() const noexcept { return m_dialog; }
    /// The LP bound's time limit in seconds (COIN-OR Clp; at 100,000 simulated nodes it solves in
    /// about 34 s).
    static constexpr double kLpBoundSeconds = 120;
    /// The LP bound of the last result as the dialog shows it: "" before it is asked for.
    [[nodiscard]] QString lpBoundText() const { return m_lpText; }

signals:
    /// The result dialog was closed (Close or Escape).
    void resultClosed();
    /// The result was applied (`drained` nodes) or dropped (-1).
    void finished(int drained);
    /// The LP bound of the last result is shown (`nodes` 0 when the solver gave none).
    void lpBoundShown(qint64 nodes);
    void progressed(int percent);

private:
    /// `engine`: the current plan's `appliedBefore` actions then the result's, applied on the
    /// worker (null when the result has nothing to apply); `bound` the node count's lower bound
    /// (model/search/consolidationbound.h), computed there too, as `prepared` (the step's undo
    /// commands and plan marks, PlanController::StepPreparer); `kept` the result's kept nodes
    /// for the dialog, copied there; `record` the same by name for the plan file (plankept.h).
    void onResult(std::uint64_t generation, std::shared_ptr<model::ConsolidationResult> result, std::shared_ptr<model::ConsolidationResult> baseline,
        std::shared_ptr<model::PlanEngine> engine, std::size_t appliedBefore, std::int64_t bound, PlanController::PreparedStep prepared,
        std::shared_ptr<const std::vector<model::KeptNode>> kept, std::shared_ptr<const importers::PlanKeptRecord> record = nullptr);
    /// `kept`: m_last.kept's copy for the dialog's panel, made on the worker (80,000 entries
    /// copied here were about 22 ms of the result's turn at 100,000 nodes).
    void showResult(const model::ConsolidationResult& baseline, std::int64_t bound, std::shared_ptr<const std::vector<model::KeptNode>> kept);
    /// A node row of the dialog's list: selects the node on the map (and zooms to it).
    void selectNode(const QString& name);
    /// Starts the LP bound of m_last on a worker; its answer updates the dialog when it is still
    /// for the result shown.
    void startLpBound(std::int64_t volumeBound);
    void showLpBound(std::int64_t volumeBound, bool valid, std::int64_t nodes, const QString& status, double seconds);

    QMainWindow* m_window;
    PlanController* m_plan;
    QAction* m_action = nullptr;
    QProgressDialog* m_progress = nullptr;
    QDialog* m_dialog = nullptr;
    views::KeptNodesPanel* m_kept = nullptr; // in m_dialog
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::uint64_t m_generation = 0;
    bool m_running = false;
    model::ConsolidationResult m_last;
    /// The kept record the last result gave the plan (PlanController::setConsolidationKept()),
    /// then the same with its LP bound once that is known.
    std::shared_ptr<const importers::PlanKeptRecord> m_lastKept;
    std::uint64_t m_resultGeneration = 0; // bumped per result shown: an older LP answer is dropped
    QString m_lpText;
};

} // namespace fleet::app
