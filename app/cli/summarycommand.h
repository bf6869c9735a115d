// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope summary [--format text|json] (FILE... | --simulate NODES)`: the cluster's totals, headless.

#include <QStringList>

namespace fleet::app {

/// Runs the summary subcommand. `arguments` is the whole command line (program, "summary",
/// options...). Imports the files (or --simulate) with importers::loadClusterFiles and
/// writes importers::writeSummaryJson/Text to stdout. Returns 0 on success, 1 when the input
/// cannot be imported (the ImportError, which names the file and place, on stderr), 2 for a
/// bad command line (also when neither FILE nor --simulate is given: a summary of 100000
/// simulated nodes is never what a bare `summary` meant). std::bad_alloc is reported as
/// importFailureMessage() words it. Needs only a QCoreApplication (no display). Thread: main thread.
int runSummary(const QStringList& arguments);

} // namespace fleet::app
