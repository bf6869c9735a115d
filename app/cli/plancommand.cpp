// SPDX-License-Identifier: Apache-2.0
#include "plancommand.h"
#include "commandlinepath.h"
#include "commandplan.h"

#include "helptext.h"
#include "outputpath.h"
#include "planaddnodescommand.h"
#include "planconsolidatecommand.h"
#include "planplacecommand.h"
#include "subcommands.h"

#include "app/shared/importfailure.h"
#include "model/figures.h"
#include "model/metrics/metric.h"
#include "model/plan/plan.h"
#include "model/plan/planprices.h"
#include "model/report/reportfigures.h"

#include "importers/export/planexport.h"
#include "importers/plan/jsontext.h"
#include "importers/plan/planevaluation.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"
#include "importers/pricing/pricetableloader.h"

#include "importers/terminaltext.h"
#include "importers/export/evaluationformat.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fleet::app {

int parsePlanVerb(QCommandLineParser& parser, const QStringList& arguments, const char* prefix, const char* form)
{
    addClusterSourceOptions(parser, false);
    QStringList args = arguments;
    args.removeAt(2); // the verb
    args.removeAt(1); // "plan"
    if (!parser.parse(args)) {
        importers::printTerminalf(stderr, "%s%s\n", prefix, qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, subcommandUsage("plan", form))), stdout);
        return 0;
    }
    return -1;
}

std::int64_t unpricedNodeCount(const model::ClusterStore& store, const std::vector<double>& nodePrices)
{
    std::int64_t unpriced = 0;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i)
        if (!store.nodeIsDeleted(model::NodeId(i)))
            unpriced += i < nodePrices.size() && nodePrices[i] > 0 ? 0 : 1;
    return unpriced;
}

std::string unpricedNodesNote(const model::ClusterStore& store, const std::vector<double>& nodePrices)
{
    const std::size_t nodes = store.nodeCount() - store.deletedNodeCount();
    const auto unpriced = static_cast<std::size_t>(unpricedNodeCount(store, nodePrices));
    if (unpriced == 0)
        return {};
    return model::formatCount(static_cast<std::int64_t>(unpriced)) + " of " + model::formatCount(static_cast<std::int64_t>(nodes))
        + (nodes == 1 ? " node has" : " nodes have")
        + " no price (no instance type, region and capacity type the price table knows): "
        + (unpriced == 1 ? "it is" : "they are") + " left out of the costs, not counted as $0 saved; give --prices FILE to price "
        + (unpriced == 1 ? "it" : "them");
}

std::string regionsNote(const model::ClusterStore& store)
{
    const model::StringId key = store.strings().find("topology.kubernetes.io/region");
    if (!key.isValid())
        return {};
    std::vector<model::StringId> regions;
    for (std::uint32_t i = 0; i < store.nodeCount(); ++i) {
        if (store.nodeIsDeleted(model::NodeId(i)))
            continue;
        for (const model::Label& l : store.nodeLabels(model::NodeId(i)))
            if (l.key == key && std::find(regions.begin(), regions.end(), l.value) == regions.end())
                regions.push_back(l.value);
    }
    if (regions.size() < 2)
        return {};
    return "the nodes span " + std::to_string(regions.size())
        + " regions (topology.kubernetes.io/region), and a Kubernetes cluster is regional: without --keep-within the plan may move "
          "pods between regions, which no cluster can do; give --keep-within topology.kubernetes.io/region";
}

