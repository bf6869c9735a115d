// SPDX-License-Identifier: Apache-2.0
#include "diffcommand.h"

#include "commandlinepath.h"
#include "clustersource.h"
#include "commandplan.h"
#include "helptext.h"
#include "subcommands.h"

#include "app/shared/importfailure.h"
#include "model/plan/planprices.h"

#include "importers/terminaltext.h"
#include "importers/quotedtext.h"
#include "importers/clusterloader.h"
#include "importers/document/fleetdocument.h"
#include "importers/document/planoutcome.h"
#include "importers/document/statediff.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"
#include "importers/pricing/pricetableloader.h"
#include "importers/export/statediffformat.h"
#include "importers/export/planoutcomeformat.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <sys/stat.h>

namespace fleet::app {

namespace {

/// What two documents' kept plans differ in, as note lines for stderr (empty when either state
/// is not a document, or both keep the same plans): the state diff compares clusters only, so
/// two documents of one state that differ only in their plans would otherwise read "0 changes".
/// A plan is the same when its name and its plan JSON are; notes and the saved time are not
/// compared. Throws FleetDocumentError as readFleetDocumentPlans() does.
std::vector<std::string> planDifferenceNotes(const std::string& beforePath, const std::string& afterPath)
{
    if (!importers::isFleetDocumentFile(beforePath) || !importers::isFleetDocumentFile(afterPath))
        return {};
    const std::vector<importers::DocumentPlan> before = importers::readFleetDocumentPlans(beforePath);
    const std::vector<importers::DocumentPlan> after = importers::readFleetDocumentPlans(afterPath);
    auto find = [](const std::vector<importers::DocumentPlan>& plans, const std::string& name) -> const importers::DocumentPlan* {
        for (const importers::DocumentPlan& p : plans)
            if (p.name == name)
                return &p;
        return nullptr;
    };
    std::vector<std::string> onlyBefore, onlyAfter, changed;
    for (const importers::DocumentPlan& p : before) {
        const importers::DocumentPlan* other = find(after, p.name);
        if (!other)
            onlyBefore.push_back(p.name);
        else if (other->planJson != p.planJson)
            changed.push_back(p.name);
    }
    for (const importers::DocumentPlan& p : after)
        if (!find(before, p.name))
            onlyAfter.push_back(p.name);
    auto joined = [](const std::vector<std::string>& names) {
        std::string text;
        for (const std::string& n : names)
            text += (text.empty() ? "\"" : ", \"") + n + "\"";
        return text;
    };
    std::vector<std::string> notes;
    if (!onlyBefore.empty())
        notes.push_back("plans kept only in BEFORE: " + joined(onlyBefore));
    if (!onlyAfter.empty())
        notes.push_back("plans kept only in AFTER: " + joined(onlyAfter));
    if (!changed.empty())
        notes.push_back("plans of the same name with other actions: " + joined(changed));
    if (!notes.empty())
        notes.push_back("the changes above are the clusters'; fleetscope plans DOC.fleet lists each document's plans");
    return notes;
}

} // namespace

int runDiff(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compares two cluster states: nodes added, removed, relabelled and tainted; pods moved, created and deleted, by "
        "workload; nodes, pods, GPUs allocated and $/h then and now. Each state is a .fleet document or a cluster file; "
        "with --kubeconfig or --context, AFTER is the live cluster now (one LIST, read-only). "
        "With --plan, a plan made on BEFORE against what happened by AFTER instead: each action carried out, not carried "
        "out, or no longer possible (with the reason codes), and the savings planned against those realised."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringLiteral("format"), QStringLiteral("Output format: text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text")));
    parser.addOption(QCommandLineOption(QStringLiteral("plan"),
        QStringLiteral("The plan to check against AFTER: the name of a plan kept in BEFORE (fleetscope plans BEFORE.fleet "
                       "lists them), or a plan file made on BEFORE."),
        QStringLiteral("NAME|PLAN.json")));
    parser.addOption(QCommandLineOption(QStringLiteral("prices"),
        QStringLiteral("A CSV of node prices (region,instance_type,capacity_type,usd_per_hour) whose rows replace the "
                       "shipped table's (resources/prices) for the $/h then and now."),
        QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("kubeconfig"),
        QStringLiteral("Compare BEFORE with the live cluster now, read with this kubeconfig file (one LIST of nodes, pods, PDBs, "
                       "namespaces and volumes; read-only), instead of an AFTER file. Without it, --context reads KUBECONFIG or "
                       "~/.kube/config as kubectl does."),
        QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("context"),
        QStringLiteral("The kubeconfig context of the live cluster (default: its current-context)."), QStringLiteral("NAME")));
    parser.addOption(QCommandLineOption(QStringLiteral("request-timeout"),
        QStringLiteral("The longest one request to the live cluster may take, its retries included, as kubectl's: whole seconds or a "
                       "duration (30s, 2m, 1m30s); 0 for no bound but 60 s per step (default: 60s)."),
        QStringLiteral("DURATION")));
    parser.addPositionalArgument(QStringLiteral("BEFORE"), QStringLiteral("The earlier state (.fleet or a cluster file)."));
    parser.addPositionalArgument(QStringLiteral("AFTER"),
        QStringLiteral("The later state (.fleet or a cluster file); none with --kubeconfig or --context (the live cluster now)."));
    if (!parseSubcommandArguments(parser, arguments, "diff"))
        return 2;
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, subcommandUsage("diff"))), stdout);
        return 0;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        importers::printTerminalf(stderr, "fleetscope diff: --format: expected text or json, got \"%s\"\n", qPrintable(format));
        return 2;
    }
    // AFTER: a file, or the live cluster now (--kubeconfig, --context).
    ClusterSource live;
    live.live = parser.isSet(QStringLiteral("kubeconfig")) || parser.isSet(QStringLiteral("context"));
    if (live.live) {
        live.kubeconfig = parser.value(QStringLiteral("kubeconfig"));
        live.context = parser.value(QStringLiteral("context"));
        if (parser.isSet(QStringLiteral("kubeconfig")) && live.kubeconfig.isEmpty()) {
            importers::printTerminalf(stderr, "fleetscope diff: --kubeconfig: expected a file name\n");
            return 2;
        }
    }
    if (parser.isSet(QStringLiteral("request-timeout"))) {
        const auto timeout = parseRequestTimeout(parser.value(QStringLiteral("request-timeout")));
        if (!timeout || !live.live) {
            importers::printTerminalf(stderr, "fleetscope diff: --request-timeout: %s\n",
                !live.live ? "applies to the live cluster (--kubeconfig or --context) only"
                           : "expected whole seconds or a duration such as 30s, 2m or 1m30s (0: no bound)");
            return 2;
        }
        live.requestTimeout = *timeout;
    }
    if (parser.positionalArguments().size() != (live.live ? 1 : 2)) {
        importers::printTerminalf(stderr, live.live ? "fleetscope diff: give one state, BEFORE, with --kubeconfig or --context (AFTER is the live cluster now)\n"
                                                    : "fleetscope diff: give two states, BEFORE and AFTER (each a .fleet document or a cluster file)\n");
        return 2;
    }
    // A state that cannot be read is named first: --plan looks its names up in BEFORE, and
    // its error blamed the plan for a BEFORE that is not there.
    const char* const roles[] = { "BEFORE", "AFTER" };
    for (qsizetype i = 0; i < parser.positionalArguments().size(); ++i) {
        const std::string path = commandLinePath(parser.positionalArguments()[i]);
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) {
            importers::printTerminalf(stderr, "fleetscope diff: cannot read %s %s: %s\n", roles[i], importers::escapedText(path).c_str(), std::strerror(errno));
            return 1;
        }
    }
    std::optional<CommandPlan> plan;
    if (parser.isSet(QStringLiteral("plan"))) {
        try {
            plan = readCommandPlan(parser.value(QStringLiteral("plan")), { parser.positionalArguments()[0] });
            if (!plan->note.empty())
                importers::printTerminalf(stderr, "fleetscope diff: note: %s\n", plan->note.c_str());
        } catch (const std::exception& e) {
            // A plan is the one made on BEFORE: names are looked up there only.
            const bool afterKeepsPlans = !live.live && importers::isFleetDocumentFile(commandLinePath(parser.positionalArguments()[1]));
            importers::printTerminalf(stderr, "fleetscope diff: %s%s\n", importers::messageText(e).c_str(),
                afterKeepsPlans ? " (diff looks plan names up in BEFORE, the state the plan was made on)" : "");
            return 2;
        }
    }
    try {
        const auto before = importers::loadClusterFiles({ commandLinePath(parser.positionalArguments()[0]) });
        const auto after = live.live ? loadClusterOnly(live) : importers::loadClusterFiles({ commandLinePath(parser.positionalArguments()[1]) });
        const std::string afterLabel = live.live ? clusterSourceLabel(live).toStdString()
                                                 : importers::planOutcomeStateLabel({ commandLinePath(parser.positionalArguments()[1]) });
        const model::PriceTable prices = importers::loadPriceTable(commandLinePath(parser.value(QStringLiteral("prices"))));
        // Two states that share few nodes may be two clusters (a wrong file or context).
        if (const std::string note = importers::sharedNodesNote(*before.store, *after.store, plan.has_value()); !note.empty())
            importers::printTerminalf(stderr, "fleetscope diff: warning: %s\n", note.c_str());
        if (plan) {
            // As plan check says: a plan made on another state than BEFORE judges "carried out"
            // against the wrong baseline.
            ClusterSource beforeSource;
            beforeSource.files = QStringList { parser.positionalArguments()[0] };
            if (const std::string note = importers::sourceDifference(plan->plan.source, clusterPlanSource(beforeSource, before)); !note.empty())
                importers::printTerminalf(stderr, "fleetscope diff: note: BEFORE is not the state the plan was made on: %s\n", note.c_str());
            // place-pods actions bring their template pod to each state that lacks it.
            importers::addPlanTemplatePods(*before.store, plan->plan, plan->label);
            importers::addPlanTemplatePods(*after.store, plan->plan, plan->label);
            const importers::PlanOutcome outcome = importers::comparePlanOutcome(
                *before.store, *before.topology, model::planNodePrices(*before.store, &prices), *after.store, *after.topology,
                model::planNodePrices(*after.store, &prices), plan->plan);
            // Named as the window's Export Plan Outcome names them (one rule, planOutcomeStateLabel()).
            const std::string beforeLabel = importers::planOutcomeStateLabel({ commandLinePath(parser.positionalArguments()[0]) });
            const std::string planLabel = plan->document.empty()
                ? importers::planOutcomePlanLabel({}, plan->label)
                : importers::planOutcomePlanLabel(plan->document, plan->label.substr(std::min(plan->label.size(), plan->document.size() + 1)));
            std::cout << (format == QLatin1String("json") ? importers::planOutcomeJson(outcome, planLabel, beforeLabel, afterLabel)
                                                          : importers::planOutcomeText(outcome, planLabel, afterLabel));
            std::cout.flush();
            if (!std::cout) {
                importers::printTerminalf(stderr, "fleetscope diff: cannot write to standard output\n");
                return 1;
            }
            return 0;
        }
        const importers::StateDiff diff = importers::diffStates(*before.store, *after.store, model::planNodePrices(*before.store, &prices),
                                                                model::planNodePrices(*after.store, &prices));
        std::cout << (format == QLatin1String("json") ? importers::stateDiffJson(diff) : importers::stateDiffText(diff));
        std::cout.flush();
        if (!std::cout) {
            importers::printTerminalf(stderr, "fleetscope diff: cannot write to standard output\n");
            return 1;
        }
        // On stderr, so that the output stays what Export Changes writes for the same states.
        if (!live.live)
            for (const std::string& note : planDifferenceNotes(commandLinePath(parser.positionalArguments()[0]),
                     commandLinePath(parser.positionalArguments()[1])))
                importers::printTerminalf(stderr, "fleetscope diff: note: %s\n", note.c_str());
    } catch (const std::exception& e) {
        QString what = parser.positionalArguments().join(QLatin1Char(' '));
        if (live.live)
            what += QLatin1Char(' ') + clusterSourceLabel(live);
        importers::printTerminalf(stderr, "fleetscope diff: %s\n", qPrintable(importFailureMessage(e, what)));
        return 1;
    }
    return 0;
}

} // namespace fleet::app
