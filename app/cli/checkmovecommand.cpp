// SPDX-License-Identifier: Apache-2.0
#include "checkmovecommand.h"

#include "clustersource.h"
#include "helptext.h"
#include "plancommand.h"
#include "subcommands.h"

#include "app/shared/importfailure.h"

#include "importers/export/checkmoveformat.h"
#include "model/plan/evictionrules.h"
#include "model/scheduling/filters.h"

#include "importers/terminaltext.h"

#include <QCommandLineParser>

#include <cstdio>
#include <exception>
#include <iostream>

namespace fleet::app {

namespace {

model::PodId findPodByName(const model::ClusterStore& store, std::string_view ns, std::string_view name)
{
    for (std::uint32_t i = 0; i < store.podCount(); ++i)
        if (store.podName(model::PodId(i)) == name && store.podNamespace(model::PodId(i)) == ns)
            return model::PodId(i);
    return {};
}

} // namespace

int runCheckMove(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Says whether a pod could move to a node, as the kube-scheduler's filters decide it (the pod taken off its node "
        "first; fits without preempting anyone), with every failing filter's reason, and whether the eviction rules let "
        "the pod move alone (gang-member: one pod of a gang moves with its gang or not at all; no-controller; "
        "do-not-disrupt). Exits 0 whether or not the move is feasible."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringLiteral("pod"), QStringLiteral("The pod to move, as NAMESPACE/NAME."), QStringLiteral("NAMESPACE/NAME")));
    parser.addOption(QCommandLineOption(QStringLiteral("to"), QStringLiteral("The destination node's name."), QStringLiteral("NODE")));
    parser.addOption(QCommandLineOption(QStringLiteral("format"), QStringLiteral("Output format: text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text")));
    addClusterSourceOptions(parser, false);
    if (!parseSubcommandArguments(parser, arguments, "check-move"))
        return 2;
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, subcommandUsage("check-move"))), stdout);
        return 0;
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        importers::printTerminalf(stderr, "fleetscope check-move: --format: expected text or json, got \"%s\"\n", qPrintable(format));
        return 2;
    }
    const QString podArg = parser.value(QStringLiteral("pod"));
    const qsizetype slash = podArg.indexOf(QLatin1Char('/'));
    if (!parser.isSet(QStringLiteral("pod")) || slash <= 0 || slash == podArg.size() - 1 || podArg.indexOf(QLatin1Char('/'), slash + 1) >= 0) {
        // A name alone is what a user of the Alibaba trace writes (its pods have no namespace:
        // they are imported into "default"): say so.
        const QString hint = !podArg.isEmpty() && slash < 0 ? QStringLiteral(" (a pod without a namespace, as the Alibaba trace's, is in default: default/%1)").arg(podArg) : QString();
        importers::printTerminalf(stderr, "fleetscope check-move: --pod: expected NAMESPACE/NAME, got \"%s\"%s\n", qPrintable(podArg), qPrintable(hint));
        return 2;
    }
    const QString to = parser.value(QStringLiteral("to"));
    if (to.isEmpty()) {
        importers::printTerminalf(stderr, "fleetscope check-move: --to NODE is needed\n");
        return 2;
    }
    ClusterSource source;
    QString error;
    if (!readClusterSource(parser, false, source, error)) {
        importers::printTerminalf(stderr, "fleetscope check-move: %s\n", qPrintable(error));
        return 2;
    }
    const QString label = clusterSourceLabel(source);
    importers::LoadedCluster loaded;
    try {
        loaded = loadClusterSource(source);
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "fleetscope check-move: %s\n", qPrintable(importFailureMessage(e, label)));
        return 1;
    }
    const model::ClusterStore& store = *loaded.store;
    const std::string ns = podArg.left(slash).toStdString();
    const std::string name = podArg.mid(slash + 1).toStdString();
    const model::PodId pod = findPodByName(store, ns, name);
    if (!pod.isValid()) {
        importers::printTerminalf(stderr, "fleetscope check-move: pod %s/%s is not in %s\n", importers::terminalLine(ns).c_str(),
            importers::terminalLine(name).c_str(), qPrintable(label));
        return 1;
    }
    const std::string node = to.toStdString();
    const model::NodeId target = store.findNode(node);
    if (!target.isValid()) {
        importers::printTerminalf(stderr, "fleetscope check-move: node %s is not in %s\n", importers::terminalLine(node).c_str(), qPrintable(label));
        return 1;
    }
    const model::PlanLedger state(store);
    const model::Verdict verdict = model::checkMove(state, pod, target);
    // The eviction rules that refuse a bound pod whatever the node (one member of a gang, no
    // controller, do-not-disrupt), beside the filters' verdict: the window's drop and the
    // plan's move-pod refuse the move for them too.
    const std::vector<model::Reason> blockers = store.podNode(pod).isValid() ? model::checkEviction(store, pod).blockers : std::vector<model::Reason> {};
    const std::string out = format == QLatin1String("json") ? importers::checkMoveJson(ns + "/" + name, node, verdict, blockers)
                                                            : importers::checkMoveText(ns + "/" + name, node, verdict, blockers);
    std::cout << out;
    std::cout.flush();
    if (!std::cout) {
        importers::printTerminalf(stderr, "fleetscope check-move: cannot write to standard output\n");
        return 1;
    }
    return 0;
}

} // namespace fleet::app