void addPlanWriterOptions(QCommandLineParser& parser)
{
    parser.addOption(QCommandLineOption(QStringLiteral("format"), QStringLiteral("Output format: text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text")));
    parser.addOption(QCommandLineOption(QStringList { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("Write the plan (resources/schemas/plan-v1.md) to this file."), QStringLiteral("PLAN.json")));
    parser.addOption(QCommandLineOption(QStringLiteral("prices"),
        QStringLiteral("A CSV of node prices replacing the shipped table's rows, for the plan's cost per hour."), QStringLiteral("FILE")));
}

importers::PlanSource planSourceOf(const ClusterSource& source, const importers::LoadedCluster& loaded)
{
    return clusterPlanSource(source, loaded); // one rule for every verb (a .fleet names its own source)
}

int runPlan(const QStringList& arguments)
{
    const QString verb = arguments.size() > 2 ? arguments.at(2) : QString();
    if (verb == QLatin1String("consolidate"))
        return runPlanConsolidate(arguments);
    if (verb == QLatin1String("place"))
        return runPlanPlace(arguments);
    if (verb == QLatin1String("add-nodes"))
        return runPlanAddNodes(arguments);
    const bool exportOnly = verb == QLatin1String("export");
    const std::string prefix = exportOnly ? "fleetscope plan export: " : "fleetscope plan check: ";
    if (verb != QLatin1String("check") && !exportOnly) {
        if (verb == QLatin1String("--help") || verb == QLatin1String("-h") || verb.isEmpty()) {
            std::fputs("Usage: fleetscope plan check|export|consolidate|place|add-nodes ...\n\n"
                       "  plan consolidate  plans which nodes to drain to save the most per hour (fleetscope plan consolidate --help)\n"
                       "  plan check   re-evaluates a saved plan against a cluster state and says which actions no longer hold\n"
                       "  plan export  writes the plan's CSV or reviewable kubectl script\n"
                       "  plan place   places N new pods in the network topology (Kueue TAS) and writes the plan\n"
                       "  plan add-nodes  adds nodes of an instance type, or as many as the pending pods take (--fit-pending)\n"
                       "Run `fleetscope plan check --help` for the options.\n",
                verb.isEmpty() ? stderr : stdout);
            return verb.isEmpty() ? 2 : 0;
        }
        importers::printTerminalf(stderr,
            "fleetscope plan: unknown verb \"%s\"; expected check, export, consolidate, place or add-nodes "
            "(fleetscope plan --help)\n",
            qPrintable(verb));
        return 2;
    }
    QCommandLineParser parser;
    parser.setApplicationDescription(exportOnly
            ? QStringLiteral("Exports a saved plan, evaluated against a cluster state, as CSV (one row per pod change) or as a "
                             "reviewable kubectl script (a dry run unless given --apply; tied to the plan's cluster; cordons and "
                             "drains in batches). Fleetscope never runs the script. Refused when the cluster state is not the "
                             "plan's, unless --force.")
            : QStringLiteral("Re-evaluates a saved plan against a (possibly newer) cluster state and reports each action that no "
                             "longer holds and why. Exit status: 0 every action holds, 1 some do not, 2 an input cannot be read."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringLiteral("plan"), QStringLiteral("The plan file (resources/schemas/plan-v1.md), or the name of a plan kept in the .fleet document given as the state (fleetscope plans DOC.fleet lists them)."), QStringLiteral("PLAN.json|NAME")));
    if (!exportOnly) {
        parser.addOption(QCommandLineOption(QStringLiteral("format"), QStringLiteral("Output format: text (default) or json."),
            QStringLiteral("text|json"), QStringLiteral("text")));
        parser.addOption(QCommandLineOption(QStringList { QStringLiteral("o"), QStringLiteral("output") },
            QStringLiteral("Also write the evaluation as JSON to this file."), QStringLiteral("EVALUATION.json")));
    }
    parser.addOption(QCommandLineOption(QStringLiteral("csv"), QStringLiteral("Write the plan as CSV, one row per pod change."), QStringLiteral("OUT.csv")));
    parser.addOption(QCommandLineOption(QStringLiteral("kubectl-script"),
        QStringLiteral("Write a reviewable bash script of kubectl cordon and drain commands."), QStringLiteral("OUT.sh")));
    parser.addOption(QCommandLineOption(QStringLiteral("force"),
        QStringLiteral("Write --csv and --kubectl-script even when the cluster state is not the one the plan was made on.")));
    parser.addOption(QCommandLineOption(QStringLiteral("prices"),
        QStringLiteral("A CSV of node prices (region,instance_type,capacity_type,usd_per_hour) whose rows replace the "
                       "shipped table's (resources/prices) for the before/after cost per hour."),
        QStringLiteral("FILE")));
    if (const int done = parsePlanVerb(parser, arguments, prefix.c_str(), exportOnly ? "export" : "check"); done >= 0)
        return done;
    const QString format = exportOnly ? QStringLiteral("text") : parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        importers::printTerminalf(stderr, "%s--format: expected text or json, got \"%s\"\n", prefix.c_str(), qPrintable(format));
        return 2;
    }
    if (!parser.isSet(QStringLiteral("plan"))) {
        importers::printTerminalf(stderr, "%s--plan PLAN.json is needed (or --plan NAME, a plan kept in the .fleet input)\n", prefix.c_str());
        return 2;
    }
    if (exportOnly && !parser.isSet(QStringLiteral("csv")) && !parser.isSet(QStringLiteral("kubectl-script"))) {
        importers::printTerminalf(stderr, "%sgive --csv OUT.csv or --kubectl-script OUT.sh (or both)\n", prefix.c_str());
        return 2;
    }
    // The outputs, checked before anything is read: none may be a device, a FIFO, a folder or
    // one of the inputs, nor two the same file. plan export prints nothing else, so there one
    // of them may be standard output ("-").
    const importers::OutputFileOptions textOutput = commandOutputOptions(parser, false, exportOnly);
    const importers::OutputFileOptions scriptOutput = commandOutputOptions(parser, true, exportOnly);
    std::vector<std::pair<std::string, std::string>> outputs;
    if (!exportOnly && parser.isSet(QStringLiteral("output")))
        outputs.emplace_back("-o", parser.value(QStringLiteral("output")).toStdString());
    if (parser.isSet(QStringLiteral("csv")))
        outputs.emplace_back("--csv", parser.value(QStringLiteral("csv")).toStdString());
    if (parser.isSet(QStringLiteral("kubectl-script")))
        outputs.emplace_back("--kubectl-script", parser.value(QStringLiteral("kubectl-script")).toStdString());
    for (const auto& [option, path] : outputs) {
        if (const std::string problem = outputTargetProblem(option, path, textOutput); !problem.empty()) {
            importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), problem.c_str());
            return 2;
        }
    }
    try {
        importers::checkDistinctOutputs(outputs, exportOnly);
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), importers::messageText(e).c_str());
        return 2;
    }
    ClusterSource source;
    QString error;
    if (!readClusterSource(parser, false, source, error)) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), qPrintable(error));
        return 2;
    }
    // A plan file, or the name of a plan kept in the .fleet document given as the state.
    std::string planPath;
    importers::PlanDocument plan;
    try {
        CommandPlan chosen = readCommandPlan(parser.value(QStringLiteral("plan")), source.files);
        if (!chosen.note.empty())
            importers::printTerminalf(stderr, "%snote: %s\n", prefix.c_str(), chosen.note.c_str());
        plan = std::move(chosen.plan);
        planPath = chosen.label;
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), importers::messageText(e).c_str());
        return 2;
    }
    const QString label = clusterSourceLabel(source);
    importers::LoadedCluster loaded;
    importers::PlanSource current;
    try {
        loaded = loadClusterSource(source);
        current = clusterPlanSource(source, loaded);
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), qPrintable(importFailureMessage(e, label)));
        return 2;
    }
    // Say when the state is not the one the plan was made on (its holds may differ).
    const std::string sourceNote = importers::sourceDifference(plan.source, current);
    if (!sourceNote.empty())
        importers::printTerminalf(stderr, "%snote: %s\n", prefix.c_str(), sourceNote.c_str());
    // A script or CSV made against another cluster than the plan's would act on the wrong one.
    const bool exporting = parser.isSet(QStringLiteral("csv")) || parser.isSet(QStringLiteral("kubectl-script"));
    if (const std::string other = importers::clusterDifference(plan.source, current);
        exporting && !other.empty() && !parser.isSet(QStringLiteral("force"))) {
        importers::printTerminalf(stderr, "%srefusing to write --csv or --kubectl-script: %s; give --force to write them anyway\n", prefix.c_str(), other.c_str());
        return 2;
    }
    // The cost per hour: the shipped price table, with --prices' rows over it (as the window).
    model::PriceTable prices;
    try {
        prices = importers::loadPriceTable(commandLinePath(parser.value(QStringLiteral("prices"))));
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "%s--prices: %s\n", prefix.c_str(), importers::messageText(e).c_str());
        return 2;
    }
    try { // place-pods actions bring their template pod when the state lacks it
        importers::addPlanTemplatePods(*loaded.store, plan, planPath);
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), importers::messageText(e).c_str());
        return 2;
    }
    const std::vector<double> nodePrices = model::planNodePrices(*loaded.store, &prices);
    model::PlanEngine engine(*loaded.store, *loaded.topology, nodePrices);
    importers::PlanEvaluation evaluation = importers::evaluatePlanOn(engine, plan);
    evaluation.state = current;
    evaluation.sourceNote = sourceNote;
    // The JSON's figures beside the totals (pending pods, FGD, idle allocated GPUs): the report's,
    // from the same functions over the same replay, so that a reader can check one against the other.
    std::optional<importers::EvaluationFigures> figures;
    const bool json = !exportOnly && (format == QLatin1String("json") || parser.isSet(QStringLiteral("output")));
    if (json) {
        const model::MetricContext context(*loaded.store, &prices);
        figures = importers::EvaluationFigures { model::figuresBefore(engine.state(), context, loaded.usage.get()),
            model::figuresAfter(engine.state(), context, loaded.usage.get()) };
    }
    const importers::EvaluationFigures* withFigures = figures ? &*figures : nullptr;
    try {
        // The script first: a name it cannot carry refuses it before any file is written.
        const bool script = parser.isSet(QStringLiteral("kubectl-script"));
        const std::string scriptText = script ? importers::planKubectlScript(evaluation, *loaded.store) : std::string();
        if (!exportOnly && parser.isSet(QStringLiteral("output")))
            importers::writeOutputFile(parser.value(QStringLiteral("output")).toStdString(),
                importers::evaluationJson(planPath, evaluation, *loaded.store, withFigures, unpricedNodeCount(*loaded.store, nodePrices)), textOutput);
        if (parser.isSet(QStringLiteral("csv")))
            importers::writeOutputFile(
                parser.value(QStringLiteral("csv")).toStdString(), importers::planCsv(evaluation, *loaded.store), textOutput);
        if (script) // a script to review and run: executable, as the window's export
            importers::writeOutputFile(parser.value(QStringLiteral("kubectl-script")).toStdString(), scriptText, scriptOutput);
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), importers::messageText(e).c_str());
        return 2;
    }
    if (exportOnly && !evaluation.allHold()) {
        // Exit status 1 says some actions do not hold; say which, what was written of them and
        // what to do, rather than leave a bare status.
        const auto broken = std::count_if(evaluation.actions.begin(), evaluation.actions.end(), [](const auto& a) { return !a.holds; });
        std::string written;
        if (parser.isSet(QStringLiteral("csv")))
            written += "the CSV marks them holds=false";
        if (parser.isSet(QStringLiteral("kubectl-script")))
            written += std::string(written.empty() ? "" : " and ") + "the kubectl script leaves them out (a comment says why)";
        importers::printTerminalf(stderr,
            "%s%lld of %zu actions do not hold against %s: %s. Written anyway: %s. Run `fleetscope plan check` with the same "
            "inputs and --plan for each reason, and make a new plan on this state before acting on it. Exit status 1.\n",
            prefix.c_str(), static_cast<long long>(broken), evaluation.actions.size(), qPrintable(label),
            importers::notHoldingText(evaluation).c_str(), written.c_str());
    }
    if (!exportOnly) {
        std::cout << (format == QLatin1String("json") ? importers::evaluationJson(planPath, evaluation, *loaded.store, withFigures, unpricedNodeCount(*loaded.store, nodePrices))
                                                      : importers::evaluationText(planPath, evaluation, *loaded.store, &nodePrices));
        // The cost figures count the priced nodes alone: say how many are left out.
        if (const std::string note = unpricedNodesNote(*loaded.store, nodePrices); format != QLatin1String("json") && !note.empty())
            std::cout << "costs: " << note << "\n";
        std::cout.flush();
        if (!std::cout) {
            importers::printTerminalf(stderr, "%scannot write to standard output\n", prefix.c_str());
            return 2;
        }
    }
    return evaluation.allHold() ? 0 : 1;
}

} // namespace fleet::app
