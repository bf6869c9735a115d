// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope plan consolidate (FILE... | --simulate N | --kubeconfig FILE [--context NAME])
//  [--policy default] [--max-moves N] [--node-groups FILE] [--prices FILE] -o PLAN.json`:
// a consolidation plan (model/search/consolidation.h) written as a plan file of DrainNode
// actions (importers/plan/planfile.h), headless.

#include <QStringList>

namespace fleet::app {

/// Runs `plan consolidate`. `arguments` is the whole command line (program, "plan",
/// "consolidate", options...). Writes the plan atomically to -o and prints the summary on
/// stdout: nodes freed, pods moved, cost per hour saved, the lower bound (consolidationbound.h)
/// with the ratio of the plan's nodes to it, the Karpenter baseline's figures
/// (karpenterbaseline.h), then the nodes that stay with the pod and constraint that keeps each
/// (the first 20; --format json lists all). Progress on stderr.
/// Exit codes: 0 written, 2 an input cannot be read, the output cannot be written, or the
/// command line is wrong. Needs only a QCoreApplication. Thread: main thread.
int runPlanConsolidate(const QStringList& arguments);

} // namespace fleet::app
