// SPDX-License-Identifier: Apache-2.0
#include "savecommand.h"

#include "clustersource.h"
#include "commandlinepath.h"
#include "helptext.h"
#include "outputpath.h"
#include "subcommands.h"

#include "app/shared/importfailure.h"
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

#include <cstdio>
#include <exception>
#include <set>

namespace fleet::app {

namespace {
constexpr const char* kUsage = "fleetscope save (FILE... | --simulate N | --kubeconfig FILE) -o FILE.fleet [--plan PLAN.json]... [--notes TEXT] [--force]";
}

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
        QStringLiteral("Keep a --plan even when it was made on another cluster than the one saved.")));
    addClusterSourceOptions(parser, false);
    if (!parseSubcommandArguments(parser, arguments, "save"))
        return 2;
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(helpTextWithUsage(parser, QString::fromLatin1(kUsage))), stdout);
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
        return 2;
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

    importers::FleetDocument doc;
    std::vector<importers::PlanDocument> plans;
    std::set<std::string> names;
    std::vector<std::string> planPaths;
    for (const QString& planArg : parser.values(QStringLiteral("plan"))) {
        const std::string path = commandLinePath(planArg);
        planPaths.push_back(path);
        importers::DocumentPlan entry;
        entry.name = QFileInfo(planArg).completeBaseName().toStdString();
        if (entry.name.empty())
            entry.name = "plan";
        for (int n = 2; !names.insert(entry.name).second; ++n)
            entry.name = QFileInfo(planArg).completeBaseName().toStdString() + " (" + std::to_string(n) + ")";
        try {
            plans.push_back(importers::readPlanFile(path));
        } catch (const std::exception& e) {
            importers::printTerminalf(stderr, "fleetscope save: %s\n", e.what());
            return 1;
        }
        entry.planJson = importers::planJson(plans.back());
        entry.notes = parser.value(QStringLiteral("notes")).toStdString();
        doc.plans.push_back(std::move(entry));
    }

    const QString label = clusterSourceLabel(source);
    try {
        doc.takenAt = importers::utcNowIso();
        doc.cluster = loadClusterSource(source);
        doc.provenance = clusterPlanSource(source, doc.cluster);
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
        doc.topologyKeys = model::TopologySpec::defaults().levelKeys;
        doc.priceTableCsv = std::string(importers::shippedPriceTableText());
        // Each plan's evaluation on the saved state, on a copy: a place-pods action adds its
        // template pod to the store it is checked on, which the saved state must not hold.
        const std::vector<double> prices = plans.empty() ? std::vector<double> {} : model::planNodePrices(*doc.cluster.store, &importers::shippedPriceTable());
        for (std::size_t i = 0; i < plans.size(); ++i) {
            model::ClusterStore copy = doc.cluster.store->clone();
            importers::addPlanTemplatePods(copy, plans[i], doc.plans[i].name);
            importers::PlanEvaluation evaluation = importers::evaluatePlan(copy, *doc.cluster.topology, plans[i], prices);
            evaluation.state = doc.provenance;
            doc.plans[i].evaluationJson = importers::evaluationJson(doc.plans[i].name, evaluation, copy);
            doc.plans[i].savedAt = doc.takenAt;
        }
        importers::saveFleetDocument(doc, outPath, options);
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
