// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope plan add-nodes (FILE... | --simulate N | --kubeconfig FILE) --instance-type T
//  [--capacity-type C] [--domain PATH] (--count N | --fit-pending [--max-nodes M])
//  [--format text|json] -o PLAN.json`: an add-node action, headless, and the seeds'
// capacity question "how many nodes of this type would the pending pods take"
// (model/search/nodesneeded.h).

#include <QStringList>

namespace fleet::app {

/// Runs `plan add-nodes`. `arguments` is the whole command line (program, "plan", "add-nodes",
/// options...). With --count N it writes a plan of one add-node action of N nodes; with
/// --fit-pending it works out the fewest such nodes that place the pending pods by the default
/// policy, prints that count, the pods placed and each pod that still does not fit with its
/// reason codes (text or JSON), and writes the add-node of that count (no plan when it is 0).
/// Exit codes: 0 every pending pod would be placed (or --count), 1 some still do not fit, 2 an
/// input cannot be read (or has no node of the type to copy), an output cannot be written, or
/// the command line is wrong. Needs only a QCoreApplication. Thread: main thread.
int runPlanAddNodes(const QStringList& arguments);

} // namespace fleet::app
