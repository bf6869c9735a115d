// SPDX-License-Identifier: Apache-2.0
#include "planplacecommand.h"
#include "commandlinepath.h"
#include "plancommand.h"

#include "clustersource.h"
#include "helptext.h"
#include "outputpath.h"

#include "app/shared/importfailure.h"
#include "app/shared/placerequest.h"
#include "model/plan/planprices.h"

#include "importers/export/placementformat.h"
#include "importers/kubenames.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"
#include "importers/pricing/pricetableloader.h"
#include "model/domainpath.h"
#include "model/plan/plan.h"
#include "model/topology.h"

#include "importers/quotedtext.h"
#include "importers/terminaltext.h"

#include <QCommandLineParser>

#include <cstdio>
#include <iostream>
#include <map>
#include <set>

namespace fleet::app {

namespace {

constexpr const char* kPrefix = "fleetscope plan place: ";

} // namespace

int runPlanPlace(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Places N new pods of one shape or pod template in the network topology as Kueue's Topology Aware Scheduling does "
        "(KEP-2724): all pods in one domain of a required level, or the smallest domain that fits from a preferred level up, "
        "each slice of S pods whole inside one domain of the slice level; BestFit domain choice; a gang (the default) all or "
        "nothing. Writes the plan (one place-pods action) to -o. Exit status: 0 placed, 1 does not fit, 2 an input cannot be read."));
    parser.addHelpOption();
    auto option = [&](const char* name, const char* help, const char* value) {
        parser.addOption(QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(value)));
    };
    option("pods", "How many pods (N).", "N");
    option("cpu", "Each pod's cpu request (a Kubernetes quantity: 8, 500m).", "Q");
    option("memory", "Each pod's memory request (64Gi).", "Q");
    option("gpu", "Each pod's GPUs (nvidia.com/gpu; the pods tolerate its taint).", "N");
    option("gpu-model", "Only nodes of this GPU model (the nodes' nvidia.com/gpu.product label, or the trace's).", "M");
    option("pod-template", "A Pod object (JSON or YAML) with requests, tolerations, node selector and affinity, instead of a shape.", "POD");
    option("namespace", "The pods' namespace (default: the template's, else default).", "NS");
    option("name", "The pods' name prefix: the template pod is NAME, the new pods NAME-0, NAME-1, ... (default: placed).", "NAME");
    option("required-level", "All pods inside one domain of this level (a node label key), or none.", "LABEL");
    option("preferred-level", "The smallest domain that holds them, from this level up; spread only as a last resort.", "LABEL");
    option("keep-within",
        "A topology level's label key (topology.kubernetes.io/region, topology.kubernetes.io/zone, ...) the pods never spread "
        "over: all in one domain of it; a preferred level climbs no higher (default: none).",
        "LABEL");
    option("slice-size", "Pods per slice (divides N); each slice whole inside one domain of --slice-level.", "S");
    option("slice-level", "The level each slice must lie in (e.g. topology.k8s.aws/network-node-layer-3, nvidia.com/gpu.clique).", "LABEL");
    parser.addOption(QCommandLineOption(QStringLiteral("no-gang"), QStringLiteral("Place what fits instead of all or nothing.")));
    addPlanWriterOptions(parser);
    if (const int done = parsePlanVerb(parser, arguments, kPrefix, "place"); done >= 0)
        return done;
    auto fail = [](const std::string& what) {
        importers::printTerminalf(stderr, "%s%s\n", kPrefix, what.c_str());
        return 2;
    };
    auto integer = [&](const char* name, int fallback, int& out) {
        if (!parser.isSet(QString::fromLatin1(name))) {
            out = fallback;
            return true;
        }
        bool ok = false;
        out = parser.value(QString::fromLatin1(name)).toInt(&ok);
        return ok;
    };
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return fail("--format: expected text or json, got \"" + format.toStdString() + "\"");
    PlaceRequestInput input;
    if (!parser.isSet(QStringLiteral("pods")))
        return fail("--pods N is needed, N a whole number of at least 1");
    if (!integer("pods", 0, input.pods) || input.pods < 1) // too large for an int is said as such, not as "needed"
        return fail("--pods: expected a whole number of pods of at least 1 (at most 1000000), got "
            + importers::quotedText(parser.value(QStringLiteral("pods")).toStdString()));
    if (!integer("gpu", 0, input.gpus) || input.gpus < 0)
        return fail("--gpu: expected a whole number of GPUs");
    if (!integer("slice-size", 0, input.sliceSize) || input.sliceSize < 0)
        return fail("--slice-size: expected a whole number of pods");
    auto text = [&](const char* name) { return parser.value(QString::fromLatin1(name)).toStdString(); };
    input.gpusGiven = parser.isSet(QStringLiteral("gpu"));
    input.cpu = text("cpu");
    input.memory = text("memory");
    if (parser.isSet(QStringLiteral("cpu")) != !input.cpu.empty() || parser.isSet(QStringLiteral("memory")) != !input.memory.empty())
        return fail("--cpu and --memory need a quantity");
    input.gpuModel = text("gpu-model");
    input.podTemplatePath = commandLinePath(parser.value(QStringLiteral("pod-template")));
    if (parser.isSet(QStringLiteral("pod-template")) && input.podTemplatePath.empty())
        return fail("--pod-template needs a file");
    input.namespaceName = text("namespace");
    input.name = text("name");
    input.requiredLevel = text("required-level");
    input.preferredLevel = text("preferred-level");
    input.sliceLevel = text("slice-level");
    input.keepWithinLevel = text("keep-within");
    // Given, it must be a label key: an empty one would silently be no constraint at all.
    if (parser.isSet(QStringLiteral("keep-within")) && input.keepWithinLevel.empty())
        return fail("--keep-within: " + importers::labelKeyProblem("") + "; give a topology level's label key, e.g. topology.kubernetes.io/region");
    input.gang = !parser.isSet(QStringLiteral("no-gang"));
    if (!parser.isSet(QStringLiteral("output")))
        return fail("-o PLAN.json is needed");
    const std::string planPath = parser.value(QStringLiteral("output")).toStdString();
    const importers::OutputFileOptions planOutput = commandOutputOptions(parser);
    if (const std::string problem = outputTargetProblem("-o", planPath, planOutput); !problem.empty())
        return fail(problem);
    const int pods = input.pods;
    model::PlanAction action;
    try { // the flags' rules before the cluster is read (placerequest.h, shared with the window)
        (void)placePodsAction(input, {});
    } catch (const PlaceRequestError& e) {
        return fail(importers::messageText(e));
    }

    ClusterSource source;
    QString error;
    if (!readClusterSource(parser, false, source, error))
        return fail(error.toStdString());
    importers::LoadedCluster loaded;
    importers::PlanDocument plan;
    try {
        loaded = loadClusterSource(source);
        plan.source = planSourceOf(source, loaded);
    } catch (const std::exception& e) {
        return fail(qPrintable(importFailureMessage(e, clusterSourceLabel(source))));
    }
    model::ClusterStore& store = *loaded.store;
    // As plan consolidate: the pods may spread over regions unless --keep-within keeps them in one.
    if (!parser.isSet(QStringLiteral("keep-within")))
        if (const std::string note = regionsNote(store); !note.empty())
            importers::printTerminalf(stderr, "%snote: %s\n", kPrefix, note.c_str());
    try {
        action = placePodsAction(input, gpuModelLabelOf(store));
        addPlaceTemplatePod(store, action, input.podTemplatePath.empty() ? std::string() : input.namespaceName);
    } catch (const std::exception& e) {
        return fail(importers::messageText(e));
    }
    model::PriceTable prices;
    try {
        prices = importers::loadPriceTable(commandLinePath(parser.value(QStringLiteral("prices"))));
    } catch (const std::exception& e) {
        return fail(std::string("--prices: ") + importers::messageText(e));
    }
    model::PlanEngine engine(store, *loaded.topology, model::planNodePrices(store, &prices));
    const model::AppliedAction* applied = nullptr;
    try {
        applied = &engine.apply(action);
    } catch (const std::exception& e) {
        return fail(importers::messageText(e));
    }
    const model::AppliedAction& r = *applied;
    const bool placed = !r.podsAdded.empty();
    if (placed) {
        plan.actions.push_back(action);
        try {
            importers::writeOutputFile(planPath, importers::planJson(plan), planOutput);
        } catch (const std::exception& e) {
            return fail(importers::messageText(e));
        }
    }
    if (format == QLatin1String("json"))
        std::cout << importers::placementJson(pods, *loaded.topology, r);
    else
        std::cout << importers::placementText(pods, action, *loaded.topology, r, parser.value(QStringLiteral("output")).toStdString());
    std::cout.flush();
    if (!std::cout)
        return fail("cannot write to standard output");
    return r.holds ? 0 : 1;
}

} // namespace fleet::app
