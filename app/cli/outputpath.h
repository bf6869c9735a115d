// SPDX-License-Identifier: Apache-2.0
#pragma once
// The output files of a headless subcommand: what they may not overwrite, checked before any
// work is done, and the options every write of the command uses (importers/output/outputfile.h).

#include "importers/output/outputfile.h"

#include <string>
#include <vector>

class QCommandLineParser;

namespace fleet::app {

/// The files a parsed command line reads: its positional FILE arguments and the values of the
/// options that name an input file (--plan, --prices, --node-groups, --pod-template,
/// --kubeconfig, --usage-config, --prometheus-token-file, --prometheus-ca), for
/// OutputFileOptions::inputs: no output may overwrite one of them. Thread: any.
[[nodiscard]] std::vector<std::string> commandInputPaths(const QCommandLineParser& parser);

/// OutputFileOptions with commandInputPaths(parser) as the inputs. `allowStandardOutput`: "-"
/// means standard output (only where stdout carries nothing else). Thread: any.
[[nodiscard]] importers::OutputFileOptions commandOutputOptions(
    const QCommandLineParser& parser, bool executable = false, bool allowStandardOutput = false);

/// Checks, before the work, that the output `path` (given as `option`, e.g. "-o") can be
/// written with `options` (importers::checkOutputTarget). Where standard output carries the
/// command's report (`allowStandardOutput` false), "-" is refused rather than taken as a file
/// named "-". An existing Fleetscope document is refused unless `options.replacesDocument`
/// (fleetscope save). Returns "" or the message for stderr. Thread: any.
[[nodiscard]] std::string outputTargetProblem(const std::string& option, const std::string& path,
    const importers::OutputFileOptions& options);

} // namespace fleet::app
