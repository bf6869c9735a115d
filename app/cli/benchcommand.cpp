// SPDX-License-Identifier: Apache-2.0
#include "benchcommand.h"

#include "helptext.h"
#include "subcommands.h"

#include "importers/export/fgdbenchformat.h"
#include "importers/traces/fgdtrace.h"
#include "model/search/tracereplay.h"

#include "importers/terminaltext.h"

#include <QCommandLineParser>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <optional>

namespace fleet::app {

namespace {

using Figure = importers::FgdBenchFigure;

// The paper's figures on the default trace (Fig. 11; SOURCE.md Table A, row "default").
const std::map<std::string, double>& defaultTracePaper()
{
    static const std::map<std::string, double> f { { "FGD", 4.77 }, { "BestFit", 7.14 }, { "GpuPacking", 8.22 },
        { "GpuClustering", 8.35 }, { "DotProduct", 9.38 }, { "Random", 13.70 } };
    return f;
}

std::optional<double> paperFigure(const importers::FgdReference& ref, const std::string& trace, const std::string& policy)
{
    if (trace == "default") {
        const auto it = defaultTracePaper().find(policy);
        return it == defaultTracePaper().end() ? std::nullopt : std::optional<double>(it->second);
    }
    const auto t = ref.find(trace);
    if (t == ref.end())
        return std::nullopt;
    const auto p = t->second.find(policy);
    if (p == t->second.end())
        return std::nullopt;
    double sum = 0;
    int count = 0;
    for (const auto& [seed, v] : p->second)
        if (seed >= 42 && seed <= 51) {
            sum += v;
            ++count;
        }
    if (count == 0)
        return std::nullopt;
    return std::round(sum / count * 100.0) / 100.0;
}

bool parseSeeds(const QString& text, std::uint64_t& first, std::uint64_t& last)
{
    const QStringList parts = text.split(QLatin1Char('-'));
    bool ok1 = false, ok2 = false;
    if (parts.size() == 1) {
        first = last = parts[0].toULongLong(&ok1);
        return ok1;
    }
    if (parts.size() != 2)
        return false;
    first = parts[0].toULongLong(&ok1);
    last = parts[1].toULongLong(&ok2);
    return ok1 && ok2 && first <= last && last - first < 1000;
}

} // namespace

int runBench(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "bench fgd: replays the FGD paper's experiment (USENIX ATC'23; the trace folder's PROTOCOL.md) on the Alibaba GPU "
        "trace: per seed the pod list sampled to 1.3 times the GPU capacity and shuffled, pods placed one at a time by the "
        "policy over the what-if's filters, and the share of GPUs left unallocated when arrived requests reach 100% of GPU "
        "capacity; prints per trace and policy the mean and sample standard deviation over the seeds beside the paper's "
        "figure."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringLiteral("data"),
        QStringLiteral("The trace folder (alibaba-gpu-v2023-openb: csv/, expected_results/)."), QStringLiteral("DIR")));
    parser.addOption(QCommandLineOption(QStringLiteral("trace"),
        QStringLiteral("A pod list's suffix (default, cpu050, multigpu50, ...) or all (the 17 with the paper's figures)."),
        QStringLiteral("NAME|all")));
    parser.addOption(QCommandLineOption(QStringLiteral("seeds"), QStringLiteral("Seeds, FIRST-LAST or one (default 42-51)."),
        QStringLiteral("FIRST-LAST"), QStringLiteral("42-51")));
    std::string known;
    for (const std::string& n : model::placementPolicyNames())
        known += (known.empty() ? "" : ",") + n;
    parser.addOption(QCommandLineOption(QStringLiteral("policies"),
        QStringLiteral("Comma-separated policies (default: the paper's six and FGDTieInUse, ours; known: %1).").arg(QString::fromStdString(known)),
        QStringLiteral("LIST")));
    parser.addOption(QCommandLineOption(QStringLiteral("format"), QStringLiteral("Output format: text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text")));
    QStringList args = arguments;
    if (args.size() > 1)
        args.removeAt(1); // "bench"
    const bool fgd = args.size() > 1 && args[1] == QLatin1String("fgd");
    if (fgd)
        args.removeAt(1);
    if (!parser.parse(args)) {
        importers::printTerminalf(stderr, "fleetscope bench: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, subcommandUsage("bench"))), stdout);
        return 0;
    }
    if (!fgd) {
        importers::printTerminalf(
            stderr, "fleetscope bench: expected the benchmark's name, fgd: %s\n", qPrintable(subcommandUsage("bench")));
        return 2;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        importers::printTerminalf(stderr, "fleetscope bench fgd: --format: expected text or json, got \"%s\"\n", qPrintable(format));
        return 2;
    }
    std::uint64_t first = 0, last = 0;
    if (!parseSeeds(parser.value(QStringLiteral("seeds")), first, last)) {
        importers::printTerminalf(stderr, "fleetscope bench fgd: --seeds: expected FIRST-LAST (FIRST <= LAST, at most 1000 seeds) or one seed, got \"%s\"\n",
            qPrintable(parser.value(QStringLiteral("seeds"))));
        return 2;
    }
    std::vector<std::string> policies = model::paperPolicyNames();
    policies.emplace_back("FGDTieInUse");
    if (parser.isSet(QStringLiteral("policies"))) {
        policies.clear();
        for (const QString& p : parser.value(QStringLiteral("policies")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const std::string name = p.trimmed().toStdString();
            const auto& all = model::placementPolicyNames();
            if (std::find(all.begin(), all.end(), name) == all.end()) {
                importers::printTerminalf(stderr, "fleetscope bench fgd: --policies: unknown policy \"%s\" (known: %s)\n", name.c_str(), known.c_str());
                return 2;
            }
            policies.push_back(name);
        }
        if (policies.empty()) {
            importers::printTerminalf(stderr, "fleetscope bench fgd: --policies: expected at least one policy (known: %s)\n", known.c_str());
            return 2;
        }
    }
    if (!parser.isSet(QStringLiteral("data")) || !parser.isSet(QStringLiteral("trace"))) {
        importers::printTerminalf(
            stderr, "fleetscope bench fgd: --data DIR and --trace NAME|all are needed: %s\n", qPrintable(subcommandUsage("bench")));
        return 2;
    }
    const std::string data = parser.value(QStringLiteral("data")).toStdString();
    const std::string traceArg = parser.value(QStringLiteral("trace")).toStdString();

    std::map<std::string, std::map<std::string, Figure>> results;
    std::vector<std::string> traces;
    try {
        const importers::FgdReference ref = importers::loadFgdReference(data);
        const std::vector<std::string> available = importers::fgdTraceNames(data);
        if (traceArg == "all") {
            for (const auto& [name, byPolicy] : ref)
                if (std::find(available.begin(), available.end(), name) != available.end())
                    traces.push_back(name);
            if (traces.empty())
                throw std::invalid_argument(data + ": expected_results/analysis_allo_discrete.csv is missing or names none of the traces in csv/");
        } else {
            traces.push_back(traceArg);
        }
        const std::size_t runs = traces.size() * policies.size() * (last - first + 1);
        std::size_t done = 0;
        for (const std::string& trace : traces) {
            const model::ClusterStore store = importers::loadFgdTrace(data, trace);
            const auto typical = model::traceTypicalPods(store);
            for (const std::string& policy : policies) {
                std::vector<double> values;
                Figure& f = results[trace][policy];
                for (std::uint64_t seed = first; seed <= last; ++seed) {
                    const model::ReplayResult r = model::replayTracePolicy(store, typical, policy, seed);
                    values.push_back(r.unallocatedGpuPercent);
                    f.secondsMax = std::max(f.secondsMax, r.seconds);
                    importers::printTerminalf(stderr, "bench fgd: [%zu/%zu] %s %s seed %llu: %.2f%% unallocated (%.2f s)\n", ++done, runs,
                        trace.c_str(), policy.c_str(), static_cast<unsigned long long>(seed), r.unallocatedGpuPercent, r.seconds);
                }
                for (const double v : values)
                    f.mean += v / static_cast<double>(values.size());
                double var = 0;
                for (const double v : values)
                    var += (v - f.mean) * (v - f.mean);
                f.sd = values.size() > 1 ? std::sqrt(var / static_cast<double>(values.size() - 1)) : 0.0;
                f.paper = paperFigure(ref, trace, policy);
            }
        }
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "fleetscope bench fgd: %s\n", importers::messageText(e).c_str());
        return 1;
    }

    const std::string out = format == QLatin1String("json") ? importers::fgdBenchJson(traces, policies, results)
                                                            : importers::fgdBenchText(traces, policies, results, first, last);
    std::cout << out << std::flush;
    return 0;
}

} // namespace fleet::app
