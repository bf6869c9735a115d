// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope plan check FILE... --plan PLAN.json [--format text|json] [-o EVALUATION.json]
//  [--csv OUT.csv] [--kubectl-script OUT.sh]` and `fleetscope plan export ...`: a saved plan
// re-evaluated against a (possibly newer) state, headless.

#include "clustersource.h"

#include "importers/clusterloader.h"
#include "importers/plan/planfile.h"

#include <QStringList>

#include <string>
#include <vector>

namespace fleet::app {

/// Runs `plan check` or `plan export`. `arguments` is the whole command line (program, "plan",
/// "check"|"export", options...). check prints the evaluation (text or JSON) on stdout, also
/// writes it to -o, and the CSV / kubectl script where asked; export writes only the CSV and/or
/// the kubectl script (one is needed) and prints nothing. Every file is written atomically.
/// Exit codes (both): 0 every action holds, 1 some do not, 2 an input cannot be read (cluster
/// files, the plan file) or an output cannot be written, or the command line is wrong.
/// Needs only a QCoreApplication. Thread: main thread.
int runPlan(const QStringList& arguments);

/// The common start of every `plan VERB` subcommand: adds the cluster source options to
/// `parser` (which holds the verb's own), parses `arguments` (program, "plan", VERB, options...)
/// without its two words. Returns -1 to go on; else the exit status: 2 after printing the
/// parser's error after `prefix` on stderr, 0 after printing --help on stdout (its usage the
/// table's line of `form`, the verb: subcommandUsage("plan", form), subcommands.h).
[[nodiscard]] int parsePlanVerb(QCommandLineParser& parser, const QStringList& arguments, const char* prefix, const char* form);

/// Adds what the verbs that write a plan share: --format text|json (default text), -o /
/// --output PLAN.json and --prices FILE.
void addPlanWriterOptions(QCommandLineParser& parser);

/// What a cost figure leaves out: "" when every node of `store` has a price in `nodePrices`
/// (model::planNodePrices: 0 for a node the price table does not know), else "N of M nodes have
/// no price: they are left out of the costs (...)". O(nodes). Thread: any.
[[nodiscard]] std::string unpricedNodesNote(const model::ClusterStore& store, const std::vector<double>& nodePrices);
/// The present nodes of `store` without a price in `nodePrices` (0 or missing), as
/// unpricedNodesNote() counts them: the JSON outputs' "unpricedNodes". O(nodes). Thread: any.
[[nodiscard]] std::int64_t unpricedNodeCount(const model::ClusterStore& store, const std::vector<double>& nodePrices);

/// A note for a planner run without --keep-within on nodes that span several regions
/// (topology.kubernetes.io/region): a Kubernetes cluster is regional, so a plan that moves pods
/// between regions is one no cluster can carry out. "" for one region or none. O(nodes).
/// Thread: any.
[[nodiscard]] std::string regionsNote(const model::ClusterStore& store);

/// The source a plan made on `loaded` names (resources/schemas/plan-v1.md): the files with their
/// SHA-256 (read now), the simulation, or the live cluster's server and resourceVersion.
/// Throws importers::PlanFileError when a file cannot be read.
[[nodiscard]] importers::PlanSource planSourceOf(const ClusterSource& source, const importers::LoadedCluster& loaded);

} // namespace fleet::app
