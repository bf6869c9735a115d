// SPDX-License-Identifier: Apache-2.0
#pragma once
// What Fleetscope exports from a checked plan (`plan export`, the window's File > Export Plan):
// a CSV of the pod changes and a reviewable kubectl script. Beside the summary's JSON and text
// (summaryjson.h), under the quoting rules of exportquoting.h. Pure functions; thread: any.

#include "importers/plan/planfile.h"

#include <string>

namespace fleet::importers {

/// CSV: one row per pod change (action index, action type, namespace, pod, from, to, holds, reasons).
[[nodiscard]] std::string planCsv(const PlanEvaluation& evaluation, const model::ClusterStore& store);
/// A reviewable bash script (docs/kubectl-script.md): records the cluster the plan was checked
/// against (`evaluation.state`: its API server, or none for files and simulations) and refuses
/// to run without `--context NAME` whose server (kubectl config view --minify) is that one (or
/// `--server URL` when none is recorded); a dry run that prints the kubectl commands unless given
/// `--apply`; cordons and drains the nodes of the drains that hold in batches (`--batch-size`,
/// `kubectl drain --ignore-daemonsets --delete-emptydir-data --timeout=...`, a `--pause` between
/// batches). Each pod's intended destination and every other action are comments. Every input
/// string is quoted or escaped by importers/export/exportquoting.h. Fleetscope never runs it.
[[nodiscard]] std::string planKubectlScript(const PlanEvaluation& evaluation, const model::ClusterStore& store);

} // namespace fleet::importers
