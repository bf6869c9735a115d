// SPDX-License-Identifier: Apache-2.0
#include "savecommand.h"

#include "model/figures.h"

#include "clustersource.h"
#include "commandlinepath.h"
#include "helptext.h"
#include "outputpath.h"
#include "subcommands.h"

#include "app/shared/importfailure.h"
#include "model/figures.h"
#include "model/plan/planprices.h"

#include "importers/terminaltext.h"
#include "importers/document/fleetdocument.h"
#include "importers/output/documentheader.h"
#include "importers/quotedtext.h"
#include "importers/plan/planfile.h"
#include "importers/plan/plansource.h"
#include "importers/pricing/pricetableloader.h"
#include "importers/export/evaluationformat.h"

#include <QCommandLineParser>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <set>

namespace fleet::app {

int runSave(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Saves a cluster state (files, a simulation, a live cluster or a .fleet document) with where it came from and any "
        "plans as one .fleet document (docs/document.md), which every subcommand and the window open like the source."));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(QStringList { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("The .fleet document to write (replaced atomically: a failed save leaves the previous file as it was)."),
        QStringLiteral("FILE.fleet")));
    parser.addOption(QCommandLineOption(QStringLiteral("plan"),
        QStringLiteral("A plan file (resources/schemas/plan-v1.md) to keep in the document, named after its file; may be repeated."),
        QStringLiteral("PLAN.json")));
    parser.addOption(QCommandLineOption(QStringLiteral("notes"), QStringLiteral("Notes kept with every --plan."), QStringLiteral("TEXT")));
    parser.addOption(QCommandLineOption(QStringLiteral("force"),
        QStringLiteral("Keep a --plan even when it was made on another cluster than the one saved, and replace a document at -o "
                       "whose plans the new one does not keep.")));
    addClusterSourceOptions(parser, false);
    if (!parseSubcommandArguments(parser, arguments, "save"))
        return 2;
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, subcommandUsage("save"))), stdout);
        return 0;
    }
    if (!parser.isSet(QStringLiteral("output"))) {
        importers::printTerminalf(stderr, "fleetscope save: -o FILE.fleet is needed\n");
        return 2;
    }
    const std::string outPath = commandLinePath(parser.value(QStringLiteral("output")));
    importers::OutputFileOptions options = commandOutputOptions(parser);
    options.replacesDocument = true; // save writes a document: it may replace one
    if (const std::string problem = outputTargetProblem("-o", outPath, options); !problem.empty()) {
        importers::printTerminalf(stderr, "fleetscope save: %s\n", problem.c_str());
        // A folder that cannot be written is the output failing (1); `-o -` or -o naming an
        // input is a bad command line (2).
        importers::OutputFileOptions targetOnly = options;
        targetOnly.inputs.clear();
        return outPath != "-" && !outputTargetProblem("-o", outPath, targetOnly).empty() ? 1 : 2;
    }
    // A document replaces a document; a file of another kind there (a kubectl JSON, a CSV) is
    // someone's data that a mistyped -o would destroy.
    if (const QFileInfo target(QString::fromStdString(outPath)); target.exists() && !importers::isFleetDocumentFile(outPath)) {
        importers::printTerminalf(stderr,
            "fleetscope save: -o %s exists and is not a Fleetscope document: saving would replace it (remove it first, or name another file)\n",
            importers::escapedText(outPath).c_str());
        return 2;
    }
    ClusterSource source;
    QString error;
    if (!readClusterSource(parser, false, source, error)) {
        importers::printTerminalf(stderr, "fleetscope save: %s\n", qPrintable(error));
        return 2;
    }

    // Each --plan read before the (slower) state, so that a bad plan file stops the command at once.
    struct PlanArgument {
        std::string path;
        std::string baseName;
        importers::PlanDocument plan;
    };
    std::vector<PlanArgument> planArguments;
    for (const QString& planArg : parser.values(QStringLiteral("plan"))) {
        PlanArgument a;
        a.path = commandLinePath(planArg);
        a.baseName = QFileInfo(planArg).completeBaseName().toStdString();
        if (a.baseName.empty())
            a.baseName = "plan";
        try {
            a.plan = importers::readPlanFile(a.path);
        } catch (const std::exception& e) {
            importers::printTerminalf(stderr, "fleetscope save: %s\n", e.what());
            return 1;
        }
        planArguments.push_back(std::move(a));
    }
    // A .fleet document saved again (a copy, or the same state with more plans) keeps all it
    // holds: its plans with their evaluations and notes, when its state was taken, its topology
    // keys and the prices in force then. Only usage asked from a Prometheus replaces its usage.
    std::string documentInput;
    if (!source.live && !source.simulate && source.files.size() == 1)
        if (const std::string path = commandLinePath(source.files.front()); importers::isFleetDocumentFile(path))
            documentInput = path;

    importers::FleetDocument doc;
    const QString label = clusterSourceLabel(source);
    try {
        if (!documentInput.empty() && !source.usage) {
            doc = importers::openFleetDocument(documentInput);
        } else {
            doc.takenAt = importers::utcNowIso();
            doc.cluster = loadClusterSource(source);
            doc.provenance = clusterPlanSource(source, doc.cluster);
            doc.topologyKeys = model::TopologySpec::defaults().levelKeys;
            doc.priceTableCsv = std::string(importers::shippedPriceTableText());
            if (!documentInput.empty())
                doc.plans = importers::readFleetDocumentPlans(documentInput);
        }
        const std::size_t keptPlans = doc.plans.size();
        if (keptPlans > 0)
            importers::printTerminalf(stderr, "fleetscope save: keeping the %zu plan%s of %s\n", keptPlans, keptPlans == 1 ? "" : "s",
                importers::escapedText(documentInput).c_str());
        // Each --plan named after its file, unique among the document's plans ("name (2)").
        std::set<std::string> names;
        for (const importers::DocumentPlan& kept : doc.plans)
            names.insert(kept.name);
        std::vector<importers::PlanDocument> plans;
        std::vector<std::string> planPaths;
        for (PlanArgument& a : planArguments) {
            importers::DocumentPlan entry;
            entry.name = a.baseName;
            for (int n = 2; !names.insert(entry.name).second; ++n)
                entry.name = a.baseName + " (" + std::to_string(n) + ")";
            entry.planJson = importers::planJson(a.plan);
            entry.notes = parser.value(QStringLiteral("notes")).toStdString();
            planPaths.push_back(a.path);
            plans.push_back(std::move(a.plan));
            doc.plans.push_back(std::move(entry));
        }
        // As plan export: a plan made on another cluster, kept beside this state, would be
        // reviewed and evaluated on the wrong cluster; kept only when forced. Another state of
        // the same cluster is said.
        for (std::size_t i = 0; i < plans.size(); ++i) {
            const std::string other = importers::clusterDifference(plans[i].source, doc.provenance);
            if (!other.empty() && !parser.isSet(QStringLiteral("force"))) {
                importers::printTerminalf(stderr, "fleetscope save: refusing to keep --plan %s: %s; give --force to keep it anyway\n",
                    planPaths[i].c_str(), other.c_str());
                return 2;
            }
            if (const std::string note = other.empty() ? importers::sourceDifference(plans[i].source, doc.provenance) : other;
                !note.empty())
                importers::printTerminalf(stderr, "fleetscope save: note: --plan %s: %s\n", planPaths[i].c_str(), note.c_str());
        }
        // Each new plan's evaluation on the saved state, on a copy: a place-pods action adds its
        // template pod to the store it is checked on, which the saved state must not hold.
        const std::vector<double> prices = plans.empty() ? std::vector<double> {} : model::planNodePrices(*doc.cluster.store, &importers::shippedPriceTable());
        const std::string savedAt = importers::utcNowIso();
        for (std::size_t i = 0; i < plans.size(); ++i) {
            importers::DocumentPlan& entry = doc.plans[keptPlans + i];
            model::ClusterStore copy = doc.cluster.store->clone();
            importers::addPlanTemplatePods(copy, plans[i], entry.name);
            importers::PlanEvaluation evaluation = importers::evaluatePlan(copy, *doc.cluster.topology, plans[i], prices);
            evaluation.state = doc.provenance;
            entry.evaluationJson = importers::evaluationJson(entry.name, evaluation, copy);
            entry.savedAt = savedAt;
        }
        // A document at -o whose plans the new one does not keep (same name, same actions)
        // loses them: said, and done only with --force.
        if (importers::isFleetDocumentFile(outPath)) {
            std::vector<importers::DocumentPlan> held;
            try {
                held = importers::readFleetDocumentPlans(outPath);
            } catch (const std::exception&) {
                // A damaged document keeps nothing that can be read: replaced as any file is.
            }
            std::string names;
            std::size_t lost = 0;
            for (const importers::DocumentPlan& h : held)
                if (std::none_of(doc.plans.begin(), doc.plans.end(),
                        [&](const importers::DocumentPlan& p) { return p.name == h.name && p.planJson == h.planJson; })) {
                    names += (names.empty() ? "" : ", ") + importers::quotedText(h.name);
                    ++lost;
                }
            if (lost > 0) {
                const std::string what = std::to_string(lost) + (lost == 1 ? " plan (" : " plans (") + names + ")";
                if (!parser.isSet(QStringLiteral("force"))) {
                    importers::printTerminalf(stderr,
                        "fleetscope save: -o %s is a document which holds %s that the new one would not keep: give --force to replace "
                        "it, save to another file, or give the document as the source to keep its plans\n",
                        importers::escapedText(outPath).c_str(), what.c_str());
                    return 2;
                }
                importers::printTerminalf(stderr, "fleetscope save: replacing %s, which held %s\n", importers::escapedText(outPath).c_str(),
                    what.c_str());
            }
        }
        importers::saveFleetDocument(doc, outPath, options);
        // As the other verbs that write a file say where it went and what it holds.
        const std::size_t planCount = doc.plans.size();
        std::printf("%s\n", importers::terminalLine("saved " + outPath + ": " + model::formatCount(doc.cluster.store->nodeCount()) + " nodes, "
                                 + model::formatCount(doc.cluster.store->podCount()) + " pods, " + std::to_string(planCount)
                                 + (planCount == 1 ? " plan" : " plans"))
                                 .c_str());
    } catch (const importers::OutputFileError& e) {
        importers::printTerminalf(stderr, "fleetscope save: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        importers::printTerminalf(stderr, "fleetscope save: %s\n", qPrintable(importFailureMessage(e, label)));
        return 1;
    }
    return 0;
}

} // namespace fleet::app
