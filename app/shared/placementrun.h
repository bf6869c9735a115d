// SPDX-License-Identifier: Apache-2.0
#pragma once
// The worker's side of Plan > Place Workload ("Placement of a new workload"): the request
// (app/shared/placerequest.h) turned into a place-pods action and applied to a what-if engine
// over a store that holds the template pod, with the plan the window had replayed first. The
// dialog (app/dialogs/placeworkloaddialog.h) validates the fields, copies the plan, runs this on
// its worker and hands the result to the window. No widgets, no rendering.

#include "app/shared/placerequest.h"

#include "model/plan/plan.h"

#include <QString>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace fleet::views {
class PlanMarksTracker;
}

namespace fleet::app {

/// The worker's stages, in order, as the dialog's progress bar shows them (None: not started).
enum class PlaceStage : int { None, Copy, Engine, Replay, Place, Count };

/// What the worker found (also the test's view of the last run).
struct PlaceWorkloadOutcome {
    bool placed = false;            // the action was applied (and pushed)
    std::int32_t pods = 0;          // asked for
    std::int32_t podsPlaced = 0;
    std::string level;              // the level they were fit at
    std::vector<std::string> domains;
    std::vector<model::Reason> reasons; // why not (per level: the closest domain, what it lacks), or notes
    QString error;                  // a bad request or a plan that could not be replayed
    PlaceField errorField = PlaceField::Pods;
    bool fieldError = false;        // error names a field
    bool cancelled = false;         // the user cancelled (nothing applied)
    double workerMs = 0;            // copy + engine + replay + placement, on the worker
    double copyMs = 0;              // the store's clone and the template pod's batch (0 when reused)
    double guiApplyMs = 0;          // the GUI thread's share: adoptPlacement() and the refresh it runs
};

/// The worker's stage (read by the dialog's progress bar at most ten times a second) and the
/// dialog's cancel request (checked by the worker between stages). Shared by both threads.
struct PlaceProgress {
    std::atomic<int> stage { 0 }; // PlaceStage
    std::atomic<bool> cancel { false };
};

/// The worker's answer: on success the store and engine the window takes.
struct PlaceWorkerResult {
    PlaceWorkloadOutcome outcome;
    std::shared_ptr<const model::ClusterStore> store;
    std::shared_ptr<model::PlanEngine> engine;
    std::size_t appliedBefore = 0;
    std::vector<model::PlanAction> replayed; // the window's plan when the worker started
    std::string templateName; // namespace/name
    std::string templateJson; // its podTemplate, as the action carries it
    /// The map's plan marks of `engine` (views::PlanMarksTracker::rebuild()), counted on the
    /// worker: at a plan of 26,516 actions on 100,000 nodes, 11 to 16 ms of the GUI thread's turn
    /// that takes the result; the window follows the plan's later changes on them.
    std::shared_ptr<views::PlanMarksTracker> marks;
};

/// The worker: finds the template's store (the engine's own when an earlier placement of the
/// same spec and name made it; else a clone with the template pod added by one change batch,
/// under the first free name when none was given), builds an engine over it, replays `current`
/// and applies the action. `addedTemplates`: the template pods earlier placements of the caller
/// added ("namespace/name" -> the podTemplate JSON), reused when the same workload comes again.
/// Errors come back in the outcome, not as exceptions: a bad request (PlaceRequestError), a
/// plan that cannot be replayed, a level or slice the engine refuses are in outcome.error (with
/// errorField and fieldError); a cancel seen between stages sets outcome.cancelled. Thread: a worker, while no one mutates `store` (the caller's
/// StoreReadGuard).
[[nodiscard]] std::shared_ptr<PlaceWorkerResult> runPlacement(std::shared_ptr<const model::ClusterStore> store,
    std::shared_ptr<const model::Topology> topology, std::vector<double> prices, std::vector<model::PlanAction> current, PlaceRequestInput input,
    std::string gpuLabel, PlaceProgress& progress, const std::map<std::string, std::string>& addedTemplates);

} // namespace fleet::app
