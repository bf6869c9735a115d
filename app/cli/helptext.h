// SPDX-License-Identifier: Apache-2.0
#pragma once
// --help output of fleetscope and its subcommands.

#include <QString>

class QCommandLineParser;

namespace fleet::app {

/// parser.helpText() with its first line replaced by "Usage: `usage`" (e.g. "fleetscope summary
/// [options] FILE..."): Qt names the program after argv[0] (a build path) or, before a
/// QCoreApplication exists, "<executable_name>". Thread: any.
[[nodiscard]] QString helpTextWithUsage(const QCommandLineParser& parser, const QString& usage);

} // namespace fleet::app
