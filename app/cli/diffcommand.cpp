// SPDX-License-Identifier: Apache-2.0
#include "diffcommand.h"

#include "commandlinepath.h"
#include "helptext.h"
#include "subcommands.h"

#include "app/shared/importfailure.h"
#include "model/plan/planprices.h"

#include "importers/terminaltext.h"
#include "importers/clusterloader.h"
#include "importers/document/statediff.h"
#include "importers/pricing/pricetableloader.h"

#include <QCommandLineParser>

#include <cstdio>
#include <exception>
#include <iostream>

namespace fleet::app {

int runDiff(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compares two cluster states: nodes added, removed, relabelled and tainted; pods moved, created and deleted, by "
        "workload; nodes, pods, GPUs allocated and $/h then and now. Each state is a .fleet document or a cluster file."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringLiteral("format"), QStringLiteral("Output format: text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text")));
    parser.addPositionalArgument(QStringLiteral("BEFORE"), QStringLiteral("The earlier state (.fleet or a cluster file)."));
    parser.addPositionalArgument(QStringLiteral("AFTER"), QStringLiteral("The later state (.fleet or a cluster file)."));
    if (!parseSubcommandArguments(parser, arguments, "diff"))
        return 2;
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, QStringLiteral("fleetscope diff BEFORE AFTER [--format text|json]"))), stdout);
        return 0;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        importers::printTerminalf(stderr, "fleetscope diff: --format: expected text or json, got \"%s\"\n", qPrintable(format));
        return 2;
    }
    if (parser.positionalArguments().size() != 2) {
        importers::printTerminalf(stderr, "fleetscope diff: give two states, BEFORE and AFTER (each a .fleet document or a cluster file)\n");
        return 2;
    }
    try {
        const auto before = importers::loadClusterFiles({ commandLinePath(parser.positionalArguments()[0]) });
        const auto after = importers::loadClusterFiles({ commandLinePath(parser.positionalArguments()[1]) });
        const model::PriceTable& prices = importers::shippedPriceTable();
        const importers::StateDiff diff = importers::diffStates(*before.store, *after.store, model::planNodePrices(*before.store, &prices),
                                                                model::planNodePrices(*after.store, &prices));
        std::cout << (format == QLatin1String("json") ? importers::stateDiffJson(diff) : importers::stateDiffText(diff));
        std::cout.flush();
        if (!std::cout) {
            importers::printTerminalf(stderr, "fleetscope diff: cannot write to standard output\n");
            return 1;
        }
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "fleetscope diff: %s\n", qPrintable(importFailureMessage(e, parser.positionalArguments().join(QLatin1Char(' ')))));
        return 1;
    }
    return 0;
}

} // namespace fleet::app
