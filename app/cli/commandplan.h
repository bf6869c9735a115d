// SPDX-License-Identifier: Apache-2.0
#pragma once
// The plan a command line's --plan names: a plan file, or a plan kept in the .fleet document
// the command reads (`--plan NAME`, the names `fleetscope plans DOC.fleet` lists).
//
// The rule: a value naming an existing file is that plan file (as before documents kept
// plans); otherwise, when an input is a .fleet document, the plan of that name in it
// (importers/document/fleetdocument.h, read without rebuilding its cluster). Anything else is
// an error that says which names the document holds.
//
// Thread: any (it blocks on file reads).

#include "importers/plan/planfile.h"

#include <QString>
#include <QStringList>

#include <stdexcept>
#include <string>

namespace fleet::app {

/// A plan read for a command, with the name its messages and JSON outputs give it.
struct CommandPlan {
    importers::PlanDocument plan;
    /// The plan file as given, or "DOC.fleet:NAME" for a document's plan.
    std::string label;
    /// The document's evaluation of the plan when it was saved (`plan check --format json` of
    /// it on the saved state); "" for a plan file or when the document kept none.
    std::string savedEvaluationJson;
    /// The document the plan came from ("" for a plan file).
    std::string document;
    /// A note for standard error, "" for none: the file chosen has the name of a plan the
    /// document keeps too (the file wins).
    std::string note;
};

/// Reads the plan `value` (an option's value) names, among `inputs` (the command's cluster
/// files; a .fleet among them is where a name is looked up). Throws importers::PlanFileError
/// for a bad plan file, importers::FleetDocumentError for a document that cannot be read, and
/// std::runtime_error for an unknown name: `--plan "NAME": "DOC.fleet" holds no plan of that
/// name (its plans: "a", "b"), and no file of that name exists`, or, when no input is a
/// document, that only a document keeps plans by name. Names are quoted and escaped
/// (importers::quotedText()).
[[nodiscard]] CommandPlan readCommandPlan(const QString& value, const QStringList& inputs);

} // namespace fleet::app
