// SPDX-License-Identifier: Apache-2.0
#include "planscommand.h"

#include "commandlinepath.h"
#include "helptext.h"
#include "subcommands.h"

#include "importers/document/fleetdocument.h"
#include "importers/export/documentplansformat.h"
#include "importers/terminaltext.h"

#include <QCommandLineParser>

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace fleet::app {

int runPlans(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Lists the named plans a .fleet document keeps: the names --plan NAME takes when the input is that document."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringLiteral("format"), QStringLiteral("Output format: text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text")));
    parser.addPositionalArgument(QStringLiteral("DOC.fleet"), QStringLiteral("The document."));
    QStringList args = arguments;
    if (args.size() > 1)
        args.removeAt(1); // "plans"
    if (!parser.parse(args)) {
        importers::printTerminalf(stderr, "fleetscope plans: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, subcommandUsage("plans"))), stdout);
        return 0;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        importers::printTerminalf(stderr, "fleetscope plans: --format: expected text or json, got \"%s\"\n", qPrintable(format));
        return 2;
    }
    if (parser.positionalArguments().size() != 1) {
        importers::printTerminalf(stderr, "fleetscope plans: give one .fleet document\n");
        return 2;
    }
    const std::string path = commandLinePath(parser.positionalArguments()[0]);
    if (!importers::isFleetDocumentFile(path)) {
        // Say why, as every other reader does: a path that is not there, a folder or a pipe is
        // not "not a document".
        std::error_code ec;
        const auto status = std::filesystem::status(path, ec);
        const char* why = ec ? (ec == std::errc::too_many_symbolic_link_levels ? "is a symbolic link loop" : "does not exist")
            : std::filesystem::is_directory(status)      ? "is a folder, not a .fleet document"
            : !std::filesystem::is_regular_file(status) ? "is not a regular file (only a .fleet document keeps plans)"
                                                        : "is not a .fleet document (only a document keeps plans)";
        importers::printTerminalf(stderr, "fleetscope plans: %s: %s\n", path.c_str(), why);
        return 1;
    }
    std::vector<importers::DocumentPlan> plans;
    std::vector<std::size_t> actions;
    try {
        plans = importers::readFleetDocumentPlans(path);
        for (const importers::DocumentPlan& p : plans)
            actions.push_back(importers::parsePlanText(p.planJson, path + ":" + p.name).actions.size());
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "fleetscope plans: %s\n", importers::messageText(e).c_str());
        return 1;
    }
    const std::string out = format == QLatin1String("json") ? importers::documentPlansJson(path, plans, actions)
                                                            : importers::documentPlansText(path, plans, actions);
    std::cout << out;
    std::cout.flush();
    if (!std::cout) {
        importers::printTerminalf(stderr, "fleetscope plans: cannot write to standard output\n");
        return 1;
    }
    return 0;
}

} // namespace fleet::app
