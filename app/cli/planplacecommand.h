// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope plan place (FILE... | --simulate N) --pods N (--cpu Q --memory Q [--gpu N]
//  [--gpu-model M] | --pod-template POD.json|POD.yaml) [--required-level LABEL |
//  --preferred-level LABEL] [--slice-size S --slice-level LABEL] [--no-gang] [--format text|json]
//  -o PLAN.json`: a new workload placed in the network topology with Kueue TAS semantics
// (model/placement/topologyplacement.h), written as a plan of one place-pods action.

#include <QStringList>

namespace fleet::app {

/// Runs `plan place`. `arguments` is the whole command line (program, "plan", "place",
/// options...). Prints where the pods go, per topology domain (or, when they do not fit, per
/// level the domain that came closest and what it lacks) on stdout, as text or JSON, and writes
/// the plan (the template pod and the request, resources/schemas/plan-v1.md) to -o when the pods
/// were placed. Exit codes: 0 every pod placed, 1 not (a gang that does not fit: no plan is
/// written), 2 an input cannot be read, an output cannot be written, or the command line is
/// wrong. Needs only a QCoreApplication. Thread: main thread.
int runPlanPlace(const QStringList& arguments);

} // namespace fleet::app
