// SPDX-License-Identifier: Apache-2.0
#include "planconsolidatecommand.h"
#include "commandlinepath.h"
#include "plancommand.h"

#include "clustersource.h"
#include "helptext.h"
#include "outputpath.h"

#include "app/shared/importfailure.h"
#include "model/plan/planprices.h"

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

namespace {

/// The plan's node count over the better of the volume bound and the LP bound (0 without a bound).
double ratioToBetterBound(const model::ConsolidationResult& ours, const model::NodeCountBound& bound, const model::PackingBound& lp)
{
    const std::int64_t better = std::max(bound.nodes, lp.valid ? lp.nodes : 0);
    return better > 0 ? static_cast<double>(ours.after.nodes) / static_cast<double>(better) : 0.0;
}

/// The drained nodes of `r` that have no price (nodePrices 0 or missing): their saving is unknown.
std::int64_t unpricedDrained(const model::ConsolidationResult& r, const std::vector<double>& nodePrices)
{
    return std::count_if(r.drained.begin(), r.drained.end(), [&](model::NodeId n) { return !(n.index() < nodePrices.size() && nodePrices[n.index()] > 0); });
}

/// A cost per hour over `nodes` nodes of which `unpriced` have no price: "$12.34"; "$12.34 and 3
/// unpriced nodes<tail>"; "unknown (3 unpriced nodes<tail>)" when none of them is priced.
std::string costText(double dollarsPerHour, std::int64_t nodes, std::int64_t unpriced, const char* tail = "")
{
    char dollars[64];
    std::snprintf(dollars, sizeof dollars, "$%.2f", dollarsPerHour);
    if (unpriced <= 0)
        return dollars;
    const std::string counted = model::formatCount(unpriced) + (unpriced == 1 ? " unpriced node" : " unpriced nodes") + tail;
    if (unpriced >= nodes)
        return "unknown (" + counted + ")";
    return std::string(dollars) + " and " + counted;
}

std::string summaryJson(const model::ConsolidationResult& ours, const model::ConsolidationResult& base, const model::NodeCountBound& bound,
    const model::PackingBound& lp, const model::ClusterStore& store, std::int64_t unpricedNodes, const std::vector<double>& nodePrices)
{
    importers::JsonWriter w;
    auto figures = [&](const model::ConsolidationResult& r) {
        w.beginObject();
        w.key("nodesFreed").value(r.nodesFreed);
        w.key("podsMoved").value(r.podsMoved);
        w.key("evictions").value(r.evictions);
        w.key("costPerHourSaved").value(r.savedPerHour);
        // of nodesFreed, those without a price: costPerHourSaved leaves them out
        w.key("unpricedNodesFreed").value(unpricedDrained(r, nodePrices));
        w.key("nodesAfter").value(r.after.nodes);
        w.key("pendingPlaced").value(static_cast<std::int64_t>(r.pendingPlaced.size()));
        w.key("pendingLeft").value(r.pendingLeft);
        w.key("seconds").value(r.seconds);
        w.endObject();
    };
    w.beginObject();
    w.key("ours");
    figures(ours);
    w.key("baseline");
    figures(base);
    w.key("lowerBound").beginObject();
    w.key("nodes").value(bound.nodes);
    w.key("ratio").value(bound.nodes > 0 ? static_cast<double>(ours.after.nodes) / static_cast<double>(bound.nodes) : 0.0);
    w.key("rows").beginArray();
    for (const model::NodeCountBound::Row& r : bound.rows) {
        w.beginObject();
        w.key("gpuModel").value(r.gpuModel);
        w.key("resource").value(r.resource);
        w.key("requested").value(r.requested);
        w.key("largestAllocatable").value(r.largestAllocatable);
        w.key("byRequests").value(r.byRequests);
        w.key("pinnedNodes").value(r.pinnedNodes);
        w.key("bound").value(r.bound);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    w.key("lpBound").beginObject();
    w.key("status").value(lp.status);
    w.key("nodes").value(lp.valid ? lp.nodes : 0);
    w.key("objective").value(lp.objective);
    w.key("seconds").value(lp.buildSeconds + lp.solveSeconds);
    w.key("nodeClasses").value(static_cast<std::int64_t>(lp.nodeClasses));
    w.key("podClasses").value(static_cast<std::int64_t>(lp.podClasses));
    w.endObject();
    w.key("ratioToBetterBound").value(ratioToBetterBound(ours, bound, lp));
    w.key("fallbackDrains").value(ours.fallbackDrains);
    // Nodes without a price: the cost figures leave them out (not $0 saved).
    w.key("unpricedNodes").value(unpricedNodes);
    importers::writeKeptMembers(w, store, ours.kept);
    w.key("cancelled").value(ours.cancelled);
    w.key("timedOut").value(ours.timedOut);
    w.endObject();
    return w.text() + "\n";
}

std::string summaryText(const model::ConsolidationResult& ours, const model::ConsolidationResult& base, const model::NodeCountBound& bound,
    const model::PackingBound& lp, const model::ClusterStore& store, const std::string& planPath, const std::vector<double>& nodePrices,
    const std::string& unpricedNote)
{
    const bool pricesKnown = std::any_of(nodePrices.begin(), nodePrices.end(), [](double p) { return p > 0; });
    const std::int64_t unpricedBefore = unpricedNodeCount(store, nodePrices);
    const std::int64_t unpricedFreed = unpricedDrained(ours, nodePrices);
    std::ostringstream out;
    char line[512];
    // Lines that embed names from the input (nodes, reason codes and messages naming labels
    // and taints, the plan's path) go through terminalLine(): no control byte reaches the
    // terminal and no name forges a line.
    const std::string shownPath = importers::terminalLine(planPath);
    // The drains' own moves: each evicted pod straight to the node it stays on (consolidation.h).
    const std::size_t moves = ours.actions.size() - ours.drained.size();
    if (ours.pendingPlaced.empty())
        std::snprintf(line, sizeof line,
            "Consolidation plan written to %s (%zu drain-node actions, each after the move-pod actions of its node's pods: %zu move-pod actions)\n",
            shownPath.c_str(), ours.drained.size(), moves);
    else
        std::snprintf(line, sizeof line,
            "Consolidation plan written to %s (%zu move-pod actions for pending pods, then %zu drain-node actions, each after the move-pod "
            "actions of its node's pods: %zu more move-pod actions)\n",
            shownPath.c_str(), ours.pendingPlaced.size(), ours.drained.size(), moves);
    out << line;
    if (!ours.pendingPlaced.empty() || ours.pendingLeft > 0) {
        std::snprintf(line, sizeof line, "  pending pods:       %zu placed first (room the drains keep), %lld stay pending (no node fits, or gated)\n",
            ours.pendingPlaced.size(), static_cast<long long>(ours.pendingLeft));
        out << line;
    }
    std::snprintf(line, sizeof line, "  nodes freed:        %lld (of %lld; %lld after)\n", static_cast<long long>(ours.nodesFreed),
        static_cast<long long>(ours.before.nodes), static_cast<long long>(ours.after.nodes));
    out << line;
    // Each pod moves once, straight to a node that stays; a fallback drain (its pods placed by the
    // policy, consolidation.h) may move a pod onto a node drained later, and again from there.
    if (ours.evictions != ours.podsMoved)
        std::snprintf(line, sizeof line, "  pods moved:         %lld (%lld evictions: %lld drains placed their pods by the policy, some onto nodes drained later)\n",
            static_cast<long long>(ours.podsMoved), static_cast<long long>(ours.evictions), static_cast<long long>(ours.fallbackDrains));
    else
        std::snprintf(line, sizeof line, "  pods moved:         %lld (each once, straight to a node that stays)\n", static_cast<long long>(ours.podsMoved));
    out << line;
    // Without a price for any node (a trace without instance types or regions) the costs are
    // unknown, not $0.00.
    // A node without a price is left out of the sums, not counted at $0: the figures name how
    // many such nodes they leave out, and a sum over none priced is unknown.
    if (pricesKnown && unpricedBefore > 0)
        std::snprintf(line, sizeof line, "  cost per hour saved: %s (before %s, after %s)\n",
            costText(ours.savedPerHour, ours.nodesFreed, unpricedFreed, " freed").c_str(),
            costText(ours.before.costPerHour, ours.before.nodes, unpricedBefore).c_str(),
            costText(ours.after.costPerHour, ours.after.nodes, unpricedBefore - unpricedFreed).c_str());
    else if (pricesKnown)
        std::snprintf(line, sizeof line, "  cost per hour saved: $%.2f (before $%.2f, after $%.2f)\n", ours.savedPerHour, ours.before.costPerHour,
            ours.after.costPerHour);
    else
        std::snprintf(line, sizeof line, "  cost per hour saved: unknown (no prices known for these nodes)\n");
    out << line;
    // Some nodes priced, some not: the figure counts the priced ones alone; say so.
    if (pricesKnown && !unpricedNote.empty())
        out << "                      (" << unpricedNote << ")\n";
    std::snprintf(line, sizeof line, "  lower bound:        %lld nodes (plan / bound = %.3f)\n", static_cast<long long>(bound.nodes),
        bound.nodes > 0 ? static_cast<double>(ours.after.nodes) / static_cast<double>(bound.nodes) : 0.0);
    out << line;
    if (lp.valid)
        std::snprintf(line, sizeof line, "  LP bound:           %lld nodes (COIN-OR Clp, %.2f s apart from the search's %.2f s; plan / the better bound = %.3f)\n",
            static_cast<long long>(lp.nodes), lp.buildSeconds + lp.solveSeconds, ours.seconds, ratioToBetterBound(ours, bound, lp));
    else
        std::snprintf(line, sizeof line, "  LP bound:           none (%s after %.1f s)\n", importers::terminalLine(lp.status).c_str(),
            lp.buildSeconds + lp.solveSeconds);
    out << line;
    if (const std::int64_t baseUnpriced = unpricedDrained(base, nodePrices); pricesKnown && baseUnpriced > 0)
        std::snprintf(line, sizeof line,
            "  baseline (Karpenter emptiness and multi-node consolidation, deletion only): %lld nodes freed, %lld pods moved, saved per hour: %s\n",
            static_cast<long long>(base.nodesFreed), static_cast<long long>(base.podsMoved), costText(base.savedPerHour, base.nodesFreed, baseUnpriced, " freed").c_str());
    else if (pricesKnown)
        std::snprintf(line, sizeof line, "  baseline (Karpenter emptiness and multi-node consolidation, deletion only): %lld nodes freed, %lld pods moved, $%.2f/h saved\n",
            static_cast<long long>(base.nodesFreed), static_cast<long long>(base.podsMoved), base.savedPerHour);
    else
        std::snprintf(line, sizeof line, "  baseline (Karpenter emptiness and multi-node consolidation, deletion only): %lld nodes freed, %lld pods moved, saving unknown\n",
            static_cast<long long>(base.nodesFreed), static_cast<long long>(base.podsMoved));
    out << line;
    out << "  nodes that stay: " << ours.kept.size() << "\n";
    // The groups as the window's list of nodes that stay shows them (model/search/keptgroups.h).
    for (const model::KeptGroup& g : model::keptByCode(ours.kept)) {
        out << "    " << std::setw(8) << model::formatCount(g.nodes) << "  " << importers::terminalLine(g.code) << "\n";
        if (!g.blockingCode.empty())
            out << "              most common blocking filter: " << importers::terminalLine(model::keptGroupBlockingText(g)) << "\n";
    }
    if (ours.kept.size() > 20)
        out << "  the first 20 (--format json lists all):\n";
    for (std::size_t i = 0; i < ours.kept.size() && i < 20; ++i)
        out << "    "
            << importers::terminalLine(std::string(store.nodeName(ours.kept[i].node)) + ": " + ours.kept[i].reason.message + " ["
                   + ours.kept[i].reason.code() + "]")
            << "\n";
    if (ours.cancelled)
        out << "  (cancelled: the plan so far)\n";
    if (ours.timedOut)
        out << "  (stopped at --time-limit: the best plan found so far)\n";
    return out.str();
}

} // namespace

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
    parser.addOption(QCommandLineOption(QStringLiteral("max-moves"), QStringLiteral("At most N pods moved in all."), QStringLiteral("N")));
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
            ? summaryJson(ours, base, bound, lp, store, unpricedNodeCount(store, input.nodePricePerHour), input.nodePricePerHour)
            : summaryText(ours, base, bound, lp, store, planPath, input.nodePricePerHour, unpricedNodesNote(store, input.nodePricePerHour)));
    std::cout.flush();
    if (!std::cout) {
        importers::printTerminalf(stderr, "%scannot write to standard output\n", prefix.c_str());
        return 2;
    }
    return 0;
}

} // namespace fleet::app
