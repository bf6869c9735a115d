// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope report (FILE... | --simulate N | --kubeconfig FILE) [--plan PLAN.json]
//  [--title TEXT] -o REPORT.pdf|REPORT.png [--size WxH]`.

namespace fleet::app {

/// Runs the report subcommand: imports the cluster (the common loader, as every subcommand),
/// re-evaluates the plan against it as `plan check` does (importers::evaluatePlanOn()), renders
/// the maps with the fleet map off-screen (a private Xvfb when no display can be opened, as
/// `screenshot`), lays the report out (views/report/fleetreport.h) and writes it as a PDF, or
/// its first page as a PNG, through importers::writeOutputFile (whole or not at all: a failed run
/// keeps the previous file). Returns 0 on success, 1 when an input cannot be imported or the
/// report not written, 2 for a bad command line or an unreadable plan or price file.
/// `argc`/`argv` are the whole command line. Thread: main thread, before any QCoreApplication exists.
int runReport(int& argc, char** argv);

} // namespace fleet::app
