// SPDX-License-Identifier: Apache-2.0
#pragma once
// File names from the command line as the bytes the user gave.
//
// A Linux file name is bytes, not necessarily UTF-8 (a file copied from an old Latin-1 system:
// "caf\xE9.json"). Qt decodes argv into QStrings, and a byte that is not UTF-8 becomes U+FFFD
// there, so the name can no longer be opened. rememberCommandLine() keeps argv; commandLinePath()
// gives back the bytes of the argument a QCommandLineParser value came from.
//
// Thread: rememberCommandLine() once in main() before any other thread starts; then any.

#include <QString>

#include <string>

namespace fleet::app {

/// Keeps argv (argc entries) for commandLinePath().
void rememberCommandLine(int argc, const char* const* argv);

/// The file name `value` as given: the bytes of the argument that decodes to it (a FILE
/// argument or an option's value, "--plan NAME" or "--plan=NAME"); when no argument does (the
/// name came from a dialog, or no command line was remembered), QFile::encodeName(value).
[[nodiscard]] std::string commandLinePath(const QString& value);

} // namespace fleet::app
