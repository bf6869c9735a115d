// SPDX-License-Identifier: Apache-2.0
#pragma once
// `fleetscope check-move FILE... --pod NAMESPACE/NAME --to NODE [--format text|json]`: whether
// one pod could move to one node, with every failing filter's reason, headless.

#include <QStringList>

namespace fleet::app {

/// Runs check-move. `arguments` is the whole command line (program, "check-move", options...).
/// Prints {"pod": "ns/name", "to": "node", "feasible": bool, "reasons": [{"code", "message"}]}
/// (json) or a line per reason (text). Exit codes: 0 the question was answered (feasible or
/// not), 1 the input cannot be read or the pod or node does not exist (the error on stderr),
/// 2 a bad command line. Accepts --simulate N [--seed S] instead of files. Needs only a
/// QCoreApplication. Thread: main thread.
int runCheckMove(const QStringList& arguments);

} // namespace fleet::app
