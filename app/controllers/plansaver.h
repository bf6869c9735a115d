// SPDX-License-Identifier: Apache-2.0
#pragma once
// The plan written to files: the plan file itself (File > Save Plan) and its evaluation
// (File > Export Plan: CSV or a kubectl script). Reading a plan back is PlanOpener's
// (app/controllers/planopener.h).

#include "importers/plan/planfile.h"
#include "model/clusterstore.h"
#include "model/plan/plan.h"

#include <QString>

#include <vector>

namespace fleet::app {

/// Writes the applied actions of `engine` (null: "No plan to save.") as a plan file
/// (importers::writePlanFile's JSON) naming `source` (the loaded state: files with their SHA-256,
/// a live cluster's server and resourceVersion, or a simulation; MainWindow::planSource()),
/// through importers::writeOutputFile (whole or not at all; never over one of `source`'s files).
/// `kept`: the consolidation's kept-node record (plankept.h), written when its digest is that of
/// the engine's actions (planJson()); null: none.
/// Returns "" or the error for people. Thread: any (reads the engine).
[[nodiscard]] QString savePlanFile(const model::PlanEngine* engine, const QString& path, const importers::PlanSource& source,
    const importers::PlanKeptRecord* kept = nullptr);

/// The applied actions of `engine`, in order: what savePlanActions() writes. O(actions); copying
/// the 26,516 actions of a 100,000-node consolidation takes about 8 ms. Thread: the engine's.
[[nodiscard]] std::vector<model::PlanAction> planActionsOf(const model::PlanEngine& engine);

/// savePlanFile() of `actions` (planActionsOf()): the JSON and the write (its fsync) read
/// nothing else, so they can run on a worker while the plan goes on. Thread: any.
/// `kept` as savePlanFile()'s.
[[nodiscard]] QString savePlanActions(std::vector<model::PlanAction> actions, const QString& path, const importers::PlanSource& source,
    const importers::PlanKeptRecord* kept = nullptr);

/// Writes the evaluation of `engine`'s plan (over the store it reads) as CSV, or as a kubectl
/// script (executable) that records `source`'s server as the cluster it may run on. A name no
/// shell word can carry refuses the script. A failure leaves the previous file. Returns "" or
/// the error for people. Thread: any (reads the engine).
[[nodiscard]] QString exportPlanFile(const model::PlanEngine* engine, const QString& path,
    bool kubectlScript, const importers::PlanSource& source);

} // namespace fleet::app
