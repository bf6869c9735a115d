// SPDX-License-Identifier: Apache-2.0
#include "planconsolidatecommand.h"
#include "commandlinepath.h"
#include "plancommand.h"

#include "clustersource.h"
#include "helptext.h"
#include "outputpath.h"

#include "app/shared/importfailure.h"
#include "model/plan/planprices.h"

#include "importers/export/consolidationformat.h"
#include "importers/export/keptnodesexport.h"
#include "importers/plan/plankept.h"
#include "importers/kubenames.h"
#include "importers/plan/jsontext.h"
#include "importers/plan/nodegroupsettings.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"
#include "importers/pricing/pricetableloader.h"
#include "importers/terminaltext.h"
#include "importers/solver/coinsolver.h"
#include "model/search/consolidationbound.h"
#include "model/search/packingrelaxation.h"
#include "model/placement/drainpolicy.h"
#include "model/search/karpenterbaseline.h"
#include "model/search/keptgroups.h"
#include "model/figures.h"
#include "model/plan/evictionrules.h"

#include <QCommandLineParser>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iomanip>
#include <stdexcept>
#include <thread>
#include <iostream>
#include <map>
#include <sstream>

#include <unistd.h>

namespace fleet::app {

// The longest --time-limit: a year, in seconds.
constexpr double kMaxTimeLimitSeconds = 365.0 * 24 * 3600;

int runPlanConsolidate(const QStringList& arguments)
{
    const std::string prefix = "fleetscope plan consolidate: ";
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Plans which nodes to drain and remove so that the cluster costs the least per hour (savings within 2% count as equal), then has the "
        "fewest nodes: every "
        "movable pod re-placed under every filter and eviction rule of the what-if (budgets, do-not-disrupt, gangs). Writes "
        "the plan (per node to drain, a move-pod action of each of its pods straight to a node that stays, then its drain-node action) to -o and prints the nodes freed, pods moved, cost per hour saved, a lower bound on "
        "the node count, the Karpenter multi-node baseline, and why each node that stays stays."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringList { QStringLiteral("o"), QStringLiteral("output") }, QStringLiteral("The plan file to write."),
        QStringLiteral("PLAN.json")));
    parser.addOption(QCommandLineOption(QStringLiteral("policy"),
        QStringLiteral("Where evicted pods go (model/placement/drainpolicy.h): default (the what-if's best fit through the capacity index), "
                       "LeastAllocated or MostAllocated (kube-scheduler NodeResourcesFit scoring), BestFit, GpuPacking, GpuClustering or "
                       "DotProduct (the FGD paper's); each drain-node action of the plan carries it. The baseline uses it too."),
        QStringLiteral("P"), QStringLiteral("default")));
    parser.addOption(QCommandLineOption(QStringLiteral("max-moves"), QStringLiteral("At most N pods moved off the nodes the plan drains, in all (the JSON's evictions: a pod moved twice counts twice). The pending pods the plan places first do not count, nor do DaemonSet, mirror and terminating pods, which go with their node."), QStringLiteral("N")));
    parser.addOption(QCommandLineOption(QStringLiteral("time-limit"),
        QStringLiteral("Stop after S seconds with the best plan found so far (default: no limit)."), QStringLiteral("S")));
    parser.addOption(QCommandLineOption(QStringLiteral("lp-time-limit"),
        QStringLiteral("The LP bound's time limit in seconds (COIN-OR Clp over pod and node classes, on a second thread beside the search, timed apart; "
                       "default 120; 0 skips it)."),
        QStringLiteral("S")));
    parser.addOption(QCommandLineOption(QStringLiteral("keep-within"),
        QStringLiteral("A topology level's label key (topology.kubernetes.io/region, topology.kubernetes.io/zone, ...): evicted pods "
                       "stay inside their node's domain of that level; each drain-node action carries the domain (default: none)."),
        QStringLiteral("LABEL")));
    parser.addOption(QCommandLineOption(QStringLiteral("node-groups"),
        QStringLiteral("Node-group minimum sizes (YAML or JSON; importers/plan/nodegroupsettings.h)."), QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("prices"),
        QStringLiteral("A CSV of node prices (region,instance_type,capacity_type,usd_per_hour) whose rows replace the shipped table's."),
        QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("format"), QStringLiteral("Summary format: text (default) or json."),
        QStringLiteral("text|json"), QStringLiteral("text")));
    if (const int done = parsePlanVerb(parser, arguments, prefix.c_str(), "consolidate"); done >= 0)
        return done;
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json")) {
        importers::printTerminalf(stderr, "%s--format: expected text or json, got \"%s\"\n", prefix.c_str(), qPrintable(format));
        return 2;
    }
    const std::string policy = parser.value(QStringLiteral("policy")).toStdString();
    if (policy.empty() || !model::isDrainPolicy(policy)) {
        importers::printTerminalf(stderr, "%s--policy: unknown policy \"%s\" (known: %s)\n", prefix.c_str(), policy.c_str(), model::knownDrainPolicies().c_str());
        return 2;
    }
    model::ConsolidationOptions options;
    options.policy = policy == "default" ? std::string() : policy;
    options.keepWithinLabel = parser.value(QStringLiteral("keep-within")).toStdString();
    // Given, it must be a label key: an empty one would silently be no constraint at all.
    if (parser.isSet(QStringLiteral("keep-within")))
        if (const std::string problem = importers::labelKeyProblem(options.keepWithinLabel); !problem.empty()) {
            importers::printTerminalf(stderr, "%s--keep-within: %s; give a topology level's label key, e.g. topology.kubernetes.io/zone\n",
                prefix.c_str(), problem.c_str());
            return 2;
        }
    if (parser.isSet(QStringLiteral("max-moves"))) {
        bool ok = false;
        options.maxMoves = parser.value(QStringLiteral("max-moves")).toLongLong(&ok);
        if (!ok || options.maxMoves < 0) {
            importers::printTerminalf(stderr, "%s--max-moves: expected a whole number >= 0, got \"%s\"\n", prefix.c_str(),
                qPrintable(parser.value(QStringLiteral("max-moves"))));
            return 2;
        }
    }
    if (parser.isSet(QStringLiteral("time-limit"))) {
        bool ok = false;
        options.timeLimitSeconds = parser.value(QStringLiteral("time-limit")).toDouble(&ok);
        // A range, as for every number: no nan or inf, and at most a year, far below the
        // 292 years after which the deadline (steady_clock nanoseconds) would wrap into the past.
        if (!ok || !(options.timeLimitSeconds > 0) || options.timeLimitSeconds > kMaxTimeLimitSeconds) {
            importers::printTerminalf(stderr, "%s--time-limit: expected seconds from above 0 to %.0f (a year), got \"%s\"\n", prefix.c_str(),
                kMaxTimeLimitSeconds, qPrintable(parser.value(QStringLiteral("time-limit"))));
            return 2;
        }
    }
    double lpTimeLimit = 120;
    if (parser.isSet(QStringLiteral("lp-time-limit"))) {
        bool ok = false;
        lpTimeLimit = parser.value(QStringLiteral("lp-time-limit")).toDouble(&ok);
        if (!ok || !(lpTimeLimit >= 0) || lpTimeLimit > kMaxTimeLimitSeconds) {
            importers::printTerminalf(stderr, "%s--lp-time-limit: expected seconds from 0 (skip the LP bound) to %.0f (a year), got \"%s\"\n",
                prefix.c_str(), kMaxTimeLimitSeconds, qPrintable(parser.value(QStringLiteral("lp-time-limit"))));
            return 2;
        }
    }
    if (!parser.isSet(QStringLiteral("output"))) {
        importers::printTerminalf(stderr, "%s-o PLAN.json is needed\n", prefix.c_str());
        return 2;
    }
    const QString output = parser.value(QStringLiteral("output"));
    // Checked before the search, which can take minutes, and again when the plan is written.
    const importers::OutputFileOptions planOutput = commandOutputOptions(parser);
    if (const std::string problem = outputTargetProblem("-o", output.toStdString(), planOutput); !problem.empty()) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), problem.c_str());
        return 2;
    }
    ClusterSource source;
    QString error;
    if (!readClusterSource(parser, false, source, error)) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), qPrintable(error));
        return 2;
    }
    model::ConsolidationInput input;
    model::PriceTable prices;
    try {
        if (parser.isSet(QStringLiteral("node-groups")))
            input.groupMinimums = importers::readNodeGroupSettings(commandLinePath(parser.value(QStringLiteral("node-groups"))));
        prices = importers::loadPriceTable(commandLinePath(parser.value(QStringLiteral("prices"))));
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), importers::messageText(e).c_str());
        return 2;
    }
    importers::LoadedCluster loaded;
    importers::PlanDocument plan;
    try {
        loaded = loadClusterSource(source);
        plan.source = planSourceOf(source, loaded);
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), qPrintable(importFailureMessage(e, clusterSourceLabel(source))));
        return 2;
    }
    const model::ClusterStore& store = *loaded.store;
    input.nodePricePerHour = model::planNodePrices(store, &prices);
    if (options.keepWithinLabel.empty())
        if (const std::string note = regionsNote(store); !note.empty())
            importers::printTerminalf(stderr, "%snote: %s\n", prefix.c_str(), note.c_str());
    // Progress rewrites its line with CR: only on a terminal (a log or a pipe gets no CRs).
    const bool progressShown = ::isatty(STDERR_FILENO) == 1;
    if (progressShown)
        options.progress = [](double f) { std::fprintf(stderr, "\rconsolidating: %3.0f%%", f * 100); };
    // The LP bound is solved on a second thread beside the search and the baseline, once the
    // pending pods are placed (it counts them where the search put them): the search is one
    // thread, and the bound took about as long again at 100,000 nodes (25 to 60 s of Clp) when
    // it ran after it. Both only read the store. Its time limit stays --lp-time-limit.
    model::PackingBound lp;
    lp.status = "skipped (--lp-time-limit 0)";
    std::thread lpThread;
    if (lpTimeLimit > 0) {
        options.pendingPlaced = [&](const std::vector<std::pair<model::PodId, model::NodeId>>& pending) {
            lpThread = std::thread([&store, &lp, pending, keepWithin = options.keepWithinLabel, lpTimeLimit] {
                model::PackingRelaxationOptions lpOptions;
                lpOptions.keepWithinLabel = keepWithin;
                lpOptions.timeLimitSeconds = lpTimeLimit;
                try {
                    lp = model::packingLowerBound(store, pending, lpOptions, importers::solveWithCoin);
                } catch (const std::exception& e) {
                    lp = {};
                    lp.status = std::string("failed: ") + e.what();
                }
            });
        };
    }
    struct JoinAtExit { // every return below waits for the bound's thread first
        std::thread& t;
        ~JoinAtExit()
        {
            if (t.joinable())
                t.join();
        }
    } joinLp { lpThread };
    model::ConsolidationResult ours;
    try {
        ours = model::consolidate(store, *loaded.topology, input, options);
    } catch (const std::invalid_argument& e) { // --keep-within that is not a topology level
        if (progressShown)
            std::fprintf(stderr, "\r");
        importers::printTerminalf(stderr, "%s--%s\n", prefix.c_str(), e.what());
        return 2;
    }
    if (progressShown)
        std::fprintf(stderr, "\rbaseline:      ");
    const model::ConsolidationResult base = model::karpenterMultiNodeConsolidation(store, *loaded.topology, input, options);
    if (progressShown)
        std::fprintf(stderr, "\r                       \r");
    const model::NodeCountBound bound = model::nodeCountLowerBound(store, ours.pendingPods);
    if (progressShown && lpThread.joinable())
        std::fprintf(stderr, "\rLP bound:      ");
    if (lpThread.joinable())
        lpThread.join();
    if (progressShown)
        std::fprintf(stderr, "\r                       \r");
    plan.actions = ours.pendingPlaced; // the pending pods first (consolidation.h), then the drains
    plan.actions.insert(plan.actions.end(), ours.actions.begin(), ours.actions.end());
    // Why each other node stays, as this search found it: a report of the plan reads it rather
    // than running the search again (plan-v1.md, "consolidation").
    if (!ours.actions.empty() && !ours.cancelled) {
        plan.consolidation = importers::planKeptRecord(store, ours);
        if (lp.valid) // the report shows it beside the plan: at 100,000 nodes it takes a minute to compute again
            plan.consolidation->lpBound = importers::PlanKeptRecord::LpBound { lp.nodes };
    }
    const std::string planPath = output.toStdString();
    try {
        importers::writeOutputFile(planPath, importers::planJson(plan), planOutput);
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "%s%s\n", prefix.c_str(), importers::messageText(e).c_str());
        return 2;
    }
    std::cout << (format == QLatin1String("json")
            ? importers::consolidationSummaryJson(ours, base, bound, lp, store, unpricedNodeCount(store, input.nodePricePerHour), input.nodePricePerHour)
            : importers::consolidationSummaryText(ours, base, bound, lp, store, planPath, input.nodePricePerHour,
                  unpricedNodeCount(store, input.nodePricePerHour), unpricedNodesNote(store, input.nodePricePerHour)));
    std::cout.flush();
    if (!std::cout) {
        importers::printTerminalf(stderr, "%scannot write to standard output\n", prefix.c_str());
        return 2;
    }
    return 0;
}

} // namespace fleet::app
