// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope save SOURCE... -o FILE.fleet [--plan PLAN.json]...`: a cluster state (files, a
// simulation, a live cluster's one LIST, or another .fleet) with its provenance and plans, as one
// .fleet document (importers/document/fleetdocument.h), headless.

#include <QStringList>

namespace fleet::app {

/// Runs the save subcommand. `arguments` is the whole command line (program, "save", ...).
/// Loads the source as every subcommand does (loadClusterSource()), reads each --plan (checked
/// as `plan check` reads it, and evaluated on the saved state), and writes the document
/// atomically through the one output writer. Returns 0 on success, 1 when the source or a plan
/// cannot be read or the file cannot be written (the reason on stderr; a previous file is left
/// as it was), 2 for a bad command line. Thread: main thread.
int runSave(const QStringList& arguments);

} // namespace fleet::app
