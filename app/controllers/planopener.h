// SPDX-License-Identifier: Apache-2.0
#pragma once
// File > Open Plan: a saved plan file re-evaluated against the shown cluster, as `plan check`
// does, on a worker with progress and cancel, then shown in the window as the current plan.

#include "importers/plan/planfile.h"
#include "model/clusterstore.h"
#include "model/plan/plan.h"
#include "model/topology.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

class QMainWindow;

namespace fleet::app {

class LongJob;
class PlanController;

/// A plan file applied to a new PlanEngine over the shown cluster: what the window adopts.
struct OpenedPlan {
    /// The store the engine reads: the shown one, or its copy with the template pods of the
    /// plan's place-pods actions that it lacks (importers::addPlanTemplatePods()).
    std::shared_ptr<const model::ClusterStore> store;
    std::shared_ptr<model::PlanEngine> engine; // every action that could be applied, in order
    /// The actions the engine could not apply (a pod, node or domain the state lacks, a move
    /// that no longer fits), by their index in the file, with holds = false and the reasons
    /// (importers::evaluatePlan()'s records).
    std::vector<std::pair<std::size_t, model::AppliedAction>> notApplied;
    std::size_t actionCount = 0; // in the file
    std::size_t holding = 0;     // of them, applied and holding
    std::string sourceNote;      // why the shown cluster is not the plan's source ("" when it is)
    bool cancelled = false;
    std::string error;           // the file could not be read or its templates added ("FILE: at PATH: ...")
};

/// Reads plan file `path` (importers::readPlanFile()) and applies its actions in order to a
/// new PlanEngine over `store` and `topology` (`nodePricePerHour` by NodeId, $/h), as
/// importers::evaluatePlan() does: an action that names something missing or that the engine
/// refuses does not hold and later actions still run. `currentSource` names the shown state
/// (called here: it may read files); `cancel` (may be null) is checked between actions;
/// `progress` (may be empty) gets 0..1 at most once per action. Never throws: errors are in
/// `error`. Thread: any (a worker), while no thread mutates `store`.
[[nodiscard]] OpenedPlan openPlanFile(const std::string& path, std::shared_ptr<const model::ClusterStore> store,
    const model::Topology& topology, const std::vector<double>& nodePricePerHour, const std::function<importers::PlanSource()>& currentSource,
    const std::atomic<bool>* cancel, const std::function<void(double)>& progress);

/// openPlanFile() over plan JSON `json` already in memory (a plan kept in a .fleet document,
/// importers::DocumentPlan::planJson); `name` names it in errors. Thread: any, as openPlanFile().
[[nodiscard]] OpenedPlan openPlanText(const std::string& json, const std::string& name, std::shared_ptr<const model::ClusterStore> store,
    const model::Topology& topology, const std::vector<double>& nodePricePerHour, const std::function<importers::PlanSource()>& currentSource,
    const std::atomic<bool>* cancel, const std::function<void(double)>& progress);

/// True when `path` is a plan file rather than cluster input: a JSON object whose first bytes
/// (the first 64 KiB) name the key "fleetscopePlan" (plan-v1.md; planJson() writes it first).
/// False for a file that cannot be read. Thread: any.
[[nodiscard]] bool looksLikePlanFile(const QString& path);

/// Runs openPlanFile() for the window as a LongJob (app/controllers/longjob.h): on a worker, with
/// a progress dialog (Cancel) once it takes longer than kProgressAfterMs, then hands the result
/// to PlanController::adoptOpenedPlan()
/// (the plan replaces the current one as one undo step, the undo stack's clean state; for
/// openText(), a plan of the document shown, without an undo step). The
/// worker also makes that step's commands and the map's plan marks
/// (PlanController::StepPreparer): at 26,516 actions on 100,000 nodes they took about 130 ms of
/// the adoption's one turn of the GUI thread. A result for a cluster or plan that changed
/// meanwhile is dropped. Thread: GUI thread.
class PlanOpener : public QObject {
    Q_OBJECT
public:
    static constexpr int kProgressAfterMs = 500;

    PlanOpener(QMainWindow* window, PlanController* plan);
    ~PlanOpener() override;

    /// Starts opening `path` against the cluster the plan controller shows (`currentSource`
    /// names it; called on the worker). False (nothing started) without an engine, or while
    /// one runs.
    bool open(const QString& path, std::function<importers::PlanSource()> currentSource);
    /// As open(), for plan JSON `json` in memory named `name` (a plan of the .fleet document);
    /// path() is "" afterwards. Showing another plan of the document is no edit of a plan, so
    /// it is no undo step: the plan shown starts with an empty, clean undo stack (its own edits
    /// from then on are its history), where open() makes the file's actions one undo step.
    bool openText(const QString& name, std::string json, std::function<importers::PlanSource()> currentSource);
    void cancel();
    [[nodiscard]] bool isRunning() const noexcept;
    /// The last outcome for people: "Opened plan.json: 12 actions, 10 hold, 2 do not hold." or
    /// the error ("Cannot open plan.json: ..."), or the cancellation.
    [[nodiscard]] QString lastMessage() const { return m_lastMessage; }
    /// The file of the last open() started ("" after openText()).
    [[nodiscard]] QString path() const { return m_path; }

signals:
    /// The opened plan is about to replace the shown one (the engine and the undo stack still
    /// hold the plan left, edits made while the open ran included): the last moment to read it.
    void aboutToReplace();
    /// The plan was shown (`opened`) or not (an error, a cancel, a changed cluster).
    void finished(bool opened);
    void progressed(int percent);

private:
    struct Result; // the OpenedPlan and its prepared undo step (planopener.cpp)
    bool start(const QString& path, const QString& name, std::string json, std::function<importers::PlanSource()> currentSource);
    void onResult(std::uint64_t engineEpoch, const QString& name, bool undoable, std::shared_ptr<Result> result);

    QMainWindow* m_window;
    PlanController* m_plan;
    LongJob* m_job;
    std::uint64_t m_engineEpoch = 0; // engines made: a result for an older one is not adopted
    QString m_lastMessage;
    QString m_path;
};

} // namespace fleet::app
