// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope diff BEFORE (AFTER | --kubeconfig FILE [--context NAME]) [--plan NAME|PLAN.json] [--prices FILE] [--format text|json]`:
// two cluster states compared, headless (importers/document/statediff.h); with --plan, a plan
// made on BEFORE against what happened by AFTER (importers/document/planoutcome.h).

#include <QStringList>

namespace fleet::app {

/// Runs the diff subcommand. BEFORE and AFTER are each a .fleet document or one cluster file
/// (kubectl JSON), or AFTER is the live cluster now (--kubeconfig, --context: one LIST); prices are the shipped table's with --prices' rows over it. --plan names a
/// plan BEFORE keeps, or a plan file (app/cli/commandplan.h). Returns 0 on success, 1 when a
/// state or the prices cannot be read (the reason on stderr), 2 for a bad command line or a plan
/// that cannot be read (an unknown name lists the document's plans). Thread: main thread.
int runDiff(const QStringList& arguments);

} // namespace fleet::app
