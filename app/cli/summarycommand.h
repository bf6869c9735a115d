#pragma once
// `fleetscope summary [--format text|json] FILE...`: the cluster's totals, headless.

#include <QStringList>

namespace fleet::app {

/// Runs the summary subcommand. `arguments` is the whole command line (program, "summary",
/// options...). Imports the files (or --simulate) with importers::loadClusterFiles and
/// writes importers::writeSummaryJson/Text to stdout. Returns 0 on success, 1 when the input
/// cannot be imported (the ImportError, which names the file and place, on stderr), 2 for a
/// bad command line. Needs only a QCoreApplication (no display). Thread: main thread.
int runSummary(const QStringList& arguments);

} // namespace fleet::app
