// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope plans DOC.fleet [--format text|json]`: the named plans a .fleet document keeps,
// the names every --plan takes for a document input.

#include <QStringList>

namespace fleet::app {

/// Runs the plans subcommand. `arguments` is the whole command line (program, "plans",
/// options...). Lists each plan's name, action count, when it was saved, whether an evaluation
/// was kept, and its notes, in the order saved (text: names escaped; json:
/// {"document", "plans": [{"name", "actions", "saved_at", "evaluation_kept", "notes"}]}).
/// Returns 0, 1 when the document cannot be read (FleetDocumentError on stderr), 2 for a bad
/// command line. Needs only a QCoreApplication. Thread: main thread.
int runPlans(const QStringList& arguments);

} // namespace fleet::app
