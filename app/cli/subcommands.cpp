// SPDX-License-Identifier: Apache-2.0
#include "subcommands.h"

#include "benchcommand.h"
#include "checkmovecommand.h"
#include "diffcommand.h"
#include "plancommand.h"
#include "planscommand.h"
#include "reportcommand.h"
#include "savecommand.h"
#include "screenshotcommand.h"
#include "summarycommand.h"

#include "importers/terminaltext.h"

#include <algorithm>
#include <iterator>

namespace fleet::app {

namespace {

const Subcommand kSubcommands[] = {
    { "summary", "fleetscope summary [--format text|json] (FILE... | --simulate NODES)", &runSummary, nullptr },
    { "screenshot", "fleetscope screenshot [FILE...] [--simulate N] [--seed N] [--plan PLAN.json [--metric plan-difference]] [--map-only] -o out.png [--size WxH]", nullptr, &runScreenshot },
    { "report",
        "fleetscope report (FILE... | --simulate N | --kubeconfig FILE) [--plan PLAN.json|NAME] [--title TEXT] -o REPORT.pdf|REPORT.png [--size WxH]",
        nullptr, &runReport },
    { "check-move", "fleetscope check-move (FILE... | --simulate N) --pod NAMESPACE/NAME --to NODE [--format text|json]",
        &runCheckMove, nullptr },
    { "plan",
        "fleetscope plan check (FILE... | --simulate N) --plan PLAN.json|NAME [--format text|json] [-o EVALUATION.json]\n"
        "fleetscope plan export (FILE... | --simulate N) --plan PLAN.json|NAME (--csv OUT.csv | --kubectl-script OUT.sh)\n"
        "fleetscope plan consolidate (FILE... | --simulate N) [--policy P] [--max-moves N] [--time-limit S] [--keep-within LABEL] [--node-groups FILE] -o PLAN.json\n"
        "fleetscope plan place (FILE... | --simulate N) --pods N (--cpu Q --memory Q [--gpu N] | --pod-template POD) [--keep-within LABEL] -o PLAN.json\n"
        "fleetscope plan add-nodes (FILE... | --simulate N) --instance-type TYPE (--count N | --fit-pending) -o PLAN.json",
        &runPlan, nullptr },
    { "save",
        "fleetscope save (FILE... | --simulate N | --kubeconfig FILE) -o FILE.fleet [--plan PLAN.json]... [--notes TEXT]",
        &runSave, nullptr },
    { "plans", "fleetscope plans DOC.fleet [--format text|json]", &runPlans, nullptr },
    { "diff", "fleetscope diff BEFORE (AFTER | --kubeconfig FILE [--context NAME]) [--plan NAME|PLAN.json] [--prices FILE] [--format text|json]", &runDiff, nullptr },
    { "bench", "fleetscope bench fgd --data DIR --trace NAME|all [--seeds 42-51] [--policies LIST] [--format text|json]", &runBench,
        nullptr },
};

} // namespace

std::span<const Subcommand> subcommands() noexcept
{
    return kSubcommands;
}

const Subcommand* findSubcommand(std::string_view name) noexcept
{
    const auto it = std::find_if(std::begin(kSubcommands), std::end(kSubcommands), [name](const Subcommand& s) { return name == s.name; });
    return it == std::end(kSubcommands) ? nullptr : &*it;
}

QString subcommandsHelp()
{
    QString text = QStringLiteral("Subcommands (no display needed):\n");
    for (const Subcommand& s : kSubcommands)
        for (const QString& line : QString::fromUtf8(s.usage).split(QLatin1Char('\n')))
            text += QStringLiteral("  ") + line + QLatin1Char('\n');
    text += QStringLiteral("Run a subcommand with --help for its options.");
    return text;
}

bool parseSubcommandArguments(QCommandLineParser& parser, const QStringList& arguments, const char* verb)
{
    QStringList args = arguments;
    if (args.size() > 1)
        args.removeAt(1); // the verb
    if (!parser.parse(args)) {
        importers::printTerminalf(stderr, "fleetscope %s: %s\n", verb, qPrintable(parser.errorText()));
        return false;
    }
    return true;
}

} // namespace fleet::app
