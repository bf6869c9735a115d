// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope diff BEFORE AFTER [--format text|json]`: two cluster states compared, headless
// (importers/document/statediff.h).

#include <QStringList>

namespace fleet::app {

/// Runs the diff subcommand. BEFORE and AFTER are each a .fleet document or one cluster file
/// (kubectl JSON); prices are the shipped table's. Returns 0 on success, 1 when a state cannot
/// be read (the reason on stderr), 2 for a bad command line. Thread: main thread.
int runDiff(const QStringList& arguments);

} // namespace fleet::app
