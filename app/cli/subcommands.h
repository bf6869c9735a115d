// SPDX-License-Identifier: Apache-2.0
#pragma once
// The headless subcommands of the fleetscope program, as one table: main() dispatches on it,
// and the program's --help lists it, so a verb added here is both runnable and documented.

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <span>
#include <string_view>

namespace fleet::app {

/// One subcommand: `fleetscope NAME ...`.
struct Subcommand {
    const char* name;   // argv[1]
    const char* usage;  // its synopsis, one line per form, each starting with "fleetscope NAME"
    /// Runs it with the whole command line (program and verb included) in a QCoreApplication
    /// made by main() (no display needed); returns the process exit code. Null for a verb that
    /// makes its own application (runOwnApplication).
    int (*run)(const QStringList& arguments);
    /// For a verb that makes its own application (screenshot: a QApplication on a display or a
    /// private X server), run before any Q*Application exists; null otherwise.
    int (*runOwnApplication)(int& argc, char** argv);
};

/// Every subcommand, in the order --help lists them.
[[nodiscard]] std::span<const Subcommand> subcommands() noexcept;

/// The subcommand named `name`, or null. O(number of subcommands).
[[nodiscard]] const Subcommand* findSubcommand(std::string_view name) noexcept;

/// The usage of verb `name` as the table gives it (one line per form), or with `form` the line
/// of that form (("plan", "check"): the line starting "fleetscope plan check "): what the
/// verb's own --help prints after "Usage: ", so it and the program's --help are one text.
/// Empty for a verb or form the table lacks. O(size of the table). Thread: any.
[[nodiscard]] QString subcommandUsage(std::string_view name, std::string_view form = {});

/// The "Subcommands (no display needed):" block of the program's --help, generated from
/// subcommands(): each usage line indented by two spaces, then how to get a verb's options.
[[nodiscard]] QString subcommandsHelp();

/// The prologue of a subcommand's run(): `arguments` (program, verb, options) parsed by
/// `parser` without the verb. On a parse error prints "fleetscope VERB: <Qt's error text>" on
/// stderr (escaped) and returns false; the caller exits with 2.
[[nodiscard]] bool parseSubcommandArguments(QCommandLineParser& parser, const QStringList& arguments, const char* verb);

} // namespace fleet::app
