// SPDX-License-Identifier: Apache-2.0
#include "summarycommand.h"

#include "clustersource.h"
#include "helptext.h"
#include "subcommands.h"

#include "app/shared/importfailure.h"

#include "importers/clusterloader.h"
#include "importers/export/summaryjson.h"
#include "model/metrics/usagemetrics.h"

#include "importers/terminaltext.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>
#include <exception>
#include <iostream>

namespace fleet::app {

int runSummary(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Prints the totals of a cluster (nodes, pods, allocatable and requested "
                                                    "resources, import warnings) without opening a window."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringLiteral("format"), QStringLiteral("Output format: text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text")));
    parser.addOption(QCommandLineOption(QStringLiteral("only"),
        QStringLiteral("With --format json: write only these parts, comma-separated: totals, nodes, pods (the warnings "
                       "always). At 100,000 nodes the whole document is about 490 MB; --only totals is a few hundred bytes."),
        QStringLiteral("totals|nodes|pods")));
    addClusterSourceOptions(parser, false);
    if (!parseSubcommandArguments(parser, arguments, "summary"))
        return 2;
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, subcommandUsage("summary"))), stdout);
        return 0;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        importers::printTerminalf(stderr, "fleetscope summary: --format: expected text or json, got \"%s\"\n", qPrintable(format));
        return 2;
    }
    importers::SummaryParts parts;
    if (parser.isSet(QStringLiteral("only"))) {
        if (format != QLatin1String("json")) {
            importers::printTerminalf(stderr, "fleetscope summary: --only works with --format json (the text summary is totals only)\n");
            return 2;
        }
        parts = { false, false, false };
        for (const QString& part : parser.value(QStringLiteral("only")).split(QLatin1Char(','))) {
            const QString p = part.trimmed();
            if (p == QLatin1String("totals"))
                parts.totals = true;
            else if (p == QLatin1String("nodes"))
                parts.nodes = true;
            else if (p == QLatin1String("pods"))
                parts.pods = true;
            else {
                importers::printTerminalf(stderr, "fleetscope summary: --only: expected totals, nodes or pods (comma-separated), got \"%s\"\n",
                    qPrintable(p));
                return 2;
            }
        }
    }
    ClusterSource source;
    QString error;
    if (!readClusterSource(parser, false, source, error)) {
        importers::printTerminalf(stderr, "fleetscope summary: %s\n", qPrintable(error));
        return 2;
    }

    const QString label = clusterSourceLabel(source);
    try {
        const importers::LoadedCluster loaded = loadClusterSource(source);
        if (format == QLatin1String("json"))
            importers::writeSummaryJson(*loaded.store, loaded.report, std::cout, parts, loaded.usage.get());
        else {
            importers::writeSummaryText(*loaded.store, loaded.report, std::cout);
            if (loaded.usage)
                std::cout << "\n" << importers::terminalLineOf("usage (", loaded.usage->source, "): ", model::idleGpuSentence(*loaded.usage)) << "\n";
        }
        std::cout.flush();
        if (!std::cout) {
            importers::printTerminalf(stderr, "fleetscope summary: cannot write to standard output\n");
            return 1;
        }
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "fleetscope summary: %s\n", qPrintable(importFailureMessage(e, label)));
        return 1;
    }
    return 0;
}

} // namespace fleet::app
