// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope bench fgd --data DIR --trace NAME|all [--seeds 42-51] [--policies LIST]
// [--format text|json]`: the FGD paper's experiment replayed (model/search/tracereplay.h;
// PROTOCOL.md of the trace folder), per trace and policy the mean and sample standard
// deviation over the seeds of the unallocated GPU % at 100% arrived, beside the paper's
// figure.

#include <QStringList>

namespace fleet::app {

/// Runs `bench fgd`. `arguments` is the whole command line (program, "bench", "fgd", options).
/// json: {"traces": {NAME: {POLICY: {"mean", "sd", "paper", "seconds_max"}}}} ("paper" null
/// where the paper has no figure); text: a table per trace. A progress line per run on stderr.
/// Paper figures: the paper's Fig. 11 for the default trace; for the others the mean over the seeds
/// 42..51 of expected_results/analysis_allo_discrete.csv (100 - column "100"), as PROTOCOL.md
/// section 5 computes them. Exit codes: 0 done, 1 the data folder or a trace cannot be read,
/// 2 a bad command line (unknown policy, seed range, format). Needs only a
/// QCoreApplication. Thread: main thread.
int runBench(const QStringList& arguments);

} // namespace fleet::app
