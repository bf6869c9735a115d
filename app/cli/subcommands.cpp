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

// Each verb's usage: the program's --help lists these lines, and each verb's own --help prints
// its line (subcommandUsage()), so the two cannot drift.
const Subcommand kSubcommands[] = {
    { "summary", "fleetscope summary [--format text|json] [--only totals,nodes,pods] (FILE... | --simulate NODES)", &runSummary,
        nullptr },
    { "screenshot", "fleetscope screenshot [FILE...] [--simulate N] [--seed N] [--plan PLAN.json [--metric plan-difference]] [--map-only] -o out.png [--size WxH]", nullptr, &runScreenshot },
    { "report",
        "fleetscope report (FILE... | --simulate NODES [--seed N] | --kubeconfig FILE [--context NAME]) [--plan PLAN.json|NAME] "
        "[--title TEXT] [--prices FILE] [--metric gpu|cpu|memory] [--no-baseline] -o REPORT.pdf|REPORT.png [--size WxH]",
        nullptr, &runReport },
    { "check-move",
        "fleetscope check-move (FILE... | --simulate NODES [--seed N]) --pod NAMESPACE/NAME --to NODE [--format text|json]",
        &runCheckMove, nullptr },
    { "plan",
        "fleetscope plan check (FILE... | --simulate NODES [--seed N] | --kubeconfig FILE [--context NAME]) "
        "--plan PLAN.json|NAME [--format text|json] [-o EVALUATION.json] [--prices FILE] [--csv OUT.csv] [--kubectl-script OUT.sh] "
        "[--force]\n"
        "fleetscope plan export (FILE... | --simulate NODES [--seed N] | --kubeconfig FILE [--context NAME]) "
        "--plan PLAN.json|NAME (--csv OUT.csv | --kubectl-script OUT.sh) [--force]\n"
        "fleetscope plan consolidate (FILE... | --simulate NODES [--seed N] | --kubeconfig FILE [--context NAME]) "
        "[--policy default|LeastAllocated|MostAllocated|BestFit|GpuPacking|GpuClustering|DotProduct] [--max-moves N] "
        "[--time-limit S] [--lp-time-limit S] [--keep-within LABEL] [--node-groups FILE] [--prices FILE] [--format text|json] "
        "-o PLAN.json\n"
        "fleetscope plan place (FILE... | --simulate N) --pods N (--cpu Q --memory Q [--gpu N] [--gpu-model M] | --pod-template "
        "POD.json|POD.yaml) [--required-level LABEL | --preferred-level LABEL] [--keep-within LABEL] [--slice-size S "
        "--slice-level LABEL] [--no-gang] [--format text|json] -o PLAN.json\n"
        "fleetscope plan add-nodes (FILE... | --simulate NODES [--seed N] | --kubeconfig FILE [--context NAME]) "
        "--instance-type T [--capacity-type on-demand|spot|reserved] [--domain PATH] (--count N | --fit-pending "
        "[--max-nodes M]) [--format text|json] [--prices FILE] -o PLAN.json",
        &runPlan, nullptr },
    { "save",
        "fleetscope save (FILE... | --simulate N | --kubeconfig FILE) -o FILE.fleet [--plan PLAN.json]... [--notes TEXT] "
        "[--force]",
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

QString subcommandUsage(std::string_view name, std::string_view form)
{
    const Subcommand* s = findSubcommand(name);
    if (!s)
        return {};
    const QString usage = QString::fromUtf8(s->usage);
    if (form.empty())
        return usage;
    const QString prefix = QStringLiteral("fleetscope %1 %2 ").arg(QString::fromUtf8(name.data(), qsizetype(name.size())),
        QString::fromUtf8(form.data(), qsizetype(form.size())));
    for (const QString& line : usage.split(QLatin1Char('\n')))
        if (line.startsWith(prefix))
            return line;
    return {};
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
